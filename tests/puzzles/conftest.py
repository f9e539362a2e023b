"""Records of the stored greedy study (docs/study/greedy), replayed from their seeds."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from rules_kit import Replayer

from langfinger_widget.study import arena

STUDY = Path(__file__).resolve().parents[2] / "docs" / "study" / "greedy"


def stored_money(players: int, index: int) -> list[int]:
    with open(STUDY / f"games_{players}p.csv", encoding="utf-8") as f:
        return [int(r["money"]) for r in csv.DictReader(f) if int(r["game"]) == index]


@pytest.fixture
def study_record(tmp_path: Path) -> Replayer:
    """``study_record(players, index)``: that study game's full record file and its label,
    the game checked against the money the study stored."""

    def replay(players: int, index: int) -> tuple[Path, str]:
        specs = arena.parse_bots(",".join(["greedy"] * players))
        result = arena.play_game(specs, 15 + players, index, records=str(tmp_path))
        assert result.money == stored_money(players, index)
        return tmp_path / f"game-{index:04d}.lfr", f"docs/study/greedy {players}p game {index}"

    return replay
