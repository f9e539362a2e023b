"""Game records (issue 14, docs/records.md): round trips, tampering refused, and what a seat's
record may hold.

* A full record read back is the same game at every step (2-5 players, both variants, from a
  deal or from a position loaded mid-game).
* A seat's record replays that seat's view and log exactly at every step, whatever the
  sampler dealt for what it could not see.
* Two games that differ only in what a seat cannot see give byte-identical records for it,
  and a seat's record names no card that seat never saw.
* Tampered records (a forged card, an illegal decision, a truncated line, a wrong version,
  a bad header) are refused with ``lf.RecordError`` naming the line and the ruling.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_kit import PLAYERS, SEEDS, VARIANTS, random_game, replayed_views

import langfinger_widget as lf
from langfinger_widget import records
from langfinger_widget.records import syntax as records_syntax
from langfinger_widget.testing import hidden_twin

DATE = "2025-06-01"
BASE = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
LOOT_ID = re.compile(r"\bL\d\d\b")


def played(players: int, seed: int, variant: str, steps: int | None = None,
           loaded_at: int | None = None) -> lf.Game:
    """A random game; with ``loaded_at``, one loaded mid-game from a position (then played on)."""
    g = random_game(players, seed, variant, max_steps=loaded_at if loaded_at else steps)
    if loaded_at is None:
        return g
    g = lf.Game.from_dict(g.to_dict())
    rng = random.Random(seed)
    while not g.is_over and (steps is None or len(g.history) < steps):
        g.play(rng.choice(g.legal_actions()))
    return g


# --- round trips ---------------------------------------------------------------------------------


@settings(BASE, max_examples=14)
@given(PLAYERS, SEEDS, VARIANTS, st.sampled_from([None, None, 25]), st.booleans())
def test_a_full_record_replays_the_same_game_at_every_step(
        players: int, seed: int, variant: str, loaded_at: int | None, stop_early: bool) -> None:
    g = played(players, seed, variant, steps=90 if stop_early else None, loaded_at=loaded_at)
    text = g.record(seat=None, date=DATE, bots={1: "hard"})
    rec = records.read(text)
    origin = g.origin()
    assert rec.states[0].to_dict() == origin.to_dict()
    for i, action in enumerate(g.history):
        origin.play(action)
        assert rec.actions[i] == action and rec.deciders[i] == g.deciders[i]
        assert rec.states[i + 1].to_dict() == origin.to_dict(), f"step {i + 1}"
    assert rec.log(rec.length, None) == g.log(None)
    again = lf.Game.from_record(text)
    assert again.to_dict() == g.to_dict() and again.history == g.history
    assert again.record(seat=None, date=DATE, bots={1: "hard"}) == text  # byte for byte
    assert rec.header.seats[1].bot == "hard" and rec.header.seats[0].bot is None


@settings(BASE, max_examples=8)
@given(PLAYERS, SEEDS, VARIANTS, st.integers(min_value=0, max_value=4),
       st.sampled_from([None, 30]))
def test_a_seats_record_replays_its_view_and_log_at_every_step(
        players: int, seed: int, variant: str, pick: int, loaded_at: int | None) -> None:
    g = played(players, seed, variant, steps=160, loaded_at=loaded_at)
    seat = pick % players
    text = g.record(seat=seat, date=DATE)
    rec = records.read(text, seed=seed)
    assert [rec.view(i, seat) for i in range(rec.length + 1)] == replayed_views(g, seat)
    assert rec.log(rec.length, seat) == g.log(seat)
    assert rec.actions == g.history and rec.deciders == g.deciders
    with pytest.raises(ValueError, match="only what seat"):
        rec.view(0, None)


def test_a_seats_record_depends_on_nothing_the_sampler_deals() -> None:
    """Two readings with different samplers deal the unseen cards differently, yet the seat
    sees the same game at every step (resampling: only what it saw decides its record)."""
    g = random_game(4, 17, max_steps=140)
    text = g.record(seat=2, date=DATE)
    one, two = records.read(text, seed=1), records.read(text, seed=2)
    differ = sum(a.to_dict()["players"] != b.to_dict()["players"]
                 for a, b in zip(one.states, two.states, strict=True))
    assert differ > len(one.states) // 2  # the hidden hands really were dealt differently
    views = replayed_views(g, 2)
    for i in range(one.length + 1):
        assert one.view(i, 2) == two.view(i, 2) == views[i]


# --- hidden information --------------------------------------------------------------------------

REVEALING = {"cash", "sell", "refill", "deal", "game_over", "reshuffle"}


@settings(BASE, max_examples=25)
@given(PLAYERS, SEEDS, VARIANTS, st.integers(min_value=0, max_value=4),
       st.integers(min_value=0, max_value=120))
def test_games_differing_only_in_what_a_seat_cannot_see_give_it_the_same_record(
        players: int, seed: int, variant: str, pick: int, at: int) -> None:
    """As the views are tested (test_properties.hidden_twin): the same position but for the
    seat's unknowns (other hands, face-down fronts, pile order, the seed), played on alike."""
    seat = pick % players
    g = random_game(players, seed, variant, max_steps=at)
    rng = random.Random(seed)
    a, b = lf.Game.from_dict(g.to_dict()), hidden_twin(g, seat, rng)
    for _ in range(12):  # play on while nothing hidden is shown to the seat
        if a.is_over or a.to_move == seat:
            break
        common = [x for x in a.legal_actions() if b.why_illegal(x) is None]
        x = rng.choice(common)
        if {e["type"] for e in a.copy().play(x) + b.copy().play(x)} & REVEALING:
            break
        a.play(x)
        b.play(x)
    mine_a, mine_b = a.record(seat=seat, date=DATE), b.record(seat=seat, date=DATE)
    assert mine_a == mine_b
    assert a.record(seat=None, date=DATE) != b.record(seat=None, date=DATE)  # they do differ
    assert records.read(mine_a).view(0, seat) == a.origin().view(seat)


