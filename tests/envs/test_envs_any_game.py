"""The environments of every registered game (issue 37): PettingZoo's and OpenSpiel's own
checks on Crooks, fixed ids with a legal-action mask, observations that hide what a seat may
not see (checked by resampling), and a sealed step cycled through (Sealed Bids, a test game).

Skipped without the ``rl``/``openspiel`` extras; the ``test`` extra installs them.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")
from pettingzoo.test import api_test, seed_test  # noqa: E402

import langfinger_widget as lf  # noqa: E402
from langfinger_widget import games  # noqa: E402
from langfinger_widget.envs import any_game  # noqa: E402
from langfinger_widget.envs.aec import LangfingerEnv  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "crooks"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "goods"))
from crooks_helpers import walk  # noqa: E402
from goods_helpers import walk as goods_walk  # noqa: E402
from sealed import SPEC as SEALED  # noqa: E402

DICT_OBS_WARNINGS = ("Observation is not a NumPy array",
                     "Observation space for each agent probably should be")


def _crooks(players: int, seed: int = 1, game: str = "crooks") -> Any:
    env = lf.envs.env(game=game, players=players, seed=seed)
    env.reset(seed=seed)
    return env


@pytest.mark.parametrize("game,players", [("crooks", 2), ("crooks", 3), ("crooks", 4),
                                          ("goods", 2), ("goods", 4)])
def test_pettingzoo_s_api_test_and_seed_test_pass(game: str, players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(lf.envs.env(game=game, players=players, seed=players), num_cycles=300)
        seed_test(lambda: lf.envs.env(game=game, players=players), num_cycles=300)
    others = {str(w.message) for w in caught if not str(w.message).startswith(DICT_OBS_WARNINGS)}
    assert not others, others


def test_langfinger_keeps_its_own_environment_and_ids() -> None:
    env = lf.envs.env(game="langfinger", players=3, seed=1)
    assert isinstance(env.unwrapped, LangfingerEnv)
    assert env.unwrapped.action_space("player_0").n == lf.envs.table().size


@pytest.mark.parametrize("name,players", [("crooks", 2), ("crooks", 4), ("goods", 3)])
def test_ids_are_fixed_and_the_mask_is_exactly_the_legal_actions(name: str, players: int
                                                                  ) -> None:
    env = _crooks(players, seed=5, game=name)
    spec = games.get(name)
    ids = spec.action_ids
    assert ids is not None
    table = ids(env.unwrapped.game)
    # The ids do not depend on the deal: another seed numbers the actions the same way.
    assert table == tuple(ids(spec.Game.new(players=players, seed=99)))
    rng = random.Random(players)
    for agent in env.agent_iter(max_iter=400):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        game = env.unwrapped.game
        seat = int(agent.split("_")[1])
        assert seat in game.to_decide
        legal = {json.dumps(a, sort_keys=True) for a in game.legal_actions(seat)}
        masked = {json.dumps(table[i], sort_keys=True) for i in np.flatnonzero(obs["action_mask"])}
        assert masked == legal
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("name,ruling", [("crooks", "C"), ("goods", "G")])
def test_an_illegal_id_is_refused_naming_the_ruling_and_changes_nothing(name: str,
                                                                         ruling: str) -> None:
    env = _crooks(3, game=name)
    game = env.unwrapped.game
    before = json.dumps(game.to_dict())
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[-1])
    with pytest.raises(lf.IllegalAction, match=rf"{ruling}\d"):
        env.step(illegal)
    with pytest.raises(lf.IllegalAction, match="outside"):
        env.step(10_000)
    with pytest.raises(lf.IllegalAction, match="whole number"):
        env.step("pass")
    assert json.dumps(game.to_dict()) == before


def test_the_end_pays_the_winners() -> None:
    env = _crooks(3, seed=11)
    rng = random.Random(3)
    rewards: dict[str, float] = {}
    final: dict[str, Any] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            rewards[agent], final = reward, info
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    best = max(final["scores"])
    assert final["winners"] == [s for s, x in enumerate(final["scores"]) if x == best]
    for seat in range(3):
        won = seat in final["winners"]
        assert rewards[f"player_{seat}"] == pytest.approx(1 / len(final["winners"]) if won else 0)


def _positions(players: int, games_: int, seed: int) -> Iterator[Any]:
    for n in range(games_):
        yield from walk(players, seed + n)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observations_hide_what_the_seat_may_not_see_by_resampling(players: int) -> None:
    """A twin re-dealt from a seat's view gives that seat the same observation; the twins do
    differ (so hidden crooks were in play) and other seats' observations tell them apart."""
    spec = games.get("crooks")
    assert spec.observation is not None
    encoder = spec.observation(players)
    rng = random.Random(players)
    redealt = told_apart = 0
    for game in _positions(players, 4, seed=players * 10):
        for seat in range(players):
            twin = game.resample(seat, random.Random(rng.getrandbits(32)))
            mine = encoder.encode(game.view(seat))
            assert encoder.encode(twin.view(seat)) == mine
            if json.dumps(twin.to_dict()) != json.dumps(game.to_dict()):
                redealt += 1
                told_apart += any(encoder.encode(twin.view(o)) != encoder.encode(game.view(o))
                                  for o in range(players) if o != seat)
    assert redealt > 20 and told_apart > 10, (redealt, told_apart)


