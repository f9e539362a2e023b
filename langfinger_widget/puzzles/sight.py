"""Puzzles a reader can solve from what the board shows (R11, docs/puzzles.md "What the board
shows").

The solver proves a puzzle on the whole position, but the reader sees one seat's view: the
Villa's and Museum's cards and the rivals' loot by their backs only, the tool pile not at
all. A puzzle is fair when its solution meets the goal in every position the reader cannot
tell from the true one. Those are the *hidden states*: the fronts of the loot cards that
the board does not show dealt again among the cards with the same back (R0.2: the back is
all the board shows of them), and, when a token stands at the Ruin, the tool pile in
another order (R6.1 draws from it blind).

What the puzzle tells the reader (:class:`Told`: loot fronts, the top of the tool pile)
the board shows, marked as told, and no hidden state changes it. So a puzzle passes either
because its solution works whatever the hidden fronts are, or because it tells what the
solution relies on; :func:`needed` finds what to tell, :func:`blind_spot` a hidden state
where the solution fails (the book's loader refuses such a puzzle, book.verify).

The rivals' hands are left as they are: a scripted rival plays the moves the story
tells, and an adversarial puzzle's story tells what the rivals hold.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..kernel import cards, describe, rules, words
from ..kernel.errors import BadArgument
from ..kernel.rules import PLACE_NAMES
from ..kernel.state import State
from .solver import Opponents, Search, evaluate

Back = tuple[str, tuple[str, ...]]
Slot = tuple[str, int, int]  # ("villa"|"museum"|"loot"|"pile", seat or -1, index)
VARIANTS_AT_MOST = 400  # loot deals tried for one puzzle; past it each back is varied alone
TOOL_SHUFFLES = 6  # orders of the tool pile tried when a token stands at the Ruin
ORDINALS = ("first", "second", "third", "fourth", "fifth")


@dataclass(frozen=True)
class Told:
    """What a puzzle tells its reader beyond the seat's view; the board shows it, marked.

    ``loot``: loot ids whose fronts are told (a card in the Villa or Museum, or a
    rival's face-down loot); ``tools``: how many cards off the top of the tool pile are
    told, in order (what the Ruin will draw, R6.1).
    """

    loot: tuple[str, ...] = ()
    tools: int = 0

    def __bool__(self) -> bool:
        return bool(self.loot or self.tools)

    def to_dict(self) -> dict[str, Any]:
        return {"loot": list(self.loot), "tools": self.tools}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Told:
        if not isinstance(data, Mapping):
            raise TypeError(f"told is an object of loot and tools, not {type(data).__name__}")
        unknown = sorted(set(data) - {"loot", "tools"})
        if unknown:
            raise BadArgument(f"told holds loot and tools, not {unknown}")
        loot = tuple(str(x) for x in data.get("loot", ()))
        bad = [x for x in loot if x not in cards.LOOT_CARDS]
        if bad:
            raise BadArgument(f"told names no loot card {bad}")
        tools = int(data.get("tools", 0))
        if tools < 0:
            raise BadArgument("told tools counts cards: 0 or more")
        return cls(tuple(sorted(set(loot))), tools)

    def more(self, loot: Sequence[str] = (), tools: int = 0) -> Told:
        return Told(tuple(sorted({*self.loot, *loot})), max(self.tools, tools))


NOTHING_TOLD = Told()  # a puzzle that tells nothing beyond the seat's view


class Puzzle(Protocol):
    """What this module reads of a puzzle (``puzzles.model.Puzzle``, which imports us)."""

    @property
    def seat(self) -> int: ...

    @property
    def position(self) -> str: ...

    @property
    def told(self) -> Told: ...

    @property
    def solution(self) -> tuple[dict[str, Any], ...]: ...

    @property
    def opponents(self) -> Any: ...

    @property
    def goal(self) -> Any: ...

    def start(self) -> State: ...


def _back(loot_id: str) -> Back:
    card = cards.LOOT_CARDS[loot_id]
    return card.protection, card.tools


def _slots(state: State, seat: int, told: Told) -> dict[Back, list[tuple[Slot, str]]]:
    """Every loot card the seat cannot see, by back, with where it lies. The seat sees its
    own loot and the discard (R11.1); what the puzzle tells, it sees too."""
    out: dict[Back, list[tuple[Slot, str]]] = {}

    def add(slot: Slot, loot_id: str) -> None:
        if loot_id not in told.loot:
            out.setdefault(_back(loot_id), []).append((slot, loot_id))

    for place in ("villa", "museum"):
        for i, loot_id in enumerate(state.display(place)):
            add((place, -1, i), loot_id)
    for s, p in enumerate(state.players):
        if s != seat:
            for i, loot_id in enumerate(p.loot):
                add(("loot", s, i), loot_id)
    for i, loot_id in enumerate(state.piles["loot"].draw):
        add(("pile", -1, i), loot_id)
    return out


def _deals(group: list[tuple[Slot, str]]) -> Iterator[dict[Slot, str]]:
    """The ways one back's cards may lie on the board (the pile's order does not matter
    inside a round: loot is drawn only by the refill after it, R9.1)."""
    board = [slot for slot, _ in group if slot[0] != "pile"]
    ids = [loot_id for _, loot_id in group]
    piled = [slot for slot, _ in group if slot[0] == "pile"]
    for chosen in itertools.permutations(ids, len(board)):
        rest = [x for x in ids if x not in chosen]
        yield dict(zip(board + piled, [*chosen, *rest], strict=True))


def _put(state: State, deal: Mapping[Slot, str]) -> State:
    out = state.copy()
    for (where, seat, i), loot_id in deal.items():
        if where in ("villa", "museum"):
            out.display(where)[i] = loot_id
        elif where == "loot":
            out.players[seat].loot[i] = loot_id
        else:
            out.piles["loot"].draw[i] = loot_id
    return out


@dataclass(frozen=True)
class Hidden:
    """One hidden state: a position the reader cannot tell from the puzzle's."""

    state: State
    changed: dict[Slot, tuple[str, str]] = field(default_factory=dict)  # slot: (true, here)
    tools: bool = False  # the tool pile lies in another order

    def rename(self, action: Mapping[str, Any]) -> dict[str, Any]:
        """``action`` as it reads here: a sale names the card that lies where the true one
        lay (the reader sells "the card I stole", whatever its id)."""
        out = dict(action)
        if out.get("type") == "sell":
            ids = {true: here for true, here in self.changed.values()}
            out["loot"] = [ids.get(x, x) for x in out["loot"]]
        return out

    def words(self, state: State) -> str:
        """What differs, as the reader would put it: "the Museum's second card held 1
        money, not 2"."""
        parts = [f"{_slot_words(state, slot)} held {describe.loot_front(_face(new))}, "
                 f"not {describe.loot_front(_face(true))}"
                 for slot, (true, new) in self.changed.items() if slot[0] != "pile"]
        if self.tools:
            parts.append("the tool pile lay in another order")
        return words.listing(parts)


