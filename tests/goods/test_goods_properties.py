"""Property tests over random Oh My Goods! games (hypothesis draws the players, the seeds and
the choices): cards conserved across the draw pile, the discard, the market, hands,
buildings, goods and planned cards (G0.1); coins never made by a payment (G4.10, G3.2);
every game ends (G5.1); refused actions change nothing; every position saves and continues.
The default run plays a few hundred games; ``-m slow`` plays thousands."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langfinger_widget.errors import IllegalAction
from langfinger_widget.games.goods import CARDS, Game

BASE = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Rounds a game may last: each round a seat draws at least 2 cards while cards last, and a
# stalled game (nobody builds) still ends when the piles run dry and G2.3 empties hands;
# far above what random play reaches (about 20).
MAX_ROUNDS = 120
DECK = sorted(c for c, card in CARDS.items() if card.resource is not None)


def conserved(g: Game) -> None:
    s = g.state
    places = [*s["draw"], *s["discard"], *s["market"]]
    places += [c for h in s["hands"] for c in h]
    places += [c for c in s["planned"] if c is not None]
    for row in s["buildings"]:
        for b in row:
            places += b["goods"]
            if CARDS[b["id"]].resource is not None:
                places.append(b["id"])
    assert sorted(places) == DECK, "G0.1: every card in one place"


def coins(g: Game) -> list[int]:
    return [p["coins"] for p in g.view(None)["players"]]


def play_out(g: Game, rng: random.Random) -> None:
    while not g.is_over:
        assert g.round <= MAX_ROUNDS, "G5.1: every game ends"
        seat = rng.choice(g.to_decide)
        action = rng.choice(g.legal_actions(seat))
        before = coins(g)
        events = g.play(action, seat)
        after = coins(g)
        paid = sum(CARDS[e["building"]].building.worth for e in events
                   if e["type"] == "pay" and "card" in e)
        for r in (e for e in events if e["type"] == "reveal" and e["step"] == "plan"):
            paid += sum(CARDS[p["building"]].building.worth for plan in r["plans"]
                        for m in plan["moves"] for p in m["paid"])
        made = sum(CARDS[e["building"]].building.worth * e["goods"] for e in events
                   if e["type"] == "produced")
        chained = sum(CARDS[e["building"]].building.worth * (len(e["hand"]) + len(e["goods"]))
                      - sum(CARDS[b].building.worth for b in e["goods"])
                      for e in events if e["type"] == "chain")
        # G4.10: a payment takes exactly the worth of the goods paid, and nothing else
        # makes or takes coins but production and chains
        assert sum(after) == sum(before) - paid + made + chained
        conserved(g)
    assert g.winners


@settings(BASE, max_examples=150)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_random_games_keep_every_invariant_and_end(players: int, seed: int,
                                                  choices: int) -> None:
    play_out(Game.new(players=players, seed=seed), random.Random(choices))


@pytest.mark.slow
@settings(BASE, max_examples=2500)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_thousands_of_random_games_keep_every_invariant_and_end(players: int, seed: int,
                                                               choices: int) -> None:
    play_out(Game.new(players=players, seed=seed), random.Random(choices))


JUNK = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["keep", "mulligan", "build", "done"])}),
    st.fixed_dictionaries({"type": st.sampled_from(["produce", "pay", "assign"]),
                           "building": st.sampled_from(["CB1", "CB2", "D01", "D50", "X"])}),
    st.fixed_dictionaries({"type": st.sampled_from(["supply", "discard", "plan_build"]),
                           "card": st.sampled_from(["D01", "D17", "D94", None, "X"])}),
    st.fixed_dictionaries({"type": st.just("work"),
                           "building": st.sampled_from(["CB1", "CB3", None]),
                           "mode": st.sampled_from(["efficient", "sloppy", "lazy", None])}),
    st.fixed_dictionaries({"type": st.just("chain"), "building": st.sampled_from(["CB1", "D01"]),
                           "hand": st.lists(st.sampled_from(["D01", "D40"]), max_size=3),
                           "goods": st.lists(st.sampled_from(["CB1", "D01"]), max_size=2)}),
    st.fixed_dictionaries({"type": st.sampled_from(["hire", "move_assistant"]),
                           "assistant": st.sampled_from(["A1", "A5", "A9"])}),
    st.none(), st.integers(), st.text(max_size=3))


@settings(BASE, max_examples=150)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32),
       junk=st.lists(JUNK, min_size=1, max_size=6), seat=st.integers(0, 3))
def test_a_refused_action_names_a_ruling_and_changes_nothing(
        players: int, seed: int, choices: int, junk: list[Any], seat: int) -> None:
    g = Game.new(players=players, seed=seed)
    rng = random.Random(choices)
    while not g.is_over and rng.random() < 0.995:
        s = rng.choice(g.to_decide)
        g.play(rng.choice(g.legal_actions(s)), s)
    seat %= players
    legal = g.legal_actions(seat)
    for action in junk:
        before, version = json.dumps(g.to_dict()), g.version
        why = g.why_illegal(action, seat)
        if action in legal:
            assert why is None
            continue
        assert why is not None and ((why[0] == "G" and why[1].isdigit())
                                    or why.startswith("not an action")), why
        try:
            g.play(action, seat)
        except IllegalAction as err:
            assert str(err) == why
        else:
            raise AssertionError(f"{action} was played though refused: {why}")
        assert json.dumps(g.to_dict()) == before and g.version == version


@settings(BASE, max_examples=40)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32),
       stop=st.integers(0, 400))
def test_every_position_saves_and_continues_exactly(players: int, seed: int, choices: int,
                                                    stop: int) -> None:
    g = Game.new(players=players, seed=seed)
    rng = random.Random(choices)
    while not g.is_over and g.move_number < stop:
        s = rng.choice(g.to_decide)
        g.play(rng.choice(g.legal_actions(s)), s)
    data = json.loads(json.dumps(g.to_dict()))
    loaded = Game.from_dict(data)
    assert loaded.to_dict() == data
    for seat in range(players):
        assert loaded.view(seat) == g.view(seat)
        assert loaded.legal_actions(seat) == g.legal_actions(seat)
    while not g.is_over:
        s = rng.choice(g.to_decide)
        action = rng.choice(g.legal_actions(s))
        assert g.play(action, s) == loaded.play(action, s)
    assert g.to_dict() == loaded.to_dict() and g.winners == loaded.winners


@settings(BASE, max_examples=60)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32),
       stop=st.integers(1, 300))
def test_undo_restores_the_position_exactly(players: int, seed: int, choices: int,
                                            stop: int) -> None:
    g = Game.new(players=players, seed=seed)
    rng = random.Random(choices)
    while not g.is_over and g.move_number < stop:
        s = rng.choice(g.to_decide)
        before = json.dumps(g.to_dict())
        g.play(rng.choice(g.legal_actions(s)), s)
    g.undo()
    assert json.dumps(g.to_dict()) == before
