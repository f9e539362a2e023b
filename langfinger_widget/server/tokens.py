"""Secrets of a table: seat tokens, invites and spectator keys.

Each is 256 random bits from the operating system (``secrets``), shown once
to the person it belongs to and stored only as a SHA-256 digest: a copy of
the database lets nobody act for a seat. The digest is the lookup key (a
preimage of a random 256-bit secret cannot be guessed, so the lookup's
timing says nothing useful) and every comparison of secrets is in constant
time (``hmac.compare_digest``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

SECRET_BYTES = 32  # 256 bits; the issue asks for at least 128
TABLE_ID_BYTES = 9  # 72 bits, 12 characters: a table's name in links, not a secret


def new_secret() -> str:
    """A fresh secret: 43 URL-safe characters."""
    return secrets.token_urlsafe(SECRET_BYTES)


def new_table_id() -> str:
    return secrets.token_urlsafe(TABLE_ID_BYTES)


def digest(secret: str) -> str:
    """What is stored of a secret (hex SHA-256, under this server's own label)."""
    return hashlib.sha256(b"langfinger-secret:" + secret.encode("utf-8", "replace")).hexdigest()


def matches(secret: str, stored: str | None) -> bool:
    """Whether ``secret`` is the one whose digest is ``stored``, compared in constant time."""
    if not stored:
        return False
    return hmac.compare_digest(digest(secret), stored)


def looks_like_secret(value: object) -> bool:
    """A cheap shape check before any lookup: a string of the length secrets have."""
    return isinstance(value, str) and 16 <= len(value) <= 128 and value.isascii()


def same_digest(a: str | None, b: str | None) -> bool:
    """Whether two stored digests are one and the same (constant time; None matches nothing)."""
    return bool(a) and bool(b) and hmac.compare_digest(a or "", b or "")


def for_join(invite: str, key: str) -> str:
    """The seat token a join with this invite and this client's key hands out: the same for
    a retry, so a join whose answer was lost is asked again, not lost with its seat. Only
    the invite and the key together make it; the key is the client's own fresh secret."""
    raw = hashlib.sha256(b"langfinger-join:" + invite.encode("utf-8", "replace") + b"\n"
                         + key.encode("utf-8", "replace")).digest()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")