@settings(BASE, max_examples=10)
@given(PLAYERS, SEEDS, VARIANTS, st.integers(min_value=0, max_value=4))
def test_a_seats_record_names_no_card_the_seat_never_saw(players: int, seed: int, variant: str,
                                                         pick: int) -> None:
    seat = pick % players
    g = random_game(players, seed, variant, max_steps=200)
    text = g.record(seat=seat, date=DATE)
    seen = set(LOOT_ID.findall(repr(g.log(seat)) + "".join(repr(v) for v in
                                                           replayed_views(g, seat))))
    assert set(LOOT_ID.findall(text)) <= seen
    assert "\nseed " not in text and f"view {seat}\n" in text
    mine = f"deal {records.label(g.view(None)['players'][seat]['name'])} "
    others = [ln for ln in text.splitlines() if ln.startswith("deal ") and not ln.startswith(mine)]
    assert others and all(set(ln.split()[-1].split(",")) == {"?"} for ln in others)
    full = g.record(seat=None, date=DATE)
    assert set(LOOT_ID.findall(full)) > set(LOOT_ID.findall(text))  # the full one shows more


def test_an_unfinished_game_gives_its_full_record_only_when_asked() -> None:
    g = random_game(3, 4, max_steps=30)
    with pytest.raises(ValueError, match=r"not over.*seat=k.*seat=None"):
        g.record()
    assert "view all" in g.record(seat=None, date=DATE)
    assert "result unfinished" in g.record(seat=1, date=DATE)
    done = random_game(2, 4)
    assert "view all" in done.record(date=DATE) and "result money" in done.record(date=DATE)
    with pytest.raises(ValueError, match="seat must be"):
        g.record(seat=3)
    with pytest.raises(ValueError, match="full records only"):
        g.record(seat=1, checkpoints=True)


# --- the format ----------------------------------------------------------------------------------


