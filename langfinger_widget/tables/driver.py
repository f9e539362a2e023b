"""What a board asks of the table it shows: a local :class:`~.table.Table`, or a seat at a
server's table (``langfinger_widget.net.seat.OnlineSeat``), driven alike.

The board widget mirrors :meth:`BoardDriver.picture` into its traits and hands the page's
intents to it; the driver decides (the local kernel, or the server) and calls
``on_change`` when the picture changed and ``on_message`` with answers that come later.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ..kernel.game import Game
from .scheduler import Scheduler

Reply = dict[str, Any]


class BoardDriver(Protocol):
    scheduler: Scheduler
    on_change: Callable[[], None]
    on_message: Callable[[Reply], None]
    error: str
    hint: dict[str, Any]
    highlight: dict[str, Any]
    puzzle: Any
    pace: float
    closed: bool

    @property
    def game(self) -> Game: ...

    @property
    def seat(self) -> int | None: ...

    @property
    def bot_names(self) -> dict[int, str]: ...

    @property
    def human_seats(self) -> list[int]: ...

    @property
    def players(self) -> int: ...

    def picture(self) -> dict[str, Any]:
        """What the shown seat's board shows: ``view``, ``events`` (its log), ``legal``
        (only to the decider), ``move_number``, ``version``, ``undo_status``, ``setup``,
        ``figures``."""
        ...

    def play(self, action: Any, by: str = "python") -> None: ...

    def undo(self) -> None: ...

    def act(self, content: Mapping[str, Any]) -> Reply: ...

    def why(self, content: Mapping[str, Any]) -> Reply: ...

    def hint_intent(self) -> Reply: ...

    def undo_intent(self) -> Reply: ...

    def new_game_intent(self, content: Mapping[str, Any]) -> Reply: ...

    def reveal(self, content: Mapping[str, Any]) -> Reply: ...

    def new_game(self, options: Mapping[str, Any] | None = None) -> None: ...

    def replace_game(self, game: Any) -> None: ...  # any registered game's

    def check_seat(self, seat: Any, players: int) -> None: ...

    def set_seat(self, seat: int | None) -> None: ...

    def check_bots(self, bots: Mapping[Any, Any], players: int | None = None
                   ) -> dict[int, str]: ...

    def set_bots(self, bots: Mapping[Any, Any]) -> None: ...

    def set_pace(self, pace: Any) -> None: ...

    def step_bots(self, limit: int | None = None) -> int: ...

    def bot_to_move(self) -> int | None: ...

    def undo_status(self) -> dict[str, Any]: ...

    def setup(self) -> dict[str, Any]: ...

    def close(self) -> None: ...
