"""The position notation: a whole Langfinger position on one line, like FEN for chess.

A string has up to nine fields separated by single spaces (docs/notation.md
gives the grammar and more examples)::

    s42.3 2a1 h12:LHhm:L07L12:1,y"Yoshi"0:-:-:3 hhmpwl/L03L12/L05/F03F07F11 ...

========  ================================================  =================
field     what                                              example
========  ================================================  =================
game      variant (``s`` standard, ``o`` open_info),        ``s42.3``
          seed, ``.`` shuffles made so far
turn      round, phase (``p`` place, ``a`` act, ``o``       ``2a1``
          over), start player
players   one per seat, ``,`` between: scoundrel letter,    ``h12:LHhm:L07:1``
          optional JSON name, money ``:`` hand ``:``
          loot ``:`` tokens in front
displays  City ``/`` Villa ``/`` Museum ``/`` Harbor        ``hm/L03/-/F03``
squares   5 places x 5 squares: seat digit or ``-``         ``01---/-----/...``
ruin      the exchange squares 1>2 2>3 3>4 2>2 1>1          ``0----``
used      scoundrel used at the Villa ``/`` Museum (R5.2)   ``10/-``
money     money_by_round: rounds ``/``, seats ``,``         ``0,0/3,5``
piles     tools ``/`` loot ``/`` fences, each               ``?:hh/?:L01/?:-``
          ``draw:discard``; ``?`` = deal the draw pile
          from the seed (optional field: all ``?``)
========  ================================================  =================

Tools are letters ``l h p w m`` (lockpick hammer pliers welder map); in a
hand an upper-case letter is a tool everyone saw enter it (``known``, R11.2).
Loot and fence ids are written back to back (``L07L12``); ``-`` is an empty
list. Scoundrels are ``p h t y b`` (pascal hans tommaso yoshiko bobby).

A seat's export (``Game.notation(seat=k)``) writes ``@k`` for the seed,
``#n`` for n cards the seat cannot see (another's hand, a draw pile) and
loot backs as ``[chp]`` (protection ``c p s v``, then the pictured tools).

Parsing checks only the spelling and raises :class:`NotationError` pointing
at the offending character. Whether the position can exist (card counts,
tokens, display sizes) is decided by :func:`load.from_dict`, which raises
:class:`InvalidState`; nothing is checked twice.

>>> import langfinger_widget as lf
>>> g = lf.Game.new(players=2, seed=7)
>>> s = encode(g.state)
>>> decode(s).to_dict() == g.to_dict()
True
>>> try:
...     decode("s7 1x0")
... except NotationError as e:
...     print(e)
at index 4: expected a phase letter (p place, a act, o over)
  s7 1x0
      ^
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from . import load
from . import state as state_mod
from .cards import PLACES, RUIN_RATES, SCOUNDRELS, SQUARES_PER_PLACE, TOOLS
from .errors import NotationError
from .state import DISPLAYS, PILES, State

T = TypeVar("T")

TOOL_LETTERS = {"lockpick": "l", "hammer": "h", "pliers": "p", "welder": "w", "map": "m"}
LETTER_TOOLS = {v: k for k, v in TOOL_LETTERS.items()}
SCOUNDREL_LETTERS = {s: s[0] for s in SCOUNDRELS}  # pascal hans tommaso yoshiko bobby: all differ
LETTER_SCOUNDRELS = {v: k for k, v in SCOUNDREL_LETTERS.items()}
VARIANT_LETTERS = {"standard": "s", "open_info": "o"}
LETTER_VARIANTS = {v: k for k, v in VARIANT_LETTERS.items()}
PHASE_LETTERS = {"place": "p", "act": "a", "over": "o"}
LETTER_PHASES = {v: k for k, v in PHASE_LETTERS.items()}
PROTECTION_LETTERS = {"chest": "c", "pillar": "p", "showcase": "s", "safe": "v"}  # v: vault
LETTER_PROTECTIONS = {v: k for k, v in PROTECTION_LETTERS.items()}
EMPTY = "-"
AS_SEEN = "@"  # s@1: seat 1's export (R11): no seed, unknown cards as backs and counts
HIDDEN = "#"  # #4: four cards the exporting seat cannot see
MAX_DIGITS = len(str(state_mod.MAX_NUMBER))  # seed, shuffles, round and money all fit
UNKNOWN = "?"
COMPOSED = "*"  # s7.3*: a composed position (a puzzle, the builder), not one saved from a game
ID_PREFIX = {"loot": "L", "fences": "F"}


# --- writing -----------------------------------------------------------------------------


def encode(position: State, *, piles: bool = True) -> str:
    """The notation of ``position``; ``piles=False`` leaves out the draw piles' order.

    With ``piles=True`` (the default) :func:`decode` gives back exactly the
    same position, reshuffles included. Without them, decoding deals the
    draw piles from the seed, as ``from_dict`` does for a hand-written position.
    That hides nothing from a seat (hands, face-down ids and the seed stay):
    what one seat may know is ``Game.notation(seat=k)``, its export.
    """
    return encode_dict(position.to_dict(), piles=piles)


def encode_dict(d: dict[str, Any], *, piles: bool = True) -> str:
    """The notation of position data in the ``to_dict`` form (every key present)."""
    seat = d.get("seat")
    game = f"{d['seed']}.{d['shuffles']}" if seat is None else f"{AS_SEEN}{seat}"
    game += COMPOSED if d.get("composed") else ""
    fields = [
        f"{VARIANT_LETTERS[d['variant']]}{game}",
        f"{d['round']}{PHASE_LETTERS[d['phase']]}{d['start_player']}",
        ",".join(_player_text(p) for p in d["players"]),
        "/".join(_display_text(name, d[name]) for name in DISPLAYS),
        "/".join("".join(_seat(s) for s in d["squares"][p]) for p in PLACES),
        "".join(_seat(d["ruin_rates"][r]) for r in RUIN_RATES),
        "/".join("".join(map(str, d["scoundrel_used"][p])) or EMPTY for p in ("villa", "museum")),
        "/".join(",".join(map(str, r)) for r in d["money_by_round"]) or EMPTY,
    ]
    if piles or seat is not None:
        fields.append("/".join(_pile_text(name, d["piles"][name]) for name in PILES))
    else:
        fields.append("/".join(f"{UNKNOWN}:{_list_text(name, d['piles'][name]['discard'])}"
                               for name in PILES))
    return " ".join(fields)


def _seat(seat: int | None) -> str:
    return EMPTY if seat is None else str(seat)


def _tools_text(tools: Sequence[str]) -> str:
    return "".join(TOOL_LETTERS[t] for t in tools) or EMPTY


def _list_text(family: str, items: Sequence[Any]) -> str:
    """Tools as letters; cards as ids, or as backs where a seat's export does not know them."""
    if family == "tools":
        return _tools_text(items)
    return "".join(c if isinstance(c, str) else _back_text(c) for c in items) or EMPTY


