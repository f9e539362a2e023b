"""Self-play throughput of the rules kernel, through the public API only.

Plays random games (``random.Random(seed).choice`` over ``legal_actions()``,
then ``play``) for each player count and prints decisions per second and
games per second, per player count and overall. One process, one core.

    python benchmarks/selfplay.py                  # 200 games per player count
    python benchmarks/selfplay.py --games 50 --seed 7 --players 3 4
    python benchmarks/selfplay.py --profile        # cProfile of the hot spots

Issue 2 asks for at least 30,000 decisions/s on one core of the project machine.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

# Benchmark the checkout this file lives in, installed or not.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import langfinger_widget as lf


def play_games(players: int, games: int, seed: int) -> tuple[int, float]:
    """Play ``games`` random games; return (decisions made, seconds spent)."""
    decisions = 0
    start = time.perf_counter()
    for k in range(games):
        game_seed = seed * 100_003 + players * 10_007 + k
        g = lf.Game.new(players=players, seed=game_seed, start_player=k % players)
        choose = random.Random(game_seed).choice
        while not g.is_over:
            g.play(choose(g.legal_actions()))
            decisions += 1
    return decisions, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per player count")
    parser.add_argument("--seed", type=int, default=0, help="base seed")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5])
    parser.add_argument("--profile", action="store_true", help="print a cProfile summary")
    args = parser.parse_args(argv)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
    total_decisions, total_seconds, total_games = 0, 0.0, 0
    print(f"{'players':>7} {'games':>6} {'decisions':>10} {'seconds':>8} "
          f"{'decisions/s':>12} {'games/s':>8} {'dec/game':>8}")
    for n in args.players:
        decisions, seconds = play_games(n, args.games, args.seed)
        total_decisions += decisions
        total_seconds += seconds
        total_games += args.games
        print(f"{n:>7} {args.games:>6} {decisions:>10} {seconds:>8.2f} "
              f"{decisions / seconds:>12,.0f} {args.games / seconds:>8.1f} "
              f"{decisions / args.games:>8.0f}")
    print(f"{'all':>7} {total_games:>6} {total_decisions:>10} {total_seconds:>8.2f} "
          f"{total_decisions / total_seconds:>12,.0f} {total_games / total_seconds:>8.1f} "
          f"{total_decisions / total_games:>8.0f}")
    if args.profile:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
