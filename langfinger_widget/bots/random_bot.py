"""RandomBot: a uniformly random legal action, the baseline every bot must beat."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from .base import Action, View, check_inputs, number


class RandomBot:
    """Picks any legal action with equal chance (pass included), seeded."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        number(seed, "the seed", low=-math.inf, whole=True)
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        check_inputs(view, legal)
        return legal[self._rng.randrange(len(legal))]