def _face(loot_id: str) -> dict[str, Any]:
    return cards.LOOT_CARDS[loot_id].face()


def _slot_words(state: State, slot: Slot) -> str:
    where, seat, i = slot
    loot_id = _at(state, slot)
    if where in ("villa", "museum"):
        return f"the {PLACE_NAMES[where]}'s {ORDINALS[i]} card, " \
               f"{describe.loot_back(_face(loot_id))},"
    return _owned(state.players[seat].name, loot_id)


def _owned(owner: str, loot_id: str) -> str:
    """A rival's face-down card by its back: "Hans's showcase (two hammers and pliers)"."""
    card = cards.LOOT_CARDS[loot_id]
    return f"{owner}'s {card.protection} ({words.tools(card.tools)})"


def hidden_states(state: State, seat: int, told: Told = NOTHING_TOLD) -> Iterator[Hidden]:
    """Every loot deal the reader cannot tell from ``state`` (the true one left out), then a
    few orders of the tool pile if a token stands at the Ruin (past ``told.tools``)."""
    groups = [list(_deals(g)) for g in _slots(state, seat, told).values()]
    groups = [g for g in groups if len(g) > 1]
    sizes = [len(g) for g in groups]
    total = 1
    for n in sizes:
        total *= n
    if total <= VARIANTS_AT_MOST:
        combos: Iterator[tuple[dict[Slot, str], ...]] = itertools.product(*groups)
    else:  # too many to try all: each back dealt otherwise while the others stay true
        combos = ((*(g[0] for g in groups[:k]), d, *(g[0] for g in groups[k + 1:]))
                  for k, group in enumerate(groups) for d in group[1:])
    for combo in combos:
        deal = {slot: loot_id for part in combo for slot, loot_id in part.items()}
        # Every card that moved, the pile's too: a sale names its card by id (rename).
        changed = {slot: (_at(state, slot), loot_id) for slot, loot_id in deal.items()
                   if _at(state, slot) != loot_id}
        if changed:
            yield Hidden(_put(state, deal), changed)
    if any(x is not None for x in state.squares["ruin"]):
        draw = state.piles["tools"].draw
        rng = random.Random(len(draw))  # a fixed set of orders: the check says the same each run
        for _ in range(TOOL_SHUFFLES):
            rest = list(draw[told.tools:])
            rng.shuffle(rest)
            if rest == draw[told.tools:]:
                continue
            other = state.copy()
            other.piles["tools"].draw = [*draw[:told.tools], *rest]
            yield Hidden(other, tools=True)


