"""The arena: many games between bots, with seats rotated, and what they show.

    python -m langfinger_widget.arena                # ISMCTS, greedy, random: about a minute
    python -m langfinger_widget.arena --bots ismcts,greedy,random --games 500 --iterations 400
    python -m langfinger_widget.arena --ladder easy,medium,hard,expert --games 60 --jobs 2

Game ``i`` seats bot ``j`` at seat ``(j + i) % n``, so every bot sits in every
seat equally often; scoundrels are drawn at random per game (from the seed),
so their effect can be measured too. Each bot sees only ``view(seat)`` and the
legal actions. The summary gives each bot's win rate with a Wilson 95%
interval (a win shared by *k* players counts 1/k), average money, game length,
the win rate by seat and by scoundrel, and (``--elo``) Elo ratings with
bootstrap intervals from every pair of seats in every game (:mod:`.elo`; the
one with more money is ahead). ``--csv``/``--json`` write the games (and,
for JSON, the summary). Games run in worker processes (``--jobs``), or on a Ray
cluster (``--backend ray``, the ``ray`` extra), with the same results: every
game depends only on its own seed.

``--ladder`` measures the difficulty levels (``lf.bots.LEVELS``): every pair
of levels plays ``--games`` two-player games, seats rotated, and the Elo table
shows each level's rating and its gap to the level below, with the CPU
seconds each level spent a move.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any, NoReturn

from .. import bots as bots_mod
from .. import games as games_mod
from ..bots.base import thinking
from ..kernel.cards import SCOUNDRELS
from ..kernel.errors import BadArgument
from ..kernel.game import Game
from ..tables.scheduler import at_once
from . import elo

MAX_DECISIONS = 5000  # a safety net: no real game comes near it
# OpenSpiel's own search bots (langfinger_widget.envs.openspiel_bots, the openspiel extra).
OPENSPIEL_BOTS = ("openspiel-ismcts", "openspiel-mcts")

# The match the bare command plays, sized to finish in about a minute on one core of the
# development machine (the figures are in docs/bots.md): a first result, not a verdict.
DEFAULT_BOTS = "ismcts,greedy,random"
DEFAULT_GAMES = 30
DEFAULT_ITERATIONS = 150  # ISMCTS iterations a move when no budget is given at all


def _whole(v: float) -> bool:
    return isinstance(v, int) or (isinstance(v, float) and v.is_integer())


@dataclass(frozen=True)
class BotSpec:
    """A bot by name with its budget, e.g. ``ismcts:time=0.5`` (label: how it is reported)."""

    name: str
    budget: tuple[tuple[str, float], ...] = ()
    game: str = "langfinger"  # the registered game (lf.games) it plays

    @property
    def label(self) -> str:
        extra = ",".join(f"{k}={v:g}" for k, v in self.budget)
        return f"{self.name}({extra})" if extra else self.name

    def make(self, seed: int) -> bots_mod.Bot:
        whole = ("iterations", "rounds_ahead", "depth")  # counts, not seconds or constants
        budget: dict[str, Any] = {k: (int(v) if k in whole and _whole(v) else v)
                                  for k, v in self.budget}
        if self.name in OPENSPIEL_BOTS:  # the openspiel extra
            from ..envs import openspiel_bots

            return openspiel_bots.make(self.name, seed=seed, **budget)
        return bots_mod.make(self.name, seed=seed, game=self.game, **budget)


def parse_bots(text: str, defaults: dict[str, float] | None = None,
               fallback: dict[str, float] | None = None,
               game: str = "langfinger") -> list[BotSpec]:
    """``"ismcts:time=0.5,greedy,hard"`` -> specs; ``defaults`` fill an ISMCTS budget left
    unsaid; ``fallback`` is the budget of an ISMCTS bot that neither its name nor
    ``defaults`` give iterations or time. A level (``easy``, ``medium``, ``hard``,
    ``expert``) brings its own budget."""
    specs = []
    for part in text.split(","):
        name, *options = part.strip().split(":")
        budget = dict(defaults or {}) if name == "ismcts" else {}
        for opt in options:
            key, _, value = opt.partition("=")
            try:
                budget[key] = float(value)
            except ValueError:
                raise BadArgument(f"{part.strip()}: {key} must be a number, not "
                                  f"{value!r}") from None
        if name == "ismcts" and fallback and not {"iterations", "time"} & budget.keys():
            budget.update(fallback)
        known = [*sorted(bots_mod.BOTS), *OPENSPIEL_BOTS, *bots_mod.LEVELS]
        if name not in known:
            raise BadArgument(f"unknown bot {name!r}; bots are "
                             f"{sorted(bots_mod.BOTS) + list(OPENSPIEL_BOTS)}, "
                             f"levels {list(bots_mod.LEVELS)}")
        if game != "langfinger" and name in OPENSPIEL_BOTS:
            raise BadArgument(f"{name} plays langfinger only, not {game}")
        specs.append(BotSpec(name, tuple(sorted(budget.items())), game))
    spec = games_mod.get(game)
    if len(specs) not in spec.players:
        raise BadArgument(f"{spec.players_ruling or spec.rulings}: an arena match of "
                          f"{spec.title} seats {spec.players.start} to "
                          f"{spec.players.stop - 1} bots, not {len(specs)}".lstrip(": "))
    return specs


def check_specs(specs: Sequence[BotSpec]) -> None:
    """Make each bot once, so that a bad budget (``time=nan``, ``iterations=0``) is refused
    with a ValueError before the first game, not in a worker after hours of play."""
    for spec in specs:
        try:
            spec.make(seed=0)
        except ImportError as e:
            raise BadArgument(f"{spec.label} needs the openspiel extra ({e})") from None
        except (ValueError, TypeError) as e:
            raise BadArgument(f"{spec.label}: {e}") from None


def check_output(path: str | None, flag: str, folder: bool = False) -> None:
    """Raise ValueError unless ``path`` can be written to (a file, or with ``folder`` a
    folder made as needed): checked before the first game, so no result is lost."""
    if path is None:
        return
    if not path.strip():
        raise BadArgument(f"{flag} needs a path, not an empty one")
    target = Path(path)
    if folder:
        existing = next(p for p in [target, *target.parents] if p.exists())
        if not existing.is_dir():
            raise BadArgument(f"{flag} {path}: {existing} is a file, not a folder")
        return
    if target.is_dir():
        raise BadArgument(f"{flag} {path}: is a folder; name a file to write")
    if not target.parent.is_dir():
        raise BadArgument(f"{flag} {path}: the folder {target.parent} does not exist")


class CommandLine(argparse.ArgumentParser):
    """argparse, but a bad argument is one line on stderr (no usage block), exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog.rsplit('.', 1)[-1]}: {message}\n")


