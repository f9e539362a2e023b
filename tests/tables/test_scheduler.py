"""The game's owner thread: work from any other thread is handed to its loop (issue 28.1).

A kernel's event loop sleeps in ``select`` until something wakes it. A
``call_later`` made on another thread (a subshell's, in ipykernel 7) neither
wakes it nor is thread-safe; these tests run a real loop on its own thread,
idle, and ask for work from the test's thread.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest

import langfinger_widget as lf
from langfinger_widget.tables.scheduler import LoopScheduler, ManualScheduler

WAIT = 5.0  # seconds: far beyond a woken loop's answer, far below "asleep for good"


@pytest.fixture
def owner() -> Iterator[LoopScheduler]:
    """A scheduler made on a thread whose loop runs, idle, until the test ends."""
    made = threading.Event()
    box: list[LoopScheduler] = []
    stops: list[asyncio.Event] = []

    async def main() -> None:
        box.append(LoopScheduler(asyncio.get_running_loop()))
        stops.append(asyncio.Event())
        made.set()
        await stops[0].wait()  # asleep in select, as an idle kernel is

    thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True, name="owner")
    thread.start()
    assert made.wait(WAIT)
    scheduler = box[0]
    yield scheduler
    scheduler.loop.call_soon_threadsafe(stops[0].set)
    thread.join(WAIT)


def test_call_later_from_another_thread_wakes_the_owner(owner: LoopScheduler) -> None:
    ran_on: list[str] = []
    done = threading.Event()
    owner.call_later(0.0, lambda: (ran_on.append(threading.current_thread().name), done.set()))
    assert done.wait(WAIT), "the owner's loop was never woken"
    assert ran_on == ["owner"]


def test_a_handed_over_call_later_can_be_cancelled_before_it_starts(
        owner: LoopScheduler) -> None:
    ran: list[int] = []
    gate = threading.Event()
    owner.run_on_owner(lambda: gate.wait(WAIT))  # keeps the loop busy while we cancel
    owner.call_later(0.0, lambda: ran.append(1)).cancel()
    gate.set()
    settled = threading.Event()
    owner.call_later(0.05, settled.set)
    assert settled.wait(WAIT) and ran == []


def test_run_on_owner_runs_at_once_on_the_owner_and_hands_over_elsewhere(
        owner: LoopScheduler) -> None:
    seen: list[tuple[str, str]] = []
    done = threading.Event()

    def on_owner() -> None:
        owner.run_on_owner(lambda: seen.append(("inline", threading.current_thread().name)))
        seen.append(("after", threading.current_thread().name))
        done.set()

    owner.run_on_owner(on_owner)
    assert done.wait(WAIT)
    assert seen == [("inline", "owner"), ("after", "owner")]  # inline: no round trip


def test_a_board_message_from_another_thread_is_played_by_the_owner(
        owner: LoopScheduler) -> None:
    """The widget's comm handler, called as a subshell thread calls it: the bots answer."""
    made = threading.Event()
    box: list[lf.LangfingerWidget] = []

    def build() -> None:
        box.append(lf.LangfingerWidget(game=lf.Game.new(3, seed=5, start_player=0), seat=0,
                                       bots={1: "greedy", 2: "greedy"}, pace=0.0,
                                       scheduler=owner))
        made.set()

    owner.run_on_owner(build)
    assert made.wait(WAIT)
    w = box[0]
    played_on: set[str] = set()
    w.table.on_change = lambda: played_on.add(threading.current_thread().name)
    answered = threading.Event()
    w.table.on_message = lambda reply: None
    msg = {"content": {"data": {"method": "custom", "content": {
        "kind": "act", "action": {"type": "place", "place": "museum"},
        "move": w.move_number, "version": w.version}}}, "buffers": []}
    w._handle_msg(msg)  # on the test's thread, as ipykernel 7 does on a subshell

    def check() -> None:
        if w.game.move_number >= 3:
            answered.set()
        else:
            owner.call_later(0.02, check)

    owner.call_later(0.0, check)
    assert answered.wait(WAIT), "the bots never answered"
    assert w.game.to_move == 0 and played_on == {"owner"}
    owner.run_on_owner(w.close)


def test_a_manual_clock_lets_one_thread_at_a_time_change_the_game() -> None:
    clock = ManualScheduler()
    inside = threading.Event()
    release = threading.Event()
    order: list[str] = []

    def slow() -> None:
        order.append("slow starts")
        inside.set()
        release.wait(WAIT)
        order.append("slow ends")

    worker = threading.Thread(target=clock.run_on_owner, args=(slow,))
    worker.start()
    assert inside.wait(WAIT)
    other = threading.Thread(target=clock.run_on_owner, args=(lambda: order.append("other"),))
    other.start()
    other.join(0.1)
    assert other.is_alive()  # waits its turn
    release.set()
    worker.join(WAIT)
    other.join(WAIT)
    assert order == ["slow starts", "slow ends", "other"]
