"""The protocol every game satisfies (DESIGN.md, "Many games on one engine").

Everything above the games (tables, the bots' search, records, the server, the boards, the
study, the environments, the conformance checks) knows a game only through this, the way
OpenSpiel's algorithms know only ``pyspiel.State``. Actions, views and events are JSON-ready
dicts; a game's own names (place, hangout, building...) live inside them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

Action = dict[str, Any]
Event = dict[str, Any]


@runtime_checkable
class GameState(Protocol):
    """One game in progress. ``seat=None`` in ``legal_actions``/``play``/``why_illegal`` means
    ``to_move``; a sealed step (several seats in ``to_decide``) needs the seat named."""

    @property
    def num_players(self) -> int: ...
    @property
    def to_move(self) -> int | None: ...
    @property
    def to_decide(self) -> list[int]: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def winners(self) -> list[int]: ...
    @property
    def version(self) -> int: ...
    @property
    def move_number(self) -> int: ...

    def legal_actions(self, seat: int | None = None) -> list[Action]: ...
    def play(self, action: Any, seat: int | None = None) -> list[Event]: ...
    def why_illegal(self, action: Any, seat: int | None = None) -> str | None: ...
    def undo(self) -> None: ...
    def copy(self) -> GameState: ...
    def view(self, seat: int | None = None) -> dict[str, Any]: ...
    def public_view(self) -> dict[str, Any]: ...
    def log(self, seat: int | None = None) -> list[Event]: ...
    def standings(self) -> list[dict[str, Any]]: ...
    def to_dict(self) -> dict[str, Any]: ...
    def resample(self, seat: int, rng: random.Random) -> GameState: ...
    def sight_barrier(self, seat: int | None) -> int: ...


@dataclass(frozen=True)
class GameSpec:
    """What the registry knows of a game: ``Game`` is its class (``Game.new(players=, seed=)``,
    ``Game.from_dict(d)``), ``rulings`` the prefix its rulings carry (``R``, ``C``, ``G``)
    and the file they are numbered in."""

    name: str
    title: str
    players: range
    Game: Any
    rulings: str
    rulings_file: str
    aliases: tuple[str, ...] = field(default=())
    # The game's own greedy bot, built as ``greedy(seed=...)``; None: the shared random bot only.
    greedy: Callable[..., Any] | None = None
