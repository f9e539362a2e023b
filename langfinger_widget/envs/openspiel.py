"""Langfinger as an OpenSpiel game: ``pyspiel.load_game("python_langfinger")``.

Importing this module registers the game (the ``openspiel`` extra:
``pip install langfinger-widget[openspiel]``)::

    import pyspiel
    import langfinger_widget.envs.openspiel  # registers python_langfinger
    game = pyspiel.load_game("python_langfinger", {"players": 4})

* Actions are the ids of :mod:`.actions` (6,617 of them); chance outcomes are
  single cards drawn (:mod:`.chance`: 5 tools, 30 loot, 14 fences), so chance
  is explicit: the deal and every draw of the game are chance nodes.
* The information state of a seat is its view (docs/view-format.md), the
  board as that seat may see it, plus the draws under way at a chance node.
  It is the same information ``lf.bots`` search from; see docs/envs.md for
  what that means for recall.
* ``resample_from_infostate`` samples with the ISMCTS bot's own
  :class:`~langfinger_widget.kernel.hidden.Determinizer`.
* Returns: a win (R10.2) is worth 1, shared by tied winners; the game is
  constant-sum (1). A game cut off after ``max_rounds`` rounds gives every
  seat 1/players.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from ..kernel import cards, rules
from ..kernel.errors import BadArgument
from ..kernel.hidden import Determinizer
from . import observation
from .actions import table
from .chance import Draws, Position, adopt, outcomes, plan_deal

DEFAULT_PLAYERS = 3
DEFAULT_MAX_ROUNDS = 100
# R1.1: every round each of the 3 tokens (R1.4) of every player is placed once and acts once.
DECISIONS_PER_ROUND_AND_PLAYER = 2 * cards.TOKENS_PER_PLAYER

GAME_TYPE = pyspiel.GameType(
    short_name="python_langfinger",
    long_name="Python Langfinger (Sticky Fingers)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=cards.MAX_PLAYERS,
    min_num_players=cards.MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={
        "players": DEFAULT_PLAYERS,
        "variant": "standard",
        "max_rounds": DEFAULT_MAX_ROUNDS,
        "scoundrels": "",
    },
)


def _info(players: int, max_rounds: int) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=table().size,
        max_chance_outcomes=len(outcomes()),
        num_players=players,
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=1.0,
        max_game_length=DECISIONS_PER_ROUND_AND_PLAYER * players * max_rounds,
    )


class LangfingerGame(pyspiel.Game):  # type: ignore[misc]
    """The game; parameters ``players`` (2-5), ``variant``, ``max_rounds``, ``scoundrels``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", DEFAULT_PLAYERS))
        max_rounds = int(params.get("max_rounds", DEFAULT_MAX_ROUNDS))
        variant = str(params.get("variant", "standard"))
        picked = [s for s in str(params.get("scoundrels", "")).split(",") if s]
        if max_rounds < 1:
            raise BadArgument(f"max_rounds must be at least 1, not {max_rounds}")
        # Deal once (rules.setup checks players, variant and scoundrels: R1.1, R11, R0.5);
        # every initial state relabels this deal's cards by chance.
        self.start = Position(*plan_deal(players, picked or None, variant), max_rounds)
        self.max_rounds = max_rounds
        self.encoder = observation.Encoder(players, max_rounds)  # shared by the observers
        for seat in range(players):
            # OpenSpiel makes a new initial state to size every tensor it is asked for:
            # encode that position once here, and every new state starts with the vectors.
            self.start.encoded(seat, self.encoder)
        super().__init__(GAME_TYPE, _info(players, max_rounds), params)

    def new_initial_state(self) -> LangfingerState:
        return LangfingerState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> ViewObserver:
        if params:
            raise BadArgument(f"observation parameters are not supported, got {params}")
        perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        return ViewObserver(self.encoder, perfect_recall)


