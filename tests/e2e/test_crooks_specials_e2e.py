"""Each of Crooks' six specials used by clicks on the board (issue 37, C4.3-C4.8).

The position is lesson 14's (notebooks/14_crooks_specials.ipynb, its first code cell runs
here unchanged): three players, seven one-card hangouts holding a Pickpocket, an
Accomplice, a Switch, a Killer, the Kingpin and a Spy, and a few crooks on the table. One
board (seat 0, the other seats people at the same screen, so nothing moves but us) is dealt
that position again before each special; then everything is a click on the board: the
hangout, the crook of the pile, the cell of our row and how to lay it, and the special's
choice (the Switch's target cell, the Killer's victim's cell, the Spy's target head). The
effect is read from the board (cash, the cells' crooks, a face-down crook's face the Spy
saw), and the kernel's history confirms that the clicks played exactly those actions.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, expect

from .lab import LabNotebook

LESSON = Path(__file__).resolve().parents[2] / "notebooks" / "14_crooks_specials.ipynb"
LIT = '[data-legal="true"]'


def lesson_position() -> str:
    """The lesson's first code cell: it builds ``start``, the position every special uses."""
    cells = json.loads(LESSON.read_text())["cells"]
    return "".join(next(c for c in cells if c["cell_type"] == "code")["source"])


CELL = lesson_position() + "\nw = lf.LangfingerWidget(game=start.copy(), seat=0, bots={})\nw"


class SpecialsBoard:
    def __init__(self, nb: LabNotebook) -> None:
        self.nb = nb
        self.root = nb.output(0).get_by_test_id("langfinger")
        self.board = self.root.get_by_test_id("crooks-board")

    def move(self) -> int:
        return int(self.root.get_attribute("data-move") or -1)

    def deal_again(self) -> None:
        self.nb.kernel("w.game = start.copy()")
        expect(self.root).to_have_attribute("data-move", "0")
        expect(self.board).to_have_attribute("data-step", "start")
        expect(self.board).to_have_attribute("data-state", "mine")

    def click(self, target: Locator, *, lit: bool = True) -> None:
        """A choice (lit on the board, unless it is a button of its own); returns once the
        kernel has played it (the move number moved on)."""
        if lit:
            expect(target).to_have_attribute("data-legal", "true")
        before = self.move()
        target.click()
        expect(self.root).not_to_have_attribute("data-move", str(before), timeout=15_000)

    def cell(self, target: int, seat: int) -> Locator:
        return self.board.locator(f'[data-target="{target}"][data-seat="{seat}"]')

    def recruit_and_keep(self, hangout: str, crook: str) -> None:
        self.click(self.board.locator(f'[data-testid="hangout"][data-hangout="{hangout}"]'))
        expect(self.board).to_have_attribute("data-step", "keep")
        self.click(self.board.locator(f'[data-testid="pile-card"][data-crook="{crook}"]'))
        expect(self.board).to_have_attribute("data-step", "place")

    def place(self, target: int, *, face: str = "up", effect: bool = True) -> None:
        """Click our cell at ``target``; where it offers several ways, the one asked for."""
        cell = self.cell(target, 0).and_(self.board.get_by_test_id("target-cell"))
        expect(cell).to_have_attribute("data-legal", "true")
        before = self.move()
        cell.click()
        choices = self.board.get_by_test_id("place-choice")
        deadline = time.monotonic() + 15
        while self.move() == before and not choices.count():
            assert time.monotonic() < deadline, f"the cell at the {target} did nothing"
            time.sleep(0.02)
        if self.move() == before:  # several ways to lay it: the choices under the board
            way = choices.and_(
                self.board.locator(f'[data-face="{face}"][data-effect="{str(effect).lower()}"]')
            )
            expect(way).to_have_count(1)
            self.click(way, lit=False)

    def history(self) -> list[dict[str, Any]]:
        history: list[dict[str, Any]] = self.nb.kernel_json("w.game.history")
        return history


