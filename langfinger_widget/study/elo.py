"""Elo ratings from pairwise results, with bootstrap confidence intervals.

Each result says how one player did against another in one game: 1 (ahead),
0.5 (level) or 0 (behind). The ratings are the maximum-likelihood fit of the
Bradley-Terry model, ``P(i beats j) = 1 / (1 + 10 ** ((R_j - R_i) / 400))``
(the Elo scale; a level counts half a win each), found with Hunter's MM
iteration (2004). A pair that only ever won against another would drive the
fit to infinity, so every pair that met also gets ``prior`` virtual draws
(half a win each way): a mild pull toward equal ratings that the real games
soon outweigh. The confidence intervals come from the percentile bootstrap:
each pair's games are resampled with replacement and the fit is redone.

>>> r = fit(["a", "b"], [("a", "b", 1.0)] * 64 + [("a", "b", 0.0)] * 36)
>>> round(r["a"] - r["b"])  # 64% is about 100 Elo
99
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ..kernel.errors import BadArgument

Result = tuple[str, str, float]  # (player, opponent, the player's score in that game)


def _tally(players: Sequence[str], results: Sequence[Result], prior: float
           ) -> tuple[dict[str, float], dict[tuple[str, str], float]]:
    """Each player's wins (draws as halves, plus the prior) and each pair's games."""
    wins = dict.fromkeys(players, 0.0)
    games: dict[tuple[str, str], float] = defaultdict(float)
    for a, b, score in results:
        if a == b:
            raise BadArgument(f"a result of {a!r} against itself")
        wins[a] += score
        wins[b] += 1.0 - score
        games[min(a, b), max(a, b)] += 1.0
    for pair in list(games):
        games[pair] += prior
        for p in pair:
            wins[p] += prior / 2
    return wins, games


def fit(players: Sequence[str], results: Sequence[Result], prior: float = 1.0,
        anchor: str | None = None) -> dict[str, float]:
    """Elo ratings of ``players`` (``anchor``, by default the first, at 0)."""
    unknown = {p for a, b, _ in results for p in (a, b)} - set(players)
    if unknown:
        raise BadArgument(f"results name players not rated: {sorted(unknown)}")
    wins, games = _tally(players, results, prior)
    opponents: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for (a, b), n in games.items():
        opponents[a].append((b, n))
        opponents[b].append((a, n))
    strength = dict.fromkeys(players, 1.0)
    for _ in range(10_000):
        new = {}
        for p in players:
            denominator = sum(n / (strength[p] + strength[q]) for q, n in opponents[p])
            new[p] = wins[p] / denominator if denominator else strength[p]
        scale = math.exp(sum(math.log(s) for s in new.values() if s > 0) / len(new))
        new = {p: s / scale for p, s in new.items()}
        change = max(abs(math.log(new[p] / strength[p])) for p in players if new[p] > 0)
        strength = new
        if change < 1e-10:
            break
    base = strength[anchor if anchor is not None else players[0]]
    return {p: 400 * math.log10(strength[p] / base) for p in players}


@dataclass(frozen=True)
class Ratings:
    """Ratings with 95% intervals, and the gap from each player to the one before it."""

    players: tuple[str, ...]
    elo: dict[str, float]
    ci95: dict[str, tuple[float, float]]
    gaps: dict[str, tuple[float, float, float]]  # player -> (gap, low, high) to the previous

    def table(self) -> list[str]:
        lines = [f"{'':10} {'Elo':>7} {'95% CI':>17} {'gap to previous [95% CI]':>30}"]
        for p in self.players:
            low, high = self.ci95[p]
            gap = self.gaps.get(p)
            step = f"{gap[0]:+7.0f}  [{gap[1]:+5.0f}, {gap[2]:+5.0f}]" if gap else ""
            lines.append(f"{p:10} {self.elo[p]:7.0f}  [{low:6.0f}, {high:6.0f}] {step:>30}")
        return lines


def _percentiles(values: list[float]) -> tuple[float, float]:
    values = sorted(values)
    last = len(values) - 1
    return values[round(0.025 * last)], values[round(0.975 * last)]


def rate(players: Sequence[str], results: Sequence[Result], rounds: int = 1000, seed: int = 0,
         prior: float = 1.0) -> Ratings:
    """:func:`fit` plus percentile-bootstrap intervals (``rounds`` resamples, seeded).

    Resampling is done pair by pair, so each pair keeps its number of games.
    The first player is the anchor (0); ``gaps`` compare each player with the
    one listed before it (for a ladder listed weakest first: how much stronger
    each level is than the one below).
    """
    elo = fit(players, results, prior)
    by_pair: dict[tuple[str, str], list[Result]] = defaultdict(list)
    for r in results:
        by_pair[min(r[0], r[1]), max(r[0], r[1])].append(r)
    rng = random.Random(seed)
    samples: dict[str, list[float]] = defaultdict(list)
    steps: dict[str, list[float]] = defaultdict(list)
    for _ in range(rounds):
        again = [rng.choice(games) for games in by_pair.values() for _ in games]
        resampled = fit(players, again, prior)
        for i, p in enumerate(players):
            samples[p].append(resampled[p])
            if i:
                steps[p].append(resampled[p] - resampled[players[i - 1]])
    ci95 = {p: _percentiles(samples[p]) for p in players}
    gaps = {p: (elo[p] - elo[players[i - 1]], *_percentiles(steps[p]))
            for i, p in enumerate(players) if i}
    return Ratings(tuple(players), elo, ci95, gaps)


__all__ = ["Ratings", "Result", "fit", "rate"]