def _back_text(back: dict[str, Any]) -> str:
    """A face-down card's back: ``[chp]`` is a chest picturing hammer and pliers (R0.2)."""
    tools = "".join(TOOL_LETTERS[t] for t in back["tools"])
    return f"[{PROTECTION_LETTERS[back['protection']]}{tools}]"


def _display_text(name: str, items: Sequence[str]) -> str:
    return _list_text("tools" if name == "city" else "loot" if name != "harbor" else "fences",
                      items)


def _pile_text(name: str, pile: dict[str, Any]) -> str:
    draw = pile["draw"]
    shown = f"{HIDDEN}{draw}" if isinstance(draw, int) else _list_text(name, draw)
    return f"{shown}:{_list_text(name, pile['discard'])}"


def _hand_text(p: dict[str, Any]) -> str:
    """Known tools first, upper case, then the rest: ``LHhm`` (R11.2); in a seat's export
    another player's hand is its known tools and the count of the rest: ``LH#2``."""
    known = p["known"]
    if "hand" not in p:
        seen = "".join(TOOL_LETTERS[t].upper() * known.get(t, 0) for t in TOOLS)
        return f"{seen}{HIDDEN}{p['hand_size'] - sum(known.values())}"
    out = []
    for tool in TOOLS:
        k = known.get(tool, 0)
        letter = TOOL_LETTERS[tool]
        out.append(letter.upper() * k + letter * (p["hand"].get(tool, 0) - k))
    return "".join(out) or EMPTY


