"""lf.lessons: the tutorials' checks read the learner's board, never change it, and say in
plain words what was played and whether it was the lesson's step."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("anywidget")

import langfinger_widget as lf
from langfinger_widget.kernel.game import Game
from langfinger_widget.puzzles import PUZZLES
from langfinger_widget.ui import lessons

CITY = {"type": "place", "place": "city"}


def city_first(move: dict[str, Any], after: Game) -> tuple[bool, str]:
    return move == CITY, "The City acts first (R3.1)."


def test_a_check_waits_then_judges_the_learners_move_without_touching_the_board() -> None:
    w = lf.LangfingerWidget(game=lf.Game.new(players=2, seed=4, start_player=0), seat=None,
                            bots={})
    try:
        waiting = lessons.check(w, city_first)
        assert waiting.state == "waiting" and waiting.move is None
        assert str(waiting) == f"… {lessons.WAITING}"
        w.play(CITY)  # the learner's click
        version = w.game.version
        verdict = lessons.check(w, city_first)
        assert verdict.right and verdict.move == CITY
        assert str(verdict) == ("✓ Right: Pascal puts a token on the City. "
                                "The City acts first (R3.1).")
        assert w.game.version == version and w.game.move_number == 1  # only read
        w.play({"type": "place", "place": "ruin"})
        second = lessons.check(w, city_first, step=2)
        assert second.state == "wrong" and str(second).startswith("✗ Not quite: Hans puts")
        assert lessons.check(w, city_first, seat=1).state == "wrong"
        assert lessons.check(w, city_first, seat=0, step=2).state == "waiting"
        assert lessons.moves(w) == [CITY, {"type": "place", "place": "ruin"}]
        assert lessons.moves(w, seat=1) == [{"type": "place", "place": "ruin"}]
    finally:
        w.close()


def test_the_judge_sees_the_game_right_after_the_move() -> None:
    g = lf.Game.new(players=2, seed=4, start_player=0)
    for place in ("city", "ruin", "villa"):
        g.play({"type": "place", "place": place})
    seen: list[int] = []

    def count(move: dict[str, Any], after: Game) -> tuple[bool, str]:
        seen.append(after.move_number)
        return True, ""

    lessons.check(g, count, step=2)
    assert seen == [2] and g.move_number == 3


def test_a_puzzle_verdict_waits_for_the_round_then_says_solved_with_the_moves() -> None:
    puzzle = next(p for p in PUZZLES if p.name == "One hammer short")
    w = puzzle.widget()
    try:
        assert lessons.puzzle_verdict(w).state == "waiting"
        for action in puzzle.solution:
            w.play(action)
        verdict = lessons.puzzle_verdict(w)
        assert verdict.right and str(verdict).startswith("✓ Solved! Hans steals a pillar")
        assert "sells a painting worth 4" in verdict.text
    finally:
        w.close()
    failed = puzzle.widget()
    try:
        while not failed.puzzle_session.over:
            failed.play({"type": "pass"})
        verdict = lessons.puzzle_verdict(failed)
        assert verdict.state == "wrong" and "goal not reached" in verdict.text
        assert "Hans passes at the Museum." in verdict.text
    finally:
        failed.close()


def test_a_board_without_a_puzzle_has_no_puzzle_verdict() -> None:
    w = lf.LangfingerWidget(players=2, seed=1, seat=None, bots={})
    try:
        with pytest.raises(ValueError, match="no puzzle"):
            lessons.puzzle_verdict(w)
    finally:
        w.close()


@pytest.mark.parametrize("puzzle", PUZZLES, ids=[p.name for p in PUZZLES])
def test_the_solution_in_words_is_one_sentence_a_move(puzzle: Any) -> None:
    said = lessons.solution_words(puzzle)
    assert len(said) == len(puzzle.solution)
    assert all(s.endswith(".") and "_" not in s and "[" not in s for s in said), said


def test_the_solution_shows_only_when_its_button_is_pressed() -> None:
    puzzle = PUZZLES[0]
    box = lessons.solution_button(puzzle)
    button, shown = box.children
    assert shown.value == "" and not button.disabled
    button.click()
    assert shown.value.startswith("<ol><li>Hans steals") and "only plan" in shown.value
    assert button.disabled


def test_a_check_that_waits_says_what_is_still_missing() -> None:
    """Issue 40: not the generic "make your move" once some of the step's moves are made."""
    g = lf.Game.new(players=2, seed=4, start_player=0)
    assert lessons.check(g, city_first, step=3).text == lessons.WAITING
    g.play(CITY)
    said = lessons.check(g, city_first, step=3).text
    assert said.startswith("2 more moves to make on the board above (1 of 3 made)"), said
    g.play({"type": "place", "place": "ruin"})
    assert lessons.check(g, city_first, step=3).text.startswith("1 more move to make")
    lesson = lessons.check(g, city_first, step=3, waiting="Not every token is down yet.")
    assert lesson.state == "waiting" and lesson.text == "Not every token is down yet."


