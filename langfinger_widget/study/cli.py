"""The arena's command line: ``python -m langfinger_widget.arena`` and ``langfinger-arena``.

Matches (:mod:`.arena`) and the difficulty ladder (:mod:`.ladder`, ``--ladder``);
``--help`` lists the options.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence

from .. import games
from ..kernel.errors import BadArgument
from . import ladder
from .arena import (
    DEFAULT_BOTS,
    DEFAULT_GAMES,
    DEFAULT_ITERATIONS,
    CommandLine,
    check_output,
    check_specs,
    parse_bots,
    report,
    run_local,
    run_ray,
    summarize,
    with_elo,
    write_csv,
    write_json,
)


def build_parser() -> argparse.ArgumentParser:
    p = CommandLine(prog="python -m langfinger_widget.arena",
                                description="Play bots against each other, seats rotated.")
    p.add_argument("--bots", default=DEFAULT_BOTS,
                   help="comma-separated bots, one per seat: random, greedy, ismcts "
                        "(budget: ismcts:time=0.5 or ismcts:iterations=300; "
                        "default: %(default)s); with the openspiel extra also "
                        "openspiel-ismcts and openspiel-mcts")
    p.add_argument("--game", default="langfinger", choices=games.names(),
                   help="the registered game to play (default: %(default)s); its levels "
                        "easy and medium are its own greedy bot, hard and expert ISMCTS")
    p.add_argument("--games", type=int, default=DEFAULT_GAMES,
                   help="games to play (default: %(default)s, about a minute on one core)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (local backend)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--time", type=float, default=None, help="ISMCTS seconds a move (default)")
    p.add_argument("--iterations", type=int, default=None,
                   help="ISMCTS iterations a move (default: "
                        f"{DEFAULT_ITERATIONS} unless a time is given)")
    p.add_argument("--backend", choices=("local", "ray"), default="local")
    p.add_argument("--ray-address", default=None, help="an existing Ray cluster (ray backend)")
    p.add_argument("--csv", default=None, help="write one row per game and seat here")
    p.add_argument("--json", default=None, help="write the summary and every game here")
    p.add_argument("--records", default=None, metavar="DIR",
                   help="write every game's record (docs/records.md) into DIR")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--elo", action="store_true",
                   help="also Elo ratings with bootstrap 95%% intervals")
    p.add_argument("--ladder", default=None, metavar="LEVELS",
                   help="measure these levels (e.g. easy,medium,hard,expert): every pair plays "
                        "--games 2-player games; prints the Elo table")
    p.add_argument("--pairs", choices=("all", "adjacent"), default="all",
                   help="--ladder: every pair of levels, or only neighbours")
    return p


def check_args(args: argparse.Namespace) -> None:
    """Every argument of the command line, checked before the first game (ValueError)."""
    if args.games < 1:
        raise BadArgument(f"--games must be at least 1, not {args.games}")
    if args.jobs < 1:
        raise BadArgument(f"--jobs must be at least 1, not {args.jobs}")
    if args.time is not None and not (math.isfinite(args.time) and args.time > 0):
        raise BadArgument(f"--time is seconds a move, a finite number above 0, not {args.time}")
    if args.iterations is not None and args.iterations < 1:
        raise BadArgument(f"--iterations must be at least 1, not {args.iterations}")
    check_output(args.csv, "--csv")
    check_output(args.json, "--json")
    check_output(args.records, "--records", folder=True)



def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        check_args(args)
    except ValueError as e:
        print(f"arena: {e}", file=sys.stderr)
        return 2
    if args.ladder is not None:
        return ladder.main(args)
    defaults: dict[str, float] = {}
    if args.time is not None:
        defaults["time"] = args.time
    if args.iterations is not None:
        defaults["iterations"] = args.iterations
    try:
        specs = parse_bots(args.bots, defaults, {"iterations": DEFAULT_ITERATIONS}, args.game)
        check_specs(specs)
    except ValueError as e:
        print(f"arena: {e}", file=sys.stderr)
        return 2
    show = not args.no_progress
    if args.backend == "ray":
        results = run_ray(specs, args.games, args.seed, args.ray_address, show,
                          records=args.records)
    else:
        results = run_local(specs, args.games, args.seed, args.jobs, show, records=args.records)
    summary = summarize(results)
    if args.elo:
        with_elo(summary, results, [s.label for s in specs], seed=args.seed)
    report(summary)
    if args.csv:
        write_csv(results, args.csv)
    if args.json:
        write_json(results, summary, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
