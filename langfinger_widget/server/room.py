"""A live table: the game, its seats, and who may do what now (R13).

A :class:`Room` is the in-memory picture of one table as committed to the
store. Every change is first built as a :class:`Change` on a copy of the game
(nothing shown, nothing kept), committed, and only then applied to the room
and shown: a move nobody has seen yet may be lost by a crash, a move anyone
has seen may not. The room also answers what each seat may receive: its own
view, its own log and, only when it decides, its legal actions (R13.1).
"""

from __future__ import annotations

import reprlib
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from . import kernel
from .kernel import DEFAULT_GAME, BadArgument, Event, GameSpec, GameState
from .store import Loaded, Ply, SeatRow

PERSON, BOT = "person", "bot"
OPEN, TAKEN, RESIGNED, BOT_SEAT = "open", "taken", "resigned", "bot"
WAITING, PLAYING, OVER = "waiting", "playing", "over"

MAX_TIME = 30 * 24 * 3600.0  # a decision may take up to a month (games by mail)
MIN_TIME = 1.0  # short clocks are for blitz (and for tests)
NAME_LENGTH = 24
# A full resync carries the seat's most recent events (the board shows the latest ones);
# the whole game is the record, once it is over.
LOG_LIMIT = 80
SAID_LENGTH = 60  # characters of a client's value quoted back in a refusal
_SAYER = reprlib.Repr()  # never deeper than a few levels (a deep value's repr would recurse)
_SAYER.maxstring = _SAYER.maxother = SAID_LENGTH
# Where an action happens when its first event does not name the place.
_ACTION_PLACE = {"exchange": "ruin", "sell": "harbor"}


def said(value: Any) -> str:
    """What a client sent, as quoted back in a refusal: short, whatever it sent (an answer
    must never be a multiple of the request)."""
    text = _SAYER.repr(value)
    return text if len(text) <= SAID_LENGTH else f"{text[:SAID_LENGTH - 3]}..."


class Refusal(Exception):
    """An intent or request that is refused; ``code`` is for programs, the text for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Options:
    """A table's public settings, fixed at creation: its game (``lf.games``), its players and
    the game's own options (``GameSpec.options``: Langfinger's ``variant``; ``rules`` for any
    other game's), and the table's clock, hints, bots' pace and stand-in."""

    players: int
    variant: str = "standard"
    time: float | None = None  # seconds a decision (R13.3); None: no clock
    hints: bool = False
    pace: float = 0.5  # seconds between a change and a bot's move, so people can follow
    stand_in: str = "medium"  # the level of a bot that plays a seat that timed out or resigned
    game: str = DEFAULT_GAME
    rules: Mapping[str, Any] = field(default_factory=dict)  # another game's own options

    @property
    def spec(self) -> GameSpec:
        return kernel.games.get(self.game)

    def game_options(self) -> dict[str, Any]:
        """``Game.new``'s keywords beyond players and seed."""
        return {"variant": self.variant} if self.game == DEFAULT_GAME else dict(self.rules)

    def to_dict(self) -> dict[str, Any]:
        # Flat, as a create request gives them: a game's own options sit beside the table's.
        out = asdict(self)
        rules = out.pop("rules")
        if self.game != DEFAULT_GAME:
            del out["variant"]
            out.update(rules)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Options:
        game = data.get("game", DEFAULT_GAME)
        given = {k: data[k] for k in ("players", "variant", "time", "hints", "pace",
                                      "stand_in") if k in data}
        if game == DEFAULT_GAME:
            return cls(**given)
        given.pop("variant", None)
        own = kernel.games.get(game).options
        return cls(**given, game=game, rules={k: data[k] for k in own if k in data})


