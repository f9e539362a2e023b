"""Game records: a small header, then one decision a line, replayed and checked on reading.

A record is plain UTF-8 text, written to be read by people and compared with
``diff`` (docs/records.md gives the grammar)::

    langfinger-record 1
    date 2025-06-01
    deck "Langfinger reconstruction 1 (R0.4, see docs/cards.md)"
    variant standard
    seat 0 "Anna" hans human
    seat 1 "Pascal" pascal bot hard
    start 0
    seed 42
    view all
    result money 21,14 winners 0

    deal Anna hammer,pliers
    deal Pascal lockpick,pliers,pliers
    refill city pliers,lockpick,hammer,map
    ...
    round 1
    1. Anna place museum
    2. Pascal place city
    ...
    9. Anna steal 0 pay hammer,map +scoundrel -> L07
    ...
    end

Reading (:func:`read`) replays every decision through the kernel: an illegal
decision, a card the deal cannot have produced, a missing or extra line, a
wrong version or header raise :class:`~langfinger_widget.kernel.errors.RecordError`
naming the line and, where a rule decides, the ruling. Nothing half-read is
returned.

A record for one seat (``view 1``) holds only what that seat saw, exactly as
``Game.log(1)``: no seed, no other hand, no face-down front. It is replayed
from that seat's side by :mod:`langfinger_widget.records.seat`, which samples
what the seat could not see.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..kernel import cards, describe, rules, views
from ..kernel.cards import SCOUNDRELS, TOOLS
from ..kernel.errors import BadArgument, IllegalAction, InvalidState, RecordError
from ..kernel.game import Game
from ..kernel.limits import too_big
from ..kernel.notation import one_line
from ..kernel.rules import Event
from ..kernel.state import State

MAGIC = "langfinger-record"
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


def _listing(items: Sequence[str]) -> str:
    return ",".join(items) or NONE


def back_word(card: Mapping[str, Any]) -> str:
    """A loot card's public back in the record's words: ``pillar[lockpick+hammer+map]``."""
    return f"{card['protection']}[{'+'.join(card['tools'])}]"


def _card_words(place: str, cards_: Sequence[Any]) -> tuple[str, ...]:
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
        return f"take {_listing(action['tools'])}"
    if kind == "steal":
        extra = " +scoundrel" if action.get("scoundrel") else ""
        return f"steal {action['slot']} pay {_listing(action['pay'])}{extra}"
    if kind == "exchange":
        return f"exchange {action['rate']} give {_listing(action['give'])}"
    if kind == "sell":
        return f"sell {action['fence']} {_listing(action['loot'])}"
    return "pass"


def render(item: Item) -> str:
    """One line of a record."""
    if isinstance(item, Deal):
        return f"deal {item.label} {_listing(item.tools)}"
    if isinstance(item, Refill):
        return f"refill {item.place} {_listing(item.cards)}"
    if isinstance(item, RoundStart):
        return f"round {item.number}"
    if isinstance(item, Decision):
        reveal = "" if item.reveal is None else f" -> {_listing(item.reveal)}"
        return f"{item.number}. {item.label} {action_text(item.action)}{reveal}"
    if isinstance(item, Position):
        return f"position {item.text}"
    if isinstance(item, SeatView):
        return "view " + one_line(json.dumps(item.view, ensure_ascii=False,
                                              separators=(",", ":")))
    return "end"


# --- what a decision showed the record's seat -------------------------------------------------


def sold_from(action: Mapping[str, Any], before: State) -> tuple[str, ...]:
    """Where the sold cards lay in the seller's face-down row (0: taken first): everyone sees
    which of several cards with the same back leaves the row (R8.1)."""
    seat = rules.to_move(before)
    row = before.players[seat].loot if seat is not None else []
    return tuple(str(row.index(x)) if x in row else HIDDEN for x in action["loot"])


def reveal_of(action: Mapping[str, Any], events: Sequence[Event], before: State
              ) -> tuple[str, ...] | None:
    """What the decision showed (events already redacted): a stolen front, the tools drawn,
    or the places in the row of the loot sold."""
    if action["type"] == "sell":
        return sold_from(action, before)
    for ev in events:
        if ev["type"] == "steal" and "id" in ev["loot"]:
            return (ev["loot"]["id"],)
        if ev["type"] == "exchange":
            drew = ev["drew"]
            return tuple(drew) if drew is not None else (HIDDEN,) * ev["count"]
    return None


def refills_of(events: Sequence[Event]) -> list[Refill]:
    return [Refill(ev["place"], _card_words(ev["place"], ev["cards"]))
            for ev in events if ev["type"] == "refill"]


def deals_of(events: Sequence[Event], names: Sequence[str]) -> list[Deal]:
    return [Deal(label(names[ev["seat"]]),
                 tuple(ev["tools"]) if ev["tools"] is not None else (HIDDEN,) * ev["count"])
            for ev in events if ev["type"] == "deal"]


def round_start(state: State) -> RoundStart | None:
    """``round N`` when every token is in front of its owner and placing begins (R2.1)."""
    if state.phase == "place" and all(p.tokens == cards.TOKENS_PER_PLAYER for p in state.players):
        return RoundStart(state.round)
    return None


# --- writing ----------------------------------------------------------------------------------


def _whose(game: Game, seat: int | str | None) -> int | None:
    """Resolve ``seat="auto"``: the full record only for a finished game (it shows every card)."""
    if seat == "auto":
        if not game.is_over:
            raise BadArgument(
                "the game is not over, and its full record would show every hidden card (the "
                "seed, every hand): pass seat=k for what seat k saw, or seat=None to ask for "
                "the full record anyway")
        return None
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                             or not 0 <= seat < game.num_players):
        raise BadArgument(f"seat must be None, 'auto' or 0..{game.num_players - 1}, not {seat!r}")
    return seat if isinstance(seat, int) else None


def _is_fresh_deal(origin: Game) -> bool:
    """Does ``Game.new`` with the origin's own setup give exactly this position and deal?"""
    s = origin.state
    try:
        dealt = Game.new(s.num_players, s.seed, names=[p.name for p in s.players],
                         scoundrels=[p.scoundrel for p in s.players], start_player=s.start_player,
                         variant=s.variant)
    except ValueError:
        return False
    return dealt.to_dict() == origin.to_dict() and dealt.log(None) == origin.log(None)