def test_names_comments_blank_lines_and_checkpoints() -> None:
    g = lf.Game.new(players=3, seed=9, names=["Anna Maria", "Bob", 'Q"x'], start_player=1)
    rng = random.Random(9)
    for _ in range(40):
        g.play(rng.choice(g.legal_actions()))
    text = g.record(seat=None, date=DATE, checkpoints=True)
    assert '"Anna Maria"' in text and "\n1. Bob place" in text and 'seat 2 "Q\\"x"' in text
    assert "\nposition " in text  # a checkpoint after the round's start
    lines = text.splitlines()
    lines.insert(12, "# a comment line")
    lines[14] += "   # why this move?"
    lines.insert(20, "")
    again = records.read("\n".join(lines))
    assert again.game().to_dict() == g.to_dict()
    cp = next(i for i, ln in enumerate(lines) if ln.startswith("position "))
    lines[cp] = lines[cp].replace("s9.", "s8.", 1)
    with pytest.raises(lf.RecordError, match=f"line {cp + 1}: checkpoint"):
        records.read("\n".join(lines))


def test_a_record_of_another_deck_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    text = random_game(2, 1, max_steps=5).record(seat=None, date=DATE)
    monkeypatch.setattr(lf.cards, "DECK_NAME", ["my own deck"])
    with pytest.raises(lf.RecordError, match=r"line 3: .*deck.*R0\.4") as err:
        records.read(text)
    assert err.value.ruling == "R0.4"


def test_arena_writes_a_record_of_every_game(tmp_path: Any) -> None:
    from langfinger_widget.study import arena

    specs = arena.parse_bots("greedy,random")
    results = arena.run_local(specs, 2, seed=5, jobs=1, progress=False, records=str(tmp_path))
    files = sorted(tmp_path.glob("*.lfr"))
    assert [f.name for f in files] == ["game-0000.lfr", "game-0001.lfr"]
    for result, path in zip(results, files, strict=True):
        rec = records.load(path)
        assert list(rec.header.money or ()) == result.money
        assert list(rec.header.winners or ()) == result.winners
        assert [s.bot for s in rec.header.seats] == result.bots
        assert rec.length == result.decisions


# --- tampering -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def game() -> lf.Game:
    """A finished 3-player game with steals, cashed chests, Ruin draws and sales."""
    g = random_game(3, 21)
    kinds = {e["type"] for e in g.log(None)}
    assert {"steal", "cash", "exchange", "sell", "refill"} <= kinds
    return g


@pytest.fixture(scope="module")
def text(game: lf.Game) -> str:
    return game.record(date=DATE)


def tamper(text: str, pick: Any, change: Any) -> tuple[str, int]:
    """Change the first line that ``pick`` accepts; return the text and its 1-based number."""
    lines = text.splitlines()
    i = next(i for i, ln in enumerate(lines) if pick(ln))
    lines[i] = change(lines[i])
    return "\n".join(lines) + "\n", i + 1


def refused(text: str, pattern: str, line: int | None = None, ruling: str | None = None,
            seed: int = 0) -> lf.RecordError:
    with pytest.raises(lf.RecordError, match=pattern) as err:
        records.read(text, seed=seed)
    if line is not None:
        assert err.value.line == line, str(err.value)
    if ruling is not None:
        assert err.value.ruling == ruling, str(err.value)
    with pytest.raises(lf.RecordError):
        lf.Game.from_record(text)  # nothing half-read is returned
    return err.value


def test_a_forged_stolen_card_is_refused(text: str) -> None:
    def forge(ln: str) -> str:
        stolen = ln.rsplit(" ", 1)[1]
        other = "L01" if stolen != "L01" else "L02"
        return ln.rsplit(" ", 1)[0] + " " + other

    bad, line = tamper(text, lambda ln: " steal " in ln and "-> L" in ln, forge)
    refused(bad, r"forged card: decision \d+ took L\d\d, not L0[12] \(R5.1\)", line, "R5.1")


