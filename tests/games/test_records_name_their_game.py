"""A record names its game in its header (``game <name>``); a record without the line is
Langfinger's, as every record written before games had names."""

from __future__ import annotations

import dataclasses

import pytest
from sealed import SPEC as SEALED

import langfinger_widget as lf
from langfinger_widget import games, records
from langfinger_widget.records.syntax import header_lines

games.register(SEALED)


def _record() -> str:
    game = lf.Game.new(players=2, seed=3, start_player=0)
    for _ in range(12):
        game.play(game.legal_actions()[0])
    return game.record(seat=None, date="2026-11-26")


def test_a_langfinger_record_reads_alike_with_or_without_its_game_line() -> None:
    text = _record()
    assert "\ngame " not in text  # Langfinger's records stay as they were
    named = text.replace("\n", "\ngame langfinger\n", 1)
    assert records.read(named).game().to_dict() == records.read(text).game().to_dict()


@pytest.mark.parametrize(("game", "error"), [
    ("sealed", r"line 2: a record of Sealed Bids \(a test game\): records are written and "
               "read for langfinger only so far"),
    ("chess", "line 2: game must be one of langfinger, .*sealed.*, not 'chess'"),
])
def test_a_record_of_another_game_is_refused_by_name(game: str, error: str) -> None:
    with pytest.raises(lf.RecordError, match=error):
        records.read(_record().replace("\n", f"\ngame {game}\n", 1))


def test_a_header_of_another_game_writes_its_game_line() -> None:
    header = records.read(_record()).header
    assert header.game == "langfinger"
    lines = header_lines(dataclasses.replace(header, game="sealed"))
    assert lines[:2] == ["langfinger-record 1", "game sealed"]