class LangfingerState(pyspiel.State):  # type: ignore[misc]
    """A position with explicit chance (:class:`~.chance.Position`)."""

    def __init__(self, game: LangfingerGame) -> None:
        super().__init__(game)
        # Shared with the game until the first move: OpenSpiel makes many initial states
        # (to size tensors, to clone) that never move.
        self.position = game.start

    # --- turns ------------------------------------------------------------------------------
    def current_player(self) -> int:
        who = self.position.current()
        if who == "chance":
            return int(pyspiel.PlayerId.CHANCE)
        if who is None:
            return int(pyspiel.PlayerId.TERMINAL)
        assert isinstance(who, int)
        return who

    def is_terminal(self) -> bool:
        return self.position.is_over()

    def returns(self) -> list[float]:
        return self.position.returns() if self.position.is_over() else \
            [0.0] * self.position.state.num_players

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return list(table().legal(self.position.state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.position.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self.position is self.get_game().start:
            self.position = self.position.copy()
        if self.position.pending is not None:
            self.position.apply_outcome(int(action))
            return
        legal = table().legal(self.position.state)
        if int(action) not in legal:
            raise BadArgument(f"action {action} ({table().describe(int(action))}) is not legal")
        self.position.apply_key(legal[int(action)])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            pile, card = outcomes()[action]
            return f"draw {card}" if pile != "fences" else f"draw fence {card}"
        return table().describe(action)

    def __str__(self) -> str:
        return describe(self.position)

    # --- sampling ---------------------------------------------------------------------------
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> LangfingerState:
        """A state ``player_id`` cannot tell from this one, sampled like the ISMCTS bot does."""
        if self.position.pending is not None:
            raise BadArgument("resample at a decision node, not while cards are being drawn")
        rng = random.Random(int(probability_sampler() * 2**53))
        sample = Determinizer(self.position.view(player_id)).sample(rng)
        twin = LangfingerState(self.get_game())
        twin.position = self.position.with_state(adopt(sample))
        return twin


def describe(position: Position) -> str:
    """The whole position as one line (draw piles as sorted multisets) and the draws pending."""
    data = position.state.to_dict()
    for key in ("seed", "shuffles"):  # chance is explicit: the kernel's seed plays no part
        del data[key]
    for pile in data["piles"].values():
        pile["draw"] = sorted(pile["draw"])
    return json.dumps({"position": data, "pending": _pending(position.pending)},
                      sort_keys=True, separators=(",", ":"))


def _pending(draws: Draws | None) -> Any:
    """The draws under way as every seat knows them: the action (public) and how far along.

    Which cards were drawn is told to no one until the action is played out.
    """
    if draws is None:
        return None
    action = None if draws.key is None else rules.key_action(draws.key)
    return {"action": action, "drawn": len(draws.chosen), "of": len(draws.plan)}


class ViewObserver:
    """OpenSpiel's observer: one seat's view as a string and as a tensor.

    The tensor is :func:`.observation.encode` of the view plus one number, 1
    while cards are being drawn (a chance node). The information state and the
    observation are the same view; the string form of the information state
    is the view as canonical JSON, the observation string a text board.
    """

    def __init__(self, encoder: observation.Encoder, perfect_recall: bool) -> None:
        self.encoder = encoder
        self.perfect_recall = perfect_recall
        size = self.encoder.size
        self.tensor = np.zeros(size + 1, np.float32)
        self.dict = {"view": self.tensor[:size], "drawing": self.tensor[size:]}

    def set_from(self, state: LangfingerState, player: int) -> None:
        self.dict["view"][:] = state.position.encoded(player, self.encoder)
        self.dict["drawing"][0] = float(state.position.pending is not None)

    def string_from(self, state: LangfingerState, player: int) -> str:
        view = state.position.view(player)
        pending = _pending(state.position.pending)
        if self.perfect_recall:
            return json.dumps({"view": view, "pending": pending}, sort_keys=True,
                              separators=(",", ":"))
        from ..kernel import render

        text = render.text(view)
        return text if pending is None else f"{text}\ndrawing: {json.dumps(pending)}"


pyspiel.register_game(GAME_TYPE, LangfingerGame)
