"""What the games behind the protocol share (games/protocol.py): a game as the positions after
each decision, with each decision's events, key and seat (:class:`Recorded`), and the markers
that hide parts of events from seats (:func:`secret`, :func:`redact`).

Games may import this module (and ``protocol``), never each other.

>>> e = {"type": "draw", "seat": 1, "card": secret("D07", [1])}
>>> redact(e, 1)["card"], redact(e, 0)["card"], redact(e, PUBLIC)["card"]
('D07', None, None)
>>> redact_log([{"type": "step", ONLY: [1]}], 0), redact_log([{"type": "step", ONLY: [1]}], 1)
([], [{'type': 'step'}])
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

from ..errors import BadArgument, IllegalAction, InvalidState
from ..trail import Trail

SECRET = "$secret"  # a part of an event only the seats in its "to" may see
ONLY = "$only"  # a whole event only these seats may see (another seat's log lacks it)
PUBLIC = -1  # the viewer a spectator is: no seat

Event = dict[str, Any]
P = TypeVar("P")  # a game's position
K = TypeVar("K")  # a game's key for an action


def secret(value: Any, seats: Sequence[int]) -> dict[str, Any]:
    """A part of an event that only ``seats`` may see (:func:`redact` opens it)."""
    return {SECRET: value, "to": sorted(set(seats))}


def redact(value: Any, viewer: int | None) -> Any:
    """``value`` (an event, or a part of one) with each secret opened for those it names:
    for ``viewer`` None every secret opens, for PUBLIC none does."""
    if isinstance(value, dict):
        if SECRET in value:
            if viewer is None or (viewer != PUBLIC and viewer in value["to"]):
                return redact(value[SECRET], viewer)
            return None
        return {k: redact(v, viewer) for k, v in value.items() if k != ONLY}
    if isinstance(value, list):
        return [redact(v, viewer) for v in value]
    return value


def sees_event(event: Event, viewer: int | None) -> bool:
    """Whether ``viewer`` may see that ``event`` happened at all (``ONLY``)."""
    seats = event.get(ONLY)
    return seats is None or viewer is None or viewer in seats


def redact_log(events: Sequence[Event], viewer: int | None) -> list[Event]:
    return [redact(e, viewer) for e in events if sees_event(e, viewer)]


def check_seat(seat: Any, players: int, none_ok: bool = True) -> None:
    """:class:`BadArgument` unless ``seat`` is a seat (or None, when ``none_ok``)."""
    if seat is None and none_ok:
        return
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise BadArgument(f"seat must be {'None or ' if none_ok else ''}"
                          f"0..{players - 1}, not {seat!r}"[:200])


def seats(players: Any, allowed: range, who: str, ruling: str, seed: Any,
          names: Sequence[str] | None, start_player: Any, max_seed: int
          ) -> tuple[random.Random, list[str], int]:
    """A new game's table, checked (:class:`BadArgument` names ``ruling`` for the player
    count): the seeded generator of the deal, the names, and the start player, drawn from
    the seed even when given, so that the deal stays the seed's."""
    if not isinstance(players, int) or isinstance(players, bool) or players not in allowed:
        raise BadArgument(f"{ruling}: {who} is for {allowed.start} to {allowed.stop - 1} "
                          f"players, not {players!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= max_seed:
        raise BadArgument(f"the seed must be a whole number 0 to {max_seed}, not {seed!r}")
    names = [f"Player {k + 1}" for k in range(players)] if names is None else list(names)
    if len(names) != players or not all(isinstance(x, str) and x for x in names):
        raise BadArgument(f"names must be {players} non-empty strings")
    rng = random.Random(seed)
    drawn = rng.randrange(players)
    if start_player is None:
        start_player = drawn
    if not isinstance(start_player, int) or isinstance(start_player, bool) \
            or not 0 <= start_player < players:
        raise BadArgument(f"start_player must be 0 to {players - 1}, not {start_player!r}")
    return rng, names, start_player


def read_data(source: Any, default: Path, ruling: str, what: str) -> Any:
    """A game's card data: the parsed JSON of a file path, ``source`` itself if it is
    already data, or (None) the shipped file; :class:`InvalidState` names ``ruling`` when
    the file cannot be read."""
    if source is None:
        source = default
    if isinstance(source, (str, Path)):
        try:
            return json.loads(Path(source).read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise InvalidState(f"{ruling}: cannot read the {what} file {source}: {err}") \
                from None
    return source


def check_bot(seed: Any, blunders: Any) -> tuple[int, float]:
    """A bot's seed and its chance of a random move, checked (:class:`BadArgument`)."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise BadArgument(f"the seed must be a whole number, not {seed!r}"[:200])
    if not isinstance(blunders, (int, float)) or isinstance(blunders, bool) \
            or not 0.0 <= blunders <= 1.0:
        raise BadArgument(f"blunders must be a chance from 0 to 1, not {blunders!r}"[:200])
    return seed, float(blunders)


class Recorded(Generic[P, K]):
    """A game as its history: the position after each decision (each kept position is never
    changed again, so copies share them), each decision's events (the deal's first), its key
    and the seat that made it. Undo pops the last decision exactly, the game's generator
    state included (it lives in the position)."""

    __slots__ = ("_actions", "_events", "_legal", "_movers", "_states", "_version")

    def __init__(self, position: P, events: Sequence[Event] = ()) -> None:
        # Trails: a copy shares them, whatever the game's length (a server copies the game
        # for every move; see trail.py).
        self._states: Trail[P] = Trail([position])
        self._events: Trail[list[Event]] = Trail([list(events)])
        self._actions: Trail[K] = Trail()
        self._movers: Trail[int] = Trail()
        self._legal: Any = None  # the game's cache of legal keys for the live position
        self._version = 0

    def _twin(self) -> Any:
        twin = object.__new__(type(self))
        twin._states = self._states.copy()
        twin._events = self._events.copy()
        twin._actions = self._actions.copy()
        twin._movers = self._movers.copy()
        twin._legal = None
        twin._version = self._version
        return twin

    @property
    def _state(self) -> P:
        return self._states[-1]

    def _record(self, position: P, events: list[Event], key: K, mover: int) -> None:
        self._states.append(position)
        self._events.append(events)
        self._actions.append(key)
        self._movers.append(mover)
        self._legal = None
        self._version += 1

    @property
    def version(self) -> int:
        """Changes on every play and undo: work computed for one version is stale after."""
        return self._version

    @property
    def move_number(self) -> int:
        return len(self._actions)

    @property
    def deciders(self) -> list[int]:
        """The seat that made each decision of the history (R12.2)."""
        return list(self._movers)

    def undo(self) -> None:
        """Take back the last decision exactly."""
        if not self._actions:
            raise IllegalAction("nothing to undo")
        self._states.pop()
        self._events.pop()
        self._actions.pop()
        self._movers.pop()
        self._legal = None
        self._version += 1