def _check_bots(bots: Mapping[Any, str] | None, players: int) -> dict[int, str]:
    out: dict[int, str] = {}
    for key, name in dict(bots or {}).items():
        seat = int(key)
        if not 0 <= seat < players:
            raise BadArgument(f"bot seat {key!r} is not a seat of a {players}-player game")
        if not isinstance(name, str) or not name or re.search(r"\s", name):
            raise BadArgument(f"a bot is named by one word (a level or a label), not {name!r}")
        out[seat] = name
    return out


def header_lines(h: Header) -> list[str]:
    lines = [f"{MAGIC} {VERSION}", f"date {h.date}", f"deck {json.dumps(h.deck)}",
             f"variant {h.variant}"]
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
        lines.append(f"result money {_listing([str(m) for m in h.money])} "
                     f"winners {_listing([str(w) for w in h.winners])}")
    return lines


def write(game: Game, seat: int | str | None = "auto", *, bots: Mapping[Any, str] | None = None,
          date: str | None = None, checkpoints: bool = False) -> str:
    """The record of ``game`` (see :meth:`Game.record`); ``checkpoints`` writes the position
    at each round's start (full records only)."""
    view = _whose(game, seat)
    if checkpoints and view is not None:
        raise BadArgument("checkpoints are positions with every card: full records only")
    date = date if date is not None else datetime.date.today().isoformat()
    if not DATE.fullmatch(date):
        raise BadArgument(f"date must be YYYY-MM-DD (or '?'), not {date!r}")
    origin = game.origin()
    s = origin.state
    names = [p.name for p in s.players]
    robots = _check_bots(bots, s.num_players)
    dealt = bool(origin.log(None)) and (view is not None or _is_fresh_deal(origin))
    header = Header(
        date=date, deck=cards.DECK_NAME[0], variant=s.variant,
        seats=tuple(Seat(p.name, p.scoundrel, robots.get(i)) for i, p in enumerate(s.players)),
        start=s.start_player, view=view, seed=s.seed if dealt and view is None else None,
        money=tuple(game.money) if game.is_over else None,
        winners=tuple(game.winners) if game.is_over else None,
    )
    items: list[Item] = []
    if dealt:
        start_events = origin.log(view)
        items += deals_of(start_events, names)
        items += refills_of(start_events)
    elif view is None:
        items.append(Position(origin.notation()))
    else:
        items.append(SeatView(origin.view(view)))
    items += _body(origin, game, view, names, checkpoints)
    items.append(End())
    return "\n".join([*header_lines(header), "", *(render(i) for i in items)]) + "\n"


