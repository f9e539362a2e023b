"""Records of Crooks games (``game crooks``): written in Crooks' own action words, read back
and replayed under the rules, every refusal naming its line and, where a rule refused, the
ruling."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from crooks_helpers import random_game

from langfinger_widget import records
from langfinger_widget.games.crooks import Game
from langfinger_widget.records import RecordError
from langfinger_widget.study.arena import parse_bots, play_game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_finished_game_round_trips_through_its_record(players: int) -> None:
    for seed in range(5):
        g = random_game(players, seed)
        text = records.write_game(g, bots={1: "hard"}, date="2026-11-26")
        assert text.splitlines()[1] == "game crooks" and text.endswith("end\n")
        record = records.read_game(text)
        again = record.game()
        assert again.to_dict() == g.to_dict() and again.log(None) == g.log(None)
        assert record.length == g.move_number and record.bots[1] == "hard"
        assert record.scores == tuple(r["score"] for r in g.standings())
        assert records.write_game(again, bots={1: "hard"}, date="2026-11-26") == text
        middle = record.game(at=g.move_number // 2)
        assert middle.move_number == g.move_number // 2 and not middle.is_over


def test_an_unfinished_game_round_trips_too() -> None:
    g = random_game(3, 2, stop=11)
    text = records.write_game(g)
    assert "result unfinished" in text
    assert records.read_game(text).game().to_dict() == g.to_dict()


def _lines() -> list[str]:
    return records.write_game(random_game(2, 1), date="2026-11-26").splitlines()


def _refused(lines: list[str], match: str) -> RecordError:
    with pytest.raises(RecordError, match=match) as caught:
        records.read_game("\n".join(lines) + "\n")
    return caught.value


def test_an_illegal_decision_is_refused_naming_its_line_and_ruling() -> None:
    lines = _lines()
    first = lines.index("") + 1
    assert " recruit " in lines[first]
    lines[first] = lines[first].rsplit(" ", 1)[0] + " Z"  # no hangout Z with two players
    err = _refused(lines, r"^line \d+: C1\.1: there is no hangout 'Z'")
    assert err.line == first + 1 and err.ruling == "C1.1"


def test_misspelled_or_tampered_records_are_refused() -> None:
    lines = _lines()
    first = lines.index("") + 1
    _refused([*lines[:first], lines[first].replace("recruit", "recrute"), *lines[first + 1:]],
             "not an action")
    _refused(lines[:-1], "truncated: the record has no 'end'")
    result = next(n for n, line in enumerate(lines) if line.startswith("result"))
    _refused([*lines[:result], "result score 99,0 winners 0", *lines[result + 1:]],
             "the result says scores")
    _refused([*lines[:result], "result unfinished", *lines[result + 1:]], "the game is over")
    _refused([lines[0], "game chess", *lines[2:]], "game must be one of")


def test_the_langfinger_reader_points_to_read_game() -> None:
    with pytest.raises(RecordError, match=r"a record of Crooks: read it with records\.read_game"):
        records.read("\n".join(_lines()) + "\n")


def test_a_loaded_position_has_no_deal_to_replay_from() -> None:
    g = Game.from_dict(random_game(2, 3, stop=6).to_dict())
    with pytest.raises(RecordError, match="replays from its seed"):
        records.write_game(g)
    twin = random_game(2, 3, stop=6).resample(0, random.Random(1))  # a fresh seed: no deal
    with pytest.raises(RecordError, match="replays from its seed"):
        records.write_game(twin)


def test_the_arena_writes_records_that_replay(tmp_path: Path) -> None:
    result = play_game(parse_bots("medium,random,easy", game="crooks"), 4, 2,
                       records=str(tmp_path))
    (written,) = tmp_path.iterdir()
    record = records.read_game(written.read_text(encoding="utf-8"))
    assert record.scores == tuple(result.money) and record.winners == tuple(result.winners)
    assert [b for b in record.bots] == result.bots
