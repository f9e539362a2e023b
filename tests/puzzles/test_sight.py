"""Every puzzle can be solved from what its board shows (R11.1, docs/puzzles.md "What the
board shows"): the solver proves a puzzle on the whole position, the reader sees a seat's
view, so the solution must work in every position that view cannot tell apart, or the
puzzle must tell (and its board show) what the solution relies on."""

from __future__ import annotations

from dataclasses import replace

import pytest

from langfinger_widget.kernel.builder import Position
from langfinger_widget.puzzles import PUZZLES, Goal, Puzzle, UnsoundPuzzle, book, sight

STEAL_SECOND = {"type": "steal", "slot": 1, "pay": ["hammer", "pliers"], "scoundrel": False}


def coin_flip(**changes: object) -> Puzzle:
    """The trainer's old first puzzle in little: two Museum chests with the same back (R0.2),
    18 money, and only the chest worth 2 reaches 20; nothing on the board says which it is."""
    position = (Position(["hans", "yoshiko"], seed=3).money(0, 18)
                .hand(0, hammer=1, pliers=1).museum("L01", "L02").tokens("museum", 0)
                .phase("act"))
    fields: dict[str, object] = {
        "name": "Coin flip", "position": position.notation(), "goal": Goal("reach", 20),
        "solution": (STEAL_SECOND,), "hints": ("Which chest?",), "seat": 0, "difficulty": 1,
        "rule": "R5.3", "proof": "best"}
    fields.update(changes)
    return Puzzle(**fields)  # type: ignore[arg-type]


def test_every_puzzle_of_the_book_is_solvable_from_what_its_board_shows() -> None:
    """The swap test over the whole shipped book: the fronts of the loot the board does not
    show dealt again among cards of the same back (and the tool pile reordered when a token
    stands at the Ruin), the puzzle's own solution replayed in each."""
    puzzles = [*book.load(book.COMPOSED, check=False), *book.load(book.MINED, check=False)]
    assert len(puzzles) >= 100
    tried = 0
    for p in puzzles:
        spot = sight.blind_spot(p)
        assert spot is None, f"{p.name}: {spot}"
        tried += sum(1 for _ in sight.hidden_states(p.start(), p.seat, p.told))
    assert tried > len(puzzles)  # the check had hidden states to try, not an empty loop


def test_the_coin_flip_is_refused_naming_the_ruling_and_loads_once_told() -> None:
    flip = coin_flip()
    assert flip.prove().verdict == "best"  # the solver, seeing everything, is happy
    with pytest.raises(UnsoundPuzzle, match=r"R11\.1: the board does not show which it is: "
                       r"if the Museum's first card, a chest \(a hammer and pliers\), held 2 "
                       r"money, not 1 money.*the solution fails \(it scores 19, the goal "
                       r"asks 20\)"):
        book.verify(flip)
    told = sight.needed(flip)
    assert told == sight.Told(loot=("L01",))  # the 1 shown, the other chest must hold 2
    fair = book.verify(replace(flip, told=told))
    assert book.from_dict(fair.to_dict()) == fair  # "told" goes through the book's format


def test_the_board_shows_what_the_puzzle_tells_marked_and_nothing_else() -> None:
    flip = coin_flip(told=sight.Told(loot=("L01",)))
    view = flip.view()
    first, second = view["museum"]
    assert (first["kind"], first["value"], first["told"]) == ("money", 1, True)
    assert "kind" not in second and "id" not in second and "told" not in second
    session = flip.session()
    assert session.panel()["told"] == [
        "The Museum's first card, a chest (a hammer and pliers), holds 1 money."]
    assert session.shown(session.game.view(0))["museum"][0]["told"] is True
    other = session.game.view(1)  # the puzzle tells its reader, not the rival's seat
    assert session.shown(other) == other


def test_a_told_front_reaches_the_puzzle_board() -> None:
    pytest.importorskip("anywidget")
    w = coin_flip(told=sight.Told(loot=("L01",))).widget()
    try:
        assert w.view["museum"][0]["told"] is True and "kind" not in w.view["museum"][1]
        assert w.puzzle["told"][0].endswith("holds 1 money.")
    finally:
        w.close()


