"""Test helpers for the game server: a server in a thread or a process, and a raw client.

The client is deliberately low-level (it can send anything, malformed or
forged) and synchronous, so that each test reads as the conversation it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import httpx
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from langfinger_widget import games
from langfinger_widget.server import lobby
from langfinger_widget.server.app import create_app
from langfinger_widget.server.config import Settings
from langfinger_widget.server.connections import uvicorn_config

ROOT = Path(__file__).resolve().parents[2]
WAIT = 10.0  # seconds any one expected message may take


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerThread:
    """The app on uvicorn in a thread of this process, on a free loopback port."""

    def __init__(self, settings: Settings) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self.sock.bind(("127.0.0.1", 0))
        settings.port = self.sock.getsockname()[1]
        self.settings = settings
        self.app = create_app(settings)
        config = uvicorn_config(self.app, settings)  # as `langfinger serve` runs it
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.sock]}, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.settings.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.settings.port}/ws"

    def start(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()

    @property
    def hub(self) -> Any:
        return self.app.state.hub


class ServerProcess:
    """``python -m langfinger_widget.server`` as a real process (kill -9, two processes)."""

    def __init__(self, *args: str, port: int | None = None) -> None:
        self.port = port or free_port()
        self.args = ["--port", str(self.port), "--allow-private-webhooks", *args]
        self.proc: subprocess.Popen[str] | None = None
        self.output: list[str] = []

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> ServerProcess:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "langfinger_widget.server", *self.args], env=env,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert self.proc.stdout is not None
        self.output = []
        threading.Thread(target=self._drain, args=(self.proc.stdout,), daemon=True).start()
        try:
            self.wait_output("Langfinger server:", 30)
        except TimeoutError:
            self.kill()
            raise RuntimeError("the server process did not start:\n"
                               + "".join(self.output)) from None
        return self

    def _drain(self, stream: Any) -> None:
        for line in stream:
            self.output.append(line)

    def wait_output(self, text: str, timeout: float = WAIT) -> str:
        """Everything printed so far, once ``text`` is among it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            printed = "".join(self.output)
            if text in printed:
                return printed
            if self.proc is not None and self.proc.poll() is not None:
                break
            time.sleep(0.02)
        raise TimeoutError(f"the server did not print {text!r}")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=20)

    def stop(self) -> None:
        self.kill(signal.SIGTERM)


def create(base: str, **body: Any) -> dict[str, Any]:
    """A table through the lobby; ``body`` as docs/server.md (players, seats, join...)."""
    response = httpx.post(f"{base}/api/tables", json=body, timeout=WAIT)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def join(base: str, table: str, invite: str) -> dict[str, Any]:
    response = httpx.post(f"{base}/api/tables/{table}/join", json={"invite": invite},
                          timeout=WAIT)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def seated_table(base: str, players: int = 2, **body: Any) -> tuple[dict[str, Any], list[str]]:
    """A table whose person seats are all taken: (the create reply, each seat's token or '')."""
    body.setdefault("pace", 0)
    made = create(base, players=players, **body)
    seat_tokens = [""] * players
    for seat, invite in made["invite_keys"].items():
        seat_tokens[int(seat)] = join(base, made["table"], invite)["token"]
    return made, seat_tokens


class Wire:
    """One raw WebSocket client. ``latest`` is the last state with updates applied."""

    def __init__(self, url: str, origin: str | None = None) -> None:
        headers = {"Origin": origin} if origin else None
        self._stack = contextlib.ExitStack()
        self.ws: ClientConnection = self._stack.enter_context(
            connect(url, additional_headers=headers, open_timeout=WAIT, max_size=None,
                    close_timeout=2))
        self.next_id = 0
        self.latest: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []
        self.frames: list[str] = []  # every text frame received, as received

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._stack.close()

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        frame = self.ws.recv(timeout=timeout)
        assert isinstance(frame, str)
        self.frames.append(frame)
        message: dict[str, Any] = json.loads(frame)
        self._follow(message)
        return message

    def _follow(self, message: dict[str, Any]) -> None:
        if message["kind"] == "state":
            self.latest = message
            self.events = list(message["events"])
        elif message["kind"] == "update":
            assert message["since"] == self.latest.get("seq"), "an update skipped a sequence"
            self.latest = {**message, "events": []}
            self.events.extend(message["events"])

    def until(self, kinds: str | tuple[str, ...], timeout: float = WAIT,
              **match: Any) -> dict[str, Any]:
        """Read until a message of one of ``kinds`` (with these fields) arrives."""
        kinds = (kinds,) if isinstance(kinds, str) else kinds
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {kinds} {match} within {timeout} s")
            message = self.recv(left)
            if message["kind"] in kinds and all(message.get(k) == v for k, v in match.items()):
                return message

    def hello(self, token: str | None = None, **fields: Any) -> dict[str, Any]:
        self.send({"kind": "hello", **({"token": token} if token else {}), **fields})
        return self.until(("state", "error"))

    def intent(self, kind: str, timeout: float = WAIT, **fields: Any) -> dict[str, Any]:
        """Send an intent with the next id and return the answer to it (keeping to the
        server's rate: an intent dropped as over the limit is sent again a moment later)."""
        while True:
            self.next_id += 1
            self.send({"kind": kind, "id": self.next_id, **fields})
            answer = self.until(("result", "why", "hint", "pong", "error"), timeout)
            while answer.get("id") != self.next_id and answer.get("code") != "rate_limited":
                answer = self.until(("result", "why", "hint", "pong", "error"), timeout)
            if answer.get("code") != "rate_limited":
                return answer
            time.sleep(0.2)

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        return self.intent("act", action=action, move=self.latest.get("move_number"),
                           version=self.latest.get("version"))

    def wait_for(self, test: Any, timeout: float = WAIT) -> dict[str, Any]:
        """Read until ``test(latest)`` holds (the table reached a position)."""
        deadline = time.monotonic() + timeout
        while not (self.latest and test(self.latest)):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the table did not get there in time")
            self.recv(left)
        return self.latest

    def closed_with(self, timeout: float = WAIT) -> int | None:
        """Read until the server closes the socket; its close code."""
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                self.recv(deadline - time.monotonic())
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None
        raise TimeoutError("the server kept the socket open")


