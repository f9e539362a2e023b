"""The server's links (docs/server.md), read: where the server is and what the secret opens.

A link is ``BASE/play/TABLE#token`` (a seat's own), ``BASE/join/TABLE#invite`` (a seat
not yet taken) or ``BASE/watch/TABLE#key`` (a spectator). The secret sits after ``#``,
the part of an address a browser never sends to a server.

>>> link = parse("http://127.0.0.1:8000/join/Xk3v0n1RbQ2a#s3cret-invite-key-000000000000000")
>>> link.kind, link.table, link.base, link.socket_url
('join', 'Xk3v0n1RbQ2a', 'http://127.0.0.1:8000', 'ws://127.0.0.1:8000/ws?table=Xk3v0n1RbQ2a')
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from ..kernel.errors import BadArgument
from ..kernel.state import shown

KINDS = ("play", "join", "watch")


class LinkError(BadArgument):
    """A string that is not one of the server's seat, invite or spectator links."""


@dataclass(frozen=True)
class Link:
    base: str  # scheme://host:port and any path prefix before /play|join|watch
    kind: str  # play (a seat's token), join (an invite) or watch (a spectator key)
    table: str
    secret: str

    @property
    def socket_url(self) -> str:
        """The table's socket. It names the table (``?table=``) so that a balancer in front
        of many server processes can send all of a table's seats to one process (its
        owner), and the server checks the name against the hello's secret."""
        scheme, rest = self.base.split("://", 1)
        return f"{'wss' if scheme == 'https' else 'ws'}://{rest}/ws?table={quote(self.table)}"

    def __str__(self) -> str:
        return f"{self.base}/{self.kind}/{self.table}#{self.secret}"


SECRET_SHOWN = "…"  # what stands for a link's secret where the link is only shown


def masked(link: str) -> str:
    """``link`` with its secret (after ``#``) left out: what a board's state and a saved
    notebook may hold. The secret opens a seat; the full link is given only when asked."""
    head, sep, _ = link.partition("#")
    return f"{head}#{SECRET_SHOWN}" if sep else link


def parse(link: object) -> Link:
    """``link`` read, or :class:`LinkError` saying what a link looks like."""
    if isinstance(link, Link):
        return link
    if not isinstance(link, str):
        raise LinkError(f"a link is text such as http://HOST:PORT/join/TABLE#KEY, "
                        f"not {shown(link)}")
    parts = urlsplit(link.strip())
    segments = parts.path.rstrip("/").split("/")
    if (parts.scheme not in ("http", "https") or not parts.netloc or len(segments) < 3
            or segments[-2] not in KINDS or not segments[-1] or not parts.fragment):
        # The text may still hold a secret (a mistyped seat link): an error is no place for it.
        raise LinkError(f"not a Langfinger server link: {masked(link[:120])!r}; a link looks "
                        "like http://HOST:PORT/join/TABLE#KEY (an invite), /play/TABLE#TOKEN "
                        "(your seat) or /watch/TABLE#KEY (spectators)")
    prefix = "/".join(segments[:-2])
    return Link(f"{parts.scheme}://{parts.netloc}{prefix}", segments[-2], segments[-1],
                parts.fragment)
