"""Asynchronous play: webhooks when it becomes a seat's turn, deadlines kept in the database."""

from __future__ import annotations

import asyncio
import json
import queue
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from wire import ServerProcess, seated_table, wires

from langfinger_widget.server import webhooks
from langfinger_widget.server.room import Refusal


class Receiver:
    """A webhook receiver on loopback: every POST's JSON body lands in ``posts``."""

    def __init__(self) -> None:
        posts: queue.Queue[dict[str, Any]] = queue.Queue()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                posts.put(json.loads(body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.posts = posts
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/hook"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def test_a_seat_is_told_by_webhook_when_it_becomes_its_turn(server) -> None:
    receiver = Receiver()
    try:
        made, seat_tokens = seated_table(server.base, players=2)
        with wires(server.ws_url, seat_tokens) as clients:
            seat = clients[0].latest["view"]["to_move"]
            waiting = clients[1 - seat]
            assert waiting.intent("webhook", url=receiver.url)["ok"] is True
            mover = clients[seat]
            assert mover.act(mover.latest["legal"][0])["ok"]
            post = receiver.posts.get(timeout=10)
            assert post["event"] == "your_turn" and post["table"] == made["table"]
            assert post["seat"] == 1 - seat and post["seq"] == mover.latest["seq"]
            assert post["play"].endswith(f"/play/{made['table']}")
            assert seat_tokens[1 - seat] not in json.dumps(post)  # no secret in a webhook
            bad = waiting.intent("webhook", url="ftp://example.org/x")
            assert bad["ok"] is False and "http" in bad["error"]
    finally:
        receiver.close()


@pytest.mark.parametrize("url", ["javascript:alert(1)", "http://user:pw@example.org/",
                                 "http:///nohost", "x" * 3000, 42])
def test_a_webhook_must_be_a_plain_http_url(url: Any) -> None:
    with pytest.raises(Refusal):
        webhooks.check_url(url)


def test_webhooks_reach_no_private_address_unless_allowed() -> None:
    receiver = Receiver()
    try:
        sent = asyncio.run(webhooks.post(receiver.url, {"event": "x"}, allow_private=False))
        assert sent is False and receiver.posts.empty()
        assert asyncio.run(webhooks.post(receiver.url, {"event": "y"}, allow_private=True))
        assert receiver.posts.get(timeout=5) == {"event": "y"}
    finally:
        receiver.close()


def test_deadlines_and_turns_survive_a_restart(tmp_path: Path) -> None:
    server = ServerProcess("--data", str(tmp_path)).start()
    try:
        _, seat_tokens = seated_table(server.base, players=3, time=3600)
        with wires(server.ws_url, seat_tokens[:1]) as clients:
            before = clients[0].latest["table"]
        assert before["deadline"] is not None
        server.stop()
        server = ServerProcess("--data", str(tmp_path), port=server.port).start()
        rows = httpx.post(f"{server.base}/api/mine", json={"tokens": seat_tokens}).json()
        assert {r["seat"] for r in rows["tables"]} == {0, 1, 2}
        for row in rows["tables"]:
            assert row["deadline"] == before["deadline"] and row["to_move"] == before["to_move"]
            assert row["your_turn"] == (row["seat"] == before["to_move"])
    finally:
        server.stop()
