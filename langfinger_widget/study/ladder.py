"""The difficulty ladder measured: Elo ratings of the levels from arena games.

    python -m langfinger_widget.arena --ladder easy,medium,hard,expert --games 100 --jobs 2

Every pair of levels (or, with ``--pairs adjacent``, each level and the next)
plays ``--games`` two-player games with seats rotated and the same deals for
every pair (the same seeds: the levels meet the same luck). The results feed
one Bradley-Terry fit (:mod:`.elo`): each level's Elo, the first level at 0,
with 95% bootstrap intervals, and the gap from each level to the one below.
Each level's CPU seconds a move (mean and slowest) show the time budget too.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict
from itertools import combinations, pairwise
from typing import Any

from .. import bots as bots_mod
from ..kernel.errors import BadArgument
from . import elo
from .arena import BotSpec, GameResult, percent, rate_of, run_local
from .arena import pairwise as pairwise_results


def schedule(levels: Sequence[str], pairs: str = "all") -> list[tuple[str, str]]:
    """The matches of a ladder: every pair of levels, or each level and the next."""
    return list(pairwise(levels)) if pairs == "adjacent" else list(combinations(levels, 2))


def check_levels(levels: Sequence[str]) -> None:
    """ValueError unless ``levels`` are 2 or more different levels (or bots)."""
    unknown = [lv for lv in levels if lv not in bots_mod.LEVELS and lv not in bots_mod.BOTS]
    if unknown or len(set(levels)) != len(levels) or len(levels) < 2:
        raise BadArgument(f"a ladder lists 2 or more different levels from "
                         f"{list(bots_mod.LEVELS)}, not {list(levels)}")


def play(levels: Sequence[str], games: int, seed: int, jobs: int, pairs: str = "all",
         progress: bool = True, game: str = "langfinger"
         ) -> dict[tuple[str, str], list[GameResult]]:
    """Play the ladder's matches (:func:`schedule`) of the registered game ``game``; the
    games of each."""
    check_levels(levels)
    matches = {}
    for a, b in schedule(levels, pairs):
        if progress:
            print(f"{a} vs {b}: {games} games", file=sys.stderr)
        matches[a, b] = run_local([BotSpec(a, game=game), BotSpec(b, game=game)], games, seed,
                                  jobs, progress)
    return matches


def summarize(levels: Sequence[str], matches: dict[tuple[str, str], list[GameResult]],
              rounds: int = 1000, seed: int = 0) -> dict[str, Any]:
    """Each match's win rate, the Elo table, and each level's CPU time a move."""
    every = [r for results in matches.values() for r in results]
    ratings = elo.rate(list(levels), pairwise_results(every), rounds=rounds, seed=seed)
    out: dict[str, Any] = {"levels": list(levels), "matches": [], "cpu": {}}
    for (a, b), results in matches.items():
        points = sum((1 / len(r.winners)) if r.bots.index(a) in r.winners else 0.0
                     for r in results)
        out["matches"].append({"level": a, "opponent": b, **rate_of(points, len(results))})
    for level in levels:
        spent = moves = slowest = 0.0
        for r in every:
            if level in r.bots:
                seat = r.bots.index(level)
                spent += r.think_cpu[seat]
                moves += r.moves[seat]
                slowest = max(slowest, r.slowest_cpu[seat])
        out["cpu"][level] = {"per_move_s": spent / moves if moves else 0.0, "slowest_s": slowest}
    out["elo"] = {"ratings": ratings.elo, "ci95": ratings.ci95, "gaps": ratings.gaps,
                  "table": ratings.table()}
    return out


def report(summary: dict[str, Any], out: Callable[[str], None] = print) -> None:
    out("match (2 players, seats rotated)        first level's win rate [95% CI]")
    for m in summary["matches"]:
        out(f"  {m['level']:>8} vs {m['opponent']:<8}              {percent(m)}")
    out("Elo (Bradley-Terry maximum likelihood, 95% bootstrap intervals):")
    for line in summary["elo"]["table"]:
        out(f"  {line}")
    out("CPU seconds a move (one core): mean, slowest")
    for level, c in summary["cpu"].items():
        out(f"  {level:10} {c['per_move_s']:.4f}  {c['slowest_s']:.3f}")


def main(args: argparse.Namespace) -> int:
    """``arena --ladder``: play, report, and with ``--json`` save summary and games."""
    levels = [lv.strip() for lv in args.ladder.split(",")]
    try:
        matches = play(levels, args.games, args.seed, args.jobs, args.pairs,
                       not args.no_progress, args.game)
    except ValueError as e:
        print(f"arena: {e}", file=sys.stderr)
        return 2
    summary = summarize(levels, matches, seed=args.seed)
    report(summary)
    if args.json:
        games = {f"{a} vs {b}": [asdict(r) for r in rs] for (a, b), rs in matches.items()}
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"summary": summary, "games": games}, f, indent=1)
    return 0


__all__ = ["main", "play", "report", "schedule", "summarize"]
