"""Langfinger (Sticky Fingers, Fiore & Happel, 2009) as a Jupyter widget.

The rules kernel (``Game``) runs anywhere, headless; ``LangfingerWidget``
needs anywidget and is imported only when asked for.
"""

from __future__ import annotations

from typing import Any

from . import cards
from .cards import FENCE_CARDS, LOOT_CARDS, SCOUNDRELS
from .errors import (
    BadArgument,
    IllegalAction,
    InvalidState,
    LangfingerError,
    NotationError,
    RecordError,
)
from .game import Game

__version__ = "0.1.0"

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
    "RecordError",
    "analyse",
    "bots",
    "cards",
    "puzzles",
]


def __getattr__(name: str) -> Any:
    # The widget pulls in anywidget, and bots/puzzles are optional layers: load them on first use
    # so that the kernel stays importable (and fast) without them.
    if name == "LangfingerWidget":
        from .widget import LangfingerWidget

        return LangfingerWidget
    if name == "analyse":
        from .analysis import analyse

        return analyse
    lazy = ("bots", "puzzles", "notation", "builder", "solver", "table", "scheduler", "platform",
            "envs", "records", "replay", "analysis", "describe", "words", "lessons", "rulings")
    if name in lazy:
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'langfinger_widget' has no attribute {name!r}")
