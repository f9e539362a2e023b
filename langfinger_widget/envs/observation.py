"""One seat's view as a flat vector of numbers (for learning libraries).

:func:`encode` reads nothing but ``Game.view(seat)`` (docs/view-format.md),
so it cannot leak a hidden card: whatever the view hides, the vector never
had. :func:`fields` lists the vector field by field, with each field's upper
bound; docs/envs.md prints the same table (a test keeps the two equal).

Seats are *relative*: block 0 is the observing seat, block 1 the next seat
clockwise, and so on, so one policy can play any seat. Counts are raw
(not scaled); one-hot fields are 0/1.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from ..kernel import cards
from ..kernel.cards import KINDS, PLACES, PROTECTIONS, RUIN_RATES, SQUARES_PER_PLACE, TOOLS
from ..kernel.errors import BadArgument
from ..kernel.state import SCOUNDREL_PLACES
from .actions import FENCE_IDS, LOOT_IDS, MAX_SALE, STEAL_SLOTS

View = dict[str, Any]

DECISIONS = ("place", *PLACES)  # the ``decision.kind`` of a view
PHASES = ("place", "act", "over")
SALE_KINDS = tuple(k for k in KINDS if k != "money")  # R0.3: fences never buy money
MAX_VALUE, MAX_BONUS = 4, 2  # R0.2 (a loot front is worth at most 4), R0.3 (bonus at most 2)
# R10.1: the game ends after the round in which someone reaches 20. Before that round
# everyone has at most 19, and one round brings at most 3 actions (R1.4), each at most a
# sale of two cards at their top value and bonus (R8.2): money never exceeds this.
MONEY_HIGH = cards.WINNING_MONEY - 1 + cards.TOKENS_PER_PLAYER * MAX_SALE * (MAX_VALUE + MAX_BONUS)
ALL_TOOLS = cards.TOOLS_PER_TYPE * len(TOOLS)  # R0.1
SLOT_SIZE = 1 + len(PROTECTIONS) + len(TOOLS)
MAX_PICTURED = 3  # R0.2: a loot card pictures 2 or 3 tools


@dataclass(frozen=True)
class Field:
    """``size`` numbers from ``start``, each between 0 and ``high``."""

    name: str
    start: int
    size: int
    high: float
    doc: str


def _player_fields() -> list[tuple[str, int, float, str]]:
    """One seat's block (the observing seat's own, or an opponent's)."""
    return [
        ("money", 1, MONEY_HIGH, "money (R10.1)"),
        ("tokens", 1, cards.TOKENS_PER_PLAYER, "tokens in front of the player (R1.4)"),
        ("hand_size", 1, ALL_TOOLS, "tool cards in hand"),
        ("hand", len(TOOLS), cards.TOOLS_PER_TYPE,
         "tools in hand by type (TOOLS order); only in the observing seat's own block"),
        ("known", len(TOOLS), cards.TOOLS_PER_TYPE,
         "open_info: tools all saw enter the hand and not yet leave (R11.2); else 0"),
        ("scoundrel", len(cards.SCOUNDRELS), 1, "scoundrel, one-hot (SCOUNDRELS order)"),
        ("scoundrel_used", len(SCOUNDREL_PLACES), 1,
         "scoundrel used this round at the Villa, the Museum (R5.2)"),
        ("loot_known", len(LOOT_IDS), 1,
         "loot held face down whose front this seat knows, by id L01..L30 (its own)"),
        ("loot_backs", len(LOOT_IDS), len(LOOT_IDS),
         "loot held whose front this seat does not know, counted by back: index = "
         "the lowest loot id with that back (protection and pictured tools)"),
    ]


