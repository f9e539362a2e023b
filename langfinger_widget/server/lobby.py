"""The lobby: create a table, take a seat by its invite, list one's tables, fetch a record.

The REST calls of docs/server.md, over the hub's one way of changing a table
(a seat taken is a change like a move: committed, then shown).
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Mapping
from typing import Any

from . import kernel, tokens
from .hub import Hub, Live
from .room import (
    BOT,
    OPEN,
    OVER,
    PERSON,
    TAKEN,
    WAITING,
    Change,
    Refusal,
    Room,
    check_options,
    check_seats,
    said,
)
from .store import TableRow

MIN_KEY = 22  # characters of a join's key: 128 bits as URL-safe base64
MAX_MINE = 100  # tokens one "my tables" request may ask about
# Seeds from ~60 random bits: no deal can be found by trying seeds (10**18 deals at any
# speed). Records read seeds of up to 18 digits, so a finished game's record replays.
SEED_BOUND = 10**18


def links(base: str, table_id: str) -> dict[str, str]:
    return {"join": f"{base}/join/{table_id}", "watch": f"{base}/watch/{table_id}",
            "play": f"{base}/play/{table_id}"}


async def create(hub: Hub, body: Mapping[str, Any], base: str,
                 position: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A new table (see docs/server.md); ``position`` (Python only) starts it from a
    position instead of a fresh deal."""
    options = check_options(body)
    spec = options.spec
    seat_rows = check_seats(body.get("seats"), options.players, spec)
    join = body.get("join")
    if join is not None and (isinstance(join, bool) or not isinstance(join, int)
                             or not 0 <= join < options.players
                             or seat_rows[join].kind != PERSON):
        raise Refusal("bad_request", f"join must be a person's seat, not {said(join)}")
    if position is not None:
        setup: dict[str, Any] = {"position": dict(position)}
    elif spec.name == kernel.DEFAULT_GAME:
        setup = {"players": options.players, "seed": secrets.randbelow(SEED_BOUND),
                 "names": [s.name for s in seat_rows], "variant": options.variant}
    else:
        setup = {"players": options.players, "seed": secrets.randbelow(SEED_BOUND),
                 "options": options.game_options()}
    if spec.name != kernel.DEFAULT_GAME:
        setup["game"] = spec.name  # Langfinger's setups name no game, as before there were others
    kernel_check = spec.Game.from_dict(dict(position)) if position is not None else None
    if kernel_check is not None and kernel_check.num_players != options.players:
        raise Refusal("bad_request", "the position's players and the table's differ")
    invites = {}
    for row in seat_rows:
        if row.kind == PERSON:
            invites[row.seat] = tokens.new_secret()
            row.invite_hash = tokens.digest(invites[row.seat])
    spectator = tokens.new_secret()
    now = time.time()
    table_id = tokens.new_table_id()
    await hub.store.create(TableRow(table_id, 0, setup, options.to_dict(), WAITING, None,
                                    False, None, tokens.digest(spectator), now, now),
                           seat_rows)
    live = await hub.live(table_id)
    assert live is not None
    where = links(base, table_id)
    reply: dict[str, Any] = {
        "table": table_id,
        "options": options.to_dict(),
        "invites": {str(s): f"{where['join']}#{secret}" for s, secret in invites.items()},
        "watch": f"{where['watch']}#{spectator}",
        "spectator_key": spectator,
        "invite_keys": {str(s): secret for s, secret in invites.items()},
    }
    if join is not None:
        reply.update(await take_seat(hub, live, join, base))
    return reply


class _TakenAlready(Exception):
    """The seat is taken with the very token asked for: a retried join."""


