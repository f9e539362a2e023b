"""Fit ISMCTS's cut-off win model to self-play, and compare it with the money heuristic.

    python benchmarks/evaluation.py                     # play, fit, print WIN_MODEL (~25 min)
    python benchmarks/evaluation.py --players 2 --games 200 --iterations 60   # a quick look
    python benchmarks/evaluation.py --save /tmp/evaluation  # keep the games ...
    python benchmarks/evaluation.py --data /tmp/evaluation  # ... and refit them, playing none

A search that stops its roll-outs at the end of a round needs each player's
chance to win from there (``lf.bots.ismcts.win_chances``). This script plays
self-play games between ISMCTS bots (``--iterations`` a move, the money
heuristic one round ahead, as the level ``hard`` searches), records each
player's features (``ismcts._features``: money, held loot, tools, who starts,
how close the leader is to 20) at the start of every round after the first,
and fits a conditional logit, P(player i wins) = softmax over players of
w . features(i), by maximum likelihood (Newton's method; a tie counts 1/k to
each winner), one weight vector a player count. One game in five is held out:
the script prints the held-out log loss and Brier score of the fit and of the
money heuristic at temperature 3, then the weights as ``WIN_MODEL`` for
``langfinger_widget/bots/ismcts.py``. With matplotlib (the ``bench`` extra) it
draws both calibrations in ``benchmarks/evaluation.png``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import langfinger_widget as lf
from langfinger_widget.bots import ismcts
from langfinger_widget.kernel.cards import SCOUNDRELS

HERE = Path(__file__).resolve().parent
HELD_OUT = 5  # every fifth game


def play(args: tuple[int, int, int]) -> dict[str, Any]:
    """One self-play game: the features of every player at each round's start, and who won."""
    players, index, iterations = args
    rng = random.Random(f"evaluation:{players}:{index}")
    seed = rng.getrandbits(31)
    game = lf.Game.new(players=players, seed=seed, start_player=index % players,
                       scoundrels=rng.sample(sorted(SCOUNDRELS), players))
    bots = [ismcts.ISMCTSBot(seed=rng.getrandbits(31), iterations=iterations, rounds_ahead=1,
                             **ismcts.MONEY_HEURISTIC) for _ in range(players)]
    rounds: list[list[tuple[float, ...]]] = []
    while not game.is_over:
        if game.phase == "place" and game.round > len(rounds) + 1:  # round 1: all alike
            rounds.append(ismcts._features(game.state))
        seat = game.to_move
        assert seat is not None
        game.play(bots[seat].choose(game.view(seat), game.legal_actions()))
    return {"players": players, "index": index, "rounds": rounds, "winners": game.winners}


def generate(players: int, games: int, iterations: int, jobs: int) -> list[dict[str, Any]]:
    from tqdm import tqdm

    todo = [(players, i, iterations) for i in range(games)]
    with get_context("spawn").Pool(jobs) as pool:
        return list(tqdm(pool.imap_unordered(play, todo, chunksize=2), total=games,
                         desc=f"{players} players", unit="game", file=sys.stderr))


