"""Build the mined puzzle book from the stored greedy study, and time it (docs/puzzles.md).

    python benchmarks/puzzle_book.py --games 40 --per-count 28

1. Replays the first ``--games`` games of each player count of the greedy balance
   study (docs/study/greedy: every game follows from its seed, the player count and
   its index) into full records, checking each game's money against the study's CSV.
2. Mines them (``python -m langfinger_widget.puzzles mine`` does the same on files).
3. Keeps up to ``--per-count`` puzzles of each player count, chosen for variety: each
   pick is the puzzle whose places and themes the kept ones show least.
4. Seeds every rating (composed and mined): the ladder's bots attempt each puzzle.
5. Writes langfinger_widget/puzzles/data/{composed,mined}.jsonl and prints the counts
   by player count, place, theme and rating band, and the time of each step.
"""

from __future__ import annotations

import argparse
import csv
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

from langfinger_widget.kernel import notation
from langfinger_widget.puzzles import book, cli, mine, rate, themes
from langfinger_widget.puzzles.model import Puzzle
from langfinger_widget.study import arena

ROOT = Path(__file__).resolve().parent.parent
STUDY = ROOT / "docs" / "study" / "greedy"
STUDY_SEED = 15  # docs/study/greedy/meta.json; a player count n plays from seed 15 + n


def study_money(players: int) -> dict[int, list[int]]:
    money: dict[int, list[int]] = {}
    with open(STUDY / f"games_{players}p.csv", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            money.setdefault(int(row["game"]), []).append(int(row["money"]))
    return money


def replay_study(players: int, games: int, folder: Path) -> list[tuple[Path, str]]:
    """The study's first games as records, each checked against the stored money."""
    specs = arena.parse_bots(",".join(["greedy"] * players))
    stored = study_money(players)
    out = []
    for index in range(games):
        result = arena.play_game(specs, STUDY_SEED + players, index, records=str(folder))
        if result.money != stored[index]:
            raise SystemExit(f"{players}p game {index}: money {result.money}, the study stored "
                             f"{stored[index]}: the bots no longer play as they did")
        path = folder / f"game-{index:04d}.lfr"
        target = folder / f"greedy-{players}p-{index:04d}.lfr"
        path.rename(target)
        out.append((target, f"docs/study/greedy {players}p game {index}"))
    return out


def pick(found: list[Puzzle], wanted: int) -> list[Puzzle]:
    """Up to ``wanted`` puzzles, each pick the one whose places and themes are rarest so far."""
    shown: Counter[str] = Counter()
    marks = {p.name: (*themes.places(p), *p.themes) for p in found}
    left, kept = list(found), []
    while left and len(kept) < wanted:
        best = max(left, key=lambda p: sum(1 / (1 + shown[m]) for m in marks[p.name]))
        left.remove(best)
        kept.append(best)
        shown.update(marks[best.name])
    return kept


def players_of(p: Puzzle) -> int:
    return len(notation.decode(p.position).players)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games of each player count")
    ap.add_argument("--per-count", type=int, default=28, help="puzzles kept a player count")
    args = ap.parse_args()
    began = time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory() as tmp:
        records = [r for n in range(2, 6) for r in replay_study(n, args.games, Path(tmp))]
        replayed = time.perf_counter(), time.process_time()
        paths, labels = [p for p, _ in records], [lb for _, lb in records]
        found = cli.mine_files(paths, labels)
    mined_at = time.perf_counter(), time.process_time()
    kept = [p for n in range(2, 6)
            for p in pick([q for q in found if players_of(q) == n], args.per_count)]
    bar = mine.Progress(len(kept) + len(book.load(book.COMPOSED)), "puzzles", "rating")
    composed = [replace(p, difficulty=c.difficulty) for p, c in
                zip(rate.seed_all(book.load(book.COMPOSED), bar), book.load(book.COMPOSED),
                    strict=True)]
    mined = rate.seed_all(kept, bar)
    bar.close()
    rated_at = time.perf_counter(), time.process_time()
    book.write(composed, book.COMPOSED)
    book.write(mined, book.MINED)
    print(f"replayed {len(records)} study games: {replayed[0] - began[0]:.0f} s "
          f"({replayed[1] - began[1]:.0f} s CPU)")
    print(f"mined {len(found)} puzzles from them: {mined_at[0] - replayed[0]:.0f} s "
          f"({mined_at[1] - replayed[1]:.0f} s CPU); kept {len(kept)}")
    print(f"seeded {len(composed) + len(mined)} ratings with the ladder's bots: "
          f"{rated_at[0] - mined_at[0]:.0f} s ({rated_at[1] - mined_at[1]:.0f} s CPU)")
    cli.main(["stats"])


if __name__ == "__main__":
    main()