@dataclass
class GameResult:
    """One finished game, seat by seat."""

    index: int
    seed: int
    bots: list[str]  # label per seat
    scoundrels: list[str]
    money: list[int]
    winners: list[int]
    rounds: int
    decisions: int
    seconds: float
    think: list[float] = field(default_factory=list)  # seconds each seat spent choosing
    searches: list[int] = field(default_factory=list)  # ISMCTS searches per seat (0: no search)
    iterations: list[int] = field(default_factory=list)  # ISMCTS iterations per seat
    think_cpu: list[float] = field(default_factory=list)  # CPU seconds each seat spent choosing
    slowest_cpu: list[float] = field(default_factory=list)  # each seat's longest move, CPU s
    moves: list[int] = field(default_factory=list)  # decisions each seat made
    game: str = "langfinger"
    # The game's figures (its GameSpec's), one row a seat: what each seat did (Crooks: the
    # specials it took and used, the gangs it controlled...).
    figures: list[dict[str, Any]] = field(default_factory=list)


def game_seed(master: int, index: int) -> int:
    return random.Random(f"arena:{master}:{index}").getrandbits(31)


def play_game(specs: Sequence[BotSpec], master_seed: int, index: int,
              records: str | None = None) -> GameResult:
    """Play game ``index`` of a match: seats rotated by ``index``, all seeds from the master.

    With ``records`` (a directory), the game's full record is written there as
    ``game-<index>.lfr`` (docs/records.md), each seat's bot named in its header.
    """
    n = len(specs)
    seed = game_seed(master_seed, index)
    rng = random.Random(seed)
    seated = [specs[(seat - index) % n] for seat in range(n)]  # bot j sits at (j + index) % n
    if specs[0].game != "langfinger":
        return _play_any(seated, seed, rng, index, records)
    scoundrels = rng.sample(sorted(SCOUNDRELS), n)
    # Seat 0 starts (not drawn, R1.0): the rotation then gives every bot the start equally often.
    game = Game.new(players=n, seed=seed, scoundrels=scoundrels, start_player=0)
    players = [spec.make(seed=rng.getrandbits(31)) for spec in seated]
    think, think_cpu, slowest, moves = [0.0] * n, [0.0] * n, [0.0] * n, [0] * n
    start = time.perf_counter()
    decisions = 0
    while not game.is_over and decisions < MAX_DECISIONS:
        seat = game.to_move
        assert seat is not None
        began, began_cpu = time.perf_counter(), time.process_time()
        action = players[seat].choose(game.view(seat), game.legal_actions())
        cpu = time.process_time() - began_cpu
        think[seat] += time.perf_counter() - began
        think_cpu[seat] += cpu
        slowest[seat] = max(slowest[seat], cpu)
        moves[seat] += 1
        game.play(action)
        decisions += 1
    if records is not None:
        write_record(game, [s.label for s in seated], records, index)
    return GameResult(index, seed, [s.label for s in seated], scoundrels, game.money,
                      game.winners, game.round, decisions, time.perf_counter() - start, think,
                      [getattr(b, "searches", 0) for b in players],
                      [getattr(b, "total_iterations", 0) for b in players], think_cpu, slowest,
                      moves)