_LINE_BREAKS = {c: f"\\u{ord(c):04x}" for c in "\x85\u2028\u2029"}


def one_line(text: str) -> str:
    """JSON escapes control characters but not these, which ``splitlines`` treats as breaks."""
    return "".join(_LINE_BREAKS.get(c, c) for c in text)


def _player_text(p: dict[str, Any]) -> str:
    default = SCOUNDRELS[p["scoundrel"]].name.split()[0]
    name = "" if p["name"] == default else one_line(json.dumps(p["name"], ensure_ascii=False))
    return (f"{SCOUNDREL_LETTERS[p['scoundrel']]}{name}{p['money']}:"
            f"{_hand_text(p)}:{_list_text('loot', p['loot'])}:{p['tokens']}")


# --- reading -----------------------------------------------------------------------------


class _Reader:
    """A cursor over the text; every ``fail`` names the index and what was expected."""

    def __init__(self, text: str) -> None:
        self.text, self.i = text, 0
        self.seat_export = False  # set by "@seat" in the game field

    def fail(self, expected: str, at: int | None = None) -> NotationError:
        return NotationError(self.text, self.i if at is None else at, expected)

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def at_end(self) -> bool:
        return self.i >= len(self.text)

    def char(self, want: str, what: str) -> None:
        if self.peek() != want:
            raise self.fail(f"{want!r} {what}")
        self.i += 1

    def maybe(self, want: str) -> bool:
        if self.peek() == want:
            self.i += 1
            return True
        return False

    def number(self, what: str) -> int:
        start = self.i
        while self.peek().isdigit() and self.peek().isascii():
            self.i += 1
        if start == self.i:
            raise self.fail(f"a number ({what})")
        if self.i - start > MAX_DIGITS:  # int() refuses very long numbers; none is real
            raise self.fail(f"a number of at most {MAX_DIGITS} digits ({what})", start)
        return int(self.text[start:self.i])

    def letter(self, table: dict[str, str], what: str) -> str:
        c = self.peek()
        if c not in table:
            raise self.fail(what)
        self.i += 1
        return table[c]

    def seat_digit(self, what: str) -> int:
        c = self.peek()
        if not (c.isascii() and c.isdigit()):
            raise self.fail(f"a seat digit ({what})")
        self.i += 1
        return int(c)

    def seat(self, what: str) -> int | None:
        c = self.peek()
        if c == EMPTY:
            self.i += 1
            return None
        if not (c.isascii() and c.isdigit()):
            raise self.fail(f"a seat digit or '-' ({what})")
        self.i += 1
        return int(c)

    def ids(self, family: str, what: str) -> list[Any]:
        """Card ids back to back (``L07L12``), or ``-`` for none; in a seat's export loot
        may also be a back (``L07[chp]``)."""
        if self.maybe(EMPTY):
            return []
        prefix, out = ID_PREFIX[family], list[Any]()
        backs = family == "loot" and self.seat_export
        while self.peek() == prefix or (backs and self.peek() == "["):
            if self.peek() == "[":
                out.append(self.back(what))
                continue
            start = self.i
            digits = self.text[self.i + 1:self.i + 3]
            if len(digits) != 2 or not (digits.isascii() and digits.isdigit()):
                raise self.fail(f"two digits after {prefix!r} in a card id ({what})", start + 1)
            out.append(self.text[start:start + 3])
            self.i += 3
        if not out:
            either = " or [backs]" if backs else ""
            raise self.fail(f"{prefix}<two digits> card ids{either} or '-' ({what})")
        return out

    def back(self, what: str) -> dict[str, Any]:
        """``[chp]``: a face-down card's back, protection letter then pictured tools."""
        self.char("[", f"opening a loot back ({what})")
        protection = self.letter(LETTER_PROTECTIONS, f"a protection letter c p s v "
                                 f"(chest pillar showcase safe) ({what})")
        tools = []
        while self.peek() in LETTER_TOOLS:
            tools.append(LETTER_TOOLS[self.peek()])
            self.i += 1
        if not tools:
            raise self.fail(f"the tool letters pictured on the back ({what})")
        self.char("]", f"closing a loot back ({what})")
        return {"protection": protection, "tools": tools}

    def hidden_count(self, what: str) -> int | None:
        """``#n`` in a seat's export: n cards it cannot see; None if not written here."""
        if not (self.seat_export and self.maybe(HIDDEN)):
            return None
        return self.number(what)

    def tools(self, what: str) -> list[str]:
        """Tool letters in order (a display or a pile), or ``-`` for none."""
        if self.maybe(EMPTY):
            return []
        out = []
        while self.peek() in LETTER_TOOLS:
            out.append(LETTER_TOOLS[self.peek()])
            self.i += 1
        if not out:
            raise self.fail(f"tool letters l h p w m or '-' ({what})")
        return out

    def listing(self, family: str, what: str) -> list[Any]:
        return self.tools(what) if family == "tools" else self.ids(family, what)

    def separated(self, sep: str, count: int, item: Callable[[int], T], what: str) -> list[T]:
        out = [item(0)]
        for k in range(1, count):
            self.char(sep, f"between the {what}")
            out.append(item(k))
        return out

    def space(self, field: str) -> None:
        self.char(" ", f"(one space) before the {field} field")


