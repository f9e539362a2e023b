"""What one client address may ask of the lobby: a token bucket an address.

The lobby's calls each cost a database round trip (a table made, a seat taken),
so each address has a bucket of its own. Loopback is not limited: it is this
machine's own scripts, or a proxy in front, which sees the real addresses and
must limit by them itself (every request through it comes from one address here).
"""

from __future__ import annotations

import ipaddress

from .kernel import TokenBucket

MAX_ADDRESSES = 10_000  # buckets kept; past this, the idle ones are forgotten first


def is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


class AddressLimits:
    """``rate`` calls a second an address, in bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: int, max_addresses: int = MAX_ADDRESSES) -> None:
        self.rate = rate
        self.burst = burst
        self.max_addresses = max_addresses
        self._buckets: dict[str, TokenBucket] = {}

    def allow(self, address: str | None, now: float) -> bool:
        if address is None or is_loopback(address):
            return True
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= self.max_addresses:
                self._forget(now)
            bucket = self._buckets[address] = TokenBucket(self.rate, self.burst)
        return bucket.take(now)

    def _forget(self, now: float) -> None:
        """Drop the buckets that are full again (forgetting them changes nothing), and if
        that is not enough the older half: memory stays bounded whoever asks."""
        full = self.burst / self.rate if self.rate > 0 else float("inf")
        for address, bucket in list(self._buckets.items()):
            if bucket.stamp is not None and now - bucket.stamp >= full:
                del self._buckets[address]
        if len(self._buckets) >= self.max_addresses:
            for address in list(self._buckets)[: len(self._buckets) // 2 + 1]:
                del self._buckets[address]
