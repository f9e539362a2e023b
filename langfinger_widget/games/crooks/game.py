"""``Game``: Crooks behind the protocol every game satisfies (games/protocol.py).

>>> from langfinger_widget.games.crooks import Game
>>> g = Game.new(players=3, seed=7)
>>> g.to_move, g.legal_actions()[-1]
(1, {'type': 'pass'})
>>> g.why_illegal({"type": "keep", "crook": "K01"})
'C2.1: a turn starts with a recruit or a pass'
>>> events = g.play({"type": "recruit", "hangout": "A"})
>>> events[0]["price"], g.view(0)["turn"]["pile"] is None  # only the recruiter sees the pile
(2, True)
"""

from __future__ import annotations

import random
import secrets
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from ...errors import IllegalAction, InvalidState
from ..base import Recorded, check_seat
from . import cards, rules, views
from . import state as state_mod
from .rules import Action, Event, Key
from .state import State

# Deals a resample tries before it gives the position as it is (itself one of the deals
# consistent with the seat's view): only a pile of rule-bound cards rejects that often.
RESAMPLE_TRIES = 64


class Game(Recorded[State, Key]):
    """A game of Crooks: the positions after each decision, and each decision's events.

    Every change goes through :meth:`play`, which validates the action (raising
    :class:`IllegalAction` and changing nothing if it is illegal) and returns the
    events unredacted: the caller of ``play`` is trusted. Anything shown to a
    player goes through :meth:`view` and :meth:`log`.
    """

    __slots__ = ()

    # --- making games -------------------------------------------------------------------
    @classmethod
    def new(cls, players: int = 3, seed: int | None = None, *,
            names: Sequence[str] | None = None, start_player: int | None = None,
            deck: Any = None) -> Game:
        """Deal a new game (C1). ``seed=None`` picks one, kept in the position.

        ``deck``: None for the shipped reconstruction (C0.5), else a deck file's path or
        its data, checked against C0.4 (:class:`InvalidState` names the rule it breaks).
        """
        if seed is None:
            seed = secrets.randbelow(2**31)
        custom = deck is not None
        chosen = cards.load_deck(deck) if custom else cards.CROOKS
        position, events = rules.setup(players, seed, names, start_player, chosen, custom)
        return cls(position, events)

    @classmethod
    def from_dict(cls, data: Any) -> Game:
        """Load a ``crooks/1`` position; :class:`InvalidState` if it cannot exist."""
        position = state_mod.from_dict(data)
        rules.check_position(position)
        return cls(position)

    def to_dict(self) -> dict[str, Any]:
        """The position as JSON-ready data; ``Game.from_dict`` continues it exactly."""
        return self._state.to_dict()

    def check_invariants(self) -> None:
        """:class:`AssertionError` naming the ruling if the position breaks Crooks' own
        invariants: every crook in one place (C1.1), cash that adds up (C5.1), what a seat
        knows (C7.2)... The loader's checks, so a live game is held to what a saved one is."""
        try:
            rules.check_position(state_mod.from_dict(self._state.to_dict()))
        except InvalidState as err:
            raise AssertionError(str(err)) from None

    def copy(self) -> Game:
        """An independent game at the same position, with the same history."""
        twin: Game = self._twin()
        return twin

    # --- the position ---------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The live position (read it; change it only through :meth:`play`)."""
        return self._state

    @property
    def num_players(self) -> int:
        return self._state.num_players

    @property
    def seed(self) -> int:
        return self._state.seed

    @property
    def start_player(self) -> int:
        return self._state.start_player

    @property
    def step(self) -> str:
        """``start``, ``keep``, ``place``, ``switch``, ``kill``, ``spy`` or ``over``."""
        return self._state.step

    @property
    def cash(self) -> list[int]:
        return list(self._state.cash)

    @property
    def to_move(self) -> int | None:
        return rules.to_move(self._state)

    @property
    def to_decide(self) -> list[int]:
        """Crooks has no sealed step: the one seat to move, or nobody once over."""
        seat = self.to_move
        return [] if seat is None else [seat]

    @property
    def is_over(self) -> bool:
        return self._state.step == "over"

    @property
    def winners(self) -> list[int]:
        """C6.5: most points, then most cash; all tied win. [] until over."""
        return rules.winners(self._state)

    def standings(self) -> list[dict[str, Any]]:
        """[] until the game is over, then each seat's score by source (``targets`` and
        ``gangs``, broken down in ``by_target`` and ``by_gang``) and its cash (C6.2-C6.5):
        the protocol's rows, what the end screen shows."""
        return rules.standings(self._state) if self.is_over else []

    @property
    def history(self) -> list[Action]:
        """The actions played since this game was dealt or loaded."""
        return [rules.to_action(k) for k in self._actions]

    # --- actions --------------------------------------------------------------------------
    def _legal_keys(self) -> list[Key]:
        if self._legal is None:
            self._legal = rules.legal(self._state)
        keys: list[Key] = self._legal
        return keys

    def _check_seat(self, seat: Any, none_ok: bool = True) -> None:
        check_seat(seat, self.num_players, none_ok)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action of ``seat`` (None: the seat to move); [] if it is not to move."""
        self._check_seat(seat)
        if seat is not None and seat != self.to_move:
            return []
        return [rules.to_action(k) for k in self._legal_keys()]

    def _refusal(self, action: Any, seat: int | None) -> tuple[Key | None, str | None]:
        self._check_seat(seat)
        mover = self.to_move
        if mover is None:
            return None, "C2.2: every seat has passed; the game is over"
        if seat is not None and seat != mover:
            return None, f"C2.2: it is seat {mover}'s turn, not seat {seat}'s"
        try:
            key = rules.parse(action)
        except IllegalAction as err:
            return None, str(err)
        if key in self._legal_keys():
            return key, None
        return None, rules.explain(self._state, action) or "illegal action"

    def why_illegal(self, action: Any, seat: int | None = None) -> str | None:
        """None if ``action`` is legal now (for ``seat``), else the reason, naming the ruling."""
        return self._refusal(action, seat)[1]

    def play(self, action: Any, seat: int | None = None) -> list[Event]:
        """Play ``action`` and return its events, every secret in them open.

        :class:`IllegalAction` (naming the ruling) leaves the game untouched.
        """
        key, why = self._refusal(action, seat)
        if key is None:
            raise IllegalAction(why or "illegal action")
        return views.redact_log(self._apply(key), None)

    def _apply(self, key: Key) -> list[Event]:
        position = self._state.copy()
        events: list[Event] = []
        mover = position.seat
        rules.apply(position, key, events)
        self._record(position, events, key, mover)
        return events

    # --- what a seat may see ---------------------------------------------------------------
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The position as ``seat`` may see it (C8.1-C8.3; None: everything, for teaching)."""
        self._check_seat(seat)
        return views.view(self._state, seat)

    def public_view(self) -> dict[str, Any]:
        """What a spectator may see (C8.4): no face-down front, no pile, no hand."""
        return views.view(self._state, views.PUBLIC)

    def log(self, seat: int | None = None) -> list[Event]:
        """The events so far, redacted for ``seat`` exactly as :meth:`view` is."""
        self._check_seat(seat)
        return [views.redact(e, seat) for evs in self._events for e in evs]

    def public_log(self) -> list[Event]:
        """The events so far as a spectator may see them."""
        return [views.redact(e, views.PUBLIC) for evs in self._events for e in evs]

    def sight_barrier(self, seat: int | None) -> int:
        """How many decisions of :attr:`history` stand for ``seat`` under C7.3 (R12.1).

        That is the history's length just after the seat's last recruit or Spy's look, or
        the last decision whose events showed ``seat`` a crook it could not see just before
        (another seat's face-up placement, the final reveal), whichever is later. The open
        board (None) shows every card from the deal on, so nothing is new to it.
        """
        self._check_seat(seat)
        if seat is None:
            return 0
        ids = self._state.deck
        # From the latest decision back: the first that showed the seat something is the
        # barrier, so a call costs the views of the few decisions since (the server asks on
        # every move; a scan from the deal made a move cost the square of the game's length).
        for i in range(len(self._actions) - 1, -1, -1):
            if self._movers[i] == seat and self._actions[i][0] in ("recruit", "spy"):
                return i + 1  # C7.3 by name: its recruit and its Spy's look, always
            before = _ids(_without_deck(views.view(self._states[i], seat)), ids)
            shown = _ids(views.redact_log(self._events[i + 1], seat), ids)
            if shown - before:
                return i + 1
        return 0

    # --- resampling -----------------------------------------------------------------------
    def resample(self, seat: int, rng: random.Random) -> Game:
        """A twin of this game with everything ``seat`` cannot see re-dealt at random,
        consistently with what it saw: its :meth:`view`, :meth:`log` and legal actions
        are this game's, and its history is legal play.

        Crooks that the seat's view and log mention in the same places (the cards of a
        pile it once saw, the crooks it never saw) are permuted among themselves, the deal
        and the history renamed accordingly; a renaming that breaks a rule (say the
        Kingpin kept from a pile of two) or changes what the seat saw is drawn again.

        The draw depends on the seat's view and log alone, never on where the hidden crooks
        really are: each group is first put in a canonical order by where its crooks lie
        (so this game and any twin of it start from the same renamed game), and only then
        shuffled by ``rng``. The seed, which would give the deal away, is drawn afresh.
        """
        self._check_seat(seat, none_ok=False)
        want_log, want_view = self.log(seat), self.view(seat)
        want_legal = self.legal_actions(seat)
        ids = self._state.deck
        places: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
        _occurrences(want_log, ("log",), ids, places)
        _occurrences(_without_deck(want_view), ("view",), ids, places)
        classes: dict[tuple[Any, ...], list[str]] = defaultdict(list)
        for crook in sorted(ids):
            classes[tuple(sorted(places[crook], key=repr))].append(crook)
        movable = [c for c in classes.values() if len(c) > 1]
        where = _locations(self._state)
        canonical: dict[str, str] = {}
        for group in movable:
            canonical.update(zip(sorted(group, key=where.__getitem__), group, strict=True))
        seed = rng.randrange(state_mod.MAX_SEED + 1)
        for _ in range(RESAMPLE_TRIES if movable else 0):
            sigma: dict[str, str] = {}
            for group in movable:
                shuffled = list(group)
                rng.shuffle(shuffled)
                sigma.update(zip(group, shuffled, strict=True))
            twin = self._renamed({c: sigma[x] for c, x in canonical.items()}, seed)
            if twin is not None and twin.log(seat) == want_log \
                    and twin.view(seat) == want_view and twin.legal_actions(seat) == want_legal:
                return twin
        # Nothing is hidden, or every draw broke a rule (a tightly bound group): the canonical
        # game stands for them all; should it break one too, this game itself, the one deal
        # sure to be consistent.
        twin = self._renamed(canonical, seed) or self._renamed({}, seed)
        assert twin is not None, "this game replays its own history"
        return twin

    def _renamed(self, sigma: dict[str, str], seed: int) -> Game | None:
        """This game with every crook id read through ``sigma`` and the seed ``seed``,
        replayed under the rules; None if the renamed history breaks one."""
        base = self._states[0].renamed(sigma)
        base.seed = seed
        if not self._events[0]:  # a loaded position, not a deal: it must still be possible
            try:
                state_mod.check(base)
                rules.check_position(base)
            except InvalidState:
                return None
        twin = Game(base, _rename(self._events[0], sigma))
        for key in self._actions:
            if key[0] == "keep":
                key = ("keep", sigma.get(key[1], key[1]))
            if key not in twin._legal_keys():
                return None
            twin._apply(key)
        twin._version = self._version
        return twin

    def __repr__(self) -> str:
        return (f"<crooks.Game {self.num_players} players, step {self.step}, "
                f"to move {self.to_move}, cash {self.cash}>")


