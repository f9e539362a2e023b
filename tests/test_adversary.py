"""Adversarial suites (issue 12): forged page messages, and races between clicks, undos and bots.

Both are property tests. The forged messages mutate real intents (wrong
kinds, seats, move numbers, versions, NaN, garbled actions) and send them to a
hot-seat board mid-game: every reply is strict JSON, a refused intent changes
nothing, and no trait shows what the shown seat may not see. The races play
random interleavings of clicks, undos, hints, handovers, pace changes and new
games against a table whose bots think in slices on a manual clock: a bot
never plays a move chosen for another position, and a hint is only ever shown
for the position and seat it was computed for. ``-m slow`` runs them longer.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import langfinger_widget as lf
from langfinger_widget.tables import scheduler as scheduler_module
from langfinger_widget.tables.scheduler import ManualScheduler
from langfinger_widget.tables.table import Table, TableError
from langfinger_widget.ui.widget import LangfingerWidget

FAST = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
RACES = settings(max_examples=80, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
SLOW = settings(max_examples=3000, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

# --- forged messages ---------------------------------------------------------------------------

junk = st.recursive(
    st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats(allow_nan=True)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                  max_size=4),
    max_leaves=10,
)
kinds = st.sampled_from(["act", "why", "hint", "undo", "new_game", "reveal", "puzzle_hint",
                         "puzzle_reset", "ACT", "", "log"])
fields = st.sampled_from(["action", "seat", "move", "version", "players", "bots", "variant",
                          "seed", "kind"])


def _board() -> LangfingerWidget:
    w = LangfingerWidget(players=3, seed=21, seat=0, bots={2: "medium"}, autoplay=False)
    w.send = lambda *a, **k: None  # type: ignore[method-assign]
    for _ in range(4):  # into the game: seats 0 and 1 share the screen, seat 2 is a bot
        if w.game.to_move == 2:
            w.step_bots()
        else:
            w.table.set_seat(w.game.to_move)
            w.play(w.game.legal_actions()[-1])
    w.step_bots()
    return w


def _snapshot(w: LangfingerWidget) -> str:
    return json.dumps([w.game.to_dict(), w.game.history, w.seat, w.bots], sort_keys=True)


@st.composite
def forged(draw: st.DrawFn, legal: list[dict[str, Any]]) -> dict[str, Any]:
    message: dict[str, Any] = {"kind": draw(kinds)}
    if legal and draw(st.booleans()):
        action = dict(draw(st.sampled_from(legal)))
        if draw(st.booleans()):
            action[draw(st.sampled_from([*action, "slot", "pay"]))] = draw(junk)
        message["action"] = action
    for _ in range(draw(st.integers(0, 3))):
        message[draw(fields)] = draw(junk)
    return message


def _check_forged(w: LangfingerWidget, message: Any) -> None:
    before = _snapshot(w)
    reply = w.handle_message(message)
    json.dumps(reply, allow_nan=False)  # strict JSON, whatever came in
    if reply.get("kind") == "result" and not reply["ok"]:
        assert _snapshot(w) == before, message
        assert reply["error"], message
    assert w.view == w.game.view(w.seat)
    acting = w.game.to_move is not None and w.game.to_move in w.table.acting_seats()
    assert w.legal == (w.game.legal_actions() if acting else [])


@FAST
@given(data=st.data())
def test_forged_messages_change_nothing_they_are_refused(data: st.DataObject) -> None:
    w = _board()
    for _ in range(3):
        _check_forged(w, data.draw(forged(w.game.legal_actions()) | junk))


@pytest.mark.slow
@SLOW
@given(data=st.data())
def test_forged_messages_long(data: st.DataObject) -> None:
    w = _board()
    for _ in range(10):
        _check_forged(w, data.draw(forged(w.game.legal_actions()) | junk))


# --- races -------------------------------------------------------------------------------------

ops = st.lists(
    st.sampled_from(["click", "click", "click", "undo", "hint", "hint", "reveal", "tick", "tick",
                     "tick", "advance", "pace", "new_game", "seat_none"]),
    min_size=5, max_size=40,
)


class RaceTable(Table):
    """A table that records every move its bots make, with the position it was chosen for."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bot_moves: list[tuple[int, bool]] = []

    def _play_for_bot(self, seat: int, action: dict[str, Any]) -> None:
        self.bot_moves.append((seat, self.game.is_legal(action)))
        super()._play_for_bot(seat, action)


def _race(steps: list[str], seed: int) -> None:
    clock = ManualScheduler()
    game = lf.Game.new(players=3, seed=seed, start_player=seed % 3)
    t = RaceTable(game, seat=0, bots={2: "hard"}, pace=0.3, scheduler=clock, seed=seed)
    rng = seed
    for step in steps:
        rng = (rng * 1103515245 + 12345) % 2**31
        seat = t.game.to_move
        if step == "click" and seat is not None and seat in t.acting_seats():
            legal = t.game.legal_actions()
            t.act({"kind": "act", "action": legal[rng % len(legal)],
                   "move": len(t.game.history), "version": t.game.version})
        elif step == "undo":
            t.undo_intent()
        elif step == "hint":
            t.hint_intent()
        elif step == "reveal" and seat is not None:
            t.reveal({"seat": seat})
        elif step == "tick":
            clock.tick()
        elif step == "advance":
            clock.advance((rng % 7) / 10)
        elif step == "pace":
            t.set_pace((rng % 5) / 10)
        elif step == "new_game" and rng % 4 == 0:
            t.new_game({"seed": rng % 1000})
        elif step == "seat_none":
            t.set_seat(None if t.seat is not None else 0)
        _check_race(t)
    clock.run_all()
    _check_race(t)


def _check_race(t: RaceTable) -> None:
    # Every bot move was legal where it landed: a stale choice would have been illegal or,
    # worse, legal by chance; the table drops stale work before it can be either.
    assert all(legal for _, legal in t.bot_moves), t.bot_moves
    assert all(seat in t._bots for seat, _ in t.bot_moves)
    assert "illegal action" not in t.error and "failed" not in t.error, t.error
    if t.hint:
        assert t.hint["version"] == t.game.version
        assert t.hint["seat"] == t.game.to_move and t.hint["seat"] in t.acting_seats()


@pytest.fixture
def small_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    # One piece of work a slice: the interleavings the races explore get as fine as they go.
    monkeypatch.setattr(scheduler_module, "SLICE_SECONDS", 0.0)
    monkeypatch.setattr("langfinger_widget.tables.table.HINT_ITERATIONS", 48)


@RACES
@given(steps=ops, seed=st.integers(0, 10_000))
def test_races_between_clicks_undos_hints_and_bots(small_slices: None, steps: list[str],
                                                   seed: int) -> None:
    _race(steps, seed)


@pytest.mark.slow
@SLOW
@given(steps=ops, seed=st.integers(0, 10_000))
def test_races_long(small_slices: None, steps: list[str], seed: int) -> None:
    _race(steps, seed)


def test_a_new_game_option_that_is_not_finite_is_refused() -> None:
    t = Table(lf.Game.new(players=2, seed=1), seat=0, bots={}, scheduler=ManualScheduler())
    with pytest.raises(TableError):
        t.new_game({"seed": math.nan})
