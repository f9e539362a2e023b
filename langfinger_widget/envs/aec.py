"""Langfinger as a PettingZoo AEC environment (the ``rl`` extra).

>>> from langfinger_widget import envs
>>> env = envs.pettingzoo_env(players=3, seed=1)
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum())
((625,), 5)

* Agents ``player_0`` .. ``player_{n-1}`` are the seats; the agent to act is
  whoever the rules say (R2.1 placing, R3.1 acting), not a fixed rotation.
* Actions are the ids of :mod:`.actions`, one ``Discrete`` space for every
  seat; ``obs["action_mask"]`` marks the legal ones (all zero for a seat not
  to move). An illegal id raises :class:`~langfinger_widget.IllegalAction`
  naming the ruling, and changes nothing.
* ``obs["observation"]`` is :mod:`.observation`'s vector of the seat's own
  view: nothing the seat may not see (docs/envs.md, field by field).
* Rewards come once, at the end: 1 shared by the tied winners (R10.2), 0
  otherwise; ``infos[agent]`` then holds ``money`` (final, every seat) and
  ``winners``. A game still running after ``max_rounds`` rounds is truncated
  with reward 0.
* Seeds: ``reset(seed=s)`` deals the same game for the same ``s``; a reset
  without a seed deals the next game of the sequence that ``seed`` (the
  constructor's, or the latest ``reset``'s) began. Scoundrels are drawn at
  random per game unless ``scoundrels=`` fixes them (R0.5).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils import wrappers

from ..kernel import rules
from ..kernel.cards import SCOUNDRELS
from ..kernel.errors import IllegalAction
from ..kernel.game import Game
from .actions import table
from .observation import Encoder
from .seats import SeatsEnv

DEFAULT_MAX_ROUNDS = 100


class LangfingerEnv(SeatsEnv):
    """The raw environment; :func:`pettingzoo_env` wraps it in PettingZoo's order checks."""

    metadata = {"name": "langfinger_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, players: int = 3, variant: str = "standard", seed: int | None = None,
                 scoundrels: list[str] | None = None, max_rounds: int = DEFAULT_MAX_ROUNDS,
                 render_mode: str | None = None) -> None:
        super().__init__()
        Game.new(players=players, seed=0, scoundrels=scoundrels, variant=variant)  # checks R1.1..
        self.players, self.variant, self.max_rounds = players, variant, max_rounds
        self.scoundrels = scoundrels
        self.encoder = Encoder(players, max_rounds)
        vector = spaces.Box(0.0, np.array(self.encoder.highs, np.float32), dtype=np.float32)
        self._seat_spaces(players, table().size, vector, render_mode)
        self._seeds = random.Random(seed)
        self.game: Game | None = None

    # --- the game ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        game_seed = self._seeds.getrandbits(31)
        scoundrels = self.scoundrels or random.Random(game_seed).sample(sorted(SCOUNDRELS),
                                                                        self.players)
        self.game = Game.new(players=self.players, seed=game_seed, scoundrels=scoundrels,
                             variant=self.variant)
        self._begin_episode()
        self.agent_selection = self._agent_to_move()

    def _live(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def _agent_to_move(self) -> str:
        seat = self._live().to_move
        return self.possible_agents[seat if seat is not None else 0]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        game = self._live()
        seat = self.possible_agents.index(agent)
        vector = np.array(self.encoder.encode(game.view(seat)), dtype=np.float32)
        mask = np.zeros(table().size, dtype=np.int8)
        if agent == self.agent_selection and not self._finished():
            mask[list(table().legal(game.state))] = 1
        return {"observation": vector, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._live()
        key = self._key(game, action)
        self._cumulative_rewards[agent] = 0.0
        game.play(rules.key_action(key))
        if game.is_over:
            self._end(truncated=False)
        elif game.round > self.max_rounds:
            self._end(truncated=True)
        self.agent_selection = self._agent_to_move()
        self._accumulate_rewards()

    def _key(self, game: Game, action: Any) -> rules.Key:
        """The legal key of ``action`` (an id), or IllegalAction saying why not."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalAction(f"an action is a whole number from 0 to {table().size - 1}, "
                                f"not {action!r}")
        legal = table().legal(game.state)
        if int(action) in legal:
            return legal[int(action)]
        if not 0 <= int(action) < table().size:
            raise IllegalAction(f"action {action} is outside 0..{table().size - 1}")
        why = game.why_illegal(table().action(int(action), game.state))
        raise IllegalAction(f"action {action} ({table().describe(int(action))}): "
                            f"{why or 'not legal now'}")

    def _end(self, truncated: bool) -> None:
        game = self._live()
        winners = [] if truncated else game.winners
        for seat, agent in enumerate(self.agents):
            self.rewards[agent] = 1.0 / len(winners) if seat in winners else 0.0
            self.infos[agent] = {"money": game.money, "winners": winners}
        flags = self.truncations if truncated else self.terminations
        for agent in self.agents:
            flags[agent] = True

    # --- showing it -------------------------------------------------------------------------
    def render(self) -> str | None:
        """The board as the agent to move sees it (text), for ``render_mode="ansi"``."""
        if self.render_mode is None:
            return None
        from ..kernel import render

        return render.text(self._live().view(self.possible_agents.index(self.agent_selection)))

    def close(self) -> None:
        self.game = None


def pettingzoo_env(players: int = 3, variant: str = "standard", seed: int | None = None,
                   **options: Any) -> Any:
    """The environment wrapped in PettingZoo's ``OrderEnforcingWrapper`` (reset before use)."""
    return wrappers.OrderEnforcingWrapper(LangfingerEnv(players, variant, seed, **options))
