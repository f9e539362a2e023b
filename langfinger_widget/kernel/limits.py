"""How much a message from a page may hold: a size and a nesting depth, checked before it is read.

A message arrives already parsed (a dict from the comm's JSON). Before the
widget reads it, :func:`too_big` walks it once, without recursion, counting
what its JSON takes (brackets, commas, keys, numbers, strings) and stopping as
soon as the count passes the cap: a message of 33 MiB costs as much to refuse
as one just over the cap, and a list nested 100,000 deep is refused at depth
:data:`MAX_MESSAGE_DEPTH` without a ``RecursionError``. The widget uses it for
every intent; a server would use it for every frame.

>>> too_big({"kind": "act", "action": {"type": "pass"}, "move": 3, "version": 4}) is None
True
>>> too_big({"kind": "why", "action": {"type": "take_tools", "tools": ["map"] * 20_000}})
'larger than 65536 bytes'
>>> deep: list[object] = []
>>> for _ in range(500):
...     deep = [deep]
>>> too_big({"kind": "why", "action": deep})
'nested deeper than 8 levels'
"""

from __future__ import annotations

import json
from typing import Any

# A real intent is a few hundred bytes (the largest, an action with its tool list, a New
# game with a bot per seat), at most 4 levels deep (message, action, list, name).
MAX_MESSAGE_BYTES = 64 * 1024
MAX_MESSAGE_DEPTH = 8
_CONTAINERS = (dict, list, tuple)


def too_big(value: Any, max_bytes: int = MAX_MESSAGE_BYTES,
            max_depth: int = MAX_MESSAGE_DEPTH) -> str | None:
    """Why ``value`` is too large or too deep to take (None: it is not), its JSON size
    counted without building it; the walk stops at the first item past a cap."""
    budget = max_bytes
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, _CONTAINERS):
            if depth > max_depth:
                return f"nested deeper than {max_depth} levels"
            budget -= 1 + len(item)  # the brackets and the commas between the items
            if budget < 0:  # before the items are looked at: a long list stops here
                break
            if isinstance(item, dict):
                for key, inner in item.items():
                    budget -= _atom_size(key, budget) + 1  # the key and its colon
                    stack.append((inner, depth + 1))
            else:
                stack.extend((inner, depth + 1) for inner in item)
        else:
            budget -= _atom_size(item, budget)
        if budget < 0:
            break
    return f"larger than {max_bytes} bytes" if budget < 0 else None


def _atom_size(item: Any, budget: int) -> int:
    """The JSON size of a name, a number, true, false or null (more than ``budget`` if it
    does not fit: a long string is not encoded to find out)."""
    if isinstance(item, str):
        return budget + 1 if len(item) > budget else len(json.dumps(item))
    if isinstance(item, bool) or item is None:
        return 5
    if isinstance(item, int):  # a number too long for str(): its digits, from its bits
        return 2 + item.bit_length() * 30103 // 100000
    if isinstance(item, float):
        return len(repr(item))
    return 16  # anything else (not JSON): counted, never read


__all__ = ["MAX_MESSAGE_BYTES", "MAX_MESSAGE_DEPTH", "too_big"]