def arrays(games: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features (positions x players x features), outcomes (positions x players), held out."""
    x, y, held = [], [], []
    for g in games:
        won = np.zeros(g["players"])
        won[g["winners"]] = 1 / len(g["winners"])
        for row in g["rounds"]:
            x.append(row)
            y.append(won)
            held.append(g["index"] % HELD_OUT == 0)
    return np.array(x, float), np.array(y), np.array(held)


def chances(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    s = x @ w
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)  # type: ignore[no-any-return]


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    return float(-(y * np.log(p)).sum(-1).mean())


def brier(p: np.ndarray, y: np.ndarray) -> float:
    return float(((p - y) ** 2).sum(-1).mean())


def fit(x: np.ndarray, y: np.ndarray, steps: int = 50) -> np.ndarray:
    """Maximum likelihood weights of the conditional logit, by Newton's method."""
    w = np.zeros(x.shape[-1])
    for _ in range(steps):
        p = chances(w, x)
        mean = np.einsum("ti,tif->tf", p, x)
        grad = np.einsum("ti,tif->f", p - y, x)
        hess = np.einsum("ti,tif,tig->fg", p, x, x) - np.einsum("tf,tg->fg", mean, mean)
        step = np.linalg.solve(hess + 1e-9 * np.eye(len(w)), grad)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return w


def heuristic(x: np.ndarray) -> np.ndarray:
    """The money heuristic's chances (ismcts.heuristic_score), as weights on the features:
    money, loot value and tools are the first, second and fourth."""
    w = np.zeros(x.shape[-1])
    w[[0, 1, 3]] = 1.0, ismcts.LOOT_WORTH, ismcts.TOOL_WORTH
    return chances(w / ismcts.MONEY_HEURISTIC["temperature"], x)


def plot(curves: dict[int, list[tuple[str, np.ndarray, np.ndarray]]], path: Path) -> bool:
    """Calibration: predicted win chance against the share of wins, in ten bins."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, axes = plt.subplots(1, len(curves), figsize=(3.2 * len(curves), 3.4), squeeze=False)
    for ax, (n, lines) in zip(axes[0], curves.items(), strict=True):
        ax.plot([0, 1], [0, 1], color="#999", lw=1)
        for label, p, y in lines:
            bins = np.minimum((p.ravel() * 10).astype(int), 9)
            seen = [b for b in range(10) if (bins == b).any()]
            ax.plot([p.ravel()[bins == b].mean() for b in seen],
                    [y.ravel()[bins == b].mean() for b in seen], "o-", label=label, ms=3)
        ax.set_title(f"{n} players (held out)")
        ax.set_xlabel("predicted win chance")
    axes[0][0].set_ylabel("share of wins")
    axes[0][0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--players", default="2,3,4,5")
    p.add_argument("--games", default="1200,500,220,220", help="games for each player count")
    p.add_argument("--iterations", default="150,100,60,60",
                   help="ISMCTS iterations a move, for each player count")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--save", type=Path, help="write the games here (JSON lines per count)")
    p.add_argument("--data", type=Path, help="refit games saved with --save; play none")
    args = p.parse_args()
    counts = [int(n) for n in args.players.split(",")]
    games_each = [int(g) for g in args.games.split(",")] * len(counts)
    iterations_each = [int(i) for i in args.iterations.split(",")] * len(counts)
    weights, curves = {}, {}
    for n, games, iterations in zip(counts, games_each, iterations_each, strict=False):
        if args.data:
            lines = (args.data / f"{n}.jsonl").read_text(encoding="utf-8").splitlines()
            played = [json.loads(line) for line in lines]
        else:
            played = generate(n, games, iterations, args.jobs)
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"{n}.jsonl").write_text(
                "".join(json.dumps(g) + "\n" for g in played), encoding="utf-8")
        x, y, held = arrays(played)
        w = fit(x[~held], y[~held])
        old, new = heuristic(x[held]), chances(w, x[held])
        print(f"{n} players: {len(played)} games, {len(x)} positions ({held.sum()} held out)")
        print(f"  money heuristic (T=3): log loss {log_loss(old, y[held]):.4f}, "
              f"Brier {brier(old, y[held]):.4f}")
        print(f"  win model:             log loss {log_loss(new, y[held]):.4f}, "
              f"Brier {brier(new, y[held]):.4f}")
        weights[n] = fit(x, y)  # the weights to use: every game
        curves[n] = [("money heuristic", old, y[held]), ("win model", new, y[held])]
    print("WIN_MODEL: dict[int, tuple[float, ...]] = {")
    for n, w in weights.items():
        print(f"    {n}: ({', '.join(f'{v:.4f}' for v in w)}),")
    print("}")
    if plot(curves, HERE / "evaluation.png"):
        print(f"saved {HERE / 'evaluation.png'}")


if __name__ == "__main__":
    main()
