"""The ways input can be refused, shared by every game: a bad argument, an illegal action,
an impossible position. Every error the package raises on purpose is a
:class:`LangfingerError`; each is also a ``ValueError``. This module sits below every game
(each game's kernel raises these), so a caller catches ``IllegalAction`` whatever it plays;
and :func:`shown`, how every message quotes the input it refuses."""

import reprlib
from typing import Any


class _Short(reprlib.Repr):
    """``reprlib`` cuts long and deep values; numbers too long for ``str`` get a size."""

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 200:
            return f"a number of about {int(x.bit_length() * 0.30103)} digits"
        return super().repr_int(x, level)


_SHORT = _Short()
_SHORT.maxstring = _SHORT.maxother = 60


def shown(value: Any) -> str:
    """``value`` for an error message: short, and safe for any input (a number too long for
    ``str``, deep nesting)."""
    return _SHORT.repr(value)


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