def _at(state: State, slot: Slot) -> str:
    where, seat, i = slot
    if where in ("villa", "museum"):
        return state.display(where)[i]
    if where == "loot":
        return state.players[seat].loot[i]
    return state.piles["loot"].draw[i]


@dataclass(frozen=True)
class BlindSpot:
    """A hidden state in which the puzzle's solution does not meet the goal."""

    hidden: Hidden
    why: str  # what happens there, in the board's words
    text: str

    def __str__(self) -> str:
        return self.text


def _solves(puzzle: Puzzle, hidden: Hidden) -> tuple[bool, str]:
    """Whether the puzzle's own solution meets its goal from ``hidden``, and if not, why."""
    opponents: Opponents = "adversarial" if puzzle.opponents == "adversarial" else \
        [hidden.rename(a) for a in puzzle.opponents]
    search = Search(hidden.state, puzzle.seat, opponents, puzzle.goal.score)
    value, _, broke = evaluate(search, [rules.action_key(hidden.rename(a))
                                        for a in puzzle.solution])
    if broke is not None:
        return False, broke
    return value >= puzzle.goal.target, f"it scores {value}, the goal asks {puzzle.goal.target}"


def blind_spot(puzzle: Puzzle, told: Told | None = None) -> BlindSpot | None:
    """A position the board cannot tell from the puzzle's in which its solution fails, or
    None: the puzzle can be solved from what its board shows (and tells: ``told``, by
    default the puzzle's own)."""
    state = puzzle.start()
    for hidden in hidden_states(state, puzzle.seat, puzzle.told if told is None else told):
        ok, why = _solves(puzzle, hidden)
        if not ok:
            return BlindSpot(hidden, why, f"R11.1: the board does not show which it is: if "
                             f"{hidden.words(state)}, the solution fails ({why})")
    return None


def needed(puzzle: Puzzle) -> Told:
    """What the puzzle must tell (beyond what it tells) for its solution to work in every
    hidden state: a face-down card's front each time one decides, the tool pile's top
    cards if what the Ruin draws does."""
    told = puzzle.told
    while True:
        spot = blind_spot(puzzle, told)
        if spot is None:
            return told
        if spot.hidden.tools:
            drawn = tool_draws(puzzle)
            told = told.more(tools=drawn if drawn > told.tools else
                             len(puzzle.start().piles["tools"].draw))
            continue
        state = puzzle.start()
        # Tell one card at a time, the first that lay otherwise: often that one is enough.
        # (Only a card on the board can change the round: the pile is drawn after it, R9.1.)
        slot = next(s for s in spot.hidden.changed if s[0] != "pile")
        told = told.more(loot=[_at(state, slot)])


