"""Issue 39's hardening: what one client may cost the server, and what it may make it do.

Each attack here succeeded on the server before its fix: an answer many times its
request, a body read whole past the cap, a foreign name trusted as the server's own, a
lost join that locked its seat, a slow client holding a connection for good, and so on.
A few tests more check that a fix refuses nothing it should allow (the server's own names,
loopback's lobby calls, a retried join).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import ipaddress
import json
import logging
import os
import re
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
import services
from starlette.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from wire import ROOT, WAIT, ServerProcess, ServerThread, Wire, create, seated_table, wires

from langfinger_widget.net import http
from langfinger_widget.net.seat import OnlineSeat
from langfinger_widget.server import protocol, webhooks
from langfinger_widget.server.app import STATUS, _write, create_app
from langfinger_widget.server.config import Settings
from langfinger_widget.server.hub import Client
from langfinger_widget.server.limits import Turns
from langfinger_widget.server.protocol import MAX_MESSAGE
from langfinger_widget.server.room import OPEN, PERSON, TAKEN
from langfinger_widget.server.store import SeatRow, Store, TableRow
from langfinger_widget.server.thinkers import Question, Thinkers
from langfinger_widget.tables import table as table_module
from langfinger_widget.tables.scheduler import SLICE_SECONDS, Slices


@pytest.fixture()
def table(server) -> Iterator[tuple[dict[str, Any], list[str], list[Wire]]]:
    made, seat_tokens = seated_table(server.base, players=2)
    with wires(server.ws_url, seat_tokens) as clients:
        yield made, seat_tokens, clients


# --- 8: sizes are bytes, and nothing is quoted back at length -------------------------------------
def test_the_message_limit_counts_bytes_not_characters(table) -> None:
    _, _, clients = table
    w = clients[0]
    frame = json.dumps({"kind": "ping", "id": 1, "pad": "€" * 16_000}, ensure_ascii=False)
    assert len(frame) <= MAX_MESSAGE < len(frame.encode())  # under in characters, over in bytes
    w.send(frame)
    refused = w.until(("error", "pong"))
    assert refused["kind"] == "error" and refused["code"] == "too_big"
    assert w.intent("ping")["kind"] == "pong"


def test_a_why_answer_does_not_quote_a_large_action_back(table) -> None:
    _, _, clients = table
    w = clients[0]
    action = {"type": "place", "place": "😀" * 4000}
    frame = json.dumps({"kind": "why", "id": 1, "action": action}, ensure_ascii=False)
    assert len(frame.encode()) <= MAX_MESSAGE
    w.send(frame)
    w.next_id = 1
    answer = w.until("why", id=1)
    assert isinstance(answer["reason"], str)
    assert len(w.frames[-1].encode()) < 2048  # the request was 16 KB
    small = {"type": "place", "place": "museum"}
    assert w.intent("why", action=small)["action"] == small  # a real action is quoted back


def test_a_lobby_refusal_does_not_quote_a_large_value_back(server) -> None:
    for body in ({"players": "😀" * 10_000}, {"players": 2, "variant": ["x" * 30_000]},
                 {"players": 2, "seats": [{"kind": "😀" * 10_000}, {"kind": "person"}]}):
        response = httpx.post(f"{server.base}/api/tables", json=body)
        assert response.status_code == 400 and response.json()["code"] == "bad_request"
        assert len(response.content) < 1024


# --- 10: lobby bodies that were a 500 -------------------------------------------------------------
@pytest.mark.parametrize("body", [
    "[" * 30_000 + "]" * 30_000,  # nested past the parser's depth, under the size cap
    json.dumps({"players": 2, "stand_in": ["hard"]}),
    json.dumps({"players": 2, "stand_in": {"hard": 1}}),
    json.dumps({"players": 2, "seats": [{"kind": "person"}, {"kind": "bot", "level": []}]}),
    json.dumps({"players": 2, "seats": [{"kind": "person"}, {"kind": "bot", "level": {}}]}),
])
def test_odd_lobby_bodies_are_a_bad_request_not_a_server_error(server, body) -> None:
    response = httpx.post(f"{server.base}/api/tables", content=body,
                          headers={"Content-Type": "application/json"})
    assert response.status_code == 400, response.text
    assert response.json()["code"] == "bad_request"


# --- 2: a body without a length is cut at the cap -------------------------------------------------
def test_a_chunked_body_is_refused_at_the_cap_not_read_to_its_end(server) -> None:
    # 80 KiB of a body that never ends: the answer must come without waiting for its end.
    with socket.create_connection(("127.0.0.1", server.settings.port), timeout=WAIT) as conn:
        conn.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunk = b"[" * 8192
        for _ in range(10):
            conn.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        answer = conn.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:80]


# --- 9: a page's Host is trusted only if it names this server (DNS rebinding) ---------------------
def _socket_as(server, name: str) -> Any:
    """A WebSocket to the server as a page at ``http://NAME:PORT`` opens it: the browser
    sends that name as both Host and Origin (a name rebound to this machine)."""
    netloc = f"{name}:{server.settings.port}"
    conn = socket.create_connection(("127.0.0.1", server.settings.port), timeout=WAIT)
    return connect(f"ws://{netloc}/ws", sock=conn, open_timeout=WAIT,
                   additional_headers={"Origin": f"http://{netloc}"})


def test_a_rebound_name_is_not_the_servers_own_origin(server) -> None:
    netloc = f"evil.example:{server.settings.port}"
    response = httpx.post(f"{server.base}/api/tables", json={"players": 2},
                          headers={"Host": netloc, "Origin": f"http://{netloc}"})
    assert response.status_code == 403 and response.json()["code"] == "origin"
    with _socket_as(server, "evil.example") as ws:
        refused = json.loads(ws.recv(timeout=WAIT))
        assert refused["code"] == "origin" and "view" not in refused
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=WAIT)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403


@pytest.mark.parametrize("name", ["localhost", "127.0.0.1", "[::1]"])
def test_the_servers_own_names_are_its_own_origin(server, table, name) -> None:
    _, seat_tokens, _ = table
    netloc = f"{name}:{server.settings.port}"
    response = httpx.post(f"{server.base}/api/tables", json={"players": 2},
                          headers={"Host": netloc, "Origin": f"http://{netloc}"})
    assert response.status_code == 200, response.text
    with _socket_as(server, name) as ws:
        ws.send(json.dumps({"kind": "hello", "token": seat_tokens[0]}))
        assert json.loads(ws.recv(timeout=WAIT))["kind"] == "state"


# --- 10: what the server keeps for the asking -----------------------------------------------------
def test_asking_for_unknown_tables_leaves_nothing_behind(server) -> None:
    for n in range(10):
        response = httpx.post(f"{server.base}/api/tables/nosuch{n:06d}/join",
                              json={"invite": "A" * 43})
        assert response.status_code == 404
    assert server.hub._loading == {}


def test_debug_logs_show_no_part_of_a_seat_token(tmp_path) -> None:
    running = ServerProcess("--log-level", "debug", "--data", str(tmp_path)).start()
    try:
        _, seat_tokens = seated_table(running.base, players=2)
        w = Wire(running.ws_url)
        try:
            assert w.hello(seat_tokens[0])["kind"] == "state"
            w.intent("ping")
        finally:
            w.close()
        logged = running.wait_output("< TEXT")  # the frames are logged, their content is not
    finally:
        running.stop()
    for token in seat_tokens:
        assert not any(token[i:i + 8] in logged for i in range(len(token) - 7))


def _codes_sent() -> set[str]:
    """Every code the server's source can send: refusals, socket errors, HTTP statuses."""
    found: set[str] = set(STATUS)
    for path in (ROOT / "langfinger_widget" / "server").glob("*.py"):
        source = path.read_text()
        found |= set(re.findall(r'(?:Refusal|error)\(\s*"([a-z_]+)"', source))
        found |= set(re.findall(r'\bcode="([a-z_]+)"', source))
    return found


