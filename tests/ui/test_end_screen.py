"""The end of a game on the board (issue 28): figures, the unsold loot turned up, Undo closed
(R10.1), and "Replay this game" / "Analyse my game" answered with a replay board."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from rules_kit import act

import langfinger_widget as lf
from langfinger_widget.kernel.figures import counts, figures
from langfinger_widget.ui.widget import LangfingerWidget


def finished(seat: int | None = 0, bots: dict[int, str] | None = None) -> LangfingerWidget:
    """A 3-player board played to its end by random choices and bots."""
    w = LangfingerWidget(players=3, seed=7, seat=seat,
                         bots={1: "random", 2: "random"} if bots is None else bots,
                         autoplay=False)
    w.send = lambda *_a, **_k: None  # type: ignore[method-assign]
    rng = random.Random(0)
    while not w.game.is_over:
        if w.legal:
            assert act(w, rng.choice(w.legal))["ok"]  # a refusal would loop forever
        w.step_bots()
    return w


def test_figures_count_each_players_public_acts() -> None:
    log = [
        {"type": "steal", "seat": 0, "paid": ["map", "hammer"], "loot": {}},
        {"type": "cash", "seat": 0, "gained": 2},
        {"type": "sell", "seat": 1, "loot": [{}, {}], "gained": 7},
        {"type": "exchange", "seat": 1, "gave": ["map"], "drew": None},
        {"type": "take_tools", "seat": 2, "tools": ["map", "welder"]},
        {"type": "pass", "seat": 2},
        {"type": "refill", "place": "city", "cards": ["map"]},  # nobody's act
    ]
    rows = counts(log, 3)
    assert (rows[0]["steals"], rows[0]["tools_spent"], rows[0]["sales"]) == (1, 2, 0)
    assert (rows[0]["chests"], rows[0]["money_from_chests"]) == (1, 2)
    assert (rows[1]["sales"], rows[1]["sold"], rows[1]["money_from_sales"]) == (1, 2, 7)
    assert (rows[1]["exchanges"], rows[1]["tools_spent"]) == (1, 1)
    assert (rows[2]["tools_taken"], rows[2]["passes"], rows[2]["steals"]) == (2, 1, 0)


def test_figures_agree_with_the_game_and_money() -> None:
    w = finished()
    g = w.game
    assert w.figures == figures(g, 0)
    for row, player in zip(w.figures, g.state.players, strict=True):
        # Money comes from chests and sales only (R5.3, R8.1).
        assert row["money_from_chests"] + row["money_from_sales"] == player.money
        assert len(row["unsold"]) == len(player.loot)


def test_unsold_loot_is_turned_up_only_once_the_game_is_over() -> None:
    w = LangfingerWidget(players=3, seed=7, seat=0, bots={1: "random", 2: "random"},
                         autoplay=False)
    rng = random.Random(1)
    while not w.game.is_over:
        assert w.figures == []  # nothing of the rivals' fronts while it is played (R11.1)
        if w.legal:
            assert act(w, rng.choice(w.legal))["ok"]  # a refusal would loop forever
        w.step_bots(limit=1)
    state = w.get_state()
    rivals = [lf.LOOT_CARDS[i] for k, p in enumerate(w.game.state.players) if k != 0
              for i in p.loot]
    shown = [card for row in state["figures"] for card in row["unsold"]]
    for card in rivals:
        assert {"kind": card.kind, "value": card.value} in [
            {"kind": c["kind"], "value": c["value"]} for c in shown]
    assert '"L' not in json.dumps(state["figures"])  # fronts, not the catalogue's ids


def test_undo_is_closed_once_the_game_is_over() -> None:
    for seat, bots in ((0, None), (None, {})):  # a seat against bots, and the open board
        w = finished(seat, bots)
        assert w.undo_status == {"allowed": False,
                                 "reason": "R10.1: the game is over; its result stands"}
        before = w.game.to_dict()
        reply = w.handle_message({"kind": "undo"})
        assert reply["ok"] is False and reply["error"].startswith("R10.1")
        assert w.game.to_dict() == before
        with pytest.raises(lf.IllegalAction, match=r"R10\.1"):
            w.undo()


def test_replay_this_game_turns_the_board_into_its_replay_and_back() -> None:
    w = finished()
    game = w.game
    before = game.to_dict()
    live_view, live_figures = w.view, w.figures
    sent: list[Any] = []
    w.send = sent.append  # type: ignore[method-assign]
    reply = w.handle_message({"kind": "replay"})
    assert reply == {"kind": "result", "ok": True, "error": ""} and sent == [reply]
    # The same board (no second widget: marimo could not show one made here) replays the
    # whole finished game, read-only, from the start and the seat's eyes.
    assert w.scrubber["length"] == len(game.history) and w.scrubber["can_leave"] is True
    assert w.seat == 0 and w.move_number == 0 and w.legal == [] and w.figures == []
    assert w.view["round"] == 1 and w.view["seat"] == 0
    assert w.undo_status["allowed"] is False
    assert w.record_text() == game.record(None, bots=w.table.bot_names)
    w.handle_message({"kind": "replay_seek", "index": 30})
    assert w.move_number == 30
    refused = act(w, {"type": "pass"})
    assert refused["ok"] is False and "read-only" in refused["error"]
    # Whose eyes the replay uses is the replay's: the live board keeps its seat.
    w.handle_message({"kind": "replay_seat", "seat": 1})
    assert w.view["seat"] == 1 and w.table.seat == 0
    # Back to the end screen: the game as it was.
    assert w.handle_message({"kind": "replay_leave"})["ok"] is True
    assert w.scrubber == {} and w.timeline == {} and w.seat == 0
    assert w.view == live_view and w.figures == live_figures
    assert game.to_dict() == before and w.game is game
    gone = w.handle_message({"kind": "replay_leave"})
    assert gone["ok"] is False and "unknown message kind" in gone["error"]


def test_analyse_my_game_replays_and_rates_the_seats_decisions() -> None:
    w = finished()
    assert w.handle_message({"kind": "replay", "analyse": True})["ok"] is True
    assert w.scrubber["analysing"]["seat"] == 0
    w.close()
    assert w.replaying is None  # closing stops the replay and its analysis


def test_a_replay_board_has_no_live_game_to_go_back_to() -> None:
    w = finished()
    board = lf.LangfingerWidget.replay(w.record_text(), seat=None)
    assert board.scrubber["can_leave"] is False
    reply = board.handle_message({"kind": "replay_leave"})
    assert reply["ok"] is False and "not made from a live game" in reply["error"]
    assert board.replaying is not None


@pytest.mark.parametrize("content", [{"kind": "replay", "analyse": "yes"},
                                     {"kind": "replay", "analyse": 1}])
def test_replay_refuses_a_bad_message(content: dict[str, Any]) -> None:
    w = finished()
    reply = w.handle_message(content)
    assert reply["ok"] is False and "analyse must be true or false" in reply["error"]
    assert w.replaying is None


def test_replay_waits_for_the_end_of_the_game() -> None:
    w = LangfingerWidget(players=3, seed=7, seat=0, autoplay=False)
    reply = w.handle_message({"kind": "replay"})
    assert reply["ok"] is False and reply["error"].startswith("R10.1")
    assert w.replaying is None
