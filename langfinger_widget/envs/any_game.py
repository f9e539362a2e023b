"""Any registered game as a PettingZoo AEC environment, through the game protocol alone.

>>> from langfinger_widget import envs
>>> env = envs.env(game="crooks", players=3, seed=1)
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0
((1896,), True)

* ``env(game=, players=)``: Langfinger gives its own environment (:mod:`.aec`, its action
  table and observation kept); any other game needs its ``GameSpec``'s hooks, ``action_ids``
  (a fixed list of every action it can offer at the player count: an action's id is its
  index) and ``observation`` (an encoder of a seat's view).
* Agents ``player_0`` .. ``player_{n-1}`` are the seats. ``agent_selection`` is a seat in
  ``to_decide``. In a sealed step (several seats in ``to_decide``, e.g. Oh My Goods!'s
  planning) it cycles through them in seat order, each deciding in turn as if alone: the
  seat after the one that just moved, among those still to decide. No observation shows
  another seat's unrevealed choice, so the order cannot leak it.
* ``obs["action_mask"]`` marks the legal ids of the agent selected (all zero for any
  other); an illegal id raises :class:`~langfinger_widget.IllegalAction` naming the ruling
  and changes nothing. ``obs["observation"]`` encodes ``view(seat)``: nothing the seat may
  not see.
* Rewards come once, at the end: 1 shared by the tied winners, 0 otherwise; ``infos`` then
  hold ``scores`` and ``winners``. A game still running after ``max_decisions`` is
  truncated with reward 0.
* ``reset(seed=s)`` deals the same game for the same ``s``; without a seed the next game of
  the sequence the latest seed began.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils import wrappers

from .. import games
from ..errors import BadArgument, IllegalAction
from ..games.protocol import Action, GameSpec, GameState
from .seats import SeatsEnv

DEFAULT_MAX_DECISIONS = 5000  # a safety net: no real game comes near it


def _key(action: Action) -> str:
    return json.dumps(action, sort_keys=True)


class ActionIds:
    """The fixed ids of one game's actions at a player count (``GameSpec.action_ids``)."""

    def __init__(self, actions: Sequence[Action]) -> None:
        self.actions = tuple(actions)
        self.ids = {_key(a): i for i, a in enumerate(self.actions)}
        if len(self.ids) != len(self.actions):
            raise BadArgument("a game's action_ids must list each action once")
        self.size = len(self.actions)

    def legal(self, game: GameState, seat: int) -> list[int]:
        """The ids of ``seat``'s legal actions; BadArgument if one has no id (a broken
        hook: the list must hold every action the game can offer)."""
        out = []
        for action in game.legal_actions(seat):
            i = self.ids.get(_key(action))
            if i is None:
                raise BadArgument(f"the legal action {action} has no id in the game's "
                                  f"action_ids")
            out.append(i)
        return out


def hooks(spec: GameSpec, players: int) -> tuple[ActionIds, Any]:
    """The game's action ids and observation encoder at ``players`` seats, checked."""
    if spec.action_ids is None or spec.observation is None:
        raise BadArgument(f"{spec.title} has no environment: its GameSpec gives no "
                          f"action_ids and observation")
    if players not in spec.players:
        raise BadArgument(f"{spec.players_ruling or spec.rulings}: {spec.title} is for "
                          f"{spec.players.start} to {spec.players.stop - 1} players, not "
                          f"{players!r}".lstrip(": "))
    sample = spec.Game.new(players=players, seed=0)
    return ActionIds(spec.action_ids(sample)), spec.observation(players)


def next_decider(game: GameState, after: int | None) -> int | None:
    """The seat to select: the first in ``to_decide`` after ``after`` (seat order, wrapping
    round), so a sealed step visits each of its seats in turn."""
    deciding = game.to_decide
    if not deciding:
        return None
    if after is None:
        return deciding[0]
    n = game.num_players
    return min(deciding, key=lambda s: (s - after - 1) % n)


