"""An unsound puzzle is refused as it is read, with the reason and the line (docs/puzzles.md)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

import langfinger_widget as lf
from langfinger_widget.puzzles import PUZZLES, Goal, PuzzleError, UnsoundPuzzle, book


def by_name(name: str) -> lf.puzzles.Puzzle:
    return next(p for p in PUZZLES if p.name == name)


def test_a_puzzle_with_no_solution_is_refused() -> None:
    greedy = replace(by_name("Two for one"), goal=Goal("earn", 8))  # the best sale earns 7
    with pytest.raises(UnsoundPuzzle, match="'Two for one': no solution: no plan reaches"):
        book.verify(greedy)


def test_a_solution_beaten_by_another_plan_is_refused() -> None:
    cash = by_name("Cash on the spot")
    worse = replace(cash, goal=Goal("reach", 18), solution=({"type": "pass"}, {"type": "pass"}))
    with pytest.raises(UnsoundPuzzle, match="a better plan: the solution scores 18, the best "
                                            "plan 20"):
        book.verify(worse)
    missed = replace(cash, solution=({"type": "pass"}, {"type": "pass"}))
    with pytest.raises(UnsoundPuzzle, match="no solution: the solution scores 18, the goal "
                                            "asks 20"):
        book.verify(missed)


def test_a_second_solution_where_the_puzzle_claims_one_is_refused() -> None:
    twice = replace(by_name("Once per place"), proof="unique")  # its proof is "best"
    with pytest.raises(UnsoundPuzzle, match="a second solution: it claims one, but"):
        book.verify(twice)
    assert book.verify(by_name("Once per place")).proof == "best"


def _book_of(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "book.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_book_with_one_unsound_line_is_refused_whole_naming_the_line(tmp_path: Path) -> None:
    good = PUZZLES[0].line()
    bad = replace(by_name("Two for one"), goal=Goal("earn", 8)).line()
    path = _book_of(tmp_path, [good, "# a comment", "", bad])
    with pytest.raises(UnsoundPuzzle) as info:
        lf.puzzles.load(path)
    assert info.value.line == 4 and info.value.name == "Two for one"
    assert str(info.value).startswith("book.jsonl:4: puzzle 'Two for one': no solution")
    assert isinstance(info.value, lf.InvalidState) and isinstance(info.value, ValueError)
    assert [p.name for p in lf.puzzles.load(path, check=False)] == [PUZZLES[0].name,
                                                                   "Two for one"]


@pytest.mark.parametrize(("change", "why"), [
    (lambda d: d.pop("solution"), "missing \\['solution'\\]"),
    (lambda d: d.update(colour="red"), "unknown fields \\['colour'\\]"),
    (lambda d: d.update(solution=[{"type": "dance"}]), "not an action"),
    (lambda d: d.update(goal={"kind": "fly"}), "goal kind 'fly'"),
    (lambda d: d.update(position="nonsense"), "expected"),
    (lambda d: d.update(proof="maybe"), "proof is 'unique' or 'best'"),
    (lambda d: d.update(hints=[]), "at least one hint"),
])
def test_a_malformed_line_names_what_is_wrong(tmp_path: Path, change, why) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(PUZZLES[0].line())
    change(data)
    with pytest.raises(PuzzleError, match=why):
        lf.puzzles.load(_book_of(tmp_path, [json.dumps(data)]))


def test_not_json_and_a_second_name_are_refused(tmp_path: Path) -> None:
    with pytest.raises(PuzzleError, match="line 1: not JSON"):
        book.read("{oops")
    line = PUZZLES[0].line()
    with pytest.raises(PuzzleError, match=r"book.jsonl:2: .*a second puzzle of this name"):
        lf.puzzles.load(_book_of(tmp_path, [line, line]))


def test_saving_an_unsound_puzzle_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "mine.jsonl"
    with pytest.raises(UnsoundPuzzle):
        lf.puzzles.add(replace(by_name("Two for one"), goal=Goal("earn", 8)), path)
    assert not path.exists()
