"""A Crooks position as plain data, its JSON form (``crooks/1``) and the checks that load it.

A :class:`State` knows which cards exist and where each lies (hangouts,
targets, the hand of the seat recruiting, the box), every seat's cash and what
each seat knows of the hidden cards (C7.2); it knows nothing of how a turn
moves on: that is ``rules.py``. ``views.py`` decides what a seat may see.

The game's only randomness is the deal (C1.0, C1.1), drawn from ``seed``; the
seed stays in the position, so the same seed and actions give the same game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...errors import InvalidState
from . import cards
from .cards import TARGETS, Crook

FORMAT = "crooks/1"
# start: recruit or pass; keep: choose from the pile; place: send the kept crook out;
# switch/kill/spy: the one follow-up of a special placed with effect (C4.3).
STEPS = ("start", "keep", "place", "switch", "kill", "spy", "over")
FOLLOW_UPS = {"switch": "switch", "killer": "kill", "spy": "spy"}
MAX_SEED = 2**64 - 1


@dataclass(frozen=True, slots=True)
class Placed:
    """A crook at a target, face up or face down."""

    crook: str
    up: bool


@dataclass(slots=True)
class Turn:
    """The turn under way, from its recruit to its last step."""

    hangout: str
    pile: list[str]  # what the recruiter saw (C3.1), sorted
    hand: str | None = None  # the kept crook, until placed (C3.2)
    target: int | None = None  # where it went, while a follow-up is pending
    # Seats that knew the hangout exactly before the keep: they keep that knowledge only if
    # the kept crook is placed face up (C7.2).
    watchers: list[int] = field(default_factory=list)
    # Other seats that know the kept crook by C7.2's one case of counting (a known pile of 1).
    hand_known: list[int] = field(default_factory=list)

    def copy(self) -> Turn:
        return Turn(self.hangout, list(self.pile), self.hand, self.target,
                    list(self.watchers), list(self.hand_known))


@dataclass(slots=True)
class State:
    """A whole Crooks position. Mutable: ``rules.apply`` changes it in place."""

    deck: dict[str, Crook]
    names: list[str]
    seed: int
    start_player: int
    seat: int  # whose turn it is (the last to act, once over)
    step: str
    cash: list[int]
    passed: list[bool]
    hangouts: dict[str, list[str]]
    rows: list[dict[int, list[Placed]]]  # per seat: target -> its crooks there, bottom first
    box: list[str]
    turn: Turn | None = None
    known: list[set[str]] = field(default_factory=list)  # others' face-down crooks (C7.2, C4.8)
    piles_known: list[set[str]] = field(default_factory=list)  # hangouts known exactly (C7.2)
    paid: list[int] = field(default_factory=list)  # dollars each seat paid the bank (C5)
    gained: list[int] = field(default_factory=list)  # dollars each seat took from it (C4.4)
    custom_deck: bool = False

    @property
    def num_players(self) -> int:
        return len(self.names)

    def copy(self) -> State:
        return State(
            self.deck, list(self.names), self.seed, self.start_player, self.seat, self.step,
            list(self.cash), list(self.passed), {h: list(p) for h, p in self.hangouts.items()},
            [{t: list(s) for t, s in row.items()} for row in self.rows], list(self.box),
            None if self.turn is None else self.turn.copy(), [set(k) for k in self.known],
            [set(k) for k in self.piles_known], list(self.paid), list(self.gained),
            self.custom_deck,
        )

    def at(self, target: int) -> list[tuple[int, Placed]]:
        """Every crook at ``target`` with its owner, seat by seat."""
        return [(s, p) for s, row in enumerate(self.rows) for p in row[target]]

    def owner_of(self, crook: str) -> tuple[int, int] | None:
        """(seat, target) of a crook at a target, or None."""
        for s, row in enumerate(self.rows):
            for t, stack in row.items():
                if any(p.crook == crook for p in stack):
                    return s, t
        return None

    def renamed(self, sigma: Mapping[str, str]) -> State:
        """This position with every crook id ``x`` read as ``sigma[x]`` (resampling)."""
        def n(x: str) -> str:
            return sigma.get(x, x)

        twin = self.copy()
        twin.hangouts = {h: [n(c) for c in p] for h, p in self.hangouts.items()}
        twin.rows = [{t: [Placed(n(p.crook), p.up) for p in s] for t, s in row.items()}
                     for row in self.rows]
        twin.box = [n(c) for c in self.box]
        if twin.turn is not None:
            twin.turn.pile = sorted(n(c) for c in twin.turn.pile)
            twin.turn.hand = None if twin.turn.hand is None else n(twin.turn.hand)
        twin.known = [{n(c) for c in k} for k in self.known]
        return twin

    # --- JSON ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The position as JSON-ready data (docs/crooks.md, "The position format")."""
        turn = self.turn
        data: dict[str, Any] = {
            "format": FORMAT,
            "seed": self.seed,
            "names": list(self.names),
            "start_player": self.start_player,
            "seat": self.seat,
            "step": self.step,
            "cash": list(self.cash),
            "passed": list(self.passed),
            "paid": list(self.paid),
            "gained": list(self.gained),
            "hangouts": {h: list(p) for h, p in self.hangouts.items()},
            "targets": {str(t): [[{"crook": p.crook, "face": "up" if p.up else "down"}
                                  for p in row[t]] for row in self.rows] for t in TARGETS},
            "box": list(self.box),
            "turn": None if turn is None else {
                "hangout": turn.hangout, "pile": list(turn.pile), "hand": turn.hand,
                "target": turn.target, "watchers": list(turn.watchers),
                "hand_known": list(turn.hand_known)},
            "known": [sorted(k) for k in self.known],
            "piles_known": [sorted(k) for k in self.piles_known],
        }
        if self.custom_deck:
            data["deck"] = cards.deck_data(self.deck)
        return data


