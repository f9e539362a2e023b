"""The other front ends' files, checked without a browser (tests/e2e drives them in one).

- The marimo notebook runs as a plain script, and the state its reactive cells read
  follows the game through the widget's observer (without it, the state would stay
  at the first position, and the table in ``marimo run`` would never change).
- The Voilà app is one widget cell and prose, served with its sources stripped.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
MARIMO_NOTEBOOK = ROOT / "notebooks" / "marimo_langfinger.py"
APP = ROOT / "app"


def run_marimo_notebook() -> dict[str, Any]:
    """Run the marimo notebook as a script (``app.run()``); return the globals it defined."""
    pytest.importorskip("marimo")
    spec = importlib.util.spec_from_file_location("marimo_langfinger", MARIMO_NOTEBOOK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    _outputs, defs = module.app.run()
    return dict(defs)


def test_marimo_state_follows_every_move() -> None:
    defs = run_marimo_notebook()
    game, get_view = defs["game"], defs["get_view"]
    assert get_view() == game.view and get_view()["seat"] == 0
    game.step_bots()  # a script has no event loop: the bots move when asked
    game.play(game.legal[0])
    game.step_bots()
    assert len(game.game.history) >= 3
    assert get_view() == game.view == game.game.view(0)  # the seat's view, nothing more
    game.new_game(players=4, seat=None, bots={})
    assert get_view()["seat"] is None and len(get_view()["players"]) == 4


def test_voila_app_shows_the_board_and_no_code() -> None:
    config = json.loads((APP / "voila.json").read_text())["VoilaConfiguration"]
    assert config["strip_sources"] is True and config["show_tracebacks"] is False
    nb = nbformat.read(APP / "langfinger.ipynb", as_version=4)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert len(code) == 1 and code[0].rstrip().endswith(")")  # the cell's value is the board
    assert "lf.LangfingerWidget(" in code[0]
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")  # stored clean
