"""ISMCTS at Oh My Goods!: the searching levels stop their play-outs early and score the twin
by the game's evaluation (GameSpec.evaluate, G5.2's VP), they beat random play, and they
never read what their seat cannot see (G7.3, G6.1)."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from langfinger_widget import bots, games
from langfinger_widget.bots.base import thinking
from langfinger_widget.games.goods import SPEC, Game, evaluation
from langfinger_widget.tables.scheduler import at_once

# A small search of the levels' kind (a play-out cut short, then the game's evaluation):
# the levels' own budgets take seconds a game, this one a fraction.
SMALL = {"iterations": 6, "depth": 30}


def _search(game: Any, seat: int, seed: int, twin_seed: int, **budget: Any) -> Any:
    bot = bots.make("ismcts", seed=seed, game="goods", **(budget or SMALL))
    return at_once(thinking(bot, game.view(seat), game.legal_actions(seat),
                            twin=game.resample(seat, random.Random(twin_seed))))


def _play(players: int, seed: int, searcher: int) -> Game:
    """A game of one small search at ``searcher`` against random play elsewhere."""
    g = Game.new(players=players, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        seat = g.to_decide[0]
        legal = g.legal_actions(seat)
        if seat == searcher and len(legal) > 1:
            action = _search(g, seat, rng.getrandbits(31), rng.getrandbits(31))
        else:
            action = rng.choice(legal)
        g.play(action, seat)
    return g


def test_hard_and_expert_search_goods_with_its_evaluation_a_few_decisions_deep() -> None:
    for level in ("hard", "expert"):
        bot = bots.make(level, seed=0, game="goods")
        assert isinstance(bot, bots.ISMCTSBot)
        assert bot.depth == SPEC.levels[level]["depth"] and bot.depth < 500
        assert bot.iterations == SPEC.levels[level]["iterations"]
    # Crooks has no evaluation: its levels stay TWIN_LEVELS', played out to the end.
    assert games.get("crooks").evaluate is None
    assert bots.make("hard", seed=0, game="crooks").depth is None  # type: ignore[attr-defined]


def test_g5_2_the_evaluation_gives_win_chances_and_is_exact_once_over() -> None:
    g = Game.new(players=3, seed=4)
    chances = evaluation.win_chances(g)
    assert len(chances) == 3 and abs(sum(chances) - 1) < 1e-9
    rng = random.Random(4)
    while not g.is_over:
        seat = g.to_decide[0]
        g.play(rng.choice(g.legal_actions(seat)), seat)
        chances = evaluation.win_chances(g)
        assert all(0 <= c <= 1 for c in chances) and abs(sum(chances) - 1) < 1e-9
    assert chances == [1 / len(g.winners) if s in g.winners else 0.0 for s in range(3)]


@pytest.mark.parametrize("players", [2, 3])
def test_g5_3_the_search_at_goods_beats_random_play(players: int) -> None:
    """A small search with the levels' cut-off wins every one of a few fixed seeded games,
    from either seat (random play wins a half or a third of them; measured with these
    seeds and budget: 4 games of 4 at either player count)."""
    won = []
    for k in range(2):
        searcher = k % players
        g = _play(players, seed=100 + k, searcher=searcher)
        won.append(searcher in g.winners)
    assert all(won), f"the search won {won.count(True)} of {len(won)} games"


def test_g7_3_the_search_and_its_evaluation_never_read_what_the_seat_cannot_see(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At positions of every phase, games alike but for what seat 0 cannot see (other
    hands, the draw pile, goods' faces, other seats' sealed choices, G7.3, G6.1) give seat 0's
    search the same choice, and the evaluation scores only the twin's descendants, never the
    game itself."""
    scored: list[Any] = []
    real: list[Any] = []

    def spy(game: Any) -> list[float]:
        assert all(game is not r for r in real), "the evaluation was given the real game"
        scored.append(game)
        return list(evaluation.win_chances(game))

    monkeypatch.setitem(games._loaded, "goods", dataclasses.replace(SPEC, evaluate=spy))
    g = Game.new(players=3, seed=11)
    rng = random.Random(11)
    phases = set()
    for _ in range(160):
        if g.is_over:
            break
        seat = g.to_decide[0]
        if 0 in g.to_decide and len(g.legal_actions(0)) > 1 and g.phase not in phases:
            phases.add(g.phase)
            variants = [g.copy(), g.resample(0, random.Random(1)), g.resample(0, random.Random(2))]
            real[:] = variants
            assert len({json.dumps(v.to_dict(), sort_keys=True) for v in variants}) > 1
            chosen = {json.dumps(_search(v, 0, seed=5, twin_seed=9), sort_keys=True)
                      for v in variants}
            assert len(chosen) == 1, f"seat 0's search depends on hidden cards in {g.phase}"
        g.play(rng.choice(g.legal_actions(seat)), seat)
    assert {"hand", "plan", "production"} <= phases and scored
