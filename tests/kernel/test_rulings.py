"""docs/rulings.md, the rulings the errors cite, readable inside the project: the page and the
shipped JSON agree, every ruling the code cites has a text, and the words are our own."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from rules_kit import copied_from_rulebook, rulebook_shingles

import langfinger_widget as lf
from langfinger_widget.kernel import rulings

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "rulings.md"
PROJECT_RULINGS = ROOT.parent / "shared" / "RULINGS.md"  # the development checkout's list


def test_the_shipped_json_is_the_page() -> None:
    """Run `python -m langfinger_widget.kernel.rulings` after editing docs/rulings.md."""
    assert rulings.load() == rulings.parse(PAGE.read_text(encoding="utf-8"))
    assert rulings.DATA.read_text(encoding="utf-8") == rulings.to_json(rulings.load())


def test_every_ruling_has_a_section_and_words() -> None:
    for number, entry in rulings.load().items():
        assert re.fullmatch(r"R\d+(\.\d+)?", number)
        assert entry["section"] and len(entry["text"].split()) >= 5, number
        assert "`" not in entry["text"] and "**" not in entry["text"], number


def _cited_in_code() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "langfinger_widget").rglob("*.py"):
        for string in re.findall(r"[\"']([^\"'\n]*)[\"']", path.read_text(encoding="utf-8")):
            found.update(m.group(0) for m in re.finditer(r"\bR\d+(?:\.\d+)?(?=:)", string))
    return found


def test_every_ruling_an_error_cites_has_its_text() -> None:
    cited = _cited_in_code()
    assert {"R2.1", "R5.2", "R6.2", "R8.2"} <= cited, cited  # the scan finds the messages
    missing = sorted(r for r in cited if not rulings.explain(r))
    assert not missing, f"cited in the code but not in docs/rulings.md: {missing}"


def test_the_page_numbers_every_ruling_of_the_project() -> None:
    if not PROJECT_RULINGS.is_file():
        pytest.skip("the project's RULINGS.md is not beside this checkout")
    listed = set(re.findall(r"^- (R\d+(?:\.\d+)?) ", PROJECT_RULINGS.read_text(), re.M))
    assert listed and listed <= set(rulings.load()), sorted(listed - set(rulings.load()))


@pytest.mark.parametrize("seed", range(3))
def test_every_refusal_in_play_explains_itself(seed: int) -> None:
    """Whatever a player tries, the ruling the refusal names opens a text."""
    g = lf.Game.new(players=3, seed=seed)
    rng = random.Random(seed)
    probes = [{"type": "pass"}, {"type": "place", "place": "city"},
              {"type": "take_tools", "tools": ["map", "map"]},
              {"type": "steal", "slot": 0, "pay": ["hammer"], "scoundrel": True},
              {"type": "exchange", "rate": "3>4", "give": ["map"]},
              {"type": "sell", "fence": "F01", "loot": ["L01"]}]
    seen = 0
    while not g.is_over:
        for probe in probes:
            why = g.why_illegal(probe)
            if why is not None:
                seen += 1
                assert rulings.explain(why), why
        g.play(rng.choice(g.legal_actions()))
    assert seen > 100


def test_explain_a_message() -> None:
    assert rulings.cited("R5.2: x; see R5.2 and R7") == ["R5.2", "R7"]
    assert [r for r, _ in rulings.explain("R7: the Museum")] == ["R7"]
    assert [r for r, _ in rulings.explain("R12: undo")] == ["R12.1", "R12.2", "R12.3", "R12.4"]
    assert rulings.explain("nothing cited") == []
    with pytest.raises(KeyError):
        rulings.text("R99")


def test_a_page_with_a_ruling_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="R4"):
        rulings.parse("- **R4** one text here\n- **R4** another text here\n")


def test_in_our_own_words() -> None:
    if not rulebook_shingles():
        pytest.skip("rule texts not available in this checkout")
    assert not copied_from_rulebook(PAGE.read_text(encoding="utf-8"))
