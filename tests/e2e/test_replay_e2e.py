"""A replay in a real JupyterLab: scrub it with the buttons, the keyboard and the money chart,
and see the board change with the kernel's position (issue 14)."""

from __future__ import annotations

import time

from playwright.sync_api import Locator, expect

from .lab import LabNotebook

CELL = (
    "import langfinger_widget as lf\n"
    "g = lf.Game.new(players=3, seed=5, start_player=0)\n"
    "bots = [lf.bots.make('greedy', seed=s) for s in range(3)]\n"
    "while not g.is_over:\n"
    "    g.play(bots[g.to_move].choose(g.view(g.to_move), g.legal_actions()))\n"
    "w = lf.LangfingerWidget.replay(g.record(date='2025-06-01'), seat=None)\n"
    "w"
)


def index(nb: LabNotebook) -> int:
    return int(nb.kernel_json("w.scrubber['index']"))


def wait_index(nb: LabNotebook, want: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if index(nb) == want:
            return
        time.sleep(0.05)
    raise AssertionError(f"the replay is at {index(nb)}, not {want}; error "
                         f"{nb.kernel_json('w.error')!r}")


def tokens_on_squares(root: Locator) -> int:
    """Tokens standing on the places' squares (an empty square shows its number instead)."""
    squares = root.locator(".lf-squares [data-square]")
    return squares.count() - root.locator(".lf-squares [data-square] .lf-square-no").count()


def test_scrubbing_a_replay_moves_the_board(open_notebook) -> None:  # type: ignore[no-untyped-def]
    nb: LabNotebook = open_notebook("replay.ipynb", [CELL])
    nb.run_all()
    root = nb.output(0).get_by_test_id("langfinger")
    panel = root.get_by_test_id("replay")
    length = int(nb.kernel_json("w.scrubber['length']"))
    expect(root.get_by_test_id("replay-position")).to_have_text(f"0 / {length}")
    assert tokens_on_squares(root) == 0
    expect(root.get_by_test_id("undo")).to_be_hidden()  # read-only: no toolbar

    root.get_by_test_id("replay-forward").click()
    wait_index(nb, 1)
    expect(root.get_by_test_id("replay-position")).to_have_text(f"1 / {length}")
    # The caption in plain words, not the record's shorthand ("1. Pascal place city").
    expect(root.get_by_test_id("replay-label")).to_contain_text("1. Pascal puts a token on the")
    expect(root.get_by_test_id("log")).to_contain_text("Pascal places a token")  # the log follows
    assert tokens_on_squares(root) == 1

    panel.focus()
    panel.press("ArrowRight")
    panel.press("ArrowRight")
    wait_index(nb, 3)
    expect(root.get_by_test_id("replay-position")).to_have_text(f"3 / {length}")
    assert tokens_on_squares(root) == 3
    panel.press("ArrowLeft")
    wait_index(nb, 2)
    assert tokens_on_squares(root) == 2

    panel.press("PageDown")  # the next round's start: every token back in front of its owner
    rounds = nb.kernel_json("w.scrubber['rounds']")
    wait_index(nb, rounds[1])
    expect(root.get_by_test_id("round")).to_have_text("Round 2")
    assert tokens_on_squares(root) == 0

    chart = root.get_by_test_id("replay-money")
    box = chart.bounding_box()
    assert box is not None
    chart.click(position={"x": box["width"] - 4, "y": box["height"] / 2})  # near the end
    deadline = time.monotonic() + 20
    while index(nb) < length - 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert index(nb) >= length - 3
    if index(nb) == length:
        expect(root.get_by_test_id("game-over")).to_be_visible()
    assert nb.kernel_json("w.view == w.replaying.view() and w.legal == []")
    nb.screenshot("replay-scrubbed", root)


SCREEN = 1000  # the test page's height (conftest: 1400 x 1000)


def test_the_replay_fits_one_screen(open_notebook) -> None:  # type: ignore[no-untyped-def]
    """Board, scrubber, caption, money chart and win-chance chart: all in one 1000 px screen
    (issue 28: it was about 1,600 px tall), with the caption in plain words."""
    nb: LabNotebook = open_notebook("replay_screen.ipynb", [
        CELL.removesuffix("w")
        + "w.analyse(1, bot='ismcts', iterations=8, progress=False)\nw.replaying.seek(40)\nw"])
    nb.run_all()
    root = nb.output(0).get_by_test_id("langfinger")
    expect(root.get_by_test_id("replay-evaluation")).to_be_visible()
    caption = nb.kernel_json("w.scrubber['caption']")
    expect(root.get_by_test_id("replay-label")).to_have_text(f"40. {caption}")
    assert "," not in caption.split(" ")[2], caption  # words, not "take lockpick,map"
    root.scroll_into_view_if_needed()
    top = root.bounding_box()
    assert top is not None
    parts = {name: root.locator(sel).first.bounding_box() for name, sel in (
        ("board", ".lf-board"), ("scrubber", ".lf-replay-bar"),
        ("caption", "[data-testid=replay-label]"), ("money", "[data-testid=replay-money]"),
        ("chance", "[data-testid=replay-evaluation]"),
        ("analysis", "[data-testid=replay-analyse]"))}
    bottom = max(b["y"] + b["height"] for b in parts.values() if b is not None)
    height = bottom - top["y"]
    print(f"[replay] board + scrubber + charts: {height:.0f} px tall, "
          f"{top['width']:.0f} px wide; {parts}")
    assert all(b is not None for b in parts.values()), parts
    assert height <= SCREEN, f"the replay is {height:.0f} px tall: more than one screen"
    nb.screenshot("replay-one-screen", root)