def _body(origin: Game, game: Game, view: int | None, names: list[str],
          checkpoints: bool) -> list[Item]:
    """The decisions, each with what it showed, replayed from the origin (a self-check too)."""
    items: list[Item] = []
    first = round_start(origin.state)
    if first is not None:
        items.append(first)
    for number, (seat, action) in enumerate(zip(game.deciders, game.history, strict=True), 1):
        before = origin.state.copy()
        events = views.redact_log(origin.play(action), view)
        items.append(Decision(number, label(names[seat]), action,
                              reveal_of(action, events, before)))
        items += refills_of(events)
        begun = round_start(origin.state)
        if begun is not None:
            items.append(begun)
            if checkpoints:
                items.append(Position(origin.notation()))
    return items


# --- reading: lines and tokens ------------------------------------------------------------------


def _tokens(text: str, line: int) -> list[str]:
    """The words of a line; a quoted name is one word; ``#`` outside quotes starts a comment."""
    out: list[str] = []
    for tok in TOKEN.findall(text):
        if tok.startswith("#"):
            break
        if tok == '"':
            raise RecordError(line, "a name's closing '\"' is missing")
        out.append(tok)
    return out


def _name(tok: str, line: int) -> str:
    if not tok.startswith('"'):
        return tok
    try:
        name = json.loads(tok)
    except json.JSONDecodeError as e:
        raise RecordError(line, f"not a quoted name: {tok} ({e.msg})") from None
    if not isinstance(name, str):
        raise RecordError(line, f"not a quoted name: {tok}")
    return name


def _whole(tok: str, what: str, line: int) -> int:
    if not (tok.isascii() and tok.isdigit()) or len(tok) > 18:
        raise RecordError(line, f"{what} must be a whole number, not {tok!r}")
    return int(tok)


def _split(tok: str) -> list[str]:
    return [] if tok == NONE else tok.split(",")


def _tools(tok: str, line: int, hidden: bool = False) -> list[str]:
    tools = _split(tok)
    allowed = (*TOOLS, HIDDEN) if hidden else TOOLS
    bad = [t for t in tools if t not in allowed]
    if bad or "" in tools:
        raise RecordError(line, f"unknown tool(s) {bad or tools} (R0.1: tools are "
                                f"{', '.join(TOOLS)})", "R0.1")
    return tools


# --- reading: the header ----------------------------------------------------------------------


HEADER_KEYS = ("date", "deck", "variant", "seat", "start", "seed", "view", "result")


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
        toks = _tokens(lines[i], line)
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
    line, rest = _one(found, "date", end)
    if len(rest) != 1 or not DATE.fullmatch(rest[0]):
        raise RecordError(line, f"date must be YYYY-MM-DD or '?', not {' '.join(rest)!r}")
    date = rest[0]
    line, rest = _one(found, "deck", end)
    deck = _name(rest[0], line)
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
    start = _whole(rest[0], "the start player", line)
    if len(rest) != 1 or start >= len(players):
        raise RecordError(line, f"R1.0: the start player is a seat from 0 to {len(players) - 1}",
                          "R1.0")
    seed = None
    if "seed" in found:
        line, rest = _one(found, "seed", end)
        seed = _whole(rest[0], "the seed", line)
    line, rest = _one(found, "view", end)
    view = None if rest == ["all"] else _whole(rest[0], "the record's seat", line)
    if len(rest) != 1 or (view is not None and view >= len(players)):
        raise RecordError(line, f"view is 'all' or a seat from 0 to {len(players) - 1}")
    if seed is not None and view is not None:
        raise RecordError(found["seed"][0], "a seat's record holds no seed: the seed deals "
                                            "every hidden card (R11.1)", "R11.1")
    money, winners = _read_result(*_one(found, "result", end), len(players))
    return Header(date, deck, variant, tuple(players), start, view, seed, money, winners)


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
        players.append(Seat(_name(rest[1], line), scoundrel, bot))
    if len({p.scoundrel for p in players}) != len(players):
        raise RecordError(seats[-1][0], "R0.5: each player has a scoundrel of their own", "R0.5")
    return players


