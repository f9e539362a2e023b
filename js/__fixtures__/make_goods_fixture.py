"""Write goods.json: the kernel's own views, legal actions and logs for the board's tests.

Each entry is what the widget would sync for seat 0 at one kind of decision of a 3-player
game of Oh My Goods! (random play): ``view(0)``, ``legal_actions(0)`` (empty while others
decide), the last events of ``log(0)``, the move number and the version. The board's tests
(js/__tests__/goods.test.tsx) read them, so that they check the board against what the
kernel really sends; tests/ui/test_goods_widget.py checks that they still have the kernel's
shape. Rerun after a change to the view format:  python js/__fixtures__/make_goods_fixture.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from langfinger_widget import games

OUT = Path(__file__).with_name("goods.json")
PLAYERS = 3


def kind_of(view: dict[str, Any], legal: list[dict[str, Any]]) -> str | None:
    """The name a decision of seat 0's is kept under (None: not one the tests need)."""
    if view["phase"] == "over":
        return "over"
    if not legal:
        production = view["production"]
        if view["phase"] == "plan" and view["sealed"] and view["sealed"][0]:
            return "sealed_wait"
        if production is not None and production["seat"] != 0 and production["buildings"]:
            return "watch_production"
        return None
    types = {a["type"] for a in legal}
    if view["exhaust"] is not None:
        return "discard"
    if view["phase"] == "hand":
        return "hand"
    if view["phase"] == "plan":
        plan = view["players"][0]["plan"]
        if plan and plan["paying"]:
            return "plan_pay"
        if "plan_build" in types:
            return "plan_build"
        return "plan_move" if "move_assistant" in types else "plan_work"
    stage = view["production"]["stage"]
    if stage == "produce":
        if "chain" in types:
            return "chain"
        return "produce" if "produce" in types else "produce_done"
    if stage == "after":
        return "hire" if "hire" in types else "after"
    return stage  # supply, pay, assign


def sample(seed: int, kept: dict[str, Any]) -> None:
    game = games.get("goods").Game.new(players=PLAYERS, seed=seed, start_player=0)
    rng = random.Random(seed)
    while True:
        legal0 = game.legal_actions(0) if 0 in game.to_decide else []
        view = game.view(0)
        kind = kind_of(view, legal0)
        if kind is not None and kind not in kept:
            kept[kind] = {"view": view, "legal": legal0, "events": game.log(0)[-30:],
                          "move_number": game.move_number, "version": game.version}
        if game.is_over:
            return
        seat = game.to_decide[0]
        legal = game.legal_actions(seat)
        # Some building, not always "none": the boards' tests want builds and payments.
        useful = [a for a in legal if a["type"] not in ("done",) and a.get("card", 1) is not None]
        game.play(rng.choice(useful if useful and rng.random() < 0.8 else legal), seat=seat)


# Every kind the board's tests read: games are dealt until each has shown up.
WANTED = {"after", "assign", "chain", "discard", "hand", "hire", "over", "pay", "plan_build",
          "plan_move", "plan_pay", "plan_work", "produce", "produce_done", "sealed_wait",
          "supply", "watch_production"}


def exhausted(kept: dict[str, Any]) -> None:
    """G2.3's discards, which random play seldom reaches: a fresh deal whose draw pile and
    discard lie as goods on seat 0's Charburner (every card still in one place), so that the
    first draws find both piles empty."""
    spec = games.get("goods")
    d = spec.Game.new(players=PLAYERS, seed=2, start_player=0).to_dict()
    d["buildings"][0][0]["goods"] += d["draw"] + d["discard"]
    d["draw"], d["discard"] = [], []
    game = spec.Game.from_dict(d)
    for seat in list(game.to_decide):
        game.play({"type": "keep"}, seat=seat)
    while game.to_decide and game.to_decide[0] != 0:
        seat = game.to_decide[0]
        game.play(game.legal_actions(seat)[0], seat=seat)
    legal = game.legal_actions(0)
    assert game.view(0)["exhaust"] is not None and legal, "no G2.3 discard for seat 0"
    kept["discard"] = {"view": game.view(0), "legal": legal, "events": game.log(0)[-30:],
                       "move_number": game.move_number, "version": game.version}


def main() -> None:
    kept: dict[str, Any] = {}
    exhausted(kept)
    for seed in range(1, 100):
        sample(seed, kept)
        if set(kept) >= WANTED:
            break
    OUT.write_text(json.dumps(dict(sorted(kept.items())), separators=(",", ":")) + "\n")
    print(f"{len(kept)} positions ({', '.join(sorted(kept))}) -> {OUT} "
          f"({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
