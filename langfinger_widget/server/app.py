"""The ASGI app: the lobby's REST calls, the WebSocket, and the web board's pages.

``create_app(settings)`` gives a Starlette app; ``langfinger serve`` runs it
on uvicorn. The pages are the same front-end bundle as the notebook widget
(``static/widget.js``), driven by ``static/online-page.js``, which speaks the
protocol over the WebSocket instead of a kernel's comm.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import ipaddress
import json
import logging
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Generator, Sequence
from pathlib import Path
from socket import gethostname
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from . import frames, lobby, protocol
from .broker import make_broker
from .config import Settings
from .connections import max_connections_default
from .hub import Client, Hub
from .kernel import LEVELS, VARIANTS
from .limits import AddressLimits
from .room import Refusal, offered_games, said
from .store import Store

log = logging.getLogger("langfinger.server")

STATIC = Path(__file__).resolve().parent.parent / "static"
PAGE_SCRIPT = "online-page.js"  # js/online-page.tsx, built by `npm run build`
MAX_BODY = 64 * 1024
STATUS = {"bad_request": 400, "unauthorized": 401, "origin": 403, "not_found": 404,
          "seat_taken": 409, "not_over": 409, "conflict": 409, "too_big": 413, "too_slow": 408,
          "media_type": 415, "rate_limited": 429, "server_error": 500}
# The pages load only this server's own scripts and styles and talk only to it.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'; "
       "base-uri 'none'; form-action 'none'")

Ready = Callable[[Hub], Awaitable[None]]


def origin_allowed(origin: str | None, host: str | None, settings: Settings) -> bool:
    """A page may talk to the server if it is the server's own, or on the allow-list.

    No ``Origin`` header means no browser page sent it (a script, a bot, a
    notebook kernel): no page can be tricked into such a request.
    """
    if origin is None:
        return True
    allowed = {o.rstrip("/") for o in settings.origins}
    if settings.public_url:
        parts = urlsplit(settings.public_url)
        allowed.add(f"{parts.scheme}://{parts.netloc}")
    if "*" in allowed or origin.rstrip("/") in allowed:
        return True
    parts = urlsplit(origin)
    return (parts.scheme in ("http", "https") and bool(host) and parts.netloc == host
            and host_is_ours(host or "", settings))


def host_is_ours(host: str, settings: Settings) -> bool:
    """Whether a ``Host`` header names this server, so that a page of that origin is its own.

    A page's origin equal to the ``Host`` proves nothing by itself: DNS rebinding points a
    name of the attacker's at this server, and the browser then sends that name as both.
    Rebinding needs a name, so an address is trusted, and a name only if the server goes
    by it: its bind address, ``--public-url``, this machine's name, or a loopback name.
    """
    try:
        name = urlsplit(f"//{host}").hostname
    except ValueError:
        return False
    if not name:
        return False
    name = name.rstrip(".").lower()
    with contextlib.suppress(ValueError):
        ipaddress.ip_address(name)
        return True
    return name == "localhost" or name.endswith(".localhost") or name in _server_names(settings)


def _server_names(settings: Settings) -> set[str]:
    machine = gethostname().lower()
    names = {machine, f"{machine}.local", settings.host.lower()}
    if settings.public_url:
        names.add((urlsplit(settings.public_url).hostname or "").lower())
    return names


def _page(kind: str, table: str = "") -> HTMLResponse:
    built = (STATIC / "widget.js").is_file() and (STATIC / PAGE_SCRIPT).is_file()
    body = ('<div id="lf-online" data-page="{kind}" data-table="{table}"></div>'
            f'<script type="module" src="/static/{PAGE_SCRIPT}"></script>'
            if built else
            "<p>The board's bundle is not built: run <code>npm run build</code> in the "
            "checkout, or install a released wheel.</p>")
    text = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Langfinger online</title>"
        '<link rel="stylesheet" href="/static/widget.css">'
        '<link rel="stylesheet" href="/static/online.css"></head>'
        f"<body>{body.format(kind=kind, table=html.escape(table, quote=True))}"
        "<noscript>The board needs JavaScript.</noscript></body></html>")
    return HTMLResponse(text, headers={"Content-Security-Policy": CSP,
                                       "Referrer-Policy": "no-referrer",
                                       "X-Content-Type-Options": "nosniff",
                                       "Cache-Control": "no-store"})


def _refused(refusal: Refusal) -> JSONResponse:
    return JSONResponse({"error": refusal.message, "code": refusal.code},
                        status_code=STATUS.get(refusal.code, 400))


def _hub(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _base(request: Request) -> str:
    settings: Settings = request.app.state.settings
    return (settings.public_url or str(request.base_url)).rstrip("/")


def _limit(request: Request) -> None:
    """The lobby's per-address rate limit (see limits.py)."""
    limits: AddressLimits = request.app.state.lobby_limits
    if not limits.allow(request.client.host if request.client else None, time.monotonic()):
        raise Refusal("rate_limited", "too many lobby requests from this address: slow down")


