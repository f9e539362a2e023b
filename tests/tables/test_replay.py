"""Replays (issue 14): the Replay driver on a manual clock, continuing from a position, puzzle
drafts, and the replay board driven through its comm as the page drives it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rules_kit import random_game, replayed_views

import langfinger_widget as lf
from langfinger_widget import records
from langfinger_widget.bots import LEVELS
from langfinger_widget.tables.replay import Replay
from langfinger_widget.tables.scheduler import ManualScheduler
from langfinger_widget.ui.replay import ReplayWidget

DATE = "2025-06-01"


@pytest.fixture(scope="module")
def game() -> lf.Game:
    return random_game(3, 8)


@pytest.fixture(scope="module")
def text(game: lf.Game) -> str:
    return game.record(date=DATE, bots={1: "hard", 2: "medium"})


# --- the driver --------------------------------------------------------------------------------


def test_seek_step_and_round_starts(game: lf.Game, text: str) -> None:
    changes: list[int] = []
    r = Replay(text, seat=None, scheduler=ManualScheduler(), on_change=lambda: changes.append(1))
    views = replayed_views(game, None)
    assert r.length == len(game.history) and r.index == 0 and r.view() == views[0]
    r.seek(17)
    assert r.view() == views[17] and r.log() == game.origin().log(None) + [
        e for e in records.read(text).log(17) if e not in game.origin().log(None)]
    r.step(1)
    r.step(-1)
    r.step(-1)
    assert r.index == 16 and len(changes) == 4
    starts = r.round_starts
    assert starts[0] == 0 and starts == sorted(starts) and len(starts) == game.round
    assert all(views[i]["phase"] == "place" and all(p["tokens"] == 3 for p in views[i]["players"])
               for i in starts)
    r.seek(starts[2] + 1)
    r.round_start(-1)
    assert r.index == starts[2]
    r.round_start(-1)
    assert r.index == starts[1]
    r.round_start(1)
    assert r.index == starts[2]
    r.seek(r.length)
    r.step(1)
    assert r.index == r.length
    for bad in (-1, r.length + 1, "3", 2.0, True):
        with pytest.raises(ValueError, match="position must be a whole number"):
            r.seek(bad)
    assert r.index == r.length


def test_the_highlight_says_what_led_here(game: lf.Game, text: str) -> None:
    r = Replay(text, seat=None, scheduler=ManualScheduler())
    assert r.last_decision() == {}
    r.seek(1)
    first = r.last_decision()
    assert first["seat"] == game.deciders[0] and first["action"] == game.history[0]
    assert first["place"] == game.history[0]["place"] and first["square"] == 0
    assert r.labels[0].startswith("1. ") and game.history[0]["place"] in r.labels[0]


def test_playing_at_a_pace_on_the_clock_and_pausing(text: str) -> None:
    clock = ManualScheduler()
    r = Replay(text, seat=None, pace=0.5, scheduler=clock)
    r.play()
    assert r.playing and r.index == 0
    clock.advance(1.6)
    assert r.index == 3
    r.pause()
    clock.advance(5)
    assert r.index == 3 and not r.playing and clock.pending == 0
    r.seek(r.length - 1)
    r.play(0.1)
    clock.advance(1)
    assert r.index == r.length and not r.playing  # stops at the end
    r.play()  # from the start again
    assert r.index == 0 and r.playing
    r.close()
    assert not r.playing and clock.pending == 0
    with pytest.raises(ValueError, match="pace must be"):
        r.play(float("nan"))


def test_a_seats_record_is_seen_only_from_that_seat(game: lf.Game) -> None:
    mine = game.record(seat=2, date=DATE)
    r = Replay(mine, scheduler=ManualScheduler())
    assert r.seat == 2
    with pytest.raises(ValueError, match="only what seat 2 saw"):
        Replay(mine, seat=None, scheduler=ManualScheduler())
    with pytest.raises(ValueError, match="only what seat 2 saw"):
        r.set_seat(0)
    views = replayed_views(game, 2)
    for i in (0, 5, 60, r.length):
        r.seek(i)
        assert r.view() == views[i]


# --- leaving the replay ------------------------------------------------------------------------


def test_continue_from_here_is_the_real_game_with_its_history(game: lf.Game, text: str) -> None:
    r = Replay(text, seat=None, scheduler=ManualScheduler())
    r.seek(40)
    g = r.game()
    assert g.history == game.history[:40] and g.to_dict() == views_game(game, 40).to_dict()
    g.play(g.legal_actions()[0])
    g.undo()
    mine = Replay(game.record(seat=0, date=DATE), scheduler=ManualScheduler())
    mine.seek(40)
    sample = mine.game()
    assert sample.view(0) == views_game(game, 40).view(0) and sample.history == []


def views_game(game: lf.Game, at: int) -> lf.Game:
    g = game.origin()
    for action in game.history[:at]:
        g.play(action)
    return g


def test_a_puzzle_draft_from_a_position_is_solved_by_the_games_own_moves(game: lf.Game,
                                                                         text: str) -> None:
    r = Replay(text, seat=None, scheduler=ManualScheduler())
    rec = r.record
    # A position during actions, with the seat to move earning something before the round ends.
    at = next(i for i in range(rec.length) if rec.states[i].phase == "act"
              and _earned(rec, i) > 0)
    r.seek(at)
    draft = r.puzzle_draft()
    assert draft.seat == rec.deciders[at] and draft.earned == _earned(rec, at)
    puzzle = draft.puzzle(name="Found in a game")
    assert puzzle.position == draft.position.notation()
    result = puzzle.check(puzzle.solution)
    assert result.solved, result.reason
    shared: dict[str, Any] = {}
    exec(draft.source(), shared)  # the Python it writes runs
    assert shared["puzzle"].position == puzzle.position
    assert shared["puzzle"].check(shared["puzzle"].solution).solved
    r.seek(r.length)
    with pytest.raises(lf.InvalidState, match=r"R10\.1"):
        r.puzzle_draft()


def _earned(rec: records.Record, at: int) -> int:
    seat = rec.deciders[at]
    start = rec.states[at]
    end = next((j for j in range(at, rec.length + 1) if rec.states[j].round != start.round
                or rec.states[j].phase == "over"), rec.length)
    return rec.states[end].players[seat].money - start.players[seat].money


# --- the replay board through its comm ----------------------------------------------------------


class Spy:
    def __init__(self, w: Any) -> None:
        self.sent: list[Any] = []
        w.send = self.sent.append


def board(text: str, **kw: Any) -> tuple[ReplayWidget, Spy, ManualScheduler]:
    clock = ManualScheduler()
    w = lf.LangfingerWidget.replay(text, scheduler=clock, **kw)
    assert isinstance(w, ReplayWidget)
    return w, Spy(w), clock


def test_the_board_follows_the_scrubber_intents(game: lf.Game, text: str) -> None:
    w, spy, clock = board(text, seat=None)
    views = replayed_views(game, None)
    assert w.view == views[0] and w.legal == [] and w.scrubber["index"] == 0
    assert w.scrubber["length"] == len(game.history) and w.timeline["money"][0] == [0, 0, 0]
    assert w.handle_message({"kind": "replay_seek", "index": 30})["ok"]
    assert w.view == views[30] and w.move_number == 30 and w.highlight["move"] == 30
    assert w.events == records.read(text).log(30)[-30:]
    w.handle_message({"kind": "replay_step", "delta": 1})
    assert w.view == views[31] and w.scrubber["label"].startswith("31. ")
    w.handle_message({"kind": "replay_round", "direction": 1})
    assert w.scrubber["index"] in w.scrubber["rounds"] and w.view["round"] == views[31]["round"] + 1
    w.handle_message({"kind": "replay_play", "pace": 0.5})
    start = w.scrubber["index"]
    clock.advance(1.1)
    assert w.scrubber["index"] == start + 2 and w.scrubber["playing"]
    w.handle_message({"kind": "replay_pace", "pace": 2.0})
    clock.advance(1.5)
    assert w.scrubber["index"] == start + 2 and w.scrubber["pace"] == 2.0  # slower now
    clock.advance(0.6)
    assert w.scrubber["index"] == start + 3
    w.handle_message({"kind": "replay_pause"})
    assert not w.scrubber["playing"]
    w.handle_message({"kind": "replay_seat", "seat": 1})
    assert w.seat == 1 and w.view == replayed_views(game, 1)[start + 3]
    assert all(m == {"kind": "result", "ok": True, "error": ""} for m in spy.sent)
    assert json.loads(json.dumps(w.get_state()["timeline"]))  # strict JSON


@pytest.mark.parametrize("message,pattern", [
    ({"kind": "act", "action": {"type": "pass"}}, "read-only.*'act' refused"),
    ({"kind": "undo"}, "read-only"),
    ({"kind": "hint"}, "read-only"),
    ({"kind": "new_game"}, "read-only"),
    ({"kind": "replay_seek", "index": 10_000}, "position must be a whole number"),
    ({"kind": "replay_seek", "index": "5"}, "position must be a whole number"),
    ({"kind": "replay_step", "delta": 7}, "a step is 1 or -1"),
    ({"kind": "replay_round", "direction": True}, "direction is 1 or -1"),
    ({"kind": "replay_play", "pace": -1}, "pace must be"),
    ({"kind": "replay_pace", "pace": "fast"}, "pace must be"),
    ({"kind": "replay_seat", "seat": 9}, "seat must be"),
    ({"kind": "replay_continue", "bots": {"1": "oracle"}}, "unknown bot 'oracle'"),
    ({"kind": "replay_continue", "bots": "all"}, "bots must map seats"),
    ({"kind": "replay_analyse", "seat": 0, "bot": "easy"}, "searching level"),
    ({"kind": "replay_analyse", "seat": 7}, "seat must be 0..2"),
    ("seek", "not a message"),
])
def test_a_refused_intent_changes_nothing_and_says_why(text: str, message: Any,
                                                       pattern: str) -> None:
    w, spy, _ = board(text, seat=None)
    w.handle_message({"kind": "replay_seek", "index": 12})
    before = (w.get_state(), w.game.to_dict())
    reply = w.handle_message(message)
    assert reply["ok"] is False and reply == spy.sent[-1]
    assert __import__("re").search(pattern, reply["error"]), reply["error"]
    after = w.get_state()
    for key in ("view", "scrubber", "legal", "events", "timeline", "seat"):
        assert after[key] == before[0][key], key
    assert w.game.to_dict() == before[1] and w.error == reply["error"]
    w.handle_message({"kind": "replay_step", "delta": -1})
    assert w.error == ""  # moving on clears the refusal


def test_a_seats_replay_board_carries_only_that_seats_view(game: lf.Game) -> None:
    mine = game.record(seat=1, date=DATE)
    with pytest.raises(ValueError, match="only what seat 1 saw"):
        lf.LangfingerWidget.replay(mine, seat=None)
    w, _, _ = board(mine)
    assert w.record_text() == mine
    assert w.seat == 1 and w.scrubber["record_seat"] == 1
    assert w.handle_message({"kind": "replay_seat", "seat": None})["ok"] is False
    with pytest.raises(ValueError, match="only what seat 1 saw"):
        w.seat = 0
    with pytest.raises(ValueError, match="only what seat 1 saw"):
        w.seat = None  # traitlets skips validators for None: the replay refuses it itself
    assert w.seat == 1 and w.view["seat"] == 1
    views = replayed_views(game, 1)
    real = game.log(1)
    for i in (0, 33, 100, len(game.history)):
        w.handle_message({"kind": "replay_seek", "index": i})
        assert w.view == views[i] and w.seat == 1
        assert all(e in real for e in w.events)
    assert w.handle_message({"kind": "replay_analyse", "seat": 0})["error"].startswith(
        "this record holds only what seat 1 saw")


def test_continue_from_here_turns_the_board_live(game: lf.Game, text: str) -> None:
    w, _, clock = board(text, seat=None)
    w.handle_message({"kind": "replay_seek", "index": 25})
    reply = w.handle_message({"kind": "replay_continue", "seat": 0, "bots": {"1": "easy",
                                                                              "2": "easy"}})
    assert reply["ok"], reply
    assert w.scrubber == {} and w.timeline == {} and w.replaying is None
    assert w.seat == 0 and w.bots == {"1": "easy", "2": "easy"} and w.human_seats == [0]
    assert w.game.history == game.history[:25]
    clock.run_all()  # the bots play up to seat 0's decision, on the loop
    assert w.game.to_move == 0 and w.legal == w.game.legal_actions()
    assert w.handle_message({"kind": "act", "action": w.legal[0], "move": w.move_number,
                             "version": w.version})["ok"]
    assert w.handle_message({"kind": "replay_seek", "index": 3})["error"].startswith(
        "unknown message kind")
    again, _, _ = board(text, seat=None)
    live = again.continue_from_here(seat=2, autoplay=False)
    assert live.game.history == [] or live.game.to_move is not None
    assert again.scrubber["index"] == 0 and live.bots == {"1": "hard"}  # the record's bots


def test_make_a_puzzle_from_here_answers_with_its_python(text: str) -> None:
    w, _, _ = board(text, seat=None)
    w.handle_message({"kind": "replay_seek", "index": 14})
    reply = w.handle_message({"kind": "replay_puzzle"})
    assert reply["kind"] == "replay_puzzle" and "Position(" in reply["source"]
    assert w.puzzle_draft is not None and reply["seat"] == w.puzzle_draft.seat
    assert w.scrubber["index"] == 14


def test_analysis_runs_on_the_loop_and_draws_the_graph(text: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LEVELS, "hard", ("ismcts", {"iterations": 4}, "tiny, for the test"))
    short = random_game(2, 3, max_steps=12).record(seat=None, date=DATE)
    w, _, clock = board(short, seat=None)
    assert w.handle_message({"kind": "replay_analyse", "seat": 0})["ok"]
    assert w.scrubber["analysing"]["seat"] == 0 and w.timeline["evaluation"] is None
    clock.run_all()
    points = w.timeline["evaluation"]["points"]
    assert w.scrubber["analysing"] is None and len(points) == 6
    assert all(0 <= p["before"] <= 1 and 0 <= p["after"] <= 1 for p in points)
    rows = w.analyse(1, bot="ismcts", iterations=3, progress=False)
    assert [p["index"] for p in w.timeline["evaluation"]["points"]] == [r["index"] for r in rows]


def test_save_and_load_a_record_from_the_board(tmp_path: Path) -> None:
    w = lf.LangfingerWidget(players=3, seed=5, seat=0, bots={1: "random", 2: "random"},
                            autoplay=False)
    w.play(w.game.legal_actions()[0])
    w.step_bots()
    path = w.save_record(tmp_path / "game.lfr")
    saved = path.read_text()
    assert "view 0" in saved and "seat 1 \"Hans\" hans bot random" in saved  # the shown seat's
    back = lf.LangfingerWidget.load_record(path, autoplay=False)
    assert back.view == w.view and back.seat == 0 and back.bots == {"1": "random", "2": "random"}
    teacher = lf.LangfingerWidget(players=2, seed=5, seat=None, autoplay=False)
    teacher.play(teacher.game.legal_actions()[0])
    full = teacher.record_text()
    assert "view all" in full and "seed 5" in full  # the open board shows everything anyway
    again = lf.LangfingerWidget.load_record(full, seat=None, autoplay=False)
    assert again.game.to_dict() == teacher.game.to_dict() and again.game.history
    with pytest.raises(lf.RecordError):
        lf.LangfingerWidget.load_record(full.replace("place", "pass", 1), autoplay=False)
