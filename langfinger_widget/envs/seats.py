"""What the PettingZoo environments share (Langfinger's, :mod:`.aec`, and any game's,
:mod:`.any_game`): the seats as agents, one ``Discrete`` action space and a dict observation
(``observation`` and ``action_mask``) each, and the bookkeeping of an episode."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..errors import BadArgument


class SeatsEnv(AECEnv):  # type: ignore[misc]
    """An AEC environment whose agents ``player_0`` .. ``player_{n-1}`` are the seats."""

    def _seat_spaces(self, players: int, actions: int, vector: spaces.Box,
                     render_mode: str | None) -> None:
        if render_mode not in (None, "ansi"):
            raise BadArgument(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        mask = spaces.Box(0, 1, (actions,), dtype=np.int8)
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({"observation": vector, "action_mask": mask})
            for a in self.possible_agents
        }

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _begin_episode(self) -> None:
        """Every agent in play again, with no reward, flag or info yet."""
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}

    def _finished(self) -> bool:
        return any(self.terminations.values()) or any(self.truncations.values())


__all__ = ["SeatsEnv"]
