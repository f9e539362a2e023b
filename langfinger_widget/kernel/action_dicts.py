"""Shared, read-only action dicts: what ``Game.legal_actions()`` hands out.

Every action the kernel ever lists exists once, as an :class:`Action`: a real
``dict`` (``==``, ``json.dumps``, ``repr`` and ``isinstance`` behave as for
the plain dict it equals) that also knows its action id (``rules.ACTIONS``).
Listing legal actions is then a list of references, and playing one needs
no parsing. Because one object serves every caller, it cannot be changed in
place: changing it (or the list of names inside it) raises ``TypeError``.
``copy.copy(action)``, ``action.copy()`` and ``copy.deepcopy(action)`` give
a plain dict to change at will; pickling gives a plain dict too.

>>> import copy, json
>>> import langfinger_widget as lf
>>> action = lf.Game.new(players=2, seed=1).legal_actions()[0]
>>> action == {"type": "place", "place": "city"}, json.dumps(action)
(True, '{"type": "place", "place": "city"}')
>>> mine = copy.copy(action); mine["place"] = "ruin"; mine
{'type': 'place', 'place': 'ruin'}
"""

from __future__ import annotations

from typing import Any, NoReturn

_WHY = ("an action from legal_actions() is shared and read-only; "
        "copy.copy(action) gives a plain dict you can change")


def _refuse(self: object, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(_WHY)


class Names(list[Any]):
    """A read-only list of names inside an :class:`Action` (tools paid, loot sold)."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return list(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (list(self),))


class Action(dict[str, Any]):
    """One action as a read-only dict; ``id`` is its index in ``rules.ACTIONS``."""

    __slots__ = ("id",)
    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __init__(self, action: dict[str, Any], action_id: int) -> None:
        fields = {k: Names(v) if isinstance(v, list) else v for k, v in action.items()}
        dict.__init__(self, fields)
        self.id = action_id

    def copy(self) -> dict[str, Any]:
        """A plain dict equal to this action, lists included, to change at will."""
        return {k: list(v) if isinstance(v, list) else v for k, v in self.items()}

    def __copy__(self) -> dict[str, Any]:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (self.copy(),))
