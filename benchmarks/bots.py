"""Bot speed and strength (printed figures, no assertions; issues 5 and 13).

    python benchmarks/bots.py speed                        # ISMCTS it/s: now vs 8f2bd9c
    python benchmarks/bots.py speed --players 2,3,4,5      # ... and for 3-5 players
    python benchmarks/bots.py speed --rounds-ahead 2       # ... like for like, 2 rounds ahead
    python benchmarks/bots.py speed --rounds-ahead 1       # ... as the levels search
    python benchmarks/bots.py ladder --games 60 --jobs 2   # Elo of the levels, ladder.png
    python benchmarks/bots.py greedy --games 400 --jobs 2  # greedy vs random
    python benchmarks/bots.py ismcts --games 100 --jobs 2 --time 0.5  # ISMCTS vs greedy
    python benchmarks/bots.py openspiel --games 10 --time 0.5      # vs OpenSpiel's ISMCTS
    python benchmarks/bots.py all
    python benchmarks/bots.py twin --game goods --players 2,3   # a level's CPU s a decision

``speed`` times ISMCTS on the same positions with this checkout's code and with
the code of commit 8f2bd9c (extracted with ``git archive``, imported beside it:
``benchmarks/baseline.py``), turn by turn in one process, in CPU seconds, with
the same budget: each code's own default search, or with ``--rounds-ahead`` the
same settings for both (the money heuristic, that many rounds ahead); it also
times determinization and the kernel (random play-outs: the old
``legal_keys``/``apply`` against the fast path ``legal_ids``/``resolve``). ``ladder``
plays every pair of levels (``lf.bots.LEVELS``) and prints Elo ratings with 95%
bootstrap intervals (``langfinger_widget.study.ladder``); with matplotlib (the ``bench`` extra) it
draws them in ``benchmarks/ladder.png``. Every match is 2 players with seats
rotated; win rates come with a Wilson 95% interval.

``twin`` times the searching levels of a game other than Langfinger (``--game``; ISMCTS
on ``resample`` twins, ``lf.bots.make(level, game=...)``): CPU seconds a decision on
``--positions`` positions of greedy self-play at each player count, a real choice each,
as the arena and the tables search them (a fresh twin a position).

``openspiel`` (the openspiel extra; not in ``all``: minutes a game) plays our ISMCTS
against OpenSpiel's ISMCTSBot at equal time a move (issue 15). Measured on a loaded
machine (load ~10), 0.5 s a move each, 10 games: our ISMCTS 100.0% [72.2, 100.0], avg
money 20.7, 180 iterations a search; OpenSpiel's ISMCTSBot 0.0%, avg money 3.5, 6
simulations a search (each one a random rollout to the end of the game through the
python_langfinger state). The other figures are in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import baseline

import langfinger_widget as lf
from langfinger_widget.bots import GreedyBot
from langfinger_widget.study import ladder
from langfinger_widget.study.arena import parse_bots, report, run_local, summarize

HERE = Path(__file__).resolve().parent


def load_note() -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"load average {load:.1f} on {os.cpu_count()} cores"


def match(bots: str, games: int, jobs: int, seed: int) -> None:
    started = time.perf_counter()
    results = run_local(parse_bots(bots), games, seed, jobs, progress=True)
    report(summarize(results))
    print(f"({time.perf_counter() - started:.0f} s wall clock, --jobs {jobs})")


def positions(count: int, seed: int, players: int = 2) -> list[lf.Game]:
    """Positions from greedy self-play, spread over the game, where a real choice exists."""
    rng = random.Random(seed)
    found: list[lf.Game] = []
    while len(found) < count:
        g = lf.Game.new(players=players, seed=rng.getrandbits(31))
        bots = [GreedyBot(seed=1 + i) for i in range(players)]
        while not g.is_over and len(found) < count:
            seat = g.to_move
            assert seat is not None
            legal = g.legal_actions()
            if len(legal) > 1 and rng.random() < 0.1:
                found.append(g.copy())
            g.play(bots[seat].choose(g.view(seat), legal))
    return found


class Side:
    """One code base under test: its ISMCTS bot, determinizer and kernel."""

    def __init__(self, label: str, package: ModuleType) -> None:
        self.label = label
        name = package.__name__
        self.bots = importlib.import_module(f"{name}.bots")
        self.determinize = importlib.import_module(f"{name}.bots.determinize")
        self.rules = importlib.import_module(f"{name}.rules")
        self.game = package.Game
        self.cpu = {"samples": 0.0, "kernel": 0.0}
        self.counts = {"samples": 0, "kernel": 0}

    def ismcts(self, cases: list[Any], iterations: int, seed: int, **settings: Any) -> float:
        """Search each case with a fresh bot; the CPU seconds it took."""
        bot = self.bots.ISMCTSBot(seed=seed, iterations=iterations, **settings)
        start = time.process_time()
        for view, legal in cases:
            bot.evaluate(view, legal)
        return time.process_time() - start

    def samples(self, cases: list[Any], count: int, seed: int) -> None:
        rng = random.Random(seed)
        start = time.process_time()
        for view, _ in cases:
            sampler = self.determinize.Determinizer(view)
            for _ in range(count):
                sampler.sample(rng)
        self.cpu["samples"] += time.process_time() - start
        self.counts["samples"] += count * len(cases)

    def kernel(self, games: int, seed: int) -> None:
        """Random play-outs on the kernel's own level (no Game, no dicts)."""
        rules, moves = self.rules, 0
        fast = hasattr(rules, "legal_ids")
        start = time.process_time()
        for k in range(games):
            state = self.game.new(players=2 + k % 4, seed=seed + k).state
            pick = random.Random(seed + k).random
            while state.phase != "over":
                if fast:
                    ids = rules.legal_ids(state)
                    rules.resolve(state, rules.ACTIONS[ids[int(pick() * len(ids))]], None)
                else:
                    keys = rules.legal_keys(state)
                    rules.apply(state, keys[int(pick() * len(keys))])
                moves += 1
        self.cpu["kernel"] += time.process_time() - start
        self.counts["kernel"] += moves

    def rate(self, what: str) -> float:
        return self.counts[what] / self.cpu[what] if self.cpu[what] else 0.0


