"""Game records (docs/records.md): write a game as text, read it back, replayed and checked.

:mod:`.full` reads and writes records with every card shown; :mod:`.seat`
replays a record kept for one seat, sampling what that seat could not see.
"""

from .full import (
    SUFFIX,
    Decision,
    Header,
    Record,
    RecordError,
    Seat,
    action_text,
    label,
    write,
)
from .reading import load, read

__all__ = [
    "SUFFIX", "Decision", "Header", "Record", "RecordError", "Seat", "action_text", "label",
    "load", "read", "write",
]