def _play_any(seated: Sequence[BotSpec], seed: int, rng: random.Random, index: int,
              records: str | None) -> GameResult:
    """A game of any registered game through the protocol: each bot is given its seat's view
    and legal actions and, if it searches (ISMCTS), a ``resample`` twin drawn from them."""
    n = len(seated)
    spec = games_mod.get(seated[0].game)
    game = spec.Game.new(players=n, seed=seed)
    players = [s.make(seed=rng.getrandbits(31)) for s in seated]
    think, think_cpu, slowest, moves = [0.0] * n, [0.0] * n, [0.0] * n, [0] * n
    start = time.perf_counter()
    decisions = 0
    while not game.is_over and decisions < MAX_DECISIONS:
        seat = game.to_decide[0]
        began, began_cpu = time.perf_counter(), time.process_time()
        legal = game.legal_actions(seat)
        if len(legal) == 1:  # nothing to decide (C2.3: a seat that cannot recruit passes)
            action = legal[0]
        else:
            twin = game.resample(seat, random.Random(rng.getrandbits(64))) \
                if hasattr(players[seat], "search_twin") else None
            action = at_once(thinking(players[seat], game.view(seat), legal, twin=twin))
        cpu = time.process_time() - began_cpu
        think[seat] += time.perf_counter() - began
        think_cpu[seat] += cpu
        slowest[seat] = max(slowest[seat], cpu)
        moves[seat] += 1
        game.play(action, seat)
        decisions += 1
    if records is not None:
        write_record(game, [s.label for s in seated], records, index)
    scores = [row["score"] for row in game.standings()]
    figures = spec.figures(game, None) if spec.figures is not None else []
    return GameResult(index, seed, [s.label for s in seated], [], scores, game.winners, 0,
                      decisions, time.perf_counter() - start, think,
                      [getattr(b, "searches", 0) for b in players],
                      [getattr(b, "total_iterations", 0) for b in players], think_cpu, slowest,
                      moves, spec.name, figures)


def write_record(game: Any, labels: Sequence[str], directory: str, index: int) -> Path:
    """The game's full record in ``directory`` (made if missing), its bots in the header."""
    from ..records import SUFFIX, write_game

    target = Path(directory) / f"game-{index:04d}{SUFFIX}"
    target.parent.mkdir(parents=True, exist_ok=True)
    text = game.record(None, bots=dict(enumerate(labels))) if isinstance(game, Game) \
        else write_game(game, bots=dict(enumerate(labels)))
    target.write_text(text, encoding="utf-8")
    return target


