"""OpenSpiel's own search bots in the arena: ``openspiel-ismcts`` and ``openspiel-mcts``.

Like every bot here they get a seat's view and the legal actions only. The
view is turned into a ``python_langfinger`` state by sampling the hidden
cards (the same :class:`~langfinger_widget.kernel.hidden.Determinizer`
our ISMCTS uses); from there OpenSpiel's code decides:

* ``openspiel-ismcts``: ``open_spiel.python.algorithms.ismcts.ISMCTSBot``,
  which resamples the hidden cards itself for every simulation
  (``resample_from_infostate``), with OpenSpiel's random-rollout evaluator;
  budget ``iterations=`` (simulations) or ``time=`` (seconds a move).
* ``openspiel-mcts``: ``open_spiel.python.algorithms.mcts.MCTSBot`` on one
  sampled position (it treats the sample as the truth: a fair but
  simple-minded player); budget ``iterations=``.

    python -m langfinger_widget.arena --bots ismcts:time=0.5,openspiel-ismcts:time=0.5 --games 20
"""

from __future__ import annotations

import random
import time as _time
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from ..bots.base import Action, View, check_inputs, number
from ..kernel import rules
from ..kernel.errors import BadArgument
from ..kernel.hidden import determinize
from .actions import table
from .chance import adopt
from .openspiel import LangfingerGame, LangfingerState

NAMES = ("openspiel-ismcts", "openspiel-mcts")
DEFAULT_ITERATIONS = 100
UCT_C = 2.0  # OpenSpiel's examples use 2 for rewards in [0, 1] with random rollouts


@cache
def _game(players: int, variant: str) -> LangfingerGame:
    game = pyspiel.load_game("python_langfinger", {"players": players, "variant": variant})
    assert isinstance(game, LangfingerGame)
    return game


def state_from_view(view: View, rng: random.Random) -> LangfingerState:
    """A ``python_langfinger`` decision state that ``view`` cannot tell from the real one."""
    game = _game(len(view["players"]), view["variant"])
    state = game.new_initial_state()
    state.position = game.start.with_state(adopt(determinize(view, rng)), keep_draws=False)
    return state


class _TimedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTSBot with a clock: simulations until ``seconds`` have passed."""

    def __init__(self, game: Any, evaluator: Any, seconds: float, **kwargs: Any) -> None:
        super().__init__(game, evaluator, UCT_C, max_simulations=1, **kwargs)
        self.seconds = seconds
        self.simulations = 0  # in the latest search

    def run_search(self, state: Any) -> Any:
        # ISMCTSBot.run_search, with a deadline in place of its simulation count.
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = _time.perf_counter() + self.seconds
        self.simulations = 0
        # The first simulation only expands the root; a policy needs at least one more.
        while self.simulations < 2 or _time.perf_counter() < deadline:
            self.run_simulation(self.sample_root_state(state))
            self.simulations += 1
        return self.get_final_policy(state, self._root_node)


class OpenSpielBot:
    """An OpenSpiel search bot behind our ``Bot`` protocol (see the module doc)."""

    def __init__(self, name: str, seed: int = 0, iterations: int | None = None,
                 time: float | None = None) -> None:
        if name not in NAMES:
            raise BadArgument(f"unknown OpenSpiel bot {name!r}; choose from {NAMES}")
        if name == "openspiel-mcts" and time is not None:
            raise BadArgument("openspiel-mcts takes iterations=, not time=")
        if iterations is not None:
            number(iterations, "iterations", low=1, whole=True)
        if time is not None:
            number(time, "time (seconds a move)", above=True)
        self.name = name
        self.iterations = iterations if iterations is not None or time is not None \
            else DEFAULT_ITERATIONS
        self.time = time
        self._rng = random.Random(seed)
        self._np = np.random.RandomState(seed % 2**32)
        self.searches = 0  # reported by the arena, like our ISMCTS
        self.total_iterations = 0

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        check_inputs(view, legal)
        if len(legal) == 1:
            return legal[0]
        state = state_from_view(view, self._rng)
        bot = self._bot(state.get_game())
        action_id = int(bot.step(state))
        self.searches += 1
        self.total_iterations += getattr(bot, "simulations", self.iterations or 0)
        key = table().legal(state.position.state)[action_id]
        wanted = rules.key_action(key)
        return next(a for a in legal if rules.action_key(a) == rules.action_key(wanted))

    def _bot(self, game: Any) -> Any:
        evaluator = mcts.RandomRolloutEvaluator(1, self._np)
        if self.name == "openspiel-mcts":
            return mcts.MCTSBot(game, UCT_C, self.iterations, evaluator, solve=False,
                                random_state=self._np)
        if self.time is not None:
            return _TimedISMCTS(game, evaluator, self.time, random_state=self._np)
        return ismcts.ISMCTSBot(game, evaluator, UCT_C, self.iterations, random_state=self._np)


def make(name: str, seed: int = 0, **budget: Any) -> OpenSpielBot:
    return OpenSpielBot(name, seed=seed, **budget)