def decode_dict(text: str) -> dict[str, Any]:
    """Parse notation into position data (``to_dict`` form) without checking that it can exist."""
    if not isinstance(text, str):
        raise NotationError(repr(text), 0, "a notation string")
    r = _Reader(text)
    d: dict[str, Any] = {"format": state_mod.FORMAT}
    d["variant"] = r.letter(LETTER_VARIANTS, "a variant letter (s standard, o open_info)")
    if r.maybe(AS_SEEN):
        r.seat_export = True
        d["seat"] = r.seat_digit("the seat whose export this is")
    else:
        d["seed"] = r.number("the seed")
        d["shuffles"] = r.number("shuffles made so far") if r.maybe(".") else 0
    if r.maybe(COMPOSED):
        d["composed"] = True
    r.space("turn")
    d["round"] = r.number("the round")
    d["phase"] = r.letter(LETTER_PHASES, "a phase letter (p place, a act, o over)")
    d["start_player"] = r.number("the start player's seat")
    r.space("players")
    d["players"] = [_read_player(r)]
    while r.maybe(","):
        d["players"].append(_read_player(r))
    n = len(d["players"])
    if r.at_end():
        return d  # a minimal position: the board is empty, piles dealt from the seed
    if r.peek() != " ":
        raise r.fail("',' and another player, or one space before the displays field")
    r.space("displays")
    families = {"city": "tools", "villa": "loot", "museum": "loot", "harbor": "fences"}
    shown = r.separated("/", 4, lambda k: r.listing(families[DISPLAYS[k]],
                                                    f"the {DISPLAYS[k]} display"), "displays")
    d.update(zip(DISPLAYS, shown, strict=True))
    r.space("squares")
    rows = r.separated("/", len(PLACES), lambda k: [
        r.seat(f"square {j + 1} of the {PLACES[k]}") for j in range(SQUARES_PER_PLACE)
    ], "places' squares")
    d["squares"] = dict(zip(PLACES, rows, strict=True))
    r.space("ruin")
    d["ruin_rates"] = {rate: r.seat(f"exchange square {rate}") for rate in RUIN_RATES}
    r.space("used")
    used = r.separated("/", 2, lambda k: _read_seats(r, ("villa", "museum")[k]), "places")
    d["scoundrel_used"] = dict(zip(("villa", "museum"), used, strict=True))
    r.space("money")
    d["money_by_round"] = _read_history(r, n)
    if not r.at_end():
        r.space("piles")
        piles = r.separated("/", 3, lambda k: _read_pile(r, PILES[k]), "piles")
        d["piles"] = dict(zip(PILES, piles, strict=True))
    if not r.at_end():
        raise r.fail("the end of the notation")
    return d


