"""``lf.analyse`` (issue 14): one seat's decisions rated by the search bot from what it saw."""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest
from rules_kit import random_game

import langfinger_widget as lf
from langfinger_widget.bots import ISMCTSBot
from langfinger_widget.kernel.views import VIEW_FORMAT
from langfinger_widget.puzzles import PUZZLES

DATE = "2025-06-01"
TINY = {"bot": "ismcts", "iterations": 12, "progress": False}


def test_rows_for_every_decision_of_the_seat_only() -> None:
    g = random_game(3, 2, max_steps=20)
    rows = lf.analyse(g.record(seat=None, date=DATE), 1, **TINY)
    assert [r["index"] for r in rows] == [i for i, s in enumerate(g.deciders) if s == 1]
    for r in rows:
        assert r["decision"] == r["index"] + 1 and r["seat"] == 1
        assert r["action"] == g.history[r["index"]]
        assert all(0.0 <= r[k] <= 1.0 for k in ("before", "after", "best_chance", "loss"))
        assert r["loss"] == pytest.approx(max(0.0, r["best_chance"] - r["after"]))
        assert isinstance(r["best"], str) and r["best_action"]["type"]
        if r["best_action"] == r["action"]:
            assert not r["doubtful"] and r["after"] == r["best_chance"]


class Spy(ISMCTSBot):
    """The search bot, remembering every view it was given."""

    def __init__(self) -> None:
        super().__init__(seed=0, iterations=6)
        self.views: list[dict[str, Any]] = []

    def search(self, view: Any, legal: Any, first: Any = None) -> Any:
        self.views.append(view)
        return super().search(view, legal, first)


@pytest.mark.parametrize("whose", ["full", "seat"])
def test_the_bot_sees_only_what_the_seat_saw(whose: str) -> None:
    g = random_game(4, 6, max_steps=60)
    text = g.record(seat=None if whose == "full" else 2, date=DATE)
    spy = Spy()
    lf.analyse(text, 2, bot=spy, progress=False)
    replay = g.origin()
    expected = []
    for seat, action in zip(g.deciders, g.history, strict=True):
        if seat == 2:
            expected.append(replay.view(2))
        replay.play(action)
    assert spy.views, "no decision of seat 2 was rated"
    assert all(v["format"] == VIEW_FORMAT and v["seat"] == 2 for v in spy.views)
    # One or two searches a decision, each from exactly the seat's own view at that moment.
    seen = [v for i, v in enumerate(spy.views) if i == 0 or v != spy.views[i - 1]]
    assert seen == expected


def test_a_blunder_is_marked_doubtful() -> None:
    """Not over yet (R10.2): Hans has 21; Pascal, at 16, can still tie (and ties win) by taking
    the painting and selling it. Passing at the Museum hands Hans the game."""
    puzzle = next(p for p in PUZZLES if p.name == "Not over yet")
    g = puzzle.game()
    g.play({"type": "pass"})
    g.play({"type": "pass"})
    rows = lf.analyse(g.record(seat=None, date=DATE), 0, bot="ismcts", iterations=150,
                      progress=False)
    first = rows[0]
    # In plain words (lf.describe.action), as the seat saw the position: the loot by its back.
    assert first["move"] == "pass at the Museum", first["move"]
    assert first["best"].startswith("steal a pillar (a lockpick, a hammer and a map) from the "
                                    "Museum, handing in"), first["best"]
    assert first["doubtful"] and first["loss"] > 0.3, first
    assert first["after"] < 0.05  # nothing is left to sell: R10.1 ends the game, Hans wins
    assert not rows[1]["doubtful"]  # the second pass changes nothing any more


def test_bad_requests_are_refused_before_any_search() -> None:
    g = random_game(2, 1, max_steps=10)
    full, mine = g.record(seat=None, date=DATE), g.record(seat=0, date=DATE)
    with pytest.raises(ValueError, match="searching bot"):
        lf.analyse(full, 0, bot="medium")
    with pytest.raises(ValueError, match=r"seat must be 0\.\.1"):
        lf.analyse(full, 2, **TINY)
    with pytest.raises(ValueError, match="only what seat 0 saw"):
        lf.analyse(mine, 1, **TINY)
    with pytest.raises(ValueError, match="threshold"):
        lf.analyse(full, 0, threshold=2, **TINY)
    with pytest.raises(lf.RecordError):
        lf.analyse(full.replace("variant standard", "variant chess"), 0, **TINY)


def test_rows_as_a_data_frame_when_pandas_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    g = random_game(2, 1, max_steps=6)
    text = g.record(seat=None, date=DATE)
    fake = types.ModuleType("pandas")
    fake.DataFrame = lambda rows: ("frame", rows)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pandas", fake)
    kind, rows = lf.analyse(text, 0, frame=True, **TINY)
    assert kind == "frame" and rows == lf.analyse(text, 0, **TINY)
    monkeypatch.setitem(sys.modules, "pandas", None)  # not installed
    with pytest.raises(ImportError, match="frame=True needs pandas"):
        lf.analyse(text, 0, frame=True, **TINY)


def test_long_records_show_progress(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("tqdm")
    g = random_game(2, 4, max_steps=16)
    rows = lf.analyse(g.record(seat=None, date=DATE), 1, bot="ismcts", iterations=5)
    err = capsys.readouterr().err
    assert "analysing" in err and f"{len(rows)}/{len(rows)}" in err
