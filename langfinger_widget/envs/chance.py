"""Explicit chance: every card drawn becomes a chance outcome (for OpenSpiel).

The kernel draws from shuffled piles with the game's seed. Drawing the top
card of a uniformly shuffled pile is the same as drawing a card uniformly
from what the pile holds, so a game with explicit chance treats each draw
pile as a multiset: when an action (or the opening deal) draws cards, play
pauses at one chance node per card, whose outcomes are the distinct cards
the pile still holds, each with probability count / size.

Once every card of an action is chosen, the kernel plays the action itself
(``rules.apply``) on a position whose piles are arranged so that it draws
exactly the chosen cards: they are put on top of the draw pile and, where the
pile runs out mid-action and its discard is shuffled in (R9.2), on top of the
reshuffled pile (:class:`ChanceState` hooks ``State.shuffle`` for that). The
number of cards an action draws never depends on which cards they are (it
depends on display sizes, exchange rates and pile sizes), so a dry run on a
copy finds it before the outcomes are chosen.

The opening deal (R1.3, R1.4) is dealt by ``rules.setup`` with any seed and
then *relabelled*: the hands and displays keep their sizes, and the cards in
them are the chance outcomes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..kernel import cards, rules, views
from ..kernel.cards import TOOLS
from ..kernel.errors import BadArgument
from ..kernel.load import full_deck
from ..kernel.rules import Event, Key
from ..kernel.state import PILES, Pile, State, empty_hand

FEEDS = (("city", "tools"), ("villa", "loot"), ("museum", "loot"), ("harbor", "fences"))  # R9.1


def outcomes() -> list[tuple[str, str]]:
    """Every chance outcome, (pile, card), in id order: 5 tools, 30 loot, 14 fences."""
    return ([("tools", t) for t in TOOLS] + [("loot", i) for i in sorted(cards.LOOT_CARDS)]
            + [("fences", i) for i in sorted(cards.FENCE_CARDS)])


_OUTCOMES = outcomes()
OUTCOME_ID = {o: i for i, o in enumerate(_OUTCOMES)}


class ChanceState(State):
    """A kernel position whose reshuffles (R9.2) are recorded and put chosen cards on top.

    ``on_top[pile]`` is a queue of card lists, one for each reshuffle the next
    action makes of that pile; with an empty queue a reshuffle changes nothing
    (the order of a draw pile is never read here: every draw is a chance node).
    ``reshuffled`` lists each reshuffle as (pile, the cards shuffled in).
    """

    __slots__ = ("on_top", "reshuffled")

    on_top: dict[str, list[list[str]]]
    reshuffled: list[tuple[str, Counter[str]]]

    def shuffle(self, cards_: list[str]) -> None:
        pile = next(p for p in PILES if self.piles[p].draw is cards_)
        self.reshuffled.append((pile, Counter(cards_)))
        queue = self.on_top.get(pile)
        if queue:
            _put_on_top(cards_, queue.pop(0))
        self.shuffles += 1

    def copy(self) -> ChanceState:
        return adopt(State.copy(self))


def adopt(state: State) -> ChanceState:
    """The same position as a :class:`ChanceState` (sharing its lists: pass a copy)."""
    out = ChanceState.__new__(ChanceState)
    for name in State.__slots__:
        setattr(out, name, getattr(state, name))
    out.on_top = {}
    out.reshuffled = []
    return out


def _put_on_top(pile: list[str], top: list[str]) -> None:
    rest = list(pile)
    for card in top:
        rest.remove(card)
    pile[:] = [*top, *rest]


@dataclass
class Draws:
    """Cards an action (``key``; None for the opening deal) still has to draw.

    ``plan`` names the pile of each draw in order; ``sources[pile]`` lists the
    multisets that pile draws from in turn (its draw pile, then each discard
    shuffled in); ``chosen`` holds the outcomes so far.
    """

    key: Key | None
    plan: list[str]
    sources: dict[str, list[Counter[str]]]
    chosen: list[str] = field(default_factory=list)

    def done(self) -> bool:
        return len(self.chosen) == len(self.plan)

    def pile(self) -> str:
        return self.plan[len(self.chosen)]

    def chosen_from(self, pile: str) -> list[str]:
        return [c for p, c in zip(self.plan, self.chosen, strict=False) if p == pile]

    def available(self) -> Counter[str]:
        """The cards the next draw may show, with their counts."""
        pile = self.pile()
        taken = self.chosen_from(pile)
        for source in self.sources[pile]:
            size = source.total()
            if len(taken) < size:
                return source - Counter(taken)
            taken = taken[size:]
        raise AssertionError("a draw beyond the planned sources")

    def segments(self, pile: str) -> list[list[str]]:
        """The chosen cards of ``pile`` split by source: draw pile, then each reshuffle."""
        taken, out = self.chosen_from(pile), []
        for source in self.sources[pile]:
            size = source.total()
            out.append(taken[:size])
            taken = taken[size:]
        return out


# --- planning ------------------------------------------------------------------------------


def plan_action(state: ChanceState, key: Key) -> Draws:
    """What ``key`` will draw, found by playing it on a copy (R9.1, R9.2, R6.1)."""
    trial = state.copy()
    rules.apply(trial, key)
    plan: list[str] = []
    sources: dict[str, list[Counter[str]]] = {}
    for p in PILES:
        sources[p] = [Counter(state.piles[p].draw),
                      *(cards_ for pile, cards_ in trial.reshuffled if pile == p)]
        left = len(trial.piles[p].draw)
        plan += [p] * (sum(s.total() for s in sources[p]) - left)
    return Draws(key, plan, sources)


def resolve(state: ChanceState, draws: Draws) -> list[Event]:
    """Play ``draws.key`` so that the kernel draws exactly ``draws.chosen``."""
    assert draws.key is not None and draws.done()
    for p in PILES:
        first, *later = draws.segments(p)
        _put_on_top(state.piles[p].draw, first)
        state.on_top[p] = [list(s) for s in later]
    state.reshuffled = []
    events = rules.apply(state, draws.key)
    state.on_top = {}
    return events


# --- the opening deal ----------------------------------------------------------------------


def plan_deal(players: int, scoundrels: list[str] | None, variant: str) -> tuple[State, Draws]:
    """A dealt game to relabel, and the draws that choose its cards (R1.3, R1.4)."""
    base, _ = rules.setup(players, 0, scoundrels=scoundrels, variant=variant)
    plan = ["tools"] * sum(p.hand_size() for p in base.players)
    for place, pile in FEEDS:
        plan += [pile] * len(base.display(place))
    return base, Draws(None, plan, {p: [full_deck(p)] for p in PILES})


def deal(base: State, draws: Draws) -> ChanceState:
    """``base`` with its hands and displays holding the chosen cards, the rest in the piles."""
    assert draws.key is None and draws.done()
    state = adopt(base.copy())
    tools = iter(draws.chosen_from("tools"))
    for player in state.players:  # any order: every card is a fresh uniform draw
        size = player.hand_size()
        player.hand = empty_hand()
        for _ in range(size):
            player.hand[next(tools)] += 1
    rest = {p: iter(draws.chosen_from(p)) for p in ("loot", "fences")}
    rest["tools"] = tools
    for place, pile in FEEDS:
        display = state.display(place)
        display[:] = [next(rest[pile]) for _ in display]
    for p in PILES:
        left = draws.sources[p][0] - Counter(draws.chosen_from(p))
        state.piles[p] = Pile(sorted(left.elements()), [])
    return state


def undealt(base: State) -> ChanceState:
    """``base`` before the deal: empty hands and displays, every card in its draw pile."""
    state = adopt(base.copy())
    for player in state.players:
        player.hand = empty_hand()
    for place, _ in FEEDS:
        state.display(place).clear()
    for pile in PILES:
        state.piles[pile] = Pile(sorted(full_deck(pile).elements()), [])
    return state


class Position:
    """A Langfinger game in which chance is explicit: a kernel position and pending draws.

    ``current()`` is ``"chance"`` while cards are being drawn, the seat to move,
    or ``None`` once the game is over (R10.1) or has run ``max_rounds`` rounds.
    """

    def __init__(self, base: State, deal_draws: Draws, max_rounds: int = 100) -> None:
        """Start before the deal of ``plan_deal`` (``base`` is never changed)."""
        self.max_rounds = max_rounds
        self._base = base
        self.pending: Draws | None = _copy_draws(deal_draws)
        self.state: ChanceState = undealt(base)
        self.events: list[Event] = []  # what the latest action did, once played out
        self._views: dict[int, dict[str, Any]] = {}
        self._vectors: dict[tuple[int, int], list[float]] = {}

    @classmethod
    def new(cls, players: int, scoundrels: list[str] | None = None, variant: str = "standard",
            max_rounds: int = 100) -> Position:
        return cls(*plan_deal(players, scoundrels, variant), max_rounds)

    def copy(self) -> Position:
        twin = self.with_state(self.state.copy())
        twin._views = dict(self._views)  # the same position: what was seen of it still holds
        twin._vectors = dict(self._vectors)
        return twin

    def __deepcopy__(self, memo: dict[int, object]) -> Position:
        return self.copy()  # OpenSpiel clones a state by deep-copying its attributes

    def with_state(self, state: ChanceState, keep_draws: bool = True) -> Position:
        """This game at ``state`` (e.g. a sample of it), with the same pending draws or none."""
        twin = Position.__new__(Position)
        twin.max_rounds = self.max_rounds
        twin._base = self._base
        twin.state = state
        twin.pending = _copy_draws(self.pending) if self.pending and keep_draws else None
        twin.events = []
        twin._views = {}
        twin._vectors = {}
        return twin

    def _forget(self) -> None:
        self._views.clear()
        self._vectors.clear()

    def view(self, seat: int) -> dict[str, Any]:
        """``views.view`` of the position for ``seat``, kept until the next move (read only)."""
        found = self._views.get(seat)
        if found is None:
            found = self._views[seat] = views.view(self.state, seat)
        return found

    def encoded(self, seat: int, encoder: Any) -> list[float]:
        """``encoder.encode(self.view(seat))``, kept until the next move."""
        key = (seat, id(encoder))
        found = self._vectors.get(key)
        if found is None:
            found = self._vectors[key] = encoder.encode(self.view(seat))
        return found

    # --- whose turn --------------------------------------------------------------------------
    def truncated(self) -> bool:
        return self.state.phase != "over" and self.state.round > self.max_rounds

    def is_over(self) -> bool:
        return self.state.phase == "over" or self.truncated()

    def current(self) -> int | str | None:
        if self.pending is not None:
            return "chance"
        if self.is_over():
            return None
        return rules.to_move(self.state)

    def returns(self) -> list[float]:
        """R10.2: a win shared by the tied winners; a truncated game is shared by everyone."""
        n = self.state.num_players
        if self.truncated():
            return [1.0 / n] * n
        won = rules.winners(self.state)
        return [1.0 / len(won) if s in won else 0.0 for s in range(n)] if won else [0.0] * n

    # --- chance ----------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome id, probability) for the next card drawn, by ascending id."""
        assert self.pending is not None, "not a chance node"
        pile = self.pending.pile()
        counts = self.pending.available()
        total = counts.total()
        return sorted((OUTCOME_ID[(pile, card)], n / total) for card, n in counts.items())

    def apply_outcome(self, outcome: int) -> None:
        assert self.pending is not None, "not a chance node"
        pile, card = _OUTCOMES[outcome]
        if pile != self.pending.pile() or self.pending.available()[card] < 1:
            raise BadArgument(f"chance outcome {outcome} ({card}) cannot be drawn from "
                             f"the {self.pending.pile()} pile now")
        self.pending.chosen.append(card)
        self._forget()
        if self.pending.done():
            self._finish(self.pending)

    def _finish(self, draws: Draws) -> None:
        self.pending = None
        if draws.key is None:
            self.state = deal(self._base, draws)
        else:
            self.events = resolve(self.state, draws)

    # --- players -----------------------------------------------------------------------------
    def apply_key(self, key: Key) -> None:
        """Play a legal key; its draws, if any, become the next chance nodes."""
        assert self.pending is None and not self.is_over()
        self._forget()
        self.events = []
        if key[0] == "place":  # R2.2: placing a token never draws a card
            self.events = rules.apply(self.state, key)
            return
        draws = plan_action(self.state, key)
        if draws.plan:
            self.pending = draws
        else:
            self.events = rules.apply(self.state, key)


def _copy_draws(d: Draws) -> Draws:
    return Draws(d.key, d.plan, d.sources, list(d.chosen))  # plan and sources are never changed
