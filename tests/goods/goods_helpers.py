"""Shared by the Oh My Goods! tests: positions by hand, random games, refusals."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from langfinger_widget.errors import IllegalAction
from langfinger_widget.games.goods import CARDS, Game


class Deal:
    """A ``goods/1`` position written by hand: pick cards by kind, lay them out; every deck
    card not laid out goes to the draw pile (``top`` last, drawn first)."""

    def __init__(self, players: int = 2, **kw: Any) -> None:
        self.data = Game.new(players=players, seed=1, start_player=0).to_dict()
        self.used: set[str] = set()
        self.players = players
        self.data.update(kw)

    def pick(self, building: str | None = None, resource: str | None = None,
             sun: bool | None = None) -> str:
        for cid, card in CARDS.items():
            if cid in self.used or card.resource is None:
                continue
            if building is not None and card.building.key != building:
                continue
            if resource is not None and card.resource != resource:
                continue
            if sun is not None and card.half_sun != sun:
                continue
            self.used.add(cid)
            return cid
        raise LookupError(f"no card left: {building} {resource} {sun}")

    def cards(self, n: int, **kw: Any) -> list[str]:
        return [self.pick(**kw) for _ in range(n)]

    def building(self, bid: str, goods: int | list[str] = 0, worker: str | None = None,
                 assistant: str | None = None) -> dict[str, Any]:
        self.used.add(bid)
        if isinstance(goods, int):
            goods = self.cards(goods)
        return {"id": bid, "goods": goods, "worker": worker, "assistant": assistant}

    def game(self, *, hands: list[list[str]] | None = None,
             buildings: list[list[dict[str, Any]]] | None = None,
             market: list[str] | None = None, discard: list[str] | None = None,
             top: list[str] | None = None, phase: str = "production", seat: int = 0,
             draw: bool = True, **kw: Any) -> Game:
        d = self.data
        n = self.players
        d["hands"] = [sorted(h) for h in (hands or [[] for _ in range(n)])]
        if buildings is None:
            buildings = [[self.building(f"CB{s + 1}", 7)] for s in range(n)]
        d["buildings"] = buildings
        d["market"] = list(market or [])
        d["discard"] = list(discard or [])
        d["phase"] = phase
        d["queue"], d["exhaust"] = [], None
        d["sealed"] = [phase not in ("hand", "plan")] * n if phase in ("hand", "plan") \
            else [False] * n
        d["turn"] = {"seat": seat, "stage": "produce", "run": [], "last": None,
                     "current": None, "pay": None} if phase == "production" else None
        d["held"] = [len(h) for h in d["hands"]]
        for key, value in kw.items():
            d[key] = value
        self.used.update(c for h in d["hands"] for c in h)
        self.used.update(d["market"])
        self.used.update(d["discard"])
        self.used.update(c for c in d["planned"] if c)
        for row in d["buildings"]:
            for b in row:
                self.used.add(b["id"])
                self.used.update(b["goods"])
        top = list(top or [])
        self.used.update(top)
        rest = [c for c in CARDS if c not in self.used and CARDS[c].resource is not None]
        d["draw"] = (rest if draw else []) + list(reversed(top))
        if not draw:
            d["discard"] = d["discard"] + rest
        return Game.from_dict(d)


def refused(g: Game, action: dict[str, Any], ruling: str, seat: int | None = None) -> None:
    """The action is refused naming ``ruling``, and the game is left as it was."""
    before = json.dumps(g.to_dict())
    why = g.why_illegal(action, seat)
    assert why is not None and why.startswith(ruling + ":"), why
    with pytest.raises(IllegalAction, match=re.escape(ruling)):
        g.play(action, seat)
    assert json.dumps(g.to_dict()) == before


def goods_of(g: Game, seat: int, bid: str) -> int:
    return next(len(b["goods"]) for b in g.state["buildings"][seat] if b["id"] == bid)


def random_game(players: int, seed: int) -> Game:
    g = Game.new(players=players, seed=seed)
    rng = random.Random(seed * 7919 + players)
    while not g.is_over:
        seat = rng.choice(g.to_decide)
        g.play(rng.choice(g.legal_actions(seat)), seat)
    return g


def walk(players: int, seed: int) -> Iterator[tuple[Game, int, dict[str, Any]]]:
    """Each decision of one random game: the game before it, the seat and the action."""
    g = Game.new(players=players, seed=seed)
    rng = random.Random(seed * 31 + players)
    while not g.is_over:
        seat = rng.choice(g.to_decide)
        action = rng.choice(g.legal_actions(seat))
        yield g, seat, action
        g.play(action, seat)


def plan_all(g: Game, card: str | None = None) -> None:
    """Every seat still to plan: Worker efficient at its first free building, ``card`` (or
    none) planned."""
    for s in list(g.to_decide):
        work = next(a for a in g.legal_actions(s) if a["type"] == "work")
        g.play(work, s)
        g.play({"type": "plan_build", "card": card if card in g.state["hands"][s] else None},
               s)