def _board_fields(n: int, max_rounds: int) -> list[tuple[str, int, float, str]]:
    slots = STEAL_SLOTS * SLOT_SIZE
    slot_doc = ("per slot: present, protection one-hot (PROTECTIONS order), "
                "pictured tools by type: the card's back only (R5.1)")
    buys = len(FENCE_IDS) * 2 * len(SALE_KINDS)
    return [
        ("city", len(TOOLS), cards.TOOLS_PER_TYPE, "face-up tools at the City by type (R4)"),
        ("villa", slots, MAX_PICTURED, f"Villa loot, {STEAL_SLOTS} slots; {slot_doc}"),
        ("museum", slots, MAX_PICTURED, f"Museum loot, {STEAL_SLOTS} slots; {slot_doc}"),
        ("harbor", len(FENCE_IDS), 1, "fences at the Harbor, by id F01..F14"),
        ("fence_buys", buys, 2,
         "for each fence id at the Harbor: count then bonus per kind it buys "
         "(kinds painting coins gold jewelry statue); 0 where absent (R8)"),
        ("squares", len(PLACES) * SQUARES_PER_PLACE * n, 1,
         "for each place (PLACES order) and square 1-5: the relative seat of its token, one-hot"),
        ("ruin_rates", len(RUIN_RATES) * n, 1,
         "for each exchange square (RUIN_RATES order): the relative seat on it, one-hot (R6.2)"),
        ("tool_draw", 1, ALL_TOOLS, "tool draw pile size"),
        ("tool_discard", len(TOOLS), cards.TOOLS_PER_TYPE, "tool discard pile by type"),
        ("loot_draw", 1, len(LOOT_IDS), "loot draw pile size"),
        ("loot_discard", len(LOOT_IDS), 1, "loot in the discard pile (face up), by id"),
        ("fence_draw", 1, len(FENCE_IDS), "fence draw pile size"),
        ("fence_discard", len(FENCE_IDS), 1, "fences in the discard pile, by id"),
        ("winners", n, 1, "relative seats tied for the most money once over (R10.2)"),
    ]


def _head_fields(n: int, max_rounds: int) -> list[tuple[str, int, float, str]]:
    return [
        ("phase", len(PHASES), 1, "phase one-hot: place, act, over"),
        ("round", 1, max_rounds + 1, f"round number (the envs stop after round {max_rounds})"),
        ("decision", len(DECISIONS), 1,
         "what is decided, one-hot: place, then the acting place (PLACES order); 0 when over"),
        ("acting_square", SQUARES_PER_PLACE, 1, "square 1-5 of the acting token, one-hot"),
        ("to_move", n, 1, "relative seat to move, one-hot"),
        ("start_player", n, 1, "relative seat of the start player, one-hot (R9.3)"),
    ]


@cache
def fields(players: int, max_rounds: int) -> tuple[Field, ...]:
    """The vector's layout for ``players`` players, in order."""
    raw = _head_fields(players, max_rounds)
    for r in range(players):
        raw += [(f"players[{r}].{name}", size, high, doc)
                for name, size, high, doc in _player_fields()]
    raw += _board_fields(players, max_rounds)
    out, start = [], 0
    for name, size, high, doc in raw:
        out.append(Field(name, start, size, float(high), doc))
        start += size
    return tuple(out)


def size(players: int, max_rounds: int) -> int:
    last = fields(players, max_rounds)[-1]
    return last.start + last.size


@cache
def _offsets(players: int, max_rounds: int) -> dict[str, int]:
    return {f.name: f.start for f in fields(players, max_rounds)}


def highs(players: int, max_rounds: int) -> list[float]:
    """The upper bound of every number in the vector (the lower bound is 0)."""
    return [f.high for f in fields(players, max_rounds) for _ in range(f.size)]


# --- encoding ------------------------------------------------------------------------------

_TOOL = {t: i for i, t in enumerate(TOOLS)}
_LOOT = {i: n for n, i in enumerate(LOOT_IDS)}
_FENCE = {i: n for n, i in enumerate(FENCE_IDS)}
_SCOUNDREL = {s: i for i, s in enumerate(cards.SCOUNDRELS)}


def back_index() -> dict[tuple[str, tuple[str, ...]], int]:
    """Each loot back of the loaded deck -> the position of the lowest loot id showing it."""
    index: dict[tuple[str, tuple[str, ...]], int] = {}
    for n, loot_id in enumerate(LOOT_IDS):
        card = cards.LOOT_CARDS[loot_id]
        index.setdefault((card.protection, card.tools), n)
    return index


class Encoder:
    """Encodes seats' views for ``players`` players; the loot backs are those of the deck
    loaded when it is made (``cards.use_deck``)."""

    def __init__(self, players: int, max_rounds: int) -> None:
        self.players = players
        self.max_rounds = max_rounds
        self.fields = fields(players, max_rounds)
        self.size = size(players, max_rounds)
        self.highs = highs(players, max_rounds)
        self.at = _offsets(players, max_rounds)
        self.backs = back_index()

    def encode(self, view: View) -> list[float]:
        """The vector of one seat's view (``Game.view(seat)``, never the open board)."""
        if not isinstance(view.get("seat"), int):
            raise BadArgument("encode a seat's view, not the open board (view(None))")
        if len(view["players"]) != self.players:
            raise BadArgument(f"this encoder is for {self.players} players, "
                             f"not {len(view['players'])}")
        w = _Writer(self, view)
        _head(w, view, self.max_rounds)
        for p in view["players"]:
            _player(w, p)
        _board(w, view)
        return w.out


