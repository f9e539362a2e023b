"""Helpers shared by the rules tests: hand-written positions, card lookups, random play.

Cards are found by their properties (protection, tools, kind, value), never
by hard-coded ids, so that the tests survive edits to ``data/deck.json``
(R0.4: the deck is a reconstruction that may change).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

import langfinger_widget as lf
from langfinger_widget.kernel.cards import PLACES, TOKENS_PER_PLAYER

FORMAT = "langfinger/1"
SCOUNDREL_ORDER = ("pascal", "hans", "tommaso", "yoshiko", "bobby")


def find_loot(
    *, protection: str | None = None, tools: Iterable[str] | None = None,
    kind: str | None = None, value: int | None = None, exclude: Iterable[str] = (),
) -> str:
    """The first loot id (by id) with these properties; fails the test naming R0.2 if none."""
    want_tools = None if tools is None else Counter(tools)
    skip = set(exclude)
    for card_id in sorted(lf.LOOT_CARDS):
        c = lf.LOOT_CARDS[card_id]
        if card_id in skip:
            continue
        if protection is not None and c.protection != protection:
            continue
        if want_tools is not None and Counter(c.tools) != want_tools:
            continue
        if kind is not None and c.kind != kind:
            continue
        if value is not None and c.value != value:
            continue
        return card_id
    raise AssertionError(f"R0.2: the deck holds no loot card with protection={protection} "
                         f"tools={tools} kind={kind} value={value} (excluding {sorted(skip)})")


def find_fence(buys: dict[str, tuple[int, int]] | None = None, *, exact: bool = False,
               without: Iterable[str] = (), exclude: Iterable[str] = ()) -> str:
    """The first fence buying at least (``exact``: exactly) ``buys`` and none of ``without``."""
    skip, never = set(exclude), set(without)
    for fence_id in sorted(lf.FENCE_CARDS):
        f = dict(lf.FENCE_CARDS[fence_id].buys)
        if fence_id in skip or never & set(f):
            continue
        wanted = buys or {}
        if exact and f != wanted:
            continue
        if all(f.get(k) == v for k, v in wanted.items()):
            return fence_id
    raise AssertionError(f"R0.3: the deck holds no fence buying {buys} without {sorted(never)}")


def position(phase: str, players: list[dict[str, Any]], **rest: Any) -> dict[str, Any]:
    """A hand-written position, composed (it need not come from a deal: docs/state-format.md);
    each player's ``tokens`` defaults to those not on the board."""
    squares = rest.get("squares", {})
    rates = rest.get("ruin_rates", {})
    out_players = []
    for seat, p in enumerate(players):
        p = dict(p)
        if "tokens" not in p:
            out = sum(s == seat for row in squares.values() for s in row)
            out += sum(s == seat for s in rates.values())
            p["tokens"] = TOKENS_PER_PLAYER - out
        out_players.append(p)
    return {"format": FORMAT, "composed": True, "phase": phase, "players": out_players, **rest}


def row(*seats: int | None) -> list[int | None]:
    """A place's five squares, the given seats first."""
    return [*seats, *[None] * (5 - len(seats))]


def load(d: dict[str, Any], tops: dict[str, list[str]] | None = None) -> lf.Game:
    """Load ``d``; ``tops`` puts these cards on top of the named draw piles (R9.2 order)."""
    g = lf.Game.from_dict(d)
    if not tops:
        return g
    full = g.to_dict()
    for pile, top in tops.items():
        draw = list(full["piles"][pile]["draw"])
        for card in top:
            draw.remove(card)
        full["piles"][pile]["draw"] = [*top, *draw]
    return lf.Game.from_dict(full)


def play_all(g: lf.Game, actions: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Play the actions in order; return all their events."""
    events: list[dict[str, Any]] = []
    for a in actions:
        events.extend(g.play(a))
    return events


def random_game(players: int, seed: int, variant: str = "standard",
                max_steps: int | None = None) -> lf.Game:
    """A game played by a seeded random policy (to the end, or ``max_steps`` decisions)."""
    g = lf.Game.new(players=players, seed=seed, variant=variant,
                    start_player=seed % players)
    rng = random.Random(seed)
    steps = 0
    while not g.is_over and (max_steps is None or steps < max_steps):
        g.play(rng.choice(g.legal_actions()))
        steps += 1
    return g


def busy_game(players: int, seed: int, moves: int, variant: str = "standard",
              start_player: int | None = None) -> lf.Game:
    """A game after ``moves`` seeded random actions (or over, if it ends first), passing
    only one time in ten when something else is legal: positions with loot, tools and
    money in play, as bots and exports meet them."""
    g = lf.Game.new(players=players, seed=seed, variant=variant, start_player=start_player)
    rng = random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            break
        legal = g.legal_actions()
        acting = [a for a in legal if a["type"] != "pass"]
        g.play(rng.choice(acting if acting and rng.random() < 0.9 else legal))
    return g


def place(p: str) -> dict[str, Any]:
    return {"type": "place", "place": p}


PASS: dict[str, Any] = {"type": "pass"}
ALL_PLACES = PLACES
