"""The record format itself: its words, its lines and its header, written and read as text.

This module knows the grammar of docs/records.md and nothing of the rules: it turns
the pieces of a record (:class:`Header`, :class:`Decision`, ...) into lines
(:func:`render`, :func:`header_lines`) and lines back into pieces
(:func:`read_header`, :func:`parse_line`, :class:`Body`), refusing a malformed
line with a :class:`~langfinger_widget.kernel.errors.RecordError` that names it.
Replaying those pieces through the kernel, and checking them against the game,
is :mod:`.full`'s job (and :mod:`.seat`'s for one seat's record).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import games
from ..kernel import cards
from ..kernel.cards import SCOUNDRELS, TOOLS
from ..kernel.errors import RecordError
from ..kernel.limits import too_big
from ..kernel.notation import one_line

MAGIC = "langfinger-record"
DEFAULT_GAME = "langfinger"  # the game of a record whose header names none
VERSION = 1
SUFFIX = ".lfr"
HIDDEN = "?"  # a card the record's seat did not see
NONE = "-"  # an empty list
RULING = re.compile(r"^(R\d+(?:\.\d+)?)")
SIMPLE_NAME = re.compile(r"[^\W\d][\w'.-]*")
TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[^\s"]+|"')
DATE = re.compile(r"\d{4}-\d{2}-\d{2}|\?")
BACK = re.compile(r"(chest|pillar|showcase|safe)\[([a-z+]+)\]")
ACTION_WORDS = ("place", "take", "steal", "exchange", "sell", "pass")
VIEW_DEPTH = 16  # a view nests 5 levels (view, players, a player, its loot, a card's tools)

Action = dict[str, Any]


# --- the pieces of a record -----------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """One player of the header: name, scoundrel, and the bot that played it (None: a person)."""

    name: str
    scoundrel: str
    bot: str | None = None


@dataclass(frozen=True)
class Header:
    """Everything above the first blank line."""

    date: str
    deck: str
    variant: str
    seats: tuple[Seat, ...]
    start: int  # the start player at the record's first position
    view: int | None  # whose record: None holds everything
    seed: int | None = None  # full records of a dealt game
    money: tuple[int, ...] | None = None  # the result, when the game is over
    winners: tuple[int, ...] | None = None
    # The registered game (lf.games) the record is of: a record with no ``game`` line is
    # Langfinger's, so Langfinger's records leave it out and read as they always have.
    game: str = DEFAULT_GAME

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]


@dataclass(frozen=True)
class Deal:
    """``deal Anna hammer,pliers``: a starting hand (``?`` for each card the seat did not see)."""

    label: str
    tools: tuple[str, ...]


@dataclass(frozen=True)
class Refill:
    """``refill villa L23,L18``: cards laid out at a place (a back where the front is hidden)."""

    place: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class RoundStart:
    """``round 2``: every token is in front of its owner and round 2's placing begins."""

    number: int


@dataclass(frozen=True)
class Decision:
    """``12. Anna sell F03 L07,L12``, with what the decision showed after ``->``."""

    number: int
    label: str
    action: Action
    reveal: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Position:
    """``position <notation>``: the start of a record begun mid-game, or a checkpoint."""

    text: str


@dataclass(frozen=True)
class SeatView:
    """``view {...}``: the start of a seat's record begun mid-game, as that seat saw it."""

    view: dict[str, Any]


@dataclass(frozen=True)
class End:
    """``end``: the record is complete (a record without it was cut short)."""


Item = Deal | Refill | RoundStart | Decision | Position | SeatView | End


# --- words: names, tools, cards ---------------------------------------------------------------


def label(name: str) -> str:
    """A player's name as written before a decision: bare if one simple word, else JSON."""
    if SIMPLE_NAME.fullmatch(name):
        return name
    return one_line(json.dumps(name, ensure_ascii=False))


def listing(items: Sequence[str]) -> str:
    return ",".join(items) or NONE


def back_word(card: Mapping[str, Any]) -> str:
    """A loot card's public back in the record's words: ``pillar[lockpick+hammer+map]``."""
    return f"{card['protection']}[{'+'.join(card['tools'])}]"


