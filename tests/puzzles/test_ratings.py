"""Glicko-2 for puzzles and readers: the paper's example, and ratings move the right way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import langfinger_widget as lf
from langfinger_widget.puzzles import PUZZLES, rate
from langfinger_widget.puzzles.ratings import Rating, attempt, band
from langfinger_widget.puzzles.trainer import NEAREST, WARM_UP, Coach


def test_glickmans_worked_example() -> None:
    after = Rating(1500, 200, 0.06).update(
        [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)])
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)
    assert Rating(1500, 200).update([]).deviation > 200  # time alone makes a rating less sure


def test_a_solve_raises_the_reader_and_lowers_the_puzzle_a_miss_the_reverse() -> None:
    reader, puzzle = Rating(1500, 150), Rating(1500, 100)
    won_r, won_p = attempt(reader, puzzle, solved=True)
    lost_r, lost_p = attempt(reader, puzzle, solved=False)
    assert won_r.rating > 1500 > lost_r.rating and won_p.rating < 1500 < lost_p.rating
    assert won_r.deviation < 150 and lost_r.deviation < 150
    # Beating a hard puzzle is worth more than beating an easy one.
    hard_r, _ = attempt(reader, Rating(1900, 100), solved=True)
    easy_r, _ = attempt(reader, Rating(1100, 100), solved=True)
    assert hard_r.rating - 1500 > easy_r.rating - 1500 > 0


def test_hints_cost_rating() -> None:
    reader, puzzle = Rating(1500, 150), Rating(1500, 100)
    clean, _ = attempt(reader, puzzle, True, hints=0, hints_total=3)
    one, _ = attempt(reader, puzzle, True, hints=1, hints_total=3)
    every, _ = attempt(reader, puzzle, True, hints=3, hints_total=3)
    miss, _ = attempt(reader, puzzle, False, hints=3, hints_total=3)
    assert clean.rating > one.rating > every.rating > miss.rating


def test_bands() -> None:
    assert band(1499.9) == "1400-1599" and band(1600) == "1600-1799"


def test_a_new_reader_starts_with_the_easiest_then_the_coach_follows_the_rating() -> None:
    """Issue 40: the trainer's first puzzle was drawn near 1500 (a coin flip, then); a new
    reader now gets the book's easiest puzzles first, then puzzles near its rating."""
    book = lf.puzzles.all_puzzles()
    coach = Coach(book, path=None, seed=3)
    easiest = sorted(book, key=lambda p: (p.rating.rating, p.name))
    served = []
    for _ in range(WARM_UP):
        served.append(coach.next())
        coach.record(served[-1], solved=True)
    assert [p.name for p in served] == [p.name for p in easiest[:WARM_UP]]
    assert not coach.warming_up
    left = [p for p in book if p.name not in {q.name for q in served}]
    gaps = sorted(abs(p.rating.rating - coach.reader.rating) for p in left)
    assert abs(coach.next().rating.rating - coach.reader.rating) <= gaps[NEAREST - 1]
    missed = Coach(book, path=None, seed=3)  # a miss ends the warm-up: the rating leads
    missed.record(missed.next(), solved=False)
    assert not missed.warming_up


def test_the_coach_serves_near_the_readers_rating_and_by_theme() -> None:
    coach = Coach(PUZZLES, path=None, seed=3)
    coach.record(coach.next(), solved=False)  # past the warm-up: the rating leads
    gaps = sorted(abs(p.rating.rating - coach.reader.rating) for p in PUZZLES)
    assert abs(coach.next().rating.rating - coach.reader.rating) <= gaps[5]
    assert "scoundrel" in coach.next("scoundrel").themes
    with pytest.raises(lf.BadArgument, match="no puzzle trains the theme 'juggling'"):
        coach.next("juggling")


def test_the_coach_keeps_the_reader_in_a_small_file(tmp_path: Path) -> None:
    path = tmp_path / "me.json"
    coach = Coach(PUZZLES, path=path, seed=1)
    first = coach.next()
    won = coach.record(first, solved=True)
    assert won.change > 0 and coach.streak == 1
    assert coach.book[first.name].rating.rating < first.rating.rating
    lost = coach.record(coach.next(), solved=False)
    assert lost.change < 0 and coach.streak == 0
    again = Coach(PUZZLES, path=path, seed=1)  # read back: rating, deviation, streak, history
    assert again.reader == coach.reader and again.streak == 0 and len(again.history) == 2
    assert again.book[first.name].rating == coach.book[first.name].rating
    assert again.next().name != first.name  # a puzzle tried is not served while others are left
    data = json.loads(path.read_text())
    assert set(data) == {"reader", "streak", "history", "puzzles"}
    assert set(data["reader"]) == {"rating", "deviation", "volatility"}
    path.write_text("{}")
    with pytest.raises(lf.BadArgument, match="not a puzzle trainer's file"):
        Coach(PUZZLES, path=path)


def test_seeding_rates_a_puzzle_no_bot_solves_above_one_every_bot_solves() -> None:
    by = {p.name: p for p in PUZZLES}
    hard, hard_results = rate.seed(by["Burn the fence"])  # adversarial: no bot finds it
    easy, easy_results = rate.seed(by["Overtake"])
    assert not any(any(r) for r in hard_results.values())
    assert all(easy_results["expert"]) and all(easy_results["hard"])
    assert hard.rating.rating > 1900 > 1500 > easy.rating.rating
    assert rate.difficulty(hard.rating.rating) == 5
