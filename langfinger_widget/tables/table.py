"""``Table``: who sits where, when the bots move, hints and Undo: the game's driver.

A table holds a live game of any registered game (``lf.games``; Langfinger's
:class:`~langfinger_widget.kernel.game.Game` by default), known only through the
game protocol (``lf.games.GameState``), knows which seats are bots and which
are people, which seat's board is shown, and turns intents from a front end
into moves, checking each as if it came from an adversary. Any front end drives
it: :class:`~langfinger_widget.ui.widget.LangfingerWidget` mirrors it into
traits; tests drive it with a
:class:`~langfinger_widget.tables.scheduler.ManualScheduler`.

Nothing here uses threads. Bot moves and hint searches run on the event loop
(ipykernel's, or Pyodide's in JupyterLite) a slice at a time, so the kernel
answers clicks while a bot thinks. Each piece of background work is tagged
with the game's number at this table (never reused, unlike ``id(game)``), its
:attr:`~langfinger_widget.kernel.game.Game.version` and the seat it was for, and is
dropped if any moved on; a bot move waiting out the pace is cancelled with
its game. A failing bot is reported and replaced for that move, so the game
always goes on.

>>> import langfinger_widget as lf
>>> from langfinger_widget.tables.scheduler import ManualScheduler
>>> clock = ManualScheduler()
>>> t = Table(lf.Game.new(players=3, seed=1, start_player=0), seat=0,
...           bots={1: "medium", 2: "medium"}, pace=0.5, scheduler=clock)
>>> t.play({"type": "place", "place": "museum"})
>>> t.game.to_move, clock.advance(0.5) > 0, t.game.to_move
(1, True, 2)
"""

from __future__ import annotations

import itertools
import math
import random
import secrets
from collections.abc import Callable, Collection, Generator, Iterable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from .. import games
from ..bots import LEVELS, make, names
from ..bots.base import Bot, thinking, weighing
from ..errors import BadArgument, IllegalAction, LangfingerError, shown
from ..games.protocol import GameSpec, GameState
from .scheduler import (
    MAX_PACE,
    Handle,
    ManualScheduler,
    Scheduler,
    Slices,
    at_once,
    event_loop_scheduler,
)

Action = dict[str, Any]
Reply = dict[str, Any]
G = TypeVar("G", bound=GameState)
DEFAULT_GAME = "langfinger"
# What background work is for: the game's generation at this table (never reused, unlike
# ``id(game)``, which CPython hands to the next object once a game is freed), the game's
# version and the seat.
WorkKey = tuple[int, int, int]
_GENERATIONS = itertools.count(1)  # one counter for every table: no two games share a number

# The Hint button's search: a budget in iterations, so it answers alike in a kernel and in
# Pyodide (slower there), and never by wall-clock time in a thread.
HINT_ITERATIONS = 1500


class TableError(BadArgument):
    """A setting the table cannot take (a bad seat, pace, bot level or new-game option)."""


def check_players(players: Any, spec: GameSpec | None = None) -> None:
    """:class:`TableError` unless ``players`` is a player count the game has (Langfinger's
    by default: R1.1)."""
    spec = spec or games.get(DEFAULT_GAME)
    if isinstance(players, bool) or not isinstance(players, int) or players not in spec.players:
        ruling = f"{spec.players_ruling}: " if spec.players_ruling else f"{spec.title}: "
        raise TableError(f"{ruling}a game has {spec.players.start} to {spec.players.stop - 1} "
                         f"players, not {shown(players)}")


def check_options(options: Mapping[str, Any], spec: GameSpec) -> dict[str, Any]:
    """The game's own options for ``Game.new`` (Langfinger's variant), checked: each must be
    one of its choices, else :class:`TableError` naming the ruling."""
    unknown = sorted(set(options) - set(spec.options))
    if unknown:
        raise TableError(f"{spec.title} has no option(s) {unknown}; its options are "
                         f"{sorted(spec.options)}")
    for key, value in options.items():
        choices, ruling = spec.options[key]
        if value not in choices:
            raise TableError(f"{ruling}: {key} is {' or '.join(repr(c) for c in choices)}, "
                             f"not {shown(value)}")
    return dict(options)


def make_bot(name: str, seed: int, spec: GameSpec) -> Bot:
    """The bot called ``name`` (a level or a bot) for a game of ``spec`` (``bots.make``)."""
    try:
        return make(name, seed=seed, game=spec.name)
    except BadArgument as err:
        raise TableError(str(err)) from None


def bots_by_seat(bots: Mapping[Any, Any], players: int) -> dict[int, str]:
    """``bots`` ({seat: level or bot name}) as {seat: name}, or :class:`TableError` naming
    what is wrong."""
    out: dict[int, str] = {}
    for key, name in dict(bots).items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            raise TableError(f"bot seat must be a seat number, not {shown(key)}") from None
        if isinstance(key, bool) or not 0 <= seat < players:
            raise TableError(f"bot seat {shown(key)} is not a seat of a {players}-player game")
        if name not in names():
            raise TableError(f"unknown bot {shown(name)} for seat {seat}: choose a level "
                             f"{list(LEVELS)} or a bot {names()[len(LEVELS):]}")
        out[seat] = name
    return out