# --- running many games ----------------------------------------------------------------------


def _play_packed(args: tuple[list[BotSpec], int, int, str | None]) -> GameResult:
    return play_game(*args)


def run_local(specs: Sequence[BotSpec], games: int, seed: int, jobs: int,
              progress: bool = True, records: str | None = None,
              first: int = 0) -> list[GameResult]:
    """Play ``games`` games in ``jobs`` worker processes (1: in this process); ``records``:
    a directory to write each game's record to. The games are those numbered from
    ``first`` on: game *i* is the same whichever run plays it, so a match can be
    played a part at a time."""
    tasks = [(list(specs), seed, i, records) for i in range(first, first + games)]
    results: Iterator[GameResult]
    if jobs <= 1:
        results = map(_play_packed, tasks)
        return sorted(_progress(results, games, progress), key=lambda r: r.index)
    with get_context("spawn").Pool(jobs) as pool:
        results = pool.imap_unordered(_play_packed, tasks)
        return sorted(_progress(results, games, progress), key=lambda r: r.index)


def run_ray(specs: Sequence[BotSpec], games: int, seed: int, address: str | None = None,
            progress: bool = True, num_cpus: int | None = None,
            records: str | None = None, first: int = 0) -> list[GameResult]:
    """The same games as :func:`run_local`, as Ray tasks (``address``: an existing cluster)."""
    say = _say if progress else _quiet
    began = time.perf_counter()
    # Ray takes seconds to import and to start; without a word the first game seems stuck.
    say(f"arena: connecting to Ray at {address}..." if address else
        "arena: starting Ray (usually 5-15 s, longer on a busy machine)...")
    import ray  # optional extra: pip install langfinger-widget[ray]

    if not ray.is_initialized():
        start_ray(ray, address=address, num_cpus=num_cpus)
    say(f"arena: Ray ready after {time.perf_counter() - began:.1f} s")
    remote = ray.remote(_play_packed)
    pending = [remote.remote((list(specs), seed, i, records))
               for i in range(first, first + games)]

    def finished() -> Iterator[GameResult]:
        nonlocal pending
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield from ray.get(done)

    return sorted(_progress(finished(), games, progress), key=lambda r: r.index)


# Ray's own limits for a node coming up, raised for a slow or busy machine: its processes
# (GCS, raylet, workers) each wait on the others' RPCs with deadlines of a few seconds, and
# a node that misses them is given up for good. Set only where the caller has not set them.
RAY_SLOW_MACHINE = {
    "RAY_gcs_rpc_server_connect_timeout_s": "60",
    "RAY_gcs_server_request_timeout_seconds": "120",
    # More tries to reach a socket that is not up yet, each a second apart. Not a longer
    # "connect timeout": Ray sleeps that long between two tries, so 60 s there left a raylet
    # whose plasma store was a moment late waiting a whole minute (and the node given up).
    "RAY_raylet_client_num_connect_attempts": "60",
    "RAY_worker_register_timeout_seconds": "120",
    "RAY_health_check_timeout_ms": "30000",
    "RAY_health_check_failure_threshold": "20",
    # Workers start when the first task asks, not all at once while the node registers.
    "RAY_prestart_worker_first_driver": "0",
}


def start_ray(ray: Any, address: str | None = None, num_cpus: int | None = None,
              attempts: int = 2) -> None:
    """Start (or join, with ``address``) Ray with the limits of :data:`RAY_SLOW_MACHINE`.

    A local node still has one limit no setting moves (it must register within 30 s of its
    start), so a node that missed it is shut down and started once more.
    """
    for name, value in RAY_SLOW_MACHINE.items():
        os.environ.setdefault(name, value)
    for attempt in range(attempts):
        try:
            ray.init(address=address, num_cpus=num_cpus, include_dashboard=False,
                     ignore_reinit_error=True, log_to_driver=False)
            return
        except Exception:
            ray.shutdown()  # whatever half-started, so that the next try starts clean
            if attempt == attempts - 1 or address is not None:
                raise


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _quiet(text: str) -> None:
    pass


