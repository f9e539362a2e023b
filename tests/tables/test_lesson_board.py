"""Issue 40, item 3: a lesson's board forgives a mistake.

On the card-less board of notebooks/02_placing every action after the placing is a pass
that the board plays by itself (its auto-pass). Undo used to take back one of those passes,
which the board then played again: Undo looped. Undo now goes back to the last decision
that had a choice, and a lesson's board (``until``) holds at the end of its step instead of
running the round out.
"""

from __future__ import annotations

from typing import Any

import pytest

import langfinger_widget as lf
from langfinger_widget.kernel.builder import Position
from langfinger_widget.tables.scheduler import ManualScheduler
from langfinger_widget.tables.table import STEP_DONE, Table, TableError

PASS = {"type": "pass"}


def placing_lesson() -> lf.Game:
    """notebooks/02_placing's position: five tokens down, no card anywhere."""
    return (Position(players=["pascal", "hans", "tommaso"], seed=3)
            .start_player(1)
            .tokens("city", 1, 2, 0, 1)
            .tokens("museum", 2)
            .build())


def click(t: Table, action: dict[str, Any]) -> dict[str, Any]:
    """An intent as the board sends it, quoting the position it was chosen in."""
    return t.act({"action": action, "move": t.game.move_number, "version": t.game.version})


def place(t: Table, *places: str) -> None:
    for p in places:
        assert click(t, {"type": "place", "place": p})["ok"]


def test_the_game_records_which_decisions_had_a_choice() -> None:
    g = placing_lesson()
    for p in ("villa", "museum", "harbor", "villa"):
        g.play({"type": "place", "place": p})
    g.play(PASS)  # Hans at the empty City: a pass is all there is
    assert g.choices == [True, True, True, True, False]
    g.undo()
    assert g.choices == [True] * 4 and g.copy().choices == g.choices


def test_undo_on_the_open_board_steps_over_the_passes_the_board_played_by_itself() -> None:
    t = Table(placing_lesson(), seat=None, bots={}, scheduler=ManualScheduler())
    place(t, "villa", "museum", "harbor", "villa")  # a wrong first token, then the rest
    for _ in range(3):  # the board's auto-pass: the City, then the Villa, are empty
        assert t.game.legal_actions() == [PASS]
        assert click(t, PASS)["ok"]
    t.undo()
    # Back before the last token placed (Pascal's Villa), not before the last pass only.
    assert t.game.move_number == 3 and t.game.phase == "place" and t.game.to_move == 0
    t.undo()
    assert t.game.move_number == 2


def test_a_seats_undo_steps_over_its_own_automatic_passes() -> None:
    game = placing_lesson()
    t = Table(game, seat=0, bots={1: "random", 2: "random"}, pace=0,
              scheduler=ManualScheduler())
    place(t, "villa")
    t.step_bots()
    place(t, "harbor")
    t.step_bots()
    # The actions: the empty City and Villa give Pascal only passes, played for him.
    while t.game.to_move == 0 and t.game.legal_actions() == [PASS]:
        assert click(t, PASS)["ok"]
        t.step_bots()
    assert False in [c for c, s in zip(t.game.choices, t.game.deciders, strict=True) if s == 0]
    mine = [i for i, (c, s) in enumerate(zip(t.game.choices, t.game.deciders, strict=True))
            if s == 0 and c]
    if t.undo_refusal() is None:
        t.undo()
        assert t.game.move_number == mine[-1]  # his last real choice, not a pass
    else:  # a refill showed him cards since: R12.1 keeps it, and says so
        assert (t.undo_refusal() or "").startswith("R12")


def test_a_lesson_board_holds_where_its_step_ends_and_undo_reopens_it() -> None:
    t = Table(placing_lesson(), seat=None, bots={}, scheduler=ManualScheduler(), until="act")
    assert not t.step_done() and t.setup()["step_done"] == ""
    place(t, "villa", "museum", "harbor", "villa")
    # Every token is down: the lesson's step is over, so nothing passes by itself.
    assert t.game.phase == "act" and t.step_done()
    assert t.picture()["legal"] == [] and t.setup()["step_done"] == STEP_DONE
    refused = click(t, PASS)
    assert not refused["ok"] and "lesson's step is done" in refused["error"]
    assert t.game.move_number == 4
    t.undo()
    assert t.game.phase == "place" and t.picture()["legal"] and t.setup()["step_done"] == ""
    place(t, "city")
    assert t.step_done()


def test_a_lesson_board_holds_its_bots_too_and_a_new_deal_is_no_lesson() -> None:
    t = Table(placing_lesson(), seat=0, bots={1: "random", 2: "random"}, pace=0,
              scheduler=ManualScheduler(), until="act")
    place(t, "city")
    t.step_bots()  # Hans and Tommaso place their last tokens
    place(t, "villa")
    # Every token is down and Hans is first at the City: his bot waits with the lesson.
    assert t.game.phase == "act" and t.game.to_move == 1
    assert t.bot_to_move() is None and t.step_bots() == 0 and t.game.phase == "act"
    t.new_game({"seed": 1})
    assert t.until is None and not t.step_done()


@pytest.mark.parametrize("until", ["place", 3, "Round"])
def test_a_step_end_the_table_does_not_know_is_refused(until: Any) -> None:
    with pytest.raises(TableError, match="until must be one of"):
        Table(placing_lesson(), seat=None, bots={}, scheduler=ManualScheduler(), until=until)
