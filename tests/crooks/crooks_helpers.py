"""Shared by the Crooks tests: play random games, build positions by hand."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from langfinger_widget.games.crooks import Game
from langfinger_widget.games.crooks.cards import START_CASH, TARGETS


def random_game(players: int, seed: int, *, stop: int | None = None) -> Game:
    """A game played by uniformly random legal moves, to the end (or ``stop`` decisions)."""
    g = Game.new(players=players, seed=seed)
    rng = random.Random(seed * 7919 + players)
    while not g.is_over and (stop is None or g.move_number < stop):
        g.play(rng.choice(g.legal_actions()))
    return g


def walk(players: int, seed: int) -> Iterator[Game]:
    """Every position of one random game, in order (the same game object, moving on)."""
    g = Game.new(players=players, seed=seed)
    rng = random.Random(seed * 31 + players)
    yield g
    while not g.is_over:
        g.play(rng.choice(g.legal_actions()))
        yield g


def position(players: int, rows: dict[int, list[list[tuple[str, str]]]], *,
             hangouts: dict[str, list[str]] | None = None, step: str = "start", seat: int = 0,
             cash: list[int] | None = None, passed: list[bool] | None = None,
             **extra: Any) -> dict[str, Any]:
    """A ``crooks/1`` position by hand: ``rows[target]`` lists each seat's (crook, face);
    every crook not placed and not in ``hangouts`` goes to the box."""
    from langfinger_widget.games.crooks import CROOKS

    hangouts = hangouts or {}
    used = {c for per_seat in rows.values() for stack in per_seat for c, _ in stack}
    used |= {c for pile in hangouts.values() for c in pile}
    turn = extra.get("turn")
    if turn and turn.get("hand") and turn.get("target") is None:
        used.add(turn["hand"])
    cash = cash if cash is not None else [START_CASH] * players
    return {
        "format": "crooks/1",
        "names": [f"P{k}" for k in range(players)],
        "seat": seat, "step": step, "cash": cash,
        "passed": passed or [False] * players,
        "paid": [max(0, START_CASH - c) for c in cash],
        "gained": [max(0, c - START_CASH) for c in cash],
        "hangouts": hangouts,
        "targets": {str(t): [[{"crook": c, "face": f} for c, f in stack]
                             for stack in rows.get(t, [[]] * players)] for t in TARGETS},
        "box": sorted(set(CROOKS) - used),
        **extra,
    }
