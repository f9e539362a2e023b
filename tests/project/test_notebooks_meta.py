"""The tutorial notebooks as files: complete, stored clean, self-checking, in our own words.

Running them is nbval's job (``pytest --nbval-lax notebooks/``); this module checks
what nbval cannot see: that outputs were cleared before committing, that every
lesson scripts its position, shows the widget and asserts what its text claims,
that no sentence was lifted from the rulebooks in ``../shared/rules``, and that "Run
All" on the quickstart leaves the reader's own game waiting for them.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from rules_kit import copied_from_rulebook, rulebook_shingles

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
TUTORIAL = [
    "00_quickstart", "01_setup", "02_placing", "03_city", "04_villa_and_museum", "05_ruin",
    "06_harbor", "07_round_and_game_end", "08_rulebook_examples",
    # Crooks (docs/crooks.md), on the same lesson machinery (lf.lessons.check).
    "13_crooks_setup_and_a_turn", "14_crooks_specials", "15_crooks_scoring",
    # Oh My Goods! (docs/goods.md), the same way; its positions come from lf.lessons.goods_turn.
    "16_goods_setup_and_a_round", "17_goods_production_and_chains",
    "18_goods_building_assistants_and_scoring",
]
# The setup lessons deal a game by its seed instead of scripting a position.
DEALT = ("01_setup", "13_crooks_setup_and_a_turn")
# Where the rule texts live in the development checkout; absent in a bare clone.


def _load(name: str) -> nbformat.NotebookNode:
    return nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)


def _code(nb: nbformat.NotebookNode) -> str:
    return "\n".join(c.source for c in nb.cells if c.cell_type == "code")


def _markdown(nb: nbformat.NotebookNode) -> str:
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def test_every_tutorial_notebook_is_there() -> None:
    present = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))
    missing = sorted(set(TUTORIAL) - set(present))
    assert not missing, f"missing notebooks: {missing}"


@pytest.mark.parametrize("name", TUTORIAL)
def test_stored_valid_and_without_outputs(name: str) -> None:
    nb = _load(name)
    nbformat.validate(nb)
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"
    dirty = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"
             and (c.outputs or c.execution_count is not None)]
    assert not dirty, f"{name}: cells {dirty} carry outputs; clear them before committing"
    assert "widgets" not in nb.metadata, f"{name}: saved widget state; clear it"


@pytest.mark.parametrize("name", TUTORIAL)
def test_opens_with_a_title_and_teaches_in_text(name: str) -> None:
    nb = _load(name)
    first = nb.cells[0]
    assert first.cell_type == "markdown" and first.source.startswith("# ")
    words = len(_markdown(nb).split())
    assert words >= 80, f"{name}: only {words} words of explanation"


@pytest.mark.parametrize("name", TUTORIAL[1:])
def test_lessons_script_show_and_check(name: str) -> None:
    """Every lesson after the quickstart scripts a position (except the setup, which deals
    games), shows the live widget on it (the rulebook's example: a replay board), plays
    from Python on a copy and asserts the outcome."""
    code = _code(_load(name))
    board = "lf.LangfingerWidget.replay(" if name == "08_rulebook_examples" else \
        "lf.LangfingerWidget(game="
    assert board in code, f"{name}: no widget on a scripted game"
    if name not in DEALT:
        assert "Position(" in code or "Game.from_dict(" in code, f"{name}: no scripted position"
        assert ".play(" in code, f"{name}: no move played from Python"
    assert len(re.findall(r"^\s*assert ", code, re.M)) >= 3, f"{name}: too few checks"


def _boards(code: str) -> list[str]:
    return re.findall(r"^(\w+) = lf\.LangfingerWidget[.(]", code, re.M)


@pytest.mark.parametrize("name", TUTORIAL[1:])
def test_lessons_leave_the_learners_board_alone(name: str) -> None:
    """No cell resets the learner's board or plays on it: the learner makes the step, a
    check cell reads it (lf.lessons.check; on the replay board, where the scrubber is)."""
    code = _code(_load(name))
    boards = _boards(code)
    assert boards, f"{name}: no board"
    for b in boards:
        touched = re.findall(rf"\b{b}\.(game\s*=|play\(|undo\(|new_game\(|step_bots\(|"
                             r"replaying\.(seek|step|play|round_start)\()", code)
        assert not touched, f"{name}: a cell changes the learner's board {b}: {touched}"
    if name == "08_rulebook_examples":
        assert "where(r)" in code
    else:
        for b in boards:
            assert re.search(rf"^check\({b}, ", code, re.M), f"{name}: nothing checks {b}"


@pytest.mark.parametrize("name", TUTORIAL[1:])
def test_run_all_waits_for_the_learner(name: str) -> None:
    """Run All (as nbval does) makes no move on any board, and every check waits for the
    learner instead of playing for them."""
    from langfinger_widget.ui.lessons import Verdict
    from langfinger_widget.ui.widget import LangfingerWidget

    namespace: dict[str, object] = {}
    verdicts: list[Verdict] = []
    for cell in _load(name).cells:
        if cell.cell_type != "code":
            continue
        lines = cell.source.rstrip().splitlines()
        if lines and lines[-1].startswith("check("):
            lines[-1] = "_verdicts.append(" + lines[-1] + ")"
        namespace["_verdicts"] = verdicts
        exec(compile("\n".join(lines), f"{name}", "exec"), namespace)
    boards = [v for v in namespace.values() if isinstance(v, LangfingerWidget)]
    assert boards
    for board in boards:
        replay = getattr(board, "replaying", None)
        assert board.game.move_number == 0 if replay is None else replay.index == 0
        board.close()
    assert all(v.state == "waiting" for v in verdicts), verdicts
    assert verdicts or name == "08_rulebook_examples", f"{name}: no check ran"


def test_the_puzzle_book_gives_nothing_away() -> None:
    """Run All shows each puzzle on its own board, reads the boards (every verdict waits for
    the reader) and plays no solution: the answers stay behind buttons nobody pressed."""
    from langfinger_widget.puzzles import PUZZLES
    from langfinger_widget.ui.widget import LangfingerWidget

    nb = _load("09_puzzles")
    code = _code(nb)
    assert not re.search(r"(book\[[^]]+\]|PUZZLES\[\d+\])\.solution", code) and "solve(" not in code
    namespace: dict[str, object] = {}
    shown: list[str] = []
    for cell in nb.cells:
        if cell.cell_type == "code":
            namespace["print"] = lambda *args: shown.append(" ".join(map(str, args)))
            exec(compile(cell.source, "09_puzzles", "exec"), namespace)
    boards = [v for v in namespace.values() if isinstance(v, LangfingerWidget)]
    names = [b.puzzle["name"] for b in boards if b.puzzle]
    assert set(names) == {p.name for p in PUZZLES}  # a board each (and the hints' demo board)
    # Each board is where the puzzle starts (the rivals' first answers included); the demo
    # board of the hints passed twice and started again.
    for b in boards:
        assert b.puzzle_session.moves == []
        assert b.game.state == b.puzzle_session.puzzle.session().game.state
    waiting = [line for line in shown if line.startswith("… Play the puzzle")]
    assert len(waiting) == len(PUZZLES)
    for b in boards:
        b.close()


def test_quickstart_is_three_code_cells_against_two_bots() -> None:
    nb = _load("00_quickstart")
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert len(code) == 3
    # The README's default bots, and a new deal each run unless a seed is given.
    assert re.search(r"bots=\{1: \"medium\", 2: \"medium\"\}", code[1])
    assert "seed=" not in code[1]


# Appended to the quickstart after its own cells, in the same kernel.
_STILL_YOUR_GAME = """
assert w.wait_for_bots(), "the bots of the quickstart's board did not settle"
g = w.game
assert not g.is_over, "Run All played the reader's game to its end"
assert g.to_move == 0 and w.legal, f"the board waits for seat {g.to_move}, not the reader's seat 0"
mine = [e for e in g.log(0) if e["type"] == "place" and e.get("seat") == 0]
assert not mine, f"something placed seat 0's tokens: {mine}"
"""


def test_quickstart_run_all_leaves_your_game_waiting_for_you() -> None:
    """Run All (what nbval does too) must not let a bot play the reader's seat: the demo of a
    whole game runs on a headless game of its own."""
    from nbclient import NotebookClient

    nb = _load("00_quickstart")
    nb.cells.append(nbformat.v4.new_code_cell(_STILL_YOUR_GAME))
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={
        "metadata": {"path": str(NOTEBOOKS)}}).execute()


def test_next_notebook_references_exist() -> None:
    for name in TUTORIAL:
        for ref in re.findall(r"`(\d\d_[a-z_]+)`", _markdown(_load(name))):
            assert (NOTEBOOKS / f"{ref}.ipynb").exists(), f"{name} points to missing {ref}"


def test_no_rulebook_sentences() -> None:
    if not rulebook_shingles():
        pytest.skip("rule texts not available in this checkout")
    for name in TUTORIAL:
        copied = copied_from_rulebook(_markdown(_load(name)))
        assert not copied, f"{name} repeats the rulebook: {copied}"


# --- 10_replays: the replays notebook --------------------------------------------------------


def test_the_replays_notebook_follows_the_notebook_rules() -> None:
    """10_replays as the tutorial notebooks are held (above): stored clean, a
    title, enough words of its own, no sentence from the rulebooks; and it does what it says."""
    test_stored_valid_and_without_outputs("10_replays")
    test_opens_with_a_title_and_teaches_in_text("10_replays")
    nb = _load("10_replays")
    code = _code(nb)
    for call in ("game.record(", "lf.Game.from_record(", "lf.LangfingerWidget.replay(",
                 "lf.analyse(", "continue_from_here(", "make_puzzle("):
        assert call in code, call
    assert not copied_from_rulebook(_markdown(nb))