def test_the_placing_lessons_check_names_what_is_missing() -> None:
    """notebooks/02_placing's check of the whole placing, run halfway through."""
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).parents[2] / "notebooks" / "02_placing.ipynb").read_text())
    source = next("".join(c["source"]) for c in nb["cells"]
                  if "check(w, all_down" in "".join(c["source"]))
    assert "Not every token is down yet" in source.split("check(w, all_down")[1]


# --- Crooks (notebooks/13-15): the same checks on a Crooks board --------------------------

RECRUIT_A = {"type": "recruit", "hangout": "A"}


def test_a_crooks_board_is_checked_the_same_way_and_said_in_its_words() -> None:
    w = lf.LangfingerWidget(game=lf.crooks.Game.new(players=2, seed=1, start_player=0),
                            seat=None, bots={})
    try:
        def recruit_a(move: dict[str, Any], after: Any) -> tuple[bool, str]:
            return move == RECRUIT_A, f"C3.1: ${after.cash[0]} left."

        assert lessons.check(w, recruit_a).state == "waiting"
        w.play(RECRUIT_A)
        verdict = lessons.check(w, recruit_a)
        assert str(verdict) == "✓ Right: Player 1: recruit A. C3.1: $16 left."
        assert w.game.move_number == 1 and lessons.moves(w) == [RECRUIT_A]
    finally:
        w.close()


def _lesson(name: str) -> tuple[dict[str, Any], dict[str, str]]:
    """Runs a notebook's cells (as Run All does); returns its namespace and, for each board,
    its check line."""
    from pathlib import Path

    import nbformat

    nb = nbformat.read(Path(__file__).parents[2] / "notebooks" / f"{name}.ipynb", as_version=4)
    namespace: dict[str, Any] = {}
    checks: dict[str, str] = {}
    for cell in nb.cells:
        if cell.cell_type == "code":
            exec(compile(cell.source, name, "exec"), namespace)
            last = cell.source.rstrip().splitlines()[-1]
            if last.startswith("check("):
                checks[last[len("check("):].split(",")[0]] = cell.source
    return namespace, checks


CROOKS_LESSONS = {
    "13_crooks_setup_and_a_turn": {"w": [RECRUIT_A, {"type": "keep", "crook": "K08"},
                                         {"type": "place", "target": 9, "face": "down",
                                          "effect": False}]},
    "14_crooks_specials": {
        board: [{"type": "recruit", "hangout": h}, {"type": "keep", "crook": k},
                {"type": "place", "target": t, "face": "up", "effect": True}, *more]
        for board, h, k, t, more in [
            ("pick", "A", "K31", 2, []), ("accomplice", "B", "K26", 5, []),
            ("switch", "C", "K24", 5, [{"type": "switch", "to": 4}]),
            ("killer", "D", "K22", 7, [{"type": "kill", "seat": 1}]),
            ("kingpin", "E", "K01", 9, []),
            ("spy", "F", "K29", 2, [{"type": "spy", "target": 9}])]},
    "15_crooks_scoring": {"w": [RECRUIT_A, {"type": "keep", "crook": "K07"},
                                {"type": "place", "target": 9, "face": "up", "effect": False},
                                {"type": "pass"}]},
}