def test_each_special_by_clicks(open_notebook) -> None:  # type: ignore[no-untyped-def]
    nb: LabNotebook = open_notebook("crooks-specials.ipynb", [CELL])
    nb.run_all()
    b = SpecialsBoard(nb)
    board = b.board
    expect(board).to_be_visible(timeout=30_000)
    cash = board.locator('[data-testid="crooks-player"][data-seat="0"] [data-testid="cash"]')

    # Pickpocket (C4.4): $1 for the pile, $2 from the bank.
    b.deal_again()
    expect(cash).to_have_text("$18")
    b.recruit_and_keep("A", "K31")
    expect(cash).to_have_text("$17")
    b.place(2, effect=True)
    expect(cash).to_have_text("$19")
    expect(b.cell(2, 0).locator('[data-crook="K31"]')).to_be_visible()
    assert b.history()[-1] == {"type": "place", "target": 2, "face": "up", "effect": True}

    # Accomplice (C4.4): joins our 4 at the 5; two crooks in our cell there.
    b.deal_again()
    expect(b.cell(5, 0).locator(".lf-crook")).to_have_count(1)
    b.recruit_and_keep("B", "K26")
    b.place(5)  # the only way to the 5 where we already stand: face up, with its special
    expect(b.cell(5, 0).locator(".lf-crook")).to_have_count(2)
    for crook in ("K16", "K26"):
        expect(b.cell(5, 0).locator(f'[data-crook="{crook}"]')).to_be_visible()
    assert b.history()[-1] == {"type": "place", "target": 5, "face": "up", "effect": True}

    # Switch (C4.5): placed at the 5 with its special, then our 4 moves to the 4 by a click.
    b.deal_again()
    b.recruit_and_keep("C", "K24")
    b.place(5)
    expect(board).to_have_attribute("data-step", "switch")
    taken = board.locator(f'[data-testid="target-cell"][data-seat="0"]{LIT}')
    assert "5" not in taken.evaluate_all("(els) => els.map((e) => e.dataset.target)")
    b.click(b.cell(4, 0).and_(board.get_by_test_id("target-cell")))
    expect(b.cell(4, 0).locator('[data-crook="K16"]')).to_be_visible()
    expect(b.cell(5, 0).locator(".lf-crook")).to_have_count(1)
    expect(b.cell(5, 0).locator('[data-crook="K24"]')).to_be_visible()
    assert b.history()[-1] == {"type": "switch", "to": 4}

    # Killer (C4.6): at the 7 with its special, then a click on Rose's cell there.
    b.deal_again()
    expect(b.cell(7, 1).locator('[data-crook="K08"]')).to_be_visible()
    b.recruit_and_keep("D", "K22")
    b.place(7, effect=True)
    expect(board).to_have_attribute("data-step", "kill")
    b.click(b.cell(7, 1).and_(board.get_by_test_id("target-cell")))
    expect(b.cell(7, 1).locator(".lf-crook")).to_have_count(0)
    expect(b.cell(7, 0).locator('[data-crook="K22"]')).to_be_visible()
    assert b.history()[-1] == {"type": "kill", "seat": 1}

    # Kingpin (C3.3, C4.3): kept as the last card of E; the 9 offers it face up only.
    b.deal_again()
    b.recruit_and_keep("E", "K01")
    b.place(9)
    kingpin = b.cell(9, 0).locator('[data-crook="K01"]')
    expect(kingpin).to_be_visible()
    expect(kingpin).not_to_have_class("lf-crook-known-down")
    assert b.history()[-1] == {"type": "place", "target": 9, "face": "up", "effect": True}

    # Spy (C4.8): laid at the 2 with its special, then a click on the 9's head: Rose's
    # face-down crook there shows its face to us, and only to us.
    b.deal_again()
    hidden = b.cell(9, 1)
    expect(hidden.locator(".lf-crook-back")).to_have_count(1)
    b.recruit_and_keep("F", "K29")
    b.place(2, effect=True)
    expect(board).to_have_attribute("data-step", "spy")
    b.click(board.locator(f'th [data-target="9"]{LIT}'))
    expect(hidden.locator('[data-crook="K03"]')).to_be_visible()
    expect(hidden.locator(".lf-crook-back")).to_have_count(0)
    assert b.history()[-1] == {"type": "spy", "target": 9}
    assert nb.kernel_json("w.game.view(2)['targets'][7]['rows'][1][0]['crook']") is None
    nb.screenshot("crooks-spy", b.root)