def wire_cases(games: list[lf.Game]) -> list[Any]:
    """What a bot is given, as it would arrive over the wire: plain JSON data."""
    return [json.loads(json.dumps((g.view(g.to_move), [dict(a) for a in g.legal_actions()])))
            for g in games]


def speed(iterations: int, count: int, rounds: int, seed: int,
          players: tuple[int, ...] = (2,), rounds_ahead: int | None = None) -> dict[str, Any]:
    """ISMCTS, determinization and kernel rates: this code and 8f2bd9c, same run.

    The first player count is the headline (2 players: the figures of issue 13);
    each further count adds an ISMCTS row of its own. Each code searches with its
    own defaults (this code: the win model at the end of the round; 8f2bd9c: the
    money heuristic two rounds ahead), or, given ``rounds_ahead``, both with the
    money heuristic that many rounds ahead (``1``: as the ladder's levels do).
    """
    from tqdm import tqdm

    cases = {n: wire_cases(positions(count, seed, n)) for n in players}
    new, old = Side("this code", lf), Side(baseline.BASELINE, baseline.load())
    reach = "each code's default search" if rounds_ahead is None else \
        f"both with the money heuristic {rounds_ahead} rounds ahead"
    print(f"{count} positions a player count x {iterations} iterations, {reach}, "
          f"{rounds} rounds, CPU seconds, turn by turn; {load_note()}")
    settings: dict[str, dict[str, Any]] = {new.label: {}, old.label: {}}
    if rounds_ahead is not None:  # like for like: the old code knows only its heuristic
        settings = {new.label: {"rounds_ahead": rounds_ahead, **lf.bots.ismcts.MONEY_HEURISTIC},
                    old.label: {"rounds_ahead": rounds_ahead}}
    # (label, this code's rate, the old code's, the ratio's 95% interval or None), in print order
    table: list[tuple[str, float, float, tuple[float, float] | None]] = []
    for n in players:
        turns: list[tuple[float, float]] = []  # (this code, the old code) CPU s, a turn each
        for side in (new, old):  # warm up: imports and caches, as a bot is after its first move
            side.ismcts(cases[n], iterations, seed - 1, **settings[side.label])
        # Turn by turn at the finest grain there is (one position's search), one code and then
        # the other, swapping who goes first: a shared machine's speed drifts over seconds.
        for r in tqdm(range(rounds), desc=f"{n} players", unit="round", file=sys.stderr):
            for k, case in enumerate(cases[n]):
                spent = {side.label: side.ismcts([case], iterations, seed + r,
                                                 **settings[side.label])
                         for side in ((new, old) if (r + k) % 2 == 0 else (old, new))}
                turns.append((spent[new.label], spent[old.label]))
            if n == players[0]:
                for side in (new, old) if r % 2 == 0 else (old, new):
                    side.samples(cases[n], 100, seed + r)
                    side.kernel(20, 1000 * r)
        done = iterations * len(turns)
        table.append((f"ISMCTS iterations/s, {n} players", done / sum(t for t, _ in turns),
                      done / sum(t for _, t in turns), ratio_interval(turns, seed)))
    rows = {"ismcts": table[0][1:3]}
    for at, (what, label) in enumerate((("samples", "determinizations/s"),
                                        ("kernel", "kernel random moves/s")), start=1):
        rows[what] = (new.rate(what), old.rate(what))
        table.insert(at, (label, *rows[what], None))  # after the headline's ISMCTS row
    print(f"{'':30} {'this code':>12} {baseline.BASELINE:>12} {'ratio':>7}  95% interval")
    for label, now, then, interval in table:
        shown = f"  [{interval[0]:.2f}, {interval[1]:.2f}]" if interval else ""
        print(f"{label:30} {now:>12,.0f} {then:>12,.0f} {now / then:>6.2f}x{shown}")
    print("(the interval: a bootstrap over the turns, each one position searched by both codes)")
    return rows


