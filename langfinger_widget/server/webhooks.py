"""A seat's webhook: an HTTP POST to a URL its player gives, when it becomes their turn.

The POST says which table and seat and at which sequence number, and where
to play: nothing hidden, no token. A server must not become a tool for
reaching machines behind it, so a webhook may only go to a public address
(checked again when it is sent: the name is resolved once, and the
address checked is the one connected to) unless the
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


# IPv6 forms that carry an IPv4 address some network translates or tunnels to: where they
# lead is the IPv4 address inside, which ``is_global`` does not look at.
EMBEDDING = tuple(ipaddress.IPv6Network(n) for n in (
    "::/96",  # IPv4-compatible (deprecated), e.g. [::127.0.0.1]
    "64:ff9b::/96",  # NAT64, the well-known prefix
    "64:ff9b:1::/48",  # NAT64, local-use
    "2002::/16",  # 6to4
    "2001::/32",  # Teredo
))


def public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether a webhook may go to ``address``: a global one that embeds no other."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return public(address.ipv4_mapped)
        if any(address in net for net in EMBEDDING):
            return False
    return address.is_global


async def resolve(host: str, port: int, allow_private: bool) -> str | None:
    """The one address a webhook to ``host`` goes to, or None if it may go nowhere.

    The name is resolved once: the address checked is the address connected to (a name
    resolved again for the connection could answer a private address the second time).
    """
    try:
        addresses = [ipaddress.ip_address(host)]
    except ValueError:
        loop = asyncio.get_running_loop()
        try:
            infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError:
            return None
        addresses = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]
    if not addresses or not (allow_private or all(public(a) for a in addresses)):
        return None
    return str(addresses[0])


async def post(url: str, payload: dict[str, Any], allow_private: bool) -> bool:
    """POST ``payload`` as JSON; True if the receiver answered 2xx. Failures are logged."""
    import httpx  # the [server] extra

    parts = urlsplit(url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    address = await resolve(host, port, allow_private)
    if address is None:
        log.warning("webhook to %s refused: unresolved, or not a public address", host)
        return False
    literal = f"[{address}]" if ":" in address else address
    target = parts._replace(netloc=f"{literal}:{port}").geturl()
    # The name goes in the Host header and, for https, in the TLS handshake, where the
    # certificate is checked against it; the connection goes to the address checked.
    # trust_env=False: no proxy from the environment, which would resolve the name again.
    try:
        async with httpx.AsyncClient(timeout=TIMEOUT, follow_redirects=False,
                                     trust_env=False) as client:
            response = await client.post(
                target, json=payload, extensions={"sni_hostname": host},
                headers={"Host": parts.netloc, "User-Agent": "langfinger-server"})
    except httpx.HTTPError as exc:
        log.warning("webhook to %s failed: %s", host, exc)
        return False
    return response.is_success
