"""The bots on any registered game, through the game protocol: the random bot from a view,
ISMCTS from a twin (``game.resample(seat, rng)``), fair by construction either way."""

from __future__ import annotations

import random

import pytest
from sealed import SPEC as SEALED

import langfinger_widget as lf
from langfinger_widget import bots, games
from langfinger_widget.bots.base import thinking
from langfinger_widget.tables.scheduler import at_once

games.register(SEALED)


def _choose(bot: bots.Bot, game: games.GameState, seat: int, rng: random.Random) -> games.Action:
    twin = game.resample(seat, rng)  # all the bot is given: nothing the seat has not seen
    return at_once(thinking(bot, game.view(seat), game.legal_actions(seat), twin=twin))


@pytest.mark.parametrize("name", ["random", "ismcts"])
def test_bots_play_a_sealed_step_game_to_its_end(name: str) -> None:
    game = SEALED.Game.new(players=3, seed=4)
    seated = {s: bots.make(name, seed=s, **({"iterations": 30} if name == "ismcts" else {}))
              for s in range(3)}
    rng = random.Random(0)
    while not game.is_over:
        seat = game.to_decide[-1]  # the last decider first: a sealed step has any order
        action = _choose(seated[seat], game, seat, rng)
        assert action in game.legal_actions(seat)
        game.play(action, seat)
    assert game.winners


def test_ismcts_from_a_twin_chooses_alike_whatever_the_seat_cannot_see() -> None:
    game = SEALED.Game.new(players=3, seed=9)
    game.play(game.legal_actions(1)[0], seat=1)
    other = game.resample(0, random.Random(5))  # differs from game only where seat 0 is blind
    assert other.view(0) == game.view(0) and other.to_dict() != game.to_dict()
    chosen = [_choose(bots.make("ismcts", seed=3, iterations=60), g, 0, random.Random(1))
              for g in (game, other)]
    assert chosen[0] == chosen[1]


def test_ismcts_searches_langfinger_through_the_protocol_too() -> None:
    game = lf.Game.new(players=3, seed=2)
    for _ in range(9):
        game.play(game.legal_actions()[0])
    seat = game.to_move
    assert seat is not None
    bot = bots.ISMCTSBot(seed=0, iterations=12)
    search = bot.search_twin(game.resample(seat, random.Random(0)), seat, game.legal_actions())
    while not search.done:
        search.run(4)
    action, value = search.best()
    assert action in game.legal_actions() and 0.0 <= value <= 1.0 and search.iterations == 12


def test_a_langfinger_only_bot_refuses_another_games_view() -> None:
    game = SEALED.Game.new(players=2, seed=1)
    with pytest.raises(lf.BadArgument, match="plays langfinger only"):
        bots.make("greedy").choose(game.view(0), game.legal_actions(0))
    with pytest.raises(TypeError, match="view"):
        bots.make("random").choose(game.to_dict(), game.legal_actions(0))
