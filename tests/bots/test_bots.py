"""Bots: determinization, legality, determinism, and fairness (issue 5).

Fairness is the point of the bot layer: a bot sees ``view(seat)`` and the legal
actions, nothing else. The strongest test of it is to change what the seat
cannot see (opponents' hands, draw-pile order, the fronts of loot with equal
backs, the seed), check that the view is unchanged, and check that each bot
still chooses the same action.
"""

from __future__ import annotations

import copy
import math
import random
from collections import Counter
from typing import Any

import pytest
from rules_kit import busy_game, swapped_twin

import langfinger_widget as lf
from langfinger_widget import bots
from langfinger_widget.bots import Determinizer, GreedyBot, ISMCTSBot, RandomBot, ismcts
from langfinger_widget.kernel import cards, load, views

BOT_NAMES = ("random", "greedy", "ismcts")
FAIR_BUDGET = {"iterations": 40}


def _positions() -> list[lf.Game]:
    found = []
    for i in range(14):
        g = busy_game(2 + i % 4, seed=100 + i, moves=7 * i,
                      variant=("standard", "open_info")[i % 2])
        if not g.is_over:
            found.append(g)
    return found


# --- determinization -------------------------------------------------------------------


@pytest.mark.parametrize("game", _positions(), ids=lambda g: repr(g))
def test_determinization_is_a_possible_position_with_the_same_view(game: lf.Game) -> None:
    rng = random.Random(7)
    for seat in range(game.num_players):
        view = game.view(seat)
        sampler = Determinizer(view)
        for _ in range(5):
            sample = sampler.sample(rng)
            load.check(sample)
            assert views.view(sample, seat) == view


def test_determinization_resamples_what_is_hidden() -> None:
    g = busy_game(3, seed=5, moves=20)
    sampler = Determinizer(g.view(0))
    rng = random.Random(1)
    samples = [sampler.sample(rng) for _ in range(30)]
    hands = {tuple(sorted(s.players[1].hand.items())) for s in samples}
    piles = {tuple(s.piles["tools"].draw) for s in samples}
    assert len(hands) > 1 and len(piles) > 1
    assert all(s.players[0].hand == g.state.players[0].hand for s in samples)


def test_determinization_respects_open_info_known_tools() -> None:
    g = busy_game(3, seed=8, moves=40, variant="open_info")
    view = g.view(0)
    knowns = [p["known"] for p in view["players"]]
    assert any(knowns[1:]), "the position should show some known opponent tools"
    rng = random.Random(3)
    for _ in range(10):
        sample = Determinizer(view).sample(rng)
        for seat, known in enumerate(knowns):
            assert not Counter(known) - Counter(sample.players[seat].hand)


def test_determinization_refuses_the_open_board_and_inconsistent_views() -> None:
    g = busy_game(2, seed=3, moves=10)
    with pytest.raises(ValueError, match="seat"):
        Determinizer(g.view(None))
    bad = copy.deepcopy(g.view(0))
    bad["piles"]["tools"]["draw"] += 1
    with pytest.raises(ValueError, match="unseen tools"):
        Determinizer(bad)
    bad = copy.deepcopy(g.view(0))
    bad["piles"]["loot"]["draw"] -= 1
    with pytest.raises(ValueError, match="loot draw pile"):
        Determinizer(bad)


# --- the Bot protocol and make() -----------------------------------------------------------


def test_make_builds_each_bot_by_name() -> None:
    assert isinstance(bots.make("random", seed=1), RandomBot)
    assert isinstance(bots.make("greedy", seed=1), GreedyBot)
    ismcts = bots.make("ismcts", seed=1, iterations=10)
    assert isinstance(ismcts, ISMCTSBot) and ismcts.iterations == 10
    for name in BOT_NAMES:
        assert isinstance(bots.make(name), bots.Bot)
    with pytest.raises(ValueError, match="unknown bot"):
        bots.make("clairvoyant")
    with pytest.raises(ValueError, match="no budget"):
        bots.make("greedy", iterations=5)
    with pytest.raises(ValueError):
        bots.make("ismcts", iterations=0)