def panel_bots(bots: Any, players: int) -> dict[int, str]:
    """The New game panel's ``bots`` (a page's message: any JSON) checked as
    :func:`bots_by_seat`, for a local table or an online one."""
    if not isinstance(bots, Mapping):
        raise TableError(f"bots must map seats to levels, not {shown(bots)}")
    return bots_by_seat(bots, players)


def make_hint_bot(seed: int) -> Any:
    """The bot that answers "Hint": ISMCTS, which also says how good its choice is."""
    return make("ismcts", seed=seed, iterations=HINT_ITERATIONS)


def seat_label(view: Mapping[str, Any], seat: int) -> str:
    players = view.get("players") or []
    name = players[seat].get("name") if 0 <= seat < len(players) else None
    return f"{name} (seat {seat})" if name else f"seat {seat}"


# Where a lesson's board holds (``Table(until=...)``): "act" once every token is down (a step
# of placing), "round" once the next round begins.
STEP_ENDS = ("act", "round")
STEP_DONE = ("the lesson's step is done: run the check cell under the board, or press Undo "
             "to change your moves")


def check_until(until: Any) -> str | None:
    """``until`` as a step end of :data:`STEP_ENDS` (or None), or :class:`TableError`."""
    if until is not None and until not in STEP_ENDS:
        raise TableError(f"until must be one of {list(STEP_ENDS)} or None, not {shown(until)}")
    return None if until is None else str(until)


def _round_of(game: Any) -> int:
    """The round a game is in (a lesson's step ends with it), 0 for a game without rounds."""
    return int(getattr(game, "round", 0))


def check_pace(pace: Any) -> float:
    """``pace`` as seconds a bot move, or :class:`TableError`: a finite number in 0..MAX_PACE."""
    if isinstance(pace, bool) or not isinstance(pace, (int, float)):
        raise TableError(f"pace must be a number of seconds, not {shown(pace)}")
    if not math.isfinite(pace) or not 0 <= pace <= MAX_PACE:
        raise TableError(f"pace must be between 0 and {MAX_PACE:g} seconds, not {shown(pace)}")
    return float(pace)


def default_bots(players: int, seat: int | None, spec: GameSpec | None = None
                 ) -> dict[int, str]:
    """With no ``bots=``: a seat's board plays against bots (medium, or hard for a game with
    no greedy bot); the open board is all human."""
    if seat is None:
        return {}
    level = "hard" if spec is not None and spec.name != DEFAULT_GAME and spec.greedy is None \
        else "medium"
    return {s: level for s in range(players) if s != seat}


def unquoted(content: Mapping[str, Any]) -> str | None:
    """Why an ``act`` intent does not say which position it was chosen in (None: it does).

    ``move`` and ``version`` are required: an intent without them could not be told stale,
    and would land on whatever the board shows when it arrives.
    """
    wrong = [k for k in ("move", "version") if type(content.get(k)) is not int]
    if not wrong:
        return None
    given = ", ".join(f"{k}={shown(content.get(k))}" for k in wrong)
    return ("stale or forged: an act intent quotes the position it was chosen in with the "
            f"whole numbers 'move' and 'version' (this one gives {given}); choose again")


def seat_undo_refusal(game: GameState, seat: int | None, humans: Collection[int],
                      players: Mapping[str, Any] | None = None) -> str | None:
    """Why ``seat`` may not take back its last decision now (None: it may), under R12.

    R12.2 (R13.2 between screens): only its own decisions made since another
    person (a seat in ``humans``) last decided; R12.1: never past a decision
    after which it saw a card. Any front end that seats people uses this.

    ``players``: what :func:`seat_label` reads of the game's public view (its ``players``,
    names are public and fixed for a game's life), if the caller keeps it; else it is
    built from ``game``.
    """
    return undo_refusals(game, (seat,), humans, players)[seat]


def undo_refusals(game: GameState, seats: Iterable[int | None], humans: Collection[int],
                  players: Mapping[str, Any] | None = None) -> dict[int | None, str | None]:
    """:func:`seat_undo_refusal` for each of ``seats``, the history read once for them all:
    a server asks every seat's after every move, and each copy of the history (``deciders``,
    ``choices``: lists as long as the game) cost more than the seat's own question."""
    deciders = game.deciders
    if not deciders:
        return dict.fromkeys(seats, "nothing to undo")
    choices = _choices(game, deciders)
    out: dict[int | None, str | None] = {}
    for seat in seats:
        out[seat] = _undo_refusal(game, seat, humans, players, deciders, choices)
    return out


