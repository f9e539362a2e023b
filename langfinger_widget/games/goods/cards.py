"""Oh My Goods!'s cards as data: the buildings (G0.2), the 94 deck cards, the Charburners and
the two-sided Assistants (G0.1).

The printed card lists are not public (G0.5): the cards ship as a data file,
``data/goods.json``, holding the reconstruction of G0.6. A user may replace it
with the printed lists or a variant (:func:`load_cards` takes a path or the
parsed data); any set is checked against G0.5's constraints and refused with an
:class:`InvalidState` naming the rule it breaks.

>>> CARDS["D01"].building.name, CARDS["CB1"].building.good
('Mill', 'coal')
>>> ASSISTANTS["A1"]["b"].colours
('yellow', 'red')
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import InvalidState
from ..base import read_data

MIN_PLAYERS, MAX_PLAYERS = 2, 4
CARDS_FORMAT = "goods-cards/1"
CARDS_FILE = Path(__file__).with_name("data") / "goods.json"
DECK_SIZE = 94  # G0.1, G0.5
COLOURS = ("yellow", "red", "blue", "green")  # the producing colours (G0.3)
GREY = "grey"
NO_COLOUR = "none"  # the Charburner's (G0.6)
START_COAL = 7  # G0.4, G1.2
START_HAND = 5  # G1.2
ASSISTANTS_ON_OFFER = {2: 4, 3: 6, 4: 8}  # G1.1
MOVE_COST = 2  # G3.2: moving an Assistant
END_BUILDINGS = 8  # G5.1
COINS_PER_VP = 5  # G5.2


@dataclass(frozen=True, slots=True)
class Building:
    """One kind of building (G0.2): what it costs, scores and needs, what it makes, its chain.

    ``needs`` lists resource units (a unit once per copy); ``needs_any`` is the
    Glassmaker's count of units of any kinds (G4.5). ``chain`` lists the chain's
    inputs: a resource is a hand card showing it, a good a good of that kind on one
    of the seat's buildings (G4.7). A grey building makes nothing.
    """

    key: str
    name: str
    colour: str
    cost: int
    vp: int
    needs: tuple[str, ...]
    needs_any: int
    good: str | None
    worth: int
    chain: tuple[str, ...]
    extra_cards: int

    @property
    def produces(self) -> bool:
        return self.good is not None

    def facts(self) -> dict[str, Any]:
        """The catalogue entry a board draws the card from (JSON-ready)."""
        return {"key": self.key, "name": self.name, "colour": self.colour, "cost": self.cost,
                "vp": self.vp, "needs": list(self.needs), "needs_any": self.needs_any,
                "good": self.good, "worth": self.worth, "chain": list(self.chain),
                "extra_cards": self.extra_cards}


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a deck card (resource, half sun, the building on its face) or a Charburner
    (no resource). ``supplies``: the resource a Market Office adds (G0.6)."""

    id: str
    building: Building
    resource: str | None
    half_sun: bool
    supplies: str | None = None

    def face(self) -> dict[str, Any]:
        return {"id": self.id, "building": self.building.key, "resource": self.resource,
                "half_sun": self.half_sun, "supplies": self.supplies}


@dataclass(frozen=True, slots=True)
class Side:
    """One side of an Assistant (G0.6): its cost in coins, VP and colours needed."""

    cost: int
    vp: int
    colours: tuple[str, ...]

    def facts(self) -> dict[str, Any]:
        return {"cost": self.cost, "vp": self.vp, "colours": list(self.colours)}


