"""Write kernel-positions.json: real views and legal actions for the front-end tests.

The unit tests check the click logic against what the kernel really sends
(every legal action can be composed by clicks; nothing else can). Rerun after
a change to the view format:  python js/__fixtures__/make_kernel_positions.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import langfinger_widget as lf

OUT = Path(__file__).with_name("kernel-positions.json")
PER_KIND = 2  # positions kept per (players, decision kind)


def sample(players: int, seed: int) -> list[dict[str, Any]]:
    """Play a random game; keep a few positions of each decision kind, seen by the decider."""
    game = lf.Game.new(players=players, seed=seed)
    rng = random.Random(seed)
    kept: dict[str, int] = {}
    out: list[dict[str, Any]] = []
    while not game.is_over:
        seat = game.to_move
        view = game.view(seat)
        legal = game.legal_actions()
        kind = view["decision"]["kind"]
        if kept.get(kind, 0) < PER_KIND and len(legal) > 1 and rng.random() < 0.3:
            kept[kind] = kept.get(kind, 0) + 1
            out.append({"view": view, "legal": legal, "log": game.log(seat)[-4:]})
        game.play(rng.choice(legal))
    out.append({"view": game.view(0), "legal": [], "log": game.log(0)[-4:]})
    return out


def main() -> None:
    positions = [p for n, seed in ((2, 11), (3, 12), (4, 13), (5, 14)) for p in sample(n, seed)]
    OUT.write_text(json.dumps(positions, separators=(",", ":")) + "\n")
    print(f"{len(positions)} positions -> {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
