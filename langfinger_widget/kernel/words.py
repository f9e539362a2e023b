"""Small words for people: counts, plurals and lists of tools, as a player would say them.

Every sentence the project shows a player (errors, captions, the analysis
line, tutorials) counts cards through here, so that the grammar is the same
everywhere: "two lockpicks", "a hammer", "pliers" (never "a pliers").

>>> tools(["map", "lockpick", "lockpick"])
'two lockpicks and a map'
>>> tools(["pliers"]), tools(["pliers", "pliers"]), tools([])
('pliers', 'two pliers', 'nothing')
>>> count(1, "tool"), count(3, "tool"), count(12, "card")
('one tool', 'three tools', '12 cards')
>>> listing(["a", "b", "c"])
'a, b and c'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from .cards import TOOLS

NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
# Nouns that are already plural, and so take no article and keep their form (R0.1: pliers).
PLURAL_ONLY = frozenset({"pliers", "coins", "jewelry", "gold", "money"})
_TOOL_ORDER = {t: i for i, t in enumerate(TOOLS)}


def number(n: int) -> str:
    """``n`` in words up to ten, then in digits ("two", "12")."""
    return NUMBERS[n] if 0 <= n < len(NUMBERS) else str(n)


def plural(noun: str) -> str:
    if noun in PLURAL_ONLY:
        return noun
    return noun + ("es" if noun.endswith(("s", "sh", "ch", "x")) else "s")


def count(n: int, noun: str) -> str:
    """``n`` of ``noun`` in words: "one tool", "two maps", "no cards"."""
    return f"{number(n)} {noun if n == 1 else plural(noun)}"


def one(noun: str) -> str:
    """A single thing with its article: "a hammer", "an exchange", "pliers"."""
    if noun in PLURAL_ONLY:
        return noun
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def some(n: int, noun: str) -> str:
    """``n`` things as a list names them: "a hammer", "two maps", "pliers"."""
    return one(noun) if n == 1 else count(n, noun)


def listing(parts: Sequence[str], empty: str = "nothing") -> str:
    """Parts joined as in a sentence: "a, b and c"."""
    if not parts:
        return empty
    if len(parts) == 1:
        return parts[0]
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def tools(cards_: Iterable[str]) -> str:
    """Tool cards in words, grouped by type in the board's order: "two maps and pliers"."""
    counts = Counter(cards_)
    ordered = sorted(counts, key=lambda t: _TOOL_ORDER.get(t, len(_TOOL_ORDER)))
    return listing([some(counts[t], t) for t in ordered])


__all__ = ["count", "listing", "number", "one", "plural", "some", "tools"]