@pytest.mark.parametrize(("name", "budget", "what"), [
    ("ismcts", {"time": math.nan}, "time"), ("ismcts", {"time": math.inf}, "time"),
    ("ismcts", {"time": -0.5}, "time"), ("ismcts", {"time": "1"}, "time"),
    ("ismcts", {"time": True}, "time"), ("ismcts", {"iterations": math.nan}, "iterations"),
    ("ismcts", {"iterations": math.inf}, "iterations"), ("ismcts", {"iterations": 0}, "iterations"),
    ("ismcts", {"iterations": 2.5}, "iterations"), ("ismcts", {"iterations": [10]}, "iterations"),
    ("ismcts", {"iterations": {2: math.nan}}, "iterations for 2"),
    ("ismcts", {"iterations": {9: 100}}, "player count"),
    ("ismcts", {"c": math.nan}, "exploration"), ("ismcts", {"rounds_ahead": -1}, "rounds_ahead"),
    ("ismcts", {"temperature": math.nan}, "temperature"), ("ismcts", {"seed": "x"}, "seed"),
    ("greedy", {"blunders": math.nan}, "blunders"), ("greedy", {"blunders": "often"}, "blunders"),
    ("random", {"seed": 1.5}, "seed"), (["ismcts"], {}, "named by a level"),
    ("hard", {"iterations": 10}, "own budget"),
])
def test_a_budget_that_is_not_a_finite_positive_number_is_refused(
        name: Any, budget: dict[str, Any], what: str) -> None:
    """A NaN or infinite budget made ISMCTS search for ever (issue 29): every budget is
    checked where the bot is made, with the package's own bad-argument error."""
    with pytest.raises(lf.BadArgument, match=what) as caught:
        bots.make(name, **budget)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bots_accept_only_a_view_and_legal_actions(name: str) -> None:
    g = lf.Game.new(players=3, seed=2)
    bot = bots.make(name, seed=0, **(FAIR_BUDGET if name == "ismcts" else {}))
    legal = g.legal_actions()
    with pytest.raises(TypeError, match="view"):
        bot.choose(g, legal)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="view"):
        bot.choose(g.to_dict(), legal)
    with pytest.raises(TypeError, match="seat"):
        bot.choose(g.view(None), legal)
    with pytest.raises(TypeError, match="legal"):
        bot.choose(g.view(0), [])


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_cheap_bots_play_whole_games_legally(name: str) -> None:
    for seed in range(4):
        g = lf.Game.new(players=2 + seed, seed=seed)
        players = [bots.make(name, seed=s) for s in range(g.num_players)]
        while not g.is_over:
            seat = g.to_move
            assert seat is not None
            legal = g.legal_actions()
            action = players[seat].choose(g.view(seat), legal)
            assert action in legal
            g.play(action)
        assert g.winners


def test_ismcts_plays_legal_moves_from_many_positions() -> None:
    bot = ISMCTSBot(seed=4, iterations=25)
    for g in _positions()[:8]:
        seat = g.to_move
        legal = g.legal_actions()
        action, value = bot.evaluate(g.view(seat), legal)
        assert action in legal
        assert 0.0 <= value <= 1.0
        assert bot.last_iterations == 25


def test_ismcts_is_deterministic_for_a_fixed_iteration_budget() -> None:
    g = busy_game(3, seed=11, moves=12)
    view, legal = g.view(g.to_move), g.legal_actions()
    first = [ISMCTSBot(seed=9, iterations=80).evaluate(view, legal) for _ in range(2)]
    assert first[0] == first[1]


def test_ismcts_searches_only_for_the_seat_to_move() -> None:
    g = busy_game(3, seed=13, moves=4)
    other = (g.to_move + 1) % 3
    with pytest.raises(ValueError, match="not to move"):
        ISMCTSBot(seed=1, iterations=5).evaluate(g.view(other), g.legal_actions())


def test_ismcts_time_budget_stops() -> None:
    g = busy_game(2, seed=12, moves=5)
    bot = ISMCTSBot(seed=1, time=0.05)
    assert bot.choose(g.view(g.to_move), g.legal_actions()) in g.legal_actions()
    assert bot.last_iterations >= 1


def _first_position(game: lf.Game, wanted: Any) -> lf.Game:
    """Play greedy self-play until ``wanted(game)`` holds for a decision."""
    players = [GreedyBot(seed=s) for s in range(game.num_players)]
    while not game.is_over:
        if wanted(game):
            return game
        seat = game.to_move
        assert seat is not None
        game.play(players[seat].choose(game.view(seat), game.legal_actions()))
    raise AssertionError("no such position in this game")


def _can_sell(g: lf.Game) -> bool:
    return any(a["type"] == "sell" for a in g.legal_actions())


