"""Bots for Crooks at every level of the ladder, through the game protocol: the random bot,
Crooks' own greedy bot (easy, medium) and ISMCTS on ``resample`` twins (hard, expert); each
is given a seat's view and legal actions (and ISMCTS a twin drawn from them), never the game."""

from __future__ import annotations

import math

import pytest

from langfinger_widget import bots
from langfinger_widget.errors import BadArgument
from langfinger_widget.games.crooks import Game, GreedyBot
from langfinger_widget.study.arena import BotSpec, parse_bots, play_game, run_local


def test_each_level_is_the_bot_of_the_crooks_ladder() -> None:
    assert isinstance(bots.make("random", game="crooks"), bots.RandomBot)
    for name in ("greedy", "medium"):
        made = bots.make(name, seed=2, game="crooks")
        assert isinstance(made, GreedyBot) and made.blunders == 0.0
    easy = bots.make("easy", game="crooks")
    assert isinstance(easy, GreedyBot) and easy.blunders == 0.5
    for level in ("hard", "expert"):
        made = bots.make(level, game="crooks")
        assert isinstance(made, bots.ISMCTSBot)
        assert made.iterations == bots.TWIN_LEVELS[level][1]["iterations"]
    assert bots.make("expert", game="crooks").budget(4) < bots.make("expert").budget(4)
    with pytest.raises(BadArgument, match="no game 'chess'"):
        bots.make("random", game="chess")


def test_a_crooks_bot_refuses_the_game_itself() -> None:
    g = Game.new(players=2, seed=1)
    for name in ("random", "medium"):
        with pytest.raises(TypeError):
            bots.make(name, game="crooks").choose(g.to_dict(), g.legal_actions())
    with pytest.raises(BadArgument, match="langfinger only"):  # ISMCTS needs a twin here
        bots.make("hard", game="crooks").choose(g.view(g.to_move), g.legal_actions())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_level_plays_whole_games(players: int) -> None:
    # ISMCTS at a small budget: the levels' own budgets take seconds a move (the arena's).
    seated = ["easy", "medium", "random", "ismcts:iterations=6"][:players]
    for index in range(players):  # seats rotated: every bot in every seat
        result = play_game(parse_bots(",".join(seated), game="crooks"), 5, index)
        assert result.game == "crooks" and result.winners and len(result.money) == players
        assert sum(result.moves) == result.decisions and all(result.moves)
        assert [row["seat"] for row in result.figures] == list(range(players))


def test_the_hard_level_plays_a_whole_game_at_its_own_budget() -> None:
    result = play_game([BotSpec("hard", game="crooks"), BotSpec("random", game="crooks")], 1, 0)
    assert result.winners and result.iterations[0] > 0 and result.iterations[1] == 0


def test_ismcts_beats_random_clearly() -> None:
    """12 two-player games, seats rotated, fixed seeds: if ISMCTS were no better than random
    (a win chance of 1/2) it would win 10 or more with probability under 2%."""
    games = 12
    assert sum(math.comb(games, k) for k in range(10, games + 1)) / 2**games < 0.02
    specs = parse_bots("ismcts:iterations=30,random", game="crooks")
    results = run_local(specs, games, 7, 1, progress=False)
    label = specs[0].label
    wins = sum(1 / len(r.winners) for r in results if r.bots.index(label) in r.winners)
    assert wins >= 10, f"ISMCTS won {wins} of {games} against random"


def test_the_arena_command_plays_crooks_and_prints_its_figures(
        capsys: pytest.CaptureFixture[str]) -> None:
    from langfinger_widget.study.cli import main

    assert main(["--game", "crooks", "--bots", "medium,random,random", "--games", "3",
                 "--no-progress", "--elo"]) == 0
    out = capsys.readouterr().out
    assert "3 games of crooks" in out and "avg score" in out and "controls_outfit" in out
    assert "by scoundrel" not in out and "Elo" in out
    assert main(["--game", "crooks", "--bots", "medium", "--no-progress"]) == 2
    assert "seats 2 to 4 bots" in capsys.readouterr().err
