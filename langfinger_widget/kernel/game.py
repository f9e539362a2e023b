"""``Game``: the public face of the kernel (history, undo, seeds, views).

>>> import langfinger_widget as lf
>>> g = lf.Game.new(players=3, seed=42)
>>> g.phase, g.round, g.start_player, g.to_move  # the seed drew seat 2 to start (R1.0)
('place', 1, 2, 2)
>>> g.play({"type": "place", "place": "museum"})[0]["square"]
0
>>> g.why_illegal({"type": "pass"})
'R2.1: tokens are being placed; every token must be placed, there is no passing'
>>> g.undo(); g.to_move
2
>>> lf.Game.new(players=3, seed=42, start_player=0).to_move
0
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Any

from ..trail import Trail
from . import hidden, invariants, load, rules, tally, views
from .action_dicts import Action
from .errors import BadArgument, IllegalAction, InvalidState
from .rules import Event, Key
from .state import State


class _Record:
    """The game's own events, written down by replaying its decisions when asked for.

    :meth:`Game.play` gives its events to the caller, to keep or change; the
    game's record is made apart, by playing the same keys again from the
    start position (the kernel is deterministic, its shuffles included), and
    only when the log or an undo barrier is asked for: self-play pays nothing.
    """

    __slots__ = ("barriers", "events", "kept", "marks", "owned", "state")

    def __init__(self, events: Sequence[Event]) -> None:
        # The setup's events, then those of each recorded decision, and where each recorded
        # decision's events start: trails, so that a copy of the game shares them.
        self.events: Trail[Event] = Trail(events)
        self.marks: Trail[int] = Trail()
        self.state: State | None = None  # the position after them (None: none recorded)
        # Whether ``state`` is this record's alone: a copy shares it with its original until
        # one of them records a decision (copy on write: a server copies the game for every
        # move, and most copies never write their record).
        self.owned = True
        # Once asked for, the record is kept as the game is played (see ``keep``): a game
        # whose log is read after every move (a server's) need not replay each move again.
        self.kept = False
        # Each seat's sight barrier (see ``barrier``) as last found: (the decisions read, it).
        self.barriers: dict[int | None, tuple[int, int]] = {}

    def catch_up(self, base: State, played: Sequence[Key]) -> None:
        """Record the decisions of ``played`` not recorded yet."""
        done = len(self.marks)
        self.kept = True
        if done == len(played):
            return
        position = self.state
        if position is None and done:  # kept without a position (see keep): write it anew
            self.events.cut(self.marks[0])
            self.marks.cut(0)
            self.barriers.clear()
            done = 0
        if position is None:
            position = base.copy()
        elif not self.owned:
            position = position.copy()
        for key in played[done:]:
            self.marks.append(len(self.events))
            events: list[Event] = []
            rules.resolve(position, key, events)
            self.events.extend(events)
        self.state = position
        self.owned = True

    def keep(self, decisions: int, events: Sequence[Event]) -> None:
        """A decision was just played (``decisions`` in all now) with ``events``: record it
        as it is, if the record is kept and was complete before it (replaying it later would
        make the same events: the kernel is deterministic)."""
        if not self.kept or len(self.marks) != decisions - 1:
            return
        self.marks.append(len(self.events))
        self.events.extend(views.copy_events(list(events)))  # the caller's are its own
        # No position is kept (copying it would cost what the replay saves): a kept record
        # is complete after every decision, so it needs none, unless play goes on without
        # it (never, short of a bug), and then catch_up writes the record anew.
        self.state = None
        self.owned = True

    def cut(self, decisions: int, position: State) -> None:
        """Forget what follows the first ``decisions`` (an undo); ``position`` is after them."""
        if len(self.marks) > decisions:
            self.events.cut(self.marks[decisions])
            self.marks.cut(decisions)
            # A barrier found among the decisions kept still stands; one that read further
            # is read again.
            self.barriers = {s: b for s, b in self.barriers.items() if b[0] <= decisions}
            self.state = position.copy() if decisions else None
            self.owned = True

    def copy(self) -> _Record:
        twin = _Record.__new__(_Record)
        twin.events = self.events.copy()  # the events themselves are never changed: shared
        twin.marks = self.marks.copy()
        twin.state = self.state
        twin.owned = self.owned = self.state is None
        twin.kept = self.kept
        twin.barriers = dict(self.barriers)
        return twin

    def barrier(self, seat: int | None) -> int:
        """The number of recorded decisions up to the last whose events showed ``seat`` a card
        hidden from it before (Game.sight_barrier). What the last answer read is not read
        again: a server asks after every move, and each answer scanned back to the last card
        shown (a refill: a round's decisions) again."""
        marks, events = self.marks, self.events
        decisions = len(marks)
        read, found = self.barriers.get(seat, (0, 0))  # (cut drops those that read further)
        end = len(events)
        for index in range(decisions - 1, read - 1, -1):
            start = marks[index]
            if any(views.shows_hidden(e, seat) for e in events[start:end]):
                found = index + 1
                break
            end = start
        self.barriers[seat] = (decisions, found)
        return found


class Game:
    """A game of Langfinger: a position plus the actions and events that led to it.

    Every change goes through :meth:`play`, which validates the action (raising
    :class:`IllegalAction` and changing nothing if it is illegal) and returns
    the events, unredacted: the caller of ``play`` is trusted. Anything shown
    to a player goes through :meth:`view` and :meth:`log`.
    """

    __slots__ = ("_base", "_base_events", "_chose", "_legal_ids", "_movers", "_played",
                 "_record", "_state", "_version")

    def __init__(self, position: State, events: Sequence[Event] = ()) -> None:
        self._state = position
        self._base = position.copy()  # undo and the record replay from here
        self._base_events = list(events)  # the deal's (or none, for a loaded position)
        self._record = _Record(events)
        self._played: Trail[Key] = Trail()
        self._movers: Trail[int] = Trail()
        # Whether each decision had another legal move than the one played: a pass that was
        # the only move (an empty display) is played by the board itself, and Undo skips it.
        self._chose: Trail[bool] = Trail()
        self._legal_ids: list[int] | None = None  # of this position, computed once
        self._version = 0

    # --- making games -------------------------------------------------------------------
    @classmethod
    def new(
        cls, players: int = 3, seed: int | None = None, *, names: Sequence[str] | None = None,
        scoundrels: Sequence[str] | None = None, start_player: int | None = None,
        variant: str = "standard",
    ) -> Game:
        """Deal a new game (R1). ``seed=None`` picks a random seed, kept in the position.

        ``start_player=None`` draws the start player from the seed (R1.0).
        """
        if seed is None:
            seed = secrets.randbelow(2**31)
        position, events = rules.setup(players, seed, names, scoundrels, start_player, variant)
        return cls(position, events)

    @classmethod
    def from_dict(cls, data: Any) -> Game:
        """Load a position (docs/state-format.md); :class:`InvalidState` if it cannot exist.

        A seat's export (``to_dict(seat=k)``, with a ``seat`` key) loads with what
        that seat cannot know resampled, from a generator seeded by the export.
        """
        if isinstance(data, dict) and "seat" in data:
            from . import export

            return cls(export.load(data))
        return cls(load.from_dict(data))

    def to_dict(self, seat: int | None = None) -> dict[str, Any]:
        """The position as JSON-ready data; ``Game.from_dict`` continues it exactly.

        With ``seat``: only what that seat knows (its export, R11): other hands as
        sizes, face-down cards as backs, draw piles as sizes, no seed.
        """
        if seat is None:
            return self._state.to_dict()
        self._check_seat(seat)
        from . import export

        return export.seat_dict(self._state, seat)

    def notation(self, seat: int | None = None) -> str:
        """The position as one line of notation (docs/notation.md); ``seat``: its export."""
        from . import notation

        if seat is None:
            return notation.encode(self._state)
        return notation.encode_dict(self.to_dict(seat))

    @classmethod
    def from_notation(cls, s: str) -> Game:
        """Load a position from notation; ``NotationError`` points at a misspelling."""
        from . import notation

        return cls(notation.decode(s))

    def origin(self) -> Game:
        """A new game at the position this one's :attr:`history` starts from (as dealt or
        loaded), with the events of that start (the deal, for a new game): records replay
        the history from here (docs/records.md)."""
        return Game(self._base.copy(), self._base_events)

    def record(self, seat: int | str | None = "auto", **options: Any) -> str:
        """The game as a record: a header, then one decision a line (docs/records.md).

        ``seat=k`` holds only what seat ``k`` saw; ``seat=None`` holds everything
        (the seed, every hand). Left out, the full record is written for a finished
        game, and an unfinished one is refused: its full record would show hidden
        cards. ``options``: ``bots`` ({seat: level}), ``date``, ``checkpoints``.
        """
        from .. import records  # imported on first use: the kernel stays quick to import

        return records.write(self, seat, **options)

    @classmethod
    def from_record(cls, text: str) -> Game:
        """Replay a record, checking every decision (``lf.RecordError`` names the line and
        the ruling). A seat's record gives its last position with what that seat could
        not see dealt at random, consistently with everything it saw."""
        from .. import records

        return records.read(text).game()

    def copy(self) -> Game:
        """An independent game at the same position, with the same history."""
        # Not through __init__, which copies the position it starts from: the base is never
        # changed once made (undo and the record copy it), so a copy may share it.
        twin = Game.__new__(Game)
        twin._base = self._base
        twin._base_events = self._base_events
        twin._legal_ids = self._legal_ids  # the same position: the same legal ids (never changed)
        twin._state = self._state.copy()
        twin._record = self._record.copy()
        twin._played = self._played.copy()  # trails: shared, whatever the game's length
        twin._movers = self._movers.copy()
        twin._chose = self._chose.copy()
        twin._version = self._version
        return twin

    # --- the position ---------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The live position (read it; change it only through :meth:`play`)."""
        return self._state

    @property
    def num_players(self) -> int:
        return self._state.num_players

    @property
    def round(self) -> int:
        return self._state.round

    @property
    def phase(self) -> str:
        """``"place"`` (R2), ``"act"`` (R3-R8) or ``"over"`` (R10)."""
        return self._state.phase

    @property
    def start_player(self) -> int:
        return self._state.start_player

    @property
    def to_move(self) -> int | None:
        """The seat whose decision is pending; None when the game is over."""
        return rules.to_move(self._state)

    @property
    def money(self) -> list[int]:
        """Each player's total (not wrapped at 20, R10.1)."""
        return [p.money for p in self._state.players]

    @property
    def is_over(self) -> bool:
        return self._state.phase == "over"

    @property
    def winners(self) -> list[int]:
        """Every seat tied for the most money (R10.2); [] until the game is over."""
        return rules.winners(self._state)

    def standings(self) -> list[dict[str, Any]]:
        """Each seat's final money and where it came from, in seat order; [] until the game is
        over (the protocol's, and what the end screen shows).

        ``sources`` splits the money between chests cashed (R5.3) and sales (R8.1), the only
        ways to earn it; ``before`` is added for money held when this game's history began
        (a loaded position), so that the sources always add up to ``score``.
        """
        if not self.is_over:
            return []
        rows = tally.counts(self._recorded().events, self.num_players)
        out = []
        for seat, (p, row) in enumerate(zip(self._state.players, rows, strict=True)):
            sources = {"chests": row["money_from_chests"], "sales": row["money_from_sales"]}
            if before := p.money - sum(sources.values()):
                sources["before"] = before
            out.append({"seat": seat, "score": p.money, "sources": sources})
        return out

    @property
    def seed(self) -> int:
        return self._state.seed

    @property
    def version(self) -> int:
        """A counter that changes on every :meth:`play` and :meth:`undo`.

        The move number alone is not enough to tell positions apart: an undo
        followed by another move comes back to the same number in another
        situation. Work computed for one version (a bot's move, a hint) is
        stale once the version has changed.
        """
        return self._version

    # --- actions --------------------------------------------------------------------------
    def _legal(self) -> list[int]:
        """The legal action ids of this position (rules.legal_ids), listed once per position."""
        ids = self._legal_ids
        if ids is None:
            ids = self._legal_ids = rules.legal_ids(self._state)
        return ids

    @property
    def to_decide(self) -> list[int]:
        """The seats that may decide now (the game protocol's): ``[to_move]``, or [] when the
        game is over. Langfinger has no simultaneous step, so never more than one."""
        seat = rules.to_move(self._state)
        return [] if seat is None else [seat]

    def legal_actions(self, seat: int | None = None) -> list[dict[str, Any]]:
        """Every legal action of :attr:`to_move`, JSON-ready, without duplicates.

        With ``seat``: that seat's, which are none unless it is to move (the protocol's
        question, asked of every seat alike).
        """
        if seat is not None and seat != self._deciding(seat):
            return []
        return rules.shared_actions(self._legal())  # read-only dicts (action_dicts.py)

    def _deciding(self, seat: int) -> int | None:
        """The seat to move, after checking that ``seat`` is one (:class:`BadArgument`)."""
        self._check_seat(seat)
        return rules.to_move(self._state)

    def _not_deciding(self, seat: int | None) -> str | None:
        """Why ``seat`` may not decide now, naming the ruling; None if it may (or is None)."""
        if seat is None:
            return None
        mover = self._deciding(seat)
        if mover == seat:
            return None
        if mover is None:
            return "R10.1: the game is over; no more actions"
        if self._state.phase == "place":
            return f"R2.1: seat {mover} places a token now, not seat {seat}"
        return f"R3.1: the token acting now is seat {mover}'s, not seat {seat}'s"

    def _legal_id(self, action: Any) -> int | None:
        """The id of ``action`` if it is legal now; IllegalAction if it is malformed."""
        legal = self._legal()  # first: listing them gives every legal key its id (rules.id_of)
        aid = action.id if type(action) is Action else rules.id_of(rules.action_key(action))
        return aid if aid is not None and aid in legal else None

    def is_legal(self, action: Any) -> bool:
        try:
            return self._legal_id(action) is not None
        except IllegalAction:
            return False

    def why_illegal(self, action: Any, seat: int | None = None) -> str | None:
        """None if ``action`` is legal now (for ``seat``, if given), else the reason, naming
        the ruling."""
        return self._not_deciding(seat) or rules.explain(self._state, action)

    def play(self, action: Any, seat: int | None = None) -> list[Event]:
        """Play ``action`` for :attr:`to_move` and return the events (unredacted).

        Raises :class:`IllegalAction` (naming the ruling) and changes nothing
        if the action is malformed or illegal, or ``seat`` is given and is not to move.
        """
        if seat is not None and (why := self._not_deciding(seat)):
            raise IllegalAction(why)
        aid = self._legal_id(action)
        if aid is None:
            raise IllegalAction(rules.explain(self._state, action) or "illegal action")
        return self._apply(rules.ACTIONS[aid])

    def _apply(self, key: Key) -> list[Event]:
        events: list[Event] = []
        self._chose.append(len(self._legal()) > 1)
        self._movers.append(rules.resolve(self._state, key, events))
        self._legal_ids = None
        self._played.append(key)
        self._version += 1
        record = self._record
        if record.kept:  # (self-play never asks for the record: no call a decision for it)
            record.keep(len(self._played), events)
        return events  # the caller's own: the game's record is written apart (_Record)

    def undo(self) -> None:
        """Take back the last :meth:`play` exactly (replaying the history from its start)."""
        if not self._played:
            raise IllegalAction("nothing to undo")
        self._played.pop()
        position = self._base.copy()
        for key in self._played:
            rules.resolve(position, key, None)
        self._state = position
        self._movers.pop()
        self._chose.pop()
        self._record.cut(len(self._played), position)
        self._legal_ids = None
        self._version += 1

    @property
    def history(self) -> list[dict[str, Any]]:
        """The actions played since this game was dealt or loaded."""
        return [rules.key_action(k) for k in self._played]

    @property
    def move_number(self) -> int:
        """How many decisions :attr:`history` holds, without building it (a table asks after
        every move)."""
        return len(self._played)

    @property
    def deciders(self) -> list[int]:
        """The seat that made each decision of :attr:`history`, in order."""
        return list(self._movers)

    @property
    def choices(self) -> list[bool]:
        """For each decision of :attr:`history`, whether another move was legal then: False
        for a pass that was the only move (an empty display, no payable card), which a board
        plays by itself and its Undo steps over."""
        return list(self._chose)

    def sight_barrier(self, seat: int | None) -> int:
        """How many decisions of :attr:`history` stand for ``seat`` under R12.1.

        That is the history's length just after the last decision whose events
        showed ``seat`` a card hidden from it before (a tool drawn at the Ruin,
        a stolen front, a refill); an Undo against an opponent stops there.
        ``seat=None`` is the open board (R12.4): it shows every hand and front, so
        what it had not shown is each card drawn from a pile, whoever drew it.
        """
        self._check_seat(seat)
        return self._recorded().barrier(seat)

    def resample(self, seat: int, rng: random.Random) -> Game:
        """A twin that ``seat`` cannot tell from this game: everything it cannot see (rival
        hands, face-down fronts, pile order, the seed) dealt afresh by ``rng``, consistently
        with its view (R11); the search bots play on twins.

        The twin's history starts here and its log so far is ``log(seat)``: it holds nothing
        the seat has not seen, so it can be handed to that seat's bot.
        """
        if seat is None:
            raise BadArgument("resample a seat's game: the open board hides nothing")
        self._check_seat(seat)
        return Game(hidden.resample(self._state, seat, rng), self.log(seat))

    def check_invariants(self) -> None:
        """``AssertionError`` naming the ruling unless every card and token is where one can
        be (the conformance checks' hook, ``langfinger_widget.testing``): counted afresh, then
        the loader's own check that play can reach this position."""
        invariants.conserved(self._state)
        try:
            load.check(self._state)
        except InvalidState as e:
            raise AssertionError(str(e)) from e

    # --- what a seat may see ---------------------------------------------------------------
    def _check_seat(self, seat: int | None) -> None:
        if seat is None:
            return
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.num_players:
            raise BadArgument(f"seat must be None or 0..{self.num_players - 1}, not {seat!r}")

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The position as ``seat`` may see it (docs/view-format.md; None: everything)."""
        self._check_seat(seat)
        return views.view(self._state, seat)

    def log(self, seat: int | None = None) -> list[Event]:
        """The events so far, redacted for ``seat`` exactly as :meth:`view` is."""
        self._check_seat(seat)
        return views.redact_log(self._recorded().events, seat)

    def views(self, seats: Iterable[int], spectator: bool = False
              ) -> dict[int | None, dict[str, Any]]:
        """``{seat: view(seat)}`` for each of ``seats``, and with ``spectator``
        ``{None: public_view()}``, the part all of them see alike built once (a server's
        broadcast after a move). The views share that part: read them only (``view`` gives
        one to change)."""
        wanted = list(seats)
        for seat in wanted:
            if seat is None:
                raise BadArgument("views() is for seats; the open board is view(None)")
            self._check_seat(seat)
        return views.views_for(self._state, wanted, spectator)

    def public_view(self) -> dict[str, Any]:
        """What a spectator may see (R13.1): no hand, no face-down front, no pile order.

        Unlike ``view(None)`` (the open board, which shows everything), this
        holds only what is public to every seat; ``spectator`` is True in it.
        """
        return views.public_view(self._state)

    def public_log(self) -> list[Event]:
        """The events so far, redacted for a spectator exactly as :meth:`public_view` is."""
        return views.public_log(self._recorded().events)

    def _recorded(self) -> _Record:
        self._record.catch_up(self._base, self._played)
        return self._record

    def _repr_html_(self) -> str:
        """The open board as a static picture (render.py), for outputs where no kernel runs."""
        from . import render  # imported on first display: the kernel stays quick to import

        return render.html(self.view(None))

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """Text-only outputs (a terminal, a plain-text notebook output) show the board too."""
        from . import render

        printer.text(repr(self) if cycle else render.text(self.view(None)))

    def __repr__(self) -> str:
        return (f"<Game {self.num_players} players, round {self.round}, {self.phase}, "
                f"to move {self.to_move}, money {self.money}>")
