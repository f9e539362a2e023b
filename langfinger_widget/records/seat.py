"""Replaying one seat's record: what it did not see is sampled, then made to agree with what it saw.

A seat's record (``view k``) holds every decision (actions are public: tools
paid and given are discarded face up, sold loot is shown) and what the
seat saw come out of each: its own draws and stolen fronts, cashed chests,
the refilled displays. It holds no seed, no other hand, no face-down front.

So the reader keeps a *sample*: a full position the seat could not tell from
the real one. Before each decision it draws a fresh one from the seat's view
(:class:`~langfinger_widget.kernel.hidden.Determinizer`, as the bots do),
then moves cards the seat cannot see so that the record's facts hold:

* before a rival's decision, the tools it pays or gives and the loot it
  sells are swapped into its hidden hand (if the seat's knowledge allows it);
* before a steal whose front the seat saw (its own, or a chest, R5.3), that
  card is put into the slot (same back, so the seat cannot tell);
* after the decision, the seat's own draws (R6.1) and the refills (R9.1) are
  made the recorded ones by swapping with unseen cards.

The kernel then judges the decision on the sample (``rules.legal_keys``) and
plays it (``rules.apply``). The seat's own decisions are checked fully (its
hand is known); a rival's only as far as the seat could see: a record that
no hidden deal makes legal is refused. What the seat saw after replaying
(``views.view(sample, k)``) is exactly what it saw in the game.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..kernel import cards, rules, views
from ..kernel.errors import IllegalAction, InvalidState, RecordError
from ..kernel.hidden import Determinizer
from ..kernel.load import check
from ..kernel.rules import (
    Event,
    faces,  # a refill event's cards, as the kernel writes them
)
from ..kernel.state import State
from .full import (
    Record,
    check_decision,
    check_end,
    check_reveal,
    deals_of,
    expect_items,
    refills_of,
    round_start,
)
from .syntax import (
    HIDDEN,
    Body,
    Deal,
    Decision,
    Header,
    Item,
    Refill,
    SeatView,
    back_word,
    render,
    ruling_of,
)

PLACE_NAMES = {p: p.capitalize() for p in cards.PLACES}


def _back_word(loot_id: str) -> str:
    """A loot card as a seat's record names it while its front is hidden."""
    return back_word(cards.LOOT_CARDS[loot_id].back())


# --- moving cards the seat cannot see -----------------------------------------------------------


Spot = tuple[list[str], int]  # where a card lies: a list of the position, and an index
FAMILIES = {"city": "tools", "villa": "loot", "museum": "loot", "harbor": "fences"}


def swap_tool(s: State, seat: int, want: str, give: str, avoid: set[int],
              spots: Sequence[Spot] = ()) -> bool:
    """Take a ``want`` tool from where ``seat`` cannot see it (the draw pile, a card just
    refilled into ``spots``, a rival's hidden hand) and put ``give`` there instead; False if
    no unseen ``want`` is left (R0.1)."""
    draw = s.piles["tools"].draw
    if want in draw:
        draw[draw.index(want)] = give
        return True
    for where, i in spots:
        if where[i] == want:
            where[i] = give
            return True
    for j, p in enumerate(s.players):
        if j != seat and j not in avoid and p.hand[want] > p.known[want]:
            p.hand[want] -= 1
            p.hand[give] += 1
            return True
    return False


def give_tools(s: State, seat: int, rival: int, need: Counter[str]) -> None:
    """Make ``rival``'s hidden hand hold ``need`` if the unseen tools allow (else leave it)."""
    p = s.players[rival]
    for tool in cards.TOOLS:
        while p.hand[tool] < need[tool]:
            spare = next((u for u in cards.TOOLS if p.hand[u] > need[u] and p.hand[u] > p.known[u]),
                         None)
            if spare is None or not swap_tool(s, seat, tool, spare, {rival}):
                return
            p.hand[tool] += 1
            p.hand[spare] -= 1


def own_tools(s: State, seat: int, got: Sequence[str], want: Sequence[str],
              spots: Sequence[Spot]) -> str | None:
    """Replace the tools ``seat`` drew (``got``) by the recorded ones; the tool missing, if any."""
    hand = s.players[seat].hand
    missing, extra = Counter(want) - Counter(got), Counter(got) - Counter(want)
    for tool, spare in zip(missing.elements(), extra.elements(), strict=True):
        if not swap_tool(s, seat, tool, spare, set(), spots):
            return tool
        hand[tool] += 1
        hand[spare] -= 1
    return None