def _number(value: Any, what: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise Refusal("bad_request", f"{what} must be a number from {low:g} to {high:g}, "
                                     f"not {said(value)}")
    return float(value)


def check_game(name: Any) -> GameSpec:
    """The registered game a create request names, or :class:`Refusal` naming the games."""
    if not isinstance(name, str) or name not in kernel.games.names():
        raise Refusal("bad_request", f"no game {said(name)}: the games are "
                                     f"{', '.join(kernel.games.names())}")
    return kernel.games.get(name)


def _game_rules(body: Mapping[str, Any], spec: GameSpec) -> dict[str, Any]:
    """A game's own options (``GameSpec.options``) from a create request, each checked
    against its choices and its ruling; another game's option is refused by name."""
    others = sorted({key for name in kernel.games.names() if name != spec.name
                     for key in kernel.games.get(name).options} - set(spec.options))
    foreign = [key for key in others if key in body]
    if foreign:
        raise Refusal("bad_request", f"{spec.title} has no option {said(foreign[0])}; its "
                                     f"options are {sorted(spec.options)}")
    rules = {}
    for key, (choices, ruling) in spec.options.items():
        value = body.get(key, choices[0])
        if isinstance(value, (list, dict)) or value not in choices:
            raise Refusal("bad_request", f"{ruling}: {key} is "
                                         f"{' or '.join(repr(c) for c in choices)}, not "
                                         f"{said(value)}")
        rules[key] = value
    return rules


def offered_games() -> list[dict[str, Any]]:
    """The games a table may play, as ``/api/info`` and the lobby's form offer them: name,
    title, player counts, the game's own options with their choices (the default first) and
    the bot levels its bots play."""
    out = []
    for name in kernel.games.names():
        spec = kernel.games.get(name)
        out.append({"name": spec.name, "title": spec.title,
                    "players": [spec.players.start, spec.players.stop - 1],
                    "options": {key: list(choices) for key, (choices, _) in spec.options.items()},
                    "hints": gives_hints(spec),
                    "levels": [level for level in kernel.LEVELS if _plays(level, spec)]})
    return out


def gives_hints(spec: GameSpec) -> bool:
    """Whether the Hint search can play the game: Langfinger's samples from the view itself,
    any other game's searches the twins its ``resample`` makes."""
    return spec.name == DEFAULT_GAME or callable(getattr(spec.Game, "resample", None))


def _plays(level: str, spec: GameSpec) -> bool:
    try:
        kernel.make(level, seed=0, game=spec.name)
    except BadArgument:
        return False
    return True


def check_options(body: Mapping[str, Any]) -> Options:
    """A create request's settings as :class:`Options`, or :class:`Refusal` naming the fault."""
    spec = check_game(body.get("game", DEFAULT_GAME))
    players = body.get("players")
    if isinstance(players, bool) or not isinstance(players, int) or players not in spec.players:
        ruling = spec.players_ruling or spec.title
        raise Refusal("bad_request", f"{ruling}: a game has {spec.players.start} to "
                                     f"{spec.players.stop - 1} players, not {said(players)}")
    rules: dict[str, Any] = {}
    variant = "standard"
    if spec.name == DEFAULT_GAME:
        variant = body.get("variant", "standard")
        if variant not in kernel.VARIANTS:
            raise Refusal("bad_request",
                          f"R11: variant is 'standard' or 'open_info', not {said(variant)}")
    else:
        rules = _game_rules(body, spec)
    seconds = body.get("time")
    clock = None if seconds is None else _number(seconds, "time", MIN_TIME, MAX_TIME)
    hints = body.get("hints", False)
    if not isinstance(hints, bool):
        raise Refusal("bad_request", f"hints must be true or false, not {said(hints)}")
    if hints and not gives_hints(spec):
        raise Refusal("bad_request", f"{spec.title} gives no hints: a hint searches a twin of "
                                     "the game drawn from the seat's view (resample), which "
                                     "it does not make; create the table without hints")
    pace = _number(body.get("pace", 0.5), "pace", 0.0, kernel.MAX_PACE)
    # A game with no greedy bot has no "medium": its stand-ins search (as a table's bots do).
    stand_in = body.get("stand_in", "medium" if _plays("medium", spec) else "hard")
    if not _is_level(stand_in):
        raise Refusal("bad_request", f"stand_in must be a level {list(kernel.LEVELS)}, "
                                     f"not {said(stand_in)}")
    _check_level(stand_in, spec, "stand_in")
    return Options(players, variant, clock, hints, pace, stand_in, spec.name, rules)


def _is_level(value: Any) -> bool:
    # A list or a dict is no level (and cannot even be looked up: unhashable).
    return isinstance(value, str) and value in kernel.LEVELS


def _check_level(level: str, spec: GameSpec, what: str) -> None:
    """A level the game's bots can play (a game with no greedy bot has no greedy levels)."""
    try:
        kernel.make(level, seed=0, game=spec.name)
    except BadArgument as exc:
        raise Refusal("bad_request", f"{what}: {exc}") from None


def check_name(name: Any, default: str) -> str:
    if name is None or name == "":
        return default
    if not isinstance(name, str) or len(name) > NAME_LENGTH or not name.isprintable():
        raise Refusal("bad_request", f"a name is up to {NAME_LENGTH} printable characters")
    return name.strip() or default


def check_seats(spec: Any, players: int, game: GameSpec | None = None) -> list[SeatRow]:
    """The seats of a create request: each ``{"kind": "person", "name"?}`` or
    ``{"kind": "bot", "level"}`` (a level ``game``'s bots play); left out, every seat is a
    person."""
    if spec is None:
        spec = [{"kind": PERSON}] * players
    if not isinstance(spec, list) or len(spec) != players:
        raise Refusal("bad_request", f"seats must list {players} seats, one a player")
    rows = []
    for seat, item in enumerate(spec):
        if not isinstance(item, dict) or item.get("kind") not in (PERSON, BOT):
            raise Refusal("bad_request",
                          f"seat {seat}: kind is 'person' or 'bot', not {said(item)}")
        if item["kind"] == BOT:
            level = item.get("level", "medium")
            if not _is_level(level):
                raise Refusal("bad_request", f"seat {seat}: a bot's level is one of "
                                             f"{list(kernel.LEVELS)}, not {said(level)}")
            if game is not None:
                _check_level(level, game, f"seat {seat}")
            rows.append(SeatRow(seat, BOT, check_name(item.get("name"), f"{level} bot"),
                                BOT_SEAT, level=level))
        else:
            rows.append(SeatRow(seat, PERSON, check_name(item.get("name"), f"Player {seat + 1}"),
                                OPEN))
    if not any(r.kind == PERSON for r in rows):
        raise Refusal("bad_request", "a table needs at least one person (bots play in the arena)")
    return rows


def deal(setup: Mapping[str, Any]) -> GameState:
    """The game as dealt at creation (``setup`` holds its game, its seed or its starting
    position; a setup naming no game is Langfinger's)."""
    spec = kernel.games.get(setup.get("game", DEFAULT_GAME))
    if "position" in setup:
        game: GameState = spec.Game.from_dict(setup["position"])
        return game
    if spec.name == DEFAULT_GAME:
        return kernel.Game.new(players=setup["players"], seed=setup["seed"],
                               names=setup.get("names"), variant=setup.get("variant", "standard"),
                               start_player=setup.get("start_player"))
    # No names: another game's record replays from ``Game.new(players=, seed=)`` alone.
    game = spec.Game.new(players=setup["players"], seed=setup["seed"],
                         **setup.get("options", {}))
    return game


def undo_to(game: GameState, decisions: int) -> None:
    """Take back decisions until ``decisions`` are left, one at a time, as the table does
    (each take-back changes the game's version the same way in every process)."""
    while game.move_number > decisions:
        game.undo()


def replay(game: GameState, plies: Sequence[Ply], played: list[Event] | None = None
           ) -> dict[str, Any]:
    """Play the journal rows through the kernel (each checked again, as any move is);
    return the highlight of the last move if the last row is a move. The moves' events
    (unredacted) are added to ``played`` if given."""
    highlight: dict[str, Any] = {}
    for ply in plies:
        if ply.kind == "play":
            events = game.play(ply.data["action"], ply.seat)
            if played is not None:
                played.extend(events)
            highlight = highlight_of(ply.seat, ply.data["action"], events, ply.by,
                                     game.move_number)
        else:
            undo_to(game, int(ply.data["to"]))
            highlight = {}
    return highlight


def highlight_of(seat: int, action: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
                 by: str, move: int) -> dict[str, Any]:
    """What the board flashes after a move: who, what and where. The action is the
    mover's; :meth:`Room.picture` shows it to another seat only if that seat saw the move's
    events as they are (a sealed step's choices stay hidden, G6.1), hence ``RAW_EVENTS``."""
    first = events[0] if events else {}
    return {"seat": seat, "action": dict(action), "by": by, "move": move,
            "place": first.get("place") or _ACTION_PLACE.get(str(action.get("type"))),
            "square": first.get("square"), RAW_EVENTS: [dict(e) for e in events]}


RAW_EVENTS = "raw_events"  # kept on the server: never sent (see Room.highlight_for)


@dataclass
class Change:
    """A change built on a draft (nothing applied until the store has it)."""

    kind: str  # play | undo | seats
    game: GameState
    plies: list[Ply] = field(default_factory=list)
    seats: dict[int, dict[str, Any]] = field(default_factory=dict)
    highlight: dict[str, Any] = field(default_factory=dict)
    fields: dict[str, Any] = field(default_factory=dict)  # the table row after the change
    events: list[Event] = field(default_factory=list)  # a play's, unredacted (never sent)


class Room:
    """One table in memory, as committed (see the module's docstring)."""

    def __init__(self, loaded: Loaded) -> None:
        row = loaded.table
        self.id = row.id
        self.seq = row.seq
        self.options = Options.from_dict(row.options)
        # Its public line, made once: a table's options never change, and every broadcast's
        # `table` carries them (dataclasses.asdict's deep copy cost 2% of a move's CPU).
        # Shared by every info(): read only, then encoded.
        self._options_dict = self.options.to_dict()
        self.status = row.status
        self.deadline = row.deadline
        self.created = row.created
        self.spectator_hash = row.spectator_hash
        self.seats: list[SeatRow] = sorted(loaded.seats, key=lambda s: s.seat)
        self.game = deal(row.setup)
        self.spec: GameSpec = kernel.games.get(self.options.game)
        self.highlight = replay(self.game, loaded.plies)
        self.plies = len(loaded.plies)
        # The game's version after the latest undo (an upper bound after a replay): an intent
        # chosen before it is stale, however the moves since were made (see check_fresh).
        self.undone_at = self.game.version if _has_undo(loaded.plies) else 0
        # The latest events as each seat (None: a spectator) may see them, and how many
        # there are in all (the same for every seat: redaction maps one event to one).
        # Kept up to date move by move, so a move redacts only its own events: the whole
        # log, redacted anew for every seat after every move, grew with the game (~0.3 ms
        # a seat by move 200).
        self._tails: dict[int | None, list[Event]] = {}
        self._log_size: int | None = None
        self._names: dict[str, Any] | None = None  # see _players
        # Every seat's Undo refusal at one sequence number, for one game (see undo_refusal).
        self._refusals: tuple[int, GameState, dict[int | None, str | None]] | None = None

    def catch_up(self, loaded: Loaded) -> bool:
        """Take in what another process committed (rows after ours); True if an undo was
        among them (a client's log cannot simply be extended then)."""
        if loaded.plies and loaded.plies[0].ply != self.plies:
            raise BadArgument(f"journal of {self.id} continues at {loaded.plies[0].ply}, "
                             f"not {self.plies}")
        row = loaded.table
        self.seq, self.status, self.deadline = row.seq, row.status, row.deadline
        self.seats = sorted(loaded.seats, key=lambda s: s.seat)
        undone = _has_undo(loaded.plies)
        if loaded.plies:
            played: list[Event] = []
            self.highlight = replay(self.game, loaded.plies, played)
            self.plies += len(loaded.plies)
            if undone:
                self.undone_at = self.game.version
                self._forget_logs()
            else:
                self._extend_logs(played)
        return undone

    # --- who is who ---------------------------------------------------------------------------
    @property
    def humans(self) -> set[int]:
        """The person seats (R12.2/R13.2: whose decisions another may not take back)."""
        return {s.seat for s in self.seats if s.kind == PERSON}

    def bot_plays(self, seat: int) -> bool:
        """Whether a bot makes this seat's decisions: a bot seat, a stand-in, a resignation."""
        s = self.seats[seat]
        return s.kind == BOT or s.stand_in or s.status == RESIGNED

    def bot_level(self, seat: int) -> str:
        s = self.seats[seat]
        return s.level if s.kind == BOT and s.level else self.options.stand_in

    def bot_to_move(self) -> int | None:
        """A seat a bot plays that may decide now (the first, in a sealed step), or None."""
        if self.status != PLAYING:
            return None
        return next((seat for seat in self.game.to_decide if self.bot_plays(seat)), None)

    def people_to_decide(self) -> list[int]:
        """The seats people play that may decide now (several, in a sealed step)."""
        if self.status != PLAYING:
            return []
        return [seat for seat in self.game.to_decide if not self.bot_plays(seat)]

    def is_langfinger(self) -> bool:
        return self.spec.name == DEFAULT_GAME

    def label(self, seat: int) -> str:
        return f"{self.seats[seat].name} (seat {seat})"

    def timed_out(self, now: float) -> bool:
        return self.deadline is not None and now > self.deadline

    # --- refusals -----------------------------------------------------------------------------
    def check_can_decide(self, seat: int, action: Any = None) -> None:
        """:class:`Refusal` unless ``seat`` may decide now (it is in ``to_decide``: in a
        sealed step several seats are). Another game's refusal names its own ruling, the
        kernel's reason for ``action`` from this seat."""
        if self.status == WAITING:
            raise Refusal("waiting", "the table is waiting for every player to join")
        game = self.game
        to_move = game.to_move
        if self.status == OVER or to_move is None:
            raise Refusal("over", "R10.1: the game is over" if self.is_langfinger()
                          else self.why_not(action, seat) or "the game is over")
        if self.seats[seat].status == RESIGNED:
            raise Refusal("resigned", "R13.3: you resigned; a bot plays your seat to the end")
        if seat not in game.to_decide:
            if self.is_langfinger():
                raise Refusal("not_your_turn", f"R2.1/R3.1: it is {self.label(to_move)}'s "
                                               "decision, not yours")
            raise Refusal("not_your_turn", self.why_not(action, seat)
                          or f"it is {self.label(to_move)}'s decision, not yours")
        if self.seats[seat].stand_in:
            raise Refusal("stand_in", "R13.3: a bot plays your seat since your time ran out; "
                                      "take your seat back first")

    def check_fresh(self, content: Mapping[str, Any], seat: int | None = None) -> None:
        """The intent was made on the position the table is at (else: choose again), or, in
        a sealed step, on one that differs only by others' sealed decisions (see
        :meth:`sealed_since`)."""
        move, version = content.get("move"), content.get("version")
        if seat is not None and self.sealed_since(seat, move, version):
            return
        if move is not None and move != self.game.move_number:
            raise Refusal("stale", f"stale: this was chosen at move {said(move)}, but the table is "
                                   f"at move {self.game.move_number}; choose again")
        if version is not None and version != self.game.version:
            raise Refusal("stale", "stale: the table has changed since this was chosen (an "
                                   "undo); choose again")

    @staticmethod
    def quotes_position(content: Mapping[str, Any]) -> bool:
        """Whether an intent names the position it was chosen on, so that :meth:`check_fresh`
        refuses it as stale once the table has moved on (a move sent again after it was
        played is then never played twice)."""
        return content.get("move") is not None or content.get("version") is not None

    def sealed_since(self, seat: int, move: Any, version: Any) -> bool:
        """Whether ``seat`` chose at ``move``/``version`` in the sealed step it still decides
        in, and only other seats decided since, showing it nothing (G6, S2): their sealed
        choices leave its own as good as when it chose, so nobody waits on anyone's order.
        No undo since, and it was deciding then too (Langfinger never has such a step)."""
        game = self.game
        if type(move) is not int or type(version) is not int or seat not in game.to_decide \
                or not 0 <= move < game.move_number or not self.undone_at <= version \
                or version - move != game.version - game.move_number:
            return False
        if seat in game.deciders[move:] or game.sight_barrier(seat) > move:
            return False
        then = game.copy()
        undo_to(then, move)
        return seat in then.to_decide

    def why_not(self, action: Any, seat: int | None = None) -> str | None:
        """The kernel's reason an action is illegal now (None: it is legal), never a crash."""
        try:
            return self.game.why_illegal(action, seat)
        except (kernel.LangfingerError, TypeError, ValueError, KeyError, AttributeError) as exc:
            return f"not an action: {exc}"

    def undo_refusal(self, seat: int) -> str | None:
        """R13.2 (R12.1, R12.2): only one's own decisions since another person decided, and
        never past a card one saw."""
        if self.status != PLAYING:
            return "the game is not being played" if self.status == WAITING else "R10.1: over"
        if self.seats[seat].status == RESIGNED:
            return "R13.3: you resigned"
        # Every seat's, at once, when the first is asked for after a change (its seq): a
        # broadcast asks each seat's, and the history is read once for them all.
        known = self._refusals
        if known is None or known[0] != self.seq or known[1] is not self.game:
            refusals = kernel.undo_refusals(self.game, range(len(self.seats)), self.humans,
                                            self._players())
            known = self._refusals = (self.seq, self.game, refusals)
        return known[2][seat]

    def _players(self) -> dict[str, Any]:
        """The names an Undo refusal gives (R12.2 names who decided since), from the game's
        public view, made once for the room: a game's names are fixed at its deal, and the
        public view, built anew for every move's new game, cost ~5% of a move's CPU."""
        if self._names is None:
            public = self.game.public_view().get("players") or []
            self._names = {"players": [{"name": p.get("name")} for p in public]}
        return self._names

    # --- building changes ---------------------------------------------------------------------
    def _ply(self, change_kind: str, seat: int, data: dict[str, Any], by: str,
             offset: int = 0) -> Ply:
        return Ply(self.plies + offset, change_kind, seat, data, by, self.seq + 1)

    def play(self, seat: int, action: Mapping[str, Any], by: str) -> Change:
        """The change of ``seat`` playing ``action`` (the kernel checks it; IllegalAction)."""
        draft = self.game.copy()
        events = draft.play(action, seat)
        ply = self._ply("play", seat, {"action": dict(action)}, by)
        return Change("play", draft, [ply],
                      highlight=highlight_of(seat, action, events, by, draft.move_number),
                      events=events)

    def undo(self, seat: int) -> Change:
        reason = self.undo_refusal(seat)
        if reason is not None:
            raise Refusal("undo_refused", reason)
        draft = self.game.copy()
        kernel.take_back(draft, seat)
        return Change("undo", draft, [self._ply("undo", seat, {"to": draft.move_number},
                                                "person")])

    def seat_change(self, changes: dict[int, dict[str, Any]]) -> Change:
        return Change("seats", self.game, seats=changes)

    def seats_after(self, change: Change) -> list[SeatRow]:
        out = []
        for s in self.seats:
            values = change.seats.get(s.seat)
            out.append(SeatRow(**{**asdict(s), **values}) if values else s)
        return out

    def finish(self, change: Change, now: float) -> Change:
        """Fill in the table row after ``change``: status, whose turn, the clock."""
        seats_after = self.seats_after(change)
        game = change.game
        status = self.status
        if game.is_over:
            status = OVER
        elif status == WAITING and all(s.status != OPEN for s in seats_after if s.kind == PERSON):
            status = PLAYING
        to_move = game.to_move
        # In a sealed step several seats decide: bots think while people's clock runs.
        deciding = game.to_decide
        by_bot = any(_played_by_bot(seats_after[s]) for s in deciding)
        people = [s for s in deciding if not _played_by_bot(seats_after[s])]
        deadline = self.deadline
        moved = change.kind != "seats" or status != self.status
        if status != PLAYING or not people or self.options.time is None:
            deadline = None
        elif moved or deadline is None or any(_handed_back(self.seats[s], seats_after[s])
                                              for s in people):
            deadline = now + self.options.time
        change.fields = {"seq": self.seq + 1, "status": status, "to_move": to_move,
                         "bot_turn": status == PLAYING and by_bot, "deadline": deadline}
        return change

    def apply(self, change: Change) -> None:
        """The change is committed: make it the room's."""
        self.seats = self.seats_after(change)
        self.game = change.game
        self.plies += len(change.plies)
        self.seq = change.fields["seq"]
        self.status = change.fields["status"]
        self.deadline = change.fields["deadline"]
        if change.kind == "play":
            self.highlight = change.highlight
            self._extend_logs(change.events)
        elif change.kind == "undo":
            self.highlight = {}
            self.undone_at = self.game.version
            self._forget_logs()

    # --- the logs -----------------------------------------------------------------------------
    def _forget_logs(self) -> None:
        self._tails.clear()
        self._log_size = None

    def _extend_logs(self, events: list[Event]) -> None:
        if self._log_size is None or not self.is_langfinger():
            return  # nothing kept yet (or another game's): made from the game when asked for
        self._log_size += len(events)
        for seat, tail in self._tails.items():
            tail.extend(kernel.public_log(events) if seat is None else
                        kernel.redact_log(events, seat))
            if len(tail) > 2 * LOG_LIMIT:  # trimmed now and then, not every move
                del tail[:-LOG_LIMIT]

    def _game_log(self, seat: int | None) -> list[Event]:
        """The game's whole log as ``seat`` may see it; a spectator's is the game's public log
        (a game without one shows spectators no events rather than too many)."""
        if seat is not None:
            return self.game.log(seat)
        public = getattr(self.game, "public_log", None)
        return list(public()) if callable(public) else []

    def log_tail(self, seat: int | None) -> tuple[list[Event], int]:
        """The latest events (at least LOG_LIMIT, if there are as many) as ``seat`` may see
        them, and how many events the game has had in all. The list is shared: read it."""
        if not self.is_langfinger():
            # The protocol redacts whole logs only, and a sealed step's entries may be left
            # out of the others' logs (G6), so each seat's log is its own length: made anew.
            log = self._game_log(seat)
            return log[-LOG_LIMIT:], len(log)
        tail = self._tails.get(seat)
        if tail is None or self._log_size is None:
            log = self._game_log(seat)
            self._log_size = len(log)
            tail = self._tails[seat] = log[-LOG_LIMIT:]
        return tail, self._log_size

    # --- what each may receive ----------------------------------------------------------------
    def standings(self) -> list[dict[str, Any]]:
        """R13.3: by money (another game: by its ``standings()`` score, with its sources),
        every resigned seat below every seat that did not resign."""
        if not self.is_langfinger():
            rows = self.game.standings()
            rows = sorted(rows, key=lambda r: (self.seats[r["seat"]].status == RESIGNED,
                                               -r["score"]))
            return [{**r, "resigned": self.seats[r["seat"]].status == RESIGNED} for r in rows]
        money = self.game.money  # type: ignore[attr-defined]
        order = sorted(range(len(money)),
                       key=lambda s: (self.seats[s].status == RESIGNED, -money[s]))
        return [{"seat": s, "money": money[s], "resigned": self.seats[s].status == RESIGNED}
                for s in order]

    def info(self, online: set[int], now: float | None = None) -> dict[str, Any]:
        """The table as everyone may see it (the lobby's line, the board's header)."""
        now = time.time() if now is None else now
        game: Any = self.game
        langfinger = self.is_langfinger()
        info = {
            "id": self.id,
            "status": self.status,
            "options": self._options_dict,
            "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "level": s.level,
                       "status": s.status, "stand_in": s.stand_in, "online": s.seat in online}
                      for s in self.seats],
            "to_move": game.to_move,
            "round": game.round if langfinger else getattr(game, "round", None),
            "money": game.money if langfinger else None,
            "move_number": game.move_number,
            "deadline": self.deadline,
            "timed_out": self.timed_out(now),
            "standings": self.standings() if self.status == OVER else None,
        }
        if not langfinger:  # Langfinger's line stays as it was: one seat decides at a time
            info["game"] = self.spec.name
            info["to_decide"] = list(game.to_decide)
        return info

    def views(self, seats: Collection[int | None]) -> dict[int | None, dict[str, Any]]:
        """The views of ``seats`` (None: a spectator's), for :meth:`picture`: a game that
        builds several at once (``views``, Langfinger's) builds what they share once."""
        game = self.game
        many = getattr(game, "views", None)
        if many is not None and len(seats) > 1:
            shown: dict[int | None, dict[str, Any]] = many(
                [s for s in seats if s is not None], spectator=None in seats)
            return shown
        return {s: game.public_view() if s is None else game.view(s) for s in seats}

    def picture(self, seat: int | None, view: dict[str, Any] | None = None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see now: view (``view``, if the caller built
        it with :meth:`views`), legal, the latest events (``log``, see :meth:`log_tail`) and
        how many there have been (``log_size``)."""
        game = self.game
        if view is None:
            view = game.public_view() if seat is None else game.view(seat)
        log, log_size = self.log_tail(seat)
        deciding = (seat is not None and seat in game.to_decide and self.status == PLAYING
                    and not self.bot_plays(seat))
        undo = None if seat is None else self.undo_refusal(seat)
        return {
            "view": view,
            "legal": game.legal_actions(seat) if deciding else [],
            "log": log,
            "log_size": log_size,
            "move_number": game.move_number,
            "version": game.version,
            "undo": {"allowed": seat is not None and undo is None, "reason": undo or ""},
            "highlight": self.highlight_for(seat),
        }

    def highlight_for(self, seat: int | None) -> dict[str, Any]:
        """The last move's highlight as ``seat`` (None: a spectator) may see it: another
        seat's action only when every event of that move reached this seat unredacted (in a
        sealed step the others learn only that the seat decided, G6.1). Langfinger's moves
        are all public and its highlight is as it was."""
        highlight = {k: v for k, v in self.highlight.items() if k != RAW_EVENTS}
        if not highlight or self.is_langfinger() or highlight["seat"] == seat:
            return highlight
        raw = self.highlight.get(RAW_EVENTS) or []
        log = self._game_log(seat)
        if not raw or log[-len(raw):] != raw:
            highlight["action"] = None
        return highlight


def _has_undo(plies: Sequence[Ply]) -> bool:
    return any(p.kind == "undo" for p in plies)


def _played_by_bot(s: SeatRow) -> bool:
    return s.kind == BOT or s.stand_in or s.status == RESIGNED


def _handed_back(before: SeatRow, after: SeatRow) -> bool:
    """A person took their seat back from a stand-in, or a new person took an open seat."""
    return (before.stand_in and not after.stand_in) or (before.status != after.status)