def _codes_documented() -> list[str]:
    doc = (ROOT / "docs" / "server.md").read_text()
    table = doc.split("<!-- codes:", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^\| `([a-z_]+)` \|", table, re.M)


def test_every_code_the_server_sends_is_documented_once() -> None:
    sent, documented = _codes_sent(), _codes_documented()
    assert {"flood", "bad_request", "unauthorized", "illegal"} <= sent  # the search finds them
    assert len(documented) == len(set(documented))
    assert sent - set(documented) == set(), "sent but not in docs/server.md"
    assert set(documented) - sent == set(), "in docs/server.md but never sent"


def test_the_lobby_limits_each_address(tmp_path) -> None:
    settings = Settings(data=tmp_path, lobby_rate=0.001, lobby_burst=3)
    with TestClient(create_app(settings)) as http:  # its requests come from "testclient"
        for _ in range(3):
            assert http.post("/api/tables", json={"players": 2}).status_code == 200
        for call in (lambda: http.post("/api/tables", json={"players": 2}),
                     lambda: http.post("/api/mine", json={"tokens": []}),
                     lambda: http.post("/api/tables/x/join", json={"invite": "A" * 43})):
            refused = call()
            assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        assert http.get("/api/info").status_code == 200  # the cheap calls are not limited


def test_loopback_is_not_limited(tmp_path) -> None:
    running = ServerThread(Settings(data=tmp_path, lobby_rate=0.001, lobby_burst=1)).start()
    try:
        for _ in range(3):
            assert httpx.post(f"{running.base}/api/tables", json={"players": 2}).is_success
    finally:
        running.stop()


def _on_loop(running: ServerThread, work: Any) -> Any:
    return asyncio.run_coroutine_threadsafe(work, running.hub.scheduler.loop).result(WAIT)


def test_waiting_tables_nobody_joined_expire_and_finished_ones_are_kept(tmp_path) -> None:
    running = ServerThread(Settings(data=tmp_path)).start()
    try:
        hub = running.hub
        unjoined = create(running.base, players=2)["table"]
        half = create(running.base, players=2, join=0)["table"]
        playing = seated_table(running.base, players=2)[0]["table"]
        over = seated_table(running.base, players=2)[0]["table"]
        seq = hub.rooms[over].room.seq
        _on_loop(running, hub.store.commit(over, seq, {"seq": seq + 1, "status": "over",
                                                         "to_move": None, "bot_turn": False,
                                                         "deadline": None}))
        later = time.time() + 8 * 86400  # past a week
        assert _on_loop(running, hub.expire(later)) == [unjoined]
        assert _on_loop(running, hub.store.load(unjoined)) is None
        response = httpx.post(f"{running.base}/api/tables/{unjoined}/join",
                              json={"invite": "A" * 43})
        assert response.status_code == 404
        for kept in (half, playing, over):
            assert _on_loop(running, hub.store.load(kept)) is not None
        hub.settings.keep_finished = 86400.0  # the host keeps finished games a day
        assert _on_loop(running, hub.expire(later)) == [over]
        assert _on_loop(running, hub.store.load(over)) is None
        assert _on_loop(running, hub.store.load(playing)) is not None
    finally:
        running.stop()


def _retention(url: str) -> tuple[list[str], list[str], bool]:
    """Four tables in the store at ``url``: which are past a week waiting, which over a day
    finished, and whether deleting leaves the others."""
    async def scene() -> tuple[list[str], list[str], bool]:
        store = await Store.open(url)
        try:
            now = time.time()
            made = {"unjoined": OPEN, "joined": TAKEN, "playing": TAKEN, "over": TAKEN}
            for name, seat_status in made.items():
                status = {"playing": "playing", "over": "over"}.get(name, "waiting")
                await store.create(TableRow(name, 0, {}, {}, status, None, False, None, "x",
                                            now, now),
                                   [SeatRow(0, PERSON, "a", seat_status),
                                    SeatRow(1, PERSON, "b", OPEN)])
            later = now + 8 * 86400
            waiting = await store.expired(later - 7 * 86400, None)
            finished = await store.expired(None, later - 86400)
            await store.delete(waiting + finished)
            left = {name for name in made if await store.load(name) is not None}
            return waiting, finished, left == {"joined", "playing"}
        finally:
            await store.close()

    return asyncio.run(scene())


def test_retention_finds_the_same_tables_in_postgres(tmp_path) -> None:
    assert _retention(f"sqlite+aiosqlite:///{tmp_path / 'lf.sqlite3'}") == (
        ["unjoined"], ["over"], True)
    try:
        with services.postgres() as pg:
            assert _retention(pg.url) == (["unjoined"], ["over"], True)
    except services.Missing as missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must install the services: {missing}")
        pytest.skip(str(missing))

# --- 4: webhooks go where they were checked to go -------------------------------------------------
class _Hook:
    """A webhook receiver on ``address``: the paths it was POSTed to."""

    def __init__(self, address: str, port: int = 0) -> None:
        got: list[str] = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["Content-Length"]))
                got.append(self.path)
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.got = got
        self.httpd = ThreadingHTTPServer((address, port), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def test_a_webhook_connects_to_the_address_that_was_checked(monkeypatch) -> None:
    # 127.0.0.2 plays a public address here; a name first resolves to it, then (rebound)
    # to 127.0.0.1: the webhook must reach the first and never the second.
    seen_public = ipaddress.IPv4Address("127.0.0.2")
    is_global = inspect.getattr_static(ipaddress.IPv4Address, "is_global")
    monkeypatch.setattr(ipaddress.IPv4Address, "is_global",
                        property(lambda a: a == seen_public or is_global.fget(a)))
    checked = _Hook(str(seen_public))
    rebound = _Hook("127.0.0.1", checked.port)
    real, answers = socket.getaddrinfo, []

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host in ("rebind.test", b"rebind.test"):  # anyio asks in bytes
            answers.append(host)
            host = str(seen_public) if len(answers) == 1 else "127.0.0.1"
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    try:
        url = f"http://rebind.test:{checked.port}/hook"
        assert asyncio.run(webhooks.post(url, {"event": "x"}, allow_private=False))
        assert checked.got == ["/hook"] and rebound.got == []
    finally:
        checked.close()
        rebound.close()


@pytest.mark.parametrize("host", ["[::127.0.0.1]", "[::ffff:127.0.0.1]", "[64:ff9b::7f00:1]",
                                  "[64:ff9b:1::7f00:1]", "[2002:7f00:1::1]",
                                  "[2001:0:7f00:1::1]"])
def test_webhooks_refuse_addresses_that_wrap_another(host, caplog) -> None:
    with caplog.at_level(logging.WARNING, "langfinger.server"):
        assert not asyncio.run(webhooks.post(f"http://{host}:9/hook", {}, allow_private=False))
    assert "not a public address" in caplog.text


# --- 7: a join whose answer was lost is asked again ----------------------------------------------
def test_a_join_retried_with_its_key_gets_its_token_again(server) -> None:
    made = create(server.base, players=2)
    url = f"{server.base}/api/tables/{made['table']}/join"
    invite, key = made["invite_keys"]["1"], "k" * 10 + "retry-key-of-mine"
    first = httpx.post(url, json={"invite": invite, "key": key})
    assert first.status_code == 200, first.text
    again = httpx.post(url, json={"invite": invite, "key": key})  # the first answer was lost
    assert again.status_code == 200, again.text
    assert again.json() == first.json()
    for other in ({"invite": invite, "key": "another-key-of-someone"}, {"invite": invite}):
        taken = httpx.post(url, json=other)
        assert taken.status_code == 409 and taken.json()["code"] == "seat_taken"
    short = httpx.post(url, json={"invite": made["invite_keys"]["0"], "key": "short"})
    assert short.status_code == 400
    w = Wire(server.ws_url)
    try:
        assert w.hello(first.json()["token"])["you"]["seat"] == 1
    finally:
        w.close()


def test_the_python_seat_asks_again_when_a_join_answer_is_lost(server, monkeypatch) -> None:
    made = create(server.base, players=2)
    real, lost = http.call, []

    def call(method: str, url: str, body: Any = None, token: str | None = None) -> Any:
        answer = real(method, url, body, token)
        if url.endswith("/join") and not lost:  # the server took the seat; the answer is lost
            lost.append(answer)
            raise http.offline(url, "timed out")
        return answer

    monkeypatch.setattr(http, "call", call)
    seat = OnlineSeat(made["invites"]["1"], start=False)
    assert lost and seat.token == lost[0]["token"] and seat.you["seat"] == 1


# --- 5: sockets of one seat ---------------------------------------------------------------------
def test_more_sockets_of_a_seat_online_already_send_no_presence(server, table) -> None:
    _, seat_tokens, clients = table
    first = clients[0]
    first.intent("ping")  # everything so far has arrived
    before = len(first.frames)
    with wires(server.ws_url, [seat_tokens[0]] * 5):
        pong = first.intent("ping")
    news = [json.loads(f)["kind"] for f in first.frames[before:]]
    assert news.count("presence") == 0 and pong["kind"] == "pong"


def test_a_seat_token_holds_a_bounded_number_of_sockets(tmp_path) -> None:
    running = ServerThread(Settings(data=tmp_path, sockets_per_token=3)).start()
    try:
        _, seat_tokens = seated_table(running.base, players=2)
        with wires(running.ws_url, [seat_tokens[0]] * 3 + [seat_tokens[1]]) as opened:
            extra = Wire(running.ws_url)
            try:
                refused = extra.hello(seat_tokens[0])
                assert refused["code"] == "too_many_sockets" and "view" not in refused
                assert extra.closed_with() == 4409
            finally:
                extra.close()
            assert all(w.intent("ping")["kind"] == "pong" for w in opened)
            opened[0].close()
            again = Wire(running.ws_url)  # one closed: room for one again
            try:
                assert again.hello(seat_tokens[0])["kind"] == "state"
            finally:
                again.close()
    finally:
        running.stop()


# --- 3: a client that does not read ---------------------------------------------------------------
def _answer(n: int) -> dict[str, Any]:
    return {"v": 1, "kind": "pong", "seq": 0, "id": n}


def test_answers_nobody_reads_do_not_pile_up(tmp_path) -> None:
    client = Client(Any, 0, None, Settings(data=tmp_path, outbox=8))  # type: ignore[arg-type]
    for n in range(1, 30):
        client.push(_answer(n))
        client.push({"v": 1, "kind": "update", "seq": n}, picture=True)
    assert len(client._queue) <= 8
    assert client.closing is not None and client.closing[0] == protocol.CLOSE_SLOW


class _Stuck:
    """A WebSocket whose peer stopped reading: a send never completes."""

    scope: dict[str, Any] = {}  # no frame writer: the ASGI path

    def __init__(self) -> None:
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = code


def test_a_peer_that_stopped_reading_is_closed(tmp_path) -> None:
    settings = Settings(data=tmp_path, send_timeout=0.05)

    async def scene() -> int | None:
        client = Client(Any, 0, None, settings)  # type: ignore[arg-type]
        hub = type("HubStub", (), {"settings": settings, "state_for": lambda self, c: {}})()
        stuck = _Stuck()
        client.push(_answer(1))
        await asyncio.wait_for(_write(stuck, client, hub), WAIT)  # type: ignore[arg-type]
        return stuck.closed

    assert asyncio.run(scene()) == protocol.CLOSE_SLOW


# --- 1: what thinking may cost the others ---------------------------------------------------------
@pytest.mark.parametrize("processes", [0, 1])
def test_hint_searches_are_one_a_seat_and_bounded_a_process(tmp_path, monkeypatch,
                                                            processes: int) -> None:
    """On the loop, and in the workers (where the question under way counts the same)."""
    release = threading.Event()

    def weighing(bot: Any, view: Any, legal: list[Any], twin: Any = None) -> Any:
        while not release.is_set():  # a search that lasts until the test has asked again
            time.sleep(0.002)
            yield
        return legal[0], 0.5

    # Patched where bot_steps looks it up (tables.table): patching the server kernel's
    # re-export let the real search run, and a fast one answered before the test asked again.
    monkeypatch.setattr(table_module, "weighing", weighing)
    held: list[tuple[Question, concurrent.futures.Future[Any]]] = []

    def hold(self: Thinkers, asked: Question) -> Any:  # a worker's search, until released
        held.append((asked, concurrent.futures.Future()))
        return None, held[-1][1]

    monkeypatch.setattr(Thinkers, "_submit", hold)
    running = ServerThread(Settings(data=tmp_path, hint_searches=1,
                                    bot_processes=processes)).start()
    try:
        tables = [seated_table(running.base, players=2, hints=True)[1] for _ in range(2)]
        with wires(running.ws_url, tables[0]) as one, wires(running.ws_url, tables[1]) as two:
            mover = one[0].latest["view"]["to_move"]
            again = Wire(running.ws_url)
            try:
                again.hello(tables[0][mover])
                assert one[mover].intent("hint").get("pending") is True
                busy = again.intent("hint")  # the same seat, from another socket
                assert busy["kind"] == "result" and busy["code"] == "busy"
            finally:
                again.close()
            other = two[two[0].latest["view"]["to_move"]]
            busy = other.intent("hint")  # another table: the process's one search is taken
            assert busy["kind"] == "result" and busy["code"] == "busy"
            assert len(held) == processes  # one search: in a worker, or on the loop
            release.set()
            for asked, future in held:
                future.set_result((asked.legal[0], 0.5))
            assert one[mover].until("hint", id=one[mover].next_id)["action"] is not None
            assert other.intent("hint").get("pending") is True  # room again
    finally:
        release.set()
        running.stop()


def test_thinking_gets_one_slice_a_turn_of_the_loop(server) -> None:
    scheduler = server.hub.scheduler

    async def scene() -> list[int]:
        turn, ran, finished = [0], [], asyncio.Event()

        def tick() -> None:
            turn[0] += 1
            if not finished.is_set():
                asyncio.get_running_loop().call_soon(tick)

        def search() -> Any:
            for _ in range(3):
                time.sleep(SLICE_SECONDS * 1.1)  # one piece fills a slice
                ran.append(turn[0])
                yield

        left = [4]

        def done(_: Any) -> None:
            left[0] -= 1
            if not left[0]:
                finished.set()

        tick()
        for _ in range(4):
            Slices(scheduler, search(), done, lambda exc: None).start()
        await asyncio.wait_for(finished.wait(), WAIT)
        return ran

    ran = asyncio.run_coroutine_threadsafe(scene(), scheduler.loop).result(WAIT * 2)
    assert len(ran) == 12 and len(set(ran)) == len(ran)  # never two slices in one turn


def _search_during_a_persons_move(
        after: Callable[[Turns, list[int]], Awaitable[list[int]]]) -> list[int]:
    """A search of three slices started while a person's move is being committed; ``after``
    runs once its commit is done, then the search is waited for. What ``after`` saw."""
    async def scene() -> list[int]:
        turns = Turns(asyncio.get_running_loop())
        turns.people_first = 3600.0  # however long the move takes here
        ran: list[int] = []
        finished = asyncio.Event()

        def steps() -> Any:
            for n in range(3):
                ran.append(n)
                yield

        with turns.first():
            Slices(turns, steps(), lambda _: finished.set(), lambda exc: None).start()
            for _ in range(20):
                await asyncio.sleep(0)
            during = list(ran)
        seen = await after(turns, ran)
        await asyncio.wait_for(finished.wait(), WAIT)
        assert during == [] and ran == [0, 1, 2]
        return seen

    return asyncio.run(scene())


def test_no_thinking_starts_while_a_persons_move_goes() -> None:
    async def nothing(turns: Turns, ran: list[int]) -> list[int]:
        return []

    _search_during_a_persons_move(nothing)


def test_the_turns_that_send_a_persons_move_come_before_thinking() -> None:
    # After the commit, the answer and the updates are written out by the sockets' tasks in
    # the next turns of the loop: a slice before each of them would cost the person's round
    # trip a slice a turn (issue 39: people's p99 with a hundred bot tables thinking).
    async def turns_after(turns: Turns, ran: list[int]) -> list[int]:
        seen = []
        for _ in range(turns.after_people):
            await asyncio.sleep(0)
            seen.append(len(ran))
        return seen

    assert _search_during_a_persons_move(turns_after) == [0] * Turns.after_people

# --- 6: slow and idle connections ---------------------------------------------------------------
@pytest.fixture()
def guarded(tmp_path) -> Iterator[ServerProcess]:
    """``langfinger serve`` with short time limits and a small cap on connections."""
    running = ServerProcess("--data", str(tmp_path), "--header-timeout", "0.5",
                            "--max-connections", "20").start()
    yield running
    running.stop()


def _dripping(port: int, first: bytes) -> socket.socket:
    conn = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    conn.sendall(first)
    return conn


def test_headers_that_never_end_are_cut_off(guarded) -> None:
    with _dripping(guarded.port, b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n") as conn:
        assert conn.recv(1024) == b""  # closed by the server, not answered


def test_a_body_that_never_ends_is_cut_off(guarded) -> None:
    head = (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"players\"")
    with _dripping(guarded.port, head) as conn:
        answer = conn.recv(4096)
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:80]


def _fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts /proc/PID/fd")
def test_idle_connections_cannot_keep_the_lobby_out(guarded) -> None:
    assert guarded.proc is not None
    before = _fds(guarded.proc.pid)
    idle = [_dripping(guarded.port, b"G") for _ in range(40)]  # twice the cap
    try:
        made = httpx.post(f"{guarded.base}/api/tables", json={"players": 2}, timeout=WAIT)
        assert made.status_code == 200
        assert _fds(guarded.proc.pid) <= before + 25  # the oldest idle ones were closed
    finally:
        for conn in idle:
            conn.close()


def test_websockets_leave_room_for_the_lobby(tmp_path) -> None:
    running = ServerThread(Settings(data=tmp_path, max_sockets=2)).start()
    try:
        _, seat_tokens = seated_table(running.base, players=2)
        with wires(running.ws_url, seat_tokens):
            full = Wire(running.ws_url)
            try:
                refused = full.recv()
                assert refused["code"] == "full" and full.closed_with() == 1013
            finally:
                full.close()
            assert httpx.post(f"{running.base}/api/tables", json={"players": 2}).is_success
        with wires(running.ws_url, seat_tokens[:1]) as again:  # closed ones make room
            assert again[0].latest["kind"] == "state"
    finally:
        running.stop()


@pytest.mark.skipif(not os.path.exists("/proc/self/limits"), reason="Linux's /proc")
def test_the_server_raises_its_open_file_limit_and_caps_connections_by_it(tmp_path) -> None:
    """Started with a soft limit of 256 files, the server takes as many as the hard limit
    allows, says so, and derives its connection cap from the raised limit."""
    import resource
    import subprocess
    import sys

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= 256:
        pytest.skip(f"the hard limit ({hard}) leaves nothing to raise")

    def low() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))

    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "langfinger_widget.server", "--port", "0",
                             "--data", str(tmp_path)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, preexec_fn=low)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"; (\d+) connections, open files 256 -> (\d+)\)$", line.strip())
        assert found, line
        raised = int(found[2])
        assert raised > 256 and (hard == resource.RLIM_INFINITY or raised == hard)
        with open(f"/proc/{proc.pid}/limits") as limits:
            assert re.search(rf"Max open files\s+{raised}\s", limits.read())
        assert int(found[1]) == raised - 64  # --max-connections' default: the raised limit
    finally:
        proc.terminate()
        proc.wait(timeout=20)
