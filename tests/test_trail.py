"""trail.py: a game's history, shared by its copies, each copy seeing its own."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import langfinger_widget as lf
from langfinger_widget.trail import Trail

OPS = st.lists(st.tuples(st.sampled_from(["append", "extend", "pop", "cut", "copy"]),
                         st.integers(0, 7), st.integers(0, 1000)), max_size=60)


@settings(max_examples=400, deadline=None)
@given(OPS)
def test_every_copy_reads_what_a_list_of_its_own_would(ops: list[tuple[str, int, int]]) -> None:
    trails: list[Trail[int]] = [Trail([1, 2, 3])]
    lists: list[list[int]] = [[1, 2, 3]]
    for op, which, value in ops:
        i = which % len(trails)
        t, model = trails[i], lists[i]
        if op == "append":
            t.append(value)
            model.append(value)
        elif op == "extend":
            t.extend([value, value + 1])
            model.extend([value, value + 1])
        elif op == "pop" and model:
            assert t.pop() == model.pop()
        elif op == "cut":
            size = value % (len(model) + 1)
            t.cut(size)
            del model[size:]
        elif op == "copy":
            trails.append(t.copy())
            lists.append(list(model))
        for trail, expected in zip(trails, lists, strict=True):
            assert list(trail) == expected
            assert len(trail) == len(expected)
            assert trail[:] == expected
            assert trail[1:-1] == expected[1:-1]
            assert trail[::2] == expected[::2]
            if expected:
                assert trail[-1] == expected[-1]
                assert trail[0] == expected[0]


def test_a_copy_shares_the_items_until_one_of_them_parts_ways() -> None:
    a = Trail(range(1000))
    b = a.copy()
    b.append(1000)  # b's end is the list's end: appended in place, nothing copied
    assert b._items is a._items
    assert len(a) == 1000 and a[-1] == 999 and list(a) == list(range(1000))
    a.append(-1)  # a's end is no longer the list's: a takes a list of its own
    assert a._items is not b._items
    assert a[-1] == -1 and b[-1] == 1000


def test_reading_past_a_copys_end_is_an_index_error_even_where_the_list_goes_on() -> None:
    a = Trail([1, 2])
    b = a.copy()
    b.append(3)
    with pytest.raises(IndexError):
        a[2]
    with pytest.raises(IndexError):
        a.cut(3)
    with pytest.raises(IndexError):
        Trail().pop()


def test_a_pickle_or_a_deep_copy_holds_only_the_trails_own_items() -> None:
    a = Trail([1, 2])
    b = a.copy()
    b.extend(range(10_000))
    assert pickle.loads(pickle.dumps(a))._items == [1, 2]
    assert copy.deepcopy(a)._items == [1, 2]
    assert a == [1, 2] and a == Trail([1, 2]) and a != b


def _walk(games: list[Any], rng: random.Random, copies: float, undos: float,
          most: int) -> Any:
    """One step of a random walk over ``games``: a game copied (with chance ``copies``, while
    there are fewer than ``most``), undone (``undos``) or played; the game it was."""
    g = rng.choice(games)
    roll = rng.random()
    if roll < copies and len(games) < most:
        games.append(g.copy())
    elif roll < copies + undos and g.move_number:
        g.undo()
    elif not g.is_over:
        seat = g.to_decide[0]
        g.play(rng.choice(g.legal_actions(seat)), seat)
    return g


@pytest.mark.parametrize("game", ["langfinger", "crooks", "goods"])
def test_a_games_copies_played_and_taken_back_apart_keep_their_own_histories(game: str) -> None:
    """Game.copy shares the history (Trail): each copy, played and undone on its own, ends
    where a game replayed from its own actions ends: same history, deciders, log."""
    spec = lf.games.get(game)
    rng = random.Random(7)
    games = [spec.Game.new(players=3, seed=11)]
    for g in games:
        g.log(0)  # the record kept as played, as a server's is
    for _ in range(400):
        _walk(games, rng, copies=0.15, undos=0.15, most=6)
    for g in games:
        again = spec.Game.new(players=3, seed=11)
        for action, seat in zip(g.history, g.deciders, strict=True):
            again.play(action, seat)
        assert again.history == g.history
        assert again.deciders == g.deciders
        for seat in range(3):
            assert again.log(seat) == g.log(seat)
            assert again.view(seat) == g.view(seat)


def _barrier_read_whole(game: lf.Game, seat: int | None) -> int:
    """R12.1's sight barrier read from the whole record, as it was before it was kept."""
    from langfinger_widget.kernel import views

    record = game._recorded()
    marks, events = list(record.marks), list(record.events)
    ends = [*marks[1:], len(events)]
    for index in range(len(marks) - 1, -1, -1):
        if any(views.shows_hidden(e, seat) for e in events[marks[index]:ends[index]]):
            return index + 1
    return 0


def test_the_sight_barrier_kept_from_answer_to_answer_is_the_one_read_whole() -> None:
    """R12.1: each answer reads only the decisions since the last; through plays, undos and
    copies played apart it still names the decision the whole record names."""
    rng = random.Random(3)
    games = [lf.Game.new(players=4, seed=5)]
    for _ in range(600):
        g = _walk(games, rng, copies=0.05, undos=0.15, most=5)
        for seat in (None, 0, 1, 2, 3):
            assert g.sight_barrier(seat) == _barrier_read_whole(g, seat), seat
