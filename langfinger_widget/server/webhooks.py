"""A seat's webhook: an HTTP POST to a URL its player gives, when it becomes their turn.

The POST says which table and seat and at which sequence number, and where
to play: nothing hidden, no token. A server must not become a tool for
reaching machines behind it, so a webhook may only go to a public address
(checked again when it is sent, after the name is resolved) unless the
server was started with ``--allow-private-webhooks`` (tests, a home network).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
from typing import Any
from urllib.parse import urlsplit

from .room import Refusal

log = logging.getLogger("langfinger.server")

MAX_URL = 2000
TIMEOUT = 5.0


def check_url(url: Any) -> str | None:
    """``url`` if it may be a webhook (http or https, a host, no credentials), None to clear."""
    if url is None or url == "":
        return None
    if not isinstance(url, str) or len(url) > MAX_URL or not url.isprintable():
        raise Refusal("bad_request", f"a webhook is an http(s) URL of at most {MAX_URL} "
                                     "characters")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refusal("bad_request", "a webhook is an http:// or https:// URL with a host")
    if parts.username or parts.password:
        raise Refusal("bad_request", "a webhook URL may not hold a user name or password")
    return url


async def _public(host: str, port: int) -> bool:
    """Whether every address ``host`` resolves to is a public one."""
    loop = asyncio.get_running_loop()
    try:
        infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError:
        return False
    addresses = {str(info[4][0]) for info in infos}
    return bool(addresses) and all(ipaddress.ip_address(a.split("%")[0]).is_global
                                   for a in addresses)


async def post(url: str, payload: dict[str, Any], allow_private: bool) -> bool:
    """POST ``payload`` as JSON; True if the receiver answered 2xx. Failures are logged."""
    import httpx  # the [server] extra

    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    if not allow_private and not await _public(parts.hostname or "", port):
        log.warning("webhook to %s refused: not a public address", parts.hostname)
        return False
    try:
        async with httpx.AsyncClient(timeout=TIMEOUT, follow_redirects=False) as client:
            response = await client.post(url, json=payload,
                                         headers={"User-Agent": "langfinger-server"})
    except httpx.HTTPError as exc:
        log.warning("webhook to %s failed: %s", parts.hostname, exc)
        return False
    return response.is_success
