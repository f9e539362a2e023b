"""The two ways input can be refused: an illegal action, or an impossible position."""


class LangfingerError(Exception):
    """Base class of every error this package raises on purpose."""


class IllegalAction(LangfingerError, ValueError):
    """An action that the rules forbid in this position (the message names the ruling).

    The game is left exactly as it was before the action was tried.
    """


class InvalidState(LangfingerError, ValueError):
    """A position (``to_dict`` data or notation) that cannot exist in a real game."""