async def take_seat(hub: Hub, live: Live, seat: int, base: str,
                    token: str | None = None) -> dict[str, Any]:
    """Take an open seat with ``token`` (a fresh one if None). A seat already taken with
    this very token (a retried join) is answered as taken now, and nothing changes."""
    token = token or tokens.new_secret()
    token_hash = tokens.digest(token)

    def take(room: Room) -> Change:
        s = room.seats[seat]
        if s.status == TAKEN and tokens.same_digest(s.token_hash, token_hash):
            raise _TakenAlready
        if s.kind != PERSON or s.status != OPEN:
            raise Refusal("seat_taken", f"seat {seat} is taken; open your own seat's link")
        return room.seat_change({seat: {"status": TAKEN, "token_hash": token_hash}})

    with contextlib.suppress(_TakenAlready):
        await hub.commit(live, take)
    return {"seat": seat, "token": token,
            "play": f"{links(base, live.room.id)['play']}#{token}"}


async def join(hub: Hub, table_id: str, body: Mapping[str, Any], base: str) -> dict[str, Any]:
    """Take the seat an invite opens; the seat token is shown this once."""
    invite = body.get("invite")
    live = await hub.live(table_id) if len(table_id) <= 32 else None
    if live is None or not tokens.looks_like_secret(invite):
        raise Refusal("not_found", "no such table or invite")
    matches = [s.seat for s in live.room.seats if tokens.matches(str(invite), s.invite_hash)]
    if not matches:
        raise Refusal("not_found", "no such table or invite")
    key = body.get("key")
    if key is not None and not (tokens.looks_like_secret(key) and len(key) >= MIN_KEY):
        raise Refusal("bad_request", f"key is the client's own random string of {MIN_KEY} "
                                     "to 128 characters, the same only for a retry")
    token = None if key is None else tokens.for_join(str(invite), key)
    reply = await take_seat(hub, live, matches[0], base, token)
    return {"table": table_id, **reply}


async def mine(hub: Hub, token_list: Any) -> list[dict[str, Any]]:
    """The tables these seat tokens sit at: status, whose turn, round, money, deadline."""
    if not isinstance(token_list, list) or len(token_list) > MAX_MINE:
        raise Refusal("bad_request", f"tokens is a list of at most {MAX_MINE} seat tokens")
    hashes = [tokens.digest(t) for t in token_list if tokens.looks_like_secret(t)]
    rows = []
    for table_id, seat in await hub.store.seats_of_tokens(hashes):
        live = await hub.live(table_id)
        if live is None:
            continue
        await hub.current(live)
        info = live.room.info(live.online())
        rows.append({**info, "seat": seat,
                     "your_turn": seat in live.room.people_to_decide()})
    rows.sort(key=lambda r: (not r["your_turn"], r["status"] == OVER, r["id"]))
    return rows


async def record(hub: Hub, table_id: str, key: str) -> str:
    """The game's record: a seat's own at any time, the whole game once it is over."""
    live = await hub.live(table_id) if len(table_id) <= 32 else None
    if live is None or not tokens.looks_like_secret(key):
        raise Refusal("not_found", "no such table, or no key for it")
    room = (await hub.current(live)).room
    bots = {s.seat: s.level for s in room.seats if s.kind == BOT and s.level}
    digest = tokens.digest(key)
    seat = next((s.seat for s in room.seats if tokens.same_digest(digest, s.token_hash)),
                None)
    game: Any = room.game
    langfinger = room.is_langfinger()
    if room.status == OVER and (seat is not None or tokens.same_digest(
            digest, room.spectator_hash)):
        if langfinger:
            return str(game.record(None, bots=bots))
        try:
            return kernel.write_game(game, bots=bots)
        except kernel.LangfingerError as exc:  # a table started from a position: no deal
            raise Refusal("not_found", f"no record of this table: {exc}") from None
    if seat is not None:
        if not langfinger:  # records/any_game.py writes whole games only, so far
            raise Refusal("not_over", f"a {room.spec.title} record is the whole game's, given "
                                      "once the game is over (a seat's own record mid-game "
                                      "is Langfinger's only)")
        return str(game.record(seat, bots=bots))
    if tokens.same_digest(digest, room.spectator_hash):
        raise Refusal("not_over", "the whole record is shown once the game is over")
    raise Refusal("not_found", "no such table, or no key for it")
