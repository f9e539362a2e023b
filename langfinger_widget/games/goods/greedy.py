"""GreedyBot for Oh My Goods!: one-step heuristics over coins and VP.

It decides from a seat's view and the legal actions only (never the ``Game``).

* Phase I: it keeps a hand holding a building it could pay for soon, else mulligans.
* The plan: no Assistant moves (2 coins rarely pay back); the Worker where it expects the
  most coins, efficient when the sunrise market, its Offices and the hand cards it can
  spare close the gap, else sloppy; the planned card the building of most VP and worth
  it can hope to pay for this round, or none.
* Production: every building it can run, the dearest good first; every chain on offer
  (a hand card becomes a good); then build, else hire the Assistant of most VP, paying
  with the good that covers the rest most closely (no change is given, G4.10).

Ties are broken by the bot's seeded generator.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ...errors import BadArgument
from ..base import check_bot

Action = dict[str, Any]
VIEW_FORMAT = "goods-view/1"


class GreedyBot:
    """Best immediate action by coins and VP; ``blunders`` (0 to 1) is the chance of a
    uniformly random legal move instead."""

    name = "greedy"

    def __init__(self, seed: int = 0, blunders: float = 0.0) -> None:
        self.seed, self.blunders = check_bot(seed, blunders)
        self._rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if not isinstance(view, dict) or view.get("format") != VIEW_FORMAT:
            raise BadArgument("the goods greedy bot plays from an Oh My Goods! view")
        if not legal:
            raise BadArgument("no legal action to choose from")
        if self.blunders and self._rng.random() < self.blunders:
            return dict(self._rng.choice(list(legal)))
        scored = [(float(self._value(view, a)), self._rng.random(), a) for a in legal]
        return dict(max(scored, key=lambda t: (t[0], t[1]))[2])

    # --- values -------------------------------------------------------------------------
    def _value(self, view: dict[str, Any], action: Action) -> Any:
        seat = view["seat"] if view["seat"] is not None else view["to_decide"][0]
        me = view["players"][seat]
        kinds = view["kinds"]
        kind = action["type"]
        mine = {b["id"]: b for b in me["buildings"]}
        hand = me["hand"] or []
        coins = me["coins"]
        if kind == "keep":
            return 1.0 if any(kinds[c["building"]]["cost"] <= coins + 4 for c in hand) else 0.0
        if kind == "mulligan":
            return 0.5
        if kind == "discard":
            return -kinds[_card(hand, action["card"])["building"]]["cost"]
        if kind == "move_assistant":
            return -1.0
        if kind == "work":
            if action["building"] is None:
                return 0.0
            return _work_value(view, seat, action["building"], action["mode"])
        if kind == "plan_build":
            if action["card"] is None:
                return 0.5
            k = kinds[_card(hand, action["card"])["building"]]
            if k["cost"] > coins + 6:
                return 0.0
            late = view["final_round"] or view["round"] >= 9
            # a grey building's lasting benefit, in coins a round: an Office's resource,
            # an Inn's card
            lasting = 3.0 if k["colour"] == "grey" and not k["extra_cards"] else \
                1.5 if k["extra_cards"] else float(k["worth"])
            return 1 + k["vp"] * (3 if late else 1.5) + (0 if late else lasting) \
                - max(0, k["cost"] - coins) * 0.3
        if kind == "produce":
            return 20 + mine[action["building"]]["worth"]
        if kind == "supply":
            return 10 - kinds[_card(hand, action["card"])["building"]]["vp"]
        if kind == "chain":
            return 15 + mine[action["building"]]["worth"] * (len(action["hand"]) +
                                                             len(action["goods"])) \
                - 2 * len(action["hand"])
        if kind == "build":
            return 30.0
        if kind == "hire":
            a = next(x for x in view["assistants"] if x["id"] == action["assistant"])
            return 20 + a["vp"] * 2 - a["cost"] * 0.5
        if kind == "pay":
            prod = view["production"]
            pay = prod["pay"] if prod and prod["pay"] else None
            left = (pay["cost"] - pay["paid"]) if pay else 2
            worth = mine[action["building"]]["worth"]
            return -(worth - left) if worth >= left else worth - 100
        if kind == "assign":
            return mine[action["building"]]["worth"]
        return 0.0  # done


def _card(hand: list[dict[str, Any]], card: str) -> dict[str, Any]:
    return next(c for c in hand if c["id"] == card)


def _work_value(view: dict[str, Any], seat: int, bid: str, mode: str) -> float:
    """Coins the Worker may make at ``bid`` in ``mode`` against the market so far."""
    me = view["players"][seat]
    b = next(x for x in me["buildings"] if x["id"] == bid)
    k = view["kinds"][b["building"]]
    supply: Counter[str] = Counter(c["resource"] for c in view["market"])
    supply.update(x["supplies"] for x in me["buildings"] if x["supplies"])
    hand = Counter(c["resource"] for c in me["hand"] or [])
    if k["needs_any"]:
        gap = max(0, k["needs_any"] - sum(supply.values()) - 3)  # sunset adds about 3
        cover = sum(hand.values())
    else:
        need = Counter(k["needs"])
        lack = {r: n - supply[r] for r, n in need.items() if n > supply[r]}
        gap = sum(lack.values())
        cover = sum(min(n, hand[r]) for r, n in lack.items())
        gap = max(0, gap - 1)  # sunset usually brings one more
    skip = 1 if mode == "sloppy" else 0
    goods = 2 if mode == "efficient" else 1
    if gap - skip > cover:
        return 0.1 * goods
    return float(k["worth"] * goods - 1.5 * max(0, gap - skip))
