"""Game records (docs/records.md): write a game as text, read it back, replayed and checked.

:mod:`.syntax` is the format (its lines, read and written as text); :mod:`.full` writes
records and replays those with every card shown; :mod:`.seat` replays a record kept for
one seat, sampling what that seat could not see; :mod:`.reading` reads any of them
(``as_record`` takes a record, its text or its file). :mod:`.any_game` writes and reads the
records of the other registered games, in each game's own action words.
"""

from ..kernel.errors import RecordError
from .any_game import GameRecord, SeatGameRecord, read_game, read_seat_game, write_game
from .full import Record, write
from .reading import load, read
from .syntax import SUFFIX, Decision, Header, Seat, action_text, label

__all__ = [
    "SUFFIX", "Decision", "GameRecord", "Header", "Record", "RecordError", "Seat",
    "SeatGameRecord", "action_text", "label", "load", "read", "read_game", "read_seat_game",
    "write", "write_game",
]
