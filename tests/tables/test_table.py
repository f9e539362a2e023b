"""The table: the thread-free driver of seats, bots, pace, hints and Undo (issues 10 and 12).

Most tests run the table on a :class:`ManualScheduler`, a clock that moves only
when told, so every interleaving of clicks, undos and bot moves is exact and
repeatable. A few run it on a real asyncio loop, as in a kernel, one of them
with threads made unavailable, as in Pyodide.
"""

from __future__ import annotations

import _thread
import asyncio
import math
import threading
from typing import Any

import pytest
from rules_kit import run_alone

import langfinger_widget as lf
from langfinger_widget.tables import scheduler as scheduler_module
from langfinger_widget.tables import table as table_module
from langfinger_widget.tables.scheduler import ManualScheduler
from langfinger_widget.tables.table import Table, TableError

MUSEUM = {"type": "place", "place": "museum"}


def table(players: int = 3, seed: int = 5, **kw: Any) -> tuple[Table, ManualScheduler]:
    clock = ManualScheduler()
    kw.setdefault("seat", 0)
    kw.setdefault("bots", {s: "random" for s in range(1, players)})
    kw.setdefault("pace", 0.5)
    game = lf.Game.new(players=players, seed=seed, start_player=0)
    return Table(game, scheduler=clock, seed=1, **kw), clock


# --- pacing --------------------------------------------------------------------------------------


def test_bots_move_one_pace_apart_after_the_human() -> None:
    t, clock = table(pace=0.5)
    t.play(MUSEUM)
    clock.advance(0.49)
    assert t.game.deciders == [0]  # not before the pace is up
    clock.advance(0.02)
    assert t.game.deciders == [0, 1]
    clock.advance(0.5)
    assert t.game.deciders == [0, 1, 2] and t.game.to_move == 0
    clock.advance(10)
    assert len(t.game.history) == 3  # a human decides: the bots wait


def test_pace_zero_plays_the_bots_at_once_on_the_loop() -> None:
    t, clock = table(pace=0)
    t.play(MUSEUM)
    assert t.game.deciders == [0]  # never inside the caller's call
    clock.advance(0)
    assert t.game.to_move == 0 and len(t.game.history) == 3


def test_a_searching_bot_thinks_in_slices_and_a_click_can_come_between() -> None:
    t, clock = table(bots={1: "expert", 2: "random"}, pace=0)
    t.play(MUSEUM)
    clock.tick()  # one slice of about 20 ms: 1,500 iterations take many slices
    assert t.game.deciders == [0] and clock.pending == 1
    ticks = 1
    while t.game.to_move != 0:
        ticks += clock.tick()
    assert ticks > 3
    assert t.game.deciders == [0, 1, 2]


@pytest.mark.parametrize("pace", [math.nan, math.inf, -1, 10.5, "fast", None, True])
def test_pace_must_be_a_finite_number_of_seconds(pace: Any) -> None:
    t, clock = table()
    with pytest.raises(TableError, match="pace must be"):
        t.set_pace(pace)
    assert t.pace == 0.5
    t.play(MUSEUM)
    clock.advance(1.01)
    assert t.game.to_move == 0  # the bots still move: nothing was broken


# --- undo, new games and closing while a bot is due ----------------------------------------------


def test_undo_while_a_bot_is_due_drops_its_move() -> None:
    t, clock = table(bots={1: "random"}, pace=0.5)  # seats 0 and 2 human: hot seat
    t.set_seat(None)
    t.play(MUSEUM)
    clock.advance(0.1)  # the bot has chosen and waits for its pace
    t.undo()
    assert t.game.history == []
    clock.advance(5)
    assert t.game.history == []  # the move chosen for the undone position never lands


def test_a_bot_never_plays_a_move_chosen_for_another_version_of_the_same_move_number() -> None:
    t, clock = table(bots={1: "medium"}, pace=0.5)
    t.set_seat(None)
    t.play(MUSEUM)
    clock.advance(0.1)  # seat 1's move for "seat 0 at the Museum" is ready, due at 0.5
    t.undo()
    t.play({"type": "place", "place": "city"})  # the same move number, another position
    stale = t.game.version
    clock.advance(0.45)
    assert t.game.version == stale  # the old choice was dropped, the new one is not yet due
    clock.advance(0.1)
    assert t.game.deciders == [0, 1]
    assert t.highlight["by"] == "bot" and t.error == ""


