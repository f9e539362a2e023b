"""docs/state-format.md: its example position loads and plays out as the doc says,
and every key the doc lists is what ``to_dict`` writes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import langfinger_widget as lf

DOC = Path(__file__).resolve().parents[2] / "docs" / "state-format.md"


def doc_example() -> dict[str, Any]:
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1, "the doc holds exactly one json example"
    data: dict[str, Any] = json.loads(blocks[0])
    return data


def test_doc_example_loads_with_defaults() -> None:
    g = lf.Game.from_dict(doc_example())
    d = g.to_dict()
    assert (d["round"], d["phase"], d["start_player"], d["variant"], d["seed"]) == (
        6, "act", 1, "standard", 0)
    assert len(d["villa"]) == 0 and len(d["city"]) == 0  # missing displays are empty
    tools = sum(len(d["piles"]["tools"][k]) for k in ("draw", "discard"))
    assert tools == 60 - 4  # every tool not in a hand is in the draw pile
    assert len(d["piles"]["loot"]["draw"]) == 28 and len(d["piles"]["fences"]["draw"]) == 12
    assert d["scoundrel_used"] == {"villa": [], "museum": []}


def test_doc_example_plays_as_described() -> None:
    g = lf.Game.from_dict(doc_example())
    assert g.to_move == 1 and g.legal_actions() == [{"type": "pass"}]  # Bo at the Museum
    g.play({"type": "pass"})
    assert g.to_move == 0
    ev = g.play({"type": "sell", "fence": "F02", "loot": ["L07"]})
    assert ev[0]["gained"] == 5 and g.money == [22, 18]
    g.play({"type": "pass"})
    assert g.is_over and g.winners == [0]


def test_doc_lists_every_key_of_to_dict() -> None:
    text = DOC.read_text(encoding="utf-8")
    d = lf.Game.new(players=3, seed=1).to_dict()
    for key in [*d, *d["players"][0]]:
        assert f"`{key}`" in text, f"docs/state-format.md does not explain {key!r}"