@dataclass(frozen=True, slots=True)
class CardSet:
    """A whole set of cards (G0.5): the buildings, every card by id, the Assistants."""

    resources: tuple[str, ...]
    buildings: dict[str, Building]
    cards: dict[str, Card]
    assistants: dict[str, dict[str, Side]]
    raw: dict[str, Any]

    @property
    def deck(self) -> list[str]:
        return [c for c, card in self.cards.items() if card.resource is not None]

    @property
    def charburners(self) -> list[str]:
        return [c for c, card in self.cards.items() if card.resource is None]

    def catalogue(self) -> dict[str, Any]:
        """Every fact a board needs to draw a card or an Assistant, JSON-ready (G7.1: the
        cards are public; only where each lies is not)."""
        return {"resources": list(self.resources),
                "buildings": {k: b.facts() for k, b in self.buildings.items()},
                "cards": {c: card.face() for c, card in self.cards.items()},
                "assistants": {a: {s: side.facts() for s, side in sides.items()}
                               for a, sides in self.assistants.items()}}


def _bad(why: str) -> InvalidState:
    return InvalidState(f"G0.5: {why}"[:300])


def _int(value: Any, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _bad(f"{what} must be a whole number {low} to {high}, not {value!r}")
    return value


def _building(key: str, e: Any, resources: tuple[str, ...]) -> Building:
    if not isinstance(e, dict) or not isinstance(e.get("name"), str):
        raise _bad(f"building {key!r} is a dict with a name")
    colour = e.get("colour")
    if colour not in (*COLOURS, GREY, NO_COLOUR):
        raise _bad(f"building {key}'s colour must be one of {(*COLOURS, GREY, NO_COLOUR)}")
    needs, chain = e.get("needs", []), e.get("chain", [])
    if not isinstance(needs, list) or any(r not in resources for r in needs):
        raise _bad(f"building {key}'s needs are resources of {resources}")
    if not isinstance(chain, list) or not all(isinstance(x, str) for x in chain) \
            or len(chain) > 2:
        raise _bad(f"building {key}'s chain lists at most 2 inputs")
    good = e.get("good")
    grey = colour == GREY
    if grey != (good is None):
        raise _bad(f"building {key}: grey buildings make nothing, the others a good (G0.3)")
    worth = _int(e.get("worth", 0), f"{key}'s good's worth", 0 if grey else 1, 0 if grey else 8)
    cost = _int(e.get("cost"), f"{key}'s cost", 0 if colour == NO_COLOUR else 2,
                0 if colour == NO_COLOUR else 12)
    return Building(key, e["name"], colour, cost, _int(e.get("vp", 0), f"{key}'s VP", 0, 5),
                    tuple(needs), _int(e.get("needs_any", 0), f"{key}'s needs_any", 0, 20),
                    good if isinstance(good, str) else None, worth, tuple(chain),
                    _int(e.get("extra_cards", 0), f"{key}'s extra cards", 0, 3))


def parse_cards(data: Any) -> CardSet:
    """A card set from its data (the file's parsed JSON), checked against G0.1-G0.5;
    :class:`InvalidState` names the rule broken."""
    if not isinstance(data, dict) or data.get("format") != CARDS_FORMAT:
        raise _bad(f"a card file is a dict of format {CARDS_FORMAT!r}")
    resources = data.get("resources")
    if not isinstance(resources, list) or not all(isinstance(r, str) for r in resources) \
            or len(set(resources)) != len(resources) or not resources:
        raise _bad("resources is a list of distinct names")
    res = tuple(resources)
    raw_b = data.get("buildings")
    if not isinstance(raw_b, dict):
        raise _bad("buildings is a dict: key -> facts")
    buildings = {k: _building(k, e, res) for k, e in raw_b.items()}
    goods = {b.good for b in buildings.values() if b.good}
    for b in buildings.values():
        for item in b.chain:
            if item not in res and item not in goods:
                raise _bad(f"{b.key}'s chain input {item!r} is neither a resource nor a good")
    cards: dict[str, Card] = {}
    deck = data.get("deck")
    if not isinstance(deck, list):
        raise _bad("deck is a list of cards")
    for e in deck:
        if not isinstance(e, dict) or not isinstance(e.get("id"), str) \
                or e.get("building") not in buildings or e.get("resource") not in res \
                or not isinstance(e.get("half_sun"), bool):
            raise _bad(f"a deck card is {{id, building, resource, half_sun}}, not {e!r}")
        b = buildings[e["building"]]
        if b.colour == NO_COLOUR:
            raise _bad(f"{e['id']}: Charburners are not deck cards (G0.1)")
        supplies = e.get("supplies")
        if (supplies is not None) != (b.colour == GREY and not b.extra_cards) or \
                (supplies is not None and supplies not in res):
            raise _bad(f"{e['id']}: a Market Office supplies one resource, no other card does")
        if e["id"] in cards:
            raise _bad(f"card {e['id']} appears twice")
        cards[e["id"]] = Card(e["id"], b, e["resource"], e["half_sun"], supplies)
    if len(cards) != DECK_SIZE:
        raise _bad(f"the deck holds {DECK_SIZE} cards, not {len(cards)}")
    per_resource = Counter(c.resource for c in cards.values())
    for r in res:
        if per_resource[r] < 10:
            raise _bad(f"every resource is on at least 10 cards; {r} is on {per_resource[r]}")
    suns = sum(c.half_sun for c in cards.values())
    if not 0.4 * DECK_SIZE <= suns <= 0.5 * DECK_SIZE:
        raise _bad(f"half suns are on 40-50% of the cards, not {suns} of {DECK_SIZE}")
    colours = Counter(c.building.colour for c in cards.values())
    producing = [colours[c] for c in COLOURS if c != "green"]
    if len(set(producing)) != 1 or colours["green"] <= producing[0]:
        raise _bad(f"green buildings are the most numerous and the other producing colours "
                   f"equal (G0.3), not {dict(colours)}")
    burners = data.get("charburners")
    if not isinstance(burners, list) or len(burners) != MAX_PLAYERS:
        raise _bad("4 Charburners (G0.1)")
    for e in burners:
        if not isinstance(e, dict) or not isinstance(e.get("id"), str) \
                or buildings.get(e.get("building", "")) is None \
                or buildings[e["building"]].colour != NO_COLOUR or e["id"] in cards:
            raise _bad(f"a Charburner is {{id, building}} of a colourless building: {e!r}")
        cards[e["id"]] = Card(e["id"], buildings[e["building"]], None, False)
    if not any(b.extra_cards for b in buildings.values()) or \
            not any(c.supplies for c in cards.values()):
        raise _bad("the set needs a Market Office and a +1 card building (G0.4)")
    assistants: dict[str, dict[str, Side]] = {}
    raw_a = data.get("assistants")
    if not isinstance(raw_a, list) or len(raw_a) != 2 * MAX_PLAYERS:
        raise _bad("8 Assistants (G0.1)")
    for e in raw_a:
        if not isinstance(e, dict) or not isinstance(e.get("id"), str) or e["id"] in cards:
            raise _bad(f"an Assistant is {{id, a, b}}: {e!r}")
        sides: dict[str, Side] = {}
        for s in ("a", "b"):
            side = e.get(s)
            if not isinstance(side, dict) or not isinstance(side.get("colours"), list) \
                    or not side["colours"] or any(c not in COLOURS for c in side["colours"]):
                raise _bad(f"Assistant {e['id']} side {s}: {{cost, vp, colours}}")
            sides[s] = Side(_int(side.get("cost"), "an Assistant's cost", 2, 12),
                            _int(side.get("vp"), "an Assistant's VP", 0, 5),
                            tuple(side["colours"]))
        assistants[e["id"]] = sides
    if len(assistants) != 2 * MAX_PLAYERS:
        raise _bad("8 distinct Assistants (G0.1)")
    return CardSet(res, buildings, cards, assistants, data)


def load_cards(source: str | Path | Any = None) -> CardSet:
    """The cards from a file path (JSON), from parsed data, or (None) the shipped ones."""
    return parse_cards(read_data(source, CARDS_FILE, "G0.5", "card"))


SHIPPED: CardSet = load_cards()
CARDS: dict[str, Card] = SHIPPED.cards
ASSISTANTS: dict[str, dict[str, Side]] = SHIPPED.assistants
BUILDINGS: dict[str, Building] = SHIPPED.buildings
