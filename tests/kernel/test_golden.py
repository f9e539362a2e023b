"""Golden playthroughs: one seeded game per player count, checked byte for byte.

Each file ``tests/kernel/golden/game_<n>p.json`` holds a game of ``n`` players dealt
with a fixed seed and played to its end by a seeded random policy
(``random.Random(seed).choice`` over ``legal_actions()``): the actions, the
full log (``g.log(None)``) and the final position (``g.to_dict()``). The test
replays the game and fails when anything drifts: a rule, an event, the
shuffles, the order of legal actions, or the deck.

When a change of behaviour is intended, regenerate the files and review the diff::

    LANGFINGER_REGEN_GOLDEN=1 python -m pytest tests/kernel/test_golden.py
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

import langfinger_widget as lf

GOLDEN = Path(__file__).with_name("golden")
SEEDS = {2: 2002, 3: 3003, 4: 4004, 5: 5005}
REGEN = os.environ.get("LANGFINGER_REGEN_GOLDEN") == "1"


def playthrough(players: int) -> dict[str, Any]:
    """Deal and play the golden game for ``players``; return it as JSON-ready data."""
    seed = SEEDS[players]
    variant = "open_info" if players == 4 else "standard"  # one game covers R11.2
    g = lf.Game.new(players=players, seed=seed, start_player=seed % players, variant=variant)
    rng = random.Random(seed)
    actions = []
    while not g.is_over:
        action = rng.choice(g.legal_actions())
        actions.append(action)
        g.play(action)
    return {
        "players": players, "seed": seed, "variant": variant, "policy": "random.Random(seed)",
        "actions": actions, "log": g.log(None), "final": g.to_dict(),
        "winners": g.winners, "money": g.money,
    }


@pytest.mark.parametrize("players", sorted(SEEDS))
def test_golden_playthrough(players: int) -> None:
    path = GOLDEN / f"game_{players}p.json"
    game = json.loads(json.dumps(playthrough(players)))  # as it would be stored
    if REGEN:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(json.dumps(game, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert game["actions"] == stored["actions"], "the random policy chose differently"
    for i, (now, then) in enumerate(zip(game["log"], stored["log"], strict=False)):
        assert now == then, f"event {i} drifted"
    assert len(game["log"]) == len(stored["log"])
    assert game["final"] == stored["final"]
    assert (game["winners"], game["money"]) == (stored["winners"], stored["money"])


@pytest.mark.parametrize("players", sorted(SEEDS))
def test_golden_final_position_loads_and_replays(players: int) -> None:
    """The stored final position loads, and the stored actions replay to it."""
    stored = json.loads((GOLDEN / f"game_{players}p.json").read_text(encoding="utf-8"))
    final = lf.Game.from_dict(stored["final"])
    assert final.is_over and final.winners == stored["winners"]
    g = lf.Game.new(players=players, seed=stored["seed"], variant=stored["variant"],
                    start_player=stored["seed"] % players)
    for action in stored["actions"]:
        g.play(action)
    assert g.to_dict() == stored["final"]
