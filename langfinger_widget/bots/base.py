"""What every bot shares: the ``Bot`` protocol, input checks, and public-card reasoning.

A bot is handed exactly what a human at that seat would see: the seat's
view (docs/view-format.md) and the list of legal actions. It never touches a
:class:`~langfinger_widget.kernel.game.Game` or a :class:`~langfinger_widget.kernel.state.State`
of the real game, so it cannot peek at hidden cards even by accident. The
helpers here only combine the view with the public card catalogue (R0.4):
e.g. which loot fronts a face-down back may still hide.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Sequence
from typing import Any, Protocol, runtime_checkable

from ..games.protocol import GameState
from ..kernel import rules
from ..kernel.errors import BadArgument
from ..kernel.hidden import View as View  # the type every bot takes, re-exported
from ..kernel.rules import Key
from ..kernel.state import shown
from ..kernel.views import VIEW_FORMAT

Action = dict[str, Any]


@runtime_checkable
class Bot(Protocol):
    """Anything that picks one of the legal actions from what its seat sees."""

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """Return one element of ``legal`` (the dict itself)."""
        ...


def check_inputs(view: Any, legal: Any, game: str | None = None) -> None:
    """Refuse anything but a seat's view and a non-empty list of action dicts.

    This is what makes the bots fair by construction: a ``Game`` (which holds
    the hidden cards), or its ``to_dict``, is rejected with a ``TypeError`` instead of being
    read. A view is any game's (its ``format`` is ``"<game>-view/<n>"``); a bot that plays
    one game only names it (``game="langfinger"``) and is refused another's view.
    """
    form = view.get("format") if isinstance(view, dict) else None
    if not isinstance(form, str) or "-view/" not in form:
        raise TypeError(f"a bot takes a seat's view (a dict like {VIEW_FORMAT!r}), "
                        f"not {type(view).__name__}" + (f" {form!r}" if form else ""))
    if not isinstance(view.get("seat"), int):
        raise TypeError("a bot plays one seat: view(seat) with a seat number, not the open board")
    if not isinstance(legal, (list, tuple)) or not legal or not all(
            isinstance(a, dict) for a in legal):
        raise TypeError("legal must be a non-empty list of action dicts")
    if game is not None and not form.startswith(f"{game}-view/"):
        raise BadArgument(f"this bot plays {game} only, not a {form!r} game; any game has the "
                          "random bot, and ISMCTS searches it given a twin (thinking(..., twin=))")


def number(value: Any, what: str, *, low: float = 0.0, above: bool = False,
           high: float = math.inf, whole: bool = False) -> Any:
    """``value`` if it is a finite number from ``low`` (or ``above`` it) to ``high``, whole
    if ``whole``; else :class:`BadArgument` naming ``what``. A NaN or an infinite budget
    would let a search run for ever; a bool is no number here."""
    kind = int if whole else (int, float)
    ok = isinstance(value, kind) and not isinstance(value, bool) and math.isfinite(value) \
        and (value > low if above else value >= low) and value <= high
    if not ok:
        span = "" if low == -math.inf else f" above {low:g}" if above else f" from {low:g}"
        span += "" if high == math.inf else f" to {high:g}"
        raise BadArgument(f"{what} must be a finite {'whole ' if whole else ''}number{span}, "
                          f"not {shown(value)}")
    return value


def keyed(legal: Sequence[Action]) -> list[tuple[Key, Action]]:
    """Each legal action with its rules key (hashable, order-free), in the given order."""
    return [(rules.action_key(a), a) for a in legal]


# Iterations of a search between two yields of :func:`thinking`: a few milliseconds of work.
SEARCH_PIECE = 8


def thinking(bot: Bot, view: View, legal: Sequence[Action], twin: GameState | None = None
             ) -> Generator[None, None, Action]:
    """The bot's choice as a computation that yields between small pieces of work.

    A searching bot (one with ``search(view, legal)``, like ISMCTS) is run a
    piece at a time, so a driver on an event loop can answer clicks while it
    thinks (:class:`~langfinger_widget.tables.scheduler.Slices`); any other bot
    chooses in one piece. The choice is the same as ``bot.choose``'s.

    ``twin``: for a game other than Langfinger, ``game.resample(seat, rng)`` (a game that
    holds only what the seat has seen): a bot with ``search_twin`` (ISMCTS) searches it
    through the game protocol.
    """
    if twin is not None and view.get("format") != VIEW_FORMAT:
        search_twin = getattr(bot, "search_twin", None)
        if search_twin is None:
            return bot.choose(view, legal)
        if len(legal) == 1:  # nothing to decide: save the search
            return legal[0]
        running = search_twin(twin, view["seat"], legal)
        while not running.done:
            running.run(SEARCH_PIECE)
            yield
        return running.best()[0]  # type: ignore[no-any-return]
    search = getattr(bot, "search", None)
    if search is None or len(legal) == 1:
        return bot.choose(view, legal)
    running = search(view, legal)
    while not running.done:
        running.run(SEARCH_PIECE)
        yield
    return running.best()[0]  # type: ignore[no-any-return]


def weighing(bot: Any, view: View, legal: Sequence[Action], twin: GameState | None = None
             ) -> Generator[None, None, tuple[Action, float]]:
    """Like :func:`thinking` for a bot that also rates its choice: the action and its value.

    A bot without ``search`` answers with ``evaluate(view, legal)`` in one piece; ``twin``
    as for :func:`thinking`.
    """
    if twin is not None and view.get("format") != VIEW_FORMAT:
        running = bot.search_twin(twin, view["seat"], legal)
    elif not hasattr(bot, "search"):
        return bot.evaluate(view, legal)  # type: ignore[no-any-return]
    else:
        running = bot.search(view, legal)
    while not running.done:
        running.run(SEARCH_PIECE)
        yield
    return running.best()  # type: ignore[no-any-return]
