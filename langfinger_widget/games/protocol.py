"""The protocol every game satisfies (DESIGN.md, "Many games on one engine").

Everything above the games (tables, the bots' search, records, the server, the boards, the
study, the environments, the conformance checks) knows a game only through this, the way
OpenSpiel's algorithms know only ``pyspiel.State``. Actions, views and events are JSON-ready
dicts; a game's own names (place, hangout, building...) live inside them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

Action = dict[str, Any]
Event = dict[str, Any]


@runtime_checkable
class GameState(Protocol):
    """One game in progress. ``seat=None`` in ``legal_actions``/``play``/``why_illegal`` means
    ``to_move``; a sealed step (several seats in ``to_decide``) needs the seat named.

    * ``to_decide``: the seats that may decide now, in seat order; ``to_move`` is one of them
      (the first, say), None when nobody may. In a sealed step the seats in it choose in any
      order, each in one decision or several (Oh My Goods!'s plan, G6.1), and each leaves
      ``to_decide`` when it has sealed; no view or log of another seat shows those steps.
    * ``legal_actions(seat)`` is [] for a seat not in ``to_decide``; ``play`` and
      ``why_illegal`` refuse such a seat, naming the ruling, and change nothing.
    * ``standings()``: [] until the game is over, then one JSON-ready row a seat in seat
      order, ``{"seat", "score", "sources": {source: points}}``, the sources adding up to
      the score (what the end screen shows, e.g. chests and sales; targets and gangs).
    * ``resample(seat, rng)``: a twin the seat cannot tell apart: ``view(seat)``,
      ``log(seat)`` and ``legal_actions(seat)`` are equal, and stay equal under the same
      actions until something is shown to the seat (``sight_barrier`` moves); all the seat
      cannot see is drawn by ``rng`` from its view alone, so a bot may be given twins.
    * ``sight_barrier(seat)``: how many decisions of the history stand for the seat, the
      history's length just after the last decision that showed it something hidden.
    * ``deciders``: the seat that made each decision of the history, in order (Undo, R12.2:
      a seat takes back only its own decisions).

    Beyond the protocol: the game's class has ``new(players=, seed=)`` and
    ``from_dict(d)`` (:class:`GameSpec`), and may have ``check_invariants()``, raising
    ``AssertionError`` naming the ruling when a position breaks the game's own invariants
    (cards conserved, ...): ``langfinger_widget.testing`` calls it after every move.
    """

    @property
    def num_players(self) -> int: ...
    @property
    def to_move(self) -> int | None: ...
    @property
    def to_decide(self) -> list[int]: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def winners(self) -> list[int]: ...
    @property
    def version(self) -> int: ...
    @property
    def move_number(self) -> int: ...
    @property
    def deciders(self) -> list[int]: ...

    def legal_actions(self, seat: int | None = None) -> list[Action]: ...
    def play(self, action: Any, seat: int | None = None) -> list[Event]: ...
    def why_illegal(self, action: Any, seat: int | None = None) -> str | None: ...
    def undo(self) -> None: ...
    def copy(self) -> GameState: ...
    def view(self, seat: int | None = None) -> dict[str, Any]: ...
    def public_view(self) -> dict[str, Any]: ...
    def log(self, seat: int | None = None) -> list[Event]: ...
    def standings(self) -> list[dict[str, Any]]: ...
    def to_dict(self) -> dict[str, Any]: ...
    def resample(self, seat: int, rng: random.Random) -> GameState: ...
    def sight_barrier(self, seat: int | None) -> int: ...


@dataclass(frozen=True)
class GameSpec:
    """What the registry knows of a game: ``Game`` is its class (``Game.new(players=, seed=)``,
    ``Game.from_dict(d)``), ``rulings`` the prefix its rulings carry (``R``, ``C``, ``G``)
    and the file they are numbered in."""

    name: str
    title: str
    players: range
    Game: Any
    rulings: str
    rulings_file: str
    aliases: tuple[str, ...] = field(default=())
    # The game's own greedy bot, built as ``greedy(seed=...)`` (and ``blunders=`` a chance, for
    # the level "easy"); None: the shared random and ISMCTS bots only.
    greedy: Callable[..., Any] | None = None
    # The ruling that sets the player counts (its errors name it), e.g. Langfinger's "R1.1".
    players_ruling: str = ""
    # ``Game.new``'s options beyond players and seed a table offers: name -> (the choices,
    # the default first; the ruling). Each option's value shows in the game's views by name.
    options: Mapping[str, tuple[tuple[Any, ...], str]] = field(default_factory=dict)
    # The end screen's figures, ``figures(game, seat)`` (JSON rows, one a seat); None: none.
    figures: Callable[[Any, int | None], list[dict[str, Any]]] | None = None
    # A record's words for the game's actions (records/, ``game <name>``): ``write(action)``
    # gives a line's words, ``read(words)`` the action back (ValueError if they spell none);
    # None: no records of the game (Langfinger's own are records/' original format).
    action_words: tuple[Callable[[Action], str], Callable[[Sequence[str]], Action]] | None = None
    # The learning environments' hooks (envs/: PettingZoo, OpenSpiel). ``action_ids(game)``:
    # every action a game like ``game`` (its player count, its deck...) can ever offer, in a
    # fixed order, an action's id its index; the length depends on the player count alone.
    # ``observation(players)``: an encoder with ``size`` and ``encode(view) -> list[float]``
    # of a seat's view. None: the game has no environment (Langfinger's are envs/' own).
    action_ids: Callable[[Any], Sequence[Action]] | None = None
    observation: Callable[[int], Any] | None = None
    # The searching bots' hooks (bots/ismcts.py's TwinSearch). ``evaluate(game)``: each seat's
    # chance to win from a position (a twin: a search holds nothing else), each in [0, 1],
    # adding up to 1; an ISMCTS play-out cut short after its ``depth`` decisions is scored by
    # it. None: play-outs run to the end of the game, and ``depth`` changes nothing.
    evaluate: Callable[[Any], Sequence[float]] | None = None
    # The game's own budgets for the searching levels: a level (``hard``, ``expert``) -> the
    # ISMCTS knobs it plays with, in place of ``bots.TWIN_LEVELS``' entry; none: those.
    levels: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