def tool_draws(puzzle: Puzzle) -> int:
    """How many tools the solution's line draws at the Ruin (R6.1), the rivals' included."""
    return sum(e.get("count", 0) for e in line_events(puzzle) if e["type"] == "exchange")


def line_events(puzzle: Puzzle) -> list[rules.Event]:
    """Everything that happens in the puzzle's round when the reader plays its solution and
    the rivals their script (see :func:`line`)."""
    return [e for _, _, _, events in line(puzzle) for e in events]


def line(puzzle: Puzzle) -> list[tuple[int, dict[str, Any], State, list[rules.Event]]]:
    """The puzzle's round move by move: (who, action, the position before it, its events),
    the reader playing its solution and the rivals their script (a scripted move the
    position refuses is a pass, as the solver plays it; an adversarial rival passes here)."""
    from ..kernel.game import Game

    game = Game.from_notation(puzzle.position)
    plan = list(puzzle.solution)
    script = [] if puzzle.opponents == "adversarial" else list(puzzle.opponents)
    out: list[tuple[int, dict[str, Any], State, list[rules.Event]]] = []
    start = game.round
    while not game.is_over and game.round == start:
        who = game.to_move
        assert who is not None
        action = plan.pop(0) if who == puzzle.seat and plan else \
            (script.pop(0) if script and who != puzzle.seat else {"type": "pass"})
        if rules.explain(game.state, action) is not None:
            action = {"type": "pass"}
        before = game.state.copy()
        out.append((who, action, before, game.play(action)))
    return out


# --- on the board ---------------------------------------------------------------------------


def show(view: dict[str, Any], state: State, told: Told) -> dict[str, Any]:
    """``view`` (the reader's, of ``state``) with what the puzzle tells: each told card's
    front, marked ``"told": True``. Nothing else is added: the rest stays as R11.1 hides it."""
    if not told.loot:
        return view
    out = dict(view)
    for place in ("villa", "museum"):
        out[place] = [_told_card(c, loot_id, told) for c, loot_id in
                      zip(view[place], state.display(place), strict=True)]
    players = []
    for pv, p in zip(view["players"], state.players, strict=True):
        pv = dict(pv)
        pv["loot"] = [_told_card(c, loot_id, told) for c, loot_id in
                      zip(pv["loot"], p.loot, strict=True)]
        players.append(pv)
    out["players"] = players
    return out


def _told_card(card: dict[str, Any], loot_id: str, told: Told) -> dict[str, Any]:
    if loot_id not in told.loot or "kind" in card:
        return card
    # The front, not the id: a view's ids are the cards whose place the seat knows, and the
    # bots' sampler (kernel/hidden.py) counts them so; the board needs only kind and value.
    face = cards.LOOT_CARDS[loot_id].face()
    return {**card, "kind": face["kind"], "value": face["value"], "told": True}


def told_words(state: State, told: Told) -> list[str]:
    """What the puzzle tells, one sentence a fact, as the puzzle's panel lists it."""
    out: list[str] = []
    for place in ("villa", "museum"):
        for i, loot_id in enumerate(state.display(place)):
            if loot_id in told.loot:
                out.append(f"The {PLACE_NAMES[place]}'s {ORDINALS[i]} card, "
                           f"{describe.loot_back(_face(loot_id))}, holds "
                           f"{describe.loot_front(_face(loot_id))}.")
    for p in state.players:
        for loot_id in p.loot:
            if loot_id in told.loot:
                out.append(f"{_owned(p.name, loot_id)} holds "
                           f"{describe.loot_front(_face(loot_id))}.")
    if told.tools:
        top = state.piles["tools"].draw[:told.tools]
        out.append(f"The tool pile, from the top: {words.listing([words.one(t) for t in top])}.")
    return out


__all__ = ["NOTHING_TOLD", "BlindSpot", "Hidden", "Puzzle", "Told", "blind_spot",
           "hidden_states", "line", "line_events", "needed", "show", "told_words", "tool_draws"]
