"""Langfinger (Sticky Fingers, Fiore & Happel, 2009) as a Jupyter widget.

The rules kernel (``Game``) runs anywhere, headless; ``LangfingerWidget``
needs anywidget and is imported only when asked for.
"""

from __future__ import annotations

from typing import Any

from .kernel import cards
from .kernel.cards import FENCE_CARDS, LOOT_CARDS, SCOUNDRELS
from .kernel.errors import (
    BadArgument,
    IllegalAction,
    InvalidState,
    LangfingerError,
    NotationError,
    RecordError,
)
from .kernel.game import Game
from .version import __version__ as __version__

__all__ = [
    "FENCE_CARDS",
    "LOOT_CARDS",
    "SCOUNDRELS",
    "BadArgument",
    "Game",
    "IllegalAction",
    "InvalidState",
    "LangfingerError",
    "LangfingerWidget",
    "NotationError",
    "PuzzleTrainer",
    "RecordError",
    "analyse",
    "bots",
    "cards",
    "puzzles",
]


# Modules reached as attributes (``lf.bots``, ``lf.notation``...), each loaded on first use:
# the floors it lives on are an implementation detail of the package.
_LAZY = {
    "bots": "bots", "puzzles": "puzzles", "records": "records", "envs": "envs",
    "errors": "kernel.errors",
    "rules": "kernel.rules", "notation": "kernel.notation", "builder": "kernel.builder",
    "solver": "puzzles.solver", "table": "tables.table", "scheduler": "tables.scheduler",
    "replay": "tables.replay", "runtime": "tables.runtime",
    "analysis": "study.analysis",
    "platform": "tables.runtime",  # its name before the floors (README, older notebooks)
    "elo": "study.elo", "study": "study", "testing": "testing", "describe": "kernel.describe",
    "words": "kernel.words", "rulings": "kernel.rulings", "lessons": "ui.lessons",
    "online": "ui.online", "games": "games", "crooks": "games.crooks",
    "goods": "games.goods",
}


def __getattr__(name: str) -> Any:
    # The widget pulls in anywidget, and bots/puzzles are optional layers: load them on first use
    # so that the kernel stays importable (and fast) without them.
    if name == "LangfingerWidget":
        from .ui.widget import LangfingerWidget

        return LangfingerWidget
    if name == "PuzzleTrainer":
        from .ui.trainer import Trainer

        return Trainer
    if name == "analyse":
        from .study.analysis import analyse

        return analyse
    if name in _LAZY:
        import importlib

        return importlib.import_module(f".{_LAZY[name]}", __name__)
    raise AttributeError(f"module 'langfinger_widget' has no attribute {name!r}")
