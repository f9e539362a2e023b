"""Crooks' cards as data: the crooks (C0.2), the targets, the hangouts and their pile sizes.

The printed crook list is not public (C0.4): the deck ships as a data file,
``data/crooks.json``, holding the reconstruction of C0.5. A user may replace it
with the printed list or a variant (:func:`load_deck` takes a path or the parsed
data); any deck is checked against C0.4's constraints and refused with an
:class:`InvalidState` naming the rule it breaks.

>>> CROOKS["K07"].rank, CROOKS["K07"].modifier
(7, 2)
>>> CROOKS["K01"].special
'kingpin'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import InvalidState
from ..base import read_data

MIN_PLAYERS, MAX_PLAYERS = 2, 4
TARGETS: tuple[int, ...] = tuple(range(2, 10))  # C1.2: worth 2 to 9, in a row
GANGS: tuple[str, ...] = ("northside", "westside", "outfit")  # C0.2
SPECIALS: tuple[str, ...] = ("pickpocket", "accomplice", "switch", "killer", "kingpin", "spy")
START_CASH = 18  # C1.2
PICKPOCKET_GAIN = 2  # C4.4
FACE_DOWN_COST = 1  # C4.1
GANG_POINTS = {2: 5, 3: 4, 4: 3}  # C6.4
# C1.1: the piles dealt face down in letter order, by player count.
PILE_SIZES: dict[int, tuple[int, ...]] = {
    2: (2, 2, 3, 4, 5),
    3: (2, 2, 3, 3, 4, 4, 5),
    4: (2, 2, 3, 3, 3, 4, 4, 5, 5),
}
HANGOUTS: tuple[str, ...] = tuple("ABCDEFGHI")
DECK_SIZE = 32  # C0.1
DECK_FORMAT = "crooks-deck/1"
DECK_FILE = Path(__file__).with_name("data") / "crooks.json"


def hangouts(players: int) -> tuple[str, ...]:
    """The hangouts in play with ``players`` seats (C1.1)."""
    return HANGOUTS[: len(PILE_SIZES[players])]


@dataclass(frozen=True, slots=True)
class Crook:
    """One crook card (C0.2): rank, modifier to its target's worth, gangs, special."""

    id: str
    rank: int
    modifier: int = 0
    gangs: tuple[str, ...] = ()
    special: str | None = None

    def face(self) -> dict[str, Any]:
        """The card's front as JSON-ready data (views, events, the deck file)."""
        return {"id": self.id, "rank": self.rank, "modifier": self.modifier,
                "gangs": list(self.gangs), "special": self.special}


Deck = Mapping[str, Crook]


def _crook(entry: Any, where: str) -> Crook:
    if not isinstance(entry, dict):
        raise InvalidState(f"C0.2: {where} is not a crook (a dict with id, rank...)")
    extra = set(entry) - {"id", "rank", "modifier", "gangs", "special"}
    if extra:
        raise InvalidState(f"C0.2: {where} has unknown keys {sorted(extra)}")
    cid, rank = entry.get("id"), entry.get("rank")
    modifier, gangs = entry.get("modifier", 0), entry.get("gangs", [])
    special = entry.get("special")
    if not isinstance(cid, str) or not cid or len(cid) > 16:
        raise InvalidState(f"C0.2: {where} needs an id, a short string")
    for name, value, low, high in (("rank", rank, 1, 10), ("modifier", modifier, -2, 2)):
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise InvalidState(f"C0.4: crook {cid}'s {name} must be a whole number "
                               f"{low} to {high}, not {value!r}")
    if not isinstance(gangs, list) or any(g not in GANGS for g in gangs) \
            or len(set(gangs)) != len(gangs):
        raise InvalidState(f"C0.2: crook {cid}'s gangs must be distinct names of {GANGS}")
    if special is not None and special not in SPECIALS:
        raise InvalidState(f"C0.2: crook {cid}'s special must be one of {SPECIALS} or null")
    # the checks above made both whole numbers in range
    return Crook(cid, entry["rank"], entry.get("modifier", 0),
                 tuple(g for g in GANGS if g in gangs), special)


def parse_deck(data: Any) -> dict[str, Crook]:
    """A deck from its data (the file's parsed JSON, or its list of crooks), checked
    against C0.4; :class:`InvalidState` names the rule broken."""
    if isinstance(data, dict):
        if data.get("format", DECK_FORMAT) != DECK_FORMAT:
            raise InvalidState(f"C0.4: a deck file's format is {DECK_FORMAT!r}, "
                               f"not {data.get('format')!r}")
        data = data.get("crooks")
    if not isinstance(data, list):
        raise InvalidState("C0.4: a deck is a list of crooks (or {'crooks': [...]})")
    deck: dict[str, Crook] = {}
    for n, entry in enumerate(data):
        crook = _crook(entry, f"crook #{n + 1}")
        if crook.id in deck:
            raise InvalidState(f"C0.4: crook {crook.id} appears twice in the deck")
        deck[crook.id] = crook
    check_deck(deck)
    return deck


def check_deck(deck: Deck) -> None:
    """C0.3 and C0.4: what every deck, the printed one included, must keep."""
    crooks = list(deck.values())
    if len(crooks) != DECK_SIZE:
        raise InvalidState(f"C0.4: a deck holds {DECK_SIZE} crooks, not {len(crooks)}")
    kingpins = [c.id for c in crooks if c.special == "kingpin"]
    if len(kingpins) != 1:
        raise InvalidState(f"C0.3: a deck holds exactly one Kingpin, not {len(kingpins)}")
    missing = [s for s in SPECIALS if not any(c.special == s for c in crooks)]
    if missing:
        raise InvalidState(f"C0.4: every special appears at least once; missing {missing}")
    for rank, mod in ((7, 2), (8, -1)):
        if not any(c.rank == rank and c.modifier == mod for c in crooks):
            raise InvalidState(f"C0.3: the rulebook's example needs a rank {rank} crook "
                               f"with modifier {mod:+d}")
    for gang in GANGS:
        members = sum(gang in c.gangs for c in crooks)
        if members < 5:
            raise InvalidState(f"C0.3: the {gang} gang needs at least 5 members, not {members}")
    if not any(len(c.gangs) >= 2 for c in crooks):
        raise InvalidState("C0.3: some crook must belong to two gangs")
    if not any(c.modifier < 0 for c in crooks):
        raise InvalidState("C0.3: some crook must have a negative modifier")


def load_deck(source: str | Path | Any = None) -> dict[str, Crook]:
    """The deck from a file path (JSON), from parsed data, or (None) the shipped one."""
    return parse_deck(read_data(source, DECK_FILE, "C0.4", "deck"))


def deck_data(deck: Deck) -> list[dict[str, Any]]:
    """A deck as the list of crooks a deck file holds (``parse_deck`` reads it back)."""
    return [c.face() for c in deck.values()]


CROOKS: dict[str, Crook] = load_deck()
