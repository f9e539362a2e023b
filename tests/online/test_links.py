"""Reading the server's links (net/links.py): every kind, and clear refusals."""

from __future__ import annotations

import pytest

from langfinger_widget.net.links import LinkError, parse


@pytest.mark.parametrize("kind", ["play", "join", "watch"])
def test_each_kind_of_link_is_read(kind: str) -> None:
    link = parse(f"https://games.example.org/lf/{kind}/T4b#s3cret")
    assert (link.base, link.kind, link.table, link.secret) == (
        "https://games.example.org/lf", kind, "T4b", "s3cret")
    assert link.socket_url == "wss://games.example.org/lf/ws?table=T4b"
    assert str(link) == f"https://games.example.org/lf/{kind}/T4b#s3cret"


@pytest.mark.parametrize("bad", [
    "http://127.0.0.1:8000/join/T",          # no secret: the part after # is the key
    "http://127.0.0.1:8000/steal/T#k",       # not a kind of link
    "ftp://127.0.0.1/join/T#k",
    "join/T#k",
    42,
])
def test_anything_else_is_refused_with_what_a_link_looks_like(bad: object) -> None:
    with pytest.raises(LinkError, match="join/TABLE#KEY"):
        parse(bad)
    with pytest.raises(ValueError):  # a BadArgument, as any bad argument
        parse(bad)
