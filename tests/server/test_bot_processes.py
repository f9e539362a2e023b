"""Bots and hints thinking in worker processes (``Settings.bot_processes``,
server/thinkers.py)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import json
import logging
import math
import os
import random
import signal
import time
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import httpx
import pytest
from wire import WAIT, ServerProcess, ServerThread, Wire, create, same_for, seated_table, wires

import langfinger_widget as lf
from langfinger_widget import games
from langfinger_widget.server import hub as hub_module
from langfinger_widget.server import thinkers
from langfinger_widget.server.cli import parser, settings_of
from langfinger_widget.server.config import Settings
from langfinger_widget.server.thinkers import Question, Thinkers, answer, check_processes
from langfinger_widget.tables import table as table_module


def _server(tmp_path: Any, processes: int) -> Iterator[ServerThread]:
    running = ServerThread(Settings(data=tmp_path, bot_processes=processes)).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def pooled(tmp_path: Any) -> Iterator[ServerThread]:
    yield from _server(tmp_path, 1)


def _on_loop(server: ServerThread, call: Any) -> Any:
    async def run() -> Any:
        return call()

    return asyncio.run_coroutine_threadsafe(run(), server.hub.scheduler.loop).result(WAIT)


def _bot_table(server: ServerThread, level: str, game: str = "langfinger"
               ) -> tuple[dict[str, Any], Wire]:
    """A person at seat 0 and a bot at seat 1; the person's socket, said hello."""
    made = create(server.base, game=game, players=2, pace=0, join=0, stand_in=level,
                  seats=[{"kind": "person"}, {"kind": "bot", "level": level}])
    me = Wire(server.ws_url)
    assert me.hello(made["token"])["kind"] == "state"
    return made, me


def _my_move(me: Wire, rng: random.Random) -> None:
    """Seat 0 plays a random legal move once it is its turn."""
    me.wait_for(lambda s: s["legal"] or s["table"]["status"] == "over", timeout=60)
    reply = me.act(rng.choice(me.latest["legal"]))
    assert reply["ok"], reply


def _bots_to_the_end(server: ServerThread, made: dict[str, Any], me: Wire) -> None:
    """Seat 0 resigns (its stand-in plays on: bots alone) and a spectator waits for the end."""
    try:
        assert me.intent("resign")["ok"]
    finally:
        me.close()
    watch = Wire(server.ws_url)
    try:
        assert watch.hello(table=made["table"], spectate=made["spectator_key"])["kind"] == "state"
        watch.wait_for(lambda s: s["table"]["status"] == "over", timeout=90)
    finally:
        watch.close()


def _record(server: ServerThread, made: dict[str, Any]) -> Any:
    text = httpx.get(f"{server.base}/api/tables/{made['table']}/record", timeout=WAIT,
                     headers={"Authorization": f"Bearer {made['spectator_key']}"}).text
    return lf.records.read(text)


def test_a_bot_table_plays_to_the_end_with_its_bots_in_a_worker(pooled: ServerThread) -> None:
    made, me = _bot_table(pooled, "easy")
    _bots_to_the_end(pooled, made, me)
    record = _record(pooled, made)
    assert record.game().is_over and len(record.actions) > 10
    hub = pooled.hub
    assert hub.thinkers.pools == 1 and hub.thinkers.pids()
    # Every bot move came from the worker: no bot was built on the loop.
    assert not hub.rooms[made["table"]].bots


