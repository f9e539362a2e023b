"""The widget plays Oh My Goods! by name (issue 38).

``lf.LangfingerWidget(game="goods", ...)`` deals a new game and syncs the seat's
``goods-view/1`` view, its legal actions while it decides (several seats decide at once in a
sealed step), and its redacted log. Intents from the page are checked as for the other games:
a forged one is refused naming the ruling and changes nothing. At a hot seat every planner
plans in turn behind the privacy screen, and the plans are revealed together (G6.1, G6.2).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from rules_kit import act, rulings_index

import langfinger_widget as lf
from langfinger_widget import games

ROOT = Path(__file__).resolve().parents[2]


def goods_widget(**kwargs: object) -> lf.LangfingerWidget:
    options: dict[str, object] = {"players": 3, "seed": 7, "seat": 0,
                                  "bots": {1: "greedy", 2: "random"}, "autoplay": False}
    options.update(kwargs)
    return lf.LangfingerWidget(game="goods", **options)  # type: ignore[arg-type]


def test_a_goods_board_syncs_the_seats_view_legal_actions_and_log() -> None:
    w = goods_widget()
    assert w.view["format"] == "goods-view/1"
    assert w.setup["game"] == "goods"
    assert {g["name"] for g in w.setup["games"]} >= {"langfinger", "crooks", "goods"}
    w.step_bots()
    assert w.view == w.game.view(0)
    assert w.events == w.game.log(0)[-30:]
    assert 0 in w.game.to_decide and w.legal == w.game.legal_actions(0)  # a sealed step
    w.close()


def test_clicks_play_a_whole_game_and_no_other_hand_or_sealed_plan_reaches_the_traits() -> None:
    w = goods_widget()
    rng = random.Random(3)
    for _ in range(3000):
        w.step_bots()
        if w.game.is_over:
            break
        assert 0 in w.game.to_decide and w.legal == w.game.legal_actions(0)
        for other in w.view["players"][1:]:
            assert other["hand"] is None and other["plan"] is None and other["planned"] is None
        reply = act(w, rng.choice(w.legal))
        assert reply == {"kind": "result", "ok": True, "error": ""}, reply
    assert w.game.is_over
    assert w.view["standings"] == w.game.standings() and w.view["standings"]
    assert w.legal == []
    w.close()


def test_a_forged_intent_is_refused_naming_the_ruling_and_changes_nothing() -> None:
    w = goods_widget(seed=3)
    w.step_bots()
    assert act(w, {"type": "keep"})["ok"]
    w.step_bots()
    assert w.game.phase == "plan" and 0 in w.game.to_decide
    before, version, move = w.game.to_dict(), w.version, w.move_number
    # Planning a card before the Worker, a card of another seat's hand, a building not ours.
    theirs = w.game.to_dict()["hands"][1][0]
    for forged, ruling in (({"type": "plan_build", "card": theirs}, "G3.2"),
                           ({"type": "produce", "building": "CB1"}, "G3.2"),
                           ({"type": "work", "building": "D01", "mode": "lazy"}, "not an action")):
        reply = act(w, forged)
        assert not reply["ok"] and ruling in reply["error"], reply
        assert w.error == reply["error"]
        assert w.game.to_dict() == before and w.version == version and w.move_number == move
    why = w.handle_message({"kind": "why", "action": {"type": "plan_build", "card": theirs}})
    assert why["kind"] == "why" and why["reason"].startswith("G3.2")
    w.close()


def plan_steps(w: lf.LangfingerWidget, unseen: Any) -> None:
    """Plan the seat at the screen by clicks (Worker first, then a card or none), checking
    ``unseen()`` after every step but the seal."""
    seat = w.seat
    while True:
        choice = next((a for a in w.legal if a["type"] != "plan_build"), w.legal[0])
        sealing = choice["type"] == "plan_build"
        assert act(w, choice)["ok"]
        if sealing:
            assert seat not in w.game.to_decide
            return
        assert unseen()


def test_a_hot_seat_plans_behind_the_privacy_screen_and_reveals_every_plan_at_once() -> None:
    w = goods_widget(bots={2: "greedy"}, seed=5)
    assert w.human_seats == [0, 1]
    w.step_bots()
    # Phase I, sealed: seat 0 keeps; the board then waits for seat 1 to come to the screen.
    assert act(w, {"type": "keep"})["ok"]
    assert w.seat == 0 and w.legal == [] and 1 in w.game.to_decide
    assert not w.handle_message({"kind": "reveal", "seat": 2})["ok"]  # a bot's seat
    assert w.handle_message({"kind": "reveal", "seat": 1})["ok"]
    assert w.seat == 1 and w.view == w.game.view(1) and w.legal == [{"type": "keep"},
                                                                     {"type": "mulligan"}]
    assert act(w, {"type": "keep"})["ok"]
    w.step_bots()
    assert w.game.phase == "plan" and w.view["sealed"][:2] == [False, False]
    # Phase II: seat 1, at the screen, plans first. Its steps change nothing seat 0 may see
    # (G6.1) until it seals; then the board waits for seat 0 to come to the screen.
    assert w.game.phase == "plan" and 2 not in w.game.to_decide  # the bot has sealed
    assert w.seat == 1 and w.legal == w.game.legal_actions(1)
    seen_by_0 = (json.dumps(w.game.view(0)), json.dumps(w.game.log(0)))
    plan_steps(w, lambda: (json.dumps(w.game.view(0)), json.dumps(w.game.log(0))) == seen_by_0)
    assert w.legal == [] and w.game.to_decide == [0]
    assert all(p["revealed_plan"] is None for p in w.view["players"])
    assert w.view["players"][1]["sealed"] is True
    assert w.handle_message({"kind": "reveal", "seat": 0})["ok"]
    assert w.seat == 0 and w.legal == w.game.legal_actions(0)
    assert w.view["players"][1]["plan"] is None  # seat 1's sealed plan is not seat 0's to see
    plan_steps(w, lambda: all(p["revealed_plan"] is None for p in w.game.view(1)["players"]))
    # The last seal reveals every plan at once, to both people at the screen.
    assert w.game.phase == "production"
    for seat in (0, 1):
        assert all(p["revealed_plan"] is not None for p in w.game.view(seat)["players"])
    reveals = [e for e in w.game.log(0) if e["type"] == "reveal" and e.get("step") == "plan"]
    assert len(reveals) == 1 and len(reveals[0]["plans"]) == 3  # all at once, one event
    w.close()


def test_the_new_game_panel_deals_oh_my_goods_on_the_same_board() -> None:
    w = lf.LangfingerWidget(players=3, seed=1, seat=0, autoplay=False)
    reply = w.handle_message({"kind": "new_game", "game": "goods", "players": 2, "seat": 0,
                              "bots": {"1": "greedy"}, "seed": 4})
    assert reply["ok"], reply
    assert w.view["format"] == "goods-view/1" and w.view["num_players"] == 2
    assert w.setup["game"] == "goods"
    w.close()


def test_the_boards_rulings_are_the_docs_index_and_cover_every_citation() -> None:
    """The words the board shows for a cited ruling (G4.10) are docs/goods.md's rulings index
    (after editing it, write js/goods/rulings.json anew with ``rulings_index``), and every
    G-ruling the kernel can cite is there."""
    bundled = json.loads((ROOT / "js" / "goods" / "rulings.json").read_text(encoding="utf-8"))
    index = rulings_index((ROOT / "docs" / "goods.md").read_text(encoding="utf-8"), "G")
    assert bundled == index
    source = "".join(p.read_text(encoding="utf-8")
                     for p in (ROOT / "langfinger_widget" / "games" / "goods").glob("*.py"))
    cited = set(re.findall(r"\bG\d+\.\d+\b", source))
    assert cited and cited <= set(bundled), sorted(cited - set(bundled))


def test_the_boards_recorded_positions_have_the_kernels_shape() -> None:
    """js/__fixtures__/goods.json holds views the kernel sent once (make_goods_fixture.py):
    the board's tests stay honest only while those views have the shape the kernel sends."""
    fixtures = json.loads((ROOT / "js/__fixtures__/goods.json").read_text(encoding="utf-8"))
    game = games.get("goods").Game.new(players=3, seed=1)
    fresh = game.view(0)
    for name, recorded in fixtures.items():
        view = recorded["view"]
        assert set(view) == set(fresh), name
        assert set(view["players"][0]) == set(fresh["players"][0]), name
        for row in view["standings"] or []:
            assert row["score"] == sum(row["sources"].values()), name
    assert {"hand", "plan_work", "plan_build", "sealed_wait", "produce", "supply", "pay",
            "over"} <= set(fixtures)
