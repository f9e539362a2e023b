"""One WebSocket to the server, kept open: reconnected with backoff, said hello each time.

Two transports, one interface. In a normal kernel a daemon thread runs a blocking
client (``websockets``, the server extra's, imported when the first socket opens); in
Pyodide, which has no sockets and no threads, the browser's own ``WebSocket`` is driven
through Pyodide's JavaScript bridge, its callbacks running on the kernel's one thread.
Either way every message (and every change of the connection) is handed to ``deliver``
from whatever thread received it: the seat hands it over to the thread that owns the board.
"""

from __future__ import annotations

import contextlib
import json
import random
import threading
from collections.abc import Callable
from typing import Any, Protocol

from ..tables.runtime import in_pyodide

PROTOCOL_VERSION = 1
OPEN_TIMEOUT = 10.0
BACKOFF_FIRST = 0.5
BACKOFF_MAX = 30.0
MAX_FRAME = 1 << 20  # the server's frames are far smaller; a sanity bound
# Refusals after which reconnecting cannot help: the link is wrong or revoked (docs/server.md).
FATAL_CODES = frozenset({"unauthorized", "revoked", "origin", "version"})

Deliver = Callable[[dict[str, Any]], None]


def backoff(attempt: int, rng: random.Random | None = None) -> float:
    """Seconds before reconnection attempt ``attempt`` (0, 1, ...): doubling, capped, jittered."""
    base = min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** attempt)
    jitter: float = (rng or random).random()
    return float(round(base * (0.75 + 0.5 * jitter), 3))


def offline_notice(why: str, retry_in: float | None) -> dict[str, Any]:
    """The message a transport delivers when the connection is lost (not from the server)."""
    return {"kind": "_offline", "message": why, "retry_in": retry_in}


class Transport(Protocol):
    def start(self) -> None: ...

    def send(self, message: dict[str, Any]) -> bool:
        """Send ``message``; False when not connected (nothing was sent)."""
        ...

    def stop(self) -> None:
        """Close for good: no more reconnecting."""
        ...


def make_transport(url: str, hello: dict[str, Any], deliver: Deliver) -> Transport:
    if in_pyodide():
        return BrowserTransport(url, hello, deliver)
    return ThreadTransport(url, hello, deliver)


class ThreadTransport:
    """The socket on a daemon thread (a normal kernel, a script)."""

    def __init__(self, url: str, hello: dict[str, Any], deliver: Deliver) -> None:
        self.url, self.hello, self.deliver = url, hello, deliver
        self._stopped = threading.Event()
        self._ws: Any = None
        self._send_lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="langfinger-online", daemon=True)

    def start(self) -> None:
        try:
            import websockets.sync.client  # noqa: F401
        except ImportError:
            self.deliver({"kind": "error", "code": "missing", "error": (
                "joining a table needs the websockets package: "
                "pip install 'langfinger-widget[online]'")})
            return
        self._thread.start()

    def send(self, message: dict[str, Any]) -> bool:
        ws = self._ws
        if ws is None:
            return False
        try:
            with self._send_lock:
                ws.send(json.dumps({"v": PROTOCOL_VERSION, **message}))
        except Exception:  # closing under us: the reader thread reports it
            return False
        return True

    def stop(self) -> None:
        self._stopped.set()
        ws = self._ws
        if ws is not None:
            with contextlib.suppress(Exception):  # already closed
                ws.close()

    def _run(self) -> None:
        from websockets.exceptions import ConnectionClosed
        from websockets.sync.client import connect

        attempt = 0
        while not self._stopped.is_set():
            why = ""
            try:
                with connect(self.url, open_timeout=OPEN_TIMEOUT, max_size=MAX_FRAME,
                             close_timeout=2) as ws:
                    self._ws = ws
                    ws.send(json.dumps({"v": PROTOCOL_VERSION, "kind": "hello", **self.hello}))
                    for raw in ws:
                        attempt = 0
                        try:
                            message = json.loads(raw)
                        except ValueError:
                            continue  # the server sends JSON only
                        if isinstance(message, dict):
                            if message.get("kind") == "error" and \
                                    message.get("code") in FATAL_CODES:
                                self._stopped.set()  # said once: no reconnecting
                            self.deliver(message)
                    why = f"the server closed the connection ({ws.close_code})"
            except ConnectionClosed as exc:
                why = f"the connection was lost ({exc})"
            except Exception as exc:  # refused, unreachable, a bad handshake: retried
                why = f"cannot reach {self.url} ({exc})"
            finally:
                self._ws = None
            if self._stopped.is_set():
                break
            wait = backoff(attempt)
            attempt += 1
            self.deliver(offline_notice(why, wait))
            self._stopped.wait(wait)


class BrowserTransport:  # pragma: no cover - runs in Pyodide (tests/e2e/test_online_lite.py)
    """The browser's WebSocket through Pyodide's bridge (JupyterLite: no sockets, no threads)."""

    def __init__(self, url: str, hello: dict[str, Any], deliver: Deliver) -> None:
        self.url, self.hello, self.deliver = url, hello, deliver
        self._ws: Any = None
        self._stopped = False
        self._attempt = 0
        self._proxies: list[Any] = []

    def start(self) -> None:
        self._connect()

    def _connect(self) -> None:
        import importlib

        js: Any = importlib.import_module("js")  # Pyodide's bridge to the browser
        from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

        if self._stopped:
            return
        for proxy in self._proxies:
            proxy.destroy()
        ws = js.WebSocket.new(self.url)
        self._ws = ws

        def opened(_event: Any) -> None:
            ws.send(json.dumps({"v": PROTOCOL_VERSION, "kind": "hello", **self.hello}))

        def received(event: Any) -> None:
            if self._ws is not ws:
                return
            self._attempt = 0
            try:
                message = json.loads(str(event.data))
            except ValueError:
                return
            if isinstance(message, dict):
                if message.get("kind") == "error" and message.get("code") in FATAL_CODES:
                    self._stopped = True  # said once: no reconnecting
                self.deliver(message)

        def closed(event: Any) -> None:
            if self._ws is not ws:
                return
            self._ws = None
            if self._stopped:
                return
            wait = backoff(self._attempt)
            self._attempt += 1
            reason = str(getattr(event, "reason", "") or "")
            self.deliver(offline_notice(
                reason or f"cannot reach {self.url} (closed, {getattr(event, 'code', '?')})", wait))
            import asyncio

            asyncio.get_event_loop().call_later(wait, self._connect)

        self._proxies = [create_proxy(opened), create_proxy(received), create_proxy(closed)]
        ws.onopen, ws.onmessage, ws.onclose = self._proxies

    def send(self, message: dict[str, Any]) -> bool:
        ws = self._ws
        if ws is None or int(ws.readyState) != 1:
            return False
        ws.send(json.dumps({"v": PROTOCOL_VERSION, **message}))
        return True

    def stop(self) -> None:
        self._stopped = True
        if self._ws is not None:
            self._ws.close(1000, "bye")
            self._ws = None
