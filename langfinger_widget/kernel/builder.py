"""Script a position in readable Python, one fact per call.

>>> from langfinger_widget.kernel.builder import Position
>>> g = (Position(players=["hans", "yoshiko"], seed=7)
...      .hand(0, hammer=2, map=1)
...      .money(1, 12)
...      .villa("L03")
...      .tokens("villa", 0, 1)
...      .phase("act")
...      .build())
>>> g.to_move, g.money, g.state.squares["villa"]
(0, [0, 12], [0, 1, None, None, None])

Every call returns the builder, so calls chain. While building only the
arguments are checked (a seat, a place, a square): :meth:`Position.to_dict`
writes the position data (the ``to_dict`` form) and :meth:`Position.build`
loads it with ``load.from_dict``, which refuses a position that cannot be
with :class:`InvalidState` naming the ruling (a card in two places, four
tokens, an overfull display, squares no order of turns gives, money that
fell). A built position is *composed* (``"composed": true``, ``*`` in its
notation): it need not be one a deal leads to, as a puzzle's often is not.
Tokens a player has not put on a square stay in front of them.

Seats are 0-based, squares too (``square=0`` is the first square to act,
R3.1). Cards not placed anywhere go to their draw piles, shuffled by the
seed; :meth:`Position.on_top` fixes the top cards of a draw pile, so that a
puzzle's Ruin exchange draws known tools (R6.1).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from typing import Any

from . import load
from . import state as state_mod
from .cards import PLACES, RUIN_RATES, SCOUNDRELS, SQUARES_PER_PLACE, TOKENS_PER_PLAYER
from .errors import BadArgument, InvalidState
from .game import Game
from .state import PILES, SCOUNDREL_PLACES, shown


def _whole(value: Any, what: str) -> int:
    """A whole number (a seat, a square, an amount), else :class:`BadArgument`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadArgument(f"{what} must be a whole number, not {shown(value)}")
    return value


def _names(values: Any, what: str) -> list[str]:
    """Names (scoundrels, tools, card ids), else :class:`BadArgument`; whether each is a real
    one is the position's check (``InvalidState`` naming the ruling)."""
    if isinstance(values, str) or not isinstance(values, (list, tuple)) or not all(
            isinstance(v, str) for v in values):
        raise BadArgument(f"{what} must be names (text), not {shown(values)}")
    return list(values)


def _one_of(value: Any, choices: Sequence[str], what: str) -> str:
    if not isinstance(value, str) or value not in choices:
        raise BadArgument(f"unknown {what} {shown(value)}; {what}s are {list(choices)}")
    return value