@pytest.mark.parametrize("players", [2, 3])
def test_goods_observations_hide_hands_and_sealed_plans_by_resampling(players: int) -> None:
    """An Oh My Goods! twin re-dealt from a seat's view (other hands, the pile, and the other
    seats' sealed choices made afresh, G6.1) gives that seat the same observation; other
    seats' observations tell the twins apart."""
    encoder = lf.goods.SPEC.observation(players)  # type: ignore[misc]
    rng = random.Random(players)
    redealt = told_apart = sealed_seen = 0
    picks = random.Random(players)
    for n in range(3):
        for game, _, _ in goods_walk(players, players * 10 + n):
            if picks.random() >= 0.2:
                continue
            deciding = game.phase in ("hand", "plan") and 0 < sum(
                game.view(None)["sealed"] or []) < players
            for seat in range(players):
                twin = game.resample(seat, random.Random(rng.getrandbits(32)))
                mine = encoder.encode(game.view(seat))
                assert encoder.encode(twin.view(seat)) == mine
                if json.dumps(twin.to_dict()) != json.dumps(game.to_dict()):
                    redealt += 1
                    sealed_seen += deciding
                    told_apart += any(
                        encoder.encode(twin.view(o)) != encoder.encode(game.view(o))
                        for o in range(players) if o != seat)
    assert redealt > 20 and told_apart > 10 and sealed_seen > 3, \
        (redealt, told_apart, sealed_seen)


def test_an_observation_refuses_the_open_board_and_another_count() -> None:
    encoder = games.get("crooks").observation(3)  # type: ignore[misc]
    game = lf.crooks.Game.new(players=3, seed=1)
    with pytest.raises(lf.BadArgument, match="open board"):
        encoder.encode(game.view(None))
    with pytest.raises(lf.BadArgument, match="3 players"):
        encoder.encode(lf.crooks.Game.new(players=2, seed=1).view(0))


def test_a_game_without_hooks_has_no_environment() -> None:
    games.register(SEALED)
    with pytest.raises(lf.BadArgument, match="no environment"):
        lf.envs.env(game="sealed", players=2)
    with pytest.raises(lf.BadArgument, match=r"C1\.1"):
        lf.envs.env(game="crooks", players=5)


# --- a sealed step: Sealed Bids with environment hooks ------------------------------------------

class _SealedObservation:
    def __init__(self, players: int) -> None:
        self.players = players
        self.size = 12 + 4 * players + 1

    def encode(self, view: dict[str, Any]) -> list[float]:
        out = [0.0] * self.size
        for card in view["hand"]:
            out[card - 1] = 1.0
        n, seat = self.players, view["seat"]
        for s in range(n):
            r = 12 + 4 * ((s - seat) % n)
            out[r:r + 4] = [float(view["bid"][s]), float(view["hand_sizes"][s]),
                            float(view["rounds"][s]), float(view["cards"][s])]
        out[-1] = float(view["deck"])
        return out


@pytest.fixture
def sealed_with_env() -> Iterator[None]:
    games.register(dataclasses.replace(
        SEALED, action_ids=lambda game: [{"type": "bid", "card": c} for c in range(1, 13)],
        observation=_SealedObservation))
    yield
    games.register(SEALED)


