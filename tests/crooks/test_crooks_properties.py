"""Property tests over thousands of random Crooks games (hypothesis draws the seeds and the
choices): every dollar accounted for (C5), crooks conserved between hangouts, hands, targets
and the box (C1.1, C4.7), one crook per seat per target but for stacks (C4.2, C4.4), every
game ends (C2.2); and refused actions change nothing."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langfinger_widget.errors import IllegalAction
from langfinger_widget.games.crooks import Game
from langfinger_widget.games.crooks.cards import PILE_SIZES, START_CASH, TARGETS, hangouts

BASE = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
# A game lasts at most one recruit of each dealt crook (31) plus a pass per seat, each turn
# four decisions at most: far below this.
MAX_DECISIONS = 4 * 31 + 4


def check(g: Game, money_in: list[int], money_out: list[int]) -> None:
    s = g.state
    # C5: each seat's cash is $18, less what it paid the bank, plus what Pickpockets took
    assert s.paid == money_in and s.gained == money_out
    assert all(c == START_CASH - i + o >= 0 for c, i, o in zip(s.cash, money_in, money_out,
                                                                strict=True))
    # C1.1, C4.7: the crooks are conserved: each in exactly one place
    places = [c for p in s.hangouts.values() for c in p] + list(s.box)
    places += [p.crook for row in s.rows for stack in row.values() for p in stack]
    if s.turn is not None and s.turn.hand is not None and s.turn.target is None:
        places.append(s.turn.hand)
    assert sorted(places) == sorted(s.deck)
    # C4.2, C4.4: one crook per seat per target, but for stacks of face-up Accomplices (a
    # Switch or a Killer waiting on its follow-up sits on top of its seat's crooks)
    for seat, row in enumerate(s.rows):
        for t in TARGETS:
            stack = row[t]
            pending = s.step in ("switch", "kill") and seat == s.seat \
                and s.turn is not None and s.turn.target == t
            above = stack[1:-1] if pending else stack[1:]
            assert all(p.up and s.deck[p.crook].special == "accomplice" for p in above)
    # C1.1: a hangout only loses cards
    assert all(len(s.hangouts[h]) <= size
               for h, size in zip(hangouts(s.num_players), PILE_SIZES[s.num_players],
                                  strict=True))


def play_out(g: Game, rng: random.Random) -> None:
    money_in, money_out = [0] * g.num_players, [0] * g.num_players
    while not g.is_over:
        assert g.move_number < MAX_DECISIONS  # C2.2: every game ends
        legal = g.legal_actions()
        assert legal and g.to_decide == [g.to_move]
        for event in g.play(rng.choice(legal)):
            seat = event.get("seat")
            if event["type"] == "recruit":
                money_in[seat] += event["price"]
            elif event["type"] == "place":
                money_in[seat] += event["cost"]
            elif event["type"] == "pickpocket":
                money_out[seat] += event["gain"]
        check(g, money_in, money_out)
    assert g.winners


@settings(BASE, max_examples=1500)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_random_games_keep_every_invariant_and_end(players: int, seed: int,
                                                  choices: int) -> None:
    play_out(Game.new(players=players, seed=seed), random.Random(choices))


@settings(BASE, max_examples=150)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32),
       junk=st.lists(st.one_of(
           st.fixed_dictionaries({"type": st.sampled_from(["recruit", "spy"]),
                                  "hangout": st.sampled_from(list("ABCDEFGHIZ"))}),
           st.fixed_dictionaries({"type": st.just("keep"),
                                  "crook": st.sampled_from(["K01", "K07", "K22", "X"])}),
           st.fixed_dictionaries({"type": st.just("place"), "target": st.integers(0, 11),
                                  "face": st.sampled_from(["up", "down", "left"]),
                                  "effect": st.booleans()}),
           st.fixed_dictionaries({"type": st.sampled_from(["switch"]),
                                  "to": st.integers(0, 11)}),
           st.fixed_dictionaries({"type": st.just("kill"), "seat": st.integers(-1, 4)}),
           st.fixed_dictionaries({"type": st.just("pass")}),
           st.none(), st.integers()), min_size=1, max_size=6))
def test_a_refused_action_names_a_ruling_and_changes_nothing(
        players: int, seed: int, choices: int, junk: list[object]) -> None:
    g = Game.new(players=players, seed=seed)
    rng = random.Random(choices)
    while not g.is_over and rng.random() < 0.97:
        g.play(rng.choice(g.legal_actions()))
    legal = g.legal_actions()
    for action in junk:
        before, version = json.dumps(g.to_dict()), g.version
        why = g.why_illegal(action)
        if action in legal:
            assert why is None
            continue
        assert why is not None and ((why[0] == "C" and why[1].isdigit())
                                    or why.startswith("not an action")), why
        try:
            g.play(action)
        except IllegalAction as err:
            assert str(err) == why
        else:
            raise AssertionError(f"{action} was played though refused: {why}")
        assert json.dumps(g.to_dict()) == before and g.version == version


@settings(BASE, max_examples=120)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32),
       stop=st.integers(0, 120))
def test_every_position_saves_and_continues_exactly(players: int, seed: int, choices: int,
                                                    stop: int) -> None:
    g = Game.new(players=players, seed=seed)
    rng = random.Random(choices)
    while not g.is_over and g.move_number < stop:
        g.play(rng.choice(g.legal_actions()))
    data = json.loads(json.dumps(g.to_dict()))
    loaded = Game.from_dict(data)
    assert loaded.to_dict() == data and loaded.legal_actions() == g.legal_actions()
    for seat in range(players):
        assert loaded.view(seat) == g.view(seat)
    state = rng.getstate()
    while not g.is_over:
        action = rng.choice(g.legal_actions())
        assert g.play(action) == loaded.play(action)
    rng.setstate(state)
    assert g.to_dict() == loaded.to_dict() and g.winners == loaded.winners


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.text(max_size=4),
                 st.sampled_from(["K01", "K07", "K99", "A", "up", "down", "over", "keep"]),
                 st.lists(st.sampled_from(["K01", "K07", "K16", "A"]), max_size=3),
                 st.dictionaries(st.sampled_from(["A", "B", "2", "hand"]),
                                 st.lists(st.sampled_from(["K01", "K07"]), max_size=2),
                                 max_size=2))


def corrupt(data: object, rng: random.Random, junk: object) -> object:
    """``data`` with one value somewhere in it replaced by ``junk`` (or a key removed)."""
    if isinstance(data, dict) and data:
        key = rng.choice(sorted(data))
        out = dict(data)
        if rng.random() < 0.5 and isinstance(out[key], (dict, list)) and out[key]:
            out[key] = corrupt(out[key], rng, junk)
        elif rng.random() < 0.3:
            del out[key]
        else:
            out[key] = junk
        return out
    if isinstance(data, list) and data:
        out_list = list(data)
        k = rng.randrange(len(out_list))
        out_list[k] = corrupt(out_list[k], rng, junk) if rng.random() < 0.5 else junk
        return out_list
    return junk


@settings(BASE, max_examples=400)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), stop=st.integers(0, 60),
       where=st.integers(0, 2**32), junk=JUNK)
def test_corrupt_positions_load_or_are_refused_with_invalid_state(
        players: int, seed: int, stop: int, where: int, junk: object) -> None:
    from langfinger_widget.errors import InvalidState

    g = Game.new(players=players, seed=seed)
    rng = random.Random(where)
    while not g.is_over and g.move_number < stop:
        g.play(rng.choice(g.legal_actions()))
    bad = corrupt(g.to_dict(), rng, junk)
    try:
        loaded = Game.from_dict(bad)
    except InvalidState:
        return
    # what loads is a position the rules can play on to the end
    while not loaded.is_over:
        loaded.play(rng.choice(loaded.legal_actions()))
        assert loaded.move_number < MAX_DECISIONS


@settings(BASE, max_examples=25)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_the_sight_barrier_only_moves_forward_and_covers_each_own_recruit(
        players: int, seed: int, choices: int) -> None:
    """C7.3: a seat's barrier never goes back as play goes on, never passes the present,
    and stands at least just after the seat's own last recruit."""
    g = Game.new(players=players, seed=seed)
    rng = random.Random(choices)
    barriers = [0] * players
    last_recruit = [0] * players
    while not g.is_over:
        action = rng.choice(g.legal_actions())
        mover = g.to_move
        g.play(action)
        if action["type"] == "recruit":
            last_recruit[mover] = g.move_number
        for seat in range(players):
            now = g.sight_barrier(seat)
            assert barriers[seat] <= now <= g.move_number
            assert now >= last_recruit[seat]
            barriers[seat] = now
    assert g.sight_barrier(None) == 0