def card_words(place: str, cards_: Sequence[Any]) -> tuple[str, ...]:
    """Refilled cards as the record writes them: tools, fence ids, loot ids or loot backs."""
    if place == "city":
        return tuple(cards_)
    return tuple(c["id"] if "id" in c else back_word(c) for c in cards_)


def action_text(action: Mapping[str, Any]) -> str:
    """An action in the record's words: ``steal 1 pay hammer,map +scoundrel``."""
    kind = action["type"]
    if kind == "place":
        return f"place {action['place']}"
    if kind == "take_tools":
        return f"take {listing(action['tools'])}"
    if kind == "steal":
        extra = " +scoundrel" if action.get("scoundrel") else ""
        return f"steal {action['slot']} pay {listing(action['pay'])}{extra}"
    if kind == "exchange":
        return f"exchange {action['rate']} give {listing(action['give'])}"
    if kind == "sell":
        return f"sell {action['fence']} {listing(action['loot'])}"
    return "pass"


def render(item: Item) -> str:
    """One line of a record."""
    if isinstance(item, Deal):
        return f"deal {item.label} {listing(item.tools)}"
    if isinstance(item, Refill):
        return f"refill {item.place} {listing(item.cards)}"
    if isinstance(item, RoundStart):
        return f"round {item.number}"
    if isinstance(item, Decision):
        reveal = "" if item.reveal is None else f" -> {listing(item.reveal)}"
        return f"{item.number}. {item.label} {action_text(item.action)}{reveal}"
    if isinstance(item, Position):
        return f"position {item.text}"
    if isinstance(item, SeatView):
        return "view " + one_line(json.dumps(item.view, ensure_ascii=False,
                                              separators=(",", ":")))
    return "end"


def header_lines(h: Header) -> list[str]:
    lines = [f"{MAGIC} {VERSION}"]
    if h.game != DEFAULT_GAME:
        lines.append(f"game {h.game}")
    lines += [f"date {h.date}", f"deck {json.dumps(h.deck)}", f"variant {h.variant}"]
    for i, s in enumerate(h.seats):
        who = "human" if s.bot is None else f"bot {s.bot}"
        lines.append(f"seat {i} {one_line(json.dumps(s.name, ensure_ascii=False))} "
                     f"{s.scoundrel} {who}")
    lines.append(f"start {h.start}")
    if h.seed is not None:
        lines.append(f"seed {h.seed}")
    lines.append(f"view {'all' if h.view is None else h.view}")
    if h.money is None or h.winners is None:
        lines.append("result unfinished")
    else:
        lines.append(f"result money {listing([str(m) for m in h.money])} "
                     f"winners {listing([str(w) for w in h.winners])}")
    return lines


# --- reading: lines and tokens ------------------------------------------------------------------


def tokens_of(text: str, line: int) -> list[str]:
    """The words of a line; a quoted name is one word; ``#`` outside quotes starts a comment."""
    out: list[str] = []
    for tok in TOKEN.findall(text):
        if tok.startswith("#"):
            break
        if tok == '"':
            raise RecordError(line, "a name's closing '\"' is missing")
        out.append(tok)
    return out


def name_token(tok: str, line: int) -> str:
    if not tok.startswith('"'):
        return tok
    try:
        name = json.loads(tok)
    except json.JSONDecodeError as e:
        raise RecordError(line, f"not a quoted name: {tok} ({e.msg})") from None
    if not isinstance(name, str):
        raise RecordError(line, f"not a quoted name: {tok}")
    return name


def whole_number(tok: str, what: str, line: int) -> int:
    if not (tok.isascii() and tok.isdigit()) or len(tok) > 18:
        raise RecordError(line, f"{what} must be a whole number, not {tok!r}")
    return int(tok)


def split_items(tok: str) -> list[str]:
    return [] if tok == NONE else tok.split(",")


def _tools(tok: str, line: int, hidden: bool = False) -> list[str]:
    tools = split_items(tok)
    allowed = (*TOOLS, HIDDEN) if hidden else TOOLS
    bad = [t for t in tools if t not in allowed]
    if bad or "" in tools:
        raise RecordError(line, f"unknown tool(s) {bad or tools} (R0.1: tools are "
                                f"{', '.join(TOOLS)})", "R0.1")
    return tools


