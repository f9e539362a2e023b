"""A replay's "Make a puzzle from here" answers with a proven line of a puzzle book."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("anywidget")

import langfinger_widget as lf
from langfinger_widget.puzzles import book
from langfinger_widget.study import arena
from langfinger_widget.ui.widget import LangfingerWidget


def test_the_board_sends_a_book_line_the_book_reads_back(tmp_path: Path) -> None:
    arena.play_game(arena.parse_bots("greedy,greedy"), 17, 3, records=str(tmp_path))
    record = lf.records.load(tmp_path / "game-0003.lfr")
    at = next(i for i in range(record.length) if record.states[i].phase == "act")
    w = LangfingerWidget.replay(record)
    try:
        w.handle_message({"kind": "replay_seek", "index": at})
        reply = w.handle_message({"kind": "replay_puzzle"})
        assert reply["kind"] == "replay_puzzle"
        assert reply["error"] == "" and reply["line_error"] == ""
        puzzle = book.verify(book.from_dict(json.loads(reply["line"])))  # sound as it stands
        assert puzzle.seat == record.deciders[at]
        drafted, real = lf.notation.decode(puzzle.position), record.states[at]
        # The builder's position (docs/puzzles.md): the board as it was, the piles dealt anew.
        for place in ("city", "villa", "museum", "harbor"):
            assert drafted.display(place) == real.display(place)
        assert [(p.money, p.hand, p.loot) for p in drafted.players] == [
            (p.money, p.hand, p.loot) for p in real.players]
        assert "from langfinger_widget.puzzles import Goal, Puzzle, add" in reply["source"]
    finally:
        w.close()
