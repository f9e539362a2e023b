"""Puzzle titles are names a person would give ("The second chest", "Sell before Tommaso"),
not file paths ("Yoshiko at move 47 of docs/study/greedy 3p game 11"): issue 40."""

from __future__ import annotations

import re
from dataclasses import replace

from langfinger_widget.puzzles import PUZZLES, book, titles
from langfinger_widget.puzzles.mine import Found, write_up

ALL = book.all_puzzles()
FILE_LIKE = re.compile(r"/|\.lfr|\bmove \d|\bgame \d|\bdecision\b|\bseat \d|\bL\d\d|\bF\d\d")


def test_every_title_in_the_book_is_a_name_not_a_file_path() -> None:
    names = [p.name for p in ALL]
    assert len(set(names)) == len(names)
    for name in names:
        assert not FILE_LIKE.search(name), name
        assert name[:1].isupper() and len(name) <= 60, name


def test_a_title_names_what_the_solution_turns_on_from_what_the_reader_sees() -> None:
    by = {p.name: p for p in PUZZLES}
    assert titles.title(by["Once per place"]) == "The first chest"  # two chests at the Villa
    assert titles.title(by["Two for one"]) == "Two paintings to one fence"  # the reader's own
    assert titles.title(by["Not over yet"]) == "Twenty before Hans"
    assert "Sell before" in " ".join(p.name for p in ALL)
    # A card stolen in the round is sold for a bonus: its kind is not the reader's to know at
    # the start (R11.1), so the title does not say it; told, it does.
    blind = next(p for p in ALL if p.name.startswith("A bonus at the Harbor"))
    sold = next(a for a in blind.solution if a["type"] == "sell")["loot"][0]
    assert sold not in blind.start().players[blind.seat].loot and sold not in blind.told.loot
    told = titles.title(replace(blind, told=replace(blind.told, loot=(sold,))))
    assert told.endswith("for a bonus") and not told.startswith("A bonus at the Harbor")


def test_a_title_taken_grows_by_whose_it_is_and_then_the_round() -> None:
    p = next(q for q in PUZZLES if q.name == "Once per place")
    first = titles.title(p)
    second = titles.title(p, {first})
    third = titles.title(p, {first, second})
    assert len({first, second, third}) == 3 and all(t.startswith(first) for t in (second,
                                                                                    third))


def test_mining_writes_a_title_not_the_records_path() -> None:
    p = next(q for q in ALL if q.source != "composed")
    state = p.start()
    found = Found("docs/study/greedy 2p game 6", 19, state, p.seat, tuple(p.opponents),
                  p.goal, p.solution, 0, 0, 3, 1)
    written = write_up(found)
    assert not FILE_LIKE.search(written.name) and written.name[:1].isupper()
    assert written.source["record"] == "docs/study/greedy 2p game 6"  # provenance stays