async def _read_body(request: Request) -> bytes:
    """The body as it comes, stopped at the cap: a chunked body has no length to check."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise Refusal("too_big", f"a request may be at most {MAX_BODY} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def _json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object, from an allowed page (or no page), within the size cap."""
    settings: Settings = request.app.state.settings
    if not origin_allowed(request.headers.get("origin"), request.headers.get("host"), settings):
        raise Refusal("origin", "this page's origin may not use the lobby (see --origin)")
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise Refusal("media_type", "send the request as application/json")
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise Refusal("too_big", f"a request may be at most {MAX_BODY} bytes")
    try:
        raw = await asyncio.wait_for(_read_body(request), settings.body_timeout)
    except (asyncio.TimeoutError, TimeoutError):
        raise Refusal("too_slow", f"a request's body must come within "
                                  f"{settings.body_timeout:g} s") from None
    try:
        body = json.loads(raw or b"{}")
    except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser goes
        raise Refusal("bad_request", "the request is not JSON (or is nested too deep)") from None
    if not isinstance(body, dict):
        raise Refusal("bad_request", "the request is a JSON object")
    return body


def _api(handler: Callable[[Request], Awaitable[Any]]) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            result = await handler(request)
        except Refusal as refusal:
            return _refused(refusal)
        if isinstance(result, Response):
            return result
        return JSONResponse(result, headers={"Cache-Control": "no-store"})

    return endpoint


@_api
async def api_info(request: Request) -> Any:
    return {"protocol": protocol.PROTOCOL, "version": protocol.VERSION, "levels": list(LEVELS),
            "variants": list(VARIANTS), "games": offered_games(),
            "max_message": protocol.MAX_MESSAGE, "now": time.time()}


@_api
async def api_create(request: Request) -> Any:
    _limit(request)
    return await lobby.create(_hub(request), await _json_body(request), _base(request))


@_api
async def api_join(request: Request) -> Any:
    _limit(request)
    body = await _json_body(request)
    return await lobby.join(_hub(request), request.path_params["table"], body, _base(request))


@_api
async def api_mine(request: Request) -> Any:
    _limit(request)
    body = await _json_body(request)
    return {"tables": await lobby.mine(_hub(request), body.get("tokens"))}


@_api
async def api_record(request: Request) -> Any:
    _limit(request)
    auth = request.headers.get("authorization", "")
    scheme, _, key = auth.partition(" ")
    if scheme.lower() != "bearer" or not key:
        raise Refusal("unauthorized", "send a seat token or the spectator key as "
                                      "'Authorization: Bearer KEY'")
    text = await lobby.record(_hub(request), request.path_params["table"], key.strip())
    return PlainTextResponse(text, headers={"Cache-Control": "no-store"})


async def page_lobby(request: Request) -> Response:
    return _page("lobby")


async def page_table(request: Request) -> Response:
    kind = request.url.path.split("/")[1]
    return _page(kind, request.path_params["table"])


async def healthz(request: Request) -> Response:
    return PlainTextResponse("ok")


async def favicon(request: Request) -> Response:
    return Response(status_code=204)  # no icon; an empty answer keeps consoles quiet


# --- the WebSocket ----------------------------------------------------------------------------
async def _receive(websocket: WebSocket) -> str | bytes | None:
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text: str | None = message.get("text")
    return text if text is not None else message.get("bytes")


async def _send(websocket: WebSocket, message: dict[str, Any] | protocol.Frame) -> None:
    writer = frames.writer_of(websocket.scope)
    if writer is None:  # another ASGI server: through ASGI
        text = message.text if isinstance(message, protocol.Frame) else protocol.encode(message)
        await websocket.send_text(text)
        return
    data = _bytes(message)
    while not writer.write_text(data):  # the peer's buffers are full: wait, as ASGI's would
        await writer.wait_writable()