def _read_result(line: int, rest: list[str], n: int
                 ) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    if rest == ["unfinished"]:
        return None, None
    if len(rest) != 4 or rest[0] != "money" or rest[2] != "winners":
        raise RecordError(line, "result is 'unfinished' or 'money 21,14 winners 0'")
    money = tuple(_whole(m, "money", line) for m in _split(rest[1]))
    winners = tuple(_whole(w, "a winner's seat", line) for w in _split(rest[3]))
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
    toks = _tokens(text, line)
    if not toks:
        return None
    head, rest = toks[0], toks[1:]
    if head == "end" and not rest:
        return End()
    if head == "round" and len(rest) == 1:
        return RoundStart(_whole(rest[0], "the round", line))
    if head == "deal" and len(rest) == 2:
        return Deal(label(_name(rest[0], line)), tuple(_tools(rest[1], line, hidden=True)))
    if head == "refill" and len(rest) == 2:
        return _refill(rest[0], rest[1], line)
    if head.endswith(".") and head[:-1].isdigit():
        return _decision(_whole(head[:-1], "the decision number", line), rest, line)
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
    words = _split(listing)
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
    who, rest = _name(toks[0], line), toks[1:]
    reveal: tuple[str, ...] | None = None
    if "->" in rest:
        at = rest.index("->")
        if at != len(rest) - 2:
            raise RecordError(line, "'->' is followed by one list: what the decision showed")
        reveal = tuple(_split(rest[-1]))
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
        return {"type": "steal", "slot": _whole(args[0], "the slot", line),
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
        return {"type": "sell", "fence": args[0], "loot": _split(args[1])}
    return {"type": "pass"}


# --- reading: the record as a whole -------------------------------------------------------------


@dataclass
class Record:
    """A record read and checked: every position of the game it describes.

    ``states[i]`` is the position before decision ``i`` (0-based; ``states[-1]``
    the last). For a seat's record (``seat`` set) the positions are samples:
    what that seat could not see is dealt at random, consistently with all it
    saw, so only that seat's :meth:`view` and :meth:`log` are the game's.
    """

    header: Header
    text: str
    actions: list[Action]
    deciders: list[int]
    lines: list[int]  # the line of each decision
    states: list[State]
    events: list[list[Event]]  # what each decision did (a seat's record: as sampled)
    origin_events: list[Event]

    @property
    def seat(self) -> int | None:
        """Whose record this is: None for the full record."""
        return self.header.view

    @property
    def length(self) -> int:
        """How many decisions the record holds."""
        return len(self.actions)

    def _check(self, at: int, seat: int | None) -> None:
        if not 0 <= at <= self.length:
            raise BadArgument(f"position {at} is outside the record (0..{self.length})")
        if self.seat is not None and seat != self.seat:
            raise BadArgument(f"this record holds only what seat {self.seat} saw: view it from "
                             f"seat {self.seat}, not {seat!r}")

    def view(self, at: int, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` saw after ``at`` decisions (docs/view-format.md)."""
        self._check(at, seat)
        return views.view(self.states[at], seat)

    def log(self, at: int, seat: int | None = None) -> list[Event]:
        """The events up to ``at`` decisions, redacted for ``seat``."""
        self._check(at, seat)
        events = [e for step in self.events[:at] for e in step]
        return views.redact_log([*self.origin_events, *events], seat)

    def legal(self, at: int) -> list[Action]:
        """The legal actions of the seat deciding after ``at`` decisions."""
        return [rules.key_action(k) for k in rules.legal_keys(self.states[at])]

    def round_starts(self) -> list[int]:
        """Positions where a round's placing begins (0 too: the record's first position)."""
        starts = [0]
        starts += [i for i in range(1, self.length + 1) if round_start(self.states[i])]
        return starts

    def labels(self) -> list[str]:
        """Each decision as its line says it: ``12. Anna place museum``."""
        return [f"{i + 1}. {self.header.names[s]} {action_text(a)}"
                for i, (s, a) in enumerate(zip(self.deciders, self.actions, strict=True))]

    def captions(self, seat: int | None = None) -> list[str]:
        """Each decision and what followed from it in plain words, as ``seat`` saw it
        (``None``: everything, full records only): ``captions[i]`` leads from position i to
        i + 1, e.g. "Hans takes two lockpicks from the City." (:mod:`describe`)."""
        self._check(0, seat)
        names = self.header.names
        return [describe.events(step, names, seat) for step in self.events]

    def money(self) -> list[list[int]]:
        """Each seat's money after each number of decisions (public: R11.1)."""
        return [[p.money for p in s.players] for s in self.states]

    def game(self, at: int | None = None) -> Game:
        """A game at position ``at`` (default: the last) to play on.

        The full record gives the real game with its history (undo works); a
        seat's record gives a sample of what that seat knew, with no history.
        """
        at = self.length if at is None else at
        self._check(at, self.seat)
        if self.seat is not None:
            return Game(self.states[at].copy())
        game = Game(self.states[0].copy(), self.origin_events)
        for action in self.actions[:at]:
            game.play(action)
        return game


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


def expect_items(body: Body, expected: Sequence[Item], what: str) -> None:
    """The next items must be exactly ``expected`` (refills, a round's start)."""
    for want in expected:
        line, got = body.peek()
        if got != want:
            shown = "the end of the record" if got is None else repr(render(got))
            ruling = _item_ruling(want)
            raise RecordError(line, f"{what}: expected {render(want)!r} ({ruling}), found "
                                    f"{shown}", ruling)
        body.take()


def _item_ruling(item: Item) -> str:
    if isinstance(item, Refill):
        return "R9.1"
    if isinstance(item, Deal):
        return "R1.3"
    if isinstance(item, RoundStart):
        return "R9.3"
    return "R3.1"


def check_decision(header: Header, state: State, d: Decision, number: int, line: int) -> None:
    """The decision's number follows on, and its label names the player to move (R2.1, R3.1)."""
    if d.number != number:
        raise RecordError(line, f"expected decision {number}, found {d.number} (a line missing "
                                "or repeated?)")
    mover = rules.to_move(state)
    if mover is None:
        raise RecordError(line, f"decision {number} comes after the end of the game (R10.1)",
                          "R10.1")
    if d.label != label(header.names[mover]):
        rule = "R2.1" if state.phase == "place" else "R3.1"
        raise RecordError(line, f"{rule}: decision {number} is {header.names[mover]}'s (seat "
                                f"{mover}) to make, not {d.label}'s", rule)


def check_reveal(d: Decision, action: Action, events: Sequence[Event], before: State,
                 line: int) -> None:
    """What the record says the decision showed must be what it showed (forged cards)."""
    shown = reveal_of(action, events, before)
    if shown == d.reveal:
        return
    if d.reveal is None or shown is None:
        what = "shows nothing" if shown is None else f"shows {_listing(shown)}"
        raise RecordError(line, f"decision {d.number} {what}; the record says "
                                f"{'nothing' if d.reveal is None else _listing(d.reveal)}")
    if action["type"] == "sell":
        raise RecordError(line, f"decision {d.number} sells the cards at {_listing(shown)} of the "
                                f"seller's face-down row, not at {_listing(d.reveal)} (R8.1)",
                          "R8.1")
    rule = "R6.1" if action["type"] == "exchange" else "R5.1"
    verb = "drew" if action["type"] == "exchange" else "took"
    raise RecordError(line, f"forged card: decision {d.number} {verb} {_listing(shown)}, not "
                            f"{_listing(d.reveal)} ({rule})", rule)


def check_end(header: Header, state: State, body: Body, count: int) -> None:
    line, item = body.take()
    if item is None:
        raise RecordError(line, f"truncated: the record stops after decision {count} with no "
                                "'end' line")
    if not isinstance(item, End):
        raise RecordError(line, f"expected decision {count + 1} or 'end', found "
                                f"{render(item)!r}")
    if body.peek()[1] is not None:
        raise RecordError(body.peek()[0], "nothing may follow 'end'")
    over = state.phase == "over"
    if header.money is None:
        if over:
            raise RecordError(line, "the game is over (R10.1) but the header says unfinished",
                              "R10.1")
        return
    if not over:
        raise RecordError(line, f"truncated: the header gives a result, but after decision "
                                f"{count} the game is not over (R10.1)", "R10.1")
    money = tuple(p.money for p in state.players)
    winners = tuple(rules.winners(state))
    if (money, winners) != (header.money, header.winners):
        raise RecordError(line, f"the header's result (money {list(header.money)}, winners "
                                f"{list(header.winners or ())}) is not the game's (money "
                                f"{list(money)}, winners {list(winners)}; R10.2)", "R10.2")


def _full_origin(header: Header, body: Body) -> Game:
    """The first position of a full record: a deal from the seed, or a position line."""
    line, item = body.peek()
    if isinstance(item, Position):
        body.take()
        try:
            game = Game.from_notation(item.text)
        except InvalidState as e:
            raise RecordError(line, f"the position cannot be read: {e}",
                              ruling_of(str(e))) from None
        _check_position_header(header, game.state, line)
        return game
    if header.seed is None:
        raise RecordError(line, "a full record starts from a seed (header 'seed') or a "
                                "'position' line")
    try:
        game = Game.new(len(header.seats), header.seed, names=header.names,
                        scoundrels=[s.scoundrel for s in header.seats],
                        start_player=header.start, variant=header.variant)
    except ValueError as e:
        raise RecordError(line, f"the header cannot deal a game: {e}", ruling_of(str(e))) from None
    expect_items(body, [*deals_of(game.log(None), header.names), *refills_of(game.log(None))],
                 "the deal of this seed")
    return game


def _check_position_header(header: Header, s: State, line: int) -> None:
    """A position line must describe the header's players and game."""
    seats = tuple((p.name, p.scoundrel) for p in s.players)
    if seats != tuple((x.name, x.scoundrel) for x in header.seats):
        raise RecordError(line, "the position's players are not the header's seats")
    if s.variant != header.variant or s.start_player != header.start:
        raise RecordError(line, "the position's variant or start player is not the header's")
    if header.seed is not None and header.seed != s.seed:
        raise RecordError(line, "the position's seed is not the header's")


def read_full(header: Header, body: Body, text: str) -> Record:
    game = _full_origin(header, body)
    record = Record(header, text, [], [], [], [game.state.copy()], [], game.log(None))
    begun = round_start(game.state)
    expect_items(body, [begun] if begun else [], "the first position")
    while True:
        line, item = body.peek()
        if isinstance(item, Position):
            body.take()
            if item.text != game.notation():
                raise RecordError(line, "checkpoint: the position is not the one the decisions "
                                        f"lead to ({game.notation()[:40]}...)")
            continue
        if not isinstance(item, Decision):
            break
        body.take()
        _play_full(record, game, item, line)
        begun = round_start(game.state)
        expect_items(body, [*refills_of(record.events[-1]), *([begun] if begun else [])],
                     f"after decision {item.number}")
    check_end(header, game.state, body, record.length)
    return record


def _play_full(record: Record, game: Game, d: Decision, line: int) -> None:
    number = record.length + 1
    check_decision(record.header, game.state, d, number, line)
    mover = game.to_move
    before = game.state.copy()
    try:
        events = game.play(d.action)
    except IllegalAction as e:
        reason = str(e)
        raise RecordError(line, f"decision {number} is illegal: {reason}", ruling_of(reason)) \
            from None
    check_reveal(d, d.action, events, before, line)
    record.actions.append(game.history[-1])
    record.deciders.append(-1 if mover is None else mover)
    record.lines.append(line)
    record.states.append(game.state.copy())
    record.events.append(events)


__all__ = [
    "SUFFIX", "Decision", "Header", "Record", "RecordError", "Seat", "read_full", "write",
]
