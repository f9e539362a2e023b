"""GreedyBot for Crooks: one-step heuristics over the points the board would pay now.

It decides from a seat's view and the legal actions only (never the ``Game``).
Its yardstick is the score gap: its own points minus the best other seat's,
counted as C6.2-C6.4 would count the board now, a face-down crook it cannot see
standing for the average crook it has not seen (the catalogue is public, C0.4).
Dollars count for ``CASH_WEIGHT`` points: they buy later recruits and break ties
(C6.5).

* Recruiting, a pile it knows is worth its best crook's gain; a pile it does not
  know, the best of as many crooks drawn from those it has not seen (averaged
  over a few draws); the price is paid in dollars. It passes when no pile is
  worth its price.
* Keeping and placing, it tries each legal choice on the board and keeps the
  best; a special's follow-up (the Switch's move, the Killer's victim) is valued
  at its best choice. Face down costs $1 and gains a little for each rank the
  others cannot see coming.

Ties are broken by the bot's seeded generator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..base import check_bot
from .cards import GANG_POINTS, GANGS, TARGETS

Action = dict[str, Any]
CASH_WEIGHT = 0.45  # points a dollar is worth to the bot
HIDDEN_BONUS = 0.08  # per rank, for a crook the others cannot see (C8.1)
SPY_BONUS = 0.4  # what a look is worth
DRAWS = 4  # draws of an unknown pile
VIEW_FORMAT = "crooks-view/1"

# A crook on the bot's board: rank, modifier, gangs (unknown: the average unseen crook).
Card = tuple[float, float, tuple[str, ...]]


class GreedyBot:
    """Best immediate action by the score gap; seeded tie-breaking.

    ``blunders`` (0 to 1) is the chance of a uniformly random legal move instead.
    """

    name = "greedy"

    def __init__(self, seed: int = 0, blunders: float = 0.0) -> None:
        self.seed, self.blunders = check_bot(seed, blunders)
        self._rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if not isinstance(view, dict) or view.get("format") != VIEW_FORMAT \
                or not isinstance(view.get("seat"), int):
            raise TypeError(f"the Crooks bot takes a seat's view (a {VIEW_FORMAT!r} dict with "
                            f"a seat), not {type(view).__name__}")
        if not isinstance(legal, (list, tuple)) or not legal \
                or not all(isinstance(a, dict) for a in legal):
            raise TypeError("legal must be a non-empty list of action dicts")
        if len(legal) == 1:
            only: Action = legal[0]
            return only
        if self.blunders and self._rng.random() < self.blunders:
            pick: Action = legal[self._rng.randrange(len(legal))]
            return pick
        ctx = _Context(view, self._rng)
        scored = [(ctx.value(a), self._rng.random(), n) for n, a in enumerate(legal)]
        best: Action = legal[max(scored)[2]]
        return best


class _Context:
    """What the bot reads from one view, computed once per decision."""

    def __init__(self, view: dict[str, Any], rng: random.Random) -> None:
        self.view = view
        self.rng = rng
        self.seat: int = view["seat"]
        self.n: int = view["num_players"]
        self.cash: int = view["players"][self.seat]["cash"]
        self.deck = {c["id"]: c for c in view["deck"]}
        seen = {p["crook"]["id"] for t in view["targets"] for row in t["rows"] for p in row
                if p["crook"] is not None}
        for h in view["hangouts"]:
            seen.update(c["id"] for c in h["cards"] or ())
        turn = view["turn"] or {}
        seen.update(c["id"] for c in turn.get("pile") or ())
        if turn.get("hand"):
            seen.add(turn["hand"]["id"])
        self.unseen = [c for i, c in self.deck.items() if i not in seen]
        pool = self.unseen or list(self.deck.values())
        self.mean_rank = sum(c["rank"] for c in pool) / len(pool)
        self.mean_mod = sum(c["modifier"] for c in pool) / len(pool)
        unknown: Card = (self.mean_rank, self.mean_mod, ())
        self.board: dict[int, list[list[Card]]] = {
            t["target"]: [[unknown if p["crook"] is None else _card(p["crook"]) for p in row]
                          for row in t["rows"]] for t in view["targets"]}
        self.tpoints = {t: self._target_points(t, rows) for t, rows in self.board.items()}
        self.tgangs = {t: self._gang_counts(rows) for t, rows in self.board.items()}
        self.points = [sum(p[s] for p in self.tpoints.values()) for s in range(self.n)]
        self.gangs = {g: [sum(c[g][s] for c in self.tgangs.values()) for s in range(self.n)]
                      for g in GANGS}
        self.base = self.gap({})
        self._best: dict[str, float] = {}

    # --- the yardstick ------------------------------------------------------------------
    def _target_points(self, target: int, rows: list[list[Card]]) -> list[float]:
        """What each seat takes at one target (C6.2, C6.3)."""
        points = [0.0] * self.n
        present = [s for s in range(self.n) if rows[s]]
        if present:
            worth = max(0.0, target + sum(c[1] for row in rows for c in row))
            strength = [sum(c[0] for c in row) for row in rows]
            best = max(strength[s] for s in present)
            top = [s for s in present if strength[s] == best]
            for s in top:
                points[s] = worth / len(top)
        return points

    def _gang_counts(self, rows: list[list[Card]]) -> dict[str, list[int]]:
        return {g: [sum(1 for c in row if g in c[2]) for row in rows] for g in GANGS}

    def gap(self, changes: dict[int, list[list[Card]]]) -> float:
        """The bot's points minus the best other seat's (C6.2-C6.4), on the board with the
        targets of ``changes`` holding those rows instead."""
        points = list(self.points)
        gangs = {g: list(c) for g, c in self.gangs.items()}
        for t, rows in changes.items():
            old, new = self.tpoints[t], self._target_points(t, rows)
            old_g, new_g = self.tgangs[t], self._gang_counts(rows)
            for s in range(self.n):
                points[s] += new[s] - old[s]
                for g in GANGS:
                    gangs[g][s] += new_g[g][s] - old_g[g][s]
        for counts in gangs.values():
            most = max(counts)
            if most >= 1 and counts.count(most) == 1:  # C6.4
                points[counts.index(most)] += GANG_POINTS[self.n]
        others = max(points[s] for s in range(self.n) if s != self.seat)
        return points[self.seat] - others

    def rows(self, target: int) -> list[list[Card]]:
        """A copy of one target's rows, to change."""
        return [list(r) for r in self.board[target]]

    def with_card(self, target: int, card: Card, stack: bool = False
                  ) -> dict[int, list[list[Card]]]:
        rows = self.rows(target)
        rows[self.seat] = [*rows[self.seat], card] if stack else [card]
        return {target: rows}

    # --- valuing actions ----------------------------------------------------------------
    def value(self, action: Action) -> float:
        kind = action["type"]
        if kind == "pass":
            return 0.0
        if kind == "recruit":
            return self.recruit_value(action["hangout"])
        if kind == "keep":
            return self.best_placement(action["crook"], self.cash)
        if kind == "place":
            turn = self.view["turn"]
            return self.placement(turn["hand"], action["target"], action["face"],
                                  action["effect"], self.cash)
        if kind == "switch":
            turn = self.view["turn"]
            return self.moved(turn["target"], action["to"])
        if kind == "kill":
            return self.killed(self.view["turn"]["target"], action["seat"])
        return self.spy_value(action)

    def recruit_value(self, hangout: str) -> float:
        pile = next(h for h in self.view["hangouts"] if h["hangout"] == hangout)
        cash = self.cash - pile["size"]
        if pile["cards"] is not None:
            gains = [self.best_placement(c["id"], cash) for c in pile["cards"]
                     if c["special"] != "kingpin" or pile["size"] == 1]
            gain = max(gains, default=0.0)
        else:
            pool = self.unseen or list(self.deck.values())
            draws = []
            for _ in range(DRAWS):
                hand = self.rng.sample(pool, min(pile["size"], len(pool)))
                draws.append(max(self.best_placement(c["id"], cash) for c in hand))
            gain = sum(draws) / len(draws)
        size: int = pile["size"]
        return gain - CASH_WEIGHT * size

    def best_placement(self, crook: str, cash: int) -> float:
        """The best a crook could do placed now (any target, face, effect): a keep's worth."""
        if crook not in self._best:
            options = [self.placement(self.deck[crook], t, face, effect, cash)
                       for t in TARGETS for face, effect in (("up", False), ("up", True),
                                                             ("down", False))
                       if self._could(crook, t, face, effect, cash)]
            self._best[crook] = max(options, default=-1.0 - CASH_WEIGHT)
        return self._best[crook]

    def _could(self, crook: str, target: int, face: str, effect: bool, cash: int) -> bool:
        """A rough legality (the bot does not hold the rules; real choices come from legal)."""
        special = self.deck[crook]["special"]
        mine = bool(self.board[target][self.seat])
        if face == "down":
            return not mine and cash >= 1 and special != "kingpin"
        if effect:
            if mine:
                return special in ("accomplice", "switch", "killer")
            return special in ("pickpocket", "kingpin", "spy") or (
                special == "killer" and any(self.board[target]))
        return not mine and special != "kingpin"

    def placement(self, crook: dict[str, Any], target: int, face: str, effect: bool,
                  cash: int) -> float:
        card = _card(crook)
        special = crook["special"] if effect else None
        bonus = 0.0
        if face == "down":
            bonus = HIDDEN_BONUS * card[0] - CASH_WEIGHT
        if special == "pickpocket":
            bonus += 2 * CASH_WEIGHT
        if special == "spy":
            bonus += SPY_BONUS
        if special == "accomplice":
            return self.gap(self.with_card(target, card, stack=True)) - self.base + bonus
        if special == "switch":
            here = self.rows(target)
            moving, here[self.seat] = here[self.seat], [card]
            best = -99.0
            for to in TARGETS:
                if to != target and not self.board[to][self.seat]:
                    there = self.rows(to)
                    there[self.seat] = moving
                    best = max(best, self.gap({target: here, to: there}))
            return best - self.base + bonus
        if special == "killer":
            best = -99.0
            for victim in range(self.n):
                if self.board[target][victim]:
                    here = self.rows(target)
                    here[victim] = []
                    here[self.seat] = [card]
                    best = max(best, self.gap({target: here}))
            return best - self.base + bonus
        return self.gap(self.with_card(target, card)) - self.base + bonus

    def moved(self, target: int, to: int) -> float:
        here, there = self.rows(target), self.rows(to)
        there[self.seat], here[self.seat] = here[self.seat][:-1], here[self.seat][-1:]
        return self.gap({target: here, to: there})

    def killed(self, target: int, victim: int) -> float:
        here = self.rows(target)
        here[victim] = here[victim][-1:] if victim == self.seat else []
        return self.gap({target: here})

    def spy_value(self, action: Action) -> float:
        if "target" in action:
            rows = next(t for t in self.view["targets"] if t["target"] == action["target"])
            return float(sum(p["crook"] is None for row in rows["rows"] for p in row)) + 0.5
        pile = next(h for h in self.view["hangouts"] if h["hangout"] == action["hangout"])
        size: int = pile["size"]
        return 0.2 * size


def _card(crook: dict[str, Any]) -> Card:
    return (float(crook["rank"]), float(crook["modifier"]), tuple(crook["gangs"]))