def test_a_forged_refill_and_a_forged_draw_are_refused(text: str) -> None:
    def other_fence(ln: str) -> str:
        shown = ln.split()[2].split(",")
        spare = next(f for f in sorted(lf.FENCE_CARDS) if f not in shown)
        return ln.replace(shown[0], spare)

    bad, line = tamper(text, lambda ln: ln.startswith("refill harbor"), other_fence)
    refused(bad, "expected 'refill harbor .*R9.1.*found 'refill harbor", line, "R9.1")
    bad, line = tamper(text, lambda ln: " exchange " in ln and "->" in ln,
                       lambda ln: ln.rsplit(",", 1)[0] + ("," if "," in ln.split("->")[1] else "")
                       + ("map" if not ln.endswith("map") else "pliers"))
    refused(bad, r"forged card: decision \d+ drew .* \(R6.1\)", line, "R6.1")


def test_an_illegal_decision_is_refused_naming_the_ruling(text: str) -> None:
    bad, line = tamper(text, lambda ln: ln.startswith("1. "), lambda ln: ln.replace(
        ln.split(" ", 2)[2], "pass"))
    refused(bad, r"decision 1 is illegal: R2.1: tokens are being placed", line, "R2.1")
    bad, line = tamper(text, lambda ln: " sell " in ln,
                       lambda ln: re.sub(r"sell (F\d\d) \S+", r"sell \1 L99", ln))
    refused(bad, r"is illegal: R8.1", line, "R8.1")
    bad, line = tamper(text, lambda ln: " steal " in ln and "+scoundrel" not in ln,
                       lambda ln: ln.replace(" steal ", " steal 9 pay map -> L01 #", 1))
    refused(bad, r"is illegal: R(5.1|7): the (Villa|Museum) has no loot in slot 9", line)


def test_a_wrong_player_or_number_is_refused(text: str) -> None:
    bad, line = tamper(text, lambda ln: ln.startswith("2. "),
                       lambda ln: "2. Nobody " + ln.split(" ", 2)[2])
    refused(bad, r"R2.1: decision 2 is \w+'s \(seat \d\) to make, not Nobody's", line, "R2.1")
    bad, line = tamper(text, lambda ln: ln.startswith("5. "), lambda ln: "6." + ln[2:])
    refused(bad, "expected decision 5, found 6", line)


def test_a_truncated_line_or_record_is_refused(text: str) -> None:
    lines = text.splitlines()
    last = max(i for i, ln in enumerate(lines) if re.match(r"\d+\. ", ln) and " -> " in ln)
    cut = "\n".join([*lines[:last], lines[last][:-2]])
    refused(cut, rf"line {last + 1}: ", last + 1)
    refused("\n".join(lines[:last + 1]), "truncated: the record stops after decision")
    no_end = "\n".join(ln for ln in lines if ln != "end")
    refused(no_end, "truncated: the record stops after decision")
    mid_word, line = tamper(text, lambda ln: ln.startswith("3. "), lambda ln: ln[:ln.index(" ", 4)
                                                                                 + 4])
    refused(mid_word, "unknown action|expected", line)
    refused("\n".join(lines[:5]), "truncated: the record ends in its header", 5)


def test_a_wrong_version_or_bad_header_is_refused(text: str) -> None:
    refused(text.replace("langfinger-record 1", "langfinger-record 2", 1),
            "line 1: wrong version: this reads langfinger-record 1, not '2'", 1)
    refused("PGN 1\n" + text, "line 1: not a record", 1)
    refused(text.replace(" hans ", " holmes ", 1), "R0.5: unknown scoundrel 'holmes'", 6, "R0.5")
    refused(text.replace("variant standard", "variant chess"), "R11: variant", 4, "R11")
    refused(text.replace("\nseed ", "\nseed x"), "the seed must be a whole number")
    refused(text.replace("result money", "result cash"), "result is 'unfinished' or")
    refused(text.replace("date 2025-06-01", "date yesterday"), "line 2: date must be")
    refused(text.replace("view all\n", "view all\nview all\n"), "gives 'view' twice")
    refused(text.replace("view all\n", "colour blue\nview all\n"), "unknown header line 'colour'")
    refused(re.sub(r"result money (\d+)", lambda m: f"result money {int(m.group(1)) + 1}", text),
            r"the header's result .* is not the game's .*R10.2", ruling="R10.2")
    refused(text.replace("result money", "result unfinished #"),
            "the game is over .* but the header says unfinished")
    refused(text.replace("\nend\n", "\nend\n1. Pascal pass\n"), "nothing may follow 'end'")


