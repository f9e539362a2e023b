"""A teacher's class on a real server: tables from names (bots fill the last), links as rows
and CSV, the live dashboard, the finished games' records analysed; and the lobby widget."""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path

import ipywidgets
import pytest
from wire import ServerThread

import langfinger_widget as lf
from langfinger_widget.net.classroom import groups
from langfinger_widget.net.seat import OnlineSeat

CLASS = ["Ada", "Ben", "Cy", "Dee", "Eve"]


def test_groups_fill_the_last_table_with_bots_and_refuse_bad_classes() -> None:
    assert groups(CLASS, 3) == [["Ada", "Ben", "Cy"], ["Dee", "Eve", None]]
    assert groups(CLASS[:4], 2) == [["Ada", "Ben"], ["Cy", "Dee"]]
    with pytest.raises(ValueError, match=r"R1\.1"):
        groups(CLASS, 6)
    with pytest.raises(ValueError, match="each name once"):
        groups(["Ada", "Ada"], 2)
    with pytest.raises(ValueError, match="names"):
        groups([], 2)


def test_a_class_is_seated_watched_and_its_games_collected(server: ServerThread,
                                                           tmp_path: Path) -> None:
    room = lf.online.classroom(CLASS, server.base, size=2, bot="easy", pace=0, time=3600)
    try:
        links = room.links()
        assert [r["name"] for r in links] == CLASS
        assert len({r["table"] for r in links}) == 3 and all("/join/" in r["link"]
                                                              for r in links)
        assert room.tables[0].options["time"] == 3600  # the clock reached the server (R13.3)
        written = room.to_csv(tmp_path / "links.csv")
        assert list(csv.DictReader(io.StringIO(written)))[4]["name"] == "Eve"
        assert (tmp_path / "links.csv").read_text() == written

        board = lf.online.dashboard(room, every=0)
        watchers = room.watchers()
        assert all(w.wait_for(lambda s: bool(s.table), 10) for w in watchers)
        board.refresh()
        rows = room.status()
        assert [r["status"] for r in rows] == ["waiting"] * 3  # until every person joins
        assert rows[2]["players"] == "Eve, bot (easy)"
        assert "3 tables, 0 finished" in board.summary.value

        # Eve plays her game against the bot to the end (as her own script would).
        eve = OnlineSeat(links[4]["link"])
        assert watchers[2].wait_for(lambda s: s.table.get("status") == "playing", 10)
        rng = random.Random(7)
        while not eve.is_over:
            if eve.wait_for_turn(20):
                eve.play(rng.choice(eve.legal))
        eve.close()
        assert watchers[2].wait_for(lambda s: s.is_over, 10)
        board.refresh()
        assert "1 finished" in board.summary.value and room.status()[2]["finished"]
        # Ada's table: Ben is to move or Ada is, and waiting since the table started.
        ada, ben = OnlineSeat(links[0]["link"]), OnlineSeat(links[1]["link"])
        assert watchers[0].wait_for(lambda s: s.table.get("status") == "playing", 10)
        wait = room.longest_wait()
        assert wait is not None and wait["to_move"] in ("Ada", "Ben")
        board.refresh()
        assert "waiting longest" in board.summary.value
        ada.close()
        ben.close()

        records = room.records()
        assert [r["table"] for r in records] == [room.tables[2].table]
        assert records[0]["players"] == "Eve, bot" and records[0]["record"].startswith(
            "langfinger-record")
        rated = room.analyse(records[0]["table"], "Eve", "ismcts", iterations=20)
        assert rated and all("seat" in row or "move" in row for row in rated)
        board.close()
    finally:
        room.close()


def test_the_lobby_creates_lists_and_opens_my_tables(server: ServerThread) -> None:
    lobby = lf.online.lobby(server.base)
    lobby.players.value, lobby.others.value = 3, "easy"
    board = lobby.create()
    try:
        assert board is not None and board.table.wait_for(lambda s: bool(s.view), 10)
        assert board.seat == 0 and board.bots == {"1": "easy", "2": "easy"}
        table = board.table.link.table
        assert table in lobby.choice.options and table in lobby.listing.value
        fields = [t for t in lobby.invites.children if isinstance(t, ipywidgets.Text)]
        assert [t.description for t in fields] == ["watch"]  # bots: no invite
        # Issue 40: no secret in the widgets' state (saved with the notebook) until asked.
        assert fields[0].value.endswith("#…")
        show = next(b for b in lobby.invites.children if isinstance(b, ipywidgets.Button))
        show.click()
        assert "#…" not in fields[0].value and "/watch/" in fields[0].value
        again = lobby.open(table)
        assert again is not None and again.table.link.table == table
        assert board.table.closed  # the old board's socket was closed
    finally:
        for child in lobby.board.children:
            child.close()
