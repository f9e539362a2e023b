"""``langfinger serve``: host games for people at other machines.

    langfinger serve                      # http://127.0.0.1:8000, tables kept per user
    langfinger serve --new 2              # ... and a 2-player table: your link and the invite
    langfinger serve --game crooks --new 3   # ... a table of another game (lf.games.names())
    langfinger serve --host 0.0.0.0 --public-url https://games.example.org
    langfinger serve --database postgresql://lf@db/lf --broker redis://cache:6379/0

``python -m langfinger_widget.server ...`` is the same as ``langfinger serve ...``.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import math
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .. import games
from ..errors import BadArgument
from .collector import Collector
from .config import Settings, default_data_dir
from .owners import LEASE_SECONDS
from .thinkers import MAX_PROCESSES, check_processes

EXTRA = "pip install 'langfinger-widget[server]'"


def _bot(text: str) -> tuple[int, str]:
    seat, _, level = text.partition("=")
    if not seat.isdigit() or not level:
        raise argparse.ArgumentTypeError(f"--bot is SEAT=LEVEL (e.g. 1=hard), not {text!r}")
    return int(seat), level


def _window_ms(text: str) -> float:
    try:
        ms = float(text)
    except ValueError:
        ms = math.nan
    if not 0.0 <= ms <= 1000.0:  # NaN fails too
        raise argparse.ArgumentTypeError(
            f"--commit-window is milliseconds from 0 to 1000, not {text!r}")
    return ms


def _processes(text: str) -> int:
    try:
        return check_processes(int(text))  # the one rule, the Settings' too
    except (ValueError, BadArgument):
        raise argparse.ArgumentTypeError(
            f"--bot-processes is a whole number from 0 to {MAX_PROCESSES}, not {text!r}"
        ) from None


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="langfinger", description="Langfinger tools.")
    commands = top.add_subparsers(dest="command", required=True)
    serve = commands.add_parser(
        "serve", help="host online tables: a lobby, invite links and the web board",
        description="Host tables of any of the games (Langfinger, Crooks, ...) that people "
                    "join from their own browsers.")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only; "
                            "0.0.0.0 for every network)")
    serve.add_argument("--port", type=int, default=8000, help="port (0: any free one)")
    serve.add_argument("--data", type=Path, default=None,
                       help=f"directory of the SQLite database (default {default_data_dir()})")
    serve.add_argument("--database", default=None,
                       help="a database URL instead of SQLite, e.g. postgresql://user@host/db")
    serve.add_argument("--broker", default=None,
                       help="redis://host:port/db: tells the other server processes of the "
                            "same database which tables moved on")
    serve.add_argument("--owner-lease", type=float, default=LEASE_SECONDS, metavar="SECONDS",
                       help="with --broker: a table's owner process that stops renewing "
                            "(died) loses the table to another process after this long")
    serve.add_argument("--commit-window", type=_window_ms, default=2.0, metavar="MS",
                       help="while moves arrive together, wait up to this many milliseconds "
                            "for more to share one commit (one fsync); on a quiet server a "
                            "move never waits (default 2; 0: never wait)")
    serve.add_argument("--bot-processes", type=_processes, default=None, metavar="N",
                       help="worker processes the bots and hints think in, at a lower "
                            "priority, so that their searches never hold up people's moves "
                            "(default: half the cores the server may use, at least 1, at most "
                            "8; 0: they think on the server's event loop, a slice at a time)")
    serve.add_argument("--origin", action="append", default=[], metavar="URL",
                       help="a page origin allowed to connect besides the server's own "
                            "(e.g. a JupyterLite site); may be given again")
    serve.add_argument("--public-url", default=None,
                       help="the server's address as people reach it (behind a proxy), "
                            "used in the links it hands out")
    serve.add_argument("--allow-private-webhooks", action="store_true",
                       help="let webhooks reach private and loopback addresses")
    serve.add_argument("--rate", type=float, default=30.0,
                       help="messages a second one connection may send on average")
    serve.add_argument("--burst", type=int, default=60,
                       help="messages one connection may send at once before the rate applies")
    serve.add_argument("--sockets-per-token", type=int, default=8,
                       help="sockets one seat token may hold open at once")
    serve.add_argument("--header-timeout", type=float, default=10.0, metavar="SECONDS",
                       help="seconds a client has to send a request's headers, and again "
                            "its body")
    serve.add_argument("--max-connections", type=int, default=None,
                       help="connections at once (default: the open-file limit less 64); "
                            "nine tenths of them may be WebSockets")
    serve.add_argument("--lobby-rate", type=float, default=2.0,
                       help="lobby calls a second one address may make on average "
                            "(loopback, e.g. a proxy in front, is not limited)")
    serve.add_argument("--lobby-burst", type=int, default=60,
                       help="lobby calls one address may make at once")
    serve.add_argument("--expire-waiting", type=float, default=7.0, metavar="DAYS",
                       help="delete a waiting table nobody joined this many days after it "
                            "was made (0: never)")
    serve.add_argument("--keep-finished", type=float, default=0.0, metavar="DAYS",
                       help="delete a finished game this many days after its end "
                            "(default 0: keep every finished game)")
    serve.add_argument("--new", type=int, metavar="PLAYERS", default=None,
                       help="create a table for PLAYERS (2-5) at start: print your seat's "
                            "link and the invites to send")
    serve.add_argument("--game", default="langfinger", choices=games.names(),
                       help="with --new: the game the table plays (default langfinger)")
    serve.add_argument("--bot", type=_bot, action="append", default=[], metavar="SEAT=LEVEL",
                       help="with --new: a bot at SEAT (easy, medium, hard, expert)")
    serve.add_argument("--time", type=float, default=None, metavar="SECONDS",
                       help="with --new: seconds a decision (R13.3)")
    serve.add_argument("--log-level", default="warning",
                       choices=["critical", "error", "warning", "info", "debug"])
    return top


def settings_of(args: argparse.Namespace) -> Settings:
    processes = {} if args.bot_processes is None else {"bot_processes": args.bot_processes}
    return Settings(host=args.host, port=args.port, data=args.data, database=args.database,
                    broker=args.broker, origins=tuple(args.origin), public_url=args.public_url,
                    allow_private_webhooks=args.allow_private_webhooks, rate=args.rate,
                    burst=args.burst, lobby_rate=args.lobby_rate, lobby_burst=args.lobby_burst,
                    sockets_per_token=args.sockets_per_token,
                    header_timeout=args.header_timeout, body_timeout=args.header_timeout,
                    max_connections=args.max_connections, owner_lease=args.owner_lease,
                    commit_window=args.commit_window / 1000.0,
                    expire_waiting=_days(args.expire_waiting),
                    keep_finished=_days(args.keep_finished), **processes)


def _days(days: float) -> float | None:
    """Days as seconds; 0 (or less) is never."""
    return days * 86400.0 if days > 0 else None


def _new_table(args: argparse.Namespace) -> dict[str, Any] | None:
    if args.new is None:
        return None
    bots = dict(args.bot)
    seats = [{"kind": "bot", "level": bots[s]} if s in bots else {"kind": "person"}
             for s in range(args.new)]
    join = next((s for s in range(args.new) if s not in bots), None)
    return {"game": args.game, "players": args.new, "seats": seats, "join": join,
            "time": args.time}


class HideFrames(logging.Filter):
    """Log a WebSocket frame's kind and size, never its content: at ``--log-level debug``
    the web server logs every frame, and a hello carries a seat token, a state a hand."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg in ("< %s", "> %s") and isinstance(record.args, tuple) and record.args:
            frame = record.args[0]
            opcode, data = getattr(frame, "opcode", None), getattr(frame, "data", None)
            name = getattr(opcode, "name", "")
            if name in ("TEXT", "BINARY", "CONT") and isinstance(data, (bytes, bytearray)):
                record.msg = f"{record.msg[0]} %s [%d bytes]"
                record.args = (name, len(data))
        return True