def test_a_tampered_seats_record_is_refused(game: lf.Game) -> None:
    seat = 1
    text = game.record(seat=seat, date=DATE)
    name = records.label(game.view(None)["players"][seat]["name"])
    # The seat's own stolen front, swapped for a card of another back.
    own, line = tamper(text, lambda ln: f" {name} steal " in ln and " -> L" in ln,
                       lambda ln: ln.rsplit(" ", 1)[0] + " L99")
    refused(own, "unknown loot card 'L99'", line)
    back = re.compile(r"refill (villa|museum) ")
    forged, line = tamper(text, lambda ln: bool(back.match(ln)),
                          lambda ln: back.sub(r"refill \1 ", ln).replace("[", "[map+", 1))
    refused(forged, r"forged card: no unseen loot card .* is left to deal \(R9.1\)", line, "R9.1")
    seeded = text.replace("view 1\n", "seed 5\nview 1\n")
    refused(seeded, "a seat's record holds no seed", ruling="R11.1")
    peek, line = tamper(text, lambda ln: re.match(r"\d+\. ", ln) is not None and " steal " in ln
                        and f" {name} " not in ln and " -> " not in ln,
                        lambda ln: ln + " -> L05")
    refused(peek, f"line {line}: ")
    dealt, line = tamper(text, lambda ln: ln.startswith(f"deal {name} "),
                         lambda ln: f"deal {name} " + ",".join(["map"] * 13))
    refused(dealt, r"R1.3|forged card", line)