def _bytes(message: dict[str, Any] | protocol.Frame) -> bytes:
    """A message's text frame payload (a frame is encoded already)."""
    return message.data if isinstance(message, protocol.Frame) else protocol.encode_bytes(message)


def _direct(writer: frames.Writer
            ) -> Callable[[Sequence[dict[str, Any] | protocol.Frame]], bool]:
    """A client's way to write messages at once, in one write (see ``Client.push``)."""
    def write(messages: Sequence[dict[str, Any] | protocol.Frame]) -> bool:
        try:
            if len(messages) == 1:
                return writer.write_text(_bytes(messages[0]))
            return writer.write_texts([_bytes(m) for m in messages])
        except OSError:  # closing: the writer task meets it too, and ends
            return False

    return write


async def _send_within(websocket: WebSocket, message: dict[str, Any] | protocol.Frame,
                       timeout: float) -> None:
    """``_send``, or TimeoutError if it waits ``timeout`` seconds (the peer stopped reading and
    the transport's buffers are full).

    A send almost never waits: the frame goes to the transport's buffer at once. So it is run
    up to its first wait with no timer at all, and only a send that does wait finishes under
    the timeout. A timer a frame (``wait_for``'s task, or ``asyncio.timeout``'s handle) cost
    3-6% of the server's CPU a move.
    """
    sending = _send(websocket, message)
    try:
        waiting_on = sending.send(None)
    except StopIteration:
        return  # sent without waiting
    await _timed(_Rest(sending, waiting_on), timeout)


class _Rest:
    """The rest of a coroutine already stepped once (it yielded ``first``, a future to wait
    on), to await: the task that awaits it waits on ``first``, then goes on stepping the
    coroutine as an ``await`` of it would have (a cancellation is thrown into it)."""

    __slots__ = ("_coro", "_first")

    def __init__(self, coro: Coroutine[Any, Any, None], first: Any) -> None:
        self._coro = coro
        self._first = first

    def __await__(self) -> Generator[Any, Any, None]:
        coro, value = self._coro, self._first
        while True:
            try:
                sent = yield value
            except BaseException as exc:  # the timeout's cancellation, or the writer's
                try:
                    value = coro.throw(exc)
                except StopIteration:
                    return
            else:
                try:
                    value = coro.send(sent)
                except StopIteration:
                    return


if sys.version_info >= (3, 11):
    async def _timed(rest: _Rest, timeout: float) -> None:
        async with asyncio.timeout(timeout):
            await rest
else:  # pragma: no cover (Python 3.10)
    async def _timed(rest: _Rest, timeout: float) -> None:
        async def wait() -> None:
            await rest

        await asyncio.wait_for(wait(), timeout)


async def _refuse_socket(websocket: WebSocket, code: int, refusal: Refusal) -> None:
    with contextlib.suppress(Exception):
        await _send(websocket, protocol.error(refusal.code, refusal.message))
        await websocket.close(code, refusal.code)


async def socket(websocket: WebSocket) -> None:
    hub = _hub(websocket)
    settings: Settings = websocket.app.state.settings
    state = websocket.app.state
    state.sockets += 1
    try:
        await websocket.accept()
        if state.sockets > state.max_sockets:  # room is kept for the lobby and the pages
            await _refuse_socket(websocket, protocol.CLOSE_TRY_LATER, Refusal(
                "full", "the server holds as many sockets as it may: try again later"))
            return
        await _socket(websocket, hub, settings)
    finally:
        state.sockets -= 1


async def _socket(websocket: WebSocket, hub: Hub, settings: Settings) -> None:
    origin = websocket.headers.get("origin")
    if not origin_allowed(origin, websocket.headers.get("host"), settings):
        await _refuse_socket(websocket, protocol.CLOSE_ORIGIN, Refusal(
            "origin", f"pages from {said(origin)} may not connect; the server allows its own "
                      "pages and those named by --origin"))
        return
    try:
        frame = await asyncio.wait_for(_receive(websocket), settings.hello_timeout)
        client = await hub.hello(protocol.parse(frame), websocket.query_params.get("table"))
    except (asyncio.TimeoutError, TimeoutError):
        await _refuse_socket(websocket, protocol.CLOSE_HELLO_TIMEOUT,
                             Refusal("hello_timeout", "no hello in time"))
        return
    except WebSocketDisconnect:
        return
    except Refusal as refusal:
        await _refuse_socket(websocket, protocol.CLOSE_TOO_MANY if refusal.code ==
                             "too_many_sockets" else protocol.CLOSE_UNAUTHORIZED, refusal)
        return
    direct = frames.writer_of(websocket.scope)
    if direct is not None:
        client.direct = _direct(direct)
    writer = asyncio.create_task(_write(websocket, client, hub))
    try:
        await _serve(websocket, client, hub)
    except WebSocketDisconnect:
        pass
    finally:
        hub.leave(client)
        if client.closing is None:
            client.close(1000, "bye")
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(writer, 1.0)