@pytest.mark.parametrize("name", ["greedy", "ismcts"])
def test_good_bots_sell_rather_than_pass_at_the_harbor(name: str) -> None:
    g = _first_position(lf.Game.new(players=2, seed=21), _can_sell)
    bot = bots.make(name, seed=0, **({"iterations": 150} if name == "ismcts" else {}))
    action = bot.choose(g.view(g.to_move), g.legal_actions())
    assert action["type"] == "sell"


def test_greedy_takes_the_best_sale() -> None:
    def several_sales(g: lf.Game) -> bool:
        gains = {_gain(a) for a in g.legal_actions() if a["type"] == "sell"}
        return len(gains) > 1

    for seed in range(30):
        try:
            g = _first_position(lf.Game.new(players=2, seed=seed), several_sales)
        except AssertionError:
            continue
        legal = g.legal_actions()
        action = GreedyBot(seed=0).choose(g.view(g.to_move), legal)
        assert _gain(action) == max(_gain(a) for a in legal if a["type"] == "sell")
        return
    pytest.fail("no position with a choice of sales in 30 games")


def _gain(action: dict[str, Any]) -> int:
    fence = cards.FENCE_CARDS[action["fence"]]
    loot = [cards.LOOT_CARDS[i] for i in action["loot"]]
    return sum(c.value + fence.buys[c.kind][1] for c in loot)


def test_greedy_beats_random() -> None:
    wins = 0
    for seed in range(12):
        g = lf.Game.new(players=2, seed=seed)
        greedy_seat = seed % 2
        players = {greedy_seat: GreedyBot(seed=seed), 1 - greedy_seat: RandomBot(seed=seed)}
        while not g.is_over:
            seat = g.to_move
            assert seat is not None
            g.play(players[seat].choose(g.view(seat), g.legal_actions()))
        wins += greedy_seat in g.winners
    assert wins >= 10


# --- fairness: hidden information never changes a choice ------------------------------------


def _fairness_positions() -> list[lf.Game]:
    return [g for g in _positions() if g.phase != "over"][:9]


@pytest.mark.parametrize("game", _fairness_positions(), ids=lambda g: repr(g))
def test_a_choice_does_not_depend_on_hidden_information(game: lf.Game) -> None:
    seat = game.to_move
    assert seat is not None
    rng = random.Random(seat)
    twin = lf.Game.from_dict(swapped_twin(game, seat, rng))
    assert twin.to_dict() != game.to_dict(), "the twin must differ in hidden information"
    assert twin.view(seat) == game.view(seat)
    assert twin.legal_actions() == game.legal_actions()
    for name in BOT_NAMES:
        budget = FAIR_BUDGET if name == "ismcts" else {}
        choices = [
            bots.make(name, seed=3, **budget).choose(g.view(seat), g.legal_actions())
            for g in (game, twin)
        ]
        assert choices[0] == choices[1], name


def test_the_twin_differs_in_hands_and_loot_fronts() -> None:
    """The fairness test's edits reach every kind of hidden card (so it could fail)."""
    g = busy_game(3, seed=40, moves=60, start_player=0)  # a position with every kind of hidden card
    seat = g.to_move
    assert seat is not None
    before = g.to_dict()
    after = swapped_twin(g, seat, random.Random(0))
    opponents = [i for i in range(3) if i != seat]
    assert any(before["players"][i]["hand"] != after["players"][i]["hand"] for i in opponents)
    loot_places = [before["villa"], before["museum"], before["piles"]["loot"]["draw"]]
    moved = [before["players"][i]["loot"] for i in opponents] + loot_places
    twin_places = [after["players"][i]["loot"] for i in opponents] + [
        after["villa"], after["museum"], after["piles"]["loot"]["draw"]]
    assert moved != twin_places
    assert lf.Game.from_dict(after).view(seat) == g.view(seat)


# --- the difficulty ladder (issue 13) ----------------------------------------------------------


def test_the_levels_are_named_bots_with_budgets_in_iterations() -> None:
    assert list(bots.LEVELS) == ["easy", "medium", "hard", "expert"]
    g = busy_game(2, seed=31, moves=9)
    view, legal = g.view(g.to_move), g.legal_actions()
    for level, (name, budget, note) in bots.LEVELS.items():
        assert name in bots.BOTS and note and "time" not in budget  # no wall clock (Pyodide)
        bot = bots.make(level, seed=3)
        assert isinstance(bot, bots.BOTS[name])
        assert bot.choose(view, legal) in legal
        assert bots.make(level, seed=3).choose(view, legal) == bot.choose(view, legal) or \
            name != "ismcts"  # a fixed budget gives a fixed answer
    with pytest.raises(ValueError, match="own budget"):
        bots.make("hard", iterations=5)


