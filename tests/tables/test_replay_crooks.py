"""Replay with the scrubber for a game other than Langfinger (issue 37): a Crooks record on
the board (``lf.LangfingerWidget.replay``), moved back and forth by the same intents, each
position the game's own view for the seat shown, through the protocol."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

import langfinger_widget as lf
from langfinger_widget.bots import TWIN_LEVELS
from langfinger_widget.records import read_game, write_game
from langfinger_widget.tables.replay import ProtocolRecord, Replay
from langfinger_widget.tables.scheduler import ManualScheduler
from langfinger_widget.ui.replay import ReplayWidget

DATE = "2026-11-26"


@pytest.fixture(scope="module")
def game() -> lf.crooks.Game:
    """A whole game of greedy bots (random play often passes out in a dozen decisions)."""
    g = lf.crooks.Game.new(players=3, seed=12)
    bots = [lf.crooks.GreedyBot(seed=s) for s in range(3)]
    while not g.is_over:
        seat = g.to_move
        assert seat is not None
        g.play(bots[seat].choose(g.view(seat), g.legal_actions()), seat)
    assert g.move_number > 30
    return g


@pytest.fixture(scope="module")
def text(game: lf.crooks.Game) -> str:
    return write_game(game, bots={1: "hard", 2: "medium"}, date=DATE)


def positions(game: lf.crooks.Game) -> list[lf.crooks.Game]:
    replay = lf.crooks.Game.new(players=game.num_players, seed=game.seed)
    out = [replay.copy()]
    for seat, action in zip(game.deciders, game.history, strict=True):
        replay.play(action, seat)
        out.append(replay.copy())
    return out


def board(text: str, **kw: Any) -> tuple[ReplayWidget, list[Any], ManualScheduler]:
    clock = ManualScheduler()
    w = lf.LangfingerWidget.replay(text, scheduler=clock, **kw)
    assert isinstance(w, ReplayWidget)
    sent: list[Any] = []
    w.send = sent.append  # type: ignore[method-assign]
    return w, sent, clock


def test_the_replay_reads_a_crooks_record_as_the_game_s_positions(game: lf.crooks.Game,
                                                                  text: str) -> None:
    r = Replay(read_game(text), seat=None, scheduler=ManualScheduler())
    assert isinstance(r.record, ProtocolRecord) and r.length == game.move_number
    every = positions(game)
    for i in (0, 5, r.length):
        r.seek(i)
        assert r.view() == every[i].view(None) and r.log() == every[i].log(None)
    r.set_seat(2)
    assert r.view() == every[r.index].view(2)
    assert r.last_decision() == {"seat": game.deciders[-1], "action": game.history[-1],
                                 "by": "replay", "move": r.length}
    assert r.labels[0].startswith("1. Player ") and r.round_starts == [0]
    with pytest.raises(ValueError, match="puzzles are Langfinger's"):
        r.puzzle_draft()


def test_the_board_follows_the_scrubber_back_and_forth(game: lf.crooks.Game, text: str) -> None:
    w, sent, clock = board(text, seat=None)
    every = positions(game)
    assert w.view == every[0].view(None) and w.view["format"] == "crooks-view/1"
    assert w.legal == [] and w.scrubber["length"] == game.move_number
    assert w.scrubber["puzzles"] is False
    assert w.timeline["money"][0] == [18, 18, 18]  # C1.2: everyone starts with $18
    assert [s["name"] for s in w.timeline["seats"]] == ["Player 1", "Player 2", "Player 3"]
    assert w.handle_message({"kind": "replay_seek", "index": 20})["ok"]
    assert w.view == every[20].view(None) and w.move_number == 20
    assert w.events == every[20].log(None)[-30:]
    w.handle_message({"kind": "replay_step", "delta": -1})
    assert w.view == every[19].view(None) and w.scrubber["label"].startswith("19. ")
    w.handle_message({"kind": "replay_step", "delta": 1})
    w.handle_message({"kind": "replay_play", "pace": 0.5})
    clock.advance(1.1)
    assert w.scrubber["index"] == 22 and w.scrubber["playing"]
    w.handle_message({"kind": "replay_pause"})
    w.handle_message({"kind": "replay_seat", "seat": 1})
    assert w.seat == 1 and w.view == every[22].view(1)
    assert w.events == every[22].log(1)[-30:]
    w.handle_message({"kind": "replay_seek", "index": game.move_number})
    assert w.view["step"] == "over" and w.view["standings"] == game.view(1)["standings"]
    assert all(m == {"kind": "result", "ok": True, "error": ""} for m in sent)
    assert json.loads(json.dumps(w.get_state()["timeline"]))  # strict JSON


def test_a_seat_s_caption_names_no_crook_it_could_not_see(game: lf.crooks.Game,
                                                          text: str) -> None:
    rec = ProtocolRecord(read_game(text))
    every = positions(game)
    for seat in range(3):
        for i, caption in enumerate(rec.captions(seat)):
            seen = json.dumps(every[i + 1].log(seat))
            for crook in set(re.findall(r"K\d\d", caption)):
                assert crook in seen, (seat, i, caption)
    hidden = [c for i, c in enumerate(rec.captions(0))
              if game.deciders[i] != 0 and game.history[i]["type"] == "keep"]
    assert hidden and any(not re.search(r"K\d\d", c) for c in hidden)  # mostly unseen


@pytest.mark.parametrize("message,pattern", [
    ({"kind": "act", "action": {"type": "pass"}}, "read-only.*'act' refused"),
    ({"kind": "undo"}, "read-only"),
    ({"kind": "replay_seek", "index": 10_000}, "position must be a whole number"),
    ({"kind": "replay_step", "delta": 3}, "a step is 1 or -1"),
    ({"kind": "replay_seat", "seat": 3}, "seat must be"),
    ({"kind": "replay_puzzle"}, "puzzles are Langfinger's"),
])
def test_a_refused_intent_changes_nothing(text: str, message: Any, pattern: str) -> None:
    w, _, _ = board(text, seat=None)
    w.handle_message({"kind": "replay_seek", "index": 9})
    before = w.get_state()
    reply = w.handle_message(message)
    assert reply["ok"] is False and re.search(pattern, reply["error"]), reply
    after = w.get_state()
    for key in ("view", "scrubber", "legal", "events", "timeline", "seat"):
        assert after[key] == before[key], key


def test_continue_from_here_plays_crooks_on(game: lf.crooks.Game, text: str) -> None:
    w, _, clock = board(text, seat=None)
    w.handle_message({"kind": "replay_seek", "index": 10})
    reply = w.handle_message({"kind": "replay_continue", "seat": 0,
                              "bots": {"1": "easy", "2": "easy"}})
    assert reply["ok"], reply
    assert w.replaying is None and w.game.history == game.history[:10]
    clock.run_all()
    assert w.game.is_over or (w.game.to_move == 0 and w.legal == w.game.legal_actions(0))


def test_the_replay_s_analysis_rates_crooks_on_the_loop(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    monkeypatch.setitem(TWIN_LEVELS, "hard", ("ismcts", {"iterations": 4}))
    g = lf.crooks.Game.new(players=2, seed=3)
    rng = random.Random(3)
    for _ in range(10):
        g.play(rng.choice(g.legal_actions()))
    w, _, clock = board(write_game(g, date=DATE), seat=None)
    assert w.handle_message({"kind": "replay_analyse", "seat": 0})["ok"]
    clock.run_all()
    points = w.timeline["evaluation"]["points"]
    assert len(points) == sum(s == 0 for s in g.deciders)
    assert all(0 <= p["before"] <= 1 for p in points)


def test_a_finished_crooks_board_replays_its_own_game() -> None:
    w = lf.LangfingerWidget(game="crooks", players=2, seed=5, seat=0,
                            bots={1: "random"}, autoplay=False)
    rng = random.Random(5)
    while not w.game.is_over:
        seat = w.game.to_move
        w.game.play(rng.choice(w.game.legal_actions()), seat)
    w.refresh()
    w.replay_this_game()
    assert w.scrubber["can_leave"] and w.scrubber["length"] == w.game.move_number
    w.leave_replay()
    assert w.scrubber == {} and w.view["step"] == "over"


def test_a_crooks_board_writes_what_it_may_show() -> None:
    """Mid-game the shown seat's record (only what it saw); once over the full record,
    which replays on the board."""
    w = lf.LangfingerWidget(game="crooks", players=3, seed=7, seat=0,
                            bots={1: "greedy", 2: "random"}, autoplay=False)
    w.step_bots()
    mine = w.record_text()
    assert "view 0" in mine and "seed" not in mine
    assert lf.records.read_seat_game(mine).log() == w.game.log(0)
    while not w.game.is_over:
        w.game.play(w.game.legal_actions()[0], w.game.to_move)
    w.refresh()
    full = w.record_text()
    assert "view all" in full and read_game(full).game().to_dict() == w.game.to_dict()
    replayed, _, _ = board(full, seat=0)
    assert replayed.scrubber["length"] == w.game.move_number


def test_a_crooks_record_plays_on_from_its_end(game: lf.crooks.Game, text: str) -> None:
    cut = write_game(read_game(text).game(at=20), bots={1: "hard", 2: "medium"}, date=DATE)
    w = lf.LangfingerWidget.load_record(cut, autoplay=False)
    assert w.game.history == game.history[:20] and w.seat == 0
    assert w.bots == {"1": "hard", "2": "medium"}  # the record's bots play on
