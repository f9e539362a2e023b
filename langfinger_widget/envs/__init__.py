"""Langfinger for game researchers: PettingZoo and OpenSpiel environments.

* :func:`pettingzoo_env` — a PettingZoo AEC environment (the ``rl`` extra:
  ``pip install langfinger-widget[rl]``); :func:`env` — the same for any registered game,
  ``env(game="crooks", players=3)`` (:mod:`.any_game`);
* ``langfinger_widget.envs.openspiel`` — registers ``python_langfinger``
  with OpenSpiel (the ``openspiel`` extra), and every other registered game with an
  environment as ``python_<game>`` (:mod:`.openspiel_any`);
* :mod:`.actions` and :mod:`.observation` — the fixed action ids and the
  observation vector both share, in plain Python.

docs/envs.md documents the action table and the observation field by field.
"""

from __future__ import annotations

from typing import Any

from . import actions, observation
from .actions import ActionTable, table


def pettingzoo_env(players: int = 3, variant: str = "standard", seed: int | None = None,
                   **options: Any) -> Any:
    """A PettingZoo AEC environment for ``players`` seats (see :mod:`.aec`)."""
    from .aec import pettingzoo_env as make

    return make(players=players, variant=variant, seed=seed, **options)


def env(game: str = "langfinger", players: int = 3, seed: int | None = None,
        **options: Any) -> Any:
    """A PettingZoo AEC environment of any registered game (see :mod:`.any_game`)."""
    from .any_game import env as make

    return make(game=game, players=players, seed=seed, **options)


__all__ = ["ActionTable", "actions", "env", "observation", "pettingzoo_env", "table"]