async def _serve(websocket: WebSocket, client: Client, hub: Hub) -> None:
    while client.closing is None:
        await client.room_for_answers()
        frame = await _receive(websocket)
        limit = client.limit
        if not limit.allow(time.monotonic()):
            if limit.refused > client.flood_limit:
                client.push(protocol.error("flood", "too many messages: disconnected",
                                           client.live.room.seq))
                client.close(protocol.CLOSE_FLOOD, "flood")
                return
            if not limit.warned:  # one warning a run of refusals, not one a message
                limit.warned = True
                client.push(protocol.error("rate_limited", "too many messages: slow down (the "
                                           "ones over the limit are dropped unread)",
                                           client.live.room.seq))
            continue
        limit.warned = False
        # A move's update to this socket and its answer go out in one write (the answer is
        # the last thing an intent sends it); the other sockets are written to at once.
        client.cork()
        reply: dict[str, Any] | None = None
        try:
            message: dict[str, Any] = {}
            try:
                message = protocol.parse(frame)
                client.last_id = protocol.check_intent(message, client.last_id)
                reply = await hub.intent(client, message)
            except Refusal as refusal:
                msg_id = message.get("id") if isinstance(message.get("id"), int) else None
                reply = protocol.error(refusal.code, refusal.message, client.live.room.seq,
                                       msg_id)
            except Exception:  # a bug must cost one answer, never the server
                log.exception("intent %r failed", message.get("kind"))
                reply = protocol.error("server_error", "the server failed to answer this",
                                       client.live.room.seq, message.get("id"))
        finally:
            client.uncork(reply)  # the answer last; even if cancelled: nothing may stay held


async def _write(websocket: WebSocket, client: Client, hub: Hub) -> None:
    timeout = hub.settings.send_timeout
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            message = await client.next(hub.state_for)
            if message is None:
                code, reason = client.closing or (1000, "")
                await websocket.close(code, reason)
                return
            try:
                await _send_within(websocket, message, timeout)
            except (asyncio.TimeoutError, TimeoutError):
                # The peer stopped reading (the send waits on full buffers): close it rather
                # than hold its backlog. The web server aborts a close nobody answers.
                client.close(protocol.CLOSE_SLOW, "not reading")
                await websocket.close(protocol.CLOSE_SLOW, "not reading")
                return


# --- the app ------------------------------------------------------------------------------------
def create_app(settings: Settings | None = None, on_ready: Ready | None = None) -> Starlette:
    """The server as an ASGI app. ``on_ready(hub)`` runs once the store is open."""
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = await Store.open(settings.database_url(), commit_window=settings.commit_window)
        hub = Hub(settings, store, make_broker(settings.broker))
        hub.base_url = settings.base_url()
        app.state.hub = hub
        await hub.start()
        if not (STATIC / PAGE_SCRIPT).is_file():
            log.warning("the web board is not built (npm run build): pages will say so")
        if on_ready is not None:
            await on_ready(hub)
        try:
            yield
        finally:
            await hub.stop()

    routes = [
        Route("/", page_lobby),
        Route("/play/{table}", page_table),
        Route("/join/{table}", page_table),
        Route("/watch/{table}", page_table),
        Route("/healthz", healthz),
        Route("/favicon.ico", favicon),
        Route("/api/info", api_info),
        Route("/api/tables", api_create, methods=["POST"]),
        Route("/api/tables/{table}/join", api_join, methods=["POST"]),
        Route("/api/tables/{table}/record", api_record),
        Route("/api/mine", api_mine, methods=["POST"]),
        WebSocketRoute("/ws", socket),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    middleware = [Middleware(CORSMiddleware, allow_origins=list(settings.origins),
                             allow_methods=["GET", "POST"],
                             allow_headers=["Content-Type", "Authorization"])]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.state.settings = settings
    app.state.lobby_limits = AddressLimits(settings.lobby_rate, settings.lobby_burst)
    app.state.sockets = 0
    app.state.max_sockets = settings.max_sockets or (
        (settings.max_connections or max_connections_default()) * 9 // 10)
    return app