# --- loading ----------------------------------------------------------------------------
def _int(value: Any, what: str, low: int, high: int, rule: str = "C0.1") -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidState(f"{rule}: {what} must be a whole number {low} to {high}, "
                           f"not {value!r}"[:200])
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidState(f"C0.1: {what} must be a list, not {type(value).__name__}")
    return value


def _strs(value: Any, what: str) -> list[str]:
    items = _list(value, what)
    if not all(isinstance(x, str) for x in items):
        raise InvalidState(f"C0.1: {what} holds names (strings) only")
    return items


def from_dict(data: Any) -> State:
    """A position from ``to_dict`` data; :class:`InvalidState` (naming the ruling) if it
    cannot exist. Required: ``format`` and ``names``; the rest defaults to empty."""
    if not isinstance(data, dict):
        raise InvalidState(f"a Crooks position is a dict, not {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise InvalidState(f"not a {FORMAT!r} position (format {data.get('format')!r})"[:200])
    names = _list(data.get("names"), "names")
    n = len(names)
    if not cards.MIN_PLAYERS <= n <= cards.MAX_PLAYERS or not all(
            isinstance(x, str) for x in names):
        raise InvalidState(f"C1.1: Crooks is for 2 to 4 players named by strings, not {n}")
    custom = "deck" in data
    deck = cards.parse_deck(data["deck"]) if custom else cards.CROOKS
    seed = _int(data.get("seed", 0), "seed", 0, MAX_SEED)
    start = _int(data.get("start_player", 0), "start_player", 0, n - 1, "C1.0")
    seat = _int(data.get("seat", start), "seat", 0, n - 1, "C2.2")
    step = data.get("step", "start")
    if step not in STEPS:
        raise InvalidState(f"C2.1: step must be one of {STEPS}, not {step!r}"[:200])
    cash = [_int(c, "cash", 0, 10**6, "C5.1") for c in _list(data.get("cash"), "cash")]
    passed = _list(data.get("passed", [False] * n), "passed")
    if len(cash) != n or len(passed) != n or not all(isinstance(p, bool) for p in passed):
        raise InvalidState("C1.2: cash and passed hold one entry per seat")
    paid = [_int(c, "paid", 0, 10**6, "C5.1")
            for c in _list(data.get("paid", [max(0, cards.START_CASH - c) for c in cash]),
                           "paid")]
    gained = [_int(c, "gained", 0, 10**6, "C5.1")
              for c in _list(data.get("gained", [max(0, c - cards.START_CASH) for c in cash]),
                             "gained")]
    if len(paid) != n or len(gained) != n:
        raise InvalidState("C5.1: paid and gained hold one entry per seat")
    for s in range(n):
        if cash[s] != cards.START_CASH - paid[s] + gained[s]:
            raise InvalidState(f"C5.1: seat {s} has ${cash[s]}, but $18 less ${paid[s]} paid "
                               f"plus ${gained[s]} gained is ${18 - paid[s] + gained[s]}")
        if gained[s] % cards.PICKPOCKET_GAIN:
            raise InvalidState(f"C4.4: a Pickpocket gains $2 at a time; seat {s} gained "
                               f"${gained[s]}")
    allowed = cards.hangouts(n)
    raw_h = data.get("hangouts", {})
    if not isinstance(raw_h, dict) or set(raw_h) - set(allowed):
        raise InvalidState(f"C1.1: with {n} players the hangouts are {', '.join(allowed)}")
    where: dict[str, str] = {}

    def put(crook: Any, place: str) -> str:
        if not isinstance(crook, str) or crook not in deck:
            raise InvalidState(f"C0.4: {place} holds {crook!r}, which is no crook of the deck"
                               [:200])
        if crook in where:
            raise InvalidState(f"C1.1: crook {crook} is both in {where[crook]} and in {place}")
        where[crook] = place
        return crook

    hangouts: dict[str, list[str]] = {}
    for h, size in zip(allowed, cards.PILE_SIZES[n], strict=True):
        pile = [put(c, f"hangout {h}") for c in _list(raw_h.get(h, []), f"hangout {h}")]
        if len(pile) > size:
            raise InvalidState(f"C1.1: hangout {h} was dealt {size} crooks, it cannot hold "
                               f"{len(pile)}")
        hangouts[h] = pile
    raw_t = data.get("targets", {})
    if not isinstance(raw_t, dict) or set(raw_t) - {str(t) for t in TARGETS}:
        raise InvalidState("C1.2: the targets are '2' to '9'")
    rows: list[dict[int, list[Placed]]] = [{t: [] for t in TARGETS} for _ in range(n)]
    for t in TARGETS:
        per_seat = _list(raw_t.get(str(t), [[]] * n), f"target {t}")
        if len(per_seat) != n:
            raise InvalidState(f"C1.2: target {t} has one row per seat")
        for s, stack in enumerate(per_seat):
            for entry in _list(stack, f"seat {s}'s crooks at target {t}"):
                if not isinstance(entry, dict) or entry.get("face") not in ("up", "down"):
                    raise InvalidState(f"C4.1: a placed crook is {{crook, face: up|down}}, not "
                                       f"{entry!r}"[:200])
                crook = put(entry.get("crook"), f"seat {s}'s row at target {t}")
                rows[s][t].append(Placed(crook, entry["face"] == "up"))
    box = [put(c, "the box") for c in _list(data.get("box", []), "box")]
    raw_turn = data.get("turn")
    turn: Turn | None = None
    if raw_turn is not None:
        if not isinstance(raw_turn, dict) or raw_turn.get("hangout") not in allowed:
            raise InvalidState("C3.1: a turn names the hangout it recruited from")
        hand = raw_turn.get("hand")
        target = raw_turn.get("target")
        if target is not None and target not in TARGETS:
            raise InvalidState(f"C4.1: a turn's target is 2 to 9, not {target!r}"[:200])
        if hand is not None and target is None:
            put(hand, "the recruiter's hand")
        elif hand is not None and hand not in where:
            raise InvalidState("C4.3: a follow-up's crook lies at its target")
        pile = _strs(raw_turn.get("pile", []), "turn.pile")
        watchers = _list(raw_turn.get("watchers", []), "turn.watchers")
        hand_known = _list(raw_turn.get("hand_known", []), "turn.hand_known")
        for k in (*watchers, *hand_known):
            _int(k, "a seat", 0, n - 1, "C7.2")
        turn = Turn(raw_turn["hangout"], [str(c) for c in pile], hand, target,
                    list(watchers), list(hand_known))
    missing = sorted(set(deck) - set(where))
    if missing:
        raise InvalidState(f"C1.1: every crook lies in a hangout, at a target, in hand or in "
                           f"the box; missing {missing}"[:200])
    known = [set(_strs(k, "known")) for k in _list(data.get("known", [[]] * n), "known")]
    piles_known = [set(_strs(k, "piles_known"))
                   for k in _list(data.get("piles_known", [[]] * n), "piles_known")]
    if len(known) != n or len(piles_known) != n:
        raise InvalidState("C7.2: known and piles_known hold one entry per seat")
    state = State(deck, list(names), seed, start, seat, step, cash, list(passed), hangouts,
                  rows, box, turn, known, piles_known, paid, gained, custom)
    check(state)
    return state


def check(state: State) -> None:
    """What a position must keep whatever led to it (C2-C7)."""
    n = state.num_players
    kingpin = next(c for c in state.deck.values() if c.special == "kingpin").id
    for s, row in enumerate(state.rows):
        for t, stack in row.items():
            in_kill = (state.step == "kill" and state.turn is not None
                       and state.turn.target == t and s == state.seat)
            above = stack[1:-1] if in_kill or (state.step == "switch" and s == state.seat
                                               and state.turn is not None
                                               and state.turn.target == t) else stack[1:]
            for p in above:
                if not p.up or state.deck[p.crook].special != "accomplice":
                    raise InvalidState(f"C4.2: seat {s} has more than one crook at target {t}; "
                                       f"only face-up Accomplices stack (C4.4)")
            for p in stack:
                if p.crook == kingpin and not p.up:
                    raise InvalidState("C4.3: the Kingpin is always placed face up")
    for s in range(n):
        bad = [c for c in state.known[s] if (o := state.owner_of(c)) is None or o[0] == s
               or _placed(state, c).up]
        if bad:
            raise InvalidState(f"C7.2: seat {s} knows {bad}, which are not other seats' "
                               f"face-down crooks")
        if state.piles_known[s] - set(state.hangouts):
            raise InvalidState(f"C7.2: seat {s} knows hangouts that are not in play")
    if state.step == "over":
        if not all(state.passed) or state.turn is not None:
            raise InvalidState("C2.2: the game is over only when every seat has passed")
        if any(not p.up for _, row in enumerate(state.rows) for st in row.values() for p in st):
            raise InvalidState("C6.1: once the game is over, every crook at a target is face up")
        return
    if all(state.passed):
        raise InvalidState("C2.2: every seat has passed, so the game is over")
    if state.passed[state.seat]:
        raise InvalidState(f"C2.2: seat {state.seat} has passed and takes no more turns")
    turn = state.turn
    if state.step == "start":
        if turn is not None:
            raise InvalidState("C2.1: a turn that has not started has no recruit")
        return
    if turn is None:
        raise InvalidState(f"C2.1: step {state.step!r} needs the turn's recruit")
    if state.step == "keep":
        if turn.hand is not None or sorted(turn.pile) != sorted(state.hangouts[turn.hangout]) \
                or not turn.pile:
            raise InvalidState("C3.1: while keeping, the pile seen is the whole hangout")
        return
    if turn.hand is None or turn.hand not in turn.pile:
        raise InvalidState("C3.2: the kept crook comes from the pile recruited")
    if turn.hand == kingpin and len(turn.pile) > 1:
        raise InvalidState("C3.3: the Kingpin is kept only when it is the last crook of its "
                           "hangout")
    if state.step == "place":
        if turn.target is not None:
            raise InvalidState("C4.1: the crook in hand is not placed yet")
        return  # rules.check_position: C3.4, where the crook can go, is the rules' to say
    if turn.target is None:
        raise InvalidState(f"C4.3: a {state.step} follow-up needs the target of its crook")
    top = state.rows[state.seat][turn.target][-1:] if turn.target in TARGETS else []
    special = state.deck[turn.hand].special
    if not top or top[0].crook != turn.hand or not top[0].up \
            or FOLLOW_UPS.get(special or "") != state.step:
        raise InvalidState(f"C4.3: a {state.step} follow-up needs its crook placed face up")


def _placed(state: State, crook: str) -> Placed:
    for row in state.rows:
        for stack in row.values():
            for p in stack:
                if p.crook == crook:
                    return p
    raise KeyError(crook)
