"""The ways input can be refused: a bad argument, an illegal action, an impossible position,
misspelled notation, a broken record or an unsound puzzle. Every error the package raises on
purpose is a :class:`LangfingerError`; each is also a ``ValueError``. The errors every game
shares live in ``langfinger_widget.errors``; these add Langfinger's notation, records and
puzzles."""

from ..errors import BadArgument, IllegalAction, InvalidState, LangfingerError

__all__ = [
    "BadArgument", "IllegalAction", "InvalidState", "LangfingerError", "NotationError",
    "PuzzleError", "RecordError", "UnsoundPuzzle",
]


class NotationError(InvalidState):
    """A notation string that is misspelled; the message shows where, with a caret.

    ``index`` is the position of the offending character in the string and
    ``expected`` says what would have been read there.
    """

    SHOWN = 120  # characters of a long string shown on each side of the caret

    def __init__(self, text: str, index: int, expected: str) -> None:
        self.text, self.index, self.expected = text, index, expected
        line = text.replace("\n", " ").replace("\r", " ")
        start = max(0, index - self.SHOWN)
        before = "..." if start else ""
        after = "..." if index + self.SHOWN < len(line) else ""
        line = before + line[start:index + self.SHOWN] + after
        caret = " " * (index - start + len(before))
        super().__init__(f"at index {index}: expected {expected}\n  {line}\n  {caret}^")


class RecordError(InvalidState):
    """A game record that is misspelled, tampered with or cut short (docs/records.md).

    ``line`` is the 1-based line of the record where reading stopped (0: the
    record as a whole) and ``ruling`` the ruling that refused it, if a rule did.
    Nothing half-read is returned. A record describes positions, so a record
    that play cannot reach is an ``InvalidState`` too, like any loader's refusal.
    """

    def __init__(self, line: int, why: str, ruling: str | None = None) -> None:
        self.line, self.why, self.ruling = line, why, ruling
        super().__init__(f"line {line}: {why}" if line else why)


class PuzzleError(InvalidState):
    """A puzzle (one line of a puzzle book, docs/puzzles.md) that cannot be read or is unsound.

    ``name`` is the puzzle's name (or ``""``), ``line`` the 1-based line of its book (0: not
    read from a book) and ``why`` the reason in words. Nothing of a refused book is kept.
    """

    def __init__(self, name: str, why: str, line: int = 0, where: str = "") -> None:
        self.name, self.why, self.line = name, why, line
        at = f"{where}:{line}: " if where and line else (f"line {line}: " if line else "")
        super().__init__(f"{at}puzzle {name!r}: {why}" if name else f"{at}{why}")


class UnsoundPuzzle(PuzzleError):
    """A puzzle the solver refutes: its solution misses the goal, another plan scores more,
    or a second plan solves a puzzle that claims one solution only (``proof: unique``)."""
