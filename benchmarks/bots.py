"""Bot strength and speed (printed figures, no assertions; issue 5).

    python benchmarks/bots.py greedy  --games 400 --jobs 2         # target: greedy >= 90% vs random
    python benchmarks/bots.py ismcts  --games 100 --jobs 2 --time 0.5   # target: >= 65% vs greedy
    python benchmarks/bots.py speed                                 # ISMCTS iterations per second
    python benchmarks/bots.py openspiel --games 10 --time 0.5       # ours vs OpenSpiel's ISMCTS
    python benchmarks/bots.py all

Every match is 2 players with seats rotated (``langfinger_widget.arena``);
win rates come with a Wilson 95% interval. Timings depend on the machine
and on whatever else runs on it: the ISMCTS line reports how many iterations
a 0.5 s search actually managed.

Measured on the 2-core development machine (seed 1, --jobs 2):
  greedy vs random, 400 games: greedy 100.0% [99.0, 100.0]
  ISMCTS 0.5 s/move vs greedy, 100 games: 87.5% [79.6, 92.6], 2097 iterations a search
  speed: 3687 ISMCTS iterations/s, 28635 determinizations/s, 149511 kernel moves/s
  openspiel, 0.5 s a move each, 10 games (openspiel extra; a loaded machine, load ~10):
    our ISMCTS 100.0% [72.2, 100.0], avg money 20.7, 180 iterations a search;
    OpenSpiel's ISMCTSBot 0.0%, avg money 3.5, 6 simulations a search (each one a
    random rollout to the end of the game through the python_langfinger state)
"""

from __future__ import annotations

import argparse
import random
import time

from langfinger_widget import Game, rules
from langfinger_widget.arena import parse_bots, report, run_local, summarize
from langfinger_widget.bots import GreedyBot, ISMCTSBot
from langfinger_widget.bots.determinize import Determinizer


def match(bots: str, games: int, jobs: int, seed: int) -> None:
    started = time.perf_counter()
    results = run_local(parse_bots(bots), games, seed, jobs, progress=True)
    report(summarize(results))
    print(f"({time.perf_counter() - started:.0f} s wall clock, --jobs {jobs})")


def positions(count: int, seed: int) -> list[Game]:
    """Positions from greedy self-play, spread over the game, where a real choice exists."""
    rng = random.Random(seed)
    found: list[Game] = []
    while len(found) < count:
        g = Game.new(players=2, seed=rng.getrandbits(31))
        players = [GreedyBot(seed=1), GreedyBot(seed=2)]
        while not g.is_over and len(found) < count:
            seat = g.to_move
            assert seat is not None
            legal = g.legal_actions()
            if len(legal) > 1 and rng.random() < 0.1:
                found.append(g.copy())
            g.play(players[seat].choose(g.view(seat), legal))
    return found


def speed(iterations: int, count: int, seed: int) -> None:
    games = positions(count, seed)
    bot = ISMCTSBot(seed=0, iterations=iterations)
    started = time.perf_counter()
    for g in games:
        seat = g.to_move
        bot.evaluate(g.view(seat), g.legal_actions())
    elapsed = time.perf_counter() - started
    total = iterations * len(games)
    print(f"ISMCTS: {total / elapsed:.0f} iterations/s "
          f"({len(games)} positions x {iterations} iterations in {elapsed:.1f} s)")
    started = time.perf_counter()
    rng = random.Random(seed)
    samples = 0
    for g in games:
        sampler = Determinizer(g.view(g.to_move))
        for _ in range(200):
            sampler.sample(rng)
            samples += 1
    print(f"determinization: {samples / (time.perf_counter() - started):.0f} samples/s")
    started = time.perf_counter()
    moves = 0
    for g in games:
        state = g.state.copy()
        while state.phase != "over":
            keys = rules.legal_keys(state)
            rules.apply(state, keys[rng.randrange(len(keys))])
            moves += 1
    print(f"kernel: {moves / (time.perf_counter() - started):.0f} random moves/s "
          "(legal_keys + apply)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("section", choices=("greedy", "ismcts", "speed", "openspiel", "all"),
                   nargs="?",
                   default="all")
    p.add_argument("--games", type=int, default=None, help="games (400 greedy, 100 ismcts)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--time", type=float, default=0.5, help="ISMCTS seconds a move")
    p.add_argument("--iterations", type=int, default=2000, help="per position, speed section")
    args = p.parse_args()
    if args.section in ("greedy", "all"):
        print("== greedy vs random, 2 players (target: greedy >= 90% wins)")
        match("greedy,random", args.games or 400, args.jobs, args.seed)
    if args.section in ("speed", "all"):
        print("== ISMCTS speed")
        speed(args.iterations, 10, args.seed)
    if args.section in ("ismcts", "all"):
        print(f"== ISMCTS at {args.time} s a move vs greedy, 2 players (target: >= 65% wins)")
        match(f"ismcts:time={args.time},greedy", args.games or 100, args.jobs, args.seed)
    if args.section == "openspiel":  # the openspiel extra; not in "all": minutes a game
        print(f"== our ISMCTS vs OpenSpiel's ISMCTSBot (random rollouts), {args.time} s a move "
              "each, 2 players")
        match(f"ismcts:time={args.time},openspiel-ismcts:time={args.time}", args.games or 10,
              args.jobs, args.seed)


if __name__ == "__main__":
    main()
