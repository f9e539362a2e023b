"""Oh My Goods! (Alexander Pfister, Lookout) for 2 to 4 players: the third game.

Each round a market of cards turns up until two half suns show; every seat plans
in secret where its Worker works (efficiently for 2 goods, sloppily for 1), which
Assistants move and which building it will build; two more half suns turn up at
sunset; then each seat in turn produces, runs chains and builds or hires, paying
with goods. Eight buildings trigger one last round. The rules are
RULINGS-goods.md's (cited ``G4.4``); docs/goods.md teaches the game and the cards
(a reconstruction, G0.6).

>>> import langfinger_widget as lf
>>> lf.goods.CARDS["CB1"].building.good, lf.goods.SPEC.players
('coal', range(2, 5))

The view (``Game.view(seat)``, ``public_view()``; format ``goods-view/1``), the
board's one source:

* ``round``, ``phase`` (``hand`` = I, ``plan`` = II, ``production`` = IV, ``over``;
  III, the sunset market, needs no decision), ``phase_number``, ``active``,
  ``final_round``, ``to_decide``, ``sealed`` (one bool a seat during a sealed step,
  else None), ``exhaust`` (G2.3's discards due: ``owing`` seats in order, ``left``).
* ``market`` (cards: ``id``, ``building``, ``name``, ``resource``, ``half_sun``),
  ``half_suns``, ``draw_size``, ``discard`` (ids, face up).
* ``assistants``: the ones on offer: ``id``, ``side``, ``cost``, ``vp``, ``colours``,
  ``owner`` (a seat or None), ``at`` (the building it works at).
* ``players``, one a seat: ``buildings`` (``id``, ``building`` its kind, ``name``,
  ``colour``, ``vp``, ``good``, ``worth``, ``goods`` count, ``coins``, ``supplies``
  (an Office's resource), ``staffed`` (worker/assistant/None), ``assistant``,
  ``mode``), ``vp`` and ``vp_sources``, ``coins``, ``coins_left``, ``hand_size``,
  ``hand`` (own only, card faces), ``planned`` and ``planned_face`` (own only: the id,
  and its face, since the card leaves the hand at the reveal), ``planned_any`` (after the
  reveal), ``mulliganed``, ``sealed``, ``choice`` and ``plan`` (own sealed choice under
  way: ``moves``, ``paying``, ``work``, ``card``, ``promised`` goods by building),
  ``revealed_plan``, ``hired``, ``assistants``.
* ``production`` (phase IV): the producing ``seat``, ``stage`` (produce, supply, after,
  pay, assign), ``run``, ``last``; ``buildings``, one a staffed building, and
  ``current`` (the building being supplied): ``needs``, ``needs_any``, ``market``,
  ``offices``, ``from_hand``, ``supplied``, ``missing``, ``skip``, ``satisfied``,
  ``must_run`` (G4.6); ``chains`` (buildings whose chain is on offer); ``pay``
  (``for``, ``card``, ``assistant``, ``cost``, ``paid``).
* ``kinds``: every building kind's facts (name, colour, cost, VP, needs, good, worth,
  chain); :func:`catalogue` has every card's too. ``standings``, ``winners`` once over.
"""

from __future__ import annotations

from typing import Any

from ..protocol import GameSpec
from . import encoding, evaluation
from .cards import ASSISTANTS, BUILDINGS, CARDS, SHIPPED, Building, Card, CardSet, load_cards
from .figures import figures as seat_figures
from .game import Game
from .greedy import GreedyBot
from .words import action_text, read_action

__all__ = ["ASSISTANTS", "BUILDINGS", "CARDS", "SPEC", "Building", "Card", "CardSet", "Game",
           "GreedyBot", "catalogue", "load_cards"]


def catalogue() -> dict[str, Any]:
    """Every fact a board needs to draw the shipped cards and Assistants, JSON-ready."""
    return SHIPPED.catalogue()


# The searching levels' budgets (bots.make("hard", game="goods")): ISMCTS iterations a
# decision by player count, and ``depth``, the decisions a play-out runs before it is scored.
SEARCH_LEVELS: dict[str, dict[str, Any]] = {
    "hard": {"iterations": {2: 80, 3: 60, 4: 40}, "depth": 80},
    "expert": {"iterations": {2: 200, 3: 150, 4: 100}, "depth": 80},
}


SPEC = GameSpec(
    name="goods",
    title="Oh My Goods!",
    players=range(2, 5),
    Game=Game,
    rulings="G",
    rulings_file="RULINGS-goods.md",
    greedy=GreedyBot,
    players_ruling="G1.1",
    figures=seat_figures,
    action_words=(action_text, read_action),
    action_ids=encoding.action_ids,
    observation=encoding.observation,
    evaluate=evaluation.win_chances,
    # A play-out runs the whole game otherwise (some 350-500 random decisions): the searching
    # levels stop after 80 (about a round) and score the twin by its VP (evaluation.py).
    levels=SEARCH_LEVELS,
)
