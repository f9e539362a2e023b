"""The seats this reader holds at game servers, kept between sessions.

An online game can last days (docs/server.md: durable, asynchronous tables), so the lobby's
"my tables" must outlive the kernel: each seat's play link is written to a small file,
``~/.langfinger/online-seats.json`` (the folder of the puzzle trainer's rating), readable by
its owner only, because a play link opens the seat (a secret, like a session cookie).
``LANGFINGER_HOME`` moves the folder (tests, a shared machine); a file that cannot be read
or written leaves the seats in memory for this session, and says nothing louder than that:
losing the list must never stop a game.

>>> book = MySeats(None)  # in memory only
>>> book.remember("http://127.0.0.1:8000", "t1", "http://127.0.0.1:8000/play/t1#tok")
>>> book.at("http://127.0.0.1:8000")
{'t1': 'http://127.0.0.1:8000/play/t1#tok'}
>>> book.forget("http://127.0.0.1:8000", "t1")
>>> book.at("http://127.0.0.1:8000")
{}
"""

from __future__ import annotations

import json
import os
from pathlib import Path

SEATS_FILE = "online-seats.json"


def default_path() -> Path:
    """Where the seats are kept: ``$LANGFINGER_HOME`` or ``~/.langfinger``."""
    home = os.environ.get("LANGFINGER_HOME") or "~/.langfinger"
    return Path(home).expanduser() / SEATS_FILE


class MySeats:
    """``{server: {table: play link}}``, read from and written to ``path`` (``None``: memory;
    the default: :func:`default_path`, looked up when first used)."""

    def __init__(self, path: str | Path | None = "default") -> None:
        self._path = path
        self._seats: dict[str, dict[str, str]] | None = None

    @property
    def path(self) -> Path | None:
        if self._path is None:
            return None
        return default_path() if self._path == "default" else Path(self._path)

    def at(self, server: str) -> dict[str, str]:
        """My tables at ``server`` (its base URL): ``{table id: play link}``."""
        return dict(self._all().get(server.rstrip("/"), {}))

    def remember(self, server: str, table: str, link: str) -> None:
        self._all().setdefault(server.rstrip("/"), {})[table] = link
        self._save()

    def forget(self, server: str, table: str) -> None:
        """Drop one table (a seat left or resigned: its link opens nothing any more)."""
        seats = self._all().get(server.rstrip("/"), {})
        if seats.pop(table, None) is not None:
            self._save()

    def _all(self) -> dict[str, dict[str, str]]:
        if self._seats is None:
            self._seats = self._load()
        return self._seats

    def _load(self) -> dict[str, dict[str, str]]:
        path = self.path
        try:
            raw = json.loads(path.read_text(encoding="utf-8")) if path else {}
        except (OSError, ValueError):
            return {}  # no file yet, or one we cannot read: start afresh, keep playing
        if not isinstance(raw, dict):
            return {}
        return {str(server): {str(t): str(link) for t, link in tables.items()
                              if isinstance(link, str)}
                for server, tables in raw.items() if isinstance(tables, dict)}

    def _save(self) -> None:
        path = self.path
        if path is None or self._seats is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fresh = path.with_suffix(".tmp")
            fresh.write_text(json.dumps(self._seats, indent=1, sort_keys=True), encoding="utf-8")
            fresh.chmod(0o600)  # the links open the seats
            fresh.replace(path)
        except OSError:
            pass  # a read-only home: the list lives in memory for this session
