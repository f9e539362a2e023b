"""Random games open the Crooks tests: many played to the end at 2, 3 and 4 players, every
invariant checked after each decision (the property tests hold the heavier checks)."""

from __future__ import annotations

import json
import random

import pytest
from crooks_helpers import random_game, walk

import langfinger_widget as lf
from langfinger_widget.games import GameState, get
from langfinger_widget.games.crooks import CROOKS, SPEC, Game
from langfinger_widget.games.crooks.cards import PILE_SIZES, START_CASH


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_with_winners(players: int) -> None:
    lengths = []
    for seed in range(60):
        g = random_game(players, seed)
        assert g.is_over and g.to_move is None and g.to_decide == [] and g.legal_actions() == []
        assert g.winners and set(g.winners) <= set(range(players))
        table = g.standings()
        assert [row["score"] for row in table] == [
            sum(row["by_target"].values()) + sum(row["by_gang"].values()) for row in table]
        assert [row["sources"] for row in table] == [
            {"targets": sum(row["by_target"].values()), "gangs": sum(row["by_gang"].values())}
            for row in table]
        lengths.append(g.move_number)
    assert min(lengths) >= players  # C2.1: every seat must at least pass


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_position_of_a_random_game_holds_the_rules(players: int) -> None:
    for seed in range(8):
        for g in walk(players, seed):
            s = g.state
            # C1.1: the 32 crooks are each in exactly one place
            placed = [p.crook for row in s.rows for st in row.values() for p in st]
            piles = [c for p in s.hangouts.values() for c in p]
            hand = [s.turn.hand] if s.turn and s.turn.hand and s.turn.target is None else []
            everything = placed + piles + s.box + hand
            assert sorted(everything) == sorted(CROOKS)
            # C5: every dollar paid to the bank or taken from it by a Pickpocket
            assert all(c == START_CASH - p + k for c, p, k in zip(s.cash, s.paid, s.gained,
                                                                    strict=True))
            assert all(c >= 0 for c in s.cash)
            # the position loads back exactly, JSON and all
            data = json.loads(json.dumps(g.to_dict()))
            assert Game.from_dict(data).to_dict() == data
            assert isinstance(g, GameState)


def test_setup_follows_c1() -> None:
    for players in (2, 3, 4):
        g = Game.new(players=players, seed=5)
        sizes = [len(p) for p in g.state.hangouts.values()]
        assert tuple(sizes) == PILE_SIZES[players]  # C1.1
        assert len(g.state.box) == 32 - sum(sizes)  # C1.1: the rest to the box, unseen
        assert g.cash == [START_CASH] * players  # C1.2
        assert g.to_move == g.start_player  # C1.0
    starts = {Game.new(players=4, seed=s).start_player for s in range(40)}
    assert starts == {0, 1, 2, 3}  # C1.0: drawn from the seed
    assert Game.new(players=3, seed=1, start_player=2).to_move == 2


def test_same_seed_and_actions_give_the_same_game_byte_for_byte() -> None:
    a, b = random_game(4, 99), random_game(4, 99)
    assert json.dumps(a.to_dict()) == json.dumps(b.to_dict())
    assert json.dumps(a.log(None)) == json.dumps(b.log(None))
    assert a.to_dict() != random_game(4, 98).to_dict()


def test_the_registry_and_the_package_offer_crooks() -> None:
    assert "crooks" in lf.games.names()
    assert get("crooks") is SPEC and lf.crooks.Game is Game
    assert SPEC.players == range(2, 5) and SPEC.rulings == "C"
    assert SPEC.rulings_file == "RULINGS-crooks.md"
    g = SPEC.Game.new(players=3, seed=1)
    bot = SPEC.greedy(seed=3)
    while not g.is_over:
        g.play(bot.choose(g.view(g.to_move), g.legal_actions()))
    assert g.winners


def test_undo_is_exact_and_copy_is_independent() -> None:
    g = Game.new(players=3, seed=11)
    rng = random.Random(0)
    snapshots = []
    while not g.is_over:
        snapshots.append((json.dumps(g.to_dict()), json.dumps(g.log(None)), g.version))
        g.play(rng.choice(g.legal_actions()))
    twin = g.copy()
    while snapshots:
        data, log, _ = snapshots.pop()
        g.undo()
        assert json.dumps(g.to_dict()) == data and json.dumps(g.log(None)) == log
    assert twin.is_over and g.move_number == 0
    with pytest.raises(lf.IllegalAction):
        g.undo()


def test_standings_and_winners_wait_for_the_end() -> None:
    g = random_game(3, 4, stop=12)
    assert not g.is_over and g.standings() == [] and g.winners == []
    assert g.view(0)["standings"] is None  # a face-down crook's rank would show in a score
    while not g.is_over:
        g.play(g.legal_actions()[-1])  # a pass, or the last placement of a turn
    rows = g.standings()
    assert [r["seat"] for r in rows] == [0, 1, 2] and g.view(1)["standings"] == rows
    assert all(r["score"] == sum(r["sources"].values()) for r in rows)


def test_check_invariants_catches_a_crook_in_two_places_and_cash_that_does_not_add_up() -> None:
    g = random_game(2, 3, stop=9)
    g.check_invariants()
    g.state.box.append(g.state.box[0])
    with pytest.raises(AssertionError, match=r"^C1\.1"):
        g.check_invariants()
    g = random_game(2, 3, stop=9)
    g.state.cash[1] += 1
    with pytest.raises(AssertionError, match=r"^C5\.1"):
        g.check_invariants()