def _read_player(r: _Reader) -> dict[str, Any]:
    p: dict[str, Any] = {"scoundrel": r.letter(
        LETTER_SCOUNDRELS, "a scoundrel letter (p pascal, h hans, t tommaso, y yoshiko, b bobby)")}
    if r.peek() == '"':
        p["name"] = _read_name(r)
    p["money"] = r.number("money")
    r.char(":", "after the money")
    hand, known = _read_hand(r)
    hidden = r.hidden_count("tools in the hand the exporting seat cannot see")
    if hidden is None:
        p["hand"], p["known"] = hand, known
    elif hand != known:
        raise r.fail("only upper-case tools (seen by all, R11.2) before '#' in another's hand")
    else:
        p["hand_size"], p["known"] = sum(hand.values()) + hidden, known
    r.char(":", "after the hand")
    p["loot"] = r.ids("loot", "the player's face-down loot")
    r.char(":", "after the loot")
    c = r.peek()
    if not (c.isascii() and c.isdigit()):
        raise r.fail("a digit: the tokens in front of the player")
    r.i += 1
    p["tokens"] = int(c)  # from_dict checks the range (R1.4)
    return p


def _read_name(r: _Reader) -> str:
    """A JSON string: the quote, escapes, the closing quote."""
    start = r.i
    j = start + 1
    while j < len(r.text) and r.text[j] != '"':
        j += 2 if r.text[j] == "\\" else 1
    if j >= len(r.text):
        raise r.fail("a closing '\"' for the player's name", len(r.text))
    try:
        name = json.loads(r.text[start:j + 1])
    except json.JSONDecodeError as e:
        raise r.fail(f"a JSON string for the player's name ({e.msg})", start + e.pos) from None
    r.i = j + 1
    assert isinstance(name, str)
    return name


def _read_hand(r: _Reader) -> tuple[dict[str, int], dict[str, int]]:
    hand: dict[str, int] = {}
    known: dict[str, int] = {}
    if r.maybe(EMPTY):
        return hand, known
    start = r.i
    while r.peek() and r.peek().lower() in LETTER_TOOLS:
        c = r.peek()
        tool = LETTER_TOOLS[c.lower()]
        hand[tool] = hand.get(tool, 0) + 1
        if c.isupper():
            known[tool] = known.get(tool, 0) + 1
        r.i += 1
    if r.i == start and not (r.seat_export and r.peek() == HIDDEN):
        raise r.fail("tool letters (l h p w m, upper case if known) or '-' for the hand")
    return ({t: hand[t] for t in TOOLS if t in hand}, {t: known[t] for t in TOOLS if t in known})


def _read_seats(r: _Reader, place: str) -> list[int]:
    if r.maybe(EMPTY):
        return []
    seats = []
    while r.peek().isascii() and r.peek().isdigit():
        seats.append(int(r.peek()))
        r.i += 1
    if not seats:
        raise r.fail(f"seat digits or '-' (scoundrels used at the {place})")
    return seats


def _read_history(r: _Reader, n: int) -> list[list[int]]:
    if r.maybe(EMPTY):
        return []
    rounds = []
    while True:
        rounds.append(r.separated(",", n, lambda k: r.number(f"money of seat {k}"),
                                  "seats' money"))
        if not r.maybe("/"):
            return rounds


def _read_pile(r: _Reader, name: str) -> dict[str, Any]:
    pile: dict[str, Any] = {}
    size = r.hidden_count(f"the size of the {name} draw pile")
    if size is not None:
        pile["draw"] = size
    elif r.seat_export:
        raise r.fail(f"'#' and the size of the {name} draw pile (a seat's export)")
    elif not r.maybe(UNKNOWN):
        pile["draw"] = r.listing(name, f"the {name} draw pile, or '?'")
    r.char(":", f"between the {name} draw pile and its discard")
    pile["discard"] = r.listing(name, f"the {name} discard pile")
    return pile


def decode(text: str) -> State:
    """Parse and check notation: :class:`NotationError` if misspelled, else
    :class:`InvalidState` (from ``load.from_dict``) if the position cannot exist.

    A seat's export (``s@1 ...``) loads with what that seat cannot know resampled
    (``export.load``).
    """
    d = decode_dict(text)
    if "seat" in d:
        from . import export

        return export.load(d)
    return load.from_dict(d)


__all__ = ["NotationError", "decode", "decode_dict", "encode", "encode_dict"]