def test_closing_while_a_bot_is_due_stops_everything() -> None:
    t, clock = table(pace=0.5)
    t.play(MUSEUM)
    clock.advance(0.1)
    t.close()
    clock.advance(5)
    assert t.game.deciders == [0] and clock.pending == 0


def test_new_game_while_a_bot_thinks_starts_clean() -> None:
    t, clock = table(bots={1: "expert", 2: "random"}, pace=0)
    t.play(MUSEUM)
    clock.advance(0)
    t.new_game({"players": 4, "seat": 2, "seed": 9})
    assert t.game.num_players == 4 and t.seat == 2 and t.game.history == []
    assert t.bot_names == {0: "medium", 1: "medium", 3: "medium"}
    clock.run_all()
    assert t.game.to_move == 2 or t.game.to_move is None


@pytest.mark.parametrize("options", [
    {"players": 6}, {"players": "3"}, {"seat": 7}, {"variant": "chaos"}, {"seed": -1},
    {"seed": 1.5}, {"bots": {"1": "oracle"}}, {"bots": {"9": "easy"}}, {"bots": []},
    {"colour": "red"},
])
def test_a_bad_new_game_option_is_refused_and_changes_nothing(options: dict[str, Any]) -> None:
    t, _ = table()
    before = (t.game, t.seat, t.bot_names)
    reply = t.new_game_intent({"kind": "new_game", **options})
    assert reply["ok"] is False and reply["error"]
    assert (t.game, t.seat, t.bot_names) == before


# --- a bot loop that cannot die (issue 12) -------------------------------------------------------


class _Boom:
    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        raise RuntimeError("boom")


class _Forger:
    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        return {"type": "steal", "slot": 99}


@pytest.mark.parametrize(("bot", "said"), [(_Boom(), "failed"), (_Forger(), "illegal action")])
def test_a_failing_bot_is_reported_and_the_game_goes_on(bot: Any, said: str) -> None:
    t, clock = table(pace=0)
    t._bots[1] = bot
    t.play(MUSEUM)
    clock.run_all()
    assert said in t.error and "seat 1" in t.error
    assert t.game.deciders == [0, 1, 2] and t.game.to_move == 0  # seat 2 moved on after it
    t.play({"type": "place", "place": "city"})
    clock.run_all()
    assert t.game.deciders[:5] == [0, 1, 2, 0, 1]  # and keeps going


# --- hints: versioned, for one seat, one search at a time ----------------------------------------