def test_greedy_blunders_are_seeded_random_moves() -> None:
    g = busy_game(3, seed=32, moves=0)  # placing: five places to choose from
    view, legal = g.view(g.to_move), g.legal_actions()
    assert len(legal) == 5
    steady = {GreedyBot(seed=s).choose(view, legal)["type"] for s in range(8)}
    careless = [GreedyBot(seed=s, blunders=1.0).choose(view, legal) for s in range(30)]
    assert all(a in legal for a in careless) and len({json_key(a) for a in careless}) > 1
    assert [GreedyBot(seed=4, blunders=0.5).choose(view, legal) for _ in range(2)] == \
        [GreedyBot(seed=4, blunders=0.5).choose(view, legal) for _ in range(2)]
    assert len(steady) == 1
    with pytest.raises(ValueError, match="blunders"):
        GreedyBot(blunders=1.5)
    assert isinstance(bots.make("greedy", blunders=0.25), GreedyBot)
    with pytest.raises(ValueError, match="no budget"):
        bots.make("random", blunders=0.5)


def json_key(action: dict[str, Any]) -> str:
    import json

    return json.dumps(action, sort_keys=True)


# --- the cut-off's win model (issue 13) --------------------------------------------------------


def _chances(g: lf.Game) -> list[float]:
    return ismcts.win_chances(g.state)


def test_the_win_model_gives_win_chances_for_every_player_count() -> None:
    for n in range(2, 6):
        g = busy_game(n, seed=40 + n, moves=40)
        chances = _chances(g)
        assert len(chances) == n and all(0.0 < c < 1.0 for c in chances)
        assert sum(chances) == pytest.approx(1.0)
        assert len(ismcts.WIN_MODEL[n]) == len(ismcts._features(g.state)[0])


def test_the_win_model_favours_money_and_doubts_loot_near_the_end() -> None:
    g = lf.Game.new(players=2, seed=41)
    assert _chances(g) == pytest.approx([0.5, 0.5], abs=0.1)  # only the start differs

    def gain(leader_money: int, loot: bool) -> float:
        """Seat 1's chance gained by a loot card, or by its value in money."""
        base = copy.deepcopy(g)
        base.state.players[0].money = leader_money
        richer = copy.deepcopy(base)
        card = next(i for i, c in cards.LOOT_CARDS.items() if c.value >= 2)
        if loot:
            richer.state.players[1].loot = [card]
        else:
            richer.state.players[1].money += cards.LOOT_CARDS[card].value
        return _chances(richer)[1] - _chances(base)[1]

    assert gain(2, loot=False) > 0 and gain(2, loot=True) > 0
    # R10.2: unsold loot is worth nothing once the game ends, so the nearer the leader is
    # to 20 (R10.1), the less a loot card is worth next to its value in money.
    assert gain(2, True) / gain(2, False) > gain(17, True) / gain(17, False)


def test_the_win_model_knows_who_starts_the_next_round() -> None:
    """R9.3: before phase C the start player has yet to pass on; after it, it has."""
    g = busy_game(3, seed=42, moves=6)
    features = ismcts._features
    placing = copy.deepcopy(g.state)
    placing.phase, placing.start_player = "place", 1
    assert [row[4] for row in features(placing)] == [0.0, 1.0, 0.0]
    acting = copy.deepcopy(placing)
    acting.phase = "act"
    assert [row[4] for row in features(acting)] == [0.0, 0.0, 1.0]


def test_ismcts_scores_with_the_win_model_or_a_given_temperature() -> None:
    g = busy_game(2, seed=43, moves=20)
    assert ISMCTSBot().temperature is None and ISMCTSBot().rounds_ahead == 0
    assert ISMCTSBot()._rewards(g.state) == ismcts.win_chances(g.state)
    old = ISMCTSBot(temperature=3.0)._rewards(g.state)
    scores = [ismcts.heuristic_score(g.state, i) / 3.0 for i in range(2)]
    assert old[0] / old[1] == pytest.approx(math.exp(scores[0] - scores[1]))
    for bad in (0, -1.0):
        with pytest.raises(ValueError, match="temperature"):
            ISMCTSBot(temperature=bad)
