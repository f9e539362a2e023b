"""The server's one seam to the rest of the package: everything it uses of the game.

The server reaches the kernel, the bots and the table rules only through the
names below (the package's public API), so that moving modules inside the
package changes this file and nothing else of the server.
"""

from __future__ import annotations

from langfinger_widget import games
from langfinger_widget.bots import LEVELS, make
from langfinger_widget.bots.base import Bot, thinking, weighing
from langfinger_widget.games import GameSpec, GameState
from langfinger_widget.kernel.errors import (
    BadArgument,
    IllegalAction,
    InvalidState,
    LangfingerError,
)
from langfinger_widget.kernel.game import Game
from langfinger_widget.kernel.rules import Event
from langfinger_widget.kernel.state import VARIANTS
from langfinger_widget.kernel.views import public_log, redact_log
from langfinger_widget.records import write_game
from langfinger_widget.tables.scheduler import (
    MAX_PACE,
    Handle,
    LoopScheduler,
    Pending,
    Slices,
    TokenBucket,
    at_once,
)
from langfinger_widget.tables.table import (
    DEFAULT_GAME,
    bot_inputs,
    bot_steps,
    make_hint_bot,
    searching,
    seat_undo_refusal,
    take_back,
    undo_refusals,
)

__all__ = [
    "DEFAULT_GAME",
    "LEVELS",
    "MAX_PACE",
    "VARIANTS",
    "BadArgument",
    "Bot",
    "Event",
    "Game",
    "GameSpec",
    "GameState",
    "Handle",
    "IllegalAction",
    "InvalidState",
    "LangfingerError",
    "LoopScheduler",
    "Pending",
    "Slices",
    "TokenBucket",
    "at_once",
    "bot_inputs",
    "bot_steps",
    "games",
    "make",
    "make_hint_bot",
    "public_log",
    "redact_log",
    "searching",
    "seat_undo_refusal",
    "take_back",
    "thinking",
    "undo_refusals",
    "weighing",
    "write_game",
]
