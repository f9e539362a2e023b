"""The lobby's "my tables" outlive the kernel (net/my_seats.py): a file only its owner reads."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from langfinger_widget.net import my_seats
from langfinger_widget.net.my_seats import MySeats

BASE = "http://127.0.0.1:8123"


def test_a_seat_remembered_is_there_in_the_next_session(tmp_path: Path) -> None:
    path = tmp_path / "seats.json"
    MySeats(path).remember(BASE + "/", "t1", BASE + "/play/t1#secret")
    again = MySeats(path)  # a new kernel reads the file
    assert again.at(BASE) == {"t1": BASE + "/play/t1#secret"}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # the link opens the seat
    again.forget(BASE, "t1")
    assert MySeats(path).at(BASE) == {}


def test_langfinger_home_moves_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGFINGER_HOME", str(tmp_path / "home"))
    MySeats().remember(BASE, "t2", "link")
    assert my_seats.default_path() == tmp_path / "home" / "online-seats.json"
    assert MySeats().at(BASE) == {"t2": "link"}


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '{"x": 3, "y": {"t": 4}}'])
def test_a_corrupt_file_starts_afresh_and_play_goes_on(tmp_path: Path, content: str) -> None:
    path = tmp_path / "seats.json"
    path.write_text(content)
    book = MySeats(path)
    assert book.at(BASE) == {}
    book.remember(BASE, "t3", "link")  # and writing mends the file
    assert MySeats(path).at(BASE) == {"t3": "link"}


def test_an_unwritable_home_keeps_the_seats_in_memory(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    book = MySeats(blocker / "seats.json")  # its folder cannot be made
    book.remember(BASE, "t4", "link")
    assert book.at(BASE) == {"t4": "link"}
