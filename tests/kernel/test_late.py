"""Issue 40: a square that comes too late is legal, and the kernel says so before the token
goes down (the placing decision's ``too_late``), in a sentence naming the ruling; the
analysis marks a token placed there."""

from __future__ import annotations

import langfinger_widget as lf
from langfinger_widget.kernel.builder import Position
from langfinger_widget.kernel.late import too_late

SIX = ("map", "map", "hammer", "lockpick", "welder", "pliers")


def city_behind_three() -> lf.Game:
    """Three tokens at the City, which shows six tools; Hans (seat 1) to place."""
    return (Position(players=["pascal", "hans", "tommaso"], seed=1)
            .city(*SIX).villa("L01", "L02").museum("L03", "L04").harbor("F01", "F02", "F03")
            .start_player(1).tokens("city", 1, 2, 0).build())


def test_the_city_behind_three_tokens_that_take_every_tool_is_too_late_but_legal() -> None:
    g = city_behind_three()
    late = g.view(1)["decision"]["too_late"]
    assert late == {"city": "The City's 6 tools will be gone before square 4 acts if the "
                            "3 tokens ahead each take two (R4)."}
    assert {"type": "place", "place": "city"} in g.legal_actions()  # allowed all the same
    assert g.view(0)["decision"]["too_late"] == g.view(None)["decision"]["too_late"]


def test_a_villa_behind_as_many_takers_as_cards_is_too_late_and_one_fewer_is_not() -> None:
    g = (Position(players=["pascal", "hans", "tommaso"], seed=1)
         .city(*SIX).villa("L01", "L02").start_player(1).tokens("villa", 1).build())
    assert "villa" not in g.view(None)["decision"]["too_late"]  # one taker, two cards
    g.play({"type": "place", "place": "villa"})  # Tommaso: now two takers for two cards
    said = g.view(None)["decision"]["too_late"]["villa"]
    assert said == ("The Villa's 2 cards will be gone before square 3 acts if the 2 tokens "
                    "ahead each steal one (R5.1).")
    assert "city" not in g.view(None)["decision"]["too_late"]  # six tools, nobody there yet


def test_an_empty_display_and_a_single_thing_are_said_plainly() -> None:
    g = (Position(players=["pascal", "hans"], seed=1).city("map").start_player(0)
         .tokens("harbor").build())
    late = g.view(None)["decision"]["too_late"]
    assert late["harbor"] == ("The Harbor shows no fences this round: a token there can only "
                              "pass (R8.3).")
    assert "city" not in late
    assert too_late(g.state, "city", ahead=1) == (
        "The City's only tool will be gone before square 2 acts if the token ahead takes two (R4).")
    assert too_late(g.state, "ruin") is None  # five exchange squares for five squares (R6.1)


def test_only_placing_has_a_warning() -> None:
    g = lf.Game.new(players=3, seed=2, start_player=0)
    while g.phase == "place":
        g.play({"type": "place", "place": "city"} if g.is_legal(
            {"type": "place", "place": "city"}) else g.legal_actions()[0])
    assert "too_late" not in (g.view(None)["decision"] or {})


def test_the_analysis_marks_a_token_placed_too_late() -> None:
    g = city_behind_three()
    g.play({"type": "place", "place": "city"})  # Hans takes square 4 all the same
    g.play({"type": "place", "place": "villa"})
    rows = lf.analyse(g.record(seat=None, date="2026-01-01"), 1, bot="ismcts", iterations=8,
                      progress=False)
    assert rows[0]["too_late"] is not None and rows[0]["too_late"].startswith("The City's 6 tools")
    assert all(r["too_late"] is None for r in rows[1:])