@pytest.mark.parametrize("game", ["langfinger", "crooks"])
def test_a_worker_is_sent_only_what_the_seat_may_see(pooled: ServerThread, monkeypatch,
                                                     game: str) -> None:
    """The question is the seat's view and legal actions, and for a game other than
    Langfinger a resampled twin that shows the seat the same as the game and is another
    deal; no field beyond those."""
    sent: list[tuple[Question, Any]] = []
    submit = Thinkers._submit

    def spy(self: Thinkers, asked: Question) -> Any:
        live = next(iter(pooled.hub.rooms.values()))
        sent.append((asked, live.room.game.copy()))
        return submit(self, asked)

    monkeypatch.setattr(Thinkers, "_submit", spy)
    _, me = _bot_table(pooled, "hard", game)
    rng = random.Random(7)
    try:
        while len(sent) < 3:
            _my_move(me, rng)
    finally:
        me.close()
    assert [f.name for f in dataclasses.fields(Question)] == \
        ["game", "level", "seed", "view", "legal", "twin", "hint"]
    for asked, real in sent:
        seat = asked.view["seat"]
        assert seat == 1 and asked.game == game and asked.level == "hard" and not asked.hint
        assert asked.view == real.view(seat) and asked.legal == real.legal_actions(seat)
        if game == "langfinger":
            assert asked.twin is None  # its bots sample from the view themselves
        else:
            assert asked.twin is not None and same_for(seat, real, asked.twin)
    if game != "langfinger":  # resampled: the hidden part is guessed, not copied
        assert any(a.twin.to_dict() != real.to_dict() for a, real in sent)


def test_an_answer_asked_for_an_old_position_is_dropped(pooled: ServerThread,
                                                        monkeypatch) -> None:
    """The bot's question is asked again (the position moved on, or the bot was called off)
    while a worker already runs the first: its late answer plays nothing, the new one
    plays once."""
    futures: list[concurrent.futures.Future[Any]] = []

    def held(self: Thinkers, asked: Question) -> Any:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        future.set_running_or_notify_cancel()  # a worker has it: too late to call off
        futures.append(future)
        return None, future

    monkeypatch.setattr(Thinkers, "_submit", held)
    made, me = _bot_table(pooled, "easy")
    rng = random.Random(3)
    try:
        while not futures:
            _my_move(me, rng)
        seq = me.latest["seq"]
        live = pooled.hub.rooms[made["table"]]
        game = live.room.game.copy()
        _on_loop(pooled, lambda: (pooled.hub._cancel_bot(live), pooled.hub._schedule(live)))
        assert len(futures) == 2
        legal = game.legal_actions(1)
        # Answered in this order, each is handed to the loop in this order: were the old
        # one played, it would be before the new one, which is waited for here.
        futures[0].set_result(legal[0])
        futures[1].set_result(legal[-1])
        me.wait_for(lambda s: s["seq"] > seq)
    finally:
        me.close()
    played = game.copy()
    played.play(legal[-1], 1)
    assert live.room.game.history == played.history  # the new answer once, not the old


def test_a_killed_workers_bot_question_is_asked_again_and_the_game_goes_on(
        pooled: ServerThread, caplog) -> None:
    """The question the dead worker held is asked again in a new pool: the bot plays its
    search's move, not the random one that stands in for a failed bot."""
    made, me = _bot_table(pooled, "easy")
    thinkers = pooled.hub.thinkers
    rng = random.Random(5)
    caplog.set_level(logging.WARNING, logger="langfinger.server")
    try:
        live = pooled.hub.rooms[made["table"]]
        # The worker is kept busy, so the bot's question is still waiting when it dies.
        pool = thinkers.pool()
        busy = pool.submit(time.sleep, 60)
        (pid,) = thinkers.pids() or _wait_for_pids(thinkers)
        while live.bot is None or live.bot.future is None:
            _my_move(me, rng)
        seq = me.latest["seq"]
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):
            busy.result(WAIT)
        me.wait_for(lambda s: s["seq"] > seq)  # the bot's move, from the new pool
        assert thinkers.pools == 2
        for _ in range(6):  # and the bot goes on thinking there
            if me.latest["table"]["status"] == "over":
                break
            _my_move(me, rng)
    finally:
        me.close()
    assert "a random legal move stands in" not in caplog.text
    assert "worker process died" in caplog.text
    assert thinkers.pools == 2 and pid not in thinkers.pids()


def _wait_for_pids(thinkers: Thinkers) -> list[int]:
    deadline = time.monotonic() + WAIT
    while not thinkers.pids():
        assert time.monotonic() < deadline, "the worker did not start"
        time.sleep(0.02)
    return thinkers.pids()


