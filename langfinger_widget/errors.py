"""The ways input can be refused, shared by every game: a bad argument, an illegal action,
an impossible position. Every error the package raises on purpose is a
:class:`LangfingerError`; each is also a ``ValueError``. This module sits below every game
(each game's kernel raises these), so a caller catches ``IllegalAction`` whatever it plays."""


class LangfingerError(Exception):
    """Base class of every error this package raises on purpose."""


class IllegalAction(LangfingerError, ValueError):
    """An action that the rules forbid in this position (the message names the ruling).

    The game is left exactly as it was before the action was tried.
    """


class InvalidState(LangfingerError, ValueError):
    """A position (``to_dict`` data or notation) that cannot exist in a real game."""


class BadArgument(LangfingerError, ValueError):
    """An argument this package cannot take: a bot's budget, a builder's seat or place, a
    table's setting. A ``ValueError`` as any bad argument, and the package's own."""
