"""Mining puzzles from game records: a stored game gives back the book's puzzle from it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from rules_kit import Replayer, mined_from

import langfinger_widget as lf
from langfinger_widget.kernel import notation
from langfinger_widget.puzzles import book, cli, mine, sight, themes

MINED = [p for p in book.all_puzzles() if p.source != "composed"]


def _two_player_puzzle() -> lf.puzzles.Puzzle:
    return next(p for p in MINED if len(notation.decode(p.position).players) == 2)


def test_mining_a_stored_game_finds_the_puzzle_the_book_took_from_it(
        study_record: Replayer) -> None:
    known = _two_player_puzzle()
    game = int(str(mined_from(known)["record"]).rsplit(" ", 1)[1])
    path, label = study_record(2, game)
    assert label == mined_from(known)["record"]
    found = cli.mine_files([path], [label], show=False)
    same = [p for p in found if p.source == known.source]
    assert same, f"{known.name} not mined again from {label}"
    p = same[0]
    assert (p.position, p.seat, p.goal, p.solution, p.opponents, p.themes, p.told) == (
        known.position, known.seat, known.goal, known.solution, known.opponents, known.themes,
        known.told)
    # Its title is the book's, unless that one was taken by another of the book (then longer).
    assert known.name.startswith(p.name.split(" (")[0])
    # Mining keeps only puzzles a reader can solve from what their board shows (R11.1).
    assert found and all(sight.blind_spot(q) is None for q in found)
    assert any(q.told for q in found)  # some do so because they tell a front


def test_one_puzzle_a_seat_a_round_and_each_is_decisive(study_record: Replayer) -> None:
    path, label = study_record(2, 0)
    record = lf.records.load(path)
    found = list(mine.scan(record, label))
    rounds = [(f.state.round, f.seat) for f in found]
    assert len(rounds) == len(set(rounds))  # later decisions of the same plan are dropped
    for f in found:
        assert f.best - f.second >= 2 or f.goal.kind == "win"
        assert record.deciders[f.decision - 1] == f.seat
        assert f.state is record.states[f.decision - 1]


def test_a_seats_record_is_not_mined(study_record: Replayer) -> None:
    path, label = study_record(2, 0)
    game = lf.records.load(path).game(lf.records.load(path).length)
    seat_record = lf.records.read(game.record(0))
    assert list(mine.scan(seat_record, label)) == []


def test_the_mine_command_writes_a_book_that_loads_and_shows_an_eta(
        study_record: Replayer, tmp_path: Path) -> None:
    path, _ = study_record(3, 1)
    out = tmp_path / "mined.jsonl"
    run = subprocess.run([sys.executable, "-m", "langfinger_widget.puzzles", "mine", str(path),
                          "--out", str(out)], capture_output=True, text=True, check=True)
    assert "ETA" in run.stderr and "puzzles from 1 records" in run.stderr
    mined = lf.puzzles.load(out)  # every puzzle proven again as it is read
    assert mined and all(mined_from(p)["record"] == str(path) for p in mined)
    stats = subprocess.run([sys.executable, "-m", "langfinger_widget.puzzles", "stats",
                            str(out)], capture_output=True, text=True, check=True)
    assert f"{len(mined)} puzzles" in stats.stdout and "3 players" in stats.stdout


def test_themes_come_from_what_the_solution_does() -> None:
    by = {p.name: p for p in lf.puzzles.PUZZLES}
    assert themes.tag(by["Two for one"]) == ("two at one fence",)
    assert "scoundrel" in themes.tag(by["Scoundrel twice"])
    assert "Ruin exchange" in themes.tag(by["Closed squares"])
    assert themes.tag(by["Burn the fence"]) == ("denying a sale",)
    assert themes.places(by["Hammer and tongs"]) == ("City", "Museum", "Harbor")
    for p in MINED[:10]:
        assert themes.rule_of(p.themes) == p.rule
