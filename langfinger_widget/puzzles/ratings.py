"""Glicko-2 ratings for puzzles and their readers, on one scale (docs/puzzles.md).

A puzzle attempt is a game between the reader and the puzzle: solved, the
reader wins. Both ratings move, each by the other's rating and deviation
(Glickman, "Example of the Glicko-2 system", 2012; the steps below are
numbered as there). Pure Python: it runs in Pyodide.

>>> reader = Rating(1500, 200, 0.06)
>>> after = reader.update([(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
...                        (Rating(1700, 300), 0.0)])
>>> round(after.rating, 1), round(after.deviation, 2), round(after.volatility, 6)
(1464.1, 151.52, 0.059996)

(the paper's worked example: 1464.06, 151.52 and 0.05999, from its rounded inner figures).

Why not the ``glicko2`` package from PyPI (2.1, pure Python too): its volatility
step uses the rating where Glickman's step 5 uses the deviation (the paper's
example sits at rating 1500, 0 on the inner scale, so it does not show), and one
small module spares the runtime a dependency.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's inner scale: (rating - 1500) / SCALE
TAU = 0.5  # how fast the volatility may change (Glickman suggests 0.3 to 1.2)
START = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
MIN_DEVIATION = 30.0  # a floor, so that a much-played rating can still move


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating: ``rating`` (1500 to start), its ``deviation`` (350 to start: very
    unsure) and ``volatility`` (how erratic the results have been)."""

    rating: float = START
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    def expected(self, other: Rating) -> float:
        """The chance that this side beats ``other`` (the reader solves the puzzle)."""
        mu, mu_j, phi_j = _inner(self.rating), _inner(other.rating), other.deviation / SCALE
        return _e(mu, mu_j, phi_j)

    def update(self, results: Sequence[tuple[Rating, float]]) -> Rating:
        """The rating after one rating period of ``results``: (opponent, score 1/0.5/0)."""
        mu, phi, sigma = _inner(self.rating), self.deviation / SCALE, self.volatility
        if not results:  # step 6 alone: the deviation grows with time
            return self._with(mu, math.sqrt(phi**2 + sigma**2), sigma)
        opponents = [(_inner(r.rating), r.deviation / SCALE, s) for r, s in results]
        # Step 3: the estimated variance v; step 4: the estimated improvement delta.
        v = 1.0 / sum(_g(pj) ** 2 * _e(mu, mj, pj) * (1 - _e(mu, mj, pj))
                      for mj, pj, _ in opponents)
        gain = sum(_g(pj) * (s - _e(mu, mj, pj)) for mj, pj, s in opponents)
        sigma = _volatility(phi, sigma, v, v * gain)  # step 5
        phi_star = math.sqrt(phi**2 + sigma**2)  # step 6
        phi = 1.0 / math.sqrt(1.0 / phi_star**2 + 1.0 / v)  # step 7
        return self._with(mu + phi**2 * gain, phi, sigma)

    def _with(self, mu: float, phi: float, sigma: float) -> Rating:
        deviation = min(START_DEVIATION, max(MIN_DEVIATION, phi * SCALE))
        return Rating(mu * SCALE + START, deviation, sigma)

    def to_dict(self, exact: bool = False) -> dict[str, float]:
        """As a book stores it (rounded: 1500.3, 52.1, 0.059996), or ``exact``."""
        if exact:
            return {"rating": self.rating, "deviation": self.deviation,
                    "volatility": self.volatility}
        return {"rating": round(self.rating, 1), "deviation": round(self.deviation, 1),
                "volatility": round(self.volatility, 6)}

    @classmethod
    def from_dict(cls, data: dict[str, float]) -> Rating:
        return cls(float(data["rating"]), float(data["deviation"]), float(data["volatility"]))


UNRATED = Rating()  # where every puzzle and reader starts


def _inner(rating: float) -> float:
    return (rating - START) / SCALE


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi**2 / math.pi**2)


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, v: float, delta: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2)
                - (x - a) / TAU**2)

    low = a
    if delta**2 > phi**2 + v:
        high = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        high = a - k * TAU
    f_low, f_high = f(low), f(high)
    while abs(high - low) > 1e-6:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = c, f_c
    return math.exp(low / 2)


def attempt(reader: Rating, puzzle: Rating, solved: bool, hints: int = 0,
            hints_total: int = 0) -> tuple[Rating, Rating]:
    """Both ratings after the reader's attempt at the puzzle.

    A hint costs: with ``hints`` of ``hints_total`` shown, a solve scores
    ``1 - hints / (hints_total + 1)`` instead of 1 (every hint shown: still more
    than a miss), and the puzzle scores the rest.
    """
    score = (1.0 - hints / (hints_total + 1)) if solved else 0.0
    return reader.update([(puzzle, score)]), puzzle.update([(reader, 1.0 - score)])


def band(rating: float, width: int = 200) -> str:
    """The rating band a rating falls in, e.g. ``"1400-1599"``."""
    low = int(rating // width) * width
    return f"{low}-{low + width - 1}"


__all__ = ["UNRATED", "Rating", "attempt", "band"]