@contextlib.contextmanager
def wires(url: str, tokens: list[str]) -> Iterator[list[Wire]]:
    """A hello'd client for each seat token ('' skipped: a bot's seat)."""
    opened: list[Wire] = []
    try:
        for token in tokens:
            w = Wire(url)
            opened.append(w)
            if token:
                assert w.hello(token)["kind"] == "state"
        yield opened
    finally:
        for w in opened:
            w.close()


def caught_up(clients: list[Wire], seq: int) -> None:
    """Read until every client (that said hello) has seen the table at ``seq`` or later."""
    for w in clients:
        if w.latest:
            w.wait_for(lambda s: s["seq"] >= seq)


def play_random(clients: list[Wire], moves: int, rng: Any) -> list[dict[str, Any]]:
    """People (one client a seat) play ``moves`` random legal moves; the actions played."""
    played = []
    for _ in range(moves):
        to_move = next(w for w in clients if w.latest).latest["view"]["to_move"]
        if to_move is None:
            break
        w = clients[to_move]
        action = rng.choice(w.latest["legal"])
        reply = w.act(action)
        assert reply["ok"], reply
        played.append(action)
        caught_up(clients, reply["seq"])
    return played


def same_for(k: int, a: Any, b: Any) -> bool:
    return bool(a.view(k) == b.view(k) and a.log(k) == b.log(k)
                and a.public_view() == b.public_view() and a.public_log() == b.public_log()
                and a.legal_actions(k) == b.legal_actions(k))


Step = tuple[int, dict[str, Any]]  # a seat and its action


def twin_script(game: Any, twin: Any, k: int, moves: int, rng: random.Random) -> list[Step]:
    """Moves both twins (a game and its resample for seat k) allow, each by a seat deciding
    in both, while seat k sees no difference (in a sealed step any of its deciders, in the
    order ``rng`` picks)."""
    a, b = game.copy(), twin.copy()
    script: list[Step] = []
    while len(script) < moves and not a.is_over and a.to_decide == b.to_decide:
        seat = a.to_decide[0] if len(a.to_decide) == 1 else rng.choice(a.to_decide)
        both = [x for x in a.legal_actions(seat) if b.why_illegal(x, seat) is None]
        if not both:
            break
        action = rng.choice(both)
        a.play(action, seat)
        b.play(action, seat)
        if not same_for(k, a, b):
            break
        script.append((seat, action))
    return script


def frames_of_seat(tmp: Path, game: Any, k: int, script: list[Step]
                   ) -> tuple[list[str], list[str]]:
    """Seat k's frames and a spectator's, on a fresh server whose table starts at ``game``
    (any registered game) and plays ``script`` (seat, action) from the seats' own sockets.

    The table id is fixed, so that two runs from twin positions can be compared byte for
    byte (the resampling no-leak checks).
    """
    server = ServerThread(Settings(data=tmp)).start()
    clients: list[Wire] = []
    try:
        body = {"game": games.spec_of(game).name, "players": game.num_players, "pace": 0}
        coro = lobby.create(server.hub, body, server.base, position=game.to_dict())
        with mock.patch("langfinger_widget.server.tokens.new_table_id", return_value="twin"):
            made = asyncio.run_coroutine_threadsafe(coro, server.hub.scheduler.loop).result(30)
        tokens = {int(s): join(server.base, "twin", i)["token"]
                  for s, i in made["invite_keys"].items()}
        spectator = Wire(server.ws_url)
        clients.append(spectator)
        spectator.hello(table="twin", spectate=made["spectator_key"])
        seat_clients: dict[int, Wire] = {}
        for seat in [k, *[s for s in range(game.num_players) if s != k]]:
            w = Wire(server.ws_url)
            clients.append(w)
            w.hello(tokens[seat])
            seat_clients[seat] = w
            seat_clients[k].until("presence", online=sorted(seat_clients))
            spectator.until("presence", online=sorted(seat_clients))
        watcher = seat_clients[k]
        for seat, action in script:
            w = seat_clients[seat]
            w.wait_for(lambda s, m=watcher.latest["move_number"]: s["move_number"] == m)
            reply = w.act(action)
            assert reply["ok"], reply
            watcher.wait_for(lambda s, seq=reply["seq"]: s["seq"] >= seq)
            spectator.wait_for(lambda s, seq=reply["seq"]: s["seq"] >= seq)
        return list(watcher.frames), list(spectator.frames)
    finally:
        for w in clients:
            w.close()
        server.stop()


def first_difference(ours: list[str], theirs: list[str]) -> str:
    """Where two frame lists first differ, as JSON paths (for a readable failure)."""
    found: list[str] = []

    def walk(path: str, a: Any, b: Any) -> None:
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b)):
                walk(f"{path}.{key}", a.get(key), b.get(key))
        elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                walk(f"{path}[{i}]", x, y)
        elif a != b:
            found.append(f"{path}: {a!r} != {b!r}")

    for i, (a, b) in enumerate(zip(ours, theirs, strict=False)):
        if a != b:
            walk(f"frame {i}", json.loads(a), json.loads(b))
            return "; ".join(found[:5]) or f"frame {i}: the same content in other bytes"
    return f"{len(ours)} frames against {len(theirs)}"
