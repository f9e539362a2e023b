"""Creating tables on a server: the lobby's ``POST /api/tables``, from Python.

>>> made = Hosted({"table": "T", "options": {"players": 2}, "invites": {"0": "http://h/join/T#a",
...                "1": "http://h/join/T#b"}, "watch": "http://h/watch/T#c"}, "http://h")
>>> made.rows()[1]
{'seat': 1, 'name': '', 'link': 'http://h/join/T#b'}
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from ..kernel.errors import BadArgument
from ..kernel.state import shown
from . import http
from .links import masked
from .local import LocalServer

_SERVERS: dict[str, LocalServer] = {}


def local_server(origins: tuple[str, ...] = ()) -> LocalServer:
    """The server this kernel started (one, started on first use)."""
    running = _SERVERS.get("local")
    if running is None or not running.running:
        running = _SERVERS["local"] = LocalServer(origins=origins)
    return running


def base_of(server: str | LocalServer | None) -> str:
    if server is None:
        return local_server().url
    if isinstance(server, LocalServer):
        return server.url
    if not isinstance(server, str) or not server.startswith(("http://", "https://")):
        raise BadArgument(f"server is a URL such as http://127.0.0.1:8000, a LocalServer or "
                          f"None (start one here), not {shown(server)}")
    return server.rstrip("/")


def seats_body(players: int, bots: Mapping[Any, str] | None,
               names: Sequence[str] | None) -> list[dict[str, Any]]:
    """The ``seats`` of a create request: people (named) and bots at their seats."""
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
        raise BadArgument(f"R1.1: a game has 2 to 5 players, not {shown(players)}")
    robots = {int(s): level for s, level in dict(bots or {}).items()}
    if any(not 0 <= s < players for s in robots):
        raise BadArgument(f"bot seats must be 0..{players - 1}, not {sorted(robots)}")
    people = list(names or [])
    seats: list[dict[str, Any]] = []
    for seat in range(players):
        if seat in robots:
            seats.append({"kind": "bot", "level": robots[seat]})
        else:
            name = people.pop(0) if people else ""
            seats.append({"kind": "person", **({"name": name} if name else {})})
    return seats


class Hosted:
    """A table just created: its invite links (one a person's seat) and the spectators' link.

    Each invite opens its seat once; ``lf.online.join(link)`` opens it on a board here.
    """

    def __init__(self, made: Mapping[str, Any], base: str,
                 names: Mapping[int, str] | None = None) -> None:
        self.made = dict(made)
        self.server = base
        self.table: str = str(made["table"])
        self.options: dict[str, Any] = dict(made.get("options") or {})
        self.invites: dict[int, str] = {int(s): str(x) for s, x in made["invites"].items()}
        self.watch: str = str(made["watch"])
        self.names = dict(names or {})

    def rows(self) -> list[dict[str, Any]]:
        return [{"seat": s, "name": self.names.get(s, ""), "link": link}
                for s, link in sorted(self.invites.items())]

    # Shown in a cell's output, the links leave out their secrets: a notebook saves its
    # outputs (autosave too), and a secret there opens the seat to whoever reads the file.
    # ``.invites[seat]`` and ``.watch`` are the whole links, for when they are asked for.
    _ASK = "the whole links: .invites[seat] and .watch"

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><td>{r['seat']}</td><td>{html.escape(r['name'])}</td>"
                       f"<td><code>{html.escape(masked(r['link']))}</code></td></tr>"
                       for r in self.rows())
        return (f"<p>Table <b>{html.escape(self.table)}</b> at {html.escape(self.server)}</p>"
                f"<table><tr><th>seat</th><th>name</th><th>invite (send it)</th></tr>{rows}"
                f"<tr><td colspan=2>spectators</td>"
                f"<td><code>{html.escape(masked(self.watch))}</code></td></tr></table>"
                f"<p><small>Secrets left out ({self._ASK})</small></p>")

    def __repr__(self) -> str:
        lines = [f"Table {self.table} at {self.server}"]
        lines += [f"  seat {s}: {masked(link)}" for s, link in sorted(self.invites.items())]
        lines.append(f"  spectators: {masked(self.watch)}")
        lines.append(f"  (secrets left out; {self._ASK})")
        return "\n".join(lines)


def host(players: int = 2, server: str | LocalServer | None = None, *,
         bots: Mapping[Any, str] | None = None, names: Sequence[str] | None = None,
         variant: str = "standard", time: float | None = None, hints: bool = True,
         pace: float | None = None, game: str = "langfinger", **options: Any) -> Hosted:
    """Create a table on ``server`` (a URL; by default a local one started here) and return
    its invite links, one a person's seat, and the spectators' link.

    ``game`` is any registered game (``lf.games.names()``; ``variant`` is Langfinger's own
    option, ``options`` another game's, as its ``GameSpec.options`` name them); ``bots``
    seats bots ({seat: level}); ``names`` names the people's seats in order; ``time`` gives
    each decision that many seconds (R13.3)."""
    base = base_of(server)
    seats = seats_body(players, bots, names)
    body: dict[str, Any] = {"players": players, "seats": seats, "hints": hints, **options}
    if game != "langfinger":
        body["game"] = game
    if game == "langfinger" or variant != "standard":  # the server names a foreign option
        body["variant"] = variant
    if time is not None:
        body["time"] = time
    if pace is not None:
        body["pace"] = pace
    try:
        made = http.call("POST", f"{base}/api/tables", body)
    except http.ServerError as exc:
        raise BadArgument(f"the server did not create the table: {exc} ({exc.code})") from None
    named = {s: str(seat.get("name", "")) for s, seat in enumerate(seats) if seat.get("name")}
    return Hosted(made, base, named)
