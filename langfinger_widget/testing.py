"""Conformance checks for anything that drives the game or shows it to a seat.

Shipped in the package, as PettingZoo ships ``api_test`` and OpenSpiel opens each
game's tests with ``random_sim_test``: the project's own tests use these, and so
should every front end (a widget, a server, an environment) that hands a seat
what it may see.

* :func:`random_playthrough` plays a random game to its end and checks every
  invariant after each move: cards and tokens conserved (R0, R1.4), display
  sizes (R1.1), money never falls, every legal action is legal, the position
  survives ``to_dict`` / ``from_dict`` and notation, and the game ends with a
  winner who has the most money.
* :func:`check_no_leak` is the resampling test for hidden information (R11):
  the position is changed in everything one seat cannot see (:func:`hidden_twin`)
  and whatever that seat receives must stay the same.

>>> from langfinger_widget import testing
>>> testing.random_playthrough(players=3, seed=1).is_over
True
>>> testing.check_no_leak(lambda game, seat: game.view(seat), players=2, seed=3)
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from .kernel import load
from .kernel.cards import (
    FENCE_CARDS,
    LOOT_CARDS,
    TOKENS_PER_PLAYER,
    TOOLS,
    TOOLS_PER_TYPE,
    display_size,
)
from .kernel.game import Game

Receive = Callable[[Game, int], Any]
# Events after which the seat learns something of the hidden part: a twin may differ from then on.
REVEALING = {"cash", "sell", "refill", "deal", "game_over", "reshuffle"}


def check_conserved(game: Game) -> None:
    """Every card once (R0.1-R0.3), three tokens a player (R1.4), no display too full (R1.1)."""
    s = game.state
    tools: Counter[str] = Counter(s.city) + Counter(s.piles["tools"].draw)
    tools.update(s.piles["tools"].discard)
    for p in s.players:
        tools.update(p.hand)
        assert all(n >= 0 for n in p.hand.values()), "a hand holds no negative count"
    assert tools == Counter({t: TOOLS_PER_TYPE for t in TOOLS}), "R0.1: every tool once"
    loot = [*s.villa, *s.museum, *s.piles["loot"].draw, *s.piles["loot"].discard]
    for p in s.players:
        loot.extend(p.loot)
    assert sorted(loot) == sorted(LOOT_CARDS), "R0.2: every loot card once"
    fences = [*s.harbor, *s.piles["fences"].draw, *s.piles["fences"].discard]
    assert sorted(fences) == sorted(FENCE_CARDS), "R0.3: every fence once"
    for seat, p in enumerate(s.players):
        out = sum(x == seat for row in s.squares.values() for x in row)
        out += sum(x == seat for x in s.ruin_rates.values())
        assert p.tokens + out == TOKENS_PER_PLAYER, "R1.4: three tokens a player"
    for place in ("city", "villa", "museum", "harbor"):
        assert len(s.display(place)) <= display_size(place, s.num_players), "R1.1"


def check_position(game: Game) -> None:
    """The position is one play can reach, and it survives its JSON form and its notation."""
    load.check(game.state)
    again = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again.to_dict() == game.to_dict(), "to_dict / from_dict changes nothing"
    assert Game.from_notation(game.notation()).to_dict() == game.to_dict(), "notation round trip"
    legal = game.legal_actions()
    assert legal or game.is_over, "a game that is not over has a legal action"
    assert all(game.is_legal(a) for a in legal), "every legal action is legal"


def random_playthrough(players: int = 3, seed: int = 0, variant: str = "standard",
                       every: int = 4) -> Game:
    """A random game played to its end, every invariant checked (the position's every
    ``every`` moves, the cheap ones each move); returns the finished game."""
    game = Game.new(players=players, seed=seed, variant=variant, start_player=seed % players)
    rng = random.Random(seed)
    money = game.money
    while not game.is_over:
        if game.move_number % every == 0:
            check_conserved(game)
            check_position(game)
        game.play(rng.choice(game.legal_actions()))
        assert all(a <= b for a, b in zip(money, game.money, strict=True)), "money never falls"
        money = game.money
    check_conserved(game)
    assert game.winners and all(game.money[w] == max(game.money) for w in game.winners)
    assert max(game.money) >= 20, "R10: the game ends when someone has 20 or more"
    return game


def hidden_twin(game: Game, seat: int, rng: random.Random) -> Game:
    """The same position except for what ``seat`` cannot see (R11): the unknown part of other
    hands, the order of the draw piles, the fronts of face-down loot with equal backs, the seed."""
    d = game.to_dict()
    others = [i for i in range(game.num_players) if i != seat]
    unknown: list[str] = []
    sizes = []
    for i in others:
        p = d["players"][i]
        rest = Counter(p["hand"]) - Counter(p["known"])
        unknown += list(rest.elements())
        sizes.append(sum(rest.values()))
    rng.shuffle(unknown)
    for i, size in zip(others, sizes, strict=True):
        p = d["players"][i]
        p["hand"] = dict(Counter(p["known"]) + Counter(unknown[:size]))
        del unknown[:size]
    for pile in d["piles"].values():
        rng.shuffle(pile["draw"])
    slots: list[tuple[list[str], int]] = []
    for cards_ in (d["villa"], d["museum"], d["piles"]["loot"]["draw"],
                   *(d["players"][i]["loot"] for i in others)):
        slots += [(cards_, k) for k in range(len(cards_))]
    by_back: dict[tuple[str, tuple[str, ...]], list[tuple[list[str], int]]] = {}
    for cards_, k in slots:
        card = LOOT_CARDS[cards_[k]]
        by_back.setdefault((card.protection, card.tools), []).append((cards_, k))
    for group in by_back.values():
        ids = [cards_[k] for cards_, k in group]
        rng.shuffle(ids)
        for (cards_, k), loot_id in zip(group, ids, strict=True):
            cards_[k] = loot_id
    d["seed"] = d["seed"] + 1
    return Game.from_dict(d)


def check_no_leak(receive: Receive, players: int = 3, seed: int = 0, variant: str = "standard",
                  probes: int = 4) -> None:
    """Whatever ``receive(game, seat)`` hands a seat is blind to what that seat cannot see.

    A random game is played; at ``probes`` points, for every seat, the position is resampled
    in everything hidden from the seat and both positions are played on with the same moves
    until something is revealed: ``receive`` must give the seat the same thing throughout.
    """
    game = Game.new(players=players, seed=seed, variant=variant, start_player=seed % players)
    rng = random.Random(seed)
    length = len(random_playthrough(players, seed, variant, every=10**9).history)
    marks = {length * (k + 1) // (probes + 1) for k in range(probes)}
    while not game.is_over:
        if game.move_number in marks:
            for seat in range(players):
                _same_for(receive, game, seat, rng)
        game.play(rng.choice(game.legal_actions()))


def _same_for(receive: Receive, game: Game, seat: int, rng: random.Random) -> None:
    a, b = Game.from_dict(game.to_dict()), hidden_twin(game, seat, rng)
    assert receive(a, seat) == receive(b, seat), f"seat {seat} sees a hidden difference"
    for _ in range(12):
        if a.is_over or a.to_move == seat:
            return
        common = [x for x in a.legal_actions() if b.why_illegal(x) is None]
        x = rng.choice(common)
        events = a.play(x) + b.play(x)
        if any(e["type"] in REVEALING for e in events):
            return
        assert receive(a, seat) == receive(b, seat), f"seat {seat} sees a hidden difference"


__all__ = ["check_conserved", "check_no_leak", "check_position", "hidden_twin",
           "random_playthrough"]