# --- reading: the header ----------------------------------------------------------------------


HEADER_KEYS = ("game", "date", "deck", "variant", "seat", "start", "seed", "view", "result")


def read_header(lines: list[str]) -> tuple[Header, int]:
    """The header and the index of the first body line."""
    if not lines or not lines[0].strip():
        raise RecordError(1, f"not a record: the first line must be '{MAGIC} {VERSION}'")
    first = lines[0].split()
    if len(first) != 2 or first[0] != MAGIC:
        raise RecordError(1, f"not a record: the first line must be '{MAGIC} {VERSION}', "
                             f"not {lines[0][:60]!r}")
    if first[1] != str(VERSION):
        raise RecordError(1, f"wrong version: this reads {MAGIC} {VERSION}, not {first[1]!r}")
    found: dict[str, tuple[int, list[str]]] = {}
    seats: list[tuple[int, list[str]]] = []
    i = 1
    while i < len(lines) and lines[i].strip():
        line = i + 1
        toks = tokens_of(lines[i], line)
        i += 1
        if not toks:
            continue
        key, rest = toks[0], toks[1:]
        if key not in HEADER_KEYS:
            raise RecordError(line, f"unknown header line {key!r}; the header has "
                                    f"{', '.join(HEADER_KEYS)}")
        if key == "seat":
            seats.append((line, rest))
        elif key in found:
            raise RecordError(line, f"the header gives {key!r} twice")
        else:
            found[key] = (line, rest)
    if i >= len(lines):
        raise RecordError(len(lines), "truncated: the record ends in its header")
    return _header_from(found, seats, i + 1), i + 1


def _one(found: dict[str, tuple[int, list[str]]], key: str, end: int) -> tuple[int, list[str]]:
    if key not in found:
        raise RecordError(end, f"the header has no {key!r} line")
    line, rest = found[key]
    if not rest:
        raise RecordError(line, f"{key!r} needs a value")
    return line, rest


def _header_from(found: dict[str, tuple[int, list[str]]], seats: list[tuple[int, list[str]]],
                 end: int) -> Header:
    if "game" in found:
        _read_game(*_one(found, "game", end))
    line, rest = _one(found, "date", end)
    if len(rest) != 1 or not DATE.fullmatch(rest[0]):
        raise RecordError(line, f"date must be YYYY-MM-DD or '?', not {' '.join(rest)!r}")
    date = rest[0]
    line, rest = _one(found, "deck", end)
    deck = name_token(rest[0], line)
    if deck != cards.DECK_NAME[0]:
        raise RecordError(line, f"this record was played with the deck {deck!r}, but the "
                                f"catalogue in use is {cards.DECK_NAME[0]!r} (R0.4: "
                                "lf.cards.use_deck)", "R0.4")
    line, rest = _one(found, "variant", end)
    if rest != ["standard"] and rest != ["open_info"]:
        raise RecordError(line, f"R11: variant is standard or open_info, not {' '.join(rest)!r}",
                          "R11")
    variant = rest[0]
    players = _read_seats(seats, end)
    line, rest = _one(found, "start", end)
    start = whole_number(rest[0], "the start player", line)
    if len(rest) != 1 or start >= len(players):
        raise RecordError(line, f"R1.0: the start player is a seat from 0 to {len(players) - 1}",
                          "R1.0")
    seed = None
    if "seed" in found:
        line, rest = _one(found, "seed", end)
        seed = whole_number(rest[0], "the seed", line)
    line, rest = _one(found, "view", end)
    view = None if rest == ["all"] else whole_number(rest[0], "the record's seat", line)
    if len(rest) != 1 or (view is not None and view >= len(players)):
        raise RecordError(line, f"view is 'all' or a seat from 0 to {len(players) - 1}")
    if seed is not None and view is not None:
        raise RecordError(found["seed"][0], "a seat's record holds no seed: the seed deals "
                                            "every hidden card (R11.1)", "R11.1")
    money, winners = _read_result(*_one(found, "result", end), len(players))
    return Header(date, deck, variant, tuple(players), start, view, seed, money, winners)


