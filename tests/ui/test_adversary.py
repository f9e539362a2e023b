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

import asyncio
import json
import math
import random
from collections.abc import Generator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_kit import run_alone

import langfinger_widget as lf
from langfinger_widget.kernel import rules
from langfinger_widget.tables import scheduler as scheduler_module
from langfinger_widget.tables import table as table_module
from langfinger_widget.tables.scheduler import ManualScheduler
from langfinger_widget.tables.table import Table, TableError
from langfinger_widget.ui.widget import LangfingerWidget

FAST = settings(max_examples=300, deadline=None,
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

def _nested(depth: int, leaf: Any) -> Any:
    for level in range(depth):
        leaf = [leaf] if level % 2 else {"a": leaf}
    return leaf


# Shapes that escaped in issue 29: nesting deeper than a message has (500 and 100,000 levels,
# which json.loads accepts), tool lists no action could take, a message of megabytes.
oversized = st.one_of(
    st.builds(_nested, st.sampled_from([9, 50, 500, 5000, 100_000]), junk),
    st.builds(lambda n, t: {"type": "take_tools", "tools": [t] * n},
              st.integers(4, 20_000), st.sampled_from(["map", "hammer", "welder"])),
    st.builds(lambda n: {"type": "steal", "slot": 0, "pay": ["map", "map", "map", "map"] * n},
              st.integers(1, 5000)),
    st.builds(lambda n: "x" * n, st.integers(60_000, 200_000)),
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
            action[draw(st.sampled_from([*action, "slot", "pay"]))] = draw(junk | oversized)
        message["action"] = action
    elif draw(st.integers(0, 3)) == 0:
        message["action"] = draw(oversized)
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
    assert all(len(tools) <= rules.most_tools() for tools in rules._TOOL_LISTS)


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


replay_kinds = st.sampled_from(["replay_seek", "replay_step", "replay_round", "replay_play",
                                "replay_pause", "replay_pace", "replay_seat", "replay_analyse",
                                "replay_continue", "replay_puzzle", "act", "undo"])
replay_fields = st.sampled_from(["index", "delta", "direction", "pace", "seat", "bot", "bots"])


@st.composite
def forged_replay(draw: st.DrawFn) -> dict[str, Any]:
    message: dict[str, Any] = {"kind": draw(replay_kinds)}
    for _ in range(draw(st.integers(0, 3))):
        message[draw(replay_fields)] = draw(junk | oversized | st.integers(-2, 60))
    return message


@pytest.fixture(scope="module")
def replay_text() -> str:
    g = lf.Game.new(players=3, seed=29)
    while g.move_number < 40:
        g.play(g.legal_actions()[g.move_number % len(g.legal_actions())])
    return g.record(None, date="2025-06-01")


@settings(FAST, max_examples=100)
@given(data=st.data())
def test_forged_replay_intents_get_an_answer(replay_text: str, data: st.DataObject) -> None:
    """The replay board's own intents (seek, step, seat, analyse, continue...) answer anything
    with strict JSON; a refusal changes no position."""
    w = lf.LangfingerWidget.replay(replay_text, scheduler=ManualScheduler())
    w.send = lambda *a, **k: None  # type: ignore[method-assign]
    for _ in range(4):
        message = data.draw(forged_replay() | junk)
        before = json.dumps([w.game.to_dict(), w.seat, w.get_state().get("scrubber")])
        reply = w.handle_message(message)
        json.dumps(reply, allow_nan=False)
        if reply.get("kind") == "result" and not reply["ok"]:
            assert reply["error"], message
            assert json.dumps([w.game.to_dict(), w.seat, w.get_state().get("scrubber")]) == before
    w.close()


@pytest.mark.parametrize("depth", [500, 5000, 100_000])
def test_an_action_nested_deep_gets_an_answer_naming_what_is_wrong(depth: int) -> None:
    """Python callers skip the widget's cap: the kernel itself answers, never RecursionError."""
    w = _board()
    deep = _nested(depth, "map")
    for action in ({"type": "take_tools", "tools": deep}, {"type": "steal", "slot": deep,
                                                           "pay": []}, deep):
        reason = w.game.why_illegal(action)
        assert reason is not None and reason.startswith("not an action"), reason
        with pytest.raises(lf.IllegalAction):
            w.game.play(action)
        reply = w.table.act({"kind": "act", "action": action, "move": w.move_number,
                             "version": w.version, "seat": w.seat})
        assert reply["ok"] is False and len(reply["error"]) < 500


# --- races -------------------------------------------------------------------------------------

ops = st.lists(
    st.sampled_from(["click", "click", "click", "undo", "hint", "hint", "reveal", "tick", "tick",
                     "tick", "advance", "pace", "new_game", "seat_none"]),
    min_size=5, max_size=40,
)


_THINKING, _WEIGHING = table_module.thinking, table_module.weighing


class Chosen(dict[str, Any]):
    """A bot's action that remembers the game object and version it was chosen for."""

    def __init__(self, action: dict[str, Any], game: lf.Game, version: int) -> None:
        super().__init__(action)
        self.game, self.version = game, version


class RaceTable(Table):
    """A table that records every move its bots make, and whether it was chosen for the
    position it lands on: the very game object (not its ``id``, which CPython reuses) at
    the very version."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bot_moves: list[tuple[int, bool]] = []

    def _schedule(self) -> None:
        game, version = self.game, self.game.version

        def tagged(bot: Any, view: Any, legal: Any, twin: Any = None
                   ) -> Generator[None, None, Chosen]:
            action = yield from _THINKING(bot, view, legal, twin=twin)
            return Chosen(action, game, version)

        table_module.thinking = tagged  # type: ignore[assignment]
        try:
            super()._schedule()
        finally:
            table_module.thinking = _THINKING

    def hint_intent(self) -> dict[str, Any]:
        game, version = self.game, self.game.version

        def tagged(bot: Any, view: Any, legal: Any, twin: Any = None
                   ) -> Generator[None, None, tuple[Chosen, float]]:
            action, value = yield from _WEIGHING(bot, view, legal, twin=twin)
            return Chosen(action, game, version), value

        table_module.weighing = tagged  # type: ignore[assignment]
        try:
            return super().hint_intent()
        finally:
            table_module.weighing = _WEIGHING

    def chosen_here(self, action: Any) -> bool:
        return not isinstance(action, Chosen) or (
            action.game is self.game and action.version == self.game.version)

    def _play_for_bot(self, seat: int, action: dict[str, Any]) -> None:
        self.bot_moves.append((seat, self.chosen_here(action) and self.game.is_legal(action)
                               and seat in self._bots))
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
    # Every bot move was chosen for the game and version it landed on, by a bot seat, and is
    # legal there: a stale choice would have been illegal or, worse, legal by chance; the
    # table drops stale work before it can be either.
    assert all(here for _, here in t.bot_moves), t.bot_moves
    assert "illegal action" not in t.error and "failed" not in t.error, t.error
    if t.hint:
        assert t.hint["version"] == t.game.version and t.chosen_here(t.hint["action"])
        assert t.hint["seat"] == t.game.to_move and t.hint["seat"] in t.acting_seats()


@pytest.fixture
def reused_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """CPython hands a freed game's ``id`` to a later object; here every object gets the same
    one, the worst case, so a table that told games apart by ``id`` mixes them up every time."""
    monkeypatch.setattr(table_module, "id", lambda obj: 1, raising=False)


@pytest.fixture
def small_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    # One piece of work a slice: the interleavings the races explore get as fine as they go.
    monkeypatch.setattr(scheduler_module, "SLICE_SECONDS", 0.0)
    monkeypatch.setattr("langfinger_widget.tables.table.HINT_ITERATIONS", 48)


@RACES
@given(steps=ops, seed=st.integers(0, 10_000))
def test_races_between_clicks_undos_hints_and_bots(small_slices: None, reused_ids: None,
                                                   steps: list[str], seed: int) -> None:
    _race(steps, seed)


@pytest.mark.slow
@SLOW
@given(steps=ops, seed=st.integers(0, 10_000))
def test_races_long(small_slices: None, reused_ids: None, steps: list[str], seed: int) -> None:
    _race(steps, seed)


def test_a_new_game_option_that_is_not_finite_is_refused() -> None:
    t = Table(lf.Game.new(players=2, seed=1), seat=0, bots={}, scheduler=ManualScheduler())
    with pytest.raises(TableError):
        t.new_game({"seed": math.nan})


# --- a bot's move from an old game (issue 29) ---------------------------------------------------


def _bot_first(players: int, seat: int, count: int) -> list[int]:
    """Seeds whose deal makes ``seat`` the start player (R1.0)."""
    return [s for s in range(1000) if rules.draw_start_player(s, players) == seat][:count]


def test_a_bot_move_chosen_for_an_old_game_never_lands_in_a_new_one(reused_ids: None) -> None:
    seeds = _bot_first(3, 1, 3)
    clock = ManualScheduler()
    t = RaceTable(lf.Game.new(players=3, seed=seeds[0]), seat=0,
                  bots={1: "random", 2: "random"}, pace=0.5, scheduler=clock)
    clock.tick()  # seat 1 has chosen its first token for this game; it waits out the pace
    t.new_game({"seed": seeds[1]})
    t.new_game({"seed": seeds[2]})  # seat 1 starts again: same seat, version 0
    clock.advance(5)
    assert t.bot_moves and all(here for _, here in t.bot_moves), t.bot_moves
    assert t.game.deciders[:2] == [1, 2]


def test_a_bot_move_waiting_out_the_pace_is_cancelled_with_its_game() -> None:
    seeds = _bot_first(3, 1, 1) + _bot_first(3, 0, 1)
    clock = ManualScheduler()
    t = Table(lf.Game.new(players=3, seed=seeds[0]), seat=0, bots={1: "random", 2: "random"},
              pace=0.5, scheduler=clock)
    clock.tick()  # chosen, due in 0.5 s
    assert clock.pending == 1
    t.new_game({"seed": seeds[1]})  # seat 0 (a person) starts the new game: no bot is due
    assert clock.pending == 0
    t.replace_game(lf.Game.new(players=3, seed=seeds[0]))
    clock.tick()
    assert clock.pending == 1
    t.close()
    assert clock.pending == 0


bursts = st.lists(
    st.sampled_from(["new_game", "new_game", "new_game", "click", "click", "tick", "tick",
                     "advance", "advance", "undo", "pace", "seat"]),
    min_size=3, max_size=30,
)


def _burst(steps: list[str], seed: int) -> None:
    """New game pressed in bursts between clicks, undos and clock moves; bots that choose in
    one slice, so that their moves wait out the pace while the games are replaced."""
    clock = ManualScheduler()
    t = RaceTable(lf.Game.new(players=3, seed=seed), seat=0, bots={1: "random", 2: "easy"},
                  pace=0.2, scheduler=clock, seed=seed)
    rng = random.Random(seed)
    for step in steps:
        seat = t.game.to_move
        if step == "new_game":
            options: dict[str, Any] = {"seed": rng.randrange(1000)}
            if rng.random() < 0.2:
                options["players"] = rng.randint(2, 5)
            t.new_game(options)
        elif step == "click" and seat is not None and seat in t.acting_seats():
            legal = t.game.legal_actions()
            t.act({"kind": "act", "action": rng.choice(legal), "move": t.game.move_number,
                   "version": t.game.version})
        elif step == "tick":
            clock.tick()
        elif step == "advance":
            clock.advance(rng.choice([0.0, 0.1, 0.2, 0.3, 0.5]))
        elif step == "undo":
            t.undo_intent()
        elif step == "pace":
            t.set_pace(rng.choice([0.0, 0.2, 0.4]))
        elif step == "seat":
            t.set_seat(None if t.seat is not None else 0)
        _check_race(t)
    clock.run_all()
    _check_race(t)


BURSTS = settings(max_examples=300, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow,
                                         HealthCheck.function_scoped_fixture])


@BURSTS
@given(steps=bursts, seed=st.integers(0, 10_000))
def test_new_game_bursts_never_carry_a_bot_move_over(reused_ids: None, steps: list[str],
                                                     seed: int) -> None:
    _burst(steps, seed)


@pytest.mark.slow
@SLOW
@given(steps=bursts, seed=st.integers(0, 10_000))
def test_new_game_bursts_long(reused_ids: None, steps: list[str], seed: int) -> None:
    _burst(steps, seed)


def test_new_game_bursts_on_a_real_event_loop(reused_ids: None) -> None:
    seeds = _bot_first(3, 1, 10)

    async def bursts_of_new_game() -> RaceTable:
        t = RaceTable(lf.Game.new(players=3, seed=seeds[0]), seat=0,
                      bots={1: "random", 2: "random"}, pace=0.01, seed=1)
        assert isinstance(t.scheduler, scheduler_module.LoopScheduler)
        for burst in range(60):
            await asyncio.sleep(0.004 * (burst % 4))  # a bot chooses, then waits out the pace
            t.new_game({"seed": seeds[burst % len(seeds)]})
        await asyncio.sleep(0.05)
        t.close()
        return t

    t = run_alone(bursts_of_new_game())
    assert t.bot_moves and all(here for _, here in t.bot_moves), t.bot_moves