class _Writer:
    """Fills a vector of zeros field by field, relative to the observing seat."""

    def __init__(self, encoder: Encoder, view: View) -> None:
        self.n = encoder.players
        self.seat: int = view["seat"]
        self.out = [0.0] * encoder.size
        self.at = encoder.at
        self.backs = encoder.backs

    def rel(self, seat: int) -> int:
        return (seat - self.seat) % self.n

    def put(self, name: str, offset: int, value: float = 1.0) -> None:
        self.out[self.at[name] + offset] += value

    def tools(self, name: str, counts: dict[str, int] | list[str]) -> None:
        items = counts.items() if isinstance(counts, dict) else ((t, 1) for t in counts)
        for tool, count in items:
            self.put(name, _TOOL[tool], count)


def _head(w: _Writer, view: View, max_rounds: int) -> None:
    w.put("phase", PHASES.index(view["phase"]))
    w.put("round", 0, min(view["round"], max_rounds + 1))
    decision = view["decision"]
    if decision is not None:
        w.put("decision", DECISIONS.index(decision["kind"]))
        if decision["square"] is not None:
            w.put("acting_square", decision["square"])
        w.put("to_move", w.rel(decision["seat"]))
    w.put("start_player", w.rel(view["start_player"]))


def _player(w: _Writer, p: View) -> None:
    pre = f"players[{w.rel(p['seat'])}]."
    w.put(pre + "money", 0, min(p["money"], MONEY_HIGH))
    w.put(pre + "tokens", 0, p["tokens"])
    w.put(pre + "hand_size", 0, p["hand_size"])
    w.tools(pre + "hand", p["hand"] or {})
    w.tools(pre + "known", p["known"])
    w.put(pre + "scoundrel", _SCOUNDREL[p["scoundrel"]])
    for i, place in enumerate(SCOUNDREL_PLACES):
        w.put(pre + "scoundrel_used", i, float(p["scoundrel_used"][place]))
    for card in p["loot"]:
        if "id" in card:
            w.put(pre + "loot_known", _LOOT[card["id"]])
        else:
            w.put(pre + "loot_backs", w.backs[(card["protection"], tuple(card["tools"]))])


def _slots(w: _Writer, place: str, loot: list[View]) -> None:
    for slot, card in enumerate(loot):
        base = slot * SLOT_SIZE
        w.put(place, base)
        w.put(place, base + 1 + PROTECTIONS.index(card["protection"]))
        for tool in card["tools"]:
            w.put(place, base + 1 + len(PROTECTIONS) + _TOOL[tool])


def _harbor(w: _Writer, fences: list[View]) -> None:
    for fence in fences:
        n = _FENCE[fence["id"]]
        w.put("harbor", n)
        for kind, (count, bonus) in fence["buys"].items():
            k = SALE_KINDS.index(kind)
            w.put("fence_buys", n * 2 * len(SALE_KINDS) + k, count)
            w.put("fence_buys", n * 2 * len(SALE_KINDS) + len(SALE_KINDS) + k, bonus)


def _board(w: _Writer, view: View) -> None:
    w.tools("city", view["city"])
    _slots(w, "villa", view["villa"])
    _slots(w, "museum", view["museum"])
    _harbor(w, view["harbor"])
    for p, place in enumerate(PLACES):
        for sq, seat in enumerate(view["squares"][place]):
            if seat is not None:
                w.put("squares", (p * SQUARES_PER_PLACE + sq) * w.n + w.rel(seat))
    for r, rate in enumerate(RUIN_RATES):
        seat = view["ruin_rates"][rate]
        if seat is not None:
            w.put("ruin_rates", r * w.n + w.rel(seat))
    piles = view["piles"]
    w.put("tool_draw", 0, piles["tools"]["draw"])
    w.tools("tool_discard", piles["tools"]["discard"])
    w.put("loot_draw", 0, piles["loot"]["draw"])
    for card in piles["loot"]["discard"]:
        w.put("loot_discard", _LOOT[card["id"]])
    w.put("fence_draw", 0, piles["fences"]["draw"])
    for fence in piles["fences"]["discard"]:
        w.put("fence_discard", _FENCE[fence["id"]])
    for seat in view["winners"]:
        w.put("winners", w.rel(seat))


def encode(view: View, max_rounds: int) -> list[float]:
    """The vector of one seat's view (``Game.view(seat)``, never the open board)."""
    return Encoder(len(view["players"]), max_rounds).encode(view)
