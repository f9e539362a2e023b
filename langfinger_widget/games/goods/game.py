"""``Game``: Oh My Goods! behind the protocol every game satisfies (games/protocol.py).

>>> from langfinger_widget.games.goods import Game
>>> g = Game.new(players=2, seed=7)
>>> g.to_decide, g.legal_actions(0)
([0, 1], [{'type': 'keep'}, {'type': 'mulligan'}])
>>> _ = g.play({"type": "keep"}, seat=1)
>>> g.to_decide, g.view(0)["sealed"]
([0], [False, True])
>>> g.why_illegal({"type": "keep"}, seat=1)
'G6.1: seat 1 has sealed its choice; the others are still choosing'
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any

from ...errors import IllegalAction, InvalidState
from ..base import PUBLIC, Event, Recorded, check_seat, redact, redact_log, sees_event
from . import cards as cards_mod
from . import rules, views
from . import state as state_mod
from .cards import CardSet
from .rules import Action, Key, State

# Events that turn a card face up to every seat (G6.3: they end everyone's Undo) ...
SHOWN_TO_ALL = frozenset({"market", "reveal", "mulligan", "supply", "reshuffle", "discard", "build",
                          "built"})
# ... and those that show it only to the seat they name.
SHOWN_TO_SEAT = frozenset({"draw"})
# How many random plans a resample tries for a seat that sealed (G6.1) before it gives up
# and lets the seat's plan be the plain one: Worker to its first free building, no card.
PLAN_STEPS = 64


class Game(Recorded[State, Key]):
    """A game of Oh My Goods!: the positions after each decision, and each decision's events.

    Every change goes through :meth:`play`, which validates the action (raising
    :class:`IllegalAction` and changing nothing if it is illegal) and returns the
    events unredacted: the caller of ``play`` is trusted. Anything shown to a
    player goes through :meth:`view` and :meth:`log`.
    """

    __slots__ = ("_cards",)

    def __init__(self, position: State, events: Sequence[Event] = (),
                 cards: CardSet | None = None) -> None:
        super().__init__(position, events)
        self._cards = cards or cards_mod.SHIPPED

    def _twin(self) -> Game:
        twin: Game = super()._twin()
        twin._cards = self._cards
        return twin

    # --- making games -------------------------------------------------------------------
    @classmethod
    def new(cls, players: int = 3, seed: int | None = None, *,
            names: Sequence[str] | None = None, start_player: int | None = None,
            cards: Any = None) -> Game:
        """Deal a new game (G1). ``seed=None`` picks one, kept in the position.

        ``cards``: None for the shipped reconstruction (G0.6), else a card file's path or
        its data, checked against G0.5 (:class:`InvalidState` names it).
        """
        if seed is None:
            seed = secrets.randbelow(2**31)
        chosen = cards_mod.SHIPPED if cards is None else cards_mod.load_cards(cards)
        position, events = rules.setup(chosen, players, seed, names, start_player)
        if cards is not None:
            position["custom"] = chosen.raw
        return cls(position, events, chosen)

    @classmethod
    def from_dict(cls, data: Any) -> Game:
        """Load a ``goods/1`` position; :class:`InvalidState` if it cannot exist."""
        custom = data.get("custom") if isinstance(data, dict) else None
        cs = cards_mod.SHIPPED if custom is None else cards_mod.parse_cards(custom)
        return cls(state_mod.from_dict(data, cs), (), cs)

    def to_dict(self) -> dict[str, Any]:
        """The position as JSON-ready data; ``Game.from_dict`` continues it exactly."""
        out: dict[str, Any] = state_mod.deep(self._state)
        return out

    def check_invariants(self) -> None:
        """:class:`AssertionError` naming the ruling if the position breaks the game's own
        invariants: every card in one place (G0.1), a Worker and Assistants where they may
        be (G3.2, G4.11), payments that never make coins (G4.10)."""
        try:
            state_mod.check(self._cards, self._state)
        except InvalidState as err:
            raise AssertionError(str(err)) from None
        turn = self._state["turn"]
        if turn is not None and turn["pay"] is not None:
            pay = turn["pay"]
            top = max(b.worth for b in self._cards.buildings.values())
            if pay["paid"] >= pay["cost"] + top:
                raise AssertionError("G4.10: a payment went on after its cost was covered")

    def copy(self) -> Game:
        """An independent game at the same position, with the same history."""
        return self._twin()

    # --- the position ---------------------------------------------------------------------
    @property
    def cards(self) -> CardSet:
        """The card set this game is played with (G0.5)."""
        return self._cards

    @property
    def state(self) -> State:
        """The live position (read it; change it only through :meth:`play`)."""
        return self._state

    @property
    def num_players(self) -> int:
        return len(self._state["names"])

    @property
    def seed(self) -> int:
        return int(self._state["seed"])

    @property
    def round(self) -> int:
        return int(self._state["round"])

    @property
    def phase(self) -> str:
        """``hand`` (I), ``plan`` (II), ``production`` (IV) or ``over``."""
        return str(self._state["phase"])

    @property
    def to_decide(self) -> list[int]:
        return rules.to_decide(self._state)

    @property
    def to_move(self) -> int | None:
        deciding = self.to_decide
        return deciding[0] if deciding else None

    @property
    def is_over(self) -> bool:
        return bool(self._state["phase"] == "over")

    @property
    def winners(self) -> list[int]:
        """G5.3: most VP, then most coins left; all tied win. [] until over."""
        return rules.winners(self._cards, self._state)

    def standings(self) -> list[dict[str, Any]]:
        """[] until over, then each seat's VP by source (buildings, assistants, goods) and
        its coins left (G5.2, G5.3)."""
        return rules.standings(self._cards, self._state) if self.is_over else []

    @property
    def history(self) -> list[Action]:
        return [rules.to_action(k) for k in self._actions]

    # --- actions --------------------------------------------------------------------------
    def _seat(self, seat: Any) -> int | None:
        check_seat(seat, self.num_players)
        return self.to_move if seat is None else int(seat)

    def _legal_keys(self, seat: int) -> list[Key]:
        if self._legal is None:
            self._legal = {}
        if seat not in self._legal:
            self._legal[seat] = rules.legal(self._cards, self._state, seat)
        out: list[Key] = self._legal[seat]
        return out

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action of ``seat`` (None: ``to_move``); [] if it is not to decide."""
        who = self._seat(seat)
        if who is None:
            return []
        return [rules.to_action(k) for k in self._legal_keys(who)]

    def _refusal(self, action: Any, seat: int | None) -> tuple[Key | None, int, str | None]:
        who = self._seat(seat)
        if who is None:
            return None, -1, "G5.1: the game is over"
        try:
            key = rules.parse(action)
        except IllegalAction as err:
            return None, who, str(err)
        if key in self._legal_keys(who):
            return key, who, None
        return None, who, rules.explain(self._cards, self._state, who, key)

    def why_illegal(self, action: Any, seat: int | None = None) -> str | None:
        """None if ``action`` is legal now for ``seat``, else the reason, naming the ruling."""
        return self._refusal(action, seat)[2]

    def play(self, action: Any, seat: int | None = None) -> list[Event]:
        """Play ``action`` for ``seat`` (None: ``to_move``) and return its events, every
        secret in them open. :class:`IllegalAction` (naming the ruling) changes nothing."""
        key, who, why = self._refusal(action, seat)
        if key is None:
            raise IllegalAction(why or "illegal action")
        return redact_log(self._apply(key, who), None)

    def _apply(self, key: Key, seat: int) -> list[Event]:
        position = state_mod.copy(self._state)
        events: list[Event] = []
        rules.apply(self._cards, position, seat, key, events)
        self._record(position, events, key, seat)
        return events

    def _sealed_start(self) -> int | None:
        """Where the sealed step under way began in the history (None: no sealed step)."""
        if self._state["phase"] not in ("hand", "plan") or self._state["exhaust"] is not None:
            return None
        start = self.move_number
        while start > 0 and self._states[start - 1]["phase"] == self._state["phase"] \
                and self._states[start - 1]["round"] == self._state["round"] \
                and self._states[start - 1]["exhaust"] is None:
            start -= 1
        return start

    def can_take_back_sealed(self, seat: int) -> bool:
        """Whether ``seat`` has steps in the sealed choice under way to take back (G6.3)."""
        start = self._sealed_start()
        return start is not None and seat in self._movers[start:]

    def take_back_sealed(self, seat: int) -> None:
        """G6.3: take back ``seat``'s steps in the sealed choice under way, keeping every
        other seat's, so it may choose again (until the last seat seals).

        :class:`IllegalAction` if the seat has taken no step in the sealed choice under way.
        """
        check_seat(seat, self.num_players, none_ok=False)
        start = self._sealed_start()
        if start is None:
            raise IllegalAction("G6.3: no sealed step is under way")
        if seat not in self._movers[start:]:
            raise IllegalAction("G6.3: you have taken no step in this sealed choice")
        kept = [(self._actions[i], self._movers[i]) for i in range(start, self.move_number)
                if self._movers[i] != seat]
        while self.move_number > start:
            self.undo()
        for key, mover in kept:
            self._apply(key, mover)

    # --- what a seat may see ---------------------------------------------------------------
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The position as ``seat`` may see it (G7.1-G7.3; None: everything, for teaching)."""
        check_seat(seat, self.num_players)
        return views.view(self._cards, self._state, seat)

    def public_view(self) -> dict[str, Any]:
        """What a spectator may see (G7.4): during a sealed step only who has sealed."""
        return views.view(self._cards, self._state, PUBLIC)

    def log(self, seat: int | None = None) -> list[Event]:
        """The events so far, redacted for ``seat`` exactly as :meth:`view` is."""
        check_seat(seat, self.num_players)
        return [redact(e, seat) for evs in self._events for e in evs if sees_event(e, seat)]

    def public_log(self) -> list[Event]:
        return [redact(e, PUBLIC) for evs in self._events for e in evs
                if sees_event(e, PUBLIC)]

    def sight_barrier(self, seat: int | None) -> int:
        """How many decisions of the history stand for ``seat`` (G6.3 on R12.1): the
        history's length just after the last decision that showed it a card (its draws, the
        market, a reveal, a card turned face up in phase IV, a reshuffle). Goods drawn face
        down show nobody anything. For None (a board showing every seat), any seat's."""
        check_seat(seat, self.num_players)
        for i in range(len(self._actions), 0, -1):
            for e in self._events[i]:
                kind = e["type"]
                if kind in SHOWN_TO_ALL or (kind == "chain" and e["hand"]) \
                        or (kind == "pay" and rules.ONLY not in e):
                    return i
                if kind in SHOWN_TO_SEAT and (seat is None or e["seat"] == seat):
                    return i
        return 0

    # --- resampling -----------------------------------------------------------------------
    def resample(self, seat: int, rng: random.Random) -> Game:
        """A twin of this game with everything ``seat`` cannot see dealt afresh: the other
        hands, the draw pile's order, every good's face, the other seats' planned cards and
        their sealed choices not yet revealed (G7.3, G6.1). Its view, log and legal actions
        for ``seat`` are this game's; it starts with no history (the seat's log stands for
        the past), so a bot may search it. The draw depends on what the seat sees alone:
        the hidden cards are first sorted, then shuffled by ``rng``; the seed is drawn
        afresh too (it would tell the reshuffles)."""
        check_seat(seat, self.num_players, none_ok=False)
        s = state_mod.copy(self._state)
        cs = self._cards
        n = self.num_players
        s["seed"] = rng.randrange(2**62)
        turn = s["turn"]
        known_planned = turn["pay"]["card"] if turn is not None and turn["pay"] is not None \
            else None
        hidden: list[str] = list(s["draw"])
        for o in range(n):
            if o != seat:
                hidden += s["hands"][o]
                if s["planned"][o] is not None and s["planned"][o] != known_planned:
                    hidden.append(s["planned"][o])
            for b in s["buildings"][o]:
                hidden += b["goods"]
        pool = sorted(hidden)
        rng.shuffle(pool)

        def deal(k: int) -> list[str]:
            taken = pool[len(pool) - k:] if k else []
            del pool[len(pool) - k:]
            return taken

        for o in range(n):
            if o != seat:
                s["hands"][o] = sorted(deal(len(s["hands"][o])))
                if s["planned"][o] is not None and s["planned"][o] != known_planned:
                    s["planned"][o] = deal(1)[0]
            for b in s["buildings"][o]:
                b["goods"] = deal(len(b["goods"]))
        s["draw"] = deal(len(s["draw"]))
        assert not pool
        for o in range(n):
            if o == seat or s["phase"] not in ("hand", "plan"):
                continue
            if s["phase"] == "hand":
                s["choices"][o] = rng.choice(("keep", "mulligan")) if s["sealed"][o] else None
                continue
            s["plans"][o] = None
            if s["sealed"][o]:
                self._random_plan(s, o, rng)
        twin = Game(s, self.log(seat), cs)
        twin._version = self._version
        return twin

    def _random_plan(self, s: State, seat: int, rng: random.Random) -> None:
        """Give ``seat`` a random sealed plan, played step by step without events (it stands
        for a plan the resampling seat cannot see)."""
        cs = self._cards
        s["sealed"][seat] = False
        events: list[Event] = []
        for _ in range(PLAN_STEPS):
            keys = rules._plan_legal(cs, s, seat)
            key = rng.choice(keys)
            if key[0] == "plan_build":
                plan = rules.plan_of(s, seat)
                plan["card"] = key[1]
                s["plans"][seat] = plan
                s["sealed"][seat] = True
                return
            rules._apply_plan(cs, s, seat, key, events)
        s["plans"][seat] = None  # too long a walk: the plainest plan instead
        work = next(k for k in rules._plan_legal(cs, s, seat) if k[0] == "work")
        rules._apply_plan(cs, s, seat, work, events)
        s["plans"][seat]["card"] = None
        s["sealed"][seat] = True

    def __repr__(self) -> str:
        return (f"<goods.Game {self.num_players} players, round {self.round}, "
                f"phase {self.phase}, to decide {self.to_decide}>")
