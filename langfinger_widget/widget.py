"""``LangfingerWidget``: the game in JupyterLab, a thin glue between ``Game`` and the board.

The widget owns a live :class:`~langfinger_widget.game.Game` and mirrors one
seat's *redacted* picture of it into synced traits (``view``, ``legal``,
``log``). The front end renders those and sends intents back as custom
messages; every intent is checked here as if it came from an adversary (wrong
seat, malformed, stale), so a refused intent leaves the game untouched and
sets ``error``. Nothing the shown seat may not see is ever put into a trait or
a message: the view and log come from ``Game.view(seat)``/``Game.log(seat)``,
and ``legal`` is sent only to the seat whose decision it is (another player's
legal actions would reveal their hand).

>>> import langfinger_widget as lf
>>> w = lf.LangfingerWidget(players=3, seed=1, seat=0, bots={1: "random", 2: "random"},
...                         autoplay=False)
>>> w.play({"type": "place", "place": "museum"})
>>> w.step_bots()  # in a notebook, bots move by themselves at `pace` seconds per move
2
>>> w.view["to_move"]
0
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

import anywidget
import traitlets

from . import views
from .errors import IllegalAction, LangfingerError
from .game import Game

STATIC = Path(__file__).parent / "static"

# Shown instead of the board when the package was installed from a checkout
# without building the front end (``npm run build``), rather than failing to import.
_MISSING_BUNDLE_ESM = """
export default { render({ el }) {
  el.textContent = "Langfinger: the front-end bundle is not built (run `npm run build`).";
} };
"""

MESSAGE_KINDS = ("act", "why", "hint", "undo", "new_game", "reveal", "puzzle_hint", "puzzle_reset")
MAX_PACE = 10.0
HINT_SECONDS = 1.0
# The `log` trait carries the most recent events only, so that one update stays small late in
# a game; the whole log is `w.game.log(seat)` in Python.
LOG_LIMIT = 30


class SeatError(traitlets.TraitError, ValueError):
    """A seat that the game does not have (a ValueError, as for any bad argument)."""


class PuzzleSession(Protocol):
    """What the widget needs of a puzzle being played (``lf.puzzles.PuzzleSession``)."""

    @property
    def seat(self) -> int: ...

    @property
    def over(self) -> bool: ...

    def hint(self) -> str: ...

    def reset(self) -> None: ...

    def refused(self, reason: str) -> None: ...

    def panel(self) -> dict[str, Any]: ...


class Bot(Protocol):
    """What the widget needs of a bot (see ``lf.bots``): it sees only a seat's view."""

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]: ...


def make_bot(name: str, seed: int | None) -> Bot:
    """The bot called ``name`` from ``lf.bots`` (a random seed when ``seed`` is None)."""
    from . import bots  # the bots import the kernel only; loaded with the first widget

    return bots.make(name, seed=secrets.randbelow(2**31) if seed is None else seed)


class HintBot(Protocol):
    """A bot that also says how good its choice is (ISMCTS: an estimated win chance)."""

    def evaluate(
        self, view: dict[str, Any], legal: list[dict[str, Any]]
    ) -> tuple[dict[str, Any], float]: ...


def make_hint_bot(seed: int) -> HintBot:
    """The bot that answers "Hint": ISMCTS on a short time budget (it runs off the main thread)."""
    from .bots import ISMCTSBot

    return ISMCTSBot(seed=seed, time=HINT_SECONDS)


def _seat_label(view: Mapping[str, Any], seat: int) -> str:
    players = view.get("players") or []
    name = players[seat].get("name") if 0 <= seat < len(players) else None
    return f"{name} (seat {seat})" if name else f"seat {seat}"


