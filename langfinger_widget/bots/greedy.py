"""GreedyBot: one-step heuristics over money, loot value, tools in hand and the places.

It looks no further than the decision at hand, but it reads the board the
way a sensible first-time player would:

* a face-down loot card is worth the average front that its back may still
  hide (the catalogue is public, R0.4; the cards this seat has seen are ruled
  out), and a non-chest loot only after a sale, so it is discounted;
* a hand of tools is worth how close it brings us to the loot on display
  (:func:`hand_value`), the scoundrel covering one pictured tool (R5.2);
* placing a token, it values each place by what should still be there when
  that token acts: tokens already on the place act first (R2.2, R3.1), and a
  City token of ours acts before the Villa and the Museum, so its tools count.

Ties are broken by the bot's seeded generator. With ``blunders=p`` it plays a
uniformly random legal move instead, with chance ``p`` (the easy level).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence

from ..kernel import cards
from ..kernel.cards import RATE_COUNTS
from ..kernel.hidden import Back, View, back_of, unseen_by_back, unseen_tools
from ..kernel.rules import Key
from .base import Action, check_inputs, keyed, number

SALE_DISCOUNT = 0.8  # non-chest loot pays only once sold at the Harbor (R8.1)
TOOL_COST = 0.3  # what a tool card spent is worth, in money
HAND_BONUS = 0.1  # a tool card in hand, useful or not


class GreedyBot:
    """Best immediate action by a money-and-loot heuristic; seeded tie-breaking.

    ``blunders`` (0 to 1) is the chance of a random legal move instead.
    """

    name = "greedy"

    def __init__(self, seed: int = 0, blunders: float = 0.0) -> None:
        number(seed, "the seed", low=-math.inf, whole=True)
        number(blunders, "blunders (a chance)", high=1.0)
        self.seed = seed
        self.blunders = blunders
        self._rng = random.Random(seed)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        check_inputs(view, legal, game="langfinger")
        if len(legal) == 1:
            return legal[0]
        if self.blunders and self._rng.random() < self.blunders:
            return legal[self._rng.randrange(len(legal))]
        ctx = _Context(view)
        scored = [(ctx.score(key), self._rng.random(), action) for key, action in keyed(legal)]
        return max(scored, key=lambda s: (s[0], s[1]))[2]


class _Context:
    """What the bot reads from one view, computed once per decision."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.seat: int = view["seat"]
        self.me = view["players"][self.seat]
        self.hand: Counter[str] = Counter(self.me["hand"] or {})
        self.tool: str = self.me["tool"]
        self.groups = unseen_by_back(view)
        self.targets = [self.back_value(back_of(c)) for c in view["villa"] + view["museum"]]
        self.target_backs = [back_of(c) for c in view["villa"] + view["museum"]]
        self.pool = unseen_tools(view)

    # --- values -------------------------------------------------------------------------
    def back_value(self, back: Back) -> float:
        """The expected worth of a face-down loot card with this back."""
        ids = self.groups.get(back)
        if not ids:
            return 0.0
        fronts = [cards.LOOT_CARDS[i] for i in ids]
        mean = sum(c.value for c in fronts) / len(fronts)
        return mean if back[0] == "chest" else SALE_DISCOUNT * (mean + 0.5)

    def hand_value(self, hand: Counter[str]) -> float:
        """How far ``hand`` goes toward the loot on display, plus a little per card."""
        total = HAND_BONUS * sum(hand.values())
        for back, value in zip(self.target_backs, self.targets, strict=True):
            total += value * _coverage(hand, back[1], self.tool) ** 2 / 2
        return total

    def steal_value(self, slot_back: Back, pay: Sequence[str]) -> float:
        return self.back_value(slot_back) - TOOL_COST * len(pay)

    # --- scoring legal actions ----------------------------------------------------------
    def score(self, key: Key) -> float:
        kind = key[0]
        if kind == "pass":
            return 0.0
        if kind == "place":
            return self.place_score(key[1])
        if kind == "take_tools":
            return self.hand_value(self.hand + Counter(key[1])) - self.hand_value(self.hand)
        if kind == "steal":
            place = self.view["decision"]["place"]
            back = back_of(self.view[place][key[1]])
            return self.steal_value(back, key[2]) + 0.01 * (not key[3])
        if kind == "exchange":
            return self.exchange_score(key[2], RATE_COUNTS[key[1]][1])
        return self.sale_gain(key[1], key[2])

    def exchange_score(self, give: Sequence[str], draw: int) -> float:
        """Gain in hand value from giving ``give`` and drawing ``draw`` unseen tools."""
        after = self.hand - Counter(give)
        base = self.hand_value(after)
        total = sum(self.pool.values()) or 1
        per_card = sum(
            n * (self.hand_value(after + Counter({t: 1})) - base) for t, n in self.pool.items()
        ) / total
        return base + draw * per_card - self.hand_value(self.hand) - 0.05

    def sale_gain(self, fence_id: str, loot: Sequence[str]) -> float:
        fence = cards.FENCE_CARDS[fence_id]
        return float(sum(cards.LOOT_CARDS[i].value + fence.buys[cards.LOOT_CARDS[i].kind][1]
                         for i in loot))

    # --- placing tokens -----------------------------------------------------------------
    def place_score(self, place: str) -> float:
        squares: list[int | None] = self.view["squares"][place]
        ahead = sum(s is not None for s in squares)
        mine_ahead = sum(s == self.seat for s in squares)
        crowd = 0.15 * mine_ahead  # a second token of ours at one place is worth less
        if place == "city":
            return self.city_score(ahead) - crowd
        if place in ("villa", "museum"):
            return self.loot_place_score(place, ahead)
        if place == "harbor":
            return self.harbor_score(ahead)
        return self.ruin_score(ahead) - crowd

    def city_score(self, ahead: int) -> float:
        left = len(self.view["city"]) - 2 * ahead
        if left <= 0:
            return 0.0
        return self.best_city_gain(self.hand) * (1 - 0.1 * ahead)

    def best_city_gain(self, hand: Counter[str]) -> float:
        city = self.view["city"]
        base = self.hand_value(hand)
        best = 0.0
        for i in range(len(city)):
            for j in range(i + 1, len(city)):
                best = max(best, self.hand_value(hand + Counter([city[i], city[j]])) - base)
        return best

    def expected_hand(self) -> Counter[str]:
        """Our hand when the Villa acts: plus the best City pick if we have a City token."""
        if self.seat not in self.view["squares"]["city"]:
            return self.hand
        city = self.view["city"]
        best, pick = -1.0, Counter[str]()
        for i in range(len(city)):
            for j in range(i + 1, len(city)):
                gain = self.hand_value(self.hand + Counter([city[i], city[j]]))
                if gain > best:
                    best, pick = gain, Counter([city[i], city[j]])
        return self.hand + pick

    def loot_place_score(self, place: str, ahead: int) -> float:
        display = [back_of(c) for c in self.view[place]]
        if ahead >= len(display):
            return 0.0
        hand = self.expected_hand()
        used = self.me["scoundrel_used"][place]
        values = []
        for back in display:
            cov = _coverage(hand, back[1], None if used else self.tool)
            worth = self.back_value(back) - TOOL_COST * len(back[1])
            values.append(worth if cov >= 1.0 else 0.35 * worth * cov ** 2)
        values.sort(reverse=True)
        return values[min(ahead, len(values) - 1)] if ahead < len(values) else 0.0

    def harbor_score(self, ahead: int) -> float:
        harbor = self.view["harbor"]
        if ahead >= len(harbor):
            return 0.0
        mine = [c for c in self.me["loot"] if "id" in c]
        gains = []
        for fence in harbor:
            best = 0.0
            for kind, (count, bonus) in fence["buys"].items():
                values = sorted((c["value"] for c in mine if c["kind"] == kind), reverse=True)
                best = max(best, sum(v + bonus for v in values[:count]))
            gains.append(best)
        gains.sort(reverse=True)
        sale = gains[min(ahead, len(gains) - 1)]
        if sale:
            return sale
        # Loot we take this round can be sold later in the same round (R3.1: Harbor is last).
        pending = any(s == self.seat for p in ("villa", "museum") for s in self.view["squares"][p])
        return 0.8 if pending else 0.0

    def ruin_score(self, ahead: int) -> float:
        free = sum(s is None for s in self.view["ruin_rates"].values())
        if ahead >= free or not self.hand:
            return 0.0
        weakest = min(self.hand, key=lambda t: self.hand_value(self.hand - Counter([t])))
        return max(0.0, self.exchange_score([weakest], 2))


def _coverage(hand: Counter[str], pictured: Sequence[str], scoundrel: str | None) -> float:
    """The share of pictured tools that ``hand`` pays, the scoundrel covering one (R5.2)."""
    need = Counter(pictured)
    if scoundrel is not None and need[scoundrel] and hand[scoundrel] < need[scoundrel]:
        need[scoundrel] -= 1
        covered = 1
    else:
        covered = 0
    covered += sum(min(hand[t], n) for t, n in need.items())
    return covered / len(pictured)

