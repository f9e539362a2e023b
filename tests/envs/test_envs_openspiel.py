"""The OpenSpiel game (issue 15): OpenSpiel's own checks, chance, resampling, leaks, bots.

Skipped without the ``openspiel`` extra; the ``test`` extra installs it, so CI
runs it. OpenSpiel's ``random_sim_test`` checks every state of a game from C++
(clones, serialization, strings, tensors, returns), which costs seconds a game
here: CI plays one game per player count (hundreds of decisions and chance
nodes each), the ``slow`` version twenty-five; tests/envs/test_envs.py plays more
games with explicit chance in plain Python.
"""

from __future__ import annotations

import json
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import langfinger_widget as lf  # noqa: E402
from langfinger_widget.bots import Determinizer  # noqa: E402
from langfinger_widget.envs import chance  # noqa: E402
from langfinger_widget.envs import openspiel as lf_openspiel  # noqa: E402
from langfinger_widget.envs.actions import table  # noqa: E402
from langfinger_widget.kernel import cards, views  # noqa: E402

SAMPLER = pyspiel.UniformProbabilitySampler(0.0, 1.0)


def _load(players: int, **params: object) -> pyspiel.Game:
    return pyspiel.load_game("python_langfinger", {"players": players, **params})


def _decision_states(game: pyspiel.Game, seed: int, every: int = 1):  # type: ignore[no-untyped-def]
    """Every ``every``-th decision state of a random game (chance by its probabilities)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    count = 0
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(ids, probs)[0])
            continue
        if count % every == 0:
            yield state
        count += 1
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_openspiel_random_sim_test_passes(players: int) -> None:
    pyspiel.random_sim_test(_load(players), num_sims=1, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_openspiel_random_sim_test_passes_many_games(players: int) -> None:
    pyspiel.random_sim_test(_load(players), num_sims=25, serialize=True, verbose=False)
    pyspiel.random_sim_test(_load(players, variant="open_info"), num_sims=5, serialize=False,
                            verbose=False)


def test_game_type_and_sizes() -> None:
    game = _load(3)
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert game.num_distinct_actions() == table().size == 6617
    assert game.max_chance_outcomes() == len(chance.outcomes()) == 49
    size = 286 + 113 * 3 + 1  # docs/envs.md: the vector and the "drawing" flag
    assert game.information_state_tensor_size() == game.observation_tensor_size() == size
    assert game.max_game_length() == 6 * 3 * 100
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)


def test_bad_parameters_are_refused_naming_the_rule() -> None:
    with pytest.raises(Exception, match=r"R1\.1"):
        _load(6)
    with pytest.raises(Exception, match=r"R0\.5"):
        _load(2, scoundrels="hans,hans")
    with pytest.raises(Exception, match="R11"):
        _load(2, variant="peek")


def test_the_deal_is_chance_and_a_played_game_pays_the_winners() -> None:
    game = _load(2)
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(i, pytest.approx(0.2)) for i in range(5)]  # R0.1
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 7) == "draw L03"
    last = list(_decision_states(game, seed=3))[-1]  # the one state, played to the end
    assert last.is_terminal()
    money = [p.money for p in last.position.state.players]
    won = [s for s, m in enumerate(money) if m == max(money)]
    assert last.returns() == [pytest.approx(1 / len(won)) if s in won else 0 for s in range(2)]
    assert max(money) >= cards.WINNING_MONEY


def test_a_cut_off_game_is_shared() -> None:
    game = _load(3, max_rounds=1)
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.position.truncated()
    assert state.returns() == [pytest.approx(1 / 3)] * 3


def test_an_illegal_action_is_refused() -> None:
    state = next(_decision_states(_load(2), seed=1))
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(table().id_of(("pass",)))  # R2.1: tokens are being placed


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_resample_from_infostate_keeps_the_information_state(players: int) -> None:
    """OpenSpiel's ResampleInfostateTest, in Python: same strings, tensors and player."""
    game = _load(players)
    moved = 0
    for state in _decision_states(game, seed=players, every=7):
        for p in range(players):
            other = state.resample_from_infostate(p, SAMPLER)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert other.observation_tensor(p) == state.observation_tensor(p)
            assert other.current_player() == state.current_player()
            assert other.legal_actions() == state.legal_actions() or p != state.current_player()
            moved += str(other) != str(state)
    assert moved > 10, "the samples never differ from the real game: a weak test"


def test_nothing_hidden_reaches_strings_or_tensors() -> None:
    """Leak test: change everything seat p cannot see; p's strings and tensors stay equal."""
    game = _load(4)
    rng = random.Random(4)
    differ = 0
    for state in _decision_states(game, seed=8, every=5):
        for p in range(4):
            view = views.view(state.position.state, p)
            twin = state.clone()
            twin.position = state.position.with_state(chance.adopt(
                Determinizer(view).sample(rng)))
            differ += str(twin) != str(state)  # other hands, loot fronts, pile order
            for method in ("information_state_string", "information_state_tensor",
                           "observation_string", "observation_tensor"):
                assert getattr(twin, method)(p) == getattr(state, method)(p), method
    assert differ > 20, "the hidden part hardly changed: a weak test"


def test_the_information_state_shows_the_own_hand_and_not_others() -> None:
    state = next(_decision_states(_load(3), seed=2))
    hands = [p.hand for p in state.position.state.players]
    shown = json.loads(state.information_state_string(0))["view"]["players"]
    assert {t: n for t, n in hands[0].items() if n} == shown[0]["hand"]
    assert shown[1]["hand"] is None and shown[2]["hand"] is None


def test_openspiel_s_own_ismcts_plays_from_a_view_in_the_arena() -> None:
    from langfinger_widget.envs.openspiel_bots import OpenSpielBot
    from langfinger_widget.study.arena import parse_bots

    g = lf.Game.new(players=2, seed=5)
    bot = OpenSpielBot("openspiel-ismcts", seed=1, iterations=3)
    action = bot.choose(g.view(g.to_move), g.legal_actions())
    assert action in g.legal_actions()
    with pytest.raises(TypeError):
        bot.choose(g, g.legal_actions())  # a bot gets a view, never the game
    mcts = parse_bots("greedy,openspiel-mcts:iterations=2")[1].make(seed=2)
    assert isinstance(mcts, OpenSpielBot)
    for _ in range(4):
        g.play(mcts.choose(g.view(g.to_move), g.legal_actions()))


@pytest.mark.slow
def test_an_arena_game_against_openspiel_s_mcts_plays_to_the_end() -> None:
    from langfinger_widget.study.arena import parse_bots, play_game

    result = play_game(parse_bots("greedy,openspiel-mcts:iterations=2"), master_seed=3, index=0)
    assert result.bots == ["greedy", "openspiel-mcts(iterations=2)"]
    assert max(result.money) >= cards.WINNING_MONEY


def test_the_module_registers_once_and_loads_by_name() -> None:
    assert "python_langfinger" in pyspiel.registered_names()
    assert isinstance(_load(2), lf_openspiel.LangfingerGame)
