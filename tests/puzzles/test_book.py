"""The puzzle book as data: it loads, every puzzle is proven, and it covers the game."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from rules_kit import Replayer, mined_from

import langfinger_widget as lf
from langfinger_widget.kernel import notation
from langfinger_widget.puzzles import PUZZLES, Puzzle, book, themes
from langfinger_widget.puzzles.ratings import Rating

ALL = book.all_puzzles()
MINED = [p for p in ALL if p.source != "composed"]
SAMPLE = random.Random(33).sample(MINED, 8)  # the default run's share of the mined puzzles


def _game(p: Puzzle) -> int:
    """The study game a mined puzzle came from: its label ends with the game's number."""
    return int(str(mined_from(p)["record"]).rsplit(" ", 1)[1])


def players(p: Puzzle) -> int:
    return len(notation.decode(p.position).players)


def test_the_book_holds_100_puzzles_80_mined_over_every_player_count_and_place() -> None:
    assert len(ALL) >= 100 and len(MINED) >= 80
    assert {players(p) for p in MINED} == {2, 3, 4, 5}
    acted = {pl for p in ALL for pl in themes.places(p)}
    assert acted == set(themes.PLACES)
    assert len({p.name for p in ALL}) == len(ALL)


def test_the_composed_puzzles_moved_unchanged_and_puzzles_still_lists_them() -> None:
    assert len(PUZZLES) == 14 and all(p.source == "composed" for p in PUZZLES)
    assert [p.name for p in PUZZLES][:2] == ["Cash on the spot", "One hammer short"]
    assert lf.puzzles.PUZZLES is PUZZLES
    assert {p.name for p in PUZZLES} <= {p.name for p in ALL}


def test_every_mined_puzzle_names_its_record_and_decision_and_is_rated() -> None:
    for p in MINED:
        source = mined_from(p)
        assert source["record"].startswith("docs/study/greedy ") and source["decision"] >= 1
        assert p.themes and p.hints and p.story and p.proof in ("unique", "best")
        assert p.rating.deviation < 350  # the bots' attempts made it surer than a new rating
        assert 1 <= p.difficulty <= 5


def _proven(p: Puzzle) -> None:
    proof = p.prove()
    assert proof.verdict == p.proof, (p.name, str(proof))
    assert proof.solution_value == proof.optimum >= proof.target
    assert p.check(p.solution).solved
    session = p.session()
    for action in p.solution:
        session.play(action)
    assert session.over and session.status().solved


@pytest.mark.parametrize("puzzle", SAMPLE, ids=[p.name for p in SAMPLE])
def test_a_sample_of_mined_puzzles_is_proven_and_plays_out(puzzle: Puzzle) -> None:
    _proven(puzzle)


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", ALL, ids=[p.name for p in ALL])
def test_every_puzzle_of_the_book_is_proven_and_plays_out(puzzle: Puzzle) -> None:
    _proven(puzzle)
    assert themes.tag(puzzle) == puzzle.themes or puzzle.source == "composed"


@pytest.mark.parametrize("puzzle", [PUZZLES[0], PUZZLES[-1], *SAMPLE[:2]],
                         ids=lambda p: p.name)
def test_a_puzzle_survives_its_line(puzzle: Puzzle) -> None:
    again = book.from_dict(json.loads(puzzle.line()))
    assert again == puzzle


def test_a_teacher_adds_a_puzzle_by_one_line_and_the_book_reads_it_back(tmp_path: Path) -> None:
    path = tmp_path / "mine.jsonl"
    mine = replace(PUZZLES[0], name="My first", rating=Rating(1400, 200))
    lf.puzzles.add(mine, path)
    lf.puzzles.add(replace(PUZZLES[1], name="My second"), path)
    got = lf.puzzles.load(path)
    assert [p.name for p in got] == ["My first", "My second"] and got[0] == mine
    with pytest.raises(lf.puzzles.PuzzleError, match="already holds"):
        lf.puzzles.add(mine, path)
    assert len(path.read_text().splitlines()) == 2  # nothing half-written


def test_a_replay_draft_saves_a_proven_puzzle_to_the_format(tmp_path: Path,
                                                            study_record: Replayer) -> None:
    p = next(q for q in MINED if players(q) == 2)
    path, _ = study_record(2, _game(p))
    record = lf.records.load(path)
    draft = lf.replay.PuzzleDraft.from_record(record, mined_from(p)["decision"] - 1)
    made = book.from_dict(json.loads(draft.line(name="Drafted")))
    assert made.name == "Drafted" and made.seat == p.seat
    book.verify(made)  # sound: the solver raised the goal to the best the seat can do
    assert made.goal.amount >= draft.earned and made.themes
    lf.puzzles.add(draft.proven(name="Drafted"), tmp_path / "b.jsonl")
    assert lf.puzzles.load(tmp_path / "b.jsonl")[0].name == "Drafted"