def hidden_loot(s: State, seat: int, loot_id: str) -> tuple[list[str], int] | None:
    """Where ``loot_id`` lies face down, unseen by ``seat``: a display, a rival, the draw pile."""
    places = [s.villa, s.museum, s.piles["loot"].draw,
              *(p.loot for j, p in enumerate(s.players) if j != seat)]
    for where in places:
        if loot_id in where:
            return where, where.index(loot_id)
    return None


def give_loot(s: State, seat: int, rival: int, ids: Sequence[str], rows: Sequence[str]
              ) -> str | None:
    """Put the sold cards where the record says they lay in ``rival``'s face-down row, by
    swapping cards of the same back (R8.1); why it cannot be, if it cannot."""
    row = s.players[rival].loot
    for loot_id, where in zip(ids, rows, strict=False):
        if not where.isdigit() or loot_id not in cards.LOOT_CARDS:
            return None  # the kernel or the comparison names it
        at = int(where)
        if at >= len(row) or row[at] == loot_id:
            continue
        if _back_word(row[at]) != _back_word(loot_id):
            return (f"forged card: {loot_id} has the back {_back_word(loot_id)}, but the card "
                    f"at {at} in seat {rival}'s row shows {_back_word(row[at])} (R8.1)")
        spot = hidden_loot(s, seat, loot_id)
        if spot is None:
            return None  # seen elsewhere: the kernel refuses the sale (R8.1)
        other, i = spot
        other[i], row[at] = row[at], loot_id
    return None


def put_in_slot(s: State, seat: int, place: str, slot: int, loot_id: str) -> str | None:
    """Put the front the seat saw into the display slot; why it cannot be, if it cannot."""
    display = s.display(place)
    if not 0 <= slot < len(display) or display[slot] == loot_id:
        return None  # a missing slot is the kernel's to refuse (R5.1)
    if loot_id not in cards.LOOT_CARDS:
        return f"unknown loot card {loot_id!r} (R0.2)"
    if _back_word(loot_id) != _back_word(display[slot]):
        return (f"forged card: {loot_id} has the back {_back_word(loot_id)}, but slot {slot} of "
                f"the {PLACE_NAMES[place]} shows {_back_word(display[slot])} (R0.2)")
    spot = hidden_loot(s, seat, loot_id)
    if spot is None:
        return (f"forged card: {loot_id} cannot lie in the {PLACE_NAMES[place]}: seat {seat} "
                "has seen it elsewhere (R0.2)")
    where, i = spot
    where[i], display[slot] = display[slot], loot_id
    return None


def _word(family: str, card: str) -> str:
    """How a seat's record names a refilled card: a loot card by its back (R5.1)."""
    return _back_word(card) if family == "loot" else card


def refilled(s: State, events: Sequence[Event]) -> dict[str, list[Spot]]:
    """The cards each refill laid out this step, by family, in the order they were dealt."""
    out: dict[str, list[Spot]] = {"tools": [], "loot": [], "fences": []}
    for ev in events:
        if ev["type"] == "refill":
            display = s.display(ev["place"])
            base = len(display) - len(ev["cards"])
            out[FAMILIES[ev["place"]]] += [(display, i) for i in range(base, len(display))]
    return out


def force_refills(s: State, seat: int, events: Sequence[Event],
                  recorded: Sequence[tuple[int, Item]]) -> None:
    """Make the refills (R9.1) lay out what the record shows, swapping with unseen cards."""
    done = [e for e in events if e["type"] == "refill"]
    spots = refilled(s, events)
    wanted: dict[str, list[tuple[Spot, str, int]]] = {"tools": [], "loot": [], "fences": []}
    taken = {"tools": 0, "loot": 0, "fences": 0}
    for ev, (line, r) in zip(done, recorded, strict=False):
        family = FAMILIES[ev["place"]]
        mine = spots[family][taken[family]:taken[family] + len(ev["cards"])]
        taken[family] += len(ev["cards"])
        if isinstance(r, Refill) and r.place == ev["place"] and len(r.cards) == len(mine):
            wanted[family] += [(spot, want, line) for spot, want in zip(mine, r.cards, strict=True)]
    for family, items in wanted.items():
        for n, ((where, i), want, line) in enumerate(items):
            problem = _lay(s, seat, family, where, i, want, [sp for sp, _, _ in items[n + 1:]])
            if problem:
                raise RecordError(line, f"forged card: {problem} (R9.1)", "R9.1")
    for ev in done:
        display = s.display(ev["place"])
        ev["cards"] = faces(ev["place"], display[len(display) - len(ev["cards"]):])


