"""The PettingZoo environment (issue 15): PettingZoo's own checks, rewards, errors, leaks.

Skipped without the ``rl`` extra; the ``test`` extra installs it, so CI runs it.
"""

from __future__ import annotations

import doctest
import random
import re
import warnings
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")
from pettingzoo.test import api_test, seed_test  # noqa: E402

import langfinger_widget as lf  # noqa: E402
from langfinger_widget.bots import Determinizer  # noqa: E402
from langfinger_widget.envs import aec  # noqa: E402
from langfinger_widget.envs.actions import table  # noqa: E402

# PettingZoo's api_test warns about dict observations for any environment not on its own
# list of classic games (whose convention, {"observation", "action_mask"}, we follow).
DICT_OBS_WARNINGS = ("Observation is not a NumPy array",
                     "Observation space for each agent probably should be")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_pettingzoo_api_test_and_seed_test_pass(players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(lf.envs.pettingzoo_env(players=players, seed=players), num_cycles=300)
        seed_test(lambda: lf.envs.pettingzoo_env(players=players), num_cycles=300)
    others = {str(w.message) for w in caught
              if not str(w.message).startswith(DICT_OBS_WARNINGS)}
    assert not others, others


@pytest.mark.parametrize("players", [2, 5])
def test_the_end_pays_the_winners_and_reports_the_money(players: int) -> None:
    env = lf.envs.pettingzoo_env(players=players)
    rng = random.Random(players)
    rewards: dict[str, float] = {}
    env.reset(seed=3)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            rewards[agent] = reward
            final = info
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert len(final["money"]) == players
    best = max(final["money"])
    assert final["winners"] == [s for s, m in enumerate(final["money"]) if m == best]
    assert best >= lf.cards.WINNING_MONEY  # R10.1
    for seat in range(players):
        won = seat in final["winners"]
        assert rewards[f"player_{seat}"] == pytest.approx(1 / len(final["winners"]) if won else 0)


def test_only_the_agent_to_act_has_legal_ids() -> None:
    env = lf.envs.pettingzoo_env(players=3)
    env.reset(seed=9)
    rng = random.Random(9)
    for _ in range(60):
        actor = env.agent_selection
        game = env.unwrapped.game
        assert actor == f"player_{game.to_move}"
        for agent in env.agents:
            mask = env.observe(agent)["action_mask"]
            if agent == actor:
                assert set(np.flatnonzero(mask)) == set(table().legal(game.state))
            else:
                assert not mask.any()
        env.step(int(rng.choice(np.flatnonzero(env.observe(actor)["action_mask"]))))


def test_an_illegal_id_is_refused_naming_the_rule_and_changes_nothing() -> None:
    env = lf.envs.pettingzoo_env(players=3)
    env.reset(seed=1)
    before = env.unwrapped.game.to_dict()
    with pytest.raises(lf.IllegalAction, match=r"R2\.1"):
        env.step(table().id_of(("pass",)))  # tokens are being placed: no passing
    with pytest.raises(lf.IllegalAction, match="outside"):
        env.step(table().size)
    with pytest.raises(lf.IllegalAction, match="whole number"):
        env.step("3")
    assert env.unwrapped.game.to_dict() == before
    assert env.agent_selection == "player_0"


def test_the_same_seed_deals_the_same_game_and_resets_continue_the_sequence() -> None:
    a, b = lf.envs.pettingzoo_env(players=4, seed=5), lf.envs.pettingzoo_env(players=4, seed=5)
    a.reset()
    b.reset()
    assert a.unwrapped.game.to_dict() == b.unwrapped.game.to_dict()
    first = a.unwrapped.game.to_dict()
    a.reset()
    assert a.unwrapped.game.to_dict() != first
    a.reset(seed=77)
    b.reset(seed=77)
    assert a.unwrapped.game.to_dict() == b.unwrapped.game.to_dict()


def test_a_game_past_max_rounds_is_truncated_without_reward() -> None:
    env = lf.envs.pettingzoo_env(players=2, max_rounds=1)
    env.reset(seed=2)
    pass_id = table().id_of(("pass",))
    for _ in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(pass_id if pass_id in legal else int(legal[0]))
    assert env.unwrapped.game.round == 2


def test_observations_hold_nothing_the_seat_cannot_see() -> None:
    """Leak test: every hidden card resampled gives the same observation for that seat."""
    env = lf.envs.pettingzoo_env(players=4)
    env.reset(seed=12)
    rng = random.Random(12)
    for _ in range(120):
        game = env.unwrapped.game
        for seat, agent in enumerate(env.agents):
            obs = env.observe(agent)["observation"]
            sample = Determinizer(game.view(seat)).sample(rng)
            env.unwrapped.game = lf.Game(sample)  # the same view, other hidden cards
            assert np.array_equal(env.observe(agent)["observation"], obs)
            env.unwrapped.game = game
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))


def test_render_shows_the_acting_seat_s_view() -> None:
    env = lf.envs.pettingzoo_env(players=2, render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert isinstance(text, str) and "City" in text
    with pytest.raises(ValueError, match="render_mode"):
        lf.envs.pettingzoo_env(render_mode="human")


def test_bad_setup_is_refused_naming_the_rule() -> None:
    with pytest.raises(ValueError, match=r"R1\.1"):
        lf.envs.pettingzoo_env(players=6)
    with pytest.raises(ValueError, match="R11"):
        lf.envs.pettingzoo_env(variant="cheat")


def test_the_module_example_runs() -> None:
    failures, tests = doctest.testmod(aec)
    assert tests and not failures


def test_the_docs_examples_run() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "envs.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 3
    exec(compile(blocks[0], "docs/envs.md", "exec"), {})
    pytest.importorskip("pyspiel")  # the second example is OpenSpiel's, the third both
    exec(compile(blocks[1], "docs/envs.md", "exec"), {})
    exec(compile(blocks[2], "docs/envs.md", "exec"), {})  # any other game (Crooks)
