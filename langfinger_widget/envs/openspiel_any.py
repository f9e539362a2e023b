"""Every registered game with environment hooks as an OpenSpiel game, through the protocol.

Importing this module registers ``python_<game>`` for each game but Langfinger (whose own,
with every card drawn as a chance outcome, is :mod:`.openspiel`) whose ``GameSpec`` gives
``action_ids`` and ``observation`` (the ``openspiel`` extra)::

    import pyspiel
    import langfinger_widget.envs.openspiel_any  # registers python_crooks, ...
    game = pyspiel.load_game("python_crooks", {"players": 4})

* Chance is one node at the start: the deal, one of ``deals`` seeds (``Game.new(players=,
  seed=)``), each as likely. Everything after it follows from the seed and the actions
  (the games' own guarantee), so a history replays exactly and OpenSpiel's serialisation
  holds. The deals a game offers are thus ``deals`` of all; raise it for more variety.
* Actions are the game's fixed ids (``GameSpec.action_ids``); the information state of a
  seat is its view (``view(seat)``), as canonical JSON and as the ``observation`` tensor.
* A sealed step (several seats in ``to_decide``) is played one seat after another, in seat
  order from the last seat that moved (as the PettingZoo environment does): no view shows
  another seat's unrevealed choice, so this is the same game of imperfect information.
* ``resample_from_infostate`` draws a twin by the game's own ``resample(seat, rng)``.
* Returns: a win is worth 1, shared by tied winners (constant-sum 1); a game cut off after
  ``max_decisions`` gives each seat 1/players.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from .. import games
from ..errors import BadArgument
from ..games.protocol import GameSpec, GameState
from .any_game import ActionIds, hooks, next_decider

DEFAULT_DEALS = 1000
DEFAULT_MAX_DECISIONS = 1000


def game_type(spec: GameSpec) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=f"python_{spec.name}",
        long_name=f"Python {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.players.stop - 1,
        min_num_players=spec.players.start,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": spec.players.start + 1
                                 if spec.players.start + 1 in spec.players
                                 else spec.players.start,
                                 "deals": DEFAULT_DEALS, "max_decisions": DEFAULT_MAX_DECISIONS},
    )


class AnyGame(pyspiel.Game):  # type: ignore[misc]
    """A registered game; parameters ``players``, ``deals``, ``max_decisions``."""

    spec: GameSpec  # set on each registered subclass

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        kind = game_type(self.spec)
        players = int(params.get("players", kind.parameter_specification["players"]))
        self.deals = int(params.get("deals", DEFAULT_DEALS))
        self.max_decisions = int(params.get("max_decisions", DEFAULT_MAX_DECISIONS))
        if self.deals < 1 or self.max_decisions < 1:
            raise BadArgument(f"deals and max_decisions must be at least 1, not "
                              f"{self.deals}, {self.max_decisions}")
        self.ids, self.encoder = hooks(self.spec, players)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.ids.size, max_chance_outcomes=self.deals,
            num_players=players, min_utility=0.0, max_utility=1.0, utility_sum=1.0,
            max_game_length=self.max_decisions)
        super().__init__(kind, info, params)

    def new_initial_state(self) -> AnyState:
        return AnyState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> ViewObserver:
        if params:
            raise BadArgument(f"observation parameters are not supported, got {params}")
        return ViewObserver(self.encoder, bool(iig_obs_type and iig_obs_type.perfect_recall))


class AnyState(pyspiel.State):  # type: ignore[misc]
    """Before the deal, ``game`` is None (a chance node); then the game and the seat chosen."""

    def __init__(self, owner: AnyGame) -> None:
        super().__init__(owner)
        self.game: GameState | None = None
        self.seat: int | None = None

    @property
    def owner(self) -> AnyGame:
        # Not kept in the state's attributes: OpenSpiel pickles those to serialise a state.
        return self.get_game()  # type: ignore[no-any-return]

    def current_player(self) -> int:
        if self.game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        assert self.seat is not None
        return self.seat

    def is_terminal(self) -> bool:
        return self.game is not None and (
            self.game.is_over or self.game.move_number >= self.owner.max_decisions)

    def returns(self) -> list[float]:
        n = self.owner.num_players()
        if not self.is_terminal():
            return [0.0] * n
        assert self.game is not None
        won = self.game.winners if self.game.is_over else list(range(n))
        return [1.0 / len(won) if s in won else 0.0 for s in range(n)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deals = self.owner.deals
        return [(d, 1.0 / deals) for d in range(deals)]

    def _legal_actions(self, player: int) -> list[int]:
        if self.game is None or self.is_terminal() or player != self.seat:
            return []
        return sorted(self.owner.ids.legal(self.game, player))

    def _apply_action(self, action: int) -> None:
        if self.game is None:
            if not 0 <= int(action) < self.owner.deals:
                raise BadArgument(f"deal {action} is outside 0..{self.owner.deals - 1}")
            self.game = self.owner.spec.Game.new(players=self.owner.num_players(),
                                                 seed=int(action))
            self.seat = next_decider(self.game, None)
            return
        assert self.seat is not None
        chosen = self.owner.ids.actions[int(action)] if 0 <= int(action) < self.owner.ids.size \
            else None
        why = "not an action id" if chosen is None else self.game.why_illegal(chosen, self.seat)
        if chosen is None or why is not None:
            raise BadArgument(f"action {action} ({chosen}) is not legal: {why}")
        self.game.play(dict(chosen), self.seat)
        self.seat = next_decider(self.game, self.seat)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return json.dumps(self.owner.ids.actions[action], sort_keys=True)

    def __str__(self) -> str:
        if self.game is None:
            return "before the deal"
        return json.dumps({"position": self.game.to_dict(), "seat": self.seat}, sort_keys=True,
                          separators=(",", ":"))

    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` sees (nothing but the game's name before the deal)."""
        if self.game is None:
            return {"game": self.owner.spec.name, "dealt": False}
        return self.game.view(player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> AnyState:
        """A state ``player_id`` cannot tell from this one: the game's own ``resample``."""
        if self.game is None:
            raise BadArgument("resample after the deal, not at the chance node before it")
        rng = random.Random(int(probability_sampler() * 2**53))
        twin = AnyState(self.owner)
        twin.game, twin.seat = self.game.resample(player_id, rng), self.seat
        return twin


class ViewObserver:
    """OpenSpiel's observer: a seat's view as canonical JSON and as the game's tensor (all
    zero before the deal). The observation string and the information state are the same
    view, with, for perfect recall, the seat's log too."""

    def __init__(self, encoder: Any, perfect_recall: bool) -> None:
        self.encoder = encoder
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: AnyState, player: int) -> None:
        if state.game is None:
            self.tensor[:] = 0.0
        else:
            self.tensor[:] = self.encoder.encode(state.game.view(player))

    def string_from(self, state: AnyState, player: int) -> str:
        seen: dict[str, Any] = {"view": state.view(player)}
        if self.perfect_recall and state.game is not None:
            seen["log"] = state.game.log(player)
        return json.dumps(seen, sort_keys=True, separators=(",", ":"))


def register(name: str) -> str:
    """Register the game ``name`` with OpenSpiel as ``python_<name>`` (once); its short name."""
    spec = games.get(name)
    if spec.name == "langfinger":
        raise BadArgument("Langfinger's OpenSpiel game is langfinger_widget.envs.openspiel")
    kind = game_type(spec)
    if kind.short_name not in pyspiel.registered_names():
        cls = type(f"{spec.name.capitalize()}Game", (AnyGame,), {"spec": spec})
        globals()[cls.__name__] = cls  # pickled by name, as OpenSpiel's serialisation does
        pyspiel.register_game(kind, cls)
    return str(kind.short_name)


REGISTERED = tuple(register(n) for n in games.names()
                   if n != "langfinger" and games.get(n).action_ids is not None
                   and games.get(n).observation is not None)

__all__ = ["REGISTERED", "ActionIds", "AnyGame", "AnyState", "ViewObserver", "register"]
