"""A fixed, finite numbering of every Langfinger action (for RL action spaces).

The kernel's actions are keys (``rules.py``); learning libraries want one
integer per action, from a range that never changes. The table below gives
every legal key in every reachable position exactly one id, and back
(docs/envs.md lists it with its sizes):

==========  =====  ===================================================
block       size   one id per
==========  =====  ===================================================
place       5      place, in resolution order (R2.1)
pass        1      passing with the acting token (R3.1)
take_tools  20     multiset of 1 or 2 tools taken from the City (R4)
steal       6      Villa/Museum slot x scoundrel used or not (R5.1, R5.2, R7)
exchange    75     exchange square x multiset of tools given (R6.1)
sell        6,510  fence x set of 1 or 2 loot cards sold to it (R8.1, R8.2)
==========  =====  ===================================================

Why this is injective: a steal's payment follows from the slot's card and
the scoundrel flag, so ``(slot, scoundrel)`` names at most one legal steal;
every other block spells out its key whole. The sizes come from the
catalogue's fixed shape (R0): 5 tools, loot ``L01``-``L30`` and fences
``F01``-``F14`` in every deck (``cards.parse_deck``), displays of at most 3
loot cards (R1.1), at most 3 tools given at the Ruin (R6.1) and at most 2
cards in one sale (R0.3). The ids do not depend on which deck is loaded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Any

from ..kernel import cards, rules
from ..kernel.cards import PLACES, RATE_COUNTS, RUIN_RATES, TOOLS
from ..kernel.rules import Key
from ..kernel.state import State

MAX_TAKE = 2  # R4: two tools from the City, or the last one left
MAX_SALE = 2  # R0.3: a fence buys at most two cards of a kind in one sale
STEAL_SLOTS = max(max(cards.DISPLAY_SIZES[p]) for p in ("villa", "museum"))  # R1.1


# Every deck holds exactly the same ids (R0.2, R0.3, cards.parse_deck): the table is deck-free.
LOOT_IDS = tuple(sorted(cards.LOOT_CARDS))
FENCE_IDS = tuple(sorted(cards.FENCE_CARDS))


@dataclass(frozen=True)
class Block:
    """A contiguous run of ids for one action type."""

    name: str
    start: int
    keys: tuple[Key, ...]  # the key of each id in the block; steal keys leave ``pay`` empty

    @property
    def size(self) -> int:
        return len(self.keys)


def _tool_multisets(sizes: Sequence[int]) -> list[tuple[str, ...]]:
    return [c for n in sizes for c in combinations_with_replacement(TOOLS, n)]


def _sales() -> list[tuple[str, ...]]:
    return [c for n in range(1, MAX_SALE + 1) for c in combinations(LOOT_IDS, n)]


def _block_keys() -> list[tuple[str, list[Key]]]:
    return [
        ("place", [("place", p) for p in PLACES]),
        ("pass", [rules.PASS]),
        ("take_tools", [("take_tools", t) for t in _tool_multisets(range(1, MAX_TAKE + 1))]),
        ("steal", [("steal", slot, (), flag) for slot in range(STEAL_SLOTS)
                   for flag in (False, True)]),
        ("exchange", [("exchange", r, give) for r in RUIN_RATES
                      for give in _tool_multisets([RATE_COUNTS[r][0]])]),
        ("sell", [("sell", f, sold) for f in FENCE_IDS for sold in _sales()]),
    ]


class ActionTable:
    """Ids <-> kernel keys. Build it once (:func:`table`); it holds no game."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        start = 0
        for name, keys in _block_keys():
            self.blocks.append(Block(name, start, tuple(keys)))
            start += len(keys)
        self.size = start
        self._keys: list[Key] = [k for b in self.blocks for k in b.keys]
        self._ids = {_canonical(k): i for i, k in enumerate(self._keys)}

    def id_of(self, key: Key) -> int:
        """The id of a legal kernel key (``rules.legal_keys``); KeyError if it has none."""
        return self._ids[_canonical(key)]

    def legal(self, state: State) -> dict[int, Key]:
        """Every legal action now, id -> key, in ascending id order."""
        found = {self.id_of(k): k for k in rules.legal_keys(state)}
        return dict(sorted(found.items()))

    def template(self, action_id: int) -> Key:
        """The key an id stands for (a steal's ``pay`` is left empty: it depends on the card)."""
        return self._keys[action_id]

    def block_of(self, action_id: int) -> Block:
        for b in self.blocks:
            if b.start <= action_id < b.start + b.size:
                return b
        raise IndexError(f"action id {action_id} is outside 0..{self.size - 1}")

    def describe(self, action_id: int) -> str:
        """The id as readable text, e.g. ``exchange 2>3 give hammer+map``."""
        key = self._keys[action_id]
        kind = key[0]
        if kind == "place":
            return f"place {key[1]}"
        if kind == "take_tools":
            return f"take {'+'.join(key[1])}"
        if kind == "steal":
            return f"steal slot {key[1]}" + (" with scoundrel" if key[3] else "")
        if kind == "exchange":
            return f"exchange {key[1]} give {'+'.join(key[2])}"
        if kind == "sell":
            return f"sell {'+'.join(key[2])} to {key[1]}"
        return "pass"

    def action(self, action_id: int, state: State) -> dict[str, Any]:
        """The action dict an id stands for now (for error messages and logs)."""
        for i, key in self.legal(state).items():
            if i == action_id:
                return rules.key_action(key)
        key = self._keys[action_id]
        return rules.key_action(key if key[0] != "steal" else _steal_guess(key, state))


def _canonical(key: Key) -> Key:
    """A key without what its id leaves out (a steal's payment)."""
    return ("steal", key[1], (), key[3]) if key[0] == "steal" else key


def _steal_guess(key: Key, state: State) -> Key:
    """A steal id as a full key, paying what the card asks (for an error message)."""
    acting = rules.acting_square(state)
    if acting is None or acting[0] not in ("villa", "museum"):
        return key
    display = state.display(acting[0])
    if key[1] >= len(display):
        return key
    pay = list(cards.LOOT_CARDS[display[key[1]]].tools)
    tool = state.players[acting[2]].tool
    if key[3] and tool in pay:
        pay.remove(tool)  # R5.2: the scoundrel stands in for one tool of its type
    return ("steal", key[1], rules.tool_sort(pay), key[3])


@cache
def table() -> ActionTable:
    """The one action table (it depends on nothing that changes)."""
    return ActionTable()
