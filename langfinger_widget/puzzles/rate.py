"""Seeding the puzzles' ratings: the ladder's bots attempt every puzzle as rated players.

Each level (``easy`` to ``expert``, at its own budget, docs/bots.md) plays the
puzzle's seat from that seat's view with what the puzzle tells (it sees what a
reader sees on the board, R11.1), the rivals answering as the puzzle says. A solve is the bot's
win. The bots hold fixed ratings: the ladder's measured Elo (docs/bots.md,
"The ladder"), shifted so that their mean is 1500, the Glicko-2 start. Each
puzzle's rating is then one Glicko-2 rating period of those results.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace

from .. import bots
from .model import Puzzle
from .ratings import Rating

# The ladder's Elo (easy 0, medium 599, hard 911, expert 1062) shifted by +857: mean 1500.
# The deviation is about the ladder's 95% interval halved.
LEVELS: dict[str, Rating] = {
    "easy": Rating(857, 100), "medium": Rating(1456, 100),
    "hard": Rating(1768, 100), "expert": Rating(1919, 100),
}
TRIES = {"easy": 3, "medium": 3, "hard": 1, "expert": 1}  # the cheap levels try with 3 seeds


def attempt(puzzle: Puzzle, level: str, seed: int = 0) -> bool:
    """Does the bot ``level`` solve the puzzle (playing its seat, seeded)?"""
    bot = bots.make(level, seed=seed)
    session = puzzle.session()
    while not session.over:
        game = session.game
        # The bot sees what the reader sees: the seat's view and what the puzzle tells (R11.1).
        session.play(bot.choose(session.shown(game.view(puzzle.seat)), game.legal_actions()))
    return session.status().solved


def seed(puzzle: Puzzle, index: int = 0, levels: Sequence[str] = tuple(LEVELS)
         ) -> tuple[Puzzle, dict[str, list[bool]]]:
    """The puzzle with its seeded rating, and each level's results."""
    rng = random.Random(f"rate:{index}:{puzzle.name}")
    results = {lv: [attempt(puzzle, lv, rng.getrandbits(31)) for _ in range(TRIES.get(lv, 1))]
               for lv in levels}
    games = [(LEVELS[lv], 0.0 if solved else 1.0) for lv in levels for solved in results[lv]]
    return replace(puzzle, rating=Rating().update(games)), results


def seed_all(puzzles: Sequence[Puzzle], progress: Callable[[int], None] | None = None
             ) -> list[Puzzle]:
    """Every puzzle with its seeded rating and the difficulty 1-5 that rating gives."""
    out = []
    for i, p in enumerate(puzzles):
        rated, _ = seed(p, i)
        out.append(replace(rated, difficulty=difficulty(rated.rating.rating)))
        if progress is not None:
            progress(1)
    return out


def difficulty(rating: float) -> int:
    """1 (easy) to 5 (hard) from a rating: under 1100, 1300, 1500, 1700, and above."""
    return 1 + sum(rating >= edge for edge in (1100, 1300, 1500, 1700))


__all__ = ["LEVELS", "attempt", "difficulty", "seed", "seed_all"]
