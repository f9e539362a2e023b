"""Oh My Goods! self-play: decisions a second, and the balance of the card reconstruction.

Through the protocol only (``lf.games.get("goods")``): a game is played by
``legal_actions(seat)`` then ``play``, a bot deciding from ``view(seat)`` and the
legal actions; sealed steps are sealed in seat order. One process, one core.

    python benchmarks/goods_selfplay.py                       # speed, then 200 greedy games
    python benchmarks/goods_selfplay.py --games 20 --balance 400 --players 2 3 4

The balance look seats greedy bots at every seat (the reconstruction's balance is what the
best bot we have finds) and prints each seat's win rate (ties count for each tied seat),
the game length in rounds, the VP by source, how often each building kind is built and
each Assistant hired (G0.5 asks for every building built and 10-14 rounds).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import langfinger_widget as lf

SPEC = lf.games.get("goods")


def play(players: int, seed: int, kind: str) -> tuple[Any, int]:
    """One self-play game of ``kind`` bots (random or greedy); the game and its decisions."""
    g = SPEC.Game.new(players=players, seed=seed)
    rng = random.Random(seed)
    bots = [SPEC.greedy(seed=seed * 7 + s) for s in range(players)]
    decisions = 0
    while not g.is_over:
        seat = g.to_decide[0]
        legal = g.legal_actions(seat)
        action = rng.choice(legal) if kind == "random" \
            else bots[seat].choose(g.view(seat), legal)
        g.play(action, seat)
        decisions += 1
    return g, decisions


def speed(players: int, games: int, kind: str, seed: int) -> tuple[int, float]:
    decisions, start = 0, time.perf_counter()
    for n in range(games):
        decisions += play(players, seed + n, kind)[1]
    return decisions, time.perf_counter() - start


def balance(players: int, games: int, seed: int) -> dict[str, Any]:
    wins: Counter[int] = Counter()
    order: Counter[int] = Counter()
    built: Counter[str] = Counter()
    hired: Counter[str] = Counter()
    sources: Counter[str] = Counter()
    rounds: list[int] = []
    scores: list[int] = []
    for n in range(games):
        g, _ = play(players, seed + n, "greedy")
        for w in g.winners:
            wins[w] += 1
            order[(w - g.state["start_player"]) % players] += 1
        for e in g.log(None):
            if e["type"] == "built":
                built[g.cards.cards[e["card"]].building.key] += 1
            elif e["type"] == "hired":
                hired[e["assistant"]] += 1
        for row in g.standings():
            sources.update(row["sources"])
            scores.append(row["score"])
        rounds.append(g.round)
    return {"wins": wins, "order": order, "built": built, "hired": hired, "sources": sources,
            "rounds": rounds, "scores": scores}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="speed games per count and bot")
    parser.add_argument("--balance", type=int, default=200, help="greedy games per count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("self-play speed (decisions a second, one core)")
    for kind in ("random", "greedy"):
        for players in args.players:
            decisions, secs = speed(players, args.games, kind, args.seed)
            print(f"  {kind:6} {players}p: {decisions / secs:8.0f} decisions/s "
                  f"({args.games} games, {decisions} decisions, {secs:.1f} s)")
    kinds = list(SPEC.Game.new(players=2, seed=0).cards.buildings)
    for players in args.players:
        if not args.balance:
            break
        b = balance(players, args.balance, args.seed + 1000 * players)
        games = args.balance
        print(f"\n{games} greedy self-play games, {players} players")
        print("  win rate by seat:        " + "  ".join(
            f"seat {s}: {b['wins'][s] / games:5.1%}" for s in range(players)))
        print("  win rate by turn order:  " + "  ".join(
            f"#{k + 1}: {b['order'][k] / games:5.1%}" for k in range(players)))
        r = b["rounds"]
        print(f"  rounds: mean {statistics.mean(r):.1f}, median {statistics.median(r)}, "
              f"min {min(r)}, max {max(r)}; in 10-14: "
              f"{sum(10 <= x <= 14 for x in r) / games:.0%}")
        print(f"  score: mean {statistics.mean(b['scores']):.1f} VP; by source per seat: "
              + ", ".join(f"{k} {v / games / players:.1f}" for k, v in b["sources"].items()))
        print("  built per game: " + ", ".join(
            f"{k} {b['built'][k] / games:.2f}" for k in kinds if k != "charburner"))
        never = [k for k in kinds if k != "charburner" and not b["built"][k]]
        print(f"  never built: {', '.join(never) or 'none'}")
        print("  hired per game: " + ", ".join(
            f"{a} {b['hired'][a] / games:.2f}" for a in sorted(SPEC.Game.new(
                players=2, seed=0).cards.assistants)))


if __name__ == "__main__":
    main()
