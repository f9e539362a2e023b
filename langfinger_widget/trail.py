"""A list that grows at its end and whose copies share what they have in common.

A game's history (its decisions, their events) only grows, except when an undo takes its
end back. A server copies the game for every move (the copy is played, committed, and
replaces the original), so copying the history as a list cost a copy of every decision so
far, for every move: CPU, the old list's release and the collector's walk of the new one,
all growing with the game (hundreds of decisions: 126 for 3 greedy bots, ~300 for
random moves; 180 and ~450 with 5 seats).

A :class:`Trail` copy costs the same whatever its length: copies share one list, each
knowing its own length. A copy whose end is the list's end appends to it in place; one
whose end is not (another copy appended past it, or it took its own end back) first takes
a list of its own. Nothing shrinks the shared list, so no copy ever loses an item it holds.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Generic, TypeVar, overload

T = TypeVar("T")


class Trail(Sequence[T], Generic[T]):
    """An append-only sequence whose :meth:`copy` is O(1) (see the module's docstring)."""

    __slots__ = ("_items", "_size")

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._items: list[T] = list(items)
        self._size = len(self._items)

    def copy(self) -> Trail[T]:
        twin: Trail[T] = Trail.__new__(Trail)
        twin._items = self._items
        twin._size = self._size
        return twin

    def _end(self) -> list[T]:
        """The list to append to: the shared one if this trail's end is its end."""
        items = self._items
        if len(items) != self._size:
            items = self._items = items[:self._size]
        return items

    def append(self, item: T) -> None:
        items = self._items  # (_end, inlined: self-play appends three times a decision)
        if len(items) != self._size:
            items = self._items = items[:self._size]
        items.append(item)
        self._size += 1

    def extend(self, items: Iterable[T]) -> None:
        end = self._end()
        end.extend(items)
        self._size = len(end)

    def cut(self, size: int) -> None:
        """Keep the first ``size`` items only (the shared list itself is never shortened)."""
        if not 0 <= size <= self._size:
            raise IndexError(f"cannot cut a trail of {self._size} to {size}")
        self._size = size

    def pop(self) -> T:
        if not self._size:
            raise IndexError("pop from an empty trail")
        self._size -= 1
        return self._items[self._size]

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        items = self._items
        if len(items) == self._size:
            return items[index]
        if isinstance(index, slice):
            picked = range(self._size)[index]
            if picked.step == 1:
                return items[picked.start:picked.stop]
            return [items[i] for i in picked]
        return items[range(self._size)[index]]  # (IndexError past this trail's end)

    def __iter__(self) -> Iterator[T]:
        return itertools.islice(self._items, self._size)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Trail):
            return list(self) == list(other)
        if isinstance(other, list):
            return list(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # (mutable, as a list)

    def __repr__(self) -> str:
        return f"Trail({list(self)!r})"

    def __reduce__(self) -> tuple[type[Trail[T]], tuple[list[T]]]:
        return Trail, (list(self),)  # a pickle or deepcopy holds this trail's items only
