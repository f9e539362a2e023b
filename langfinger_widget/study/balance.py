"""The balance study: does the start seat matter, is a scoundrel stronger, how long are games?

One command plays the games (through the arena, on Ray or in local processes)
and stores the results, a summary and the figures under ``docs/study/<bot>/``::

    python -m langfinger_widget.study --bot expert --games 60 --backend ray

(``--games`` gives one number for every player count, or one per count.) A study
can also be played a player count at a time (``--players 3,4,5 --games 60``): the
counts already stored stay, when the same bot played them from the same seed. With
``--grow`` a count keeps the games it has and only the games after them are played
(``--games 60 --grow`` brings a count of 40 games to 60), so a long study can be
played in parts.
Every game follows from the seed, the player count and its index, so
``meta.json``'s ``reproduce`` is one command that plays every stored game again.

Every seat is the same bot, so whatever differs between seats or scoundrels
is the game's doing, not a stronger opponent's. Seat 0 starts the game (the arena deals
with start player 0: R1.0, R1.3).
A win shared by *k* players counts 1/k, as in the arena. ``notebooks/11_balance``
reads the stored results; :func:`load` and :func:`summarize` are what it uses.
"""

from __future__ import annotations

import csv
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..kernel.cards import MAX_PLAYERS, MIN_PLAYERS, SCOUNDRELS
from ..kernel.errors import BadArgument
from ..version import __version__
from . import arena

PLAYER_COUNTS = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
Row = dict[str, Any]


def csv_name(players: int) -> str:
    return f"games_{players}p.csv"


# --- playing ---------------------------------------------------------------------------------


def play(players: int, bot: str, games: int, seed: int, backend: str = "local", jobs: int = 1,
         progress: bool = True, first: int = 0) -> list[arena.GameResult]:
    """``games`` games of ``players`` copies of ``bot`` (an arena spec), seats rotated,
    numbered from ``first`` on."""
    specs = arena.parse_bots(",".join([bot] * players))
    if backend == "ray":
        return arena.run_ray(specs, games, seed, progress=progress, num_cpus=jobs, first=first)
    return arena.run_local(specs, games, seed, jobs, progress=progress, first=first)