@pytest.mark.parametrize("name", CROOKS_LESSONS)
def test_the_crooks_lessons_checks_wait_then_take_the_lessons_line(name: str) -> None:
    """Each check cell of notebooks/13-15 waits under Run All, says what is missing halfway,
    and is right once the learner has played the lesson's line on the board."""
    namespace, checks = _lesson(name)
    lines = CROOKS_LESSONS[name]
    assert set(checks) == set(lines)
    try:
        for board, line in lines.items():
            for action in line:
                assert _verdict(namespace, checks[board]).state == "waiting"
                namespace[board].play(action)
            verdict = _verdict(namespace, checks[board])
            assert verdict.right, verdict
            assert "You:" in verdict.text and "C" in verdict.text
    finally:
        for board in lines:
            namespace[board].close()


def test_a_wrong_crooks_step_is_named_with_what_to_do() -> None:
    namespace, checks = _lesson("14_crooks_specials")
    try:
        for action in [{"type": "recruit", "hangout": "A"}, {"type": "keep", "crook": "K31"},
                       {"type": "place", "target": 2, "face": "down", "effect": False}]:
            namespace["pick"].play(action)
        verdict = _verdict(namespace, checks["pick"])
        assert verdict.state == "wrong" and "C4.3" in verdict.text and "Undo" in verdict.text
    finally:
        for board in CROOKS_LESSONS["14_crooks_specials"]:
            namespace[board].close()


def _verdict(namespace: dict[str, Any], cell: str) -> Any:
    """Runs a check cell again (as the learner does) and returns its verdict."""
    lines = cell.rstrip().splitlines()
    exec("\n".join(lines[:-1]), namespace)
    return eval(lines[-1], namespace)


def test_the_scoring_lesson_says_so_when_a_pass_ended_the_game_too_early() -> None:
    namespace, checks = _lesson("15_crooks_scoring")
    try:
        namespace["w"].play({"type": "pass"})
        verdict = _verdict(namespace, checks["w"])
        assert verdict.state == "waiting" and "never left hangout A" in verdict.text
    finally:
        namespace["w"].close()


# --- Oh My Goods! (notebooks/16-18): steps of no fixed length, judged by until= -------------

def _pay(*buildings: str) -> list[dict[str, Any]]:
    return [{"type": "pay", "building": b} for b in buildings]


def _chain(building: str, hand: list[str], goods: list[str]) -> dict[str, Any]:
    return {"type": "chain", "building": building, "hand": hand, "goods": goods}


DONE = {"type": "done"}
GOODS_LESSONS = {
    "16_goods_setup_and_a_round": {
        "w": [{"type": "keep"}, {"type": "keep"}],
        "plan": [{"type": "work", "building": "CB4", "mode": "sloppy"},
                 {"type": "plan_build", "card": "D08"}],
        "turn": [{"type": "produce", "building": "CB4"}, DONE, {"type": "build"},
                 *_pay("CB4", "CB4", "CB4", "CB4", "CB4")]},
    "17_goods_production_and_chains": {
        "mill": [{"type": "produce", "building": "D03"}, {"type": "supply", "card": "D09"}],
        "chain": [_chain("D03", ["D15"], []), _chain("D03", ["D42"], []), DONE],
        "bricks": [{"type": "produce", "building": "D26"}, _chain("D26", ["D07"], ["CB2"]),
                   _chain("D26", ["D16"], ["CB2"]), DONE]},
    "18_goods_building_assistants_and_scoring": {
        "build": [DONE, {"type": "build"}, *_pay("D24", "D24", "D03")],
        "hire": [DONE, {"type": "hire", "assistant": "A1"}, *_pay("D03", "D03"),
                 *_pay("CB2", "CB2", "CB2", "CB2"), {"type": "assign", "building": "D24"}],
        "end": [_chain("D03", ["D09"], []), _chain("D24", ["D07"], ["CB2"]),
                _chain("D61", ["D28"], []), DONE]},
}


