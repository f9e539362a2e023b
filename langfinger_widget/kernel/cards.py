"""The card catalogue: tools, loot, fences and scoundrels (R0).

Tools have no ids: the 60 tool cards are 12 each of five interchangeable types
(R0.1). Loot (``L01``-``L30``) and fences (``F01``-``F14``) are loaded from
``data/deck.json``, a documented reconstruction (R0.4, see docs/cards.md)
that a user can replace with :func:`use_deck`.

>>> LOOT_CARDS["L01"].protection in PROTECTIONS
True
>>> SCOUNDRELS["hans"].tool
'hammer'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import InvalidState

PLACES = ("city", "villa", "ruin", "museum", "harbor")  # resolution order, R3.1
TOOLS = ("lockpick", "hammer", "pliers", "welder", "map")
KINDS = ("money", "painting", "coins", "gold", "jewelry", "statue")
PROTECTIONS = ("chest", "pillar", "showcase", "safe")
RUIN_RATES = ("1>2", "2>3", "3>4", "2>2", "1>1")  # R6.1, board order
RATE_COUNTS: dict[str, tuple[int, int]] = {
    r: (int(r[0]), int(r[2])) for r in RUIN_RATES
}
TOOLS_PER_TYPE = 12  # R0.1
SQUARES_PER_PLACE = 5  # R2.2
TOKENS_PER_PLAYER = 3  # R1.4
WINNING_MONEY = 20  # R10.1
MIN_PLAYERS, MAX_PLAYERS = 2, 5  # R1.1

# R1.1: display sizes for 2/3/4/5 players.
DISPLAY_SIZES: dict[str, tuple[int, int, int, int]] = {
    "city": (4, 6, 6, 8),
    "villa": (1, 2, 2, 3),
    "museum": (2, 2, 3, 3),
    "harbor": (2, 3, 4, 5),
}
STARTING_HANDS = (2, 3)  # R1.3: start player 2, next clockwise 3, others 4
OTHER_STARTING_HAND = 4


def display_size(place: str, players: int) -> int:
    """How many cards the display of ``place`` holds with ``players`` players (R1.1)."""
    return DISPLAY_SIZES[place][players - MIN_PLAYERS]


@dataclass(frozen=True)
class LootCard:
    """A loot card: a public back (protection, tools) and a private front (kind, value)."""

    id: str
    protection: str
    tools: tuple[str, ...]
    kind: str
    value: int

    def back(self) -> dict[str, Any]:
        """What everyone sees of the card while it lies face down."""
        return {"protection": self.protection, "tools": list(self.tools)}

    def face(self) -> dict[str, Any]:
        """The whole card, for those who may know its front."""
        # Spelled out, not ``**self.back()``: every view builds a face for each card it shows.
        return {"id": self.id, "protection": self.protection, "tools": list(self.tools),
                "kind": self.kind, "value": self.value}


@dataclass(frozen=True)
class FenceCard:
    """A fence at the Harbor: ``buys`` maps a kind to ``(count, bonus)`` (R8)."""

    id: str
    buys: Mapping[str, tuple[int, int]]

    def face(self) -> dict[str, Any]:
        return {"id": self.id, "buys": {k: list(v) for k, v in self.buys.items()}}


@dataclass(frozen=True)
class Scoundrel:
    """A scoundrel card: its tool stands in for one pictured tool (R5.2)."""

    key: str
    name: str
    tool: str
    colour: str
    shape: str


SCOUNDRELS: dict[str, Scoundrel] = {  # R0.5; a shape goes with every colour
    s.key: s
    for s in (
        Scoundrel("pascal", "Pascal Passepartout", "lockpick", "blue", "circle"),
        Scoundrel("hans", "Hans Hammer", "hammer", "brown", "square"),
        Scoundrel("tommaso", "Tommaso Tenaglia", "pliers", "green", "triangle"),
        Scoundrel("yoshiko", "Yoshiko Yosetsuki", "welder", "yellow", "diamond"),
        Scoundrel("bobby", "Bobby Blueprint", "map", "red", "star"),
    )
}


@dataclass(frozen=True)
class Deck:
    """A loot deck and a fence deck, as loaded from one JSON file."""

    name: str
    loot: dict[str, LootCard]
    fences: dict[str, FenceCard]


DEFAULT_DECK_PATH = Path(__file__).with_name("data") / "deck.json"


def _fail(where: str, why: str) -> InvalidState:
    return InvalidState(f"R0.4: deck {where}: {why}")


def _is_int(x: Any) -> bool:
    """A JSON whole number (``true`` is an int to Python, not to a deck file)."""
    return isinstance(x, int) and not isinstance(x, bool)


def _parse_loot(raw: Any, i: int) -> LootCard:
    where = f"loot[{i}]"
    if not isinstance(raw, dict) or set(raw) != {"id", "protection", "tools", "kind", "value"}:
        raise _fail(where, "needs exactly id, protection, tools, kind, value")
    tools = raw["tools"]
    if not isinstance(raw["id"], str) or not isinstance(tools, list):
        raise _fail(where, "id must be a string and tools a list")
    if raw["protection"] not in PROTECTIONS:
        raise _fail(where, f"R0.2: unknown protection {raw['protection']!r}")
    if not 2 <= len(tools) <= 3 or any(t not in TOOLS for t in tools):
        raise _fail(where, "R0.2: a loot card pictures 2 or 3 known tools")
    if raw["kind"] not in KINDS:
        raise _fail(where, f"R0.2: unknown kind {raw['kind']!r}")
    if not _is_int(raw["value"]):
        raise _fail(where, f"R0.2: value {raw['value']!r} is not a whole number")
    # The back is public: keep its tools in one fixed order, so that two cards
    # with the same back can never be told apart by how the file spelled them.
    ordered = tuple(sorted(tools, key=TOOLS.index))
    card = LootCard(raw["id"], raw["protection"], ordered, raw["kind"], raw["value"])
    if (card.protection == "chest") != (card.kind == "money"):
        raise _fail(where, "R0.2: chests, and only chests, hold money")
    low, high = (1, 3) if card.kind == "money" else (2, 4)
    if not low <= card.value <= high:
        raise _fail(where, f"R0.2: {card.kind} is worth {low}-{high}, not {card.value}")
    return card


def _parse_fence(raw: Any, i: int) -> FenceCard:
    where = f"fences[{i}]"
    if not isinstance(raw, dict) or set(raw) != {"id", "buys"} or not isinstance(raw["buys"], dict):
        raise _fail(where, "needs exactly id and buys")
    buys: dict[str, tuple[int, int]] = {}
    for kind, pair in raw["buys"].items():
        if kind not in KINDS or kind == "money":
            raise _fail(where, f"R0.3: a fence cannot buy {kind!r}")
        ok = isinstance(pair, list) and len(pair) == 2 and all(_is_int(n) for n in pair)
        if not (ok and pair[0] in (1, 2) and pair[1] in (0, 1, 2)):
            raise _fail(where, f"R0.3: {kind} needs [count 1-2, bonus 0-2], not {pair!r}")
        buys[kind] = (pair[0], pair[1])
    if not buys:
        raise _fail(where, "R0.3: a fence buys at least one kind")
    if not isinstance(raw["id"], str):
        raise _fail(where, "id must be a string")
    return FenceCard(raw["id"], buys)


def _check_ids(ids: list[str], expected: list[str], rule: str) -> None:
    """Every expected id exactly once; the error names the first culprit."""
    seen: set[str] = set()
    for card_id in ids:
        if card_id in seen:
            raise _fail("ids", f"{rule}: {card_id} appears twice")
        seen.add(card_id)
    missing = [e for e in expected if e not in seen]
    unexpected = sorted(seen - set(expected))
    if missing or unexpected:
        raise _fail(
            "ids",
            f"{rule}: expected {expected[0]}-{expected[-1]} once each"
            f" (missing {missing or 'none'}, unexpected {unexpected or 'none'})",
        )


def parse_deck(data: Any) -> Deck:
    """Validate deck data (the shape of ``data/deck.json``) and build a :class:`Deck`."""
    shaped = isinstance(data, dict) and isinstance(data.get("loot"), list)
    if not shaped or not isinstance(data.get("fences"), list):
        raise _fail("file", "needs a 'loot' list and a 'fences' list")
    loot = [_parse_loot(raw, i) for i, raw in enumerate(data["loot"])]
    fences = [_parse_fence(raw, i) for i, raw in enumerate(data["fences"])]
    for cards, size, prefix, rule in ((loot, 30, "L", "R0.2"), (fences, 14, "F", "R0.3")):
        _check_ids([c.id for c in cards], [f"{prefix}{n:02d}" for n in range(1, size + 1)], rule)
    name = str(data.get("name", "unnamed"))
    return Deck(name, {c.id: c for c in loot}, {c.id: c for c in fences})


def load_deck(path: str | Path) -> Deck:
    """Read and validate a deck file (see docs/cards.md for its format)."""
    with open(path, encoding="utf-8") as f:
        return parse_deck(json.load(f))


LOOT_CARDS: dict[str, LootCard] = {}
FENCE_CARDS: dict[str, FenceCard] = {}
DECK_NAME = [""]
_ON_DECK_CHANGE: list[Callable[[], None]] = []


def on_deck_change(forget: Callable[[], None]) -> None:
    """Call ``forget`` whenever :func:`use_deck` installs a deck (to drop what was cached)."""
    _ON_DECK_CHANGE.append(forget)


def use_deck(deck: Deck | str | Path | None = None) -> Deck:
    """Make ``deck`` (a Deck, a file path, or None for the shipped one) the catalogue.

    The dicts ``LOOT_CARDS`` and ``FENCE_CARDS`` are updated in place, so every
    module that imported them sees the new cards.
    """
    if deck is None:
        deck = DEFAULT_DECK_PATH
    if not isinstance(deck, Deck):
        deck = load_deck(deck)
    LOOT_CARDS.clear()
    LOOT_CARDS.update(deck.loot)
    FENCE_CARDS.clear()
    FENCE_CARDS.update(deck.fences)
    DECK_NAME[0] = deck.name
    for forget in _ON_DECK_CHANGE:
        forget()
    return deck


use_deck()
