"""The trainer widget, driven as the page drives it: board messages and button clicks."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("anywidget")

from langfinger_widget.puzzles import PUZZLES
from langfinger_widget.ui.trainer import ANY_THEME, Trainer, history_svg


def act(t: Trainer, action: dict[str, Any]) -> dict[str, Any]:
    board = t.board
    return board.handle_message({"kind": "act", "action": action, "move": board.move_number,
                                 "version": board.version})


def click(button: Any) -> None:
    button._handle_button_msg(None, {"event": "click"}, [])  # the comm message of a click


@pytest.fixture
def trainer(tmp_path: Path) -> Iterator[Trainer]:
    t = Trainer(PUZZLES, path=tmp_path / "me.json", seed=2)
    yield t
    t.close()


def test_solving_on_the_board_raises_the_rating_and_the_streak(trainer: Trainer,
                                                               tmp_path: Path) -> None:
    puzzle = trainer.puzzle
    assert trainer.board.puzzle["state"] == "playing" and "streak 0" in trainer.summary()
    # The trainer's own panels tell nothing of the answer (the board's are tested in
    # tests/test_puzzle_widget.py): no move, no theme until the attempt is over.
    page = trainer.status.value + trainer.plot.value
    assert all(t not in page for t in puzzle.themes)
    assert all(str(v) not in page for a in puzzle.solution for v in a.values() if v)
    for action in puzzle.solution:
        assert act(trainer, action)["ok"]
    assert trainer.board.puzzle["solved"] and trainer.last is not None and trainer.last.solved
    assert trainer.coach.reader.rating > 1500 and trainer.coach.streak == 1
    assert "Solved: +" in trainer.status.value and "<polyline" in trainer.plot.value
    assert all(t in trainer.status.value for t in puzzle.themes)
    saved = json.loads((tmp_path / "me.json").read_text())
    assert saved["reader"]["rating"] == trainer.coach.reader.rating
    # "Try again" replays the puzzle for practice: it is not scored twice.
    trainer.board.handle_message({"kind": "puzzle_reset"})
    for action in puzzle.solution:
        act(trainer, action)
    assert len(trainer.coach.history) == 1


def test_a_miss_lowers_the_rating_and_a_hint_makes_a_solve_worth_less(trainer: Trainer) -> None:
    session = trainer.session
    while not session.over:
        legal = trainer.board.game.legal_actions()
        act(trainer, {"type": "pass"} if {"type": "pass"} in legal else legal[0])
    assert trainer.last is not None and not trainer.last.solved
    assert trainer.coach.reader.rating < 1500 and trainer.coach.streak == 0
    assert "Not solved" in trainer.summary()
    click(trainer.next_button)
    second = trainer.puzzle
    assert second.name != trainer.coach.history[0].puzzle and trainer.last is None
    hint = trainer.board.handle_message({"kind": "puzzle_hint"})
    assert hint["hint"] == second.hints[0]
    before = trainer.coach.reader.rating
    for action in second.solution:
        act(trainer, action)
    assert trainer.last is not None and trainer.last.solved and trainer.last.hints == 1
    assert trainer.coach.streak == 0  # a hinted solve does not extend the streak
    assert trainer.coach.reader.rating - before > 0


def test_a_theme_chosen_in_the_menu_serves_a_puzzle_of_that_theme(trainer: Trainer) -> None:
    options = list(trainer.theme.options)
    assert options[0] == ANY_THEME and "Ruin exchange" in options
    trainer.theme.set_state({"index": options.index("Ruin exchange")})  # as the page sends it
    assert "Ruin exchange" in trainer.puzzle.themes
    assert trainer.board.puzzle["name"] == trainer.puzzle.name


def test_the_history_plot_draws_one_point_a_rating() -> None:
    assert history_svg([1500]) == ""
    svg = history_svg([1500, 1600, 1550])
    points = re.search(r'points="([^"]*)"', svg)
    assert points is not None
    xy = [tuple(map(float, p.split(","))) for p in points.group(1).split()]
    assert len(xy) == 3 and xy[1][1] < xy[2][1] < xy[0][1]  # higher rating, higher on the plot
    assert all(0 <= x <= 320 and 0 <= y <= 90 for x, y in xy)
    assert ">1600<" in svg and ">1500<" in svg


def test_a_new_reader_gets_the_easiest_puzzle_of_the_book_on_the_board() -> None:
    """Issue 40: the whole book's trainer opened on a coin flip near 1500; a new reader now
    starts at the easy end, and its board tells what the puzzle relies on (R11.1)."""
    from langfinger_widget.puzzles import all_puzzles, sight

    t = Trainer(path=None, seed=5)
    try:
        easiest = min(all_puzzles(), key=lambda p: (p.rating.rating, p.name))
        assert t.puzzle.name == easiest.name
        assert sight.blind_spot(t.puzzle) is None
        assert t.board.puzzle["told"] == sight.told_words(t.puzzle.start(), t.puzzle.told)
    finally:
        t.close()