def run(out: Path, bot: str, games: int | Mapping[int, int], seed: int, backend: str,
        jobs: int, counts: Sequence[int] = PLAYER_COUNTS,
        command: str | None = None, grow: bool = False) -> dict[str, Any]:
    """Play the study, write the CSVs, ``summary.json``, ``meta.json`` and the figures.

    A study may be played a player count or a few at a time (``counts``): the
    player counts already stored under ``out`` stay, as long as they were played
    by the same bot from the same seed, and the summary and figures cover every
    stored count. ``games`` is a number for every count or one per count.
    With ``grow`` a stored count keeps its games and gets only the ones after
    them, up to ``games`` in all; else it is played again from its first game.
    ``meta.json`` keeps each count's games, command and time, and one command that
    reproduces them all. ``command`` is what to record as this run's command (by default
    this process's command line).
    """
    out.mkdir(parents=True, exist_ok=True)
    meta = _meta_to_extend(out, bot, seed)
    command = command or command_line(sys.argv[1:])
    wanted = {n: games[n] if isinstance(games, Mapping) else games for n in counts}
    kept = {n: _stored_games(out, n, meta, wanted[n]) if grow else 0 for n in counts}
    for n in counts:
        if kept[n] and kept[n] == wanted[n]:
            continue  # every game asked for is stored: nothing to play, no part to record
        began = time.perf_counter()
        results = play(n, bot, wanted[n] - kept[n], seed + n, backend, jobs, first=kept[n])
        seconds = round(time.perf_counter() - began, 1)
        arena.write_csv(results, str(out / csv_name(n)), append=kept[n] > 0)
        meta["runs"][str(n)] = _run_entry(meta["runs"].get(str(n)) if kept[n] else None,
                                          wanted[n], seconds, command, backend, jobs)
    meta["runs"] = dict(sorted(meta["runs"].items()))
    meta["total_seconds"] = round(sum(r["seconds"] for r in meta["runs"].values()), 1)
    meta["reproduce"] = reproduce(out, bot, seed, meta["runs"])
    meta.update({"langfinger_widget": __version__, "python": platform.python_version(),
                 "machine": f"{platform.machine()}, {os.cpu_count()} cores"})
    (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    data = load(out)
    summary = summarize(data)
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    figures(summary, data, out)
    return summary


def command_line(argv: Sequence[str]) -> str:
    """The study's command with these arguments, as ``meta.json`` records it."""
    return " ".join(["python -m langfinger_widget.study", *argv])


def _stored_games(out: Path, players: int, meta: Mapping[str, Any], wanted: int) -> int:
    """How many games of ``players`` a grown study keeps (checked before anything is played)."""
    stored = meta["runs"].get(str(players))
    if stored is None:
        return 0
    have = stored["games"]
    rows = load(out, [players]).get(players, [])
    if {r["game"] for r in rows} != set(range(have)):
        raise BadArgument(f"{out / csv_name(players)} does not hold games 0-{have - 1}, as "
                         "meta.json says: play that count again without --grow")
    if wanted < have:
        raise BadArgument(f"{players} players: {have} games are stored; --grow adds games, "
                         f"so ask for {have} or more, not {wanted}")
    return int(have)


_PART = ("games", "seconds", "command", "backend", "jobs", "date", "commit")


def code_commit() -> str | None:
    """The git commit of the code playing, with ``+changes`` if the package differs from it
    (a bot's games follow from its code and the seed); None outside a git checkout."""
    here = Path(__file__).resolve().parent.parent  # the whole package, not just study/
    try:
        head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], capture_output=True,
                              text=True, cwd=here, timeout=10)
        changed = subprocess.run(["git", "status", "--porcelain", "--", "."],
                                 capture_output=True, text=True, cwd=here, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    if head.returncode != 0 or not head.stdout.strip():
        return None
    return head.stdout.strip() + ("+changes" if changed.stdout.strip() else "")


def _run_entry(before: Mapping[str, Any] | None, games: int, seconds: float, command: str,
               backend: str, jobs: int) -> dict[str, Any]:
    """``meta.json``'s entry for one player count: its games and time in all, and the
    latest part's command; a grown count lists every part in ``parts``."""
    entry: dict[str, Any] = {"games": games, "seconds": seconds, "command": command,
                             "backend": backend, "jobs": jobs,
                             "date": time.strftime("%Y-%m-%d"), "commit": code_commit()}
    if before is None:
        return entry
    parts = before.get("parts") or [{"first": 0} | {k: before.get(k) for k in _PART}]
    first = before["games"]
    parts = [*parts, {"first": first} | entry | {"games": games - first}]
    return entry | {"seconds": round(sum(p["seconds"] for p in parts), 1), "parts": parts}


def reproduce(out: Path, bot: str, seed: int, runs: Mapping[str, Mapping[str, Any]]) -> str:
    """One command that plays every stored game again (into ``out``, on Ray)."""
    games = ",".join(str(r["games"]) for r in runs.values())
    return (f"python -m langfinger_widget.study --bot {bot} --seed {seed} "
            f"--players {','.join(runs)} --games {games} --backend ray --out {out}")


def _meta_to_extend(out: Path, bot: str, seed: int) -> dict[str, Any]:
    """The stored study's meta data, if its games may be joined by this bot's from this seed."""
    fresh: dict[str, Any] = {"bot": bot, "seed": seed, "runs": {}}
    path = out / "meta.json"
    stored = json.loads(path.read_text()) if path.exists() else None
    if stored is None or not any(out.glob("games_*p.csv")):
        return fresh
    if stored.get("bot") != bot or stored.get("seed") != seed or "runs" not in stored:
        raise BadArgument(f"{out} holds a study of {stored.get('bot')!r} from seed "
                         f"{stored.get('seed')}; play {bot!r} from seed {seed} into another "
                         "folder (--out), or remove that one first")
    return dict(stored)


# --- reading and summarizing -------------------------------------------------------------------


def load(folder: Path | str, counts: Sequence[int] = PLAYER_COUNTS) -> dict[int, list[Row]]:
    """The stored games, per player count: one row per game and seat (arena CSV)."""
    rows: dict[int, list[Row]] = {}
    for n in counts:
        path = Path(folder) / csv_name(n)
        if not path.exists():
            continue
        with open(path, newline="", encoding="utf-8") as f:
            rows[n] = [_typed(r) for r in csv.DictReader(f)]
    return rows


def _typed(r: dict[str, str]) -> Row:
    whole = ("game", "seed", "seat", "money", "won", "winners", "rounds", "decisions")
    return {k: (int(v) if k in whole else float(v) if k == "think_s" else v) for k, v in r.items()}


def _point(r: Row) -> float:
    return 1.0 / r["winners"] if r["won"] else 0.0


def _rate(points: Sequence[float]) -> dict[str, Any]:
    low, high = arena.wilson(sum(points), len(points))
    share = sum(points) / len(points) if points else 0.0
    return {"games": len(points), "win_rate": share, "ci95": [low, high]}


def _games(rows: list[Row]) -> list[Row]:
    """One row per game (seat 0's), for game-level figures."""
    return [r for r in rows if r["seat"] == 0]


def _spread(values: Sequence[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"mean": statistics.fmean(ordered), "median": statistics.median(ordered),
            "min": ordered[0], "max": ordered[-1],
            "p10": ordered[len(ordered) // 10], "p90": ordered[(9 * len(ordered)) // 10]}


def summarize(data: dict[int, list[Row]]) -> dict[str, Any]:
    """Win rates by seat and scoundrel (Wilson 95%), game length and final money."""
    out: dict[str, Any] = {}
    for n, rows in sorted(data.items()):
        by_seat: dict[int, list[float]] = defaultdict(list)
        by_scoundrel: dict[str, list[float]] = defaultdict(list)
        for r in rows:
            by_seat[r["seat"]].append(_point(r))
            by_scoundrel[r["scoundrel"]].append(_point(r))
        games = _games(rows)
        out[str(n)] = {
            "games": len(games),
            "fair_share": 1 / n,
            "seats": {str(s): _rate(p) for s, p in sorted(by_seat.items())},
            "scoundrels": {k: _rate(by_scoundrel[k]) for k in SCOUNDRELS if k in by_scoundrel},
            "rounds": _spread([g["rounds"] for g in games]),
            "decisions": _spread([g["decisions"] for g in games]),
            "winner_money": _spread([r["money"] for r in rows if r["won"]]),
            "money": _spread([r["money"] for r in rows]),
            "shared_wins": sum(g["winners"] > 1 for g in games) / len(games),
        }
    return out


# --- figures ---------------------------------------------------------------------------------


def figures(summary: dict[str, Any], data: dict[int, list[Row]], out: Path) -> list[Path]:
    """Save the four figures as PNGs under ``out``: seats, scoundrels, rounds, money."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt

    made = []
    for name, fig in (("seats", plot_rates(summary, "seats")),
                      ("scoundrels", plot_rates(summary, "scoundrels")),
                      ("rounds", plot_rounds(data)), ("money", plot_money(data))):
        path = out / f"{name}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        made.append(path)
    return made


def plot_rates(summary: dict[str, Any], part: str) -> Any:
    """Win rate with its 95% interval by seat (``part="seats"``) or by scoundrel."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(summary), figsize=(3.2 * len(summary), 3.2), sharey=True,
                             squeeze=False)
    for ax, (n, s) in zip(axes[0], summary.items(), strict=True):
        labels = list(s[part])
        rates = [s[part][k]["win_rate"] for k in labels]
        errors = [[r - s[part][k]["ci95"][0] for k, r in zip(labels, rates, strict=True)],
                  [s[part][k]["ci95"][1] - r for k, r in zip(labels, rates, strict=True)]]
        ax.bar(range(len(labels)), rates, yerr=errors, capsize=3, color="#5b8db8")
        ax.axhline(s["fair_share"], color="#aa3333", linestyle="--", linewidth=1)
        ax.set_xticks(range(len(labels)), labels, rotation=45 if part == "scoundrels" else 0)
        ax.set_title(f"{n} players ({s['games']} games)")
    axes[0][0].set_ylabel("win rate (95% CI); dashed: 1/players")
    fig.suptitle("win rate by seat (0 starts)" if part == "seats" else "win rate by scoundrel")
    fig.tight_layout()
    return fig


def plot_rounds(data: dict[int, list[Row]]) -> Any:
    """How many rounds games last, per player count."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.4))
    values = {n: [g["rounds"] for g in _games(rows)] for n, rows in data.items()}
    low = min(min(v) for v in values.values())
    high = max(max(v) for v in values.values())
    bins = [x - 0.5 for x in range(low, high + 2)]
    for n, v in values.items():
        ax.hist(v, bins=bins, histtype="step", linewidth=1.5, density=True, label=f"{n} players")
    ax.set_xlabel("rounds")
    ax.set_ylabel("share of games")
    ax.legend()
    ax.set_title("game length")
    fig.tight_layout()
    return fig


def plot_money(data: dict[int, list[Row]]) -> Any:
    """Final money of the winners and of everyone else, per player count."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.4))
    counts = list(data)
    ax.boxplot([[r["money"] for r in data[n] if r["won"]] for n in counts],
               positions=[x - 0.18 for x in range(len(counts))], widths=0.3)
    ax.boxplot([[r["money"] for r in data[n] if not r["won"]] for n in counts],
               positions=[x + 0.18 for x in range(len(counts))], widths=0.3)
    ax.set_xticks(range(len(counts)), [f"{n}p: winners | others" for n in counts], fontsize=8)
    ax.axhline(20, color="#aa3333", linestyle="--", linewidth=1)
    ax.set_ylabel("final money (dashed: 20, R10.1)")
    ax.set_title("final money")
    fig.tight_layout()
    return fig


# --- command line ------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    p = arena.CommandLine(prog="python -m langfinger_widget.study",
                                description="The balance study: every seat the same bot.")
    p.add_argument("--bot", default="hard",
                   help="a level or arena bot spec for every seat (default: hard)")
    p.add_argument("--games", default="100",
                   help="games per player count: one number, or one per --players count")
    p.add_argument("--players", default="2,3,4,5", help="player counts to study")
    p.add_argument("--seed", type=int, default=15)
    p.add_argument("--backend", choices=("local", "ray"), default="ray")
    p.add_argument("--jobs", type=int, default=2, help="worker processes or Ray CPUs")
    p.add_argument("--out", default=None, help="where to store it (default: docs/study/<bot>)")
    p.add_argument("--grow", action="store_true",
                   help="keep each count's stored games and play only the ones after them")
    argv = list(sys.argv[1:] if argv is None else argv)
    args = p.parse_args(argv)
    try:
        counts = [int(n) for n in args.players.split(",")]
        per_count = [int(g) for g in args.games.split(",")]
    except ValueError:
        p.error("--players and --games take whole numbers separated by commas")
    if not set(counts) <= set(PLAYER_COUNTS):
        p.error(f"--players: each from {MIN_PLAYERS} to {MAX_PLAYERS} (R1.1)")
    if len(per_count) not in (1, len(counts)) or min(per_count) < 1:
        p.error("--games: one positive number, or one for each --players count")
    if args.jobs < 1:
        p.error(f"--jobs must be at least 1, not {args.jobs}")
    try:  # every argument before the first game: a bad budget would stop a worker much later
        arena.check_specs(arena.parse_bots(",".join([args.bot] * MIN_PLAYERS)))
        arena.check_output(args.out, "--out", folder=True)
    except ValueError as e:
        p.error(str(e))
    games = dict(zip(counts, per_count * len(counts) if len(per_count) == 1 else per_count,
                     strict=True))
    try:
        out = Path(args.out or Path("docs/study", re.sub(r"[^\w.-]+", "-", args.bot)))
        summary = run(out, args.bot, games, args.seed, args.backend, args.jobs,
                      counts, command_line(argv), args.grow)
    except ValueError as e:
        print(f"study: {e}", file=sys.stderr)
        return 2
    for n, s in summary.items():
        seats = ", ".join(f"{100 * r['win_rate']:.0f}%" for r in s["seats"].values())
        print(f"{n} players: {s['games']} games, {s['rounds']['mean']:.1f} rounds; "
              f"win rate by seat {seats}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
