"""Oh My Goods!'s actions in a record's words (docs/records.md, ``game goods``), written and
read.

>>> action_text({"type": "chain", "building": "D40", "hand": ["D07"], "goods": ["CB2"]})
'chain D40 hand D07 goods CB2'
>>> read_action(["work", "CB2", "sloppy"])
{'type': 'work', 'building': 'CB2', 'mode': 'sloppy'}
>>> read_action(["plan_build", "none"])
{'type': 'plan_build', 'card': None}

The words only spell an action; whether it is legal is the rules' to say when the record is
replayed (``rules.parse`` is the one judge of an action's shape).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...errors import BadArgument, IllegalAction
from . import rules

Action = dict[str, Any]
NONE = "none"


def action_text(action: Action) -> str:
    """``keep``, ``discard D17``, ``move_assistant A3 D40``, ``work CB2 sloppy``, ``work
    none``, ``plan_build D12``, ``plan_build none``, ``produce D40``, ``supply D05``,
    ``chain D40 hand D07 goods CB2``, ``build``, ``hire A3``, ``pay CB2``, ``assign D40``,
    ``done``."""
    key = rules.parse(action)
    kind = key[0]
    if kind == "chain":
        return " ".join([kind, key[1], "hand", *key[2], "goods", *key[3]])
    if kind == "work" and key[1] is None:
        return f"work {NONE}"
    return " ".join(NONE if part is None else str(part) for part in key)


def read_action(words: Sequence[str]) -> Action:
    """The action ``words`` spell; BadArgument (a ValueError) if they spell none."""
    if not words:
        raise BadArgument("not an action: no words")
    verb, args = words[0], list(words[1:])
    try:
        if verb == "chain" and len(args) >= 3 and args[1] == "hand" and "goods" in args[2:]:
            cut = args.index("goods", 2)
            action: Action = {"type": "chain", "building": args[0], "hand": args[2:cut],
                              "goods": args[cut + 1:]}
        elif verb == "work" and args == [NONE]:
            action = {"type": "work", "building": None, "mode": None}
        elif verb in rules.FIELDS and verb != "chain":
            fields = ["building", "mode"] if verb == "work" else sorted(rules.FIELDS[verb])
            if len(args) != len(fields):
                raise IllegalAction(f"{verb} takes {len(fields)} words")
            action = {"type": verb, **{f: None if (a == NONE and verb == "plan_build") else a
                                       for f, a in zip(fields, args, strict=True)}}
        else:
            raise IllegalAction(f"{' '.join(words)[:60]!r}; the actions are "
                                f"{', '.join(rules.FIELDS)}")
        rules.parse(action)
    except IllegalAction as err:
        raise BadArgument(f"not an action: {err}") from None
    return action
