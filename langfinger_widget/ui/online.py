"""``lf.online``: online tables from a notebook (docs/online.md).

>>> import langfinger_widget as lf
>>> sorted(name for name in lf.online.__all__ if name[0].islower())
['classroom', 'connect', 'dashboard', 'host', 'join', 'lobby', 'local_server']

``join(link)`` shows the usual board bound to a seat at a server's table; ``connect(link)``
is the same seat without a board, for a script (a bot of one's own); ``host(...)`` creates a
table (on a server started here when no URL is given) and returns its invite links.
Importing this module loads no widget library: the board is made when ``join`` is called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..net.classroom import Classroom
from ..net.hosting import Hosted, host, local_server
from ..net.links import Link, LinkError
from ..net.local import LocalServer
from ..net.seat import OnlineError, OnlineSeat

if TYPE_CHECKING:
    from .widget import LangfingerWidget

__all__ = ["Classroom", "Hosted", "LinkError", "LocalServer", "OnlineError", "OnlineSeat",
           "classroom", "connect", "dashboard", "host", "join", "lobby", "local_server"]


def connect(link: str | Link, **options: Any) -> OnlineSeat:
    """The seat a link opens, without a board: ``seat.view``, ``seat.legal``,
    ``seat.play(action)``, ``seat.wait_for_turn()``. Raises :class:`OnlineError` (a
    ``ValueError``) when the link is wrong or revoked, or the server cannot be reached."""
    return OnlineSeat(link, **options)


def join(link: str | Link, **options: Any) -> LangfingerWidget:
    """The board of the seat a link opens (an invite, one's seat link, or a spectators' link).

    The board plays as in a local game; the server checks every move (R13) and shows the
    others' moves as they arrive. ``w.table`` is the :class:`OnlineSeat`, scriptable. A link
    that cannot be opened gives a board that says why, never a traceback.
    """
    from .widget import LangfingerWidget

    return LangfingerWidget(table=OnlineSeat(link, raise_errors=False, **options))


def classroom(names: Any, server: str | LocalServer | None = None, **options: Any
              ) -> Classroom:
    """Tables for a class (see :class:`~langfinger_widget.net.classroom.Classroom`)."""
    return Classroom(names, server, **options)


def dashboard(room: Classroom, every: float = 2.0) -> Any:
    """The live dashboard of a class's tables (an ipywidgets box)."""
    from .classview import ClassDashboard

    return ClassDashboard(room, every)


def lobby(server: str | LocalServer | None = None) -> Any:
    """My tables on ``server``, a board for one, and a new one (an ipywidgets box)."""
    from .classview import Lobby

    return Lobby(server)
