"""A teacher's class on a server: tables from a list of names, their links, their progress,
and the finished games' records (docs/online.md).

>>> groups(["Ada", "Ben", "Cy", "Dee", "Eve"], size=2)
[['Ada', 'Ben'], ['Cy', 'Dee'], ['Eve', None]]

``None`` is a seat a bot fills (the last group, when the class does not divide evenly).
"""

from __future__ import annotations

import csv
import importlib
import io
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..kernel.errors import BadArgument
from ..kernel.state import shown
from . import http
from .hosting import Hosted, base_of, host
from .local import LocalServer
from .seat import OnlineSeat

LINK_COLUMNS = ("name", "table", "seat", "link")


def groups(names: Sequence[str], size: int = 2) -> list[list[str | None]]:
    """``names`` in tables of ``size`` (2-5), in order; the last one filled up with bots."""
    if isinstance(size, bool) or not isinstance(size, int) or not 2 <= size <= 5:
        raise BadArgument(f"R1.1: a table seats 2 to 5 players, not {shown(size)}")
    people = [n.strip() if isinstance(n, str) else n for n in names]
    if not people or any(not isinstance(n, str) or not n for n in people):
        raise BadArgument("names is a list of the class's names (non-empty text)")
    if len(set(people)) != len(people):
        twice = sorted({n for n in people if people.count(n) > 1})
        raise BadArgument(f"each name once, please (to tell the links apart): {twice}")
    out: list[list[str | None]] = []
    for start in range(0, len(people), size):
        group: list[str | None] = list(people[start:start + size])
        out.append(group + [None] * (size - len(group)))
    return out


def rows_frame(rows: list[dict[str, Any]]) -> Any:
    """``rows`` as a pandas DataFrame when pandas is installed, else the rows themselves."""
    try:
        pandas: Any = importlib.import_module("pandas")
    except ImportError:
        return rows
    return pandas.DataFrame(rows)


class Classroom:
    """Tables for a class: ``names`` in groups of ``size``, bots (``bot``) in the seats left
    over, each decision given ``time`` seconds (R13.3) if set.

    ``links()`` hands out one invite a student (``to_csv`` writes them); ``status()`` is a
    row a table, live (one spectator socket a table); ``records()`` collects the finished
    games, which :meth:`analyse` rates with ``lf.analyse``.
    """

    def __init__(self, names: Sequence[str], server: str | LocalServer | None = None, *,
                 size: int = 2, bot: str = "medium", time: float | None = None,
                 hints: bool = True, pace: float | None = None,
                 variant: str = "standard") -> None:
        self.groups = groups(names, size)
        self.server = base_of(server)
        self.tables: list[Hosted] = []
        for group in self.groups:
            bots = {s: bot for s, name in enumerate(group) if name is None}
            people = [n for n in group if n is not None]
            self.tables.append(host(size, self.server, bots=bots, names=people, time=time,
                                    hints=hints, pace=pace, variant=variant))
        self._watchers: list[OnlineSeat] | None = None

    # --- handing out the links ------------------------------------------------------------
    def links(self) -> list[dict[str, Any]]:
        """One row a student: name, table, seat and the invite to send them."""
        rows = []
        for group, made in zip(self.groups, self.tables, strict=True):
            for seat, name in enumerate(group):
                if name is not None:
                    rows.append({"name": name, "table": made.table, "seat": seat,
                                 "link": made.invites[seat]})
        return rows

    def links_frame(self) -> Any:
        return rows_frame(self.links())

    def to_csv(self, path: str | Path | None = None) -> str:
        """The links as CSV text (written to ``path`` too, if given)."""
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=LINK_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.links())
        if path is not None:
            Path(path).write_text(out.getvalue(), encoding="utf-8")
        return out.getvalue()

    # --- watching -------------------------------------------------------------------------
    def watchers(self) -> list[OnlineSeat]:
        """A spectator seat a table (opened on first use; they follow the games live)."""
        if self._watchers is None:
            self._watchers = [OnlineSeat(made.watch) for made in self.tables]
        return self._watchers

    def status(self) -> list[dict[str, Any]]:
        """A row a table: round, money, whose turn and for how long, finished or not."""
        rows = []
        now = time.time()
        for group, made, watcher in zip(self.groups, self.tables, self.watchers(),
                                        strict=True):
            watcher.catch_up()
            info = watcher.table
            names = [n if n is not None else f"bot ({watcher.bot_names.get(s, 'bot')})"
                     for s, n in enumerate(group)]
            over = info.get("status") == "over"
            to_move = info.get("to_move") if info.get("status") == "playing" else None
            rows.append({
                "table": made.table, "players": ", ".join(names),
                "status": info.get("status", watcher.connection),
                "round": info.get("round"), "money": list(info.get("money") or []),
                "to_move": None if to_move is None else names[to_move],
                "waiting_s": None if to_move is None else round(now - watcher.moved_at),
                "moves": info.get("move_number"), "finished": over,
                "error": watcher.error,
            })
        return rows

    def longest_wait(self) -> dict[str, Any] | None:
        """The table whose player to move has waited longest (None: nobody is waiting)."""
        waiting = [r for r in self.status() if r["waiting_s"] is not None]
        return max(waiting, key=lambda r: r["waiting_s"]) if waiting else None

    # --- after the games -------------------------------------------------------------------
    def records(self) -> list[dict[str, Any]]:
        """A row a finished game: its table, players, final money, winner and record text."""
        rows = []
        for group, made in zip(self.groups, self.tables, strict=True):
            try:
                text = str(http.call("GET", f"{self.server}/api/tables/{made.table}/record",
                                     token=str(made.made["spectator_key"])))
            except http.ServerError as exc:
                if exc.code == "not_over":
                    continue  # still being played
                raise
            from ..records import load

            game = load(text).game()
            money = [p["money"] for p in game.view(None)["players"]]
            names = [n if n is not None else "bot" for n in group]
            best = max(money)
            rows.append({"table": made.table, "players": ", ".join(names), "money": money,
                         "winner": ", ".join(n for n, m in zip(names, money, strict=True)
                                             if m == best),
                         "moves": game.move_number, "record": text})
        return rows

    def records_frame(self) -> Any:
        return rows_frame(self.records())

    def analyse(self, table: str, name: str, bot: Any = "hard", **options: Any) -> Any:
        """``lf.analyse`` of ``name``'s decisions at ``table`` (a finished game)."""
        from ..study.analysis import analyse

        found = [r for r in self.records() if r["table"] == table]
        if not found:
            raise BadArgument(f"table {table!r} has no finished game in this class")
        group = self.groups[[m.table for m in self.tables].index(table)]
        if name not in group:
            raise BadArgument(f"{name!r} does not sit at table {table} ({group})")
        options.setdefault("progress", False)
        return analyse(found[0]["record"], group.index(name), bot, **options)

    def close(self) -> None:
        for watcher in self._watchers or []:
            watcher.close()