def _read_game(line: int, rest: list[str]) -> str:
    """The ``game`` line's game: a registered one, and so far one whose records this reads."""
    name = rest[0]
    if len(rest) != 1 or name not in games.names():
        raise RecordError(line, f"game must be one of {', '.join(games.names())}, "
                                f"not {' '.join(rest)!r}")
    if name != DEFAULT_GAME and games.get(name).action_words is not None:
        raise RecordError(line, f"a record of {games.get(name).title}: read it with "
                                f"records.read_game")
    if name != DEFAULT_GAME:
        raise RecordError(line, f"a record of {games.get(name).title}: records are written "
                                f"and read for {DEFAULT_GAME} only so far")
    return name


def _read_seats(seats: list[tuple[int, list[str]]], end: int) -> list[Seat]:
    if not 2 <= len(seats) <= 5:
        raise RecordError(end, f"R1.1: a game has 2 to 5 players; the header has {len(seats)}",
                          "R1.1")
    players: list[Seat] = []
    for i, (line, rest) in enumerate(seats):
        if len(rest) < 4 or rest[0] != str(i):
            raise RecordError(line, f"expected 'seat {i} \"name\" scoundrel human|bot <level>'")
        scoundrel, who = rest[2], rest[3:]
        if scoundrel not in SCOUNDRELS:
            raise RecordError(line, f"R0.5: unknown scoundrel {scoundrel!r}", "R0.5")
        if who == ["human"]:
            bot = None
        elif len(who) == 2 and who[0] == "bot":
            bot = who[1]
        else:
            raise RecordError(line, f"a seat is 'human' or 'bot <level>', not {' '.join(who)!r}")
        players.append(Seat(name_token(rest[1], line), scoundrel, bot))
    if len({p.scoundrel for p in players}) != len(players):
        raise RecordError(seats[-1][0], "R0.5: each player has a scoundrel of their own", "R0.5")
    return players


def _read_result(line: int, rest: list[str], n: int
                 ) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    if rest == ["unfinished"]:
        return None, None
    if len(rest) != 4 or rest[0] != "money" or rest[2] != "winners":
        raise RecordError(line, "result is 'unfinished' or 'money 21,14 winners 0'")
    money = tuple(whole_number(m, "money", line) for m in split_items(rest[1]))
    winners = tuple(whole_number(w, "a winner's seat", line) for w in split_items(rest[3]))
    if len(money) != n or not winners or any(w >= n for w in winners):
        raise RecordError(line, f"result must give {n} money totals and the winners' seats")
    return money, winners


# --- reading: the body ------------------------------------------------------------------------


def parse_line(text: str, line: int) -> Item | None:
    """One body line as an item (None for a blank or comment line); spelling only."""
    stripped = text.strip()
    if stripped.startswith("view "):
        return _seat_view(stripped[5:], line)
    if stripped.startswith("position "):
        return Position(stripped[9:].strip())
    toks = tokens_of(text, line)
    if not toks:
        return None
    head, rest = toks[0], toks[1:]
    if head == "end" and not rest:
        return End()
    if head == "round" and len(rest) == 1:
        return RoundStart(whole_number(rest[0], "the round", line))
    if head == "deal" and len(rest) == 2:
        return Deal(label(name_token(rest[0], line)), tuple(_tools(rest[1], line, hidden=True)))
    if head == "refill" and len(rest) == 2:
        return _refill(rest[0], rest[1], line)
    if head.endswith(".") and head[:-1].isdigit():
        return _decision(whole_number(head[:-1], "the decision number", line), rest, line)
    raise RecordError(line, f"cannot read {stripped[:60]!r}: expected a decision ('12. Anna "
                            "place museum'), deal, refill, round, position, view or end")


def _seat_view(raw: str, line: int) -> SeatView:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as e:
        raise RecordError(line, f"the seat's view is not JSON ({e.msg} at {e.pos})") from None
    except RecursionError:  # the parser's own limit: far deeper than any view
        data = None
    too_deep = data is None or too_big(data, 8 * len(raw) + 16, VIEW_DEPTH) is not None
    if too_deep:
        raise RecordError(line, f"the seat's view is nested deeper than a view ever is "
                                f"({VIEW_DEPTH} levels; docs/view-format.md)")
    if not isinstance(data, dict):
        raise RecordError(line, "the seat's view must be a JSON object (docs/view-format.md)")
    return SeatView(data)