def _undo_refusal(game: GameState, seat: int | None, humans: Collection[int],
                  players: Mapping[str, Any] | None, deciders: Sequence[int],
                  choices: Sequence[bool]) -> str | None:
    if _sealed_redo(game, seat):
        return None  # Oh My Goods!'s G6.3: a sealed choice is redone whoever sealed since
    last = None if seat is None else _last_choice(deciders, choices, {seat})
    if last is None:
        return ("R12.2: no decision of yours to take back (a pass that was your only move "
                "is played by the board, and Undo steps over it)")
    since = [s for s in deciders[last + 1:] if s != seat and s in humans]
    if since:
        named = _players_of(game) if players is None else players
        return (f"R12.2: {seat_label(named, since[0])} has decided since your "
                "last move; only they can take back their own move")
    if game.sight_barrier(seat) > last:
        return ("R12.1: you have seen a card since your last move (a draw, a stolen "
                "front, a refill), so that move stands")
    return None


# The public view of the game last asked about by _players_of, and that game (held, not only
# its id, which CPython hands to the next object once a game is freed).
_seen: tuple[GameState | None, Mapping[str, Any]] = (None, {})


def _players_of(game: GameState) -> Mapping[str, Any]:
    """What :func:`seat_label` reads of ``game``: its public view (names are public), built
    once for all the seats asked about in a row, and kept while the same game is asked about
    (a seat's name does not change during a game). A server asks every seat's refusal after
    every move, and a person who decided since is named to each of the others: the open
    view, built for each of them, cost more than the seats' own views."""
    global _seen
    if _seen[0] is not game:
        _seen = (game, game.public_view())
    return _seen[1]


def last_choice(game: GameState, seats: Collection[int]) -> int | None:
    """The index of the last decision of one of ``seats`` that had another legal move: a
    pass that was the only move is played again by the board as soon as it is taken back
    (its auto-pass), so Undo that stopped there would loop. A game that does not record
    its choices (``choices``: Langfinger's does) counts every decision as one."""
    deciders = game.deciders
    return _last_choice(deciders, _choices(game, deciders), seats)


def _choices(game: GameState, deciders: Sequence[int]) -> Sequence[bool]:
    choices: list[bool] | None = getattr(game, "choices", None)
    return choices or [True] * len(deciders)


def _last_choice(deciders: Sequence[int], choices: Sequence[bool], seats: Collection[int]
                 ) -> int | None:
    return next((i for i in range(len(deciders) - 1, -1, -1)
                 if deciders[i] in seats and choices[i]), None)


def _sealed_redo(game: GameState, seat: int | None) -> bool:
    """Whether ``seat`` may take back its own steps in the sealed choice under way, keeping
    the other seats' (a game offering ``can_take_back_sealed``, e.g. Oh My Goods!, G6.3)."""
    can = getattr(game, "can_take_back_sealed", None)
    return seat is not None and callable(can) and bool(can(seat))


def take_back(game: GameState, seat: int) -> None:
    """Undo ``seat``'s last decision that had a choice, and every decision after it (check
    the refusal first); in a game's sealed choice under way, only the seat's own steps
    there (``take_back_sealed``), the others' staying."""
    if _sealed_redo(game, seat):
        game.take_back_sealed(seat)  # type: ignore[attr-defined]
        return
    target = last_choice(game, {seat})
    if target is None:
        raise IllegalAction("R12.2: no decision of yours to take back")
    while game.move_number > target:
        game.undo()


def ok() -> Reply:
    return {"kind": "result", "ok": True, "error": ""}


def refuse(reason: str) -> Reply:
    return {"kind": "result", "ok": False, "error": reason}


def bot_steps(bot: Bot, game: GameState, seat: int, seed: int, hint: bool = False
              ) -> Generator[None, None, Any]:
    """The bot's (or, with ``hint``, the hint's) computation for ``seat``, run in slices.

    A bot is given the seat's view and legal actions; for a game other than Langfinger a
    searching bot also gets a twin, ``game.resample(seat, rng)``: it holds nothing the seat
    has not seen (Langfinger's bots sample from the view themselves, faster).
    """
    view, legal, twin = bot_inputs(game, seat, seed)
    return searching(bot, view, legal, twin, hint)


def searching(bot: Bot, view: dict[str, Any], legal: list[Any], twin: GameState | None,
              hint: bool = False) -> Generator[None, None, Any]:
    """The search on what :func:`bot_inputs` gave: the move (``thinking``), or with
    ``hint`` the move and how good it is (``weighing``). The game server's worker
    processes run the same, at once."""
    if hint:
        return weighing(bot, view, legal, twin=twin)
    return thinking(bot, view, legal, twin=twin)


def bot_inputs(game: GameState, seat: int, seed: int
               ) -> tuple[dict[str, Any], list[Any], GameState | None]:
    """All a bot deciding for ``seat`` is given (:func:`bot_steps`): the seat's view, its
    legal actions and, for a game other than Langfinger, the twin resampled with ``seed``.
    The game server sends exactly these to a bot thinking in another process."""
    view, legal = game.view(seat), game.legal_actions(seat)
    twin = None if games.spec_of(game).name == DEFAULT_GAME else \
        game.resample(seat, random.Random(seed))
    return view, legal, twin