@pytest.mark.parametrize("name", GOODS_LESSONS)
def test_the_goods_lessons_checks_wait_until_the_step_is_over_then_take_its_line(
        name: str) -> None:
    """Each check cell of notebooks/16-18 waits under Run All and all along the lesson's
    line (a payment or a chain is one small action each), and is right at its end, naming
    the seat and the rulings."""
    namespace, checks = _lesson(name)
    lines = GOODS_LESSONS[name]
    assert set(checks) == set(lines)
    try:
        for board, line in lines.items():
            for action in line:
                assert _verdict(namespace, checks[board]).state == "waiting", (board, action)
                namespace[board].play(action)
            verdict = _verdict(namespace, checks[board])
            assert verdict.right, (board, verdict)
            assert verdict.text.startswith(("Right: You:", "Right: Rose:")), verdict.text
            assert re.search(r"\(G\d\.\d+", verdict.text), verdict.text
    finally:
        for board in lines:
            namespace[board].close()


# A wrong way through a lesson, the count of Undo presses back to where it went wrong, and
# the lesson's line from there.
GOODS_MISTAKES = [
    ("16_goods_setup_and_a_round", "plan",
     [{"type": "work", "building": "CB4", "mode": "efficient"},
      {"type": "plan_build", "card": "D08"}], "G4.4", 2,
     [{"type": "work", "building": "CB4", "mode": "sloppy"},
      {"type": "plan_build", "card": "D08"}]),
    ("18_goods_building_assistants_and_scoring", "build",
     [DONE, {"type": "build"}, *_pay("D24", "D24", "D24")], "paid 9", 1, _pay("D03")),
    ("18_goods_building_assistants_and_scoring", "end",
     [_chain("D03", ["D09"], []), _chain("D24", ["D07"], ["CB2"]), _chain("CB2", ["D28"], []),
      DONE], "G5.3", 2, [_chain("D61", ["D28"], []), DONE]),
]


@pytest.mark.parametrize(("name", "board", "wrong", "said", "undos", "right"), GOODS_MISTAKES,
                         ids=[f"{m[0][:2]}-{m[1]}" for m in GOODS_MISTAKES])
def test_a_wrong_goods_step_is_named_and_the_boards_undo_leads_back_to_the_lesson(
        name: str, board: str, wrong: list[dict[str, Any]], said: str, undos: int,
        right: list[dict[str, Any]]) -> None:
    namespace, checks = _lesson(name)
    w = namespace[board]
    try:
        for action in wrong:
            w.play(action)
        verdict = _verdict(namespace, checks[board])
        assert verdict.state == "wrong" and said in verdict.text and "Undo" in verdict.text
        for _ in range(undos):
            assert w.undo_status["allowed"], w.undo_status
            w.undo()
        for action in right:
            w.play(action)
        assert _verdict(namespace, checks[board]).right
    finally:
        for b in GOODS_LESSONS[name]:
            namespace[b].close()


def test_the_last_goods_lesson_ends_the_game_with_you_ahead() -> None:
    """notebooks/18's last board: after the check's step, ending the turn ends the game, and
    the standings the board shows agree with the check (G5.2, G5.3)."""
    namespace, checks = _lesson("18_goods_building_assistants_and_scoring")
    end = namespace["end"]
    try:
        for action in [*GOODS_LESSONS["18_goods_building_assistants_and_scoring"]["end"], DONE]:
            end.play(action)
        assert end.game.is_over and end.game.winners == [0]
        assert end.view["standings"] == end.game.standings()
        assert _verdict(namespace, checks["end"]).right
    finally:
        for b in GOODS_LESSONS["18_goods_building_assistants_and_scoring"]:
            namespace[b].close()
