"""Records, replays and analysis: how long they take and how large records are (issue 14).

Plays games between greedy bots (what a record usually holds: a real game,
not a random walk), then for each player count prints the size of a full
record and of one seat's record, the time to write each, and the time to
read each back (a full record replays through the kernel; a seat's record
also samples what the seat could not see before every decision). With
``--analyse`` it also times ``lf.analyse`` a decision at a level.

    python benchmarks/records.py                       # 10 games per player count
    python benchmarks/records.py --games 3 --analyse hard

Figures only: no test asserts a time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import langfinger_widget as lf
from langfinger_widget import records


def bot_game(players: int, seed: int) -> lf.Game:
    g = lf.Game.new(players=players, seed=seed, start_player=0)
    bots = [lf.bots.make("greedy", seed=seed * 10 + s) for s in range(players)]
    while not g.is_over:
        g.play(bots[g.to_move].choose(g.view(g.to_move), g.legal_actions()))
    return g


def timed(fn):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5])
    p.add_argument("--analyse", default=None, help="a level (hard, expert) to time analysis at")
    args = p.parse_args()
    print("players  decisions  full KB  seat KB  write full  write seat  read full  read seat")
    for n in args.players:
        rows = []
        for seed in range(args.games):
            g = bot_game(n, seed)
            full, w_full = timed(lambda g=g: g.record(date="2025-06-01"))
            mine, w_seat = timed(lambda g=g: g.record(seat=1, date="2025-06-01"))
            _, r_full = timed(lambda full=full: records.read(full))
            _, r_seat = timed(lambda mine=mine: records.read(mine))
            rows.append((len(g.history), len(full) / 1024, len(mine) / 1024, w_full, w_seat,
                         r_full, r_seat))
        med = [statistics.median(col) for col in zip(*rows, strict=True)]
        print(f"{n:>7}  {med[0]:>9.0f}  {med[1]:>7.1f}  {med[2]:>7.1f}  {med[3] * 1e3:>8.0f} ms"
              f"  {med[4] * 1e3:>7.0f} ms  {med[5] * 1e3:>6.0f} ms  {med[6] * 1e3:>6.0f} ms")
    if args.analyse:
        g = bot_game(3, 0)
        text = g.record(date="2025-06-01")
        rows, took = timed(lambda: lf.analyse(text, 0, bot=args.analyse, progress=False))
        print(f"lf.analyse at {args.analyse}: {len(rows)} decisions in {took:.1f} s "
              f"({took / max(1, len(rows)):.2f} s a decision)")


if __name__ == "__main__":
    main()