def _lay(s: State, seat: int, family: str, where: list[str], i: int, want: str,
         later: Sequence[Spot]) -> str | None:
    """Make ``where[i]`` a card the seat sees as ``want``; why it cannot be, if it cannot."""
    got = where[i]
    if _word(family, got) == want:
        return None
    for other, j in later:  # dealt in another order: the seat sees only what lies where
        if _word(family, other[j]) == want:
            where[i], other[j] = other[j], got
            return None
    if family == "tools":
        if not swap_tool(s, seat, want, got, set()):
            return f"no unseen {want} is left to deal"
        where[i] = want
        return None
    pile = s.piles[family].draw
    match = next((k for k, x in enumerate(pile) if _word(family, x) == want), None)
    if match is None:
        return f"no unseen {'fence' if family == 'fences' else 'loot card'} {want} is left to deal"
    where[i], pile[match] = pile[match], got
    return None


def same_items(recorded: Sequence[tuple[int, Item]], expected: Sequence[Item], what: str,
               after: int) -> None:
    """The recorded lines must say exactly what replaying showed the seat."""
    for i, want in enumerate(expected):
        if i >= len(recorded):
            raise RecordError(after, f"{what}: expected {render(want)!r}, found none")
        at, got = recorded[i]
        if got != want:
            raise RecordError(at, f"{what}: expected {render(want)!r}, found {render(got)!r}")
    if len(recorded) > len(expected):
        at, got = recorded[len(expected)]
        raise RecordError(at, f"{what}: {render(got)!r} did not happen")


# --- the reader -------------------------------------------------------------------------------


