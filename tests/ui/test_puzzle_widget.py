"""The puzzle on the board: the widget's ``puzzle`` trait and its two intents.

The reader plays on a LangfingerWidget (``Puzzle.widget()`` or
``session.attach(w)``); the board's panel shows the puzzle, its live status
and the hints asked for so far. Every message here is sent as the page would
send it, or forged as a hostile page might.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from rules_kit import act

pytest.importorskip("anywidget")

import langfinger_widget as lf
from langfinger_widget.puzzles import PUZZLES, Puzzle, PuzzleSession
from langfinger_widget.ui.widget import LangfingerWidget

IDS = [p.name for p in PUZZLES]
PANEL_KEYS = {
    "name", "goal", "difficulty", "rule", "story", "seat", "status", "state", "solved",
    "over", "moves", "hints", "hints_left", "told",
}  # fmt: skip


def by_name(name: str) -> Puzzle:
    return next(p for p in PUZZLES if p.name == name)


def traits(w: LangfingerWidget) -> str:
    """Everything the widget syncs to the page, as the page would receive it."""
    return json.dumps(w.get_state(), sort_keys=True, default=str)


@pytest.fixture
def cash() -> Iterator[LangfingerWidget]:
    w: LangfingerWidget = PUZZLES[0].widget()
    yield w
    w.close()


def test_the_panel_shows_the_puzzle_and_only_what_the_seat_may_see(cash: LangfingerWidget) -> None:
    p = PUZZLES[0]
    panel = cash.puzzle
    assert set(panel) == PANEL_KEYS
    assert (panel["name"], panel["goal"], panel["difficulty"], panel["rule"]) == (
        p.name, str(p.goal), p.difficulty, p.rule,
    )  # fmt: skip
    assert panel["status"] == f"Not yet: {p.goal}" and panel["state"] == "playing"
    assert panel["solved"] is False and panel["hints"] == [] and panel["hints_left"] == len(p.hints)
    # The rivals are the puzzle's: one human seat, no bots, no hot-seat hand-over.
    assert cash.seat == p.seat and cash.human_seats == [p.seat] and cash.bots == {}
    session = cash.puzzle_session
    assert isinstance(session, PuzzleSession) and session.puzzle is p


@pytest.mark.parametrize("puzzle", PUZZLES, ids=IDS)
def test_no_trait_leaks_the_solution_or_an_unasked_hint(puzzle: Puzzle) -> None:
    w = puzzle.widget()
    synced = traits(w)
    assert "solution" not in synced
    for hint in puzzle.hints:
        assert json.dumps(hint)[1:-1] not in synced
    # The panel holds words only: no action of any kind, so no move of the solution.
    panel_text = json.dumps(w.puzzle)
    assert '"type"' not in panel_text and '"slot"' not in panel_text
    # Asking for the first hint reveals it, and only it.
    w.handle_message({"kind": "puzzle_hint"})
    synced = traits(w)
    assert json.dumps(puzzle.hints[0])[1:-1] in synced
    for hint in puzzle.hints[1:]:
        assert json.dumps(hint)[1:-1] not in synced
    w.close()


def test_hints_are_revealed_one_at_a_time_in_order(cash: LangfingerWidget) -> None:
    hints = PUZZLES[0].hints
    for k in range(1, len(hints) + 1):
        reply = cash.handle_message({"kind": "puzzle_hint"})
        assert reply == {"kind": "puzzle_hint", "hint": hints[k - 1], "error": ""}
        assert cash.puzzle["hints"] == list(hints[:k])
        assert cash.puzzle["hints_left"] == len(hints) - k
    # Past the last hint the button is spent: nothing changes and no error banner.
    before = dict(cash.puzzle)
    reply = cash.handle_message({"kind": "puzzle_hint"})
    assert reply["hint"] is None and "every hint" in reply["error"]
    assert cash.puzzle == before and cash.error == ""


def test_a_hint_asked_from_python_shows_on_the_board_too() -> None:
    p = by_name("One hammer short")
    session = p.session()
    w = session.attach(LangfingerWidget(game=session.game, seat=p.seat, bots={}))
    assert session.hint() == p.hints[0]
    assert w.puzzle["hints"] == [p.hints[0]] and w.puzzle["hints_left"] == len(p.hints) - 1
    w.close()


def test_status_after_each_move_of_the_solution(cash: LangfingerWidget) -> None:
    p = PUZZLES[0]
    first, last = p.solution
    assert act(cash, first)["ok"]
    assert cash.puzzle["state"] == "playing" and cash.puzzle["status"].startswith("Not yet: ")
    assert cash.puzzle["moves"] == 1
    assert act(cash, last)["ok"]
    assert cash.puzzle["solved"] is True and cash.puzzle["state"] == "solved"
    assert cash.puzzle["status"] == f"Solved! You {p.goal}."
    assert cash.puzzle["over"] is True and cash.legal == []  # nothing left to play


def test_status_after_a_wrong_plan_gives_the_figures(cash: LangfingerWidget) -> None:
    assert act(cash, {"type": "pass"})["ok"]
    assert cash.puzzle["state"] == "playing"
    assert act(cash, {"type": "pass"})["ok"]
    assert cash.puzzle["solved"] is False and cash.puzzle["state"] == "failed"
    assert cash.puzzle["status"] == (
        "Not solved: goal not reached: you end the round with 18 money, not 20. Try again?"
    )


def test_an_illegal_move_names_the_ruling_until_the_next_move(cash: LangfingerWidget) -> None:
    steal = {"type": "steal", "slot": 0, "pay": ["map"], "scoundrel": False}
    reply = act(cash, steal)
    assert not reply["ok"] and reply["error"].startswith("R5.1")
    assert cash.game.history == []  # refused: untouched
    assert cash.puzzle["state"] == "illegal"
    assert cash.puzzle["status"] == f"Illegal: {reply['error']}"
    assert act(cash, PUZZLES[0].solution[0])["ok"]
    assert cash.puzzle["state"] == "playing"


def test_an_illegal_move_from_python_shows_too() -> None:
    p = PUZZLES[0]
    w = p.widget()
    with pytest.raises(lf.IllegalAction):
        w.puzzle_session.play({"type": "sell", "fence": "F01", "loot": []})
    assert w.puzzle["state"] == "illegal" and w.puzzle["status"].startswith("Illegal: ")
    w.close()


def test_try_again_resets_to_the_position_and_keeps_the_hints(cash: LangfingerWidget) -> None:
    start = cash.game.notation()
    cash.handle_message({"kind": "puzzle_hint"})
    act(cash, {"type": "pass"})
    act(cash, {"type": "pass"})
    assert cash.puzzle["state"] == "failed"
    reply = cash.handle_message({"kind": "puzzle_reset"})
    assert reply == {"kind": "result", "ok": True, "error": ""}
    assert cash.game.notation() == start and cash.move_number == 0
    assert cash.puzzle["state"] == "playing" and cash.puzzle["moves"] == 0
    assert cash.puzzle["hints"] == [PUZZLES[0].hints[0]]
    session = cash.puzzle_session
    assert isinstance(session, PuzzleSession) and session.game is cash.game
    for action in PUZZLES[0].solution:
        assert act(cash, action)["ok"]
    assert cash.puzzle["solved"] is True


def test_try_again_replays_a_rival_who_moves_first() -> None:
    p = by_name("Closed squares")  # Bobby exchanges at the Ruin before Hans
    w = p.widget()
    opening = list(w.game.history)
    assert opening == list(p.opponents)[:1] and w.game.to_move == p.seat
    act(w, p.solution[0])
    w.handle_message({"kind": "puzzle_reset"})
    assert w.game.history == opening and w.game.to_move == p.seat
    for action in p.solution:
        assert act(w, action)["ok"], w.error
    assert w.puzzle["solved"] is True
    w.close()


def test_undo_on_the_board_takes_back_the_rivals_answer_too() -> None:
    p = by_name("First come")
    w = p.widget()
    act(w, p.solution[0])
    assert len(w.game.history) > 1 and w.puzzle["moves"] == 1  # Tommaso answered
    assert w.handle_message({"kind": "undo"})["ok"]
    assert w.game.history == [] and w.puzzle["moves"] == 0 and w.puzzle["state"] == "playing"
    w.close()


def test_an_adversarial_puzzle_on_the_board() -> None:
    p = by_name("Burn the fence")
    w = p.widget()
    act(w, {"type": "sell", "fence": "F02", "loot": ["L09"]})  # leaves the statue fence to her
    assert w.puzzle["state"] == "failed" and "Yoshiko sold at the Harbor" in w.puzzle["status"]
    w.handle_message({"kind": "puzzle_reset"})
    act(w, p.solution[0])
    assert w.puzzle["solved"] is True
    w.close()


@pytest.mark.parametrize("puzzle", PUZZLES, ids=IDS)
def test_every_solution_clicked_on_the_board_is_solved(puzzle: Puzzle) -> None:
    w = puzzle.widget()
    for action in puzzle.solution:
        reply = act(w, action)
        assert reply["ok"], reply
        assert w.puzzle["solved"] is (action is puzzle.solution[-1])
    assert w.puzzle["status"].startswith("Solved!")
    w.close()


# --- forged and out-of-place messages ----------------------------------------------------


@pytest.mark.parametrize("kind", ["puzzle_hint", "puzzle_reset"])
def test_puzzle_intents_on_a_normal_board_are_refused(kind: str) -> None:
    w = LangfingerWidget(players=2, seed=1, bots={}, autoplay=False)
    w.play({"type": "place", "place": "city"})
    before = w.game.to_dict()
    reply = w.handle_message({"kind": kind})
    assert reply["ok"] is False and "not playing a puzzle" in reply["error"]
    assert w.game.to_dict() == before and w.puzzle == {}
    w.close()


@pytest.mark.parametrize(
    "extra",
    [{"hint": "mine"}, {"n": 99}, {"hints": ["x"]}, {"seat": 1}, {"solution": True}],
)
def test_forged_fields_in_a_hint_request_change_nothing_else(
    cash: LangfingerWidget, extra: dict[str, Any]
) -> None:
    reply = cash.handle_message({"kind": "puzzle_hint", **extra})
    assert reply["hint"] == PUZZLES[0].hints[0]
    assert cash.puzzle["hints"] == [PUZZLES[0].hints[0]]  # exactly one, the first


def test_the_search_hint_and_new_game_do_not_break_a_puzzle(cash: LangfingerWidget) -> None:
    start = cash.game.notation()
    hint = cash.handle_message({"kind": "hint"})
    assert hint["action"] is None and "its own hints" in hint["error"] and cash.hint == {}
    refused = cash.handle_message({"kind": "new_game"})
    assert refused["ok"] is False and "Try again" in refused["error"]
    assert cash.game.notation() == start and cash.puzzle["name"] == PUZZLES[0].name


def test_a_rival_seat_cannot_be_taken_or_played(cash: LangfingerWidget) -> None:
    reveal = cash.handle_message({"kind": "reveal", "seat": 1})
    assert reveal["ok"] is False and cash.seat == 0
    forged = cash.handle_message({"kind": "act", "action": {"type": "pass"}, "seat": 1,
                                  "move": 0, "version": 0})
    assert forged["ok"] is False and "wrong seat" in forged["error"]
    assert cash.game.history == []


def test_after_the_round_the_board_takes_no_more_moves() -> None:
    p = by_name("Two for one")  # the game goes on after the round: the reader may be next
    w = p.widget()
    act(w, p.solution[0])
    assert w.puzzle["solved"] is True and w.legal == []
    reply = act(w, {"type": "place", "place": "city"})
    assert reply["ok"] is False and "the puzzle is over" in reply["error"]
    assert w.puzzle["solved"] is True  # a refused move after the end does not unsolve it
    w.close()


def test_a_failed_verdict_stays_when_a_move_is_tried_after_the_round() -> None:
    p = by_name("Two for one")
    w = p.widget()
    act(w, {"type": "sell", "fence": "F02", "loot": ["L08"]})
    verdict = dict(w.puzzle)
    assert verdict["state"] == "failed" and verdict["over"] is True
    reply = act(w, {"type": "place", "place": "city"})
    assert reply["ok"] is False and w.puzzle == verdict
    w.close()


def test_attach_keeps_the_old_callback_and_dismisses_the_bots() -> None:
    p = PUZZLES[0]
    session = p.session()
    seen: list[Any] = []
    w = LangfingerWidget(game=session.game, seat=p.seat, autoplay=False)  # default bots: greedy
    assert w.bots
    assert session.attach(w, on_status=seen.append) is w
    assert w.bots == {} and w.human_seats == [p.seat]
    for action in p.solution:
        act(w, action)
    assert seen[-1].solved and w.puzzle["solved"] is True
    w.close()


@pytest.mark.parametrize("puzzle", PUZZLES, ids=IDS)
def test_the_board_stops_at_the_puzzles_round_end(puzzle: Puzzle) -> None:
    """A puzzle ends with its round (issue 28): once solved, the board shows the position as
    the round ended, not the next round's refill; the log stops there too; Undo goes back."""
    w = puzzle.widget()
    try:
        start_round = w.view["round"]
        for action in puzzle.solution:
            act(w, action)
        assert w.puzzle["solved"] and w.puzzle["over"], w.puzzle["status"]
        view = w.view
        assert view["round"] == start_round and view["to_move"] is None and w.legal == []
        assert all(set(row) == {None} for row in view["squares"].values())  # every token acted
        kinds = [e["type"] for e in w.events]
        assert "start_player" not in kinds[-3:] and kinds[-1] not in ("refill", "reshuffle")
        if w.game.is_over:  # R10.1: someone reached 20; nothing was refilled anyway
            # the seat's view, with the fronts the puzzle tells (R11.1, puzzles/sight.py)
            assert view == w.puzzle_session.shown(w.game.view(w.seat)) and view["is_over"]
        else:  # the game itself went on to the next round; the board does not
            assert w.game.round == start_round + 1 and view["phase"] == "act"
            assert not view["is_over"] and view["decision"] is None
            assert view["money_by_round"] == w.game.view(w.seat)["money_by_round"]
            assert [p["money"] for p in view["players"]] == w.game.money
        w.undo()
        assert not w.puzzle["over"] and w.legal
        assert w.view == w.puzzle_session.shown(w.game.view(w.seat))
    finally:
        w.close()