class Table(Generic[G]):
    """A game with its seats: people at one screen, bots, and the board being shown.

    ``seat=k`` shows what player ``k`` may see; ``seat=None`` is the open
    board for teaching. Seats in ``bots`` (level or bot name) are played at
    ``pace`` seconds a move, on ``scheduler`` (the running event loop by
    default; where none runs, bots move when :meth:`step_bots` is called).
    ``on_change`` is called after anything a board shows has changed;
    ``on_message`` gets replies that arrive later (a finished hint).
    ``until`` makes a lesson's board: it holds where the lesson's step ends
    (:data:`STEP_ENDS`), so that nothing plays on by itself (no automatic pass
    runs the round out) while the learner reads the check under it.
    """

    def __init__(
        self,
        game: G,
        *,
        seat: int | None = 0,
        bots: Mapping[int | str, str] | None = None,
        pace: float = 0.6,
        autoplay: bool = True,
        seed: int | None = None,
        scheduler: Scheduler | None = None,
        on_change: Callable[[], None] | None = None,
        on_message: Callable[[Reply], None] | None = None,
        until: str | None = None,
    ) -> None:
        self._game = game
        self.until = check_until(until)
        self._until_round = _round_of(game)
        self.check_seat(seat, game.num_players)
        self.seat = seat
        self.pace = check_pace(pace)
        self.autoplay = autoplay
        self.seed = seed
        self.scheduler: Scheduler = scheduler or event_loop_scheduler() or ManualScheduler()
        self.on_change = on_change or (lambda: None)
        self.on_message = on_message or (lambda reply: None)
        self.error = ""
        self.hint: dict[str, Any] = {}
        self.highlight: dict[str, Any] = {}
        self.puzzle: Any = None  # a PuzzleSession: its seat is the only human one
        self.closed = False
        self._bot_names: dict[int, str] = {}
        self._bots: dict[int, Bot] = {}
        self._generation = next(_GENERATIONS)
        self._bot_work: Slices[Action] | None = None
        self._bot_for: WorkKey | None = None
        self._bot_due: Handle | None = None  # a chosen bot move waiting out the pace
        self._hint_work: Slices[tuple[Action, float]] | None = None
        self._hint_for: WorkKey | None = None
        self._changed_at = self.scheduler.now()
        # R12.4: whether this game has been shown on a board that shows every seat; every
        # card drawn in it was then seen by everyone at the screen.
        self._showed_all = False
        self.set_bots(default_bots(game.num_players, seat, self.spec) if bots is None else bots)

    @classmethod
    def new(cls, game: str = DEFAULT_GAME, *, players: int | None = None,
            seed: int | None = None, options: Mapping[str, Any] | None = None,
            **table: Any) -> Table[Any]:
        """A table at a new game of the registered game ``game`` (``lf.games.names()``):
        ``players`` (the game's fewest if left out), the deal's ``seed`` (also the bots' and
        hints', as for the constructor, so that a seeded table replays alike), the game's own
        ``options`` (Langfinger's variant); ``table`` as for the constructor."""
        if game not in games.names():
            raise TableError(f"no game {shown(game)}; the games are {', '.join(games.names())}")
        spec = games.get(game)
        players = spec.players.start if players is None else players
        check_players(players, spec)
        dealt = spec.Game.new(players=players, seed=seed, **check_options(options or {}, spec))
        return cls(dealt, seed=seed, **table)

    # --- who sits where ---------------------------------------------------------------------
    @property
    def game(self) -> G:
        return self._game

    @property
    def spec(self) -> GameSpec:
        """The registered game this table plays (``lf.games``)."""
        return games.spec_of(self._game)

    def deciding(self) -> int | None:
        """The seat whose decision this board would act on: the shown seat if it may decide
        now, else on the open board the first human who may (a sealed step has several)."""
        deciding = self._game.to_decide
        acting = self.acting_seats()
        return next((s for s in deciding if s in acting), None)

    @property
    def players(self) -> int:
        return self._game.num_players

    @property
    def bot_names(self) -> dict[int, str]:
        """Each bot seat's level or bot name."""
        return dict(self._bot_names)

    @property
    def human_seats(self) -> list[int]:
        if self.puzzle is not None:  # the rivals are the puzzle's, not people at the screen
            return [self.puzzle.seat]
        return [s for s in range(self._game.num_players) if s not in self._bots]

    def step_done(self) -> bool:
        """Whether a lesson's board (``until``) has reached the end of its step and holds."""
        if self.until is None:
            return False
        game = self._game
        # Lessons are Langfinger's (its rounds and phases); another game has no step to end.
        return (game.is_over or _round_of(game) > self._until_round
                or (self.until == "act" and getattr(game, "phase", "place") != "place"))

    def acting_seats(self) -> set[int]:
        """The seats the shown board may act for: its own, or every human on the open board."""
        if self.puzzle is not None and self.puzzle.over:
            return set()  # the puzzle's round is over: nothing more to play
        if self.step_done():
            return set()
        humans = set(self.human_seats)
        return humans if self.seat is None else {self.seat} & humans

    @staticmethod
    def check_seat(seat: Any, players: int) -> None:
        """:class:`TableError` unless ``seat`` is None or a seat of a ``players``-player game."""
        if seat is None:
            return
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise TableError(f"seat must be None or 0..{players - 1}, not {shown(seat)}")

    def check_bots(self, bots: Mapping[Any, Any], players: int | None = None) -> dict[int, str]:
        """``bots`` as {seat: name}, or :class:`TableError` naming what is wrong."""
        return bots_by_seat(bots, self._game.num_players if players is None else players)

    def set_bots(self, bots: Mapping[Any, Any]) -> None:
        """Hand seats to bots (by level or name); every other seat is human."""
        wanted = self.check_bots(bots)
        self._bot_names = wanted
        self._bots = {seat: make_bot(name, self._bot_seed(seat), self.spec)
                      for seat, name in wanted.items()}
        self._touch()

    def _bot_seed(self, seat: int) -> int:
        return secrets.randbelow(2**31) if self.seed is None else self.seed * 10 + seat

    def set_seat(self, seat: int | None) -> None:
        self.check_seat(seat, self._game.num_players)
        if seat != self.seat:
            self.seat = seat
            self.hint = {}
            self._touch()

    def set_pace(self, pace: Any) -> None:
        self.pace = check_pace(pace)
        self._touch()

    def replace_game(self, game: G) -> None:
        """Play ``game`` at this table from now on (same seats, bots and shown seat)."""
        self.check_seat(self.seat, game.num_players)
        self._set_game(game)
        self._until_round = _round_of(game)
        self.set_bots({s: n for s, n in self._bot_names.items() if s < game.num_players})
        self.error, self.hint, self.highlight = "", {}, {}
        self._touch()

    def _set_game(self, game: G) -> None:
        """A new game (or the same one re-read): everything computed for the old one is dropped,
        and its pending bot move is cancelled, before anything is scheduled for this one."""
        self._cancel_bot()
        self._cancel_hint()
        self._game = game
        self._generation = next(_GENERATIONS)
        self._showed_all = False

    def new_game(self, options: Mapping[str, Any] | None = None) -> None:
        """Deal a new game; ``options`` may change the game (a registered name), players,
        seat, bots, seed and the game's own options (Langfinger's variant).

        Any option left out keeps the current setting. A bad option raises
        :class:`TableError` and changes nothing.
        """
        setup = self._new_game_setup(dict(options or {}))
        spec = games.get(setup["game"])
        game = spec.Game.new(players=setup["players"], seed=setup["seed"], **setup["options"])
        self.seat = setup["seat"]
        self.until = None  # a new deal is a game, no longer the lesson's step
        self._set_game(game)
        self.set_bots(setup["bots"])
        self.error, self.hint, self.highlight = "", {}, {}
        self._touch()

    def _new_game_setup(self, options: dict[str, Any]) -> dict[str, Any]:
        name = options.get("game", self.spec.name)
        if name not in games.names():
            raise TableError(f"new game: no game {shown(name)}; the games are "
                             f"{', '.join(games.names())}")
        spec = games.get(name)
        own = set(spec.options)
        unknown = sorted(set(options) - {"kind", "game", "players", "seat", "bots", "seed"} - own)
        if unknown:
            raise TableError(f"new game: unknown option(s) {unknown}")
        same = spec.name == self.spec.name
        players = options.get("players", self._game.num_players if same else spec.players.start)
        check_players(players, spec)
        seat = options.get("seat", self.seat)
        if "seat" not in options and seat is not None and seat >= players:
            seat = 0
        self.check_seat(seat, players)
        current = self.game_options() if same else {}
        game_options = check_options({key: options.get(key, current.get(key, choices[0]))
                                      for key, (choices, _) in spec.options.items()}, spec)
        seed = options.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                                 or not 0 <= seed < 2**63):
            raise TableError(f"seed must be a whole number from 0 to 2**63 - 1, or null, "
                             f"not {shown(seed)}")
        if "bots" in options:
            bots = panel_bots(options["bots"], players)
        elif "players" in options or "seat" in options or not same:
            bots = default_bots(players, seat, spec)
        else:
            bots = dict(self._bot_names)
        return {"game": name, "players": players, "seat": seat, "options": game_options,
                "seed": seed, "bots": bots}

    def game_options(self) -> dict[str, Any]:
        """The game's own options as this game was dealt (each shows in its views by name)."""
        view = self._game.public_view()
        return {key: view.get(key, choices[0]) for key, (choices, _) in self.spec.options.items()}

    def setup(self) -> dict[str, Any]:
        """What the board's New game panel starts from, and which choices it offers (the
        game among ``games``: each registered game's name, title and player counts)."""
        return {
            "game": self.spec.name,
            "games": [{"name": spec.name, "title": spec.title,
                       "players": [spec.players.start, spec.players.stop - 1]}
                      for spec in map(games.get, games.names())],
            "players": self._game.num_players,
            "seat": self.seat,
            "bots": {str(s): n for s, n in self._bot_names.items()},
            **self.game_options(),
            "levels": list(LEVELS),
            "level_notes": {name: note for name, (_, _, note) in LEVELS.items()},
            "allow_new_game": self.puzzle is None,
            "step_done": STEP_DONE if self.step_done() else "",
        }

    def picture(self) -> dict[str, Any]:
        """What the shown seat's board shows (tables.driver.BoardDriver.picture)."""
        game = self._game
        # Another player's legal actions would reveal their hand: only the decider gets them.
        acting = self.deciding()
        figures = self.spec.figures
        return {
            "view": game.view(self.seat), "events": game.log(self.seat),
            "legal": [] if acting is None else game.legal_actions(acting),
            "move_number": game.move_number, "version": game.version,
            "undo_status": self.undo_status(), "setup": self.setup(),
            "figures": figures(game, self.seat) if game.is_over and figures else [],
            "online": {},
        }

    # --- moves ------------------------------------------------------------------------------
    def play(self, action: Any, by: str = "python", seat: int | None = None) -> None:
        """Play ``action`` for ``seat``, or whoever is to move (Python is trusted: any seat,
        bots too).

        Raises :class:`IllegalAction`, leaving the game as it was.
        """
        # Where the move happens, as every view shows it (Langfinger's place and square).
        decision = self._game.public_view().get("decision") or {}
        seat = self._game.to_move if seat is None else seat
        events = self._game.play(action, seat)
        placing = decision.get("kind") == "place"
        if by != "bot":  # a stood-in bot's report stays up until a person moves
            self.error = ""
        self.hint = {}
        self.highlight = {
            "seat": seat,
            "action": action,
            "by": by,
            # Where the move happened: the chosen place while placing, else the place resolved.
            "place": action.get("place") if placing else decision.get("place"),
            "square": events[0].get("square") if placing and events else decision.get("square"),
            "move": self._game.move_number,
        }
        self._touch()

    def why(self, content: Mapping[str, Any]) -> Reply:
        """The board's "why can't I?": the reason ``content['action']`` is refused now."""
        action = content.get("action")
        return {"kind": "why", "action": action, "reason": self.refusal(action, content)}

    def refusal(self, action: Any, content: Mapping[str, Any]) -> str | None:
        """Why this intent may not be played now (None: it may), never revealing hidden cards."""
        to_move = self._game.to_move
        if to_move is None:
            return "R10.1: the game is over" if self.spec.name == DEFAULT_GAME else \
                "the game is over"
        if self.puzzle is not None and self.puzzle.over:
            return "the puzzle is over: its round has ended (Try again to replay it)"
        if self.step_done():
            return STEP_DONE
        if "seat" in content and content["seat"] != self.seat:
            return (f"wrong seat: this board belongs to seat {self.seat!r}, not "
                    f"{shown(content['seat'])}")
        seat = self.deciding()
        if seat is None:
            if self.spec.name == DEFAULT_GAME:
                return f"R2.1/R3.1: it is {self._label(to_move)}'s decision, not yours"
            # Another game's own refusal of the shown seat names that game's ruling.
            mine = self._game.why_illegal(action, self.seat) if self.seat is not None else None
            return mine or f"it is {self._label(to_move)}'s decision, not yours"
        stale = self._stale(content)
        if stale:
            return stale
        try:
            return self._game.why_illegal(action, seat)
        except (LangfingerError, TypeError, ValueError, KeyError, AttributeError) as exc:
            return f"not an action: {exc}"  # whatever the page sent, it gets an answer

    def _stale(self, content: Mapping[str, Any]) -> str | None:
        move = content.get("move")
        if move is not None and move != self._game.move_number:
            return (f"stale: this was chosen at move {shown(move)}, but the board is at move "
                    f"{self._game.move_number}; choose again")
        version = content.get("version")
        if version is not None and version != self._game.version:
            return "stale: the board has changed since this was chosen (an undo); choose again"
        return None

    def _label(self, seat: int) -> str:
        return seat_label(self._game.public_view(), seat)

    # --- Undo (R12) -------------------------------------------------------------------------
    def _undoer(self) -> int | None:
        """The seat whose decision Undo takes back: the shown one, else the last human's."""
        if self.seat is not None:
            return self.seat
        humans = set(self.human_seats)
        return next((s for s in reversed(self._game.deciders) if s in humans), None)

    def _undo_unlimited(self) -> bool:
        """R12.3: the teaching open board (all human: no bot, no opponent) and puzzles undo
        without limit; with a bot seated, the open board stops at every draw (R12.4)."""
        return self.puzzle is not None or (self.seat is None and not self._bots)

    def undo_refusal(self) -> str | None:
        """Why Undo is not allowed now (None: it is), naming the ruling."""
        if not self._game.deciders:
            return "nothing to undo"
        # The end screen's result stands, even on the open board; a puzzle has no end screen
        # (its round's verdict), and its moves are taken back without limit (R12.3).
        if self._game.is_over and self.puzzle is None:
            return "R10.1: the game is over; its result stands"
        if self._undo_unlimited():
            return None
        seat = self._undoer()
        refusal = seat_undo_refusal(self._game, seat, self.human_seats)
        if refusal is not None:
            return refusal
        last = max(i for i, s in enumerate(self._game.deciders) if s == seat)
        if self._showed_all and self._game.sight_barrier(None) > last:
            return ("R12.4: this board has shown every seat, so a card drawn since your last "
                    "move (at the Ruin, in a refill) was seen by everyone at the screen; "
                    "that move stands")
        return None

    def undo_status(self) -> dict[str, Any]:
        reason = self.undo_refusal()
        return {"allowed": reason is None, "reason": reason or ""}

    def undo(self) -> None:
        """Take back the undoing seat's last decision and the moves after it (R12).

        The open board and puzzles take back to the last human decision,
        without limit (R12.3). Raises :class:`IllegalAction` naming the ruling.
        """
        reason = self.undo_refusal()
        if reason is not None:
            raise IllegalAction(reason)
        game = self._game
        if self._undo_unlimited():
            # Back to the last human decision that had a choice: a pass that was the only
            # move would be played again by the board's auto-pass, and Undo would loop.
            target = last_choice(game, set(self.human_seats)) or 0
            while game.move_number > target:
                game.undo()
        else:
            seat = self._undoer()
            assert seat is not None  # undo_refusal said there is a decision of this seat's
            take_back(game, seat)
        self.error, self.hint, self.highlight = "", {}, {}
        self._touch()

    # --- intents from a front end --------------------------------------------------------------
    def act(self, content: Mapping[str, Any]) -> Reply:
        action = content.get("action")
        refusal = unquoted(content) or self.refusal(action, content)
        if refusal is not None:
            if self.puzzle is not None and not self.puzzle.over:  # keep a finished verdict
                self.puzzle.refused(refusal)
            return refuse(refusal)
        try:
            self.play(action, by="human", seat=self.deciding())
        except LangfingerError as exc:  # refusal() said legal; keep the promise "untouched"
            return refuse(str(exc))
        return ok()

    def reveal(self, content: Mapping[str, Any]) -> Reply:
        """Hot seat: hand the board to the player to move (only they may see their hand)."""
        seat = content.get("seat")
        to_move = self._game.to_move
        if not isinstance(seat, int) or isinstance(seat, bool):
            return refuse(f"reveal needs a seat number, got {shown(seat)}")
        if seat not in self.human_seats:
            return refuse(f"seat {shown(seat)} is not a human seat here")
        if seat not in self._game.to_decide:
            who = "nobody (the game is over)" if to_move is None else self._label(to_move)
            ruling = "R3.1: " if self.spec.name == DEFAULT_GAME else ""
            return refuse(f"{ruling}only a player to move may take the board; it is {who}")
        self.error = ""
        self.set_seat(seat)
        self._touch()
        return ok()

    def undo_intent(self) -> Reply:
        try:
            self.undo()
        except IllegalAction as exc:
            return refuse(str(exc))
        return ok()

    def new_game_intent(self, content: Mapping[str, Any]) -> Reply:
        if self.puzzle is not None:
            return refuse("this board plays a puzzle: Try again starts it afresh")
        try:
            self.new_game(content)
        except TableError as exc:
            return refuse(str(exc))
        return ok()

    # --- hints ------------------------------------------------------------------------------
    def _work_key(self, seat: int) -> WorkKey:
        return (self._generation, self._game.version, seat)

    def hint_intent(self) -> Reply:
        """Search the best move for the seat deciding at this board; one search at a time."""
        if self.puzzle is not None:  # a search would simply give the puzzle away
            return {"kind": "hint", "action": None, "error": "a puzzle gives its own hints"}
        seat = self.deciding()
        if seat is None:
            return {"kind": "hint", "action": None, "error": "no decision of yours to hint at"}
        key = self._work_key(seat)
        if self._hint_work is not None and self._hint_work.active and self._hint_for == key:
            return {"kind": "hint", "action": None, "error": "", "pending": True}  # coalesced
        self._cancel_hint()
        # The hint bot sees exactly what the asking seat sees, like any bot.
        bot = make_hint_bot(seed=self._game.move_number)
        steps = bot_steps(bot, self._game, seat, self._game.move_number, hint=True)
        self._hint_for = key
        if not self.autoplay:  # scripts and tests: answer at once, in this call
            try:
                return self._deliver_hint(key, at_once(steps))
            except Exception as exc:  # a failing hint must not break the board
                return self._hint_error(key, exc)
        self._hint_work = Slices(
            self.scheduler, steps,
            lambda result: self.on_message(self._deliver_hint(key, result)),
            lambda exc: self.on_message(self._hint_error(key, exc)),
        ).start()
        return {"kind": "hint", "action": None, "error": "", "pending": True}

    def _hint_is_current(self, key: WorkKey) -> bool:
        seat = key[2]
        return (not self.closed and key == self._work_key(seat)
                and seat in self._game.to_decide and seat in self.acting_seats())

    def _deliver_hint(self, key: WorkKey, result: tuple[Action, float]) -> Reply:
        """Show a finished hint, unless the board moved on or changed hands meanwhile."""
        self._hint_work, self._hint_for = None, None
        if not self._hint_is_current(key):
            return {"kind": "hint", "action": None, "error": "the board moved on; ask again"}
        action, value = result
        self.hint = {"seat": key[2], "action": action, "value": value,
                     "move": self._game.move_number, "version": key[1]}
        self._touch(reschedule=False)
        return {"kind": "hint", "action": action, "value": value, "error": ""}

    def _hint_error(self, key: WorkKey, exc: Exception) -> Reply:
        self._hint_work, self._hint_for = None, None
        return {"kind": "hint", "action": None, "error": f"no hint: {exc!r}"}

    def _cancel_hint(self) -> None:
        if self._hint_work is not None:
            self._hint_work.cancel()
        self._hint_work, self._hint_for = None, None

    # --- bots -------------------------------------------------------------------------------
    def bot_to_move(self) -> int | None:
        """A bot seat that may decide now (the first, in a sealed step), or None."""
        if self.step_done():
            return None  # a lesson's board holds at the end of its step, bots too
        return next((s for s in self._game.to_decide if s in self._bots), None)

    def _touch(self, reschedule: bool = True) -> None:
        """Something a board shows changed: tell the front end, then look for bot work."""
        self._changed_at = self.scheduler.now()
        self._showed_all = self._showed_all or self.seat is None
        if self._hint_for is not None and not self._hint_is_current(self._hint_for):
            self._cancel_hint()
        self.on_change()
        if reschedule:
            self._schedule()

    def _schedule(self) -> None:
        """Start the bot to move thinking, unless it already is (for this very position)."""
        seat = self.bot_to_move()
        key = None if seat is None else self._work_key(seat)
        if self._bot_for == key and self._bot_work is not None:
            return
        self._cancel_bot()
        if seat is None or key is None or not self.autoplay or self.closed:
            return
        steps = bot_steps(self._bots[seat], self._game, seat, self._bot_seed(seat) + key[1])
        self._bot_for = key
        self._bot_work = Slices(self.scheduler, steps, lambda action: self._bot_ready(key, action),
                                lambda exc: self._bot_failed(key, exc)).start()

    def _cancel_bot(self) -> None:
        if self._bot_work is not None:
            self._bot_work.cancel()
        if self._bot_due is not None:
            self._bot_due.cancel()
        self._bot_work, self._bot_for, self._bot_due = None, None, None

    def _bot_ready(self, key: WorkKey, action: Action) -> None:
        """The bot has chosen: play it once ``pace`` has passed since the last change."""
        wait = self._changed_at + self.pace - self.scheduler.now()
        if wait > 0 and not self.closed:
            self._bot_due = self.scheduler.call_later(wait, lambda: self._bot_moves(key, action))
        else:
            self._bot_moves(key, action)

    def _bot_moves(self, key: WorkKey, action: Action) -> None:
        if self.closed or self._bot_for != key or key != self._work_key(key[2]):
            return  # stale: the game moved on (or was replaced) while the bot thought
        self._bot_work, self._bot_for, self._bot_due = None, None, None
        self._play_for_bot(key[2], action)

    def _bot_failed(self, key: WorkKey, exc: Exception) -> None:
        if self.closed or self._bot_for != key or key != self._work_key(key[2]):
            return
        self._bot_work, self._bot_for, self._bot_due = None, None, None
        self._stand_in(key[2], f"failed ({exc!r})")

    def _play_for_bot(self, seat: int, action: Action) -> None:
        try:
            self.play(action, by="bot", seat=seat)
        except (LangfingerError, TypeError, ValueError, KeyError, AttributeError) as exc:
            self._stand_in(seat, f"chose an illegal action ({exc})")

    def _stand_in(self, seat: int, what: str) -> None:
        """A bot failed: a random legal move is played for it, so the game goes on."""
        name = self._bot_names.get(seat, "bot")
        legal = self._game.legal_actions(seat)
        stand_in = make("random", seed=self._game.version).choose(self._game.view(seat), legal)
        self.play(stand_in, by="bot", seat=seat)
        self.error = (f"the {name} bot of seat {seat} {what}; a random legal move was played "
                      "for it so that the game goes on")
        self.on_change()

    def step_bots(self, limit: int | None = None) -> int:
        """Play pending bot moves now, in this call (no pace); return how many were played.

        Stops at a human's decision, at the end of the game, or after ``limit``
        moves. A failing bot is stood in for (``error`` says so), as on the loop.
        """
        played = 0
        while (limit is None or played < limit) and not self.closed:
            seat = self.bot_to_move()
            if seat is None:
                break
            self._cancel_bot()
            try:
                action = at_once(bot_steps(self._bots[seat], self._game, seat,
                                           self._bot_seed(seat) + self._game.version))
            except Exception as exc:  # as on the loop: report, stand in, go on
                self._stand_in(seat, f"failed ({exc!r})")
            else:
                self._play_for_bot(seat, action)
            played += 1
        return played

    def close(self) -> None:
        """Stop every bot and hint search; nothing more is played at this table."""
        self.closed = True
        self._cancel_bot()
        self._cancel_hint()
