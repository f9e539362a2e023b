"""The position as plain data, and its JSON form (``to_dict``; :mod:`.load` reads it back).

A :class:`State` knows nothing of the rules beyond what makes a position
possible at all: which cards exist (R0), how many tokens each player owns
(R1.4), how large each display may be (R1.1). ``rules.py`` moves a state
forward; ``views.py`` decides what a seat may see of it.

The random generator lives in the state as ``seed`` plus the number of
shuffles made so far: shuffle number *n* draws from its own generator seeded
by ``(seed, n)``, so a saved position continues exactly, reshuffles included.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ..errors import shown as shown  # every game's error messages show input alike
from . import cards
from .cards import PLACES, RUIN_RATES, SQUARES_PER_PLACE, TOKENS_PER_PLAYER, TOOLS

FORMAT = "langfinger/1"
VARIANTS = ("standard", "open_info")
PHASES = ("place", "act", "over")
DISPLAYS = ("city", "villa", "museum", "harbor")
PILES = ("tools", "loot", "fences")
SCOUNDREL_PLACES = ("villa", "museum")  # R5.2: one scoundrel use per place per round
MAX_NUMBER = 2**64 - 1  # seed, shuffles and money: far above any game's, and short to write


def empty_hand() -> dict[str, int]:
    return dict.fromkeys(TOOLS, 0)


@dataclass(slots=True)
class Player:
    """One seat: its scoundrel, money, tool hand (counts), face-down loot and tokens."""

    name: str
    scoundrel: str
    money: int = 0
    hand: dict[str, int] = field(default_factory=empty_hand)
    loot: list[str] = field(default_factory=list)
    tokens: int = TOKENS_PER_PLAYER
    # Tools everyone saw enter this hand and not yet leave it; shown only in open_info (R11.2).
    known: dict[str, int] = field(default_factory=empty_hand)

    def copy(self) -> Player:
        return Player(
            self.name, self.scoundrel, self.money, dict(self.hand), list(self.loot),
            self.tokens, dict(self.known),
        )

    @property
    def tool(self) -> str:
        return cards.SCOUNDRELS[self.scoundrel].tool

    def hand_size(self) -> int:
        return sum(self.hand.values())


@dataclass(slots=True)
class Pile:
    """A draw pile (``draw[0]`` is the top card) and its face-up discard pile."""

    draw: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)

    def copy(self) -> Pile:
        return Pile(list(self.draw), list(self.discard))


@dataclass(slots=True)
class State:
    """A whole Langfinger position. Mutable: ``rules.apply`` changes it in place."""

    players: list[Player]
    seed: int = 0
    shuffles: int = 0
    variant: str = "standard"
    round: int = 1
    phase: str = "place"
    start_player: int = 0
    city: list[str] = field(default_factory=list)
    villa: list[str] = field(default_factory=list)
    museum: list[str] = field(default_factory=list)
    harbor: list[str] = field(default_factory=list)
    squares: dict[str, list[int | None]] = field(
        default_factory=lambda: {p: [None] * SQUARES_PER_PLACE for p in PLACES}
    )
    ruin_rates: dict[str, int | None] = field(default_factory=lambda: dict.fromkeys(RUIN_RATES))
    scoundrel_used: dict[str, list[int]] = field(
        default_factory=lambda: {p: [] for p in SCOUNDREL_PLACES}
    )
    piles: dict[str, Pile] = field(default_factory=lambda: {p: Pile() for p in PILES})
    money_by_round: list[list[int]] = field(default_factory=list)
    # A composed position (a puzzle, the builder): it may start from any consistent state,
    # not only one a game reaches from the deal; games played on from it stay composed.
    composed: bool = False
    # Bookkeeping of rules.py, not part of the position (never saved, compared or shown):
    # the acting square (R3.1) as the rules last worked it out, None when it must be
    # worked out again. Only the rules change a state, and they keep this up to date.
    acting_memo: tuple[str, int, int] | None = field(default=None, compare=False, repr=False)

    @property
    def num_players(self) -> int:
        return len(self.players)

    def display(self, place: str) -> list[str]:
        """The face-up (City, Harbor) or face-down (Villa, Museum) cards at ``place``."""
        return getattr(self, place)  # type: ignore[no-any-return]

    def copy(self) -> State:
        return State(
            [p.copy() for p in self.players], self.seed, self.shuffles, self.variant,
            self.round, self.phase, self.start_player, list(self.city), list(self.villa),
            list(self.museum), list(self.harbor),
            {p: list(s) for p, s in self.squares.items()}, dict(self.ruin_rates),
            {p: list(s) for p, s in self.scoundrel_used.items()},
            {k: p.copy() for k, p in self.piles.items()},
            [list(m) for m in self.money_by_round], self.composed, self.acting_memo,
        )

    def shuffle(self, cards_: list[str]) -> None:
        """Shuffle in place with the next generator of this game (same seed, same game)."""
        random.Random(f"langfinger:{self.seed}:{self.shuffles}").shuffle(cards_)
        self.shuffles += 1

    def to_dict(self) -> dict[str, Any]:
        """The position as JSON-ready data (docs/state-format.md)."""
        return {
            "format": FORMAT,
            "seed": self.seed,
            "shuffles": self.shuffles,
            "variant": self.variant,
            "round": self.round,
            "phase": self.phase,
            "start_player": self.start_player,
            "players": [_player_dict(p) for p in self.players],
            **{d: list(self.display(d)) for d in DISPLAYS},
            "squares": {p: list(s) for p, s in self.squares.items()},
            "ruin_rates": dict(self.ruin_rates),
            "scoundrel_used": {p: list(s) for p, s in self.scoundrel_used.items()},
            "piles": {
                k: {"draw": list(p.draw), "discard": list(p.discard)} for k, p in self.piles.items()
            },
            "money_by_round": [list(m) for m in self.money_by_round],
            **({"composed": True} if self.composed else {}),
        }


def _player_dict(p: Player) -> dict[str, Any]:
    return {
        "name": p.name,
        "scoundrel": p.scoundrel,
        "money": p.money,
        "hand": {t: n for t, n in p.hand.items() if n},
        "loot": list(p.loot),
        "tokens": p.tokens,
        "known": {t: n for t, n in p.known.items() if n},
    }
