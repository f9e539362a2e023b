"""The notebook's online seat against a local server (issue 32): what a player waits for.

Starts a ``LocalServer`` (``langfinger serve --port 0`` on loopback, SQLite), hosts GAMES
two-player tables with an easy bot at the other seat (pace 0), and plays seat 0 from Python
through ``lf.online.connect`` with random legal moves until each game ends. It prints the
time to join (the invite taken and the first picture received), the p50/p95 of ``play()``
(the move sent to the server's commit seen by the seat) and of ``wait_for_turn()`` (the
bot's answer arriving), next to the same moves on a local ``Game`` as the same-run anchor.

    python benchmarks/online_client.py             # 3 games
    python benchmarks/online_client.py --games 1

Figures only: no test asserts them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import langfinger_widget as lf


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def local_anchor(moves: int, seed: int) -> float:
    """Seconds a move takes on a local Game (random legal moves, both seats): the anchor."""
    game, rng, made = lf.Game.new(2, seed=seed), random.Random(seed), 0
    start = time.perf_counter()
    while made < moves and not game.is_over:
        game.play(rng.choice(game.legal_actions()))
        made += 1
    return (time.perf_counter() - start) / max(made, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    joins: list[float] = []
    plays: list[float] = []
    waits: list[float] = []
    with lf.online.LocalServer() as server:
        for game in range(args.games):
            table = lf.online.host(2, server, bots={1: "easy"}, pace=0)
            t0 = time.perf_counter()
            me = lf.online.connect(table.invites[0])
            assert me.wait_for_turn(timeout=30)
            joins.append(time.perf_counter() - t0)
            rng = random.Random(game)
            while not me.is_over:
                t0 = time.perf_counter()
                if not me.wait_for_turn(timeout=30):
                    break
                waits.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                me.play(rng.choice(me.legal))
                plays.append(time.perf_counter() - t0)
            me.close()
    anchor = local_anchor(len(plays), 1)
    print(f"games {args.games}, moves played online {len(plays)}")
    print(f"join (invite taken, first picture): median {statistics.median(joins) * 1000:.0f} ms")
    print(f"play(): p50 {pct(plays, 0.5):.1f} ms, p95 {pct(plays, 0.95):.1f} ms")
    print(f"wait_for_turn() (the bot's answer): p50 {pct(waits, 0.5):.1f} ms, "
          f"p95 {pct(waits, 0.95):.1f} ms")
    print(f"anchor, the same number of moves on a local Game: {anchor * 1000:.2f} ms a move")


if __name__ == "__main__":
    main()
