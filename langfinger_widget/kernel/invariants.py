"""Langfinger's own invariants, for the conformance checks' hook (``Game.check_invariants``).

Written apart from the loader's checks (load.check) on purpose: these count every card and
token afresh, so a mistake in the loader cannot hide one in the rules. Each failure raises
``AssertionError`` naming the ruling (explicit raises: they hold under ``python -O`` too).
"""

from __future__ import annotations

from collections import Counter

from .cards import FENCE_CARDS, LOOT_CARDS, TOKENS_PER_PLAYER, TOOLS, TOOLS_PER_TYPE, display_size
from .state import State


def _require(cond: bool, why: str) -> None:
    if not cond:
        raise AssertionError(why)


def conserved(s: State) -> None:
    """Every card once (R0.1-R0.3), three tokens a player (R1.4), no display too full (R1.1)."""
    tools: Counter[str] = Counter(s.city) + Counter(s.piles["tools"].draw)
    tools.update(s.piles["tools"].discard)
    for p in s.players:
        tools.update(p.hand)
        _require(all(n >= 0 for n in p.hand.values()), "a hand holds no negative count")
    _require(tools == Counter({t: TOOLS_PER_TYPE for t in TOOLS}), "R0.1: every tool once")
    loot = [*s.villa, *s.museum, *s.piles["loot"].draw, *s.piles["loot"].discard]
    for p in s.players:
        loot.extend(p.loot)
    _require(sorted(loot) == sorted(LOOT_CARDS), "R0.2: every loot card once")
    fences = [*s.harbor, *s.piles["fences"].draw, *s.piles["fences"].discard]
    _require(sorted(fences) == sorted(FENCE_CARDS), "R0.3: every fence once")
    for seat, p in enumerate(s.players):
        out = sum(x == seat for row in s.squares.values() for x in row)
        out += sum(x == seat for x in s.ruin_rates.values())
        _require(p.tokens + out == TOKENS_PER_PLAYER, "R1.4: three tokens a player")
    for place in ("city", "villa", "museum", "harbor"):
        _require(len(s.display(place)) <= display_size(place, s.num_players), "R1.1")