# tqdm's own default hides the estimate in "[00:12<00:48]"; this one names it.
BAR_FORMAT = ("{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} "
              "[{elapsed} so far, ETA {remaining}, {rate_fmt}]")


def _progress(results: Iterator[GameResult], total: int, show: bool) -> list[GameResult]:
    if not show:
        return list(results)
    from tqdm import tqdm  # the arena extra

    return list(tqdm(results, total=total, desc="games", unit="game", file=sys.stderr,
                     bar_format=BAR_FORMAT))


# --- statistics ---------------------------------------------------------------------------


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # The interval always holds p; at p = 0 or 1 rounding could nudge an end past it.
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def rate_of(points: float, games: int) -> dict[str, Any]:
    low, high = wilson(points, games)
    return {"games": games, "wins": points, "win_rate": points / games if games else 0.0,
            "ci95": [low, high]}


def summarize(results: Sequence[GameResult]) -> dict[str, Any]:
    """Win rates (Wilson 95%), money, length, and the effects of seat and scoundrel."""
    by_bot: dict[str, list[tuple[float, int, float, int]]] = defaultdict(list)
    searched: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_seat: dict[int, list[float]] = defaultdict(list)
    by_scoundrel: dict[str, list[float]] = defaultdict(list)
    by_bot_seat: dict[tuple[str, int], list[float]] = defaultdict(list)
    cpu: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])  # CPU s, moves, slowest
    for r in results:
        for seat, label in enumerate(r.bots):
            point = 1 / len(r.winners) if seat in r.winners else 0.0
            moves = max(1, r.decisions)
            by_bot[label].append((point, r.money[seat], r.think[seat] / moves, seat))
            by_seat[seat].append(point)
            if r.scoundrels:  # Langfinger's
                by_scoundrel[r.scoundrels[seat]].append(point)
            by_bot_seat[(label, seat)].append(point)
            if r.searches:
                searched[label][0] += r.searches[seat]
                searched[label][1] += r.iterations[seat]
            if r.moves:
                spent = cpu[label]
                spent[0] += r.think_cpu[seat]
                spent[1] += r.moves[seat]
                spent[2] = max(spent[2], r.slowest_cpu[seat])
    bots_out = {}
    for label, rows in by_bot.items():
        points = [p for p, _, _, _ in rows]
        bots_out[label] = {
            **rate_of(sum(points), len(points)),
            "avg_money": sum(m for _, m, _, _ in rows) / len(rows),
            "think_per_decision_s": sum(t for _, _, t, _ in rows) / len(rows),
            "iterations_per_search": (searched[label][1] / searched[label][0]
                                      if searched[label][0] else None),
            "cpu_per_move_s": cpu[label][0] / cpu[label][1] if cpu[label][1] else None,
            "slowest_move_cpu_s": cpu[label][2] if cpu[label][1] else None,
            "by_seat": {s: rate_of(sum(v), len(v)) for (b, s), v in sorted(by_bot_seat.items())
                        if b == label},
        }
    games = len(results)
    figures: dict[str, float] = defaultdict(float)
    for r in results:
        for row in r.figures:
            for key, value in row.items():
                if key != "seat" and isinstance(value, (int, float)):
                    figures[key] += value
    return {
        "game": results[0].game if results else "langfinger",
        # Each figure summed over the seats of a game, averaged over the games.
        "figures": {k: v / games for k, v in sorted(figures.items())},
        "games": games,
        "bots": bots_out,
        "avg_rounds": sum(r.rounds for r in results) / games if games else 0.0,
        "avg_decisions": sum(r.decisions for r in results) / games if games else 0.0,
        "avg_seconds": sum(r.seconds for r in results) / games if games else 0.0,
        "seats": {s: rate_of(sum(v), len(v)) for s, v in sorted(by_seat.items())},
        "scoundrels": {k: rate_of(sum(v), len(v)) for k, v in sorted(by_scoundrel.items())},
    }


