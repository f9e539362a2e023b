"""Oh My Goods! records (issue 38): a full record (``game goods``) replays to the same end,
a seat's record holds only what the seat saw (its bytes the same whatever another seat
sealed, G6.1), the scrubber replays it on the board's views, and ``lf.analyse`` rates a
seat's decisions, sealed plans included, through the protocol alone."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

import langfinger_widget as lf
from langfinger_widget.records import read_game, read_seat_game, write_game
from langfinger_widget.tables.replay import ProtocolRecord, Replay
from langfinger_widget.tables.scheduler import ManualScheduler

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "goods"))
from goods_helpers import random_game, walk

DATE = "2026-11-26"
TINY: dict[str, Any] = {"bot": "ismcts", "iterations": 6, "progress": False}


@pytest.fixture(scope="module")
def game() -> lf.goods.Game:
    return random_game(3, 5)


def test_a_full_goods_record_replays_to_the_same_end(game: lf.goods.Game) -> None:
    text = write_game(game, bots={2: "hard"}, date=DATE)
    assert text.splitlines()[1] == "game goods"
    replayed = read_game(text).game()
    assert replayed.is_over and replayed.history == game.history
    assert replayed.deciders == game.deciders  # sealed steps: who decided, in order
    assert replayed.standings() == game.standings()


def test_a_goods_seat_s_record_reads_back_to_what_the_seat_saw(game: lf.goods.Game) -> None:
    for seat in range(3):
        rec = read_seat_game(write_game(game, seat=seat, date=DATE))
        assert rec.log() == game.log(seat) and rec.seat == seat
        assert [s for s, _ in rec.decisions] == game.deciders
        for (s, action), played in zip(rec.decisions, game.history, strict=True):
            assert action == (played if s == seat else None)
        assert rec.scores == tuple(r["score"] for r in game.standings())


def _planned(seed: int, plan_seed: int) -> lf.goods.Game:
    """A 2-seat game at its first plan, seat 1 having sealed a plan chosen by ``plan_seed``
    and seat 0 not yet: nothing revealed."""
    g = lf.goods.Game.new(players=2, seed=seed)
    while g.phase != "plan":
        g.play({"type": "keep"}, g.to_decide[0])
    rng = random.Random(plan_seed)
    while 1 in g.to_decide:
        g.play(rng.choice(g.legal_actions(1)), 1)
    return g


def test_a_goods_seat_s_record_is_the_same_whatever_another_seat_sealed() -> None:
    games = [_planned(21, r) for r in range(8)]
    plans = {repr(g.history) for g in games}
    assert len(plans) > 1  # the plans do differ, so a leak would show
    assert len({write_game(g, seat=0, date=DATE) for g in games}) == 1
    assert len({write_game(g, seat=1, date=DATE) for g in games}) == len(plans)


def test_the_scrubber_replays_a_goods_record_on_each_seat_s_view(game: lf.goods.Game) -> None:
    r = Replay(read_game(write_game(game, date=DATE)), seat=None, scheduler=ManualScheduler())
    assert isinstance(r.record, ProtocolRecord) and r.length == game.move_number
    replay = lf.goods.Game.new(players=3, seed=game.seed)
    marks = {0, 7, 40, r.length}
    for i, (seat, action) in enumerate([*zip(game.deciders, game.history, strict=True),
                                        (None, None)]):
        if i in marks:
            r.seek(i)
            assert r.view() == replay.view(None) and r.log() == replay.log(None)
            r.set_seat(1)
            assert r.view() == replay.view(1)
            r.set_seat(None)
        if action is not None:
            replay.play(action, seat)
    last = r.last_decision()
    assert (last["seat"], last["action"]) == (game.deciders[-1], game.history[-1])


def test_analyse_rates_a_goods_seat_s_decisions_sealed_plans_included() -> None:
    steps = walk(2, 8)
    for g, _, _ in steps:
        if g.phase == "production" and 1 in g.deciders:
            break
    text = write_game(g, date=DATE)
    rows = lf.analyse(text, 1, **TINY)
    mine = [i for i, s in enumerate(g.deciders) if s == 1]
    assert [row["index"] for row in rows] == mine
    words = lf.games.get("goods").action_words[0]  # type: ignore[index]
    kinds = {row["action"]["type"] for row in rows}
    assert "plan_build" in kinds and kinds & {"keep", "mulligan"}  # sealed choices rated
    for row in rows:
        assert row["move"] == words(row["action"]) and 0.0 <= row["after"] <= 1.0