def tune_gc() -> Collector:
    """Once started, on the running loop: the cyclic collector on the loop's clock
    (server/collector.py): pauses of a few milliseconds instead of tens to hundreds."""
    collector = Collector()
    collector.start()
    return collector


def serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from . import lobby
        from .app import create_app
        from .connections import max_connections_default, raise_fd_limit, uvicorn_config
        from .hub import Hub
    except ImportError as exc:
        print(f"langfinger serve needs the server extra ({exc.name} is missing): {EXTRA}",
              file=sys.stderr)
        return 2
    # Before anything reads the limit: --max-connections' default follows the raised one.
    files = raise_fd_limit()
    settings = settings_of(args)
    connections = settings.max_connections or max_connections_default()
    limits = f"{connections} connections"
    if files is not None:
        before, after = files
        limits += (f", open files {before} -> {after}" if after != before
                   else f", open files {after}")
    family = socket.AF_INET6 if ":" in settings.host else socket.AF_INET
    # proto=IPPROTO_TCP: asyncio turns Nagle off (TCP_NODELAY) only on sockets that say they
    # are TCP; without it a small answer behind a large update waits ~40 ms for an ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((settings.host, settings.port))
    except OSError as exc:
        print(f"cannot listen on {settings.host}:{settings.port}: {exc}", file=sys.stderr)
        return 1
    settings.port = sock.getsockname()[1]
    # Listening from here on, before the start-up below prints the address: a client that
    # connects as soon as it reads the address waits in the backlog until the server
    # accepts, instead of being refused (uvicorn listens only after its start-up).
    sock.listen(2048)
    new = _new_table(args)

    async def ready(hub: Hub) -> None:
        tune_gc()
        base = settings.base_url()
        where = settings.database or settings.data_dir()
        print(f"Langfinger server: {base}/  (tables in {where}; {limits})", flush=True)
        if new is not None:
            made = await lobby.create(hub, new, base)
            if "play" in made:
                print(f"Your seat (keep it to come back): {made['play']}")
            for seat, link in made["invites"].items():
                if str(made.get("seat")) != seat:
                    print(f"Invite for seat {seat} (send it): {link}")
            print(f"Spectators: {made['watch']}", flush=True)

    config = uvicorn_config(create_app(settings, ready), settings, args.log_level)
    logging.getLogger("uvicorn.error").addFilter(HideFrames())  # the WebSocket's logger
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.Server(config).run(sockets=[sock])
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "serve":
        return serve(args)
    return 2  # pragma: no cover (argparse requires a command)


def run_module() -> None:
    """``python -m langfinger_widget.server ARGS``: ``langfinger serve ARGS``."""
    sys.exit(main(["serve", *sys.argv[1:]]))


__all__ = ["main", "run_module", "serve", "tune_gc"]

