"""Oh My Goods! as a game of the registry: the conformance checks first, then whole games by
every bot of the ladder, records, and the no-leak check by resampling, sealed choices
included."""

from __future__ import annotations

import json
import random

import pytest
from goods_helpers import random_game

import langfinger_widget as lf
from langfinger_widget import bots, games, records, testing
from langfinger_widget.bots.base import thinking
from langfinger_widget.games.goods import SPEC, Game, GreedyBot
from langfinger_widget.study.arena import parse_bots, play_game
from langfinger_widget.tables.scheduler import at_once


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_conformance_checks_pass(players: int) -> None:
    game = testing.check_game("goods", players=players, seed=players)
    assert game.is_over and game.winners


def test_it_is_registered_and_exposed() -> None:
    spec = games.get("goods")
    assert spec is SPEC and spec.title == "Oh My Goods!" and spec.players == range(2, 5)
    assert spec.rulings == "G" and spec.rulings_file == "RULINGS-goods.md"
    assert lf.goods.CARDS["D01"].building.name == "Mill"
    assert set(lf.goods.ASSISTANTS) == {f"A{k}" for k in range(1, 9)}
    assert lf.goods.catalogue()["buildings"]["shoemaker"]["worth"] == 8


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seats_view_and_log_ignore_what_another_seat_sealed_until_the_reveal(
        players: int) -> None:
    """For every seat and every sealed step of a game, whatever the others seal (played by
    different random plans), the seat's view and log are byte-identical until the reveal."""
    g = Game.new(players=players, seed=20 + players)
    rng = random.Random(players)
    while not g.is_over and g.round <= 3:
        if g.phase in ("hand", "plan") and len(g.to_decide) == players:
            for watcher in range(players):
                outs = set()
                for trial in range(3):
                    twin = g.copy()
                    local = random.Random(trial * 101 + watcher)
                    # everyone but the watcher seals, in seat order (when each seals is
                    # public), each by its own random steps
                    while set(twin.to_decide) - {watcher}:
                        seat = min(set(twin.to_decide) - {watcher})
                        twin.play(local.choice(twin.legal_actions(seat)), seat)
                    outs.add(json.dumps([twin.view(watcher), twin.log(watcher),
                                         twin.legal_actions(watcher)]))
                assert len(outs) == 1, f"seat {watcher} sees what another sealed"
        seat = rng.choice(g.to_decide)
        g.play(rng.choice(g.legal_actions(seat)), seat)


def test_resample_redeals_other_seats_sealed_plans_and_planned_cards() -> None:
    g = Game.new(players=3, seed=6)
    for s in (0, 1, 2):
        g.play({"type": "keep"}, s)
    g.play({"type": "work", "building": g.state["buildings"][1][0]["id"], "mode": "sloppy"}, 1)
    g.play({"type": "plan_build", "card": g.state["hands"][1][0]}, 1)
    twins = [g.resample(0, random.Random(k)) for k in range(8)]
    assert all(t.view(0) == g.view(0) and t.log(0) == g.log(0) for t in twins)
    assert len({json.dumps(t.state["plans"][1]) for t in twins}) > 1
    assert all(t.state["sealed"] == g.state["sealed"] for t in twins)


def test_greedy_is_the_medium_level_and_beats_random() -> None:
    assert isinstance(bots.make("medium", seed=2, game="goods"), GreedyBot)
    assert bots.make("easy", game="goods").blunders == 0.5
    wins = 0
    for seed in range(10):
        g = Game.new(players=2, seed=seed)
        seated = [GreedyBot(seed=seed), bots.make("random", seed=seed, game="goods")]
        if seed % 2:
            seated.reverse()
        while not g.is_over:
            seat = g.to_decide[0]
            g.play(seated[seat].choose(g.view(seat), g.legal_actions(seat)), seat)
        greedy = seed % 2
        wins += greedy in g.winners
    assert wins >= 8, f"greedy won {wins} of 10 against random"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_level_plays_whole_games(players: int) -> None:
    # ISMCTS plays out every iteration to the end: a tiny budget keeps this test short (the
    # levels' own budgets are the arena's, benchmarks/goods_selfplay.py).
    seated = ["ismcts:iterations=2", "medium", "easy", "random"][:players]
    result = play_game(parse_bots(",".join(seated), game="goods"), 3, 0)
    assert result.game == "goods" and result.winners and len(result.money) == players
    assert [row["seat"] for row in result.figures] == list(range(players))
    assert result.iterations[0] > 0


def test_ismcts_plans_a_sealed_step_without_seeing_the_others_sealed_plans() -> None:
    """Two games alike but for what seat 1 sealed: seat 0's search chooses alike (it is
    given a twin, drawn from what seat 0 sees)."""
    base = Game.new(players=2, seed=12)
    for s in (0, 1):
        base.play({"type": "keep"}, s)
    chosen = []
    for plan in (0, -1):
        g = base.copy()
        legal = [a for a in g.legal_actions(1) if a["type"] == "work"]
        g.play(legal[plan], 1)
        g.play(g.legal_actions(1)[plan], 1)  # a card or none
        assert g.to_decide == [0]
        bot = bots.make("ismcts", seed=3, iterations=8, game="goods")
        chosen.append(at_once(thinking(bot, g.view(0), g.legal_actions(0),
                                       twin=g.resample(0, random.Random(1)))))
    assert chosen[0] == chosen[1] and chosen[0] in base.legal_actions(0)


@pytest.mark.parametrize("players", [2, 4])
def test_a_finished_game_round_trips_through_its_record(players: int) -> None:
    g = random_game(players, 3)
    text = records.write_game(g, date="2026-11-26")
    assert text.splitlines()[1] == "game goods"
    again = records.read_game(text).game()
    assert again.to_dict() == g.to_dict() and again.log(None) == g.log(None)
    assert records.write_game(again, date="2026-11-26") == text


def test_record_words_round_trip_every_action_shape() -> None:
    write, read = SPEC.action_words  # type: ignore[misc]
    for action in ({"type": "keep"}, {"type": "discard", "card": "D17"},
                   {"type": "move_assistant", "assistant": "A3", "to": "D40"},
                   {"type": "work", "building": "CB2", "mode": "sloppy"},
                   {"type": "work", "building": None, "mode": None},
                   {"type": "plan_build", "card": None}, {"type": "plan_build", "card": "D12"},
                   {"type": "chain", "building": "D40", "hand": [], "goods": ["CB2", "D3"]},
                   {"type": "chain", "building": "D40", "hand": ["D07"], "goods": []},
                   {"type": "hire", "assistant": "A3"}, {"type": "done"}):
        assert read(write(action).split()) == action
    with pytest.raises(lf.BadArgument, match="not an action"):
        read(["fly", "away"])
