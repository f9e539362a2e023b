"""How good a position of Oh My Goods! looks for each seat: the search's cut-off score.

A search that plays out only a few decisions past its tree (ISMCTS's ``depth``) asks the
game how the position stands (``GameSpec.evaluate``). Here it is each seat's victory points
so far (G5.2: buildings, Assistants, a point per five coins of goods, counted in fractions)
plus what its buildings should still bring before the end (G5.1: the end comes a round
after eight buildings), turned into win chances by a softmax. Only the position is read,
and a search only ever holds a twin (``resample``): nothing a seat cannot see is in it.

>>> from langfinger_widget.games.goods import Game
>>> chances = win_chances(Game.new(players=3, seed=1))
>>> [round(c, 3) for c in chances]
[0.333, 0.333, 0.333]
"""

from __future__ import annotations

import math
from typing import Any

from . import rules
from .cards import COINS_PER_VP, END_BUILDINGS

# The softmax's temperature, in VP: a lead of this many VP makes a seat e (2.7) times as
# likely to win as the seat behind it.
TEMPERATURE = 2.0
# A round's income: a Worker's building makes ``WORKER_GOODS`` goods a round on average
# (efficient 2 when its needs are met, sloppy 1, nothing when short), each Assistant's
# building one good (G4.4); a coin spent on buildings buys about ``VP_PER_COIN`` VP.
WORKER_GOODS = 1.2
VP_PER_COIN = 0.25
# A hand card is a resource to supply or a building to plan (G0.2): a little worth.
CARD_VP = 0.1


def seat_values(game: Any) -> list[float]:
    """Each seat's expected VP at the end, roughly: VP now plus the rounds left's income."""
    cs, state = game.cards, game.state
    n = len(state["names"])
    most = max(len(row) for row in state["buildings"])
    rounds_left = 0 if state["phase"] == "over" else \
        1 if state["final"] else max(1, END_BUILDINGS - most) + 1
    values = []
    for seat in range(n):
        score = rules.score(cs, state, seat)
        coins = rules.coins(cs, state, seat)
        row = state["buildings"][seat]
        worths = [rules.building_of(cs, b["id"]).worth for b in row]
        staffed = sum(rules.building_of(cs, b["id"]).worth for b in row
                      if b["assistant"] is not None)
        income = WORKER_GOODS * max(worths, default=0) + staffed
        values.append(score["buildings"] + score["assistants"] + coins / COINS_PER_VP
                      + rounds_left * income * VP_PER_COIN
                      + CARD_VP * len(state["hands"][seat]))
    return values


def win_chances(game: Any) -> list[float]:
    """Each seat's chance to win from here as the search scores it: a softmax of
    :func:`seat_values` at :data:`TEMPERATURE`; the winners share 1 once the game is over."""
    if game.is_over:
        won = game.winners
        return [1.0 / len(won) if s in won else 0.0 for s in range(game.num_players)]
    values = seat_values(game)
    top = max(values)
    weights = [math.exp((v - top) / TEMPERATURE) for v in values]
    total = sum(weights)
    return [w / total for w in weights]
