"""``lf.analyse`` on a game other than Langfinger (issue 37): Crooks records, rated decision
by decision by ISMCTS on ``resample`` twins, through the game protocol alone."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import langfinger_widget as lf
from langfinger_widget.bots import ISMCTSBot
from langfinger_widget.records import read_game, write_game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "crooks"))
from crooks_helpers import random_game

DATE = "2026-11-26"
TINY: dict[str, Any] = {"bot": "ismcts", "iterations": 12, "progress": False}


def test_rows_for_every_decision_of_the_seat_in_the_game_s_words() -> None:
    g = random_game(3, 4, stop=24)
    text = write_game(g, date=DATE)
    rows = lf.analyse(text, 1, **TINY)
    mine = [i for i, s in enumerate(g.deciders) if s == 1]
    assert [r["index"] for r in rows] == mine and mine
    replay = lf.crooks.Game.new(players=3, seed=4)
    words = lf.games.get("crooks").action_words[0]  # type: ignore[index]
    lines = text.splitlines()
    for i, (seat, action) in enumerate(zip(g.deciders, g.history, strict=True)):
        if seat == 1:
            row = rows[mine.index(i)]
            assert row["action"] == action and row["move"] == words(action)
            assert row["best_action"] in replay.legal_actions(1)
            assert row["best"] == words(row["best_action"])
            assert lines[row["line"] - 1].endswith(row["move"])
            for key in ("before", "after", "best_chance"):
                assert 0.0 <= row[key] <= 1.0
            assert row["loss"] == pytest.approx(max(0.0, row["best_chance"] - row["after"]))
            assert row["doubtful"] == (row["loss"] > 0.1 and row["best_action"] != action)
            assert row["round"] is None and row["too_late"] is None
        replay.play(action)
    # The same record and seed give the same rows, from its text or from the record read.
    assert lf.analyse(read_game(text), 1, **TINY) == rows


class Spy(ISMCTSBot):
    """ISMCTS that keeps every twin it is given to search."""

    def __init__(self) -> None:
        super().__init__(seed=0, iterations=6)
        self.twins: list[Any] = []

    def search_twin(self, twin: Any, seat: int, legal: Any, first: Any = None) -> Any:
        self.twins.append(twin.copy())
        return super().search_twin(twin, seat, legal, first)


def test_the_search_gets_only_twins_the_seat_cannot_tell_from_the_game() -> None:
    g = random_game(3, 8, stop=40)
    spy = Spy()
    lf.analyse(write_game(g, date=DATE), 2, bot=spy, progress=False)
    replay = lf.crooks.Game.new(players=3, seed=8)
    real = []
    for seat, action in zip(g.deciders, g.history, strict=True):
        if seat == 2:
            real.append(replay.copy())
        replay.play(action)
    assert spy.twins and len(spy.twins) >= len(real)
    redealt = 0
    at = 0
    for twin in spy.twins:
        while at < len(real) and real[at].move_number != twin.move_number:
            at += 1
        game = real[at]
        assert twin.view(2) == game.view(2) and twin.log(2) == game.log(2)
        assert twin.legal_actions(2) == game.legal_actions(2)
        redealt += json.dumps(twin.to_dict()) != json.dumps(game.to_dict())
    assert redealt > 0, "every twin was the real game: the search could see hidden crooks"


def test_a_played_move_the_search_would_not_make_is_rated_after_it() -> None:
    """Where the played move is not the search's best, a second search starts from it."""
    g = random_game(2, 5, stop=12)
    rows = lf.analyse(write_game(g, date=DATE), 0, bot="ismcts", iterations=40,
                      progress=False)
    other = [r for r in rows if r["best_action"] != r["action"]]
    assert other, "the search agreed with every random move"
    assert any(r["after"] != r["best_chance"] for r in other)


def test_bad_requests_are_refused_before_any_search() -> None:
    text = write_game(random_game(2, 1, stop=6), date=DATE)
    with pytest.raises(ValueError, match="searching bot"):
        lf.analyse(text, 0, bot="medium")
    with pytest.raises(ValueError, match=r"seat must be 0\.\.1"):
        lf.analyse(text, 2, **TINY)
    with pytest.raises(ValueError, match="threshold"):
        lf.analyse(text, 0, threshold=2, **TINY)
    with pytest.raises(lf.RecordError):
        lf.analyse(text.replace("recruit", "recrute", 1), 0, **TINY)


def test_the_levels_rate_crooks_too() -> None:
    rows = lf.analyse(write_game(random_game(2, 2, stop=4), date=DATE), 0, bot="hard",
                      progress=False)
    assert rows and all(0.0 <= r["before"] <= 1.0 for r in rows)