def ratio_interval(turns: list[tuple[float, float]], seed: int,
                   resamples: int = 2000) -> tuple[float, float]:
    """95% bootstrap interval of the speed ratio (old CPU over new), resampling the turns."""
    rng = random.Random(seed)
    ratios = []
    for _ in range(resamples):
        picked = [turns[rng.randrange(len(turns))] for _ in turns]
        ratios.append(sum(o for _, o in picked) / sum(n for n, _ in picked))
    ratios.sort()
    return ratios[int(0.025 * resamples)], ratios[int(0.975 * resamples) - 1]


def twin_positions(game: str, count: int, seed: int, players: int) -> list[Any]:
    """``count`` positions of greedy self-play of ``game`` where the seat deciding has a real
    choice, spread over the game (one decision in ten)."""
    spec = lf.games.get(game)
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        g = spec.Game.new(players=players, seed=rng.getrandbits(31))
        bots = [lf.bots.make("medium", seed=1 + i, game=game) for i in range(players)]
        while not g.is_over and len(found) < count:
            seat = g.to_decide[0]
            legal = g.legal_actions(seat)
            if len(legal) > 1 and rng.random() < 0.1:
                found.append(g.copy())
            g.play(bots[seat].choose(g.view(seat), legal), seat)
    return found


def twin_speed(game: str, levels: list[str], players: tuple[int, ...], count: int,
               seed: int) -> None:
    """CPU seconds a decision of each searching level, as the arena searches: a fresh twin."""
    from tqdm import tqdm

    from langfinger_widget.bots.base import thinking
    from langfinger_widget.tables.scheduler import at_once

    print(f"== {game}: CPU seconds a decision of {','.join(levels)}, {count} positions a "
          f"player count; {load_note()}")
    for n in players:
        cases = twin_positions(game, count, seed, n)
        for level in levels:
            times: list[float] = []
            iterations: list[int] = []
            for k, g in enumerate(tqdm(cases, desc=f"{level} {n}p", unit="decision",
                                       file=sys.stderr)):
                seat = g.to_decide[0]
                bot = lf.bots.make(level, seed=seed + k, game=game)
                rng = random.Random(seed + k)
                start = time.process_time()
                twin = g.resample(seat, rng)
                at_once(thinking(bot, g.view(seat), g.legal_actions(seat), twin=twin))
                times.append(time.process_time() - start)
                iterations.append(getattr(bot, "last_iterations", 0))
            times.sort()
            print(f"{n} players, {level:>6}: mean {sum(times) / len(times):.3f} s, median "
                  f"{times[len(times) // 2]:.3f} s, slowest {times[-1]:.3f} s a decision "
                  f"({sum(iterations) / len(iterations):.0f} iterations)")


