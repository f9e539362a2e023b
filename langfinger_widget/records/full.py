"""Full records: a game written as a record, and a record (``view all``) replayed and checked.

The text itself (its lines and header) is :mod:`.syntax`'s; this module ties it to the game.

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
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..kernel import cards, describe, rules, views
from ..kernel.errors import BadArgument, IllegalAction, InvalidState, RecordError
from ..kernel.game import Game
from ..kernel.rules import Event
from ..kernel.state import State
from .syntax import (
    DATE,
    HIDDEN,
    Action,
    Body,
    Deal,
    Decision,
    End,
    Header,
    Item,
    Position,
    Refill,
    RoundStart,
    Seat,
    SeatView,
    action_text,
    card_words,
    header_lines,
    label,
    listing,
    render,
    ruling_of,
)

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
    return [Refill(ev["place"], card_words(ev["place"], ev["cards"]))
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
        what = "shows nothing" if shown is None else f"shows {listing(shown)}"
        raise RecordError(line, f"decision {d.number} {what}; the record says "
                                f"{'nothing' if d.reveal is None else listing(d.reveal)}")
    if action["type"] == "sell":
        raise RecordError(line, f"decision {d.number} sells the cards at {listing(shown)} of the "
                                f"seller's face-down row, not at {listing(d.reveal)} (R8.1)",
                          "R8.1")
    rule = "R6.1" if action["type"] == "exchange" else "R5.1"
    verb = "drew" if action["type"] == "exchange" else "took"
    raise RecordError(line, f"forged card: decision {d.number} {verb} {listing(shown)}, not "
                            f"{listing(d.reveal)} ({rule})", rule)


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


__all__ = ["Record", "read_full", "write"]
