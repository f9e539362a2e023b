"""Self-play throughput of the rules kernel, through the public API only.

Plays random games (``random.Random(seed).choice`` over ``legal_actions()``,
then ``play``) for each player count and prints decisions per second and
games per second, per player count and overall. One process, one core.

    python benchmarks/selfplay.py                  # 200 games per player count
    python benchmarks/selfplay.py --games 50 --seed 7 --players 3 4
    python benchmarks/selfplay.py --anchor         # and OpenSpiel's python_liars_poker, same run
    python benchmarks/selfplay.py --profile        # cProfile of the hot spots

``--anchor`` (issue 13) plays OpenSpiel's pure-Python ``python_liars_poker``
through its public API (``legal_actions()`` then ``apply_action``, chance
outcomes included: every ``apply_action`` is a step) with the same player
counts, turn by turn with this kernel in slices of equal CPU time, so that
both rates see the same machine and the same load; it prints both rates and
their ratio. It needs the ``bench`` extra (``pip install -e ".[bench]"``,
which brings ``open-spiel``); without it the anchor is skipped with a note.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

# Benchmark the checkout this file lives in, installed or not.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import langfinger_widget as lf

Player = Callable[[int, int], int]  # (players, game number) -> steps played


def play_one(players: int, game_seed: int) -> int:
    """One random game through the public API; the number of decisions."""
    g = lf.Game.new(players=players, seed=game_seed, start_player=game_seed % players)
    choose = random.Random(game_seed).choice
    decisions = 0
    while not g.is_over:
        g.play(choose(g.legal_actions()))
        decisions += 1
    return decisions


def play_games(players: int, games: int, seed: int) -> tuple[int, float, float]:
    """Play ``games`` random games; return (decisions, CPU seconds, wall seconds).

    CPU seconds (``time.process_time``) measure this process alone, so the figure
    stays meaningful on a machine that other jobs keep busy; wall time is shown too.
    """
    decisions = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for k in range(games):
        decisions += play_one(players, seed * 100_003 + players * 10_007 + k)
    return decisions, time.process_time() - cpu_start, time.perf_counter() - start


def _row(label: str, games: int, decisions: int, cpu: float, wall: float) -> None:
    print(f"{label:>7} {games:>6} {decisions:>10} {cpu:>7.2f} {decisions / cpu:>12,.0f} "
          f"({decisions / wall:>7,.0f}) {games / cpu:>8.1f} {decisions / games:>8.0f}")


def plain(args: argparse.Namespace) -> None:
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


# --- the anchor: OpenSpiel's python_liars_poker in the same run --------------------------------


def liars_poker() -> Player | None:
    """A player of OpenSpiel's pure-Python Liar's Poker games, or None without open-spiel."""
    try:
        import pyspiel
        from open_spiel.python.games import liars_poker as _registers  # noqa: F401
    except ImportError:
        return None
    games = {n: pyspiel.load_game("python_liars_poker", {"players": n}) for n in range(2, 6)}

    def play(players: int, game_seed: int) -> int:
        state = games[players].new_initial_state()
        choose = random.Random(game_seed).choice
        steps = 0
        while not state.is_terminal():
            state.apply_action(choose(state.legal_actions()))  # chance nodes too: uniform
            steps += 1
        return steps

    return play


class Meter:
    """Steps and CPU seconds of one engine, summed over the slices it was given."""

    def __init__(self, play: Player) -> None:
        self.play, self.steps, self.cpu, self.games = play, 0, 0.0, 0

    def run(self, players: int, seconds: float, seed: int) -> None:
        """Play whole games for at least ``seconds`` of CPU time."""
        start = time.process_time()
        while True:
            self.steps += self.play(players, seed * 1_000_003 + self.games)
            self.games += 1
            spent = time.process_time() - start
            if spent >= seconds:
                self.cpu += spent
                return

    @property
    def rate(self) -> float:
        return self.steps / self.cpu if self.cpu else 0.0


def anchored(args: argparse.Namespace) -> None:
    anchor = liars_poker()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    if anchor is None:
        print("open-spiel is not installed (pip install -e '.[bench]'): this kernel alone")
        plain(args)
        return
    from tqdm import tqdm

    print(f"same run, turn by turn in slices of {args.slice} s CPU, {args.rounds} rounds "
          f"per player count; load average {load:.1f} on {os.cpu_count()} cores")
    ours_all, theirs_all = Meter(play_one), Meter(anchor)
    rows = []
    steps = tqdm(total=len(args.players) * args.rounds, desc="slices", unit="round",
                 file=sys.stderr)
    for n in args.players:
        ours, theirs = Meter(play_one), Meter(anchor)
        for r in range(args.rounds):
            first, second = (ours, theirs) if r % 2 == 0 else (theirs, ours)  # alternate
            first.run(n, args.slice, args.seed + r)
            second.run(n, args.slice, args.seed + r)
            steps.update()
        rows.append((n, ours, theirs))
        for total, part in ((ours_all, ours), (theirs_all, theirs)):
            total.steps += part.steps
            total.cpu += part.cpu
            total.games += part.games
    steps.close()
    print(f"{'players':>7} {'langfinger steps/s':>19} {'liars_poker steps/s':>20} {'ratio':>6}")
    for n, ours, theirs in [*rows, ("all", ours_all, theirs_all)]:
        print(f"{n:>7} {ours.rate:>19,.0f} {theirs.rate:>20,.0f} {ours.rate / theirs.rate:>6.2f}")
    print(f"(langfinger: {ours_all.games} games, {ours_all.steps} decisions; "
          f"liars_poker: {theirs_all.games} games, {theirs_all.steps} steps)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per player count")
    parser.add_argument("--seed", type=int, default=0, help="base seed")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5])
    parser.add_argument("--profile", action="store_true", help="print a cProfile summary")
    parser.add_argument("--anchor", action="store_true",
                        help="also OpenSpiel's python_liars_poker, same run (bench extra)")
    parser.add_argument("--rounds", type=int, default=6, help="--anchor: slices per engine")
    parser.add_argument("--slice", type=float, default=0.5, help="--anchor: CPU s a slice")
    args = parser.parse_args(argv)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
    (anchored if args.anchor else plain)(args)
    if args.profile:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