class _SlowHint:
    """A hint bot whose search takes ``pieces`` yields; counts how many searches ran."""

    searches = 0

    def __init__(self, pieces: int = 5) -> None:
        self.pieces = pieces

    def search(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        _SlowHint.searches += 1
        bot = self

        class Running:
            done = False
            runs = 0

            def run(self, n: int) -> None:
                self.runs += 1
                self.done = self.runs >= bot.pieces

            def best(self) -> tuple[dict[str, Any], float]:
                return legal[0], 0.5

        return Running()


@pytest.fixture
def slow_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hints from :class:`_SlowHint`, one piece of work a slice (a test can stop between two)."""
    _SlowHint.searches = 0
    monkeypatch.setattr(table_module, "make_hint_bot", lambda seed: _SlowHint())
    monkeypatch.setattr(scheduler_module, "SLICE_SECONDS", 0.0)


def test_hint_requests_are_coalesced_into_one_search(slow_hints: None) -> None:
    sent: list[dict[str, Any]] = []
    t, clock = table(bots={}, on_message=sent.append)
    replies = [t.hint_intent() for _ in range(300)]
    clock.run_all()
    assert all(r["pending"] for r in replies) and _SlowHint.searches == 1
    assert [m["action"] for m in sent] == [t.game.legal_actions()[0]]
    assert t.hint["seat"] == 0 and t.hint["version"] == t.game.version


def test_a_hint_for_one_seat_never_shows_on_the_next_seats_board(slow_hints: None) -> None:
    sent: list[dict[str, Any]] = []
    t, clock = table(bots={2: "random"}, on_message=sent.append)  # seats 0 and 1: hot seat
    t.hint_intent()  # seat 0 asks; the search is under way
    clock.tick()
    t.play(MUSEUM)  # seat 0 moves; the board goes to seat 1
    t.reveal({"seat": 1})
    t.undo_refusal()
    clock.run_all()
    assert t.hint == {} and not any(m.get("action") for m in sent)


def test_a_hint_for_an_undone_position_is_dropped(slow_hints: None) -> None:
    sent: list[dict[str, Any]] = []
    t, clock = table(bots={}, seat=None, on_message=sent.append)
    t.play(MUSEUM)
    t.hint_intent()  # seat 1, at version 1
    t.undo()
    t.play({"type": "place", "place": "city"})  # seat 1 again at move 1, another position
    clock.run_all()
    assert t.hint == {} and not any(m.get("action") for m in sent)
    t.hint_intent()
    clock.run_all()
    assert t.hint["version"] == t.game.version and sent[-1]["action"] is not None


# --- Undo under R12 ------------------------------------------------------------------------------


def _to_ruin_exchange(t: Table, clock: ManualScheduler) -> None:
    """Play until seat 0 may exchange at the Ruin; seat 0 places at the Ruin every time."""
    while t.game.to_move is not None:
        if t.game.to_move == 0:
            legal = t.game.legal_actions()
            ruin = [a for a in legal if a == {"type": "place", "place": "ruin"}]
            exchanges = [a for a in legal if a["type"] == "exchange"]
            if exchanges:
                return
            t.play(ruin[0] if ruin else legal[-1])
        clock.run_all()
    pytest.fail("seat 0 never got to exchange")


def test_r12_1_undo_never_unsees_the_tools_drawn_at_the_ruin() -> None:
    t, clock = table(players=2, bots={1: "medium"}, pace=0)
    _to_ruin_exchange(t, clock)
    exchange = next(a for a in t.game.legal_actions() if a["type"] == "exchange")
    assert t.undo_refusal() is None  # placing tokens showed nothing: undo allowed
    t.play(exchange)
    clock.run_all()
    reason = t.undo_refusal()
    assert reason is not None and reason.startswith("R12.1")
    with pytest.raises(lf.IllegalAction, match=r"R12\.1"):
        t.undo()
    assert t.undo_status() == {"allowed": False, "reason": reason}


def _thief(game: lf.Game, bot: lf.bots.GreedyBot) -> dict[str, Any]:
    """Seat 0's move: a steal whenever one is legal, else what the greedy bot would play
    (it gathers tools and places where it can steal, so a steal comes within a few rounds)."""
    legal = game.legal_actions()
    steals = [a for a in legal if a["type"] == "steal"]
    return steals[0] if steals else bot.choose(game.view(0), legal)


def test_r12_1_undo_never_unsees_a_stolen_front() -> None:
    t, clock = table(players=2, seed=3, bots={1: "easy"}, pace=0)
    planner = lf.bots.GreedyBot(seed=0)
    while t.game.to_move is not None:
        if t.game.to_move == 0:
            action = _thief(t.game, planner)
            t.play(action)
            clock.run_all()
            if action["type"] == "steal":
                assert (t.undo_refusal() or "").startswith("R12.1")
                return
        clock.run_all()
    pytest.fail("seat 0 never stole")


def test_r12_2_at_a_shared_screen_each_seat_undoes_only_its_own_moves() -> None:
    t, _ = table(bots={}, pace=0)  # three humans at one screen
    t.play(MUSEUM)
    t.reveal({"seat": 1})
    t.play({"type": "place", "place": "city"})
    reason = t.undo_refusal()  # seat 1 has decided since seat 0: seat 0's move is not theirs
    assert reason is None  # seat 1 (the shown seat) may take back its own move
    t.reveal({"seat": 2})
    reason = t.undo_refusal()
    assert reason is not None and reason.startswith("R12.2")  # seat 2 has no move to take back
    t.set_seat(0)
    reason = t.undo_refusal()
    assert reason is not None and reason.startswith("R12.2") and "seat 1" in reason
    t.set_seat(1)
    t.undo()
    assert t.game.deciders == [0] and t.game.to_move == 1


def test_r12_3_the_open_board_and_puzzles_undo_without_limit() -> None:
    t, _ = table(bots={}, seat=None, pace=0)
    for _ in range(12):
        legal = t.game.legal_actions()
        t.play(next((a for a in legal if a["type"] in ("exchange", "steal")), legal[0]))
    while t.game.history:
        assert t.undo_refusal() is None
        t.undo()
    puzzle = lf.puzzles.PUZZLES[0]
    session = puzzle.session()
    pt = Table(session.game, seat=puzzle.seat, bots={}, scheduler=ManualScheduler())
    pt.puzzle = session
    pt.play(puzzle.solution[0])
    assert pt.undo_refusal() is None


def _ruin_with_a_bot(seat: int | None) -> Table:
    """Seat 0 (a person) and a bot at seat 1 on the Ruin's first two squares, seat 0 at the
    Harbor afterwards: seat 0 passes, then the bot exchanges, drawing from the tool pile."""
    game = (lf.builder.Position(["hans", "yoshiko"], seed=4).hand(0, map=1).hand(1, hammer=2)
            .tokens("ruin", 0, 1).tokens("harbor", 0).phase("act").build())
    t = Table(game, seat=seat, bots={1: "random"}, autoplay=False, scheduler=ManualScheduler())
    t.play({"type": "pass"})
    t.play({"type": "exchange", "rate": "1>1", "give": ["hammer"]})  # the bot's move
    assert t.game.to_move == 0
    return t


def test_r12_4_the_open_board_with_a_bot_never_unsees_the_bots_draw() -> None:
    # The open board shows the bot's hand: the tool it drew at the Ruin came off the hidden
    # pile before everyone at the screen, so seat 0's pass before it stands.
    t = _ruin_with_a_bot(seat=None)
    reason = t.undo_refusal()
    assert reason is not None and reason.startswith("R12.4"), reason
    with pytest.raises(lf.IllegalAction, match=r"R12\.4"):
        t.undo()
    assert t.game.move_number == 2
    # Seat 0's own board never showed the bot's hand: there the pass may be taken back.
    own = _ruin_with_a_bot(seat=0)
    assert own.undo_refusal() is None


def test_r12_4_a_board_that_showed_every_seat_keeps_what_it_showed() -> None:
    t = _ruin_with_a_bot(seat=None)
    t.set_seat(0)  # seat 0's own board now, but the screen has shown the bot's draw
    reason = t.undo_refusal()
    assert reason is not None and reason.startswith("R12.4"), reason
    seed = next(s for s in range(100) if lf.rules.draw_start_player(s, 2) == 0)
    t.new_game({"seed": seed})  # a fresh game on seat 0's board: nothing shown to all yet
    t.play(MUSEUM)
    assert t.undo_refusal() is None


# --- the real event loop, and no threads at all --------------------------------------------------


def _play_with_loop(players: int, hint: bool = False) -> tuple[Table, list[dict[str, Any]]]:
    sent: list[dict[str, Any]] = []

    async def main() -> Table:
        t = Table(lf.Game.new(players=players, seed=3, start_player=0), seat=0, pace=0.01,
                  bots={s: "hard" for s in range(1, players)}, seed=2, on_message=sent.append)
        assert isinstance(t.scheduler, scheduler_module.LoopScheduler)
        for _ in range(3):
            t.play(t.game.legal_actions()[0])
            while t.game.to_move not in (0, None):
                await asyncio.sleep(0.01)
        if hint and t.game.to_move == 0:
            assert t.hint_intent()["pending"]
            while not sent:
                await asyncio.sleep(0.01)
        return t

    return run_alone(main()), sent


def test_on_a_running_event_loop_the_bots_answer_by_themselves() -> None:
    t, _ = _play_with_loop(3)
    assert t.game.deciders[:3] == [0, 1, 2] and t.error == ""


def test_without_threads_as_in_pyodide_everything_still_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_threads(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", no_threads)
    monkeypatch.setattr(_thread, "start_new_thread", no_threads)
    monkeypatch.setattr(table_module, "HINT_ITERATIONS", 40)
    t, sent = _play_with_loop(4, hint=True)
    assert t.game.deciders[:4] == [0, 1, 2, 3] and t.error == ""
    assert t.game.to_move == 0 and sent[0]["action"] in t.game.legal_actions()