def test_with_no_worker_processes_the_bots_think_on_the_loop(tmp_path) -> None:
    for running in _server(tmp_path, 0):
        made, me = _bot_table(running, "easy")
        _bots_to_the_end(running, made, me)
        assert running.hub.thinkers is None
        assert running.hub.rooms[made["table"]].bots  # built on the loop, as before
        assert _record(running, made).game().is_over


def test_a_worker_answers_as_the_bot_on_the_loop_would() -> None:
    game = games.get("crooks").Game.new(2, seed=3)
    seat = game.to_decide[0]
    asked = hub_module.question(game, seat, "hard", 11, 12)
    bot = lf.bots.make("hard", seed=11, game="crooks")
    steps = hub_module.kernel.bot_steps(bot, game, seat, 12)
    assert answer(asked) == hub_module.kernel.at_once(steps)


@pytest.mark.parametrize("game", ["langfinger", "crooks"])
def test_a_worker_hints_as_the_hint_search_on_the_loop_would(monkeypatch, game: str) -> None:
    """The same seed and twin seed give the same action and value: the worker's hint is
    the loop's, built from the question alone."""
    monkeypatch.setattr(table_module, "HINT_ITERATIONS", 60)  # the same search, shorter
    state = games.get(game).Game.new(2, seed=3)
    seat = state.to_decide[0]
    asked = hub_module.question(state, seat, "", 5, 12, hint=True)
    kernel = hub_module.kernel
    steps = kernel.bot_steps(kernel.make_hint_bot(seed=5), state, seat, 12, hint=True)
    assert asked.hint and answer(asked) == kernel.at_once(steps)


def test_bot_processes_is_checked() -> None:
    assert check_processes(0) == 0 and check_processes(3) == 3
    for bad in (-1, 65, 1.5, True, "2"):
        with pytest.raises(lf.BadArgument, match="bot processes"):
            check_processes(bad)
    assert settings_of(parser().parse_args(["serve", "--bot-processes", "0"])).bot_processes \
        == 0
    assert settings_of(parser().parse_args(["serve"])).bot_processes == Settings().bot_processes
    with pytest.raises(SystemExit):
        parser().parse_args(["serve", "--bot-processes", "-1"])


@pytest.mark.parametrize(("cores", "workers"), [(1, 1), (2, 1), (3, 1), (4, 2), (16, 8),
                                                 (64, 8)])
def test_the_default_is_half_the_cores_the_server_may_use(monkeypatch, cores: int,
                                                          workers: int) -> None:
    """At least one (the loop's p99 with bots thinking), more on a bigger machine: a worker
    answers one question at a time."""
    monkeypatch.setattr(thinkers.os, "sched_getaffinity", lambda _pid: set(range(cores)),
                        raising=False)
    assert thinkers.default_processes() == workers
    assert Settings().bot_processes == workers