def _refill(place: str, listing: str, line: int) -> Refill:
    if place not in ("city", "villa", "museum", "harbor"):
        raise RecordError(line, f"R9.1: the City, Villa, Museum and Harbor are refilled, not "
                                f"{place!r}", "R9.1")
    if place == "city":
        return Refill(place, tuple(_tools(listing, line)))
    words = split_items(listing)
    for w in words:
        ok = (w in cards.FENCE_CARDS if place == "harbor"
              else w in cards.LOOT_CARDS or _is_back(w))
        if not ok:
            family = "fence" if place == "harbor" else "loot card"
            raise RecordError(line, f"unknown {family} {w!r} (R0)", "R0")
    return Refill(place, tuple(words))


def _is_back(word: str) -> bool:
    m = BACK.fullmatch(word)
    return m is not None and all(t in TOOLS for t in m.group(2).split("+"))


def _decision(number: int, toks: list[str], line: int) -> Decision:
    if len(toks) < 2:
        raise RecordError(line, "truncated: a decision names the player and the action")
    who, rest = name_token(toks[0], line), toks[1:]
    reveal: tuple[str, ...] | None = None
    if "->" in rest:
        at = rest.index("->")
        if at != len(rest) - 2:
            raise RecordError(line, "'->' is followed by one list: what the decision showed")
        reveal = tuple(split_items(rest[-1]))
        rest = rest[:at]
    return Decision(number, label(who), _action(rest, line), reveal)


def _action(toks: list[str], line: int) -> Action:
    if not toks:
        raise RecordError(line, "truncated: a decision names the player, then the action")
    verb, args = toks[0], toks[1:]
    shapes = {"place": 1, "take": 1, "exchange": 3, "sell": 2, "pass": 0}
    if verb == "steal":
        if len(args) not in (3, 4) or args[1] != "pay" or args[3:] not in ([], ["+scoundrel"]):
            raise RecordError(line, "expected 'steal <slot> pay <tools> [+scoundrel]'")
        return {"type": "steal", "slot": whole_number(args[0], "the slot", line),
                "pay": _tools(args[2], line), "scoundrel": len(args) == 4}
    if verb not in shapes:
        raise RecordError(line, f"unknown action {verb!r}; actions are {', '.join(ACTION_WORDS)}")
    if len(args) != shapes[verb] or (verb == "exchange" and args[1] != "give"):
        forms = {"place": "place <place>", "take": "take <tools>", "pass": "pass",
                 "exchange": "exchange <rate> give <tools>", "sell": "sell <fence> <loot>"}
        raise RecordError(line, f"expected '{forms[verb]}'")
    if verb == "place":
        return {"type": "place", "place": args[0]}
    if verb == "take":
        return {"type": "take_tools", "tools": _tools(args[0], line)}
    if verb == "exchange":
        return {"type": "exchange", "rate": args[0], "give": _tools(args[2], line)}
    if verb == "sell":
        return {"type": "sell", "fence": args[0], "loot": split_items(args[1])}
    return {"type": "pass"}


def ruling_of(reason: str) -> str | None:
    m = RULING.match(reason)
    return m.group(1) if m else None


class Body:
    """The body's items with their lines, each line read only when it is reached: a record
    is refused at its first bad line, however many lines follow it."""

    def __init__(self, lines: list[str], start: int) -> None:
        self._lines = lines
        self._next = start - 1  # the index of the next line to read
        self._ahead: tuple[int, Item] | None = None  # read, not taken yet
        self.last_line = len(lines)

    def peek(self) -> tuple[int, Item | None]:
        while self._ahead is None and self._next < len(self._lines):
            at = self._next
            self._next += 1
            item = parse_line(self._lines[at], at + 1)
            if item is not None:
                self._ahead = (at + 1, item)
        return self._ahead if self._ahead is not None else (self.last_line, None)

    def take(self) -> tuple[int, Item | None]:
        got = self.peek()
        self._ahead = None
        return got

    def take_refills(self) -> list[tuple[int, Refill]]:
        out: list[tuple[int, Refill]] = []
        while True:
            line, item = self.peek()
            if not isinstance(item, Refill):
                return out
            out.append((line, item))
            self.take()