def test_the_record_shown_in_the_docs_is_the_games_own() -> None:
    """docs/records.md shows (an excerpt of) the record its first example writes: it must stay
    the real thing, line for line, in order."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "records.md").read_text()
    example = doc.split("```python\n", 1)[1].split("```", 1)[0]
    shown = doc.split("```text\n", 1)[1].split("```", 1)[0].splitlines()
    scope: dict[str, Any] = {}
    exec(example, scope)
    lines = iter(scope["text"].splitlines())
    for line in shown:
        if line != "...":
            assert line in lines, f"the docs show {line!r}, which the record does not (in order)"


@settings(BASE, max_examples=30)
@given(st.lists(st.text(max_size=12), min_size=2, max_size=4), st.integers(0, 2**31 - 1))
def test_any_names_survive_a_record(names: list[str], seed: int) -> None:
    """Names are written bare when they are one plain word, else as JSON strings: quotes,
    spaces, '#', '->', line breaks and the empty name all come back."""
    g = lf.Game.new(players=len(names), seed=seed, names=names, start_player=0)
    rng = random.Random(seed)
    for _ in range(14):
        g.play(rng.choice(g.legal_actions()))
    for seat in (None, 1):
        rec = records.read(g.record(seat=seat, date=DATE))
        assert rec.header.names == names and rec.actions == g.history


# --- errors that escape (issue 29) -------------------------------------------------------------


def test_a_garbled_decision_line_is_a_record_error_not_an_index_error(text: str) -> None:
    bad, line = tamper(text, lambda ln: ln.startswith("3. "),
                       lambda ln: ln.split(" ", 2)[0] + " " + ln.split(" ", 2)[1] + " -> L01")
    refused(bad, "truncated: a decision names the player, then the action", line)
    bad, line = tamper(text, lambda ln: ln.startswith("4. "), lambda ln: "4. ->  -")
    refused(bad, "unknown action '-'", line)


@pytest.mark.parametrize("depth", [500, 100_000])
def test_a_seats_view_line_nested_deep_is_a_record_error(depth: int) -> None:
    g = lf.Game.from_dict(lf.Game.new(players=2, seed=3).to_dict())  # loaded: a view line
    text = g.record(seat=0, date=DATE)
    assert "\nview {" in text
    for deep in ("[" * depth + "]" * depth, '{"seat": 0, "players": ' + "[" * depth + "]" * depth
                 + "}"):
        bad, line = tamper(text, lambda ln: ln.startswith("view {"), lambda ln, d=deep: "view " + d)
        refused(bad, "nested deeper than a view ever is", line)


def test_a_million_line_record_is_refused_at_its_first_bad_line_without_reading_on(
        text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[int] = []
    parse = records_syntax.parse_line
    monkeypatch.setattr(records_syntax, "parse_line", lambda s, n: read.append(n) or parse(s, n))
    lines = text.splitlines()
    first = next(i for i, ln in enumerate(lines) if ln.startswith("1. "))
    huge = "\n".join([*lines[:first], "1. Nobody pass", *["2. Anna place city"] * 1_000_000])
    refused(huge, "decision 1 is .*to make, not Nobody's", first + 1)
    assert max(read) == first + 1 and len(read) <= 2 * (first + 1)  # twice: refused() reads twice


# --- mutated records: only RecordError, whatever the shape (issue 29) ---------------------------

TOKENS = ["->", "pay", "-", ",", "?", "L01", "F03", "map", "map,map", "+scoundrel", "1.", '"',
          '"x', "{", "[]", "#", "0", "99999999999999999999", "-1", "view", "position", "end",
          "round", "deal", "refill", "villa", "s7", "chest[map]", "\u2028", "[" * 3000]


@st.composite
def mutated(draw: st.DrawFn, texts: list[str]) -> str:
    lines = draw(st.sampled_from(texts)).splitlines()
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        words = lines[i].split(" ")
        op = draw(st.sampled_from(["drop", "insert", "replace", "repeat", "remove", "swap"]))
        if op == "drop" and words:
            words.pop(draw(st.integers(0, len(words) - 1)))
        elif op == "insert":
            words.insert(draw(st.integers(0, len(words))), draw(st.sampled_from(TOKENS)))
        elif op == "replace" and words:
            words[draw(st.integers(0, len(words) - 1))] = draw(st.sampled_from(TOKENS))
        elif op == "repeat":
            lines.insert(i, lines[i])
        elif op == "remove" and len(lines) > 1:
            lines.pop(i)
            continue
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            continue
        lines[i] = " ".join(words)
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def record_texts(game: lf.Game) -> list[str]:
    short = lf.Game.new(players=2, seed=9)
    for _ in range(30):
        short.play(short.legal_actions()[0])
    loaded = lf.Game.from_dict(short.to_dict())
    for _ in range(6):
        loaded.play(loaded.legal_actions()[-1])
    return [game.record(date=DATE), game.record(seat=2, date=DATE),
            short.record(None, date=DATE), short.record(seat=0, date=DATE),
            loaded.record(None, date=DATE), loaded.record(seat=1, date=DATE)]


def _read_mutated(text: str) -> None:
    try:
        rec = records.read(text)
    except lf.RecordError as e:
        assert str(e) and e.line >= 0
    else:  # a change that still reads (a comment, a blank) reads as a whole game
        assert rec.game().to_dict()


@settings(BASE, max_examples=300)
@given(data=st.data())
def test_mutated_records_are_read_or_refused_with_a_record_error(
        record_texts: list[str], data: st.DataObject) -> None:
    _read_mutated(data.draw(mutated(record_texts)))


@pytest.mark.slow
@settings(BASE, max_examples=4000)
@given(data=st.data())
def test_mutated_records_long(record_texts: list[str], data: st.DataObject) -> None:
    _read_mutated(data.draw(mutated(record_texts)))
