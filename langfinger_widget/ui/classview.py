"""The teacher's dashboard and the lobby, as notebook widgets (ipywidgets; docs/online.md).

:class:`ClassDashboard` shows a row a table of a :class:`~langfinger_widget.net.classroom.
Classroom` (round, money, whose turn and for how long, finished), redrawn whenever a table
moves (its spectator socket's news, on the kernel's loop thread) and every few seconds for
the waiting times. :class:`Lobby` lists this kernel's tables on a server, opens one as a
board, and creates a new one with the New game panel's choices, its invite links ready to
copy.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets

from ..bots import LEVELS
from ..net import http
from ..net.classroom import Classroom
from ..net.hosting import base_of, host
from ..net.links import masked
from ..net.local import LocalServer
from ..net.seat import MY_SEATS, OnlineSeat
from ..tables.scheduler import Handle

COLUMNS = ("table", "players", "status", "round", "money", "to_move", "waiting_s", "moves")
HEADINGS = ("table", "players", "status", "round", "money", "to move", "waiting (s)", "moves")


def html_table(rows: list[dict[str, Any]], columns: tuple[str, ...],
               headings: tuple[str, ...], mark: int | None = None) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headings)
    body = []
    for i, row in enumerate(rows):
        style = ' style="font-weight:bold"' if i == mark else ""
        cells = "".join(f"<td>{html.escape('' if row.get(c) is None else str(row.get(c)))}</td>"
                        for c in columns)
        body.append(f"<tr{style}>{cells}</tr>")
    return (f'<table class="lf-class"><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table>")


class ClassDashboard(ipywidgets.VBox):  # type: ignore[misc]
    """Every table of a class, live: the one whose player has waited longest in bold."""

    def __init__(self, classroom: Classroom, every: float = 2.0) -> None:
        self.classroom = classroom
        self.every = every
        self.summary = ipywidgets.HTML()
        self.table = ipywidgets.HTML()
        super().__init__([self.summary, self.table])
        self._tick: Handle | None = None
        watchers = classroom.watchers()
        for watcher in watchers:
            watcher.on_change = self.refresh  # on the owner's thread (OnlineSeat.drain)
        self.scheduler = watchers[0].scheduler if watchers else None
        self.refresh()
        self._schedule()

    def rows(self) -> list[dict[str, Any]]:
        return self.classroom.status()

    def refresh(self) -> None:
        rows = self.rows()
        waiting = [i for i, r in enumerate(rows) if r["waiting_s"] is not None]
        longest = max(waiting, key=lambda i: rows[i]["waiting_s"]) if waiting else None
        done = sum(r["finished"] for r in rows)
        words = [f"{len(rows)} tables, {done} finished"]
        if longest is not None:
            r = rows[longest]
            words.append(f"waiting longest: {r['to_move']} at table {r['table']} "
                         f"({r['waiting_s']} s)")
        self.summary.value = f"<b>{html.escape('; '.join(words))}</b>"
        self.table.value = html_table(rows, COLUMNS, HEADINGS, longest)

    def _schedule(self) -> None:
        if self.scheduler is not None and self.every > 0:
            self._tick = self.scheduler.call_later(self.every, self._on_tick)

    def _on_tick(self) -> None:
        self.refresh()
        self._schedule()

    def close(self) -> None:
        if self._tick is not None:
            self._tick.cancel()
        super().close()


class Lobby(ipywidgets.VBox):  # type: ignore[misc]
    """My tables on a server (the seats opened in this kernel), a board for one, a new one."""

    def __init__(self, server: str | LocalServer | None = None) -> None:
        self.server = base_of(server)
        self.listing = ipywidgets.HTML()
        self.choice = ipywidgets.Dropdown(description="table", options=[])
        self.open_button = ipywidgets.Button(description="Open")
        self.refresh_button = ipywidgets.Button(description="Refresh")
        self.players = ipywidgets.Dropdown(description="players", options=[2, 3, 4, 5], value=2)
        self.others = ipywidgets.Dropdown(description="others",
                                          options=["people", *LEVELS], value="people")
        self.clock = ipywidgets.Dropdown(
            description="time", value=None,
            options=[("no clock", None), ("1 minute", 60), ("1 hour", 3600), ("1 day", 86400)])
        self.create_button = ipywidgets.Button(description="New table", button_style="primary")
        self.invites = ipywidgets.VBox()
        self.message = ipywidgets.HTML()
        self.board = ipywidgets.VBox()
        self.open_button.on_click(lambda _: self.open())
        self.refresh_button.on_click(lambda _: self.refresh())
        self.create_button.on_click(lambda _: self.create())
        super().__init__([
            ipywidgets.HTML(f"<b>Tables at {html.escape(self.server)}</b>"), self.listing,
            ipywidgets.HBox([self.choice, self.open_button, self.refresh_button]),
            ipywidgets.HBox([self.players, self.others, self.clock, self.create_button]),
            self.invites, self.message, self.board])
        self.refresh()

    def mine(self) -> list[dict[str, Any]]:
        """The server's rows for the seats opened in this kernel (yours to move first)."""
        seats = MY_SEATS.at(self.server)
        tokens = [link.split("#", 1)[1] for link in seats.values()]
        if not tokens:
            return []
        answer = http.call("POST", f"{self.server}/api/mine", {"tokens": tokens})
        return list(answer.get("tables") or [])

    def refresh(self) -> None:
        try:
            rows = self.mine()
        except http.ServerError as exc:
            self.message.value = f"<span style='color:#b3261e'>{html.escape(str(exc))}</span>"
            return
        shown = [{"table": r["id"], "seat": r.get("seat"), "status": r.get("status"),
                  "your_turn": "yes" if r.get("your_turn") else "",
                  "round": r.get("round"), "money": r.get("money")} for r in rows]
        self.listing.value = html_table(
            shown, ("table", "seat", "status", "your_turn", "round", "money"),
            ("table", "your seat", "status", "your turn", "round", "money")
        ) if shown else "<i>No table yet: create one below, or join one by its link.</i>"
        self.choice.options = [r["table"] for r in shown]

    def open(self, table: str | None = None) -> Any:
        """Show the board of one of my tables (``table``, or the one chosen)."""
        from .widget import LangfingerWidget

        table = table or self.choice.value
        link = MY_SEATS.at(self.server).get(str(table))
        if link is None:
            self.message.value = "Choose one of your tables first."
            return None
        for old in self.board.children:
            old.close()  # its socket too
        board = LangfingerWidget(table=OnlineSeat(link, raise_errors=False))
        self.board.children = [board]
        return board

    def create(self) -> Any:
        """A new table with the chosen players, others (people or a bot level) and clock;
        seat 0 is mine (its board opens), the others' invites are shown to copy."""
        players = int(self.players.value)
        bots = {} if self.others.value == "people" else {
            s: str(self.others.value) for s in range(1, players)}
        try:
            made = host(players, self.server, bots=bots, time=self.clock.value)
        except ValueError as exc:
            self.message.value = html.escape(str(exc))
            return None
        mine = OnlineSeat(made.invites[0], raise_errors=False)
        mine.close()  # the seat is taken; the board opens its own socket
        # Shown without their secrets: a notebook saves its widgets' state (issue 40). The
        # button puts the whole links in, for the person who is about to send them.
        links = [(f"seat {s}", link) for s, link in sorted(made.invites.items()) if s != 0]
        links.append(("watch", made.watch))
        fields = [ipywidgets.Text(value=masked(link), description=label,
                                  layout=ipywidgets.Layout(width="100%"))
                  for label, link in links]
        show = ipywidgets.Button(description="Show the whole links", icon="eye")

        def reveal(_: Any) -> None:
            for field, (_label, link) in zip(fields, links, strict=True):
                field.value = link
            show.disabled = True

        show.on_click(reveal)
        self.invites.children = [*fields, show]
        self.message.value = (f"Table {html.escape(made.table)} created: show the links, then "
                              "send each invite to its player (select it and copy).")
        self.refresh()
        return self.open(made.table)