def _descendants(pid: int) -> set[int]:
    """The processes under ``pid`` (Linux's /proc)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            parents[int(stat.parent.name)] = int(fields[1])
    found, more = set(), {pid}
    while more:
        more = {child for child, parent in parents.items() if parent in more} - found
        found |= more
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads Linux's /proc")
def test_a_killed_server_leaves_no_worker_behind(tmp_path) -> None:
    """A pool's worker waits on a queue whose write end it holds itself: without its
    lifeline it outlived a server killed -9, and kept the forkserver alive with it."""
    running = ServerProcess("--data", str(tmp_path), "--bot-processes", "1").start()
    try:
        made = create(running.base, players=2, pace=0, join=0, stand_in="easy",
                      seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"}])
        me = Wire(running.ws_url)
        try:
            assert me.hello(made["token"])["kind"] == "state"
            _my_move(me, random.Random(1))
            me.wait_for(lambda s: s["legal"])  # the bot has moved: its worker runs
        finally:
            me.close()
        assert running.proc is not None
        under = _descendants(running.proc.pid)
        assert under  # the worker, the forkserver, the resource tracker
    finally:
        running.kill()
    deadline = time.monotonic() + WAIT
    while any(_running(pid) for pid in under):
        assert time.monotonic() < deadline, [p for p in under if _running(p)]
        time.sleep(0.05)


def test_a_game_registered_here_only_thinks_on_the_loop(pooled: ServerThread, caplog) -> None:
    """A worker process knows the package's own games only: the bot of a game registered
    in the server's process (lf.games.register) thinks on the loop, as without workers,
    instead of failing in the worker and playing random moves."""
    from sealed import SPEC as SEALED

    games.register(SEALED)
    assert not games.built_in(SEALED) and games.built_in(games.get("crooks"))
    caplog.set_level(logging.WARNING, logger="langfinger.server")
    made, me = _bot_table(pooled, "hard", "sealed")
    rng = random.Random(2)
    try:
        live = pooled.hub.rooms[made["table"]]
        while not live.bots:
            _my_move(me, rng)
    finally:
        me.close()
    assert "a random legal move stands in" not in caplog.text


# --- hints --------------------------------------------------------------------------------
def _hinted(w: Wire, timeout: float = 90) -> dict[str, Any]:
    """Ask for a hint; its answer (after the pending one)."""
    pending = w.intent("hint")
    assert pending.get("pending") is True, pending
    return w.until("hint", timeout=timeout, id=pending["id"], pending=None)


def _spy_on_questions(monkeypatch, server: ServerThread, hold: bool = False
                      ) -> list[tuple[Question, Any, concurrent.futures.Future[Any]]]:
    """Each question sent to the workers, with a copy of its table's game then and its
    future; ``hold``: no worker gets it, the test answers it (the future is not running
    yet, so a cancel stops it)."""
    sent: list[tuple[Question, Any, concurrent.futures.Future[Any]]] = []
    submit = Thinkers._submit

    def spy(self: Thinkers, asked: Question) -> Any:
        live = next(iter(server.hub.rooms.values()))
        pool, future = (None, concurrent.futures.Future()) if hold else submit(self, asked)
        sent.append((asked, live.room.game.copy(), future))
        return pool, future

    monkeypatch.setattr(Thinkers, "_submit", spy)
    return sent


def test_a_hint_is_searched_in_a_worker(pooled: ServerThread, monkeypatch) -> None:
    """A table of people only (no bot to start the pool): the hint alone starts it, and
    the worker's answer is the seat's, legal and rated, as on the loop."""
    sent = _spy_on_questions(monkeypatch, pooled)
    _, seat_tokens = seated_table(pooled.base, players=2, hints=True)
    with wires(pooled.ws_url, seat_tokens) as clients:
        me = clients[clients[0].latest["view"]["to_move"]]
        move_number = me.latest["move_number"]
        hint = _hinted(me)
        assert hint["error"] == "" and hint["action"] in me.latest["legal"], hint
        assert math.isfinite(hint["value"]) and 0 <= hint["value"] <= 1
        assert hint["move"] == move_number and hint["version"] == me.latest["version"]
    thinkers = pooled.hub.thinkers
    assert thinkers.pools == 1 and thinkers.pids()
    ((asked, real, _),) = sent
    seat = asked.view["seat"]
    assert asked.hint and asked.game == "langfinger" and asked.twin is None
    assert asked.seed == move_number  # the seed the hint's bot gets on the loop
    assert asked.view == real.view(seat) and asked.legal == real.legal_actions(seat)
    assert _on_loop(pooled, pooled.hub.hints_running) == 0


def test_a_hint_worker_is_sent_only_what_the_seat_may_see(pooled: ServerThread,
                                                          monkeypatch) -> None:
    """Crooks: the view, the legal actions and a twin that shows the seat the same as the
    game and is another deal. Asked again, a hint's last question is called off (its
    future cancelled) and only the newest is answered."""
    sent = _spy_on_questions(monkeypatch, pooled, hold=True)
    _, seat_tokens = seated_table(pooled.base, players=2, game="crooks", hints=True)
    with wires(pooled.ws_url, seat_tokens) as clients:
        me = clients[clients[0].latest["view"]["to_move"]]
        ids = [me.intent("hint")["id"] for _ in range(4)]
        assert len(sent) == 4
        assert [f.cancelled() for _, _, f in sent] == [True, True, True, False]
        assert _on_loop(pooled, pooled.hub.hints_running) == 1  # the one under way counts
        asked, _, future = sent[-1]
        future.set_result((asked.legal[0], 0.25))
        hint = me.until("hint", id=ids[-1], pending=None)
        assert hint["action"] == asked.legal[0] and hint["value"] == 0.25
    for asked, real, _ in sent:
        seat = asked.view["seat"]
        assert asked.hint and asked.game == "crooks"
        assert asked.view == real.view(seat) and asked.legal == real.legal_actions(seat)
        assert asked.twin is not None and same_for(seat, real, asked.twin)
    assert any(a.twin.to_dict() != real.to_dict() for a, real, _ in sent)  # resampled


def test_a_hint_asked_again_drops_the_first_even_once_a_worker_runs_it(
        pooled: ServerThread, monkeypatch) -> None:
    """The first question is already running (too late to call off): its late answer is
    dropped, not sent to the client as the answer to the second."""
    sent = _spy_on_questions(monkeypatch, pooled, hold=True)
    _, seat_tokens = seated_table(pooled.base, players=2, hints=True)
    with wires(pooled.ws_url, seat_tokens) as clients:
        me = clients[clients[0].latest["view"]["to_move"]]
        first = me.intent("hint")["id"]
        sent[0][2].set_running_or_notify_cancel()
        second = me.intent("hint")["id"]
        (old, _, old_future), (new, _, new_future) = sent
        # Answered in this order, each is handed to the loop in this order: were the old
        # one sent on, it would come before the new one, which is waited for here.
        old_future.set_result((old.legal[0], 0.125))
        new_future.set_result((new.legal[-1], 0.75))
        hint = me.until("hint", id=second, pending=None)
    assert hint["action"] == new.legal[-1] and hint["value"] == 0.75
    hints = [m for m in map(json.loads, me.frames) if m["kind"] == "hint"]
    assert [m.get("pending") for m in hints if m["id"] == first] == [True]


def test_with_no_worker_processes_hints_think_on_the_loop(tmp_path, monkeypatch) -> None:
    """Without workers (and, with them, for a game registered at run time, which a worker
    does not know) a hint is searched in slices on the loop, as before."""
    from sealed import SPEC as SEALED

    sliced: list[Any] = []
    thinking = hub_module.Thinking

    def spy(scheduler: Any, steps: Any, done: Any, failed: Any) -> Any:
        sliced.append(steps)
        return thinking(scheduler, steps, done, failed)

    monkeypatch.setattr(hub_module, "Thinking", spy)
    games.register(SEALED)
    for processes, game in ((0, "langfinger"), (1, "sealed")):
        (tmp_path / game).mkdir()
        for running in _server(tmp_path / game, processes):
            _, seat_tokens = seated_table(running.base, players=2, game=game, hints=True)
            with wires(running.ws_url, seat_tokens) as clients:
                me = next(c for c in clients if c.latest["legal"])
                hint = _hinted(me)
                assert hint["error"] == "" and hint["action"] in me.latest["legal"], hint
            assert running.hub.thinkers is None or running.hub.thinkers.pools == 0
            assert len(sliced) == {"langfinger": 1, "sealed": 2}[game]  # the hint, in slices


def test_a_hint_no_worker_could_take_answers_no_hint_after_its_pending_answer(
        pooled: ServerThread, monkeypatch) -> None:
    """The failure comes at the loop's next turn, when the hub holds the question: were
    it handed on inside ask(), the client got "no hint" before "pending" and the seat's
    finished question stayed counted (busy for good)."""

    def broken(self: Thinkers, asked: Question) -> Any:
        raise BrokenProcessPool("the bots' worker processes could not be started")

    monkeypatch.setattr(Thinkers, "_submit", broken)
    _, seat_tokens = seated_table(pooled.base, players=2, hints=True)
    with wires(pooled.ws_url, seat_tokens) as clients:
        me = clients[clients[0].latest["view"]["to_move"]]
        for _ in range(2):  # the seat may ask again: nothing of the first stays counted
            hint = _hinted(me)
            assert hint["action"] is None and hint["error"].startswith(
                "no hint: BrokenProcessPool"), hint
            assert _on_loop(pooled, pooled.hub.hints_running) == 0


def test_a_killed_hint_worker_s_question_is_asked_again_in_a_new_pool(
        pooled: ServerThread) -> None:
    _, seat_tokens = seated_table(pooled.base, players=2, hints=True)
    thinkers = pooled.hub.thinkers
    with wires(pooled.ws_url, seat_tokens) as clients:
        me = clients[clients[0].latest["view"]["to_move"]]
        # The worker is kept busy, so the hint's question is still waiting when it dies.
        busy = thinkers.pool().submit(time.sleep, 60)
        (pid,) = thinkers.pids() or _wait_for_pids(thinkers)
        pending = me.intent("hint")
        assert pending.get("pending") is True
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):
            busy.result(WAIT)
        hint = me.until("hint", id=pending["id"], pending=None, timeout=90)
        assert hint["error"] == "" and hint["action"] in me.latest["legal"], hint
        assert _on_loop(pooled, pooled.hub.hints_running) == 0
        again = _hinted(me)  # the server goes on
        assert again["error"] == "" and again["action"] in me.latest["legal"], again
    assert thinkers.pools == 2 and pid not in thinkers.pids()


# --- a dead worker's questions, asked again once (with futures the test settles) --------------
class _Asking:
    """Thinkers whose questions go to futures the test settles, not to workers."""

    def __init__(self, monkeypatch) -> None:
        self.futures: list[concurrent.futures.Future[Any]] = []
        self.done: list[Any] = []
        self.failed: list[Exception] = []

        def submit(thinkers: Thinkers, asked: Question) -> Any:
            self.futures.append(concurrent.futures.Future())
            self.futures[-1].set_running_or_notify_cancel()  # a worker runs it
            return object(), self.futures[-1]  # a pool that is not the Thinkers' own

        monkeypatch.setattr(Thinkers, "_submit", submit)
        self.thinkers = Thinkers(1)

    def ask(self) -> Any:
        asked = Question("langfinger", "easy", 1, {}, [], None)
        return self.thinkers.ask(asyncio.get_running_loop(), asked, self.done.append,
                                 self.failed.append)

    async def settle(self, index: int, result: Any = None,
                     failure: Exception | None = None) -> None:
        future = self.futures[index]
        if failure is None:
            future.set_result(result)
        else:
            future.set_exception(failure)
        for _ in range(3):  # handed to the loop by call_soon_threadsafe
            await asyncio.sleep(0)


def test_a_question_its_pool_broke_under_is_asked_again_once(monkeypatch) -> None:
    asking = _Asking(monkeypatch)

    async def scene() -> None:
        asking.ask()
        await asking.settle(0, failure=BrokenProcessPool("died"))
        assert len(asking.futures) == 2 and not asking.failed  # asked again
        await asking.settle(1, result="move")
        assert asking.done == ["move"] and not asking.failed
        # A question that breaks its pool twice (it may be what kills its worker) fails.
        asking.ask()
        await asking.settle(2, failure=BrokenProcessPool("died"))
        await asking.settle(3, failure=BrokenProcessPool("died again"))
        assert len(asking.futures) == 4
        assert [str(f) for f in asking.failed] == ["died again"]
        # Another failure is the question's own: not asked again.
        asking.ask()
        await asking.settle(4, failure=ValueError("bad"))
        assert len(asking.futures) == 5 and str(asking.failed[-1]) == "bad"

    asyncio.run(scene())


def test_a_question_called_off_or_closed_is_not_asked_again(monkeypatch) -> None:
    asking = _Asking(monkeypatch)

    async def scene() -> None:
        asking.ask().cancel()  # running already: the cancel cannot stop its future
        await asking.settle(0, failure=BrokenProcessPool("died"))
        assert len(asking.futures) == 1 and not asking.failed and not asking.done
        asking.ask()
        asking.thinkers.close()  # the server stops: its pool ends with it
        await asking.settle(1, failure=BrokenProcessPool("shut down"))
        assert len(asking.futures) == 2 and [str(f) for f in asking.failed] == ["shut down"]

    asyncio.run(scene())