def _locations(state: State) -> dict[str, tuple[Any, ...]]:
    """Where each crook lies now, as a key that sorts (hangout, target, hand or box)."""
    out: dict[str, tuple[Any, ...]] = {}
    for h, pile in state.hangouts.items():
        out.update((c, ("hangout", h, i)) for i, c in enumerate(pile))
    for s, row in enumerate(state.rows):
        for t, stack in row.items():
            out.update((p.crook, ("target", str(t), s, i)) for i, p in enumerate(stack))
    out.update((c, ("box", "", i)) for i, c in enumerate(state.box))
    if state.turn is not None and state.turn.hand is not None:
        out.setdefault(state.turn.hand, ("hand",))
    return out


def _without_deck(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "deck"}


def _ids(value: Any, ids: Any) -> set[str]:
    found: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
    _occurrences(value, (), ids, found)
    return set(found)


def _occurrences(value: Any, path: tuple[Any, ...], ids: Any,
                 out: dict[str, list[tuple[Any, ...]]]) -> None:
    """Where each crook id occurs in ``value``; a list of bare ids counts as a set (its
    members share one place), so that permuting them changes nothing."""
    if isinstance(value, str):
        if value in ids:
            out[value].append(path)
    elif isinstance(value, dict):
        for k, v in value.items():
            _occurrences(v, (*path, k), ids, out)
    elif isinstance(value, list):
        as_set = bool(value) and all(isinstance(v, str) for v in value)
        for n, v in enumerate(value):
            _occurrences(v, (*path, "*" if as_set else n), ids, out)


def _rename(value: Any, sigma: dict[str, str]) -> Any:
    if isinstance(value, str):
        return sigma.get(value, value)
    if isinstance(value, dict):
        return {k: _rename(v, sigma) for k, v in value.items()}
    if isinstance(value, list):
        out = [_rename(v, sigma) for v in value]
        return sorted(out) if out and all(isinstance(v, str) for v in out) else out
    return value
