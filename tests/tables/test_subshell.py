"""The board in a real kernel whose comm messages arrive on a subshell thread (issue 28.1).

JupyterLab 4.6 and Notebook 7.6 send widget messages over kernel subshells by
default (``commsOverSubshells: perCommTarget``); ipykernel 7 then runs the
widget's handler on the subshell's own thread. Before the fix a bot scheduled
from there sat on the main loop until some other message woke it, and the game
was changed from two threads. These tests talk to a real ipykernel over ZMQ the
way the page does, and never execute a cell between a click and the answer
they wait for: an ``execute_request`` would wake the main loop and hide the
freeze.

ipykernel 7.4 routes a comm's messages back to the shell that last published on
it (the main shell, for a board made in a cell), which hides the freeze again;
7.0 to 7.3 route by the front end's ``subshell_id`` alone. ``routing="front end"``
restores that behaviour on the comm, so the test holds on every ipykernel 7.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

jupyter_client = pytest.importorskip("jupyter_client")

REPO = Path(__file__).resolve().parents[2]

SETUP = """
try:
    w.close()  # the previous test's board
except NameError:
    pass
import threading, langfinger_widget as lf
from langfinger_widget.tables.table import Table
w = lf.LangfingerWidget(game=lf.Game.new(3, seed=5, start_player=0), seat=0,
                        bots={1: 'greedy', 2: 'greedy'}, pace=0.05)
changed_on = set()
if not hasattr(Table, "_unspied_play"):  # once per kernel: the spy notes every thread
    Table._unspied_play = Table.play
    def _spy(self, *args, **kwargs):
        changed_on.add(threading.current_thread().name)
        return Table._unspied_play(self, *args, **kwargs)
    Table.play = _spy
"""
FRONT_END_ROUTING = "w.comm._reply_subshell_for = lambda data, default: default\n"


class Kernel:
    """A real ipykernel, spoken to as a front end speaks to it."""

    def __init__(self) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
        self.manager = jupyter_client.KernelManager(kernel_name="python3")
        self.manager.start_kernel(env=env)
        self.client = self.manager.client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=60)
        self.comm_id = ""

    def features(self) -> list[str]:
        reply = self.client.kernel_info(reply=True, timeout=30)
        return list(reply["content"].get("supported_features", []))

    def execute(self, code: str) -> str:
        """Run a cell on the main shell; its printed output (raises on an error)."""
        msg_id = self.client.execute(code)
        out: list[str] = []
        while True:
            msg = self.client.get_iopub_msg(timeout=60)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                out.append(content["text"])
            elif kind == "error":
                raise AssertionError("\n".join(content["traceback"]))
            elif kind == "comm_open" and content["data"]["state"].get("_model_name") == "AnyModel":
                self.comm_id = content["comm_id"]
            elif kind == "status" and content["execution_state"] == "idle":
                return "".join(out)

    def value(self, expression: str) -> Any:
        return json.loads(self.execute(f"import json; print(json.dumps({expression}))"))

    def create_subshell(self) -> str:
        self.client.control_channel.send(self.client.session.msg("create_subshell_request", {}))
        reply = self.client.control_channel.get_msg(timeout=30)
        return str(reply["content"]["subshell_id"])

    def drain(self) -> None:
        while True:
            try:
                self.client.get_iopub_msg(timeout=0.2)
            except Exception:  # queue.Empty: nothing more is waiting
                return

    def send(self, data: dict[str, Any], subshell: str) -> None:
        """A comm message from the page, sent on ``subshell`` as JupyterLab 4.6 does."""
        msg = self.client.session.msg("comm_msg", {"comm_id": self.comm_id, "data": data})
        msg["header"]["subshell_id"] = subshell
        self.client.shell_channel.send(msg)

    def updates(self, until: Any, timeout: float) -> tuple[dict[str, Any], list[Any], float]:
        """Listen (executing nothing) until ``until(state, customs)``; the board's traits as the
        page would hold them, the custom messages, and the seconds it took."""
        state: dict[str, Any] = {}
        customs: list[Any] = []
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            try:
                msg = self.client.get_iopub_msg(timeout=0.2)
            except Exception:
                continue
            if msg["msg_type"] != "comm_msg" or msg["content"]["comm_id"] != self.comm_id:
                continue
            data = msg["content"]["data"]
            if data.get("method") == "update":
                state.update(data["state"])
            elif data.get("method") == "custom":
                customs.append(data["content"])
            if until(state, customs):
                return state, customs, time.monotonic() - start
        raise AssertionError(f"no answer within {timeout}s: traits {sorted(state)}, "
                             f"messages {customs}")

    def close(self) -> None:
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)


@pytest.fixture(scope="module")
def kernel() -> Iterator[Kernel]:
    k = Kernel()
    try:
        if "kernel subshells" not in k.features():
            pytest.skip("this ipykernel has no subshells (ipykernel < 7)")
        yield k
    finally:
        k.close()


def _board(kernel: Kernel, routing: str) -> tuple[str, dict[str, Any]]:
    kernel.execute(SETUP + (FRONT_END_ROUTING if routing == "front end" else ""))
    start = kernel.value("{'move': w.move_number, 'version': w.version, 'to_move': w.game.to_move}")
    kernel.drain()
    return kernel.create_subshell(), start


@pytest.mark.parametrize("routing", ["front end", "installed ipykernel"])
def test_bots_answer_a_click_sent_on_a_subshell(kernel: Kernel, routing: str) -> None:
    subshell, start = _board(kernel, routing)
    assert start["to_move"] == 0
    kernel.send({"method": "custom", "content": {
        "kind": "act", "action": {"type": "place", "place": "museum"},
        "move": start["move"], "version": start["version"]}}, subshell)
    # Both bots place (R2.1) and it is seat 0's turn again, with nothing executed meanwhile.
    state, customs, took = kernel.updates(
        lambda s, c: s.get("move_number", 0) >= start["move"] + 3 and bool(s.get("legal")),
        timeout=20)
    assert customs[0] == {"kind": "result", "ok": True, "error": ""}
    assert state["view"]["to_move"] == 0
    print(f"\n[subshell/{routing}] click to the bots' answer: {took:.2f}s")
    # Every change to the game happened on the thread that owns the loop.
    assert kernel.value("sorted(changed_on)") == ["MainThread"]


def test_hint_and_pace_sent_on_a_subshell(kernel: Kernel) -> None:
    subshell, _ = _board(kernel, "front end")
    kernel.send({"method": "custom", "content": {"kind": "hint"}}, subshell)
    _, customs, _ = kernel.updates(
        lambda s, c: any(m.get("kind") == "hint" and m.get("action") for m in c), timeout=60)
    hint = next(m for m in customs if m.get("kind") == "hint" and m.get("action"))
    assert hint["error"] == "" and hint["action"] in kernel.value("w.legal")
    # A trait write from the page (the only one allowed: pace) reaches the table too.
    kernel.send({"method": "update", "state": {"pace": 0.3}, "buffer_paths": []}, subshell)
    deadline = time.monotonic() + 10
    while kernel.value("w.table.pace") != 0.3 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert kernel.value("[w.table.pace, w.pace]") == [0.3, 0.3]
