"""The two ways input can be refused: an illegal action, or an impossible position."""


class LangfingerError(Exception):
    """Base class of every error this package raises on purpose."""


class IllegalAction(LangfingerError, ValueError):
    """An action that the rules forbid in this position (the message names the ruling).

    The game is left exactly as it was before the action was tried.
    """


class InvalidState(LangfingerError, ValueError):
    """A position (``to_dict`` data or notation) that cannot exist in a real game."""


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