class LangfingerWidget(anywidget.AnyWidget):
    """A clickable Langfinger board for one seat, the open board, or hot-seat play.

    ``seat=k`` shows what player ``k`` may see; ``seat=None`` shows everything
    (teaching). Seats in ``bots`` are played by bots at ``pace`` seconds per
    move, in a background thread so that the kernel stays responsive; all
    other seats are human. With several human seats the board is passed
    around: the front end covers it and asks the next player to ``reveal``.
    """

    _esm = STATIC / "widget.js" if (STATIC / "widget.js").is_file() else _MISSING_BUNDLE_ESM
    _css = STATIC / "widget.css" if (STATIC / "widget.css").is_file() else ""

    view = traitlets.Dict().tag(sync=True)
    legal: traitlets.List[Any] = traitlets.List().tag(sync=True)
    # Named by the contract; note it shadows the logger ipywidgets keeps in `log` (used only
    # when reporting its own errors outside IPython).
    log: traitlets.List[Any] = traitlets.List().tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    seat = traitlets.Int(0, allow_none=True).tag(sync=True)
    pace = traitlets.Float(0.6).tag(sync=True)
    bots = traitlets.Dict().tag(sync=True)
    human_seats: traitlets.List[Any] = traitlets.List().tag(sync=True)
    highlight = traitlets.Dict().tag(sync=True)
    hint = traitlets.Dict().tag(sync=True)
    # Actions played so far: an intent may quote it, and is refused as stale if the board moved on.
    move_number = traitlets.Int(0).tag(sync=True)
    # The puzzle being played on this board ({} otherwise): its name, goal, ruling, status and
    # the hints asked for so far, never its solution (PuzzleSession.panel).
    puzzle = traitlets.Dict().tag(sync=True)

    # The only trait the front end may change directly; everything else moves by message.
    _FRONT_END_WRITABLE = frozenset({"pace"})

    def __init__(
        self,
        game: Game | None = None,
        players: int = 3,
        seed: int | None = None,
        seat: int | None = 0,
        bots: Mapping[int | str, str] | None = None,
        *,
        pace: float = 0.6,
        autoplay: bool = True,
        variant: str = "standard",
        **kwargs: Any,
    ) -> None:
        self._lock = threading.RLock()
        self._worker: threading.Thread | None = None
        self._closed = False
        self._ready = False  # observers stay quiet until __init__ has set everything up
        self._building_bots = False
        self._autoplay = autoplay
        self._seed = seed
        self._bot_players: dict[int, Bot] = {}
        self._puzzle: PuzzleSession | None = None
        self._game = game if game is not None else Game.new(players, seed, variant=variant)
        super().__init__(pace=pace, seat=seat, **kwargs)
        wanted = {1: "greedy"} if bots is None else bots
        self.bots = {str(seat): name for seat, name in wanted.items()}
        self._build_bots()
        self.on_msg(self._on_custom_msg)
        self._sync()
        self._ready = True
        self._schedule_bots()

    # --- the Python API -------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The live game. Change it through the widget (``play``, ``undo``) so the board follows."""
        return self._game

    @game.setter
    def game(self, game: Game) -> None:
        self._replace_game(game)
        self._schedule_bots()

    def _replace_game(self, game: Game) -> None:
        with self._lock:
            if self.seat is not None and not 0 <= self.seat < game.num_players:
                raise ValueError(
                    f"seat {self.seat} is not a seat of a {game.num_players}-player game"
                )
            self._game = game
            self._build_bots()
            self.error = ""
            self.hint = {}
            self.highlight = {}
            self._sync()

    def play(self, action: dict[str, Any]) -> None:
        """Play ``action`` for whoever is to move (Python is trusted: any seat, bots too).

        Raises :class:`~langfinger_widget.IllegalAction`, leaving the game as it was.
        """
        with self._lock:
            self._play(action, by="python")
        self._schedule_bots()

    def undo(self) -> None:
        """Take back moves up to and including the last decision of a human seat.

        Bot moves after it are taken back too, else the bot would simply
        replay them. Raises ``IllegalAction`` when there is nothing to undo.
        """
        with self._lock:
            if not self._game.history:
                raise IllegalAction("nothing to undo")
            while self._game.history:
                self._game.undo()
                if self._game.to_move in self._human_set():
                    break
            self.error = ""
            self.hint = {}
            self.highlight = {}
            self._sync()
        self._schedule_bots()

    # --- puzzles --------------------------------------------------------------------------
    @property
    def puzzle_session(self) -> PuzzleSession | None:
        """The puzzle played on this board (see ``Puzzle.widget``), or None."""
        return self._puzzle

    def attach_puzzle(self, session: PuzzleSession) -> None:
        """Make this the board of a puzzle (``PuzzleSession.attach`` calls it).

        Only the puzzle's seat is human: the session answers for the rivals,
        so they are neither bots nor hot-seat players, and undo takes back
        their answers with the reader's move.
        """
        with self._lock:
            self._puzzle = session
            if self.bots:
                self.bots = {}  # rebuilds the seats through _bots_changed
            self._build_bots()
            self.hint = {}
            self.puzzle = session.panel()
            self._sync()

    def show_puzzle(self, panel: dict[str, Any]) -> None:
        """Put the puzzle panel into the ``puzzle`` trait (the session calls it after each move)."""
        with self._lock:
            self.puzzle = panel
            self._sync()  # a finished puzzle takes the reader's choices away

    def new_game(self, seed: int | None = None) -> None:
        """Deal a new game with the same number of players, variant, seats and bots."""
        old = self._game
        self.game = Game.new(players=old.num_players, seed=seed, variant=old.state.variant)

    def save(self) -> dict[str, Any]:
        """The position as a dict (``Game.to_dict``): give it to :meth:`load` to continue."""
        with self._lock:
            return self._game.to_dict()

    @classmethod
    def load(cls, position: Mapping[str, Any], **kwargs: Any) -> LangfingerWidget:
        """A widget continuing a saved position (``lf.InvalidState`` if it cannot exist)."""
        return cls(game=Game.from_dict(dict(position)), **kwargs)

    def step_bots(self, limit: int | None = None) -> int:
        """Play pending bot moves now, in this thread (no pace); return how many were played.

        With ``autoplay=False`` this is how bots move: tests and scripted
        notebooks call it. Stops at a human's decision, at the end of the
        game, after ``limit`` moves, or when a bot fails (``error`` says why).
        """
        played = 0
        while (limit is None or played < limit) and self._bot_step():
            played += 1
        return played

    def wait_for_bots(self, timeout: float = 30.0) -> bool:
        """Block until the background bot thread has nothing left to do; False on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                worker = self._worker
            if worker is None:
                return True
            worker.join(timeout=max(0.0, deadline - time.monotonic()))
        with self._lock:
            return self._worker is None

    def refresh(self) -> None:
        """Re-read the game into the traits (after changing ``w.game`` behind the widget's back)."""
        with self._lock:
            self._sync()
        self._schedule_bots()

    def close(self) -> None:
        """Close the widget and let the bot thread stop at its next move."""
        self._closed = True
        super().close()

    # --- messages from the front end ------------------------------------------------------
    def _on_custom_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        self.handle_message(content)

    def handle_message(self, content: Any) -> dict[str, Any]:
        """Answer one intent from the front end (as if from an adversary) and send the reply.

        Returns the reply that was sent. A refused intent sets ``error`` and
        changes nothing else.
        """
        with self._lock:
            reply = self._dispatch(content)
            if reply.get("kind") == "result" and not reply["ok"]:
                self.error = reply["error"]
        self.send(reply)
        self._schedule_bots()
        return reply

    def _dispatch(self, content: Any) -> dict[str, Any]:
        if not isinstance(content, dict):
            return _refuse(f"not a message: expected an object, got {type(content).__name__}")
        kind = content.get("kind")
        if kind not in MESSAGE_KINDS:
            return _refuse(f"unknown message kind {kind!r}; expected one of {list(MESSAGE_KINDS)}")
        if kind == "act":
            return self._msg_act(content)
        if kind == "why":
            action = content.get("action")
            return {"kind": "why", "action": action, "reason": self._refusal(action, content)}
        if kind in ("puzzle_hint", "puzzle_reset"):
            return self._msg_puzzle(kind)
        if kind == "hint":
            return self._msg_hint()
        if kind == "undo":
            return self._msg_undo()
        if kind == "new_game":
            if self._puzzle is not None:
                return _refuse("this board plays a puzzle: Try again starts it afresh")
            old = self._game
            self._replace_game(Game.new(players=old.num_players, variant=old.state.variant))
            return {"kind": "result", "ok": True, "error": ""}
        return self._msg_reveal(content)

    def _msg_act(self, content: dict[str, Any]) -> dict[str, Any]:
        action = content.get("action")
        refusal = self._refusal(action, content)
        if refusal is not None:
            if self._puzzle is not None and not self._puzzle.over:  # keep a finished verdict
                self._puzzle.refused(refusal)
            return _refuse(refusal)
        try:
            self._play(action, by="human")
        except LangfingerError as exc:  # _refusal said legal; keep the promise "game untouched"
            return _refuse(str(exc))
        return {"kind": "result", "ok": True, "error": ""}

    def _msg_puzzle(self, kind: str) -> dict[str, Any]:
        session = self._puzzle
        if session is None:
            return _refuse(f"{kind}: this board is not playing a puzzle")
        if kind == "puzzle_reset":
            session.reset()
            self.error = ""
            return {"kind": "result", "ok": True, "error": ""}
        if self.puzzle.get("hints_left", 0) <= 0:
            # Not an error on the board: the button is simply spent.
            return {"kind": "puzzle_hint", "hint": None, "error": "every hint is already shown"}
        return {"kind": "puzzle_hint", "hint": session.hint(), "error": ""}

    def _msg_undo(self) -> dict[str, Any]:
        try:
            self.undo()
        except IllegalAction as exc:
            return _refuse(str(exc))
        return {"kind": "result", "ok": True, "error": ""}

    def _msg_reveal(self, content: dict[str, Any]) -> dict[str, Any]:
        # Hot seat: the board is handed to the next human player. Only the seat whose decision
        # it is may be revealed, so no click can show a hand out of turn.
        seat = content.get("seat")
        to_move = self._game.to_move
        if not isinstance(seat, int) or isinstance(seat, bool):
            return _refuse(f"reveal needs a seat number, got {seat!r}")
        if seat not in self._human_set():
            return _refuse(f"seat {seat!r} is not a human seat here")
        if seat != to_move:
            who = (
                "nobody (the game is over)" if to_move is None else _seat_label(self.view, to_move)
            )
            return _refuse(f"R3.1: only the player to move may take the board; it is {who}")
        self.seat = seat
        self.error = ""
        self._sync()
        return {"kind": "result", "ok": True, "error": ""}

    def _msg_hint(self) -> dict[str, Any]:
        if self._puzzle is not None:  # a search would simply give the puzzle away
            return {"kind": "hint", "action": None, "error": "a puzzle gives its own hints"}
        seat = self._game.to_move
        if seat is None or seat not in self._acting_seats():
            return {"kind": "hint", "action": None, "error": "no decision of yours to hint at"}
        # The hint bot sees exactly what the asking seat sees, like any bot.
        view, legal, move = self._game.view(seat), self._game.legal_actions(), self.move_number
        if not self._autoplay:
            return self._think_of_hint(seat, view, legal, move)

        def think() -> None:
            self.send(self._think_of_hint(seat, view, legal, move))

        threading.Thread(target=think, name="langfinger-hint", daemon=True).start()
        return {"kind": "hint", "action": None, "error": "", "pending": True}

    def _think_of_hint(
        self, seat: int, view: dict[str, Any], legal: list[dict[str, Any]], move: int
    ) -> dict[str, Any]:
        try:
            action, value = make_hint_bot(seed=move).evaluate(view, legal)
        except Exception as exc:  # a failing hint must not break the board
            return {"kind": "hint", "action": None, "error": f"no hint: {exc!r}"}
        with self._lock:
            if self.move_number != move:
                return {"kind": "hint", "action": None, "error": "the board moved on; ask again"}
            self.hint = {"seat": seat, "action": action, "value": value, "move": move}
        return {"kind": "hint", "action": action, "value": value, "error": ""}

    def _refusal(self, action: Any, content: Mapping[str, Any]) -> str | None:
        """Why this intent may not be played now (None: it may), never revealing hidden cards."""
        to_move = self._game.to_move
        if to_move is None:
            return "R10.1: the game is over"
        if self._puzzle is not None and self._puzzle.over:
            return "the puzzle is over: its round has ended (Try again to replay it)"
        if "seat" in content and content["seat"] != self.seat:
            return f"wrong seat: this board belongs to seat {self.seat!r}, not {content['seat']!r}"
        if to_move not in self._acting_seats():
            return f"R2.1/R3.1: it is {_seat_label(self.view, to_move)}'s decision, not yours"
        move = content.get("move")
        if move is not None and move != self.move_number:
            return (
                f"stale: this was chosen at move {move!r}, but the board is at move "
                f"{self.move_number}; choose again"
            )
        try:
            return self._game.why_illegal(action)
        except (LangfingerError, TypeError, ValueError, KeyError, AttributeError) as exc:
            return f"not an action: {exc}"  # whatever the page sent, it gets an answer

    # --- bots ----------------------------------------------------------------------------
    def _build_bots(self) -> None:
        """Make a bot for each bot seat; ``bots`` then names the bots actually playing."""
        used: dict[str, str] = {}
        players: dict[int, Bot] = {}
        for key, name in self.bots.items():
            seat = int(key)
            if seat >= self._game.num_players:
                continue  # a smaller game was loaded: that seat no longer exists
            bot_seed = None if self._seed is None else self._seed * 10 + seat
            players[seat] = make_bot(name, bot_seed)
            used[str(seat)] = name
        self._bot_players = players
        self._building_bots = True
        try:
            self.bots = used
        finally:
            self._building_bots = False
        self.human_seats = sorted(self._human_set())

    @traitlets.validate("bots")
    def _valid_bots(self, proposal: Any) -> dict[str, str]:
        bots: dict[str, str] = {}
        for key, name in dict(proposal["value"]).items():
            seat = int(key)
            if not 0 <= seat < self._game.num_players:
                raise traitlets.TraitError(f"bot seat {seat} is not a seat of this game")
            if not isinstance(name, str):
                raise traitlets.TraitError(f"bot name must be a string, not {name!r}")
            bots[str(seat)] = name
        return bots

    @traitlets.observe("bots")
    def _bots_changed(self, change: Any) -> None:
        # `w.bots = {2: "random"}` from Python hands seats to bots (or back to humans).
        if self._ready and not self._building_bots:
            with self._lock:
                self._build_bots()
                self._sync()
            self._schedule_bots()

    def _bot_to_move(self) -> int | None:
        seat = self._game.to_move
        return seat if seat is not None and seat in self._bot_players else None

    def _bot_step(self) -> bool:
        """One bot move, if a bot is to move. The bot thinks outside the lock, on a snapshot."""
        with self._lock:
            seat = self._bot_to_move()
            if seat is None or self._closed:
                return False
            bot = self._bot_players[seat]
            view, legal, move = self._game.view(seat), self._game.legal_actions(), self.move_number
        try:
            action = bot.choose(view, legal)
        except Exception as exc:  # a broken bot must not kill the board: show it and stop
            self.error = f"the bot of seat {seat} failed: {exc!r}"
            return False
        with self._lock:
            if self.move_number != move or self._bot_to_move() != seat:
                return True  # the board moved on while the bot was thinking: look again
            try:
                self._play(action, by="bot")
            except IllegalAction as exc:
                self.error = f"the bot of seat {seat} chose an illegal action: {exc}"
                return False
        return True

    def _schedule_bots(self) -> None:
        """Start the bot thread if a bot is to move (and autoplay is on)."""
        if not self._autoplay or self._closed:
            return
        with self._lock:
            if self._worker is not None or self._bot_to_move() is None:
                return
            self._worker = threading.Thread(
                target=self._bot_loop, name="langfinger-bots", daemon=True
            )
            self._worker.start()

    def _bot_loop(self) -> None:
        # The worker clears itself under the lock in the same step that finds nothing to do,
        # so a human move that hands the turn to a bot either sees this worker or starts one.
        while True:
            time.sleep(min(max(self.pace, 0.0), MAX_PACE))
            with self._lock:
                if self._closed or self._bot_to_move() is None:
                    self._worker = None
                    return
            if not self._bot_step():
                with self._lock:
                    if self._closed or self._bot_to_move() is None or self.error:
                        self._worker = None
                        return

    # --- keeping the traits in step -------------------------------------------------------
    def _play(self, action: Any, by: str) -> None:
        decision = views.decision(self._game.state) or {}
        seat = self._game.to_move
        events = self._game.play(action)
        # Where the move happened: the chosen place while placing, else the place being resolved.
        place = action.get("place") if decision.get("kind") == "place" else decision.get("place")
        self.error = ""
        self.hint = {}
        self.highlight = {
            "seat": seat,
            "action": action,
            "by": by,
            "place": place,
            "square": events[0].get("square")
            if decision.get("kind") == "place" and events
            else decision.get("square"),
            "move": len(self._game.history),
        }
        self._sync()

    def _human_set(self) -> set[int]:
        if self._puzzle is not None:  # the rivals are the puzzle's, not people at the screen
            return {self._puzzle.seat}
        return {s for s in range(self._game.num_players) if s not in self._bot_players}

    def _acting_seats(self) -> set[int]:
        """The seats the shown board may act for: its own seat, or every human on the open board."""
        humans = self._human_set()
        if self._puzzle is not None and self._puzzle.over:
            return set()  # the puzzle's round is over: nothing more to play
        if self.seat is None:
            return humans
        return {self.seat} & humans

    def _sync(self) -> None:
        """Put the shown seat's redacted picture of the game into the traits, in one message."""
        game = self._game
        with self.hold_sync():
            self.move_number = len(game.history)
            self.view = game.view(self.seat)
            self.log = game.log(self.seat)[-LOG_LIMIT:]
            # Another player's legal actions would reveal their hand: only the decider gets them.
            acting = game.to_move is not None and game.to_move in self._acting_seats()
            self.legal = game.legal_actions() if acting else []

    @traitlets.validate("seat")
    def _valid_seat(self, proposal: Any) -> int | None:
        seat = proposal["value"]
        if seat is not None and not 0 <= seat < self._game.num_players:
            raise SeatError(
                f"seat must be None or 0..{self._game.num_players - 1}, not {seat!r}"
            )
        return seat  # type: ignore[no-any-return]

    @traitlets.observe("seat")
    def _seat_changed(self, change: Any) -> None:
        if self._ready:
            with self._lock:
                self.hint = {}
                self._sync()

    @traitlets.validate("pace")
    def _valid_pace(self, proposal: Any) -> float:
        return min(max(float(proposal["value"]), 0.0), MAX_PACE)

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """State sent by the front end: only ``pace`` may change; anything else is put back.

        A page could otherwise set ``seat`` (and see another hand) or write a
        ``view``; intents go through messages, which are validated.
        """
        allowed = {k: v for k, v in sync_data.items() if k in self._FRONT_END_WRITABLE}
        refused = sorted(set(sync_data) - set(allowed))
        if allowed:
            super().set_state(allowed)
        if refused:
            self.error = f"the board may not change {', '.join(refused)} directly"
            self.send_state(refused)  # put the page back in step with the kernel


def _refuse(reason: str) -> dict[str, Any]:
    return {"kind": "result", "ok": False, "error": reason}
