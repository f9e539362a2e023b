"""One seat's record of a game other than Langfinger (issue 37): it holds only what the seat
saw, checked by resampling (a twin re-dealt from the seat's view writes the same record), and
reads back to the seat's log; bad lines are refused naming the line."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from langfinger_widget.records import RecordError, read_game, read_seat_game, write_game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "crooks"))
from crooks_helpers import random_game

DATE = "2026-11-26"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seat_s_record_reads_back_to_what_the_seat_saw(players: int) -> None:
    g = random_game(players, players)
    for seat in range(players):
        rec = read_seat_game(write_game(g, seat=seat, bots={0: "hard"}, date=DATE))
        assert rec.log() == g.log(seat) and rec.seat == seat and rec.bots[0] == "hard"
        assert [s for s, _ in rec.decisions] == g.deciders
        for (s, action), played in zip(rec.decisions, g.history, strict=True):
            assert action == (played if s == seat else None)
        assert rec.scores == tuple(r["score"] for r in g.standings())
        assert rec.winners == tuple(g.winners)
        assert rec.log(at=0) == g.log(seat)[:len(rec.seen[0])]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seat_s_record_leaks_nothing_by_resampling(players: int) -> None:
    """Twins the seat cannot tell apart write the same record for it; the full records of
    the same twins differ (so hidden crooks were re-dealt and a leak would show)."""
    rng = random.Random(players)
    differ = 0
    for seed in range(3):
        for cut in (12, 30, 10_000):
            g = random_game(players, seed * 7 + players, stop=cut)
            for seat in range(players):
                mine = write_game(g, seat=seat, date=DATE)
                for _ in range(2):
                    twin = g.resample(seat, random.Random(rng.getrandbits(32)))
                    assert write_game(twin, seat=seat, date=DATE) == mine
                    differ += json.dumps(twin.history) != json.dumps(g.history) or \
                        json.dumps(twin.to_dict()) != json.dumps(g.to_dict())
    assert differ > 10, differ


def test_bad_seat_records_are_refused_naming_the_line() -> None:
    g = random_game(2, 5, stop=12)
    text = write_game(g, seat=0, date=DATE)
    lines = text.splitlines()
    with pytest.raises(RecordError, match="read_seat_game"):
        read_game(text)
    with pytest.raises(RecordError, match="no seed"):
        read_seat_game(text.replace("view 0", "seed 3\nview 0"))
    with pytest.raises(RecordError, match=r"seats 0\.\.1"):
        read_seat_game(text.replace("view 0", "view 2"))
    own = next(i for i, x in enumerate(lines)
               if x[:1].isdigit() and '"Player 1"' in x and not x.endswith(" ?"))
    bad = [*lines[:own], lines[own].split('" ', 1)[0] + '" ?', *lines[own + 1:]]
    with pytest.raises(RecordError, match=rf"line {own + 1}"):
        read_seat_game("\n".join(bad) + "\n")
    other = next(i for i, x in enumerate(lines) if x.endswith(" ?"))
    leaked = [*lines[:other], lines[other][:-1] + "keep K01", *lines[other + 1:]]
    with pytest.raises(RecordError, match="another seat's decision"):
        read_seat_game("\n".join(leaked) + "\n")
    seen = next(i for i, x in enumerate(lines) if x.startswith("seen "))
    broken = [*lines[:seen], "seen {not json", *lines[seen + 1:]]
    with pytest.raises(RecordError, match=rf"line {seen + 1}.*event"):
        read_seat_game("\n".join(broken) + "\n")
    with pytest.raises(RecordError, match="no 'end'"):
        read_seat_game(text.replace("end\n", ""))
    with pytest.raises(RecordError, match="seat must be"):
        write_game(g, seat=2)