def plot_ladder(summary: dict[str, Any], path: Path) -> bool:
    """The Elo table as a chart (matplotlib, if installed); False without it."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    levels = summary["levels"]
    elo = [summary["elo"]["ratings"][lv] for lv in levels]
    low = [e - summary["elo"]["ci95"][lv][0] for lv, e in zip(levels, elo, strict=True)]
    high = [summary["elo"]["ci95"][lv][1] - e for lv, e in zip(levels, elo, strict=True)]
    fig, ax = plt.subplots(figsize=(6, 3.6))
    ax.errorbar(levels, elo, yerr=[low, high], fmt="o-", capsize=5, color="#1f4e79")
    for lv, e in zip(levels, elo, strict=True):
        ax.annotate(f"{e:.0f}", (lv, e), textcoords="offset points", xytext=(8, -4))
    ax.set_ylabel(f"Elo ({levels[0]} = 0)")
    ax.set_title("Langfinger difficulty ladder, 95% bootstrap intervals")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def run_ladder(levels: list[str], games: int, jobs: int, seed: int, pairs: str) -> None:
    print(f"== ladder {','.join(levels)}: {games} games a pair ({pairs}); {load_note()}")
    started = time.perf_counter()
    matches = ladder.play(levels, games, seed, jobs, pairs)
    summary = ladder.summarize(levels, matches, seed=seed)
    ladder.report(summary)
    print(f"({time.perf_counter() - started:.0f} s wall clock, --jobs {jobs})")
    (HERE / "ladder.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    if plot_ladder(summary, HERE / "ladder.png"):
        print(f"saved {HERE / 'ladder.png'} and ladder.json")
    else:
        print(f"saved {HERE / 'ladder.json'} (no matplotlib: no plot)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("section", nargs="?", default="all",
                   choices=("speed", "ladder", "greedy", "ismcts", "openspiel", "twin", "all"))
    p.add_argument("--games", type=int, default=None,
                   help="games (ladder: 60 a pair; greedy: 400; ismcts: 100)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--time", type=float, default=0.5, help="ISMCTS seconds a move (ismcts)")
    p.add_argument("--iterations", type=int, default=300, help="per position (speed)")
    p.add_argument("--positions", type=int, default=10, help="positions (speed)")
    p.add_argument("--rounds", type=int, default=4, help="turns each code takes (speed)")
    p.add_argument("--rounds-ahead", type=int, default=None,
                   help="both codes with the money heuristic this many rounds ahead "
                        "(speed; the levels use 1); default: each code's own defaults")
    p.add_argument("--players", default="2",
                   help="player counts of the positions, the first the headline (speed)")
    p.add_argument("--levels", default=",".join(lf.bots.LEVELS), help="ladder levels")
    p.add_argument("--pairs", choices=("all", "adjacent"), default="all")
    p.add_argument("--game", default="goods", help="the game other than Langfinger (twin)")
    args = p.parse_args()
    if args.section in ("speed", "all"):
        print("== ISMCTS speed: this code vs", baseline.BASELINE)
        speed(args.iterations, args.positions, args.rounds, args.seed,
              tuple(int(n) for n in args.players.split(",")), args.rounds_ahead)
    if args.section in ("ladder", "all"):
        run_ladder(args.levels.split(","), args.games or 60, args.jobs, args.seed, args.pairs)
    if args.section in ("greedy", "all"):
        print("== greedy vs random, 2 players (target: greedy >= 90% wins)")
        match("greedy,random", args.games or 400, args.jobs, args.seed)
    if args.section in ("ismcts", "all"):
        print(f"== ISMCTS at {args.time} s a move vs greedy, 2 players (target: >= 65% wins)")
        match(f"ismcts:time={args.time},greedy", args.games or 100, args.jobs, args.seed)
    if args.section == "twin":  # not in "all": another game's levels
        levels = [lv for lv in args.levels.split(",") if not lf.bots.plays_greedily(lv)]
        twin_speed(args.game, levels, tuple(int(n) for n in args.players.split(",")),
                   args.positions, args.seed)
    if args.section == "openspiel":  # the openspiel extra; not in "all": minutes a game
        print(f"== our ISMCTS vs OpenSpiel's ISMCTSBot (random rollouts), {args.time} s a move "
              "each, 2 players")
        match(f"ismcts:time={args.time},openspiel-ismcts:time={args.time}", args.games or 10,
              args.jobs, args.seed)


if __name__ == "__main__":
    main()
