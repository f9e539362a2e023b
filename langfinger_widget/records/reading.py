"""Reading a record: the header says whose it is, and the matching replay checks it.

A full record (``view all``) is replayed as it stands (:mod:`.full`); a record
kept for one seat is replayed from that seat's side, with what it could not see
sampled (:mod:`.seat`).
"""

from __future__ import annotations

from pathlib import Path

from ..kernel.errors import RecordError
from .full import Record, read_full
from .seat import read_seat
from .syntax import MAGIC, Body, read_header


def read(text: str, *, seed: int = 0) -> Record:
    """Read and check a record; :class:`RecordError` names the line that fails.

    A seat's record is replayed with what that seat could not see sampled by a
    generator seeded with ``seed`` (the same text and seed, the same samples).
    """
    if not isinstance(text, str):
        raise RecordError(0, f"a record is text, not {type(text).__name__}")
    lines = text.splitlines()
    header, start = read_header(lines)
    body = Body(lines, start)
    if header.view is None:
        return read_full(header, body, text)
    return read_seat(header, body, text, seed)


def load(source: str | Path, *, seed: int = 0) -> Record:
    """A record from a file path or from the record's text itself."""
    if isinstance(source, Path) or (isinstance(source, str) and not source.startswith(MAGIC)
                                    and "\n" not in source):
        with open(source, encoding="utf-8") as f:
            source = f.read()
    return read(str(source), seed=seed)


def as_record(source: Record | str | Path, seed: int = 0) -> Record:
    """A record as read, from a Record, its text, or a file path."""
    return source if isinstance(source, Record) else load(source, seed=seed)