class SeatReader:
    """Replays a seat's record on samples; see the module docstring."""

    def __init__(self, header: Header, seed: int) -> None:
        assert header.view is not None
        self.header = header
        self.seat: int = header.view
        self.rng = random.Random(f"langfinger-record:{seed}")

    # --- the first position ---------------------------------------------------------------------
    def origin(self, body: Body) -> tuple[State, list[Event]]:
        line, item = body.peek()
        if isinstance(item, SeatView):
            body.take()
            return self._from_view(item.view, line), []
        if isinstance(item, Deal):
            return self._from_deal(body)
        raise RecordError(line, f"a seat's record starts with the deal as seat {self.seat} saw "
                                "it, or with a 'view' line")

    def _from_view(self, view: dict[str, Any], line: int) -> State:
        if view.get("seat") != self.seat:
            raise RecordError(line, f"the view is not seat {self.seat}'s")
        try:
            sample = Determinizer(view).sample(self.rng)
            # The Ruin's squares in board order (R6.1), however the view listed them.
            sample.ruin_rates = {r: sample.ruin_rates.get(r) for r in cards.RUIN_RATES}
            check(sample)
            same = views.view(sample, self.seat) == view
        except InvalidState as e:
            raise RecordError(line, f"the view cannot be: {e}", ruling_of(str(e))) from None
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as e:
            raise RecordError(line, f"the view cannot be read as seat {self.seat}'s view "
                                    f"(docs/view-format.md): {e!r}") from None
        if not same:
            raise RecordError(line, "the view is not one the seat could see (a derived field "
                                    "such as to_move, decision or winners disagrees)")
        seats = [(p.name, p.scoundrel) for p in sample.players]
        if seats != [(s.name, s.scoundrel) for s in self.header.seats] or \
                sample.variant != self.header.variant or sample.start_player != self.header.start:
            raise RecordError(line, "the view's players, variant or start player are not the "
                                    "header's")
        return sample

    def _from_deal(self, body: Body) -> tuple[State, list[Event]]:
        h = self.header
        line = body.peek()[0]
        try:
            s, events = rules.setup(len(h.seats), self.rng.getrandbits(31), h.names,
                                    [x.scoundrel for x in h.seats], h.start, h.variant)
        except ValueError as e:
            raise RecordError(line, f"the header cannot deal a game: {e}", ruling_of(str(e))) \
                from None
        deals: list[tuple[int, Item]] = []
        while len(deals) < len(h.seats):
            at, item = body.peek()
            if not isinstance(item, Deal):
                break
            deals.append((at, item))
            body.take()
        for ev, (at, d) in zip((e for e in events if e["type"] == "deal"), deals, strict=False):
            assert isinstance(d, Deal)
            if ev["seat"] == self.seat and HIDDEN not in d.tools:
                self._own_deal(s, events, ev, d, at)
        refills = body.take_refills()
        force_refills(s, self.seat, events, refills)
        seen = views.redact_log(events, self.seat)
        same_items([*deals, *refills], [*deals_of(seen, h.names), *refills_of(seen)], "the deal",
                   body.peek()[0])
        return s, events

    def _own_deal(self, s: State, events: list[Event], ev: Event, d: Deal, line: int) -> None:
        if len(d.tools) != len(ev["tools"]):
            raise RecordError(line, f"R1.3: seat {self.seat} is dealt {len(ev['tools'])} tools, "
                                    f"not {len(d.tools)}", "R1.3")
        missing = own_tools(s, self.seat, ev["tools"], d.tools, refilled(s, events)["tools"])
        if missing:
            raise RecordError(line, f"forged card: no {missing} is left to deal (R0.1)", "R0.1")
        ev["tools"] = list(d.tools)

    # --- one decision ---------------------------------------------------------------------------
    def step(self, state: State, d: Decision, refills: Sequence[tuple[int, Item]], number: int,
             line: int) -> tuple[State, list[Event]]:
        check_decision(self.header, state, d, number, line)
        s = Determinizer(views.view(state, self.seat)).sample(self.rng)
        mover = rules.to_move(s)
        assert mover is not None
        try:
            key = rules.action_key(d.action)
        except IllegalAction as e:
            raise RecordError(line, f"decision {number} is not an action: {e}") from None
        self._before(s, mover, d, line)
        before = s.copy()
        if key not in rules.legal_keys(s):
            reason = rules.explain(s, d.action) or "illegal"
            raise RecordError(line, f"decision {number} is illegal: {reason} (as far as seat "
                                    f"{self.seat} could see)", ruling_of(reason))
        events = rules.apply(s, key)
        self._after(s, events, d, line)
        force_refills(s, self.seat, events, refills)
        seen = views.redact_log(events, self.seat)
        check_reveal(d, d.action, seen, before, line)
        same_items(refills, refills_of(seen), f"after decision {number}", line + 1)
        return s, events

    def _before(self, s: State, mover: int, d: Decision, line: int) -> None:
        """Put what the decision uses where the kernel will look for it (see the module doc)."""
        a = d.action
        kind = a["type"]
        if mover != self.seat and kind in ("steal", "exchange"):
            give_tools(s, self.seat, mover, Counter(a["pay" if kind == "steal" else "give"]))
        if mover != self.seat and kind == "sell":
            problem = give_loot(s, self.seat, mover, list(a["loot"]), d.reveal or ())
            if problem:
                raise RecordError(line, problem, "R8.1")
        acting = rules.acting_square(s)
        if kind == "steal" and acting is not None and d.reveal is not None and len(d.reveal) == 1:
            problem = put_in_slot(s, self.seat, acting[0], a["slot"], d.reveal[0])
            if problem:
                raise RecordError(line, problem, ruling_of(problem) or "R0.2")
        if kind == "steal" and acting is not None and d.reveal is None:
            display = s.display(acting[0])
            slot = a["slot"]
            if 0 <= slot < len(display) and cards.LOOT_CARDS[display[slot]].protection == "chest":
                raise RecordError(line, f"decision {d.number} takes a chest, cashed face up "
                                        "(R5.3): the record must show its front", "R5.3")

    def _after(self, s: State, events: list[Event], d: Decision, line: int) -> None:
        """The seat's own draws become the recorded ones (R6.1)."""
        for ev in events:
            if ev["type"] != "exchange" or ev["seat"] != self.seat or d.reveal is None:
                continue
            if HIDDEN in d.reveal or len(d.reveal) != len(ev["drew"]):
                raise RecordError(line, f"R6.1: decision {d.number} drew {len(ev['drew'])} "
                                        f"tools, which seat {self.seat} saw; the record lists "
                                        f"{', '.join(d.reveal) or 'none'}", "R6.1")
            missing = own_tools(s, self.seat, ev["drew"], d.reveal, refilled(s, events)["tools"])
            if missing:
                raise RecordError(line, f"forged card: no unseen {missing} is left to draw "
                                        "(R0.1)", "R0.1")
            ev["drew"] = list(d.reveal)


def read_seat(header: Header, body: Body, text: str, seed: int) -> Record:
    """Replay a seat's record (``view k``) on samples; see the module docstring."""
    reader = SeatReader(header, seed)
    state, origin_events = reader.origin(body)
    record = Record(header, text, [], [], [], [state.copy()], [], origin_events)
    begun = round_start(state)
    expect_items(body, [begun] if begun else [], "the first position")
    while True:
        line, item = body.peek()
        if not isinstance(item, Decision):
            break
        body.take()
        refills = body.take_refills()
        mover = rules.to_move(state)
        state, events = reader.step(state, item, refills, record.length + 1, line)
        record.actions.append(rules.key_action(rules.action_key(item.action)))
        record.deciders.append(-1 if mover is None else mover)
        record.lines.append(line)
        record.states.append(state.copy())
        record.events.append(events)
        begun = round_start(state)
        expect_items(body, [begun] if begun else [], f"after decision {item.number}")
    check_end(header, state, body, record.length)
    return record


__all__ = ["SeatReader", "read_seat"]
