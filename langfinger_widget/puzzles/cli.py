"""``python -m langfinger_widget.puzzles``: mine, rate and check puzzle books (docs/puzzles.md).

    python -m langfinger_widget.puzzles mine RECORDS... [--out FILE] [--margin 2]
    python -m langfinger_widget.puzzles rate BOOK [--out FILE]
    python -m langfinger_widget.puzzles check BOOK...
    python -m langfinger_widget.puzzles stats [BOOK...] [--solvable]

``RECORDS`` are full game records (``.lfr``, docs/records.md) or folders of them.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from ..kernel.errors import LangfingerError
from ..records.reading import load as load_record
from ..records.syntax import SUFFIX
from . import book, mine, rate, ratings, sight, themes
from .model import Puzzle


def record_paths(sources: Sequence[str]) -> list[Path]:
    """Every record named, folders opened (sorted), in the order given."""
    paths: list[Path] = []
    for source in sources:
        path = Path(source)
        paths += sorted(path.glob(f"*{SUFFIX}")) if path.is_dir() else [path]
    return paths


def mine_files(paths: Sequence[Path], labels: Sequence[str] | None = None, margin: int = 2,
               show: bool = True) -> list[Puzzle]:
    """Mine the records at ``paths`` (each labelled by its path, or by ``labels``)."""
    if labels is None:
        return mine.mine_records(paths, margin, show)
    bar = mine.Progress(len(paths)) if show else None
    pairs = ((label, load_record(path)) for label, path in zip(labels, paths, strict=True))
    try:
        return mine.mine(pairs, margin=margin, progress=bar)
    finally:
        if bar is not None:
            bar.close()


def stats(puzzles: Sequence[Puzzle]) -> dict[str, dict[str, int]]:
    """How many puzzles by player count, place, theme and rating band."""
    from ..kernel import notation

    players = Counter(f"{len(notation.decode(p.position).players)} players" for p in puzzles)
    places = Counter(pl for p in puzzles for pl in themes.places(p))
    bands = Counter(ratings.band(p.rating.rating) for p in puzzles)
    return {"players": dict(sorted(players.items())),
            "places": {pl: places[pl] for pl in themes.PLACES},
            "themes": book.themes(puzzles),
            "rating bands": dict(sorted(bands.items(), key=lambda kv: int(kv[0].split("-")[0]))),
            "sources": dict(Counter("composed" if p.source == "composed" else "mined"
                                    for p in puzzles)),
            "board": board(puzzles)}


def board(puzzles: Sequence[Puzzle]) -> dict[str, int]:
    """How many puzzles the reader solves from the board as the seat sees it, how many tell
    fronts or the tool pile (the board shows them, marked), and how many have a blind spot:
    a hidden front their solution depends on (R11.1, :mod:`.sight`)."""
    counts: Counter[str] = Counter()
    for p in puzzles:
        if sight.blind_spot(p) is not None:
            counts["blind spot"] += 1
        elif not p.told:
            counts["as the seat sees it"] += 1
        else:
            counts["told fronts" if p.told.loot else "told tool pile"] += 1
            if p.told.loot and p.told.tools:
                counts["told tool pile"] += 1
    order = ("as the seat sees it", "told fronts", "told tool pile", "blind spot")
    return {k: counts[k] for k in order if counts[k]}


def _print_stats(puzzles: Sequence[Puzzle]) -> None:
    print(f"{len(puzzles)} puzzles")
    for what, counts in stats(puzzles).items():
        print(f"  {what}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m langfinger_widget.puzzles",
                                description="Mine, rate and check puzzle books.")
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser("mine", help="mine puzzles from full game records")
    m.add_argument("records", nargs="+", help=".lfr records or folders of them")
    m.add_argument("--out", help="the book to write (default: print the lines)")
    m.add_argument("--margin", type=int, default=2,
                   help="money the best plan must be ahead of every other (default 2)")
    r = sub.add_parser("rate", help="seed a book's ratings: the ladder's bots attempt each")
    r.add_argument("book")
    r.add_argument("--out", help="where to write the rated book (default: over BOOK)")
    c = sub.add_parser("check", help="read and prove books (exit 1 on an unsound puzzle)")
    c.add_argument("books", nargs="+")
    s = sub.add_parser("stats", help="puzzles by player count, place, theme and rating band")
    s.add_argument("books", nargs="*", help="default: the shipped book")
    s.add_argument("--solvable", action="store_true",
                   help="count only the puzzles solvable from what their board shows (R11.1)")
    args = p.parse_args(argv)
    try:
        return _run(args)
    except (LangfingerError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


def _run(args: argparse.Namespace) -> int:
    if args.command == "mine":
        began = time.perf_counter()
        paths = record_paths(args.records)
        found = mine_files(paths, margin=args.margin)
        if args.out:
            book.write(found, args.out)
        else:
            for puzzle in found:
                print(book.to_line(puzzle))
        print(f"{len(found)} puzzles from {len(paths)} records in "
              f"{time.perf_counter() - began:.1f} s", file=sys.stderr)
        return 0
    if args.command == "rate":
        puzzles = book.load(args.book)
        bar = mine.Progress(len(puzzles), "puzzles", "rating")
        rated = rate.seed_all(puzzles, progress=bar)
        bar.close()
        book.write(rated, args.out or args.book)
        return 0
    if args.command == "check":
        loaded = [p for b in args.books for p in book.load(b)]
        print(f"{len(loaded)} puzzles, every one proven by the solver and solvable from what "
              f"its board shows")
        return 0
    # Counting proves nothing: a book the loader would refuse (an old one) is counted too.
    books = args.books or [book.COMPOSED, book.MINED]
    loaded = [p for b in books for p in book.load(b, check=False)]
    if args.solvable:
        loaded = [p for p in loaded if sight.blind_spot(p) is None]
    _print_stats(loaded)
    return 0


__all__ = ["board", "main", "mine_files", "record_paths", "stats"]
