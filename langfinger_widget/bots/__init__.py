"""Bots that play Langfinger from a seat's view: random, greedy and ISMCTS.

Players pick an opponent by level (:data:`LEVELS`: ``easy``, ``medium``,
``hard``, ``expert``), each a bot with a budget that answers within a second.

Every bot implements :class:`Bot` — ``choose(view, legal) -> action`` — and is
seeded at construction. It is given what a player at that seat sees
(``Game.view(seat)``) and the legal actions, never the game itself:

>>> import langfinger_widget as lf
>>> g = lf.Game.new(players=2, seed=1)
>>> bot = lf.bots.make("greedy", seed=0)
>>> bot.choose(g.view(g.to_move), g.legal_actions()) in g.legal_actions()
True
"""

from __future__ import annotations

from typing import Any

from .. import games
from ..kernel.errors import BadArgument
from ..kernel.hidden import Determinizer, determinize
from ..kernel.state import shown
from .base import Action, Bot, View
from .greedy import GreedyBot
from .ismcts import MONEY_HEURISTIC, ISMCTSBot
from .random_bot import RandomBot

BOTS: dict[str, type[RandomBot] | type[GreedyBot] | type[ISMCTSBot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "ismcts": ISMCTSBot,
}
# What each bot may be given besides its seed: a budget or tuning knobs.
KNOBS: dict[str, frozenset[str]] = {
    "random": frozenset(),
    "greedy": frozenset({"blunders"}),
    "ismcts": frozenset({"iterations", "time", "c", "rounds_ahead", "temperature", "depth"}),
}


# The difficulty ladder, weakest first: a level is a bot and a budget (iterations, never
# wall-clock time, so a level plays the same in Pyodide as in a kernel, only slower). The
# searches look one round past the current one, score it with the money heuristic at
# temperature 3 and explore with c=0.7, as their ratings were measured (ISMCTS's own
# defaults are the win model at the end of the round, with c=0.5).
# Expert's budget shrinks as players are added (an iteration simulates every seat), so
# every level answers within a second on one core. Measured strength: docs/bots.md
# (python -m langfinger_widget.arena --ladder ...).
LEVELS: dict[str, tuple[str, dict[str, Any], str]] = {
    "easy": ("greedy", {"blunders": 0.5}, "takes the best thing in sight, or any move at all"),
    "medium": ("greedy", {}, "takes the best thing in sight"),
    "hard": ("ismcts", {"iterations": 500, "rounds_ahead": 1, **MONEY_HEURISTIC},
             "searches 500 sampled futures a move"),
    "expert": ("ismcts", {"iterations": {2: 2400, 3: 2000, 4: 1600, 5: 1300}, "rounds_ahead": 1,
                          **MONEY_HEURISTIC},
               "searches 1,300-2,400 sampled futures a move"),
}


# The ladder of any game but Langfinger: the same levels, a greedy level being the game's own
# greedy bot (its GameSpec's) and a searching one ISMCTS on ``resample`` twins (TwinSearch),
# whose budget buys far fewer iterations a second than Langfinger's fast search: each one
# re-deals a twin and plays it out through the protocol. The budgets keep a move near a
# second on one core (Crooks, measured by ``python -m langfinger_widget.study --game crooks``).
TWIN_LEVELS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("greedy", {"blunders": 0.5}),
    "medium": ("greedy", {}),
    "hard": ("ismcts", {"iterations": {2: 150, 3: 100, 4: 60}}),
    "expert": ("ismcts", {"iterations": {2: 400, 3: 250, 4: 160}}),
}


def names() -> list[str]:
    """Every name :func:`make` accepts: the levels, then the bots themselves."""
    return [*LEVELS, *BOTS]


def plays_greedily(name: str) -> bool:
    """Whether the bot or level ``name`` is a greedy bot (each game brings its own)."""
    return (LEVELS[name][0] if name in LEVELS else name) == "greedy"


def make(name: str, seed: int = 0, *, game: str = "langfinger", **budget: Any) -> Bot:
    """A bot by level (``easy``, ``medium``, ``hard``, ``expert``) or by name, seeded, for
    the registered game ``game`` (``lf.games.names()``).

    By name (``random``, ``greedy``, ``ismcts``), ``budget`` goes to the bot:
    ``iterations=`` or ``time=`` (seconds a move) for ISMCTS, plus its tuning
    knobs; the other bots take none. A level fixes its own budget. For a game other than
    Langfinger, ``greedy`` is that game's own greedy bot (:class:`BadArgument` if it has
    none), the levels are :data:`TWIN_LEVELS` (or the game's own budgets for its searching
    levels, ``GameSpec.levels``), and ISMCTS searches a twin it is given
    (``bots.base.thinking(bot, view, legal, twin=game.resample(seat, rng))``).
    """
    if not isinstance(name, str):
        raise BadArgument(f"a bot is named by a level {list(LEVELS)} or a bot {sorted(BOTS)}, "
                          f"not {shown(name)}")
    spec = games.get(game)
    if name in LEVELS:
        if budget:
            raise BadArgument(f"the level {name!r} has its own budget, got {sorted(budget)}")
        kind, budget = (LEVELS[name][0], LEVELS[name][1]) if spec.name == "langfinger" \
            else ("ismcts", dict(spec.levels[name])) if name in spec.levels \
            else TWIN_LEVELS[name]
    elif name in BOTS:
        kind = name
        allowed = KNOBS[name]
        if set(budget) - allowed:
            raise BadArgument(f"the {name} bot takes no budget {sorted(set(budget) - allowed)}"
                              + (f"; it takes {sorted(allowed)}" if allowed else ""))
    else:
        raise BadArgument(f"unknown bot {shown(name)}; choose a level {list(LEVELS)} "
                          f"or a bot {sorted(BOTS)}")
    if kind != "greedy" or spec.name == "langfinger":
        return BOTS[kind](seed=seed, **budget)
    if spec.greedy is None:
        raise BadArgument(f"{spec.title} has no greedy bot: choose one of "
                          f"{[n for n in names() if not plays_greedily(n)]}")
    bot: Bot = spec.greedy(seed=seed, **budget)
    return bot


__all__ = [
    "BOTS", "LEVELS", "TWIN_LEVELS", "Action", "Bot", "Determinizer", "GreedyBot", "ISMCTSBot",
    "RandomBot", "View", "determinize", "make", "names", "plays_greedily",
]