def pairwise(results: Sequence[GameResult]) -> list[elo.Result]:
    """Every pair of differently labelled seats of every game: 1 if the first ended with
    more money (R10.2: the most money wins), 0.5 if level, else 0."""
    out: list[elo.Result] = []
    for r in results:
        for i, a in enumerate(r.bots):
            for j in range(i + 1, len(r.bots)):
                b = r.bots[j]
                if a != b:
                    ahead = r.money[i] - r.money[j]
                    out.append((a, b, 1.0 if ahead > 0 else 0.5 if ahead == 0 else 0.0))
    return out


def with_elo(summary: dict[str, Any], results: Sequence[GameResult], labels: Sequence[str],
             rounds: int = 1000, seed: int = 0) -> dict[str, Any]:
    """``summary`` plus Elo ratings of ``labels`` (the first at 0) with bootstrap intervals."""
    ratings = elo.rate(list(labels), pairwise(results), rounds=rounds, seed=seed)
    summary["elo"] = {"ratings": ratings.elo, "ci95": ratings.ci95, "gaps": ratings.gaps,
                      "table": ratings.table()}
    return summary


def percent(rate: dict[str, Any]) -> str:
    low, high = rate["ci95"]
    share = 100 * rate["win_rate"]
    return f"{share:5.1f}%  [{100 * low:5.1f}, {100 * high:5.1f}]  n={rate['games']}"


def report(summary: dict[str, Any], out: Callable[[str], None] = print) -> None:
    """Print the summary as a table (win rate, 95% Wilson interval, games)."""
    rounds = f"{summary['avg_rounds']:.1f} rounds and " if summary["avg_rounds"] else ""
    out(f"{summary['games']} games of {summary.get('game', 'langfinger')}, {rounds}"
        f"{summary['avg_decisions']:.1f} decisions on average, "
        f"{summary['avg_seconds']:.2f} s a game")
    money = "avg money" if summary.get("game", "langfinger") == "langfinger" else "avg score"
    out(f"bot                      win rate [95% CI]                {money}  s/decision")
    for label, b in sorted(summary["bots"].items(), key=lambda kv: -kv[1]["win_rate"]):
        out(f"{label:24} {percent(b)}   {b['avg_money']:6.1f}   {b['think_per_decision_s']:.4f}")
    for label, b in summary["bots"].items():
        if b.get("iterations_per_search"):
            out(f"{label}: {b['iterations_per_search']:.0f} ISMCTS iterations per search")
        if b.get("cpu_per_move_s") is not None:
            out(f"{label}: {b['cpu_per_move_s']:.4f} CPU s a move on average, "
                f"{b['slowest_move_cpu_s']:.3f} at most")
    if "elo" in summary:
        out("Elo (Bradley-Terry maximum likelihood, 95% bootstrap intervals; "
            "from every pair of seats in every game, more money ahead):")
        for line in summary["elo"]["table"]:
            out(f"  {line}")
    out("by seat (all bots; a fair game gives 1/players):")
    for seat, rate in summary["seats"].items():
        out(f"  seat {seat}: {percent(rate)}")
    if summary["scoundrels"]:
        out("by scoundrel (all bots):")
        for name, rate in summary["scoundrels"].items():
            out(f"  {name:9} {percent(rate)}")
    if summary.get("figures"):
        out("figures (all seats of a game together, a game on average):")
        for name, value in summary["figures"].items():
            out(f"  {name:24} {value:7.3f}")


def write_csv(results: Sequence[GameResult], path: str, append: bool = False) -> None:
    """One row per game and seat (``append``: after the rows the file has, no header)."""
    with open(path, "a" if append else "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        if not append:
            w.writerow(["game", "seed", "seat", "bot", "scoundrel", "money", "won", "winners",
                        "rounds", "decisions", "think_s"])
        for r in results:
            for seat, label in enumerate(r.bots):
                w.writerow([r.index, r.seed, seat, label, r.scoundrels[seat], r.money[seat],
                            int(seat in r.winners), len(r.winners), r.rounds, r.decisions,
                            f"{r.think[seat]:.4f}"])


def write_json(results: Sequence[GameResult], summary: dict[str, Any], path: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"summary": summary, "games": [asdict(r) for r in results]}, f, indent=1)
