"""Crooks' actions in a record's words (docs/records.md, ``game crooks``), written and read.

>>> action_text({"type": "place", "target": 6, "face": "down", "effect": False})
'place 6 down'
>>> read_action(["place", "6", "up", "+effect"])
{'type': 'place', 'target': 6, 'face': 'up', 'effect': True}
>>> read_action(["spy", "hangout", "C"])
{'type': 'spy', 'hangout': 'C'}

The words only spell an action; whether it is legal is the rules' to say when the record is
replayed (``rules.parse`` is the one judge of an action's shape, so a word that spells
something malformed is refused in its words).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...errors import BadArgument, IllegalAction
from . import rules

Action = dict[str, Any]
EFFECT = "+effect"


def action_text(action: Action) -> str:
    """``recruit D``, ``keep K07``, ``place 6 up +effect``, ``switch 3``, ``kill 2``,
    ``spy target 5``, ``spy hangout C``, ``pass``."""
    key = rules.parse(action)
    kind = key[0]
    if kind == "place":
        return f"place {key[1]} {key[2]}{' ' + EFFECT if key[3] else ''}"
    return " ".join(str(part) for part in key)


def _number(word: str) -> int:
    if not (word.isascii() and word.isdigit()) or len(word) > 3:
        raise BadArgument(f"not an action: {word!r} is no number")
    return int(word)


def read_action(words: Sequence[str]) -> Action:
    """The action ``words`` spell; BadArgument (a ValueError) if they spell none."""
    if not words:
        raise BadArgument("not an action: no words")
    verb, args = words[0], list(words[1:])
    shapes = {"recruit": 1, "keep": 1, "switch": 1, "kill": 1, "pass": 0}
    action: Action
    if verb == "place" and len(args) in (2, 3) and args[2:] in ([], [EFFECT]):
        action = {"type": "place", "target": _number(args[0]), "face": args[1],
                  "effect": len(args) == 3}
    elif verb == "spy" and len(args) == 2 and args[0] in ("target", "hangout"):
        action = {"type": "spy", args[0]: _number(args[1]) if args[0] == "target" else args[1]}
    elif verb in shapes and len(args) == shapes[verb]:
        field = {"recruit": "hangout", "keep": "crook", "switch": "to", "kill": "seat"}
        action = {"type": verb}
        if args:
            action[field[verb]] = _number(args[0]) if verb in ("switch", "kill") else args[0]
    else:
        raise BadArgument(f"not an action: {' '.join(words)[:60]!r}; actions are recruit "
                          f"<hangout>, keep <crook>, place <target> up|down [+effect], switch "
                          f"<target>, kill <seat>, spy target|hangout <which>, pass")
    try:
        rules.parse(action)
    except IllegalAction as err:
        raise BadArgument(str(err)) from None
    return action
