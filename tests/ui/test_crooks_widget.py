"""The widget plays any registered game: Crooks by name (issue 37).

``lf.LangfingerWidget(game="crooks", ...)`` deals a new game of the registered game and
syncs the seat's ``crooks-view/1`` view, its legal actions when it decides, and its
redacted log; intents from the page are checked as for Langfinger, and a refusal names
the Crooks ruling.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from rules_kit import rulings_index

import langfinger_widget as lf
from langfinger_widget.ui.widget import SeatError


def crooks_widget(**kwargs: object) -> lf.LangfingerWidget:
    options: dict[str, object] = {"players": 3, "seed": 7, "seat": 0,
                                  "bots": {1: "greedy", 2: "random"}, "autoplay": False}
    options.update(kwargs)
    return lf.LangfingerWidget(game="crooks", **options)  # type: ignore[arg-type]


def test_a_crooks_board_syncs_the_seats_view_legal_actions_and_log() -> None:
    w = crooks_widget()
    w.step_bots()
    assert w.view["format"] == "crooks-view/1"
    assert w.view == w.game.view(0)
    assert w.setup["game"] == "crooks"
    assert w.events == w.game.log(0)[-30:]
    if w.game.to_move == 0:
        assert w.legal == w.game.legal_actions(0)
    else:
        assert w.legal == []
    w.close()


def test_clicks_play_a_whole_crooks_game_and_the_others_piles_never_reach_the_traits() -> None:
    w = crooks_widget()
    rng = random.Random(3)
    for _ in range(300):
        w.step_bots()
        if w.game.is_over:
            break
        assert w.game.to_move == 0 and w.legal
        turn = w.view["turn"]
        reply = w.handle_message({"kind": "act", "action": rng.choice(w.legal),
                                  "move": w.move_number, "version": w.version})
        assert reply == {"kind": "result", "ok": True, "error": ""}, reply
        if turn is not None and turn["seat"] != 0:
            assert turn["pile"] is None
    assert w.game.is_over
    assert w.view["standings"] == w.game.standings()
    assert w.legal == []
    w.close()


def test_a_refused_intent_names_the_crooks_ruling() -> None:
    w = crooks_widget(seed=3)
    w.step_bots()
    reply = w.handle_message({"kind": "why", "action": {"type": "place", "target": 6,
                                                        "face": "up", "effect": False}})
    assert reply["kind"] == "why" and reply["reason"].startswith("C2.1")
    before = w.game.to_dict()
    bad = w.handle_message({"kind": "act", "action": {"type": "recruit", "hangout": "H"},
                            "move": w.move_number, "version": w.version})
    assert not bad["ok"] and "C1.1" in bad["error"] and w.error == bad["error"]
    assert w.game.to_dict() == before
    w.close()


def test_a_game_the_registry_does_not_know_is_refused() -> None:
    with pytest.raises(SeatError, match="no game 'chess'"):
        lf.LangfingerWidget(game="chess", autoplay=False)
    with pytest.raises(SeatError):
        crooks_widget(players=5)


def test_the_new_game_panel_switches_between_games_on_one_board() -> None:
    w = lf.LangfingerWidget(players=3, seed=1, seat=0, autoplay=False)
    assert {g["name"] for g in w.setup["games"]} >= {"langfinger", "crooks"}
    reply = w.handle_message({"kind": "new_game", "game": "crooks", "players": 4, "seat": 1,
                              "bots": {"0": "medium", "2": "random", "3": "greedy"},
                              "seed": 5})
    assert reply["ok"], reply
    assert w.view["format"] == "crooks-view/1" and w.view["num_players"] == 4
    assert w.seat == 1 and w.setup["game"] == "crooks"
    reply = w.handle_message({"kind": "new_game", "game": "langfinger", "players": 3, "seat": 0,
                              "bots": {"1": "medium", "2": "medium"}, "variant": "standard",
                              "seed": None})
    assert reply["ok"], reply
    assert w.view["format"] != "crooks-view/1" and w.setup["game"] == "langfinger"
    w.close()


def test_a_hot_seat_passes_the_screen_before_the_next_persons_pile_shows() -> None:
    w = crooks_widget(bots={2: "random"}, seed=1)
    assert w.human_seats == [0, 1]
    for _ in range(50):  # seat 0 plays (the bot at seat 2 too) until seat 1 is to move
        if w.game.to_move == 1:
            break
        if w.game.to_move == 0:
            w.play(w.legal[0])
        else:
            w.step_bots(1)
    assert w.seat == 0 and w.game.to_move == 1
    assert w.legal == [] and w.view == w.game.view(0)  # seat 1's choices wait for seat 1
    reply = w.handle_message({"kind": "reveal", "seat": 1})
    assert reply["ok"], reply
    assert w.seat == 1 and w.view == w.game.view(1) and w.legal == w.game.legal_actions(1)
    w.close()


def test_the_boards_crooks_rulings_are_the_docs_index() -> None:
    """The words the board shows for a cited ruling (C4.6) are docs/crooks.md's index; after
    editing the index, write js/crooks/rulings.json anew with ``crooks_rulings_index``."""
    root = Path(__file__).resolve().parents[2]
    index = rulings_index((root / "docs" / "crooks.md").read_text(encoding="utf-8"), "C")
    bundled = json.loads((root / "js" / "crooks" / "rulings.json").read_text(encoding="utf-8"))
    assert bundled == index
    assert len(index) >= 38 and "Killer" in index["C4.6"]["text"]


def test_the_boards_recorded_positions_have_the_kernels_shape() -> None:
    """js/__fixtures__/crooks.json holds views the kernel sent once: the board's tests stay
    honest only while those views have the shape the kernel sends today."""
    import json
    import random
    from pathlib import Path

    from langfinger_widget import games
    from langfinger_widget.testing import random_move

    fixtures = json.loads((Path(__file__).parents[2] / "js/__fixtures__/crooks.json")
                          .read_text(encoding="utf-8"))
    game = games.get("crooks").Game.new(players=3, seed=1)
    rng = random.Random(1)
    while not game.is_over:
        seat, action = random_move(game, rng)
        game.play(action, seat=seat)
    final = game.view(0)
    for name, recorded in fixtures.items():
        view = recorded["view"]
        assert set(view) == set(final), name
        for row in view["standings"] or []:
            assert set(row) == set(final["standings"][0]), name
            assert row["score"] == sum(row["sources"].values()), name