class Position:
    """A position under construction; see the module docstring for an example."""

    def __init__(self, players: Sequence[str], *, names: Sequence[str] | None = None,
                 seed: int = 0, variant: str = "standard") -> None:
        """``players`` lists each seat's scoundrel (``"hans"``); names default to theirs.

        Arguments of the wrong kind raise :class:`~langfinger_widget.kernel.errors.BadArgument`
        here and in every method; a position that cannot exist, ``InvalidState`` from
        :meth:`build` and :meth:`to_dict`.
        """
        players = _names(players, "players (each seat's scoundrel)")
        names = _names(names, "names") if names is not None else [
            SCOUNDRELS[s].name.split()[0] if s in SCOUNDRELS else s for s in players]
        if len(names) != len(players):
            raise BadArgument(f"names must give {len(players)} names, not {len(names)}")
        seed = _whole(seed, "seed")
        variant = _one_of(variant, state_mod.VARIANTS, "variant")
        self._data: dict[str, Any] = {
            "format": state_mod.FORMAT, "composed": True, "seed": seed, "variant": variant,
            "round": 1,
            "phase": "place", "start_player": 0,
            "players": [{"name": n, "scoundrel": s, "money": 0, "hand": {}, "loot": [],
                         "known": {}} for s, n in zip(players, names, strict=True)],
            "city": [], "villa": [], "museum": [], "harbor": [],
            "squares": {p: [None] * SQUARES_PER_PLACE for p in PLACES},
            "ruin_rates": dict.fromkeys(RUIN_RATES),
            "scoundrel_used": {"villa": [], "museum": []},
        }
        self._history: list[list[int]] | None = None
        self._piles: dict[str, dict[str, list[str]]] = {p: {"discard": []} for p in PILES}
        self._on_top: dict[str, list[str]] = {}

    # --- the players ----------------------------------------------------------------------
    def _player(self, seat: int) -> dict[str, Any]:
        players: list[dict[str, Any]] = self._data["players"]
        if not 0 <= _whole(seat, "seat") < len(players):
            raise BadArgument(f"seat must be 0..{len(players) - 1}, not {seat!r}")
        return players[seat]

    def hand(self, seat: int, **tools: int) -> Position:
        """The tools in ``seat``'s hand: ``.hand(0, hammer=2, map=1)`` (replaces the hand)."""
        self._player(seat)["hand"] = {t: _whole(n, f"hand: {t}") for t, n in tools.items()}
        return self

    def known(self, seat: int, **tools: int) -> Position:
        """Tools of that hand everyone saw enter it (shown in ``open_info``, R11.2)."""
        self._player(seat)["known"] = {t: _whole(n, f"known: {t}") for t, n in tools.items()}
        return self

    def loot(self, seat: int, *loot_ids: str) -> Position:
        """Face-down loot before ``seat`` (never a chest: those are cashed, R5.3)."""
        self._player(seat)["loot"] = _names(loot_ids, "loot")
        return self

    def money(self, seat: int, amount: int) -> Position:
        self._player(seat)["money"] = _whole(amount, "money")
        return self

    # --- the board ------------------------------------------------------------------------
    def city(self, *tools: str) -> Position:
        """The City's face-up tools, in display order (R4)."""
        self._data["city"] = _names(tools, "the City's tools")
        return self

    def villa(self, *loot_ids: str) -> Position:
        """The Villa's loot, slot 0 first (R5.1)."""
        self._data["villa"] = _names(loot_ids, "the Villa's loot")
        return self

    def museum(self, *loot_ids: str) -> Position:
        self._data["museum"] = _names(loot_ids, "the Museum's loot")
        return self

    def harbor(self, *fence_ids: str) -> Position:
        """The fences at the Harbor (R8.1)."""
        self._data["harbor"] = _names(fence_ids, "the Harbor's fences")
        return self

    def tokens(self, place: str, *seats: int | None, first: int = 0) -> Position:
        """Tokens on ``place``'s squares from square ``first`` on: ``.tokens("city", 0, 1)``.

        ``None`` leaves a square empty (during actions the squares already done
        are empty, R3.1).
        """
        row = self._squares(place)
        for seat in seats:
            if seat is not None:
                _whole(seat, "a token's seat")
        if not 0 <= _whole(first, "first") <= first + len(seats) <= SQUARES_PER_PLACE:
            raise BadArgument(f"R2.2: a place has {SQUARES_PER_PLACE} squares (0 to "
                             f"{SQUARES_PER_PLACE - 1}), not {first} to {first + len(seats) - 1}")
        row[first:first + len(seats)] = list(seats)
        return self

    def token(self, place: str, seat: int, square: int | None = None) -> Position:
        """One token of ``seat`` at ``place``: on ``square``, or the lowest free one (R2.2)."""
        row = self._squares(place)
        seat = _whole(seat, "a token's seat")
        if square is None:
            if None not in row:
                raise BadArgument(f"R2.2: the {place} is full")
            square = row.index(None)
        if not 0 <= _whole(square, "square") < SQUARES_PER_PLACE:
            raise BadArgument(f"R2.2: a place has squares 0 to {SQUARES_PER_PLACE - 1}, "
                              f"not {square}")
        row[square] = seat
        return self

    def _squares(self, place: str) -> list[int | None]:
        row: list[int | None] = self._data["squares"][_one_of(place, PLACES, "place")]
        return row

    def exchange_square(self, rate: str, seat: int) -> Position:
        """A token already exchanged at the Ruin on square ``rate`` (closed, R6.2)."""
        rate = _one_of(rate, RUIN_RATES, "exchange square")
        self._data["ruin_rates"][rate] = _whole(seat, "a token's seat")
        return self

    def scoundrel_used(self, place: str, *seats: int) -> Position:
        """Seats whose scoundrel already stood in at ``place`` this round (R5.2)."""
        place = _one_of(place, SCOUNDREL_PLACES, "scoundrel place")
        self._data["scoundrel_used"][place] = [_whole(s, "a seat") for s in seats]
        return self

    # --- the game -------------------------------------------------------------------------
    def phase(self, phase: str) -> Position:
        """``"place"`` (the default), ``"act"`` or ``"over"``."""
        self._data["phase"] = _one_of(phase, state_mod.PHASES, "phase")
        return self

    def round(self, number: int) -> Position:
        self._data["round"] = _whole(number, "round")
        return self

    def start_player(self, seat: int) -> Position:
        self._data["start_player"] = _whole(seat, "start_player")
        return self

    def money_history(self, *rounds: Sequence[int]) -> Position:
        """Money at the start of each round so far (defaults to the current money)."""
        for r in rounds:
            if not isinstance(r, (list, tuple)):
                raise BadArgument(f"each round's money is a list, one amount a seat, not "
                                  f"{shown(r)}")
        self._history = [[_whole(m, "money") for m in r] for r in rounds]
        return self

    def discard(self, pile: str, *cards_: str) -> Position:
        """The face-up discard pile of ``tools``, ``loot`` or ``fences`` (R9.2)."""
        self._pile(pile)["discard"] = _names(cards_, f"the {pile} discard")
        return self

    def on_top(self, pile: str, *cards_: str) -> Position:
        """Fix the top cards of a draw pile (first = top); the rest is dealt by the seed."""
        self._pile(pile)
        self._on_top[pile] = _names(cards_, f"the top of the {pile} pile")
        return self

    def _pile(self, pile: str) -> dict[str, list[str]]:
        return self._piles[_one_of(pile, PILES, "pile")]

    # --- results --------------------------------------------------------------------------
    def _tokens_in_front(self, data: dict[str, Any]) -> None:
        out = Counter(s for row in data["squares"].values() for s in row if s is not None)
        out.update(s for s in data["ruin_rates"].values() if s is not None)
        for seat, p in enumerate(data["players"]):
            p["tokens"] = max(0, TOKENS_PER_PLAYER - out[seat])

    def to_dict(self) -> dict[str, Any]:
        """The position data (``to_dict`` form), checked by loading it once."""
        data = copy.deepcopy(self._data)
        self._tokens_in_front(data)
        if self._history is not None:
            data["money_by_round"] = self._history
        data["piles"] = copy.deepcopy(self._piles)
        if self._on_top:
            _stack_piles(data, self._on_top)
        return load.from_dict(data).to_dict()

    def build(self) -> Game:
        """The position as a :class:`Game` (``InvalidState`` if it cannot exist)."""
        return Game.from_dict(self.to_dict())

    def notation(self) -> str:
        return self.build().notation()


def _stack_piles(data: dict[str, Any], on_top: dict[str, list[str]]) -> None:
    """Deal the piles by the seed once, then lift the chosen cards to the top.

    The kernel deals the cards nobody holds (``from_dict``); taking its draw
    piles and moving the named cards up keeps every other card where the seed
    put it, so nothing about the deck is decided twice.
    """
    dealt = load.from_dict(data)
    for pile in PILES:
        top = on_top.get(pile, [])
        rest = list(dealt.piles[pile].draw)
        for card in top:
            if card not in rest:
                have = "tools" if pile == "tools" else "cards"
                raise InvalidState(
                    f"R0: no {card} left for the top of the {pile} pile (the other {have} "
                    f"are placed elsewhere)")
            rest.remove(card)
        data["piles"][pile]["draw"] = [*top, *rest]
    data["shuffles"] = dealt.shuffles


__all__ = ["Position"]
