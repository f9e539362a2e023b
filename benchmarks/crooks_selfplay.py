"""Crooks self-play: decisions a second, and a first balance look (greedy against random).

Through the protocol only (``lf.games.get("crooks")``): a game is played by
``legal_actions()`` then ``play``, a bot deciding from ``view(seat)`` and the
legal actions. One process, one core.

    python benchmarks/crooks_selfplay.py                   # speed, then 300 balance games
    python benchmarks/crooks_selfplay.py --games 100 --balance 600 --players 2 3 4

The balance look seats one greedy bot among random bots, the greedy seat going round the
table, and prints how often each seat wins (ties count for each tied seat), the greedy
bot's share at each seat, how often each special is placed and used, how often each gang
is controlled, and the game length; then all-random and all-greedy games give the win rate
by place in turn order (the start player first).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import langfinger_widget as lf

SPEC = lf.games.get("crooks")


def speed(players: int, games: int, kind: str, seed: int) -> tuple[int, float]:
    """Decisions played and seconds taken by ``games`` self-play games of ``kind`` bots."""
    decisions, start = 0, time.perf_counter()
    for n in range(games):
        g = SPEC.Game.new(players=players, seed=seed + n)
        rng = random.Random(seed + n)
        bots = [SPEC.greedy(seed=seed + n * 7 + s) for s in range(players)] \
            if kind == "greedy" else None
        while not g.is_over:
            legal = g.legal_actions()
            if bots is None:
                action = rng.choice(legal)
            else:
                seat = g.to_move
                action = bots[seat].choose(g.view(seat), legal)
            g.play(action)
            decisions += 1
    return decisions, time.perf_counter() - start


def balance(players: int, games: int, seed: int) -> dict[str, Any]:
    """One greedy seat among random ones, the greedy seat going round; the tallies."""
    wins: Counter[int] = Counter()
    greedy_wins: Counter[int] = Counter()
    greedy_games: Counter[int] = Counter()
    specials_kept: Counter[str] = Counter()
    specials_used: Counter[str] = Counter()
    gangs: Counter[str] = Counter()
    lengths: list[int] = []
    for n in range(games):
        greedy_seat = n % players
        g = SPEC.Game.new(players=players, seed=seed + n)
        rng = random.Random(seed * 13 + n)
        bot = SPEC.greedy(seed=seed + n)
        while not g.is_over:
            seat, legal = g.to_move, g.legal_actions()
            action = bot.choose(g.view(seat), legal) if seat == greedy_seat \
                else rng.choice(legal)
            for event in g.play(action):
                if event["type"] == "place":
                    special = g.state.deck[event["crook"]].special
                    if special:
                        specials_kept[special] += 1
                        specials_used[special] += event["effect"]
        greedy_games[greedy_seat] += 1
        for w in g.winners:
            wins[w] += 1
            greedy_wins[w] += w == greedy_seat
        for row in g.standings():
            for gang, pts in row["by_gang"].items():
                gangs[gang] += pts > 0
        lengths.append(g.move_number)
    return {"wins": wins, "greedy_wins": greedy_wins, "greedy_games": greedy_games,
            "kept": specials_kept, "used": specials_used, "gangs": gangs, "lengths": lengths}


def order_wins(players: int, games: int, seed: int, kind: str) -> Counter[int]:
    """Wins by place in turn order (0: the start player) when every seat plays ``kind``."""
    wins: Counter[int] = Counter()
    for n in range(games):
        g = SPEC.Game.new(players=players, seed=seed + 10_000 + n)
        bots = [SPEC.greedy(seed=seed + n * 5 + s) for s in range(players)]
        rng = random.Random(seed + n)
        while not g.is_over:
            seat, legal = g.to_move, g.legal_actions()
            g.play(bots[seat].choose(g.view(seat), legal) if kind == "greedy"
                   else rng.choice(legal))
        for w in g.winners:
            wins[(w - g.start_player) % players] += 1
    return wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60, help="speed games per player count")
    parser.add_argument("--balance", type=int, default=300, help="balance games per count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--selfplay", type=int, default=100,
                        help="all-greedy games per count, for the seat-order win rates")
    args = parser.parse_args()
    print("self-play speed (decisions a second, one core)")
    for kind, games in (("random", args.games * 5), ("greedy", args.games)):
        for players in args.players:
            decisions, secs = speed(players, games, kind, args.seed)
            print(f"  {kind:6} {players}p: {decisions / secs:9.0f} decisions/s "
                  f"({games} games, {decisions} decisions, {secs:.1f} s)")
    if not args.balance:
        return
    print(f"\nbalance: one greedy seat among random seats, {args.balance} games per count")
    for players in args.players:
        r = balance(players, args.balance, args.seed)
        games = args.balance
        seat_rates = " ".join(f"{r['wins'][s] / games:.2f}" for s in range(players))
        greedy = " ".join(f"{r['greedy_wins'][s] / max(1, r['greedy_games'][s]):.2f}"
                          for s in range(players))
        total = sum(r["greedy_wins"].values()) / games
        print(f"  {players}p: seat win rates (all games) {seat_rates}")
        print(f"      greedy's win rate overall {total:.2f} (random share would be "
              f"{1 / players:.2f}); greedy by seat {greedy}")
        used = ", ".join(f"{s} {r['used'][s]}/{r['kept'][s]}" for s in sorted(r["kept"]))
        print(f"      specials placed (used/placed): {used}")
        gangs = ", ".join(f"{g} {r['gangs'][g] / games:.2f}" for g in sorted(r["gangs"]))
        print(f"      gang controlled (share of games): {gangs}")
        lengths = r["lengths"]
        print(f"      decisions a game: mean {sum(lengths) / len(lengths):.1f}, "
              f"min {min(lengths)}, max {max(lengths)}")
        if args.selfplay:
            for kind, games in (("random", args.selfplay * 5), ("greedy", args.selfplay)):
                wins = order_wins(players, games, args.seed, kind)
                order = " ".join(f"{wins[k] / games:.2f}" for k in range(players))
                print(f"      all-{kind} win rates by place in turn order (start player "
                      f"first, {games} games): {order}")


if __name__ == "__main__":
    main()