def test_what_the_ruin_draws_is_told_when_the_solution_relies_on_it() -> None:
    ruin = next(p for p in PUZZLES if p.name == "The Ruin first")
    assert ruin.told.tools == 3
    spot = sight.blind_spot(replace(ruin, told=replace(ruin.told, tools=0)))
    assert spot is not None and "the tool pile lay in another order" in str(spot)
    assert "The tool pile, from the top: a hammer, a welder and a welder." in \
        ruin.session().panel()["told"]


def test_a_book_line_that_tells_no_card_is_refused_with_the_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "book.jsonl"
    path.write_text(PUZZLES[0].line() + "\n" + coin_flip().line() + "\n", encoding="utf-8")
    with pytest.raises(UnsoundPuzzle, match=r"^book\.jsonl:2: puzzle 'Coin flip': not "
                                            r"solvable from what the board shows: R11\.1"):
        book.load(path)


def test_the_books_first_composed_puzzle_offers_more_than_one_real_choice() -> None:
    first = PUZZLES[0]
    game = first.game()
    cards = {a["slot"] for a in game.legal_actions() if a["type"] == "steal"}
    assert len(cards) >= 2  # two cards within reach at the first decision, not one or a pass
    assert first.prove().verdict == "unique" and sight.blind_spot(first) is None


def test_stats_count_the_puzzles_by_what_their_board_shows(capsys: pytest.CaptureFixture[str],
                                                           tmp_path) -> None:  # type: ignore[no-untyped-def]
    from langfinger_widget.puzzles import cli

    flip, told = coin_flip(), coin_flip(name="Told flip", told=sight.Told(loot=("L01",)))
    assert cli.board([flip, told, PUZZLES[0]]) == {
        "as the seat sees it": 1, "told fronts": 1, "blind spot": 1}
    path = tmp_path / "old.jsonl"  # a book from before "told": counted, not refused
    path.write_text(flip.line() + "\n" + PUZZLES[0].line() + "\n", encoding="utf-8")
    assert cli.main(["stats", str(path)]) == 0
    assert "board: as the seat sees it 1, blind spot 1" in capsys.readouterr().out
    assert cli.main(["stats", "--solvable", str(path)]) == 0
    assert capsys.readouterr().out.startswith("1 puzzles")
    assert cli.main(["check", str(path)]) == 1  # proving refuses it (R11.1)


def test_the_rating_bots_see_what_the_reader_sees(monkeypatch: pytest.MonkeyPatch) -> None:
    """A puzzle's rating is seeded by bots playing its seat (rate.py): from the reader's
    board, told fronts included, never the whole position."""
    from langfinger_widget import bots
    from langfinger_widget.puzzles import rate

    seen: list[dict[str, object]] = []

    class Watcher:
        def choose(self, view: dict[str, object], legal: list[dict[str, object]]
                   ) -> dict[str, object]:
            seen.append(view)
            return STEAL_SECOND if STEAL_SECOND in legal else legal[-1]

    monkeypatch.setattr(bots, "make", lambda level, seed=0: Watcher())
    assert rate.attempt(coin_flip(told=sight.Told(loot=("L01",))), "easy")
    first, second = seen[0]["museum"]  # type: ignore[misc]
    assert first["told"] is True and "kind" not in second


def test_a_told_rival_card_keeps_the_search_bots_sampler_whole() -> None:
    """A told front shows kind and value, not the id (a view's ids are cards whose place the
    seat knows, and the sampler of kernel/hidden.py counts them so): the searching bot that
    seeds ratings plays such a puzzle instead of refusing its view."""
    from langfinger_widget.kernel import hidden
    from langfinger_widget.puzzles import all_puzzles, rate

    def tells_a_rivals_card(p: Puzzle) -> bool:
        s = p.start()
        return any(x in p.told.loot for i, q in enumerate(s.players) if i != p.seat
                   for x in q.loot)

    p = next(q for q in all_puzzles() if tells_a_rivals_card(q))
    view = p.view()
    told = [c for pl in view["players"] for c in pl["loot"] if c.get("told")]
    assert told and all("id" not in c and "kind" in c for c in told)
    hidden.Determinizer(view)  # the view is one the sampler accepts
    assert rate.attempt(p, "hard", seed=1) in (True, False)