@pytest.mark.usefixtures("sealed_with_env")
def test_a_sealed_step_passes_the_api_test_and_cycles_through_its_seats() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(lf.envs.env(game="sealed", players=3, seed=2), num_cycles=200)
    env = lf.envs.env(game="sealed", players=3, seed=4)
    env.reset(seed=4)
    game = env.unwrapped.game
    rng = random.Random(1)
    order = []
    while len(game.to_decide) == 3 or order:
        deciding = list(game.to_decide)
        if not deciding:
            break
        agent = env.agent_selection
        seat = int(agent.split("_")[1])
        assert seat in deciding
        order.append(seat)
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        if len(order) == 3:
            break
    # Each seat of the sealed round is selected once, in seat order from the first.
    assert sorted(order) == [0, 1, 2] and order == sorted(order)


def test_next_decider_goes_round_the_table_from_the_last_mover() -> None:
    class Deciding:
        num_players = 4
        to_decide = [0, 1, 3]

    assert any_game.next_decider(Deciding(), None) == 0  # type: ignore[arg-type]
    assert any_game.next_decider(Deciding(), 1) == 3  # type: ignore[arg-type]
    assert any_game.next_decider(Deciding(), 3) == 0  # type: ignore[arg-type]


# --- OpenSpiel --------------------------------------------------------------------------------

def _pyspiel() -> Any:
    pyspiel = pytest.importorskip("pyspiel")
    import langfinger_widget.envs.openspiel_any  # noqa: F401  (registers python_crooks)

    return pyspiel


@pytest.mark.parametrize("name,players", [("crooks", 2), ("crooks", 3), ("crooks", 4),
                                          pytest.param("goods", 2, marks=pytest.mark.slow)])
def test_openspiel_random_sim_test_passes(name: str, players: int) -> None:
    pyspiel = _pyspiel()
    game = pyspiel.load_game(f"python_{name}", {"players": players})
    # A goods game is hundreds of decisions: serializing replays it at every one of them,
    # so its round trip is checked once, below (the sim still takes ~2 min here: slow).
    crooks = name == "crooks"
    pyspiel.random_sim_test(game, num_sims=3 if crooks else 1, serialize=crooks, verbose=False)
    if not crooks:
        state = game.new_initial_state()
        rng = random.Random(players)
        for _ in range(120):
            state.apply_action(rng.choice(state.legal_actions()))
        again = game.deserialize_state(state.serialize())
        assert str(again) == str(state) and again.legal_actions() == state.legal_actions()
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    spec = games.get(name)
    assert game.num_distinct_actions() == len(
        spec.action_ids(spec.Game.new(players=players, seed=0)))  # type: ignore[misc]


@pytest.mark.parametrize("players", [2, 4])
def test_openspiel_resampling_keeps_the_information_state(players: int) -> None:
    pyspiel = _pyspiel()
    game = pyspiel.load_game("python_crooks", {"players": players, "deals": 50})
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = random.Random(players)
    state = game.new_initial_state()
    state.apply_action(7)  # the deal
    differ = 0
    while not state.is_terminal():
        me = state.current_player()
        for seat in range(players):
            twin = state.resample_from_infostate(seat, sampler)
            assert twin.information_state_string(seat) == state.information_state_string(seat)
            assert twin.information_state_tensor(seat) == state.information_state_tensor(seat)
            differ += twin.information_state_string((seat + 1) % players) != \
                state.information_state_string((seat + 1) % players)
        state.apply_action(rng.choice(state.legal_actions(me)))
    assert differ > 0
    assert sum(state.returns()) == pytest.approx(1.0)


def test_openspiel_refuses_an_illegal_action() -> None:
    pyspiel = _pyspiel()
    state = pyspiel.load_game("python_crooks", {"players": 2}).new_initial_state()
    state.apply_action(0)
    legal = set(state.legal_actions())
    illegal = next(a for a in range(100) if a not in legal)
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(illegal)


@pytest.mark.usefixtures("sealed_with_env")
def test_openspiel_plays_a_sealed_step_seat_after_seat() -> None:
    pyspiel = _pyspiel()
    from langfinger_widget.envs.openspiel_any import register

    game = pyspiel.load_game(register("sealed"), {"players": 3, "deals": 20})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(4)
    movers = []
    while len(movers) < 3:
        movers.append(state.current_player())
        state.apply_action(state.legal_actions()[0])
    assert movers == [0, 1, 2]  # the sealed round, seat after seat
