"""The headless table (tables/table.py) drives any registered game through the protocol:
seats, bots (ISMCTS given a twin), a sealed step with several deciders, Undo, New game."""

from __future__ import annotations

import pytest
from sealed import SPEC as SEALED

import langfinger_widget as lf
from langfinger_widget import games
from langfinger_widget.tables.scheduler import ManualScheduler
from langfinger_widget.tables.table import Table, TableError

games.register(SEALED)


def sealed_table(**kw: object) -> Table[games.GameState]:
    game = SEALED.Game.new(players=3, seed=7)
    return Table(game, seat=0, pace=0, seed=1, autoplay=False, scheduler=ManualScheduler(),
                 **kw)  # type: ignore[arg-type]


def test_a_seat_decides_in_a_sealed_step_while_the_bots_seal_theirs() -> None:
    t = sealed_table(bots={1: "random", 2: "hard"})
    picture = t.picture()
    assert picture["legal"] == t.game.legal_actions(0) and t.game.to_decide == [0, 1, 2]
    assert t.step_bots() == 2  # both bots seal; the human's bid is still awaited
    assert t.game.to_decide == [0] and t.game.view(0)["bid"] == [False, True, True]
    card = picture["legal"][-1]["card"]
    reply = t.act({"action": {"type": "bid", "card": card}, "move": 2, "version": 2})
    assert reply["ok"], reply
    assert t.game.log(0)[-1]["type"] in ("reveal", "draw")  # the bids are turned up


def test_a_sealed_game_played_to_its_end_at_a_table_of_bots() -> None:
    t = sealed_table(bots={0: "random", 1: "random", 2: "hard"})
    t.step_bots()
    assert t.game.is_over and t.picture()["figures"] == []
    assert t.game.standings()[0]["sources"].keys() == {"cards", "rounds"}


def test_a_refusal_names_the_games_own_ruling() -> None:
    t = sealed_table(bots={1: "random", 2: "random"})
    card = t.game.legal_actions(0)[0]["card"]
    assert t.act({"action": {"type": "bid", "card": card}, "move": 0, "version": 0})["ok"]
    again = {"action": {"type": "bid", "card": card}, "move": 1, "version": 1}
    assert t.act(again) == {"kind": "result", "ok": False, "error": "S2: seat 0 has bid this round"}


def test_undo_takes_back_the_seats_own_bid_until_it_has_seen_the_reveal() -> None:
    t = sealed_table(bots={1: "random", 2: "random"})
    card = t.game.legal_actions(0)[0]["card"]
    t.act({"action": {"type": "bid", "card": card}, "move": 0, "version": 0})
    assert t.undo_status()["allowed"] and t.game.deciders == [0]
    t.undo()
    assert t.game.move_number == 0
    t.act({"action": {"type": "bid", "card": card}, "move": 0, "version": 2})
    t.step_bots()  # the reveal: seat 0 has seen every bid (S5), so its bid stands
    assert t.undo_status()["reason"].startswith("R12.1")


def test_new_game_chooses_the_game_by_name_and_checks_its_options() -> None:
    clock = ManualScheduler()
    t = Table(lf.Game.new(players=3, seed=1), seat=0, autoplay=False, scheduler=clock)
    assert t.spec.name == "langfinger" and t.setup()["variant"] == "standard"
    offered = {g["name"]: g for g in t.setup()["games"]}
    assert offered["sealed"] == {"name": "sealed", "title": SEALED.title, "players": [2, 4]}
    t.new_game({"game": "sealed", "players": 2})
    assert isinstance(t.game, SEALED.Game) and t.game.num_players == 2
    assert t.setup()["game"] == "sealed" and "variant" not in t.setup()
    assert t.bot_names == {1: "hard"}  # no greedy bot for the test game: ISMCTS stands in
    with pytest.raises(TableError, match=r"Sealed Bids .*: a game has 2 to 4 players, not 5"):
        t.new_game({"players": 5})
    with pytest.raises(TableError, match="unknown option"):
        t.new_game({"variant": "open_info"})  # Langfinger's option, not the test game's
    with pytest.raises(TableError, match="no greedy bot"):
        t.set_bots({1: "medium"})
    with pytest.raises(TableError, match="no game 'chess'"):
        t.new_game({"game": "chess"})
    t.new_game({"game": "langfinger", "variant": "open_info", "players": 3})
    assert t.setup()["variant"] == "open_info" and t.bot_names == {1: "medium", 2: "medium"}
    with pytest.raises(TableError, match=r"^R11: variant is 'standard' or 'open_info'"):
        t.new_game({"variant": "dark"})


def test_a_table_deals_a_game_by_name() -> None:
    t = Table.new("sealed", players=2, seed=3, seat=0, bots={1: "random"}, autoplay=False,
                  scheduler=ManualScheduler())
    assert t.spec.name == "sealed" and t.game.to_dict() == SEALED.Game.new(2, 3).to_dict()
    langfinger = Table.new(options={"variant": "open_info"}, seat=None, autoplay=False,
                           scheduler=ManualScheduler())
    assert isinstance(langfinger.game, lf.Game) and langfinger.setup()["variant"] == "open_info"
    with pytest.raises(TableError, match="no game 'chess'"):
        Table.new("chess")
    with pytest.raises(TableError, match=r"has no option\(s\) \['variant'\]"):
        Table.new("sealed", options={"variant": "open_info"})
