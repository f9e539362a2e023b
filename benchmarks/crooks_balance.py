"""Crooks' balance figures from arena games: seats, turn order, specials, gangs, game length.

Reads the games the arena wrote (``python -m langfinger_widget.arena --game crooks ...
--json FILE``), one file a match, and prints for each: the win rate by seat and by place in
turn order (the start player is drawn from each game's seed, C1.0), how often each special
is taken and used a game, how often each gang is controlled, and the game length; with
``--csv DIR`` it keeps one row a game and seat (``games_<bots>_<n>p.csv``), with ``--plot``
a figure of it all (matplotlib, the ``study`` extra). A win shared by k seats counts 1/k.

    python -m langfinger_widget.arena --game crooks --bots medium,medium,medium \\
        --games 300 --json out/medium-3p.json
    python benchmarks/crooks_balance.py out/medium-*.json --plot docs/study/crooks/balance.png
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import langfinger_widget as lf
from langfinger_widget.games.crooks.cards import GANGS, SPECIALS
from langfinger_widget.study.arena import wilson

Game = dict[str, Any]


def load(paths: list[str]) -> dict[tuple[str, int], list[Game]]:
    """The games of each file, by match (its bots, in seat order of game 0) and players."""
    out: dict[tuple[str, int], list[Game]] = defaultdict(list)
    for path in paths:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        for g in data["games"]:
            if g.get("game") != "crooks":
                raise SystemExit(f"{path}: not a Crooks match (game {g.get('game')!r})")
            label = "+".join(sorted(set(g["bots"])))  # "medium": every seat a medium bot
            out[label, len(g["bots"])].append(g)
    return out


def start_player(game: Game) -> int:
    """The start player the arena's deal drew from the game's seed (C1.0)."""
    first: int = lf.crooks.Game.new(players=len(game["bots"]), seed=game["seed"]).start_player
    return first


def tally(games: list[Game]) -> dict[str, Any]:
    n = len(games[0]["bots"])
    by_seat, by_order = [0.0] * n, [0.0] * n
    taken: dict[str, float] = dict.fromkeys(SPECIALS, 0.0)
    used: dict[str, float] = dict.fromkeys(SPECIALS, 0.0)
    gangs: dict[str, float] = dict.fromkeys(GANGS, 0.0)
    by_bot: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    lengths = []
    for g in games:
        first = start_player(g)
        share = 1.0 / len(g["winners"]) if g["winners"] else 0.0
        for w in g["winners"]:
            by_seat[w] += share
            by_order[(w - first) % n] += share
        for seat, bot in enumerate(g["bots"]):
            by_bot[bot][0] += share if seat in g["winners"] else 0.0
            by_bot[bot][1] += 1
        for row in g["figures"]:
            for s in SPECIALS:
                taken[s] += row[f"took_{s}"]
                used[s] += row[f"used_{s}"]
        for gang in GANGS:
            gangs[gang] += any(row[f"controls_{gang}"] for row in g["figures"])
        lengths.append(g["decisions"])
    k = len(games)
    return {
        "players": n, "games": k,
        "by_seat": [x / k for x in by_seat], "by_order": [x / k for x in by_order],
        "by_bot": {b: w / m for b, (w, m) in by_bot.items()},
        "taken": {s: x / k for s, x in taken.items()}, "used": {s: x / k for s, x in used.items()},
        "gangs": {g: x / k for g, x in gangs.items()},
        "length": (statistics.mean(lengths), min(lengths), max(lengths)),
    }


def report(label: str, t: dict[str, Any]) -> None:
    n = t["players"]
    print(f"{label}, {n} players, {t['games']} games")
    print(f"  win rate by seat:          {' '.join(f'{x:.2f}' for x in t['by_seat'])}")
    print(f"  by place in turn order:    {' '.join(f'{x:.2f}' for x in t['by_order'])} "
          f"(start player first; fair: {1 / n:.2f})")
    spans = [wilson(x * t["games"], t["games"]) for x in t["by_order"]]
    print("    95% intervals:           " + " ".join(f"[{lo:.2f}, {hi:.2f}]" for lo, hi in spans))
    if len(t["by_bot"]) > 1:
        print("  by bot:                    " + ", ".join(f"{b} {w:.2f}"
                                                        for b, w in sorted(t["by_bot"].items())))
    print("  specials a game, taken/used: " + ", ".join(
        f"{s} {t['taken'][s]:.2f}/{t['used'][s]:.2f}" for s in SPECIALS))
    print("  gang controlled (share of games): " + ", ".join(
        f"{g} {x:.2f}" for g, x in t["gangs"].items()))
    mean, low, high = t["length"]
    print(f"  decisions a game: mean {mean:.1f}, min {low}, max {high}")


def write_csv(label: str, games: list[Game], folder: Path) -> Path:
    n = len(games[0]["bots"])
    path = folder / f"games_{label}_{n}p.csv"
    folder.mkdir(parents=True, exist_ok=True)
    fields = ["index", "seed", "seat", "place", "bot", "score", "won", "decisions"]
    extra = [k for k in games[0]["figures"][0] if k != "seat"]
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(fields + extra)
        for g in games:
            first = start_player(g)
            share = 1.0 / len(g["winners"]) if g["winners"] else 0.0
            for seat in range(n):
                row = g["figures"][seat]
                out.writerow([g["index"], g["seed"], seat, (seat - first) % n, g["bots"][seat],
                              g["money"][seat], round(share if seat in g["winners"] else 0, 4),
                              g["decisions"], *(row[k] for k in extra)])
    return path


def plot(tallies: list[tuple[str, dict[str, Any]]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    width = 0.8 / max(1, len(tallies))
    for i, (label, t) in enumerate(tallies):
        name = f"{label} {t['players']}p"
        xs = [k + i * width for k in range(t["players"])]
        axes[0].bar(xs, t["by_order"], width, label=name)
        xs = [k + i * width for k in range(len(SPECIALS))]
        axes[1].bar(xs, [t["taken"][s] for s in SPECIALS], width, label=name, alpha=0.45)
        axes[1].bar(xs, [t["used"][s] for s in SPECIALS], width, color="none", edgecolor="k",
                    linewidth=0.6)
        xs = [k + i * width for k in range(len(GANGS))]
        axes[2].bar(xs, [t["gangs"][g] for g in GANGS], width, label=name)
    axes[0].set(title="Win rate by place in turn order", xlabel="place (0: start player)",
                ylabel="share of games")
    axes[1].set(title="Specials a game: taken (bar), used (outline)")
    axes[1].set_xticks(range(len(SPECIALS)), SPECIALS, rotation=30)
    axes[2].set(title="Gang controlled (share of games)")
    axes[2].set_xticks(range(len(GANGS)), GANGS)
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    print(f"wrote {path}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("files", nargs="+", help="the arena's --json files of Crooks matches")
    p.add_argument("--csv", default=None, metavar="DIR", help="one row a game and seat here")
    p.add_argument("--plot", default=None, metavar="PNG", help="the figure (matplotlib)")
    args = p.parse_args()
    tallies = []
    for (label, _), games in sorted(load(args.files).items(), key=lambda kv: kv[0][1]):
        t = tally(games)
        report(label, t)
        tallies.append((label, t))
        if args.csv:
            write_csv(label, games, Path(args.csv))
    if args.plot:
        plot(tallies, Path(args.plot))


if __name__ == "__main__":
    main()