class GameEnv(SeatsEnv):
    """The raw environment of a registered game; :func:`env` wraps it in PettingZoo's checks."""

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str = "crooks", players: int = 3, seed: int | None = None,
                 max_decisions: int = DEFAULT_MAX_DECISIONS, render_mode: str | None = None
                 ) -> None:
        super().__init__()
        self.spec = games.get(game)
        self.ids, self.encoder = hooks(self.spec, players)
        if isinstance(max_decisions, bool) or not isinstance(max_decisions, int) \
                or max_decisions < 1:
            raise BadArgument(f"max_decisions must be a whole number above 0, not "
                              f"{max_decisions!r}")
        self.metadata = {**self.metadata, "name": f"{self.spec.name}_v0"}
        self.players, self.max_decisions = players, max_decisions
        vector = spaces.Box(-np.inf, np.inf, (self.encoder.size,), dtype=np.float32)
        self._seat_spaces(players, self.ids.size, vector, render_mode)
        self._seeds = random.Random(seed)
        self.game: GameState | None = None

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        self.game = self.spec.Game.new(players=self.players, seed=self._seeds.getrandbits(31))
        self._begin_episode()
        self._seat = next_decider(self.game, None)
        self.agent_selection = self.possible_agents[self._seat or 0]

    def _live(self) -> GameState:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        game = self._live()
        seat = self.possible_agents.index(agent)
        vector = np.array(self.encoder.encode(game.view(seat)), dtype=np.float32)
        mask = np.zeros(self.ids.size, dtype=np.int8)
        if agent == self.agent_selection and not self._finished() and self._seat == seat:
            mask[self.ids.legal(game, seat)] = 1
        return {"observation": vector, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._live()
        seat = self.possible_agents.index(agent)
        chosen = self._action(game, seat, action)
        self._cumulative_rewards[agent] = 0.0
        game.play(chosen, seat)
        if game.is_over:
            self._end(truncated=False)
        elif game.move_number >= self.max_decisions:
            self._end(truncated=True)
        if not self._finished():
            self._seat = next_decider(game, seat)
            self.agent_selection = self.possible_agents[self._seat or 0]
        self._accumulate_rewards()

    def _action(self, game: GameState, seat: int, action: Any) -> Action:
        """The action of id ``action`` if legal for ``seat``, else IllegalAction saying why."""
        size = self.ids.size
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalAction(f"an action is a whole number from 0 to {size - 1}, not "
                                f"{action!r}")
        if not 0 <= int(action) < size:
            raise IllegalAction(f"action {action} is outside 0..{size - 1}")
        chosen = self.ids.actions[int(action)]
        why = game.why_illegal(chosen, seat)
        if why is not None:
            raise IllegalAction(f"action {action} ({chosen}): {why}")
        return dict(chosen)

    def _end(self, truncated: bool) -> None:
        game = self._live()
        winners = [] if truncated else list(game.winners)
        scores = [row["score"] for row in game.standings()]
        for seat, agent in enumerate(self.agents):
            self.rewards[agent] = 1.0 / len(winners) if seat in winners else 0.0
            self.infos[agent] = {"scores": scores, "winners": winners}
        flags = self.truncations if truncated else self.terminations
        for agent in self.agents:
            flags[agent] = True

    def render(self) -> str | None:
        """The selected agent's view as JSON text, for ``render_mode="ansi"``."""
        if self.render_mode is None:
            return None
        seat = self.possible_agents.index(self.agent_selection)
        return json.dumps(self._live().view(seat), sort_keys=True)

    def close(self) -> None:
        self.game = None


def env(game: str = "langfinger", players: int = 3, seed: int | None = None,
        **options: Any) -> Any:
    """A PettingZoo AEC environment of the registered ``game`` (PettingZoo's order checks
    wrapped round it, reset before use); Langfinger's is :func:`.aec.pettingzoo_env`."""
    if games.get(game).name == "langfinger":
        from .aec import pettingzoo_env

        return pettingzoo_env(players=players, seed=seed, **options)
    return wrappers.OrderEnforcingWrapper(GameEnv(game, players, seed, **options))


__all__ = ["ActionIds", "GameEnv", "env", "hooks", "next_decider"]
