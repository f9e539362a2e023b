"""The wire: JSON messages over one WebSocket a client (docs/server.md).

Every message the server sends carries ``"v"`` (the protocol's version) and
``"seq"`` (the table's sequence number). A client says ``hello`` first, with
its seat token or a spectator key, and then sends intents, each with an
``id`` larger than the one before: a message replayed or delivered out of
order is refused. Limits guard the server: a message's size and a
per-connection rate.
"""

from __future__ import annotations

import json
import math
from typing import Any

from .kernel import TokenBucket
from .room import Refusal

VERSION = 1
PROTOCOL = f"langfinger-online/{VERSION}"
# What one message from a client may weigh: an intent is a few hundred bytes. Larger frames
# than MAX_FRAME are cut off by the web server itself (close code 1009).
MAX_MESSAGE = 16 * 1024
MAX_FRAME = 64 * 1024
INTENTS = ("act", "why", "undo", "hint", "sync", "ping", "stand_in", "return", "resign",
           "leave", "webhook")
MAX_ECHO = 1024  # bytes of a client's value a reply may quote back (an action is ~100)
MAX_ID = 2**53 - 1  # ids stay exact in JavaScript numbers

# Close codes (4000-4999 are the application's own).
CLOSE_TRY_LATER = 1013  # the standard "try again later": the server is full
CLOSE_UNAUTHORIZED = 4401
CLOSE_ORIGIN = 4403
CLOSE_HELLO_TIMEOUT = 4408
CLOSE_TOO_MANY = 4409
CLOSE_SLOW = 4413  # the client stopped reading: its backlog was dropped
CLOSE_REVOKED = 4410
CLOSE_FLOOD = 4429


def out(kind: str, seq: int | None, **fields: Any) -> dict[str, Any]:
    """A message from the server: versioned, with the table's sequence number."""
    return {"v": VERSION, "kind": kind, "seq": seq, **fields}


def error(code: str, message: str, seq: int | None = None, msg_id: Any = None
          ) -> dict[str, Any]:
    return out("error", seq, code=code, error=message, id=msg_id)


def encode_pure(message: dict[str, Any]) -> str:
    """:func:`encode` without msgspec: the standard library's JSON, the same content."""
    return json.dumps(message, separators=(",", ":"), allow_nan=False, sort_keys=True)


try:  # the [server] extra's compiled encoder: ~9x faster on a seat's update; same content
    import msgspec

    _fast = msgspec.json.Encoder(order="sorted").encode

    def _fast_encode_bytes(message: dict[str, Any]) -> bytes:
        try:
            return _fast(message)
        except UnicodeEncodeError:  # a lone surrogate a client sent (JSON allows "\ud800")
            return encode_pure(message).encode()  # escapes it, as JSON may

    def _fast_encode(message: dict[str, Any]) -> str:
        return _fast_encode_bytes(message).decode()

    FAST_JSON = True
except ImportError:  # pragma: no cover (the pure fallback, e.g. in Pyodide)
    def _fast_encode_bytes(message: dict[str, Any]) -> bytes:
        return encode_pure(message).encode()

    _fast_encode = encode_pure
    FAST_JSON = False


def encode(message: dict[str, Any]) -> str:
    """Compact JSON with sorted keys: the bytes depend on the content only, never on the
    order in which a dict happened to be filled (which could follow the history of hidden
    cards). Numbers are finite by construction (a hint's value is checked where it is made).

    With msgspec installed (the ``[server]`` extra) it encodes, ~9x faster than ``json``;
    its bytes differ from ``json.dumps``'s only in spelling (UTF-8 where ``json`` writes
    ``\\u`` escapes), and a server uses one encoder for every frame.
    """
    return _fast_encode(message)


def encode_bytes(message: dict[str, Any]) -> bytes:
    """:func:`encode` as the UTF-8 bytes a text frame carries (no decoding and encoding
    again on the way to the socket)."""
    return _fast_encode_bytes(message)


class Frame:
    """A message encoded once, to be sent as it is to every client it suits."""

    __slots__ = ("data", "kind")

    def __init__(self, kind: str, data: bytes) -> None:
        self.kind = kind
        self.data = data  # UTF-8 JSON

    @property
    def text(self) -> str:
        return self.data.decode()

    @classmethod
    def of(cls, message: dict[str, Any]) -> Frame:
        return cls(message["kind"], encode_bytes(message))


def echo(value: Any) -> Any:
    """A client's value to quote back in a reply, or None if it is too large to: an answer
    is never a multiple of its request (JSON escapes make a character up to 12 bytes)."""
    try:
        return value if len(encode(value)) <= MAX_ECHO else None
    except (TypeError, ValueError, RecursionError):
        return None


def finite(value: float) -> float | None:
    """A number JSON can carry (None for NaN and the infinities)."""
    return value if math.isfinite(value) else None


def parse(frame: str | bytes | None) -> dict[str, Any]:
    """A client's frame as a message, or :class:`Refusal` saying what is wrong with it."""
    if frame is None or isinstance(frame, bytes):
        raise Refusal("bad_message", "messages are JSON text frames; binary frames are refused")
    # The limit is on bytes: a character takes up to 4 in UTF-8 (only count when it matters).
    size = len(frame) if len(frame) * 4 <= MAX_MESSAGE else len(
        frame.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE:
        raise Refusal("too_big", f"a message may be at most {MAX_MESSAGE} bytes, "
                                 f"this one has {size}")
    try:
        message = json.loads(frame)
    except (ValueError, RecursionError) as exc:
        raise Refusal("bad_json", f"not JSON: {str(exc)[:120]}") from None
    if not isinstance(message, dict):
        raise Refusal("bad_message", f"a message is a JSON object, not {type(message).__name__}")
    version = message.get("v", VERSION)
    if version != VERSION:
        raise Refusal("version", f"this server speaks protocol version {VERSION}, not "
                                 f"{str(version)[:20]!r}")
    return message


def check_intent(message: dict[str, Any], last_id: int) -> int:
    """The intent's ``id``, if its kind is known and the id comes after ``last_id``."""
    kind = message.get("kind")
    if kind not in INTENTS:
        raise Refusal("unknown_kind", f"unknown message kind {str(kind)[:40]!r}; expected one "
                                      f"of {list(INTENTS)}")
    msg_id = message.get("id")
    if isinstance(msg_id, bool) or not isinstance(msg_id, int) or not 0 < msg_id <= MAX_ID:
        raise Refusal("bad_id", "every intent carries an id: a whole number from 1, larger "
                                "than the id of the intent before")
    if msg_id <= last_id:
        raise Refusal("replayed", f"id {msg_id} is not after {last_id}: a replayed or "
                                  "out-of-order message is refused")
    return msg_id


class RateLimit(TokenBucket):
    """A connection's limit: ``rate`` messages a second on average, bursts up to ``burst``.

    ``refused`` counts the messages refused lately: it grows by one a refusal and
    wears off at a tenth of the rate, so a client that keeps sending faster than the rate
    (even now and then let through) runs it up, and one burst too many wears off.
    """

    def __init__(self, rate: float, burst: int) -> None:
        super().__init__(rate, burst)
        self.refused = 0.0
        self.warned = False  # the client was told it is over the limit

    def allow(self, now: float) -> bool:
        elapsed = self.refill(now)
        self.refused = max(0.0, self.refused - elapsed * self.rate / 10)
        if self.take(now):
            return True
        self.refused += 1.0
        return False
