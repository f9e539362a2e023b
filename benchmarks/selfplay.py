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


def play_games(players: int, games: int, seed: int) -> tuple[int, float, float]:
    """Play ``games`` random games; return (decisions, CPU seconds, wall seconds).

    CPU seconds (``time.process_time``) measure this process alone, so the figure
    stays meaningful on a machine that other jobs keep busy; wall time is shown too.
    """
    decisions = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for k in range(games):
        game_seed = seed * 100_003 + players * 10_007 + k
        g = lf.Game.new(players=players, seed=game_seed, start_player=k % players)
        choose = random.Random(game_seed).choice
        while not g.is_over:
            g.play(choose(g.legal_actions()))
            decisions += 1
    return decisions, time.process_time() - cpu_start, time.perf_counter() - start


def _row(label: str, games: int, decisions: int, cpu: float, wall: float) -> None:
    print(f"{label:>7} {games:>6} {decisions:>10} {cpu:>7.2f} {decisions / cpu:>12,.0f} "
          f"({decisions / wall:>7,.0f}) {games / cpu:>8.1f} {decisions / games:>8.0f}")


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
    totals = [0, 0.0, 0.0, 0]  # decisions, CPU s, wall s, games
    print("rates per CPU second of this process (wall-clock rate in brackets)")
    print(f"{'players':>7} {'games':>6} {'decisions':>10} {'cpu s':>7} "
          f"{'decisions/s':>12} {'(wall)':>9} {'games/s':>8} {'dec/game':>8}")
    for n in args.players:
        decisions, cpu, wall = play_games(n, args.games, args.seed)
        _row(str(n), args.games, decisions, cpu, wall)
        for i, x in enumerate((decisions, cpu, wall, args.games)):
            totals[i] += x
    _row("all", int(totals[3]), int(totals[0]), totals[1], totals[2])
    if args.profile:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
