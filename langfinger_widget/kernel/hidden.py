"""Determinization: a full, possible position consistent with one seat's view.

Information-set search needs positions to simulate, but a seat does not know
its opponents' hands, the fronts of face-down loot or the order of the draw
piles. :class:`Determinizer` samples that hidden part uniformly (given the
counts the view shows) and builds a :class:`~langfinger_widget.kernel.state.State`
on which the kernel's own ``rules.legal_keys`` / ``rules.apply`` run:

* opponents' hands: the tools they are known to hold (``known``, R11.2),
  topped up from the unseen tools to their ``hand_size``;
* face-down loot (opponents', Villa, Museum): an unseen loot id with the same
  back (protection and pictured tools), so the back stays as everyone saw it;
* draw piles: every card left over, shuffled;
* the seed: from the caller's generator, never from the view (which has none).

The strongest check of all this is that ``views.view(sample, seat)`` equals the
view we started from (tests/bots/test_bots.py).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import cards, views
from .cards import TOOLS
from .errors import BadArgument
from .state import SCOUNDREL_PLACES, Pile, Player, State, empty_hand

View = dict[str, Any]  # one seat's view (docs/view-format.md)
Back = tuple[str, tuple[str, ...]]  # (protection, pictured tools in card order)

# What a view and the public card catalogue (R0.4) say about the unseen cards: the
# sampler below and the bots reason with the same helpers.


def back_of(card: dict[str, Any]) -> Back:
    """The public back of a loot object from a view."""
    return card["protection"], tuple(card["tools"])


def catalogue_back(loot_id: str) -> Back:
    card = cards.LOOT_CARDS[loot_id]
    return card.protection, card.tools


def seen_loot_ids(view: View) -> set[str]:
    """Loot ids whose place this seat knows: its own loot and the face-up discard."""
    me = view["players"][view["seat"]]
    own = {c["id"] for c in me["loot"] if "id" in c}
    return own | {c["id"] for c in view["piles"]["loot"]["discard"]}


def unseen_by_back(view: View) -> dict[Back, list[str]]:
    """For each back, the loot ids (sorted) that may still lie behind it unseen."""
    seen = seen_loot_ids(view)
    groups: dict[Back, list[str]] = {}
    for loot_id in sorted(cards.LOOT_CARDS):
        if loot_id not in seen:
            groups.setdefault(catalogue_back(loot_id), []).append(loot_id)
    return groups


def unseen_tools(view: View) -> Counter[str]:
    """Tool cards this seat has not seen: in opponents' hands or the draw pile (R0.1)."""
    me = view["players"][view["seat"]]
    left: Counter[str] = Counter({t: cards.TOOLS_PER_TYPE for t in cards.TOOLS})
    left.subtract(me["hand"] or {})
    left.subtract(view["city"])
    left.subtract(view["piles"]["tools"]["discard"])
    return left


@dataclass
class _Seat:
    """The fixed part of one player, and what must be sampled for it."""

    name: str
    scoundrel: str
    money: int
    tokens: int
    known: dict[str, int]
    hand: dict[str, int] | None  # None: sample ``hidden`` tools on top of ``known``
    hidden: int
    loot: list[str | Back]  # an id where the front is known, else the back to fill


class Determinizer:
    """Samples positions consistent with ``view``; build once per decision, sample often.

    Raises ``ValueError`` if the view is not one seat's view or if its counts
    cannot be met (which would mean the view itself is inconsistent).
    """

    def __init__(self, view: View) -> None:
        seat = view.get("seat")
        if not isinstance(seat, int):
            raise BadArgument("determinize a seat's view, not the open board")
        self.view = view
        self.seat = seat
        self._seats = [self._seat(p, i) for i, p in enumerate(view["players"])]
        self._tool_pool = self._tools_to_deal()
        self._loot_groups = unseen_by_back(view)
        self._villa = [back_of(c) for c in view["villa"]]
        self._museum = [back_of(c) for c in view["museum"]]
        self._check_loot_counts()
        self._fence_pool = self._fences_to_deal()
        self._fixed = self._template()
        # Every face-down card in the order a sample fills them (each seat's loot, the Villa,
        # the Museum), and the unseen loot whose back none of them shows: all of it is in
        # the draw pile of every sample.
        self._face_down = [b for s in self._seats for b in s.loot if isinstance(b, tuple)]
        self._face_down += self._villa + self._museum
        shown_backs = set(self._face_down)
        self._undrawn = [i for back, ids in self._loot_groups.items() if back not in shown_backs
                         for i in ids]

    # --- reading the view -------------------------------------------------------------------
    def _seat(self, p: View, i: int) -> _Seat:
        known = empty_hand()
        known.update(p["known"])
        own = i == self.seat
        hand: dict[str, int] | None = None
        if own:
            hand = empty_hand()
            hand.update(p["hand"] or {})
        hidden = 0 if own else p["hand_size"] - sum(known.values())
        if hidden < 0:
            raise BadArgument(f"player {i} is known to hold more tools than the hand size")
        loot: list[str | Back] = [c["id"] if "id" in c else back_of(c) for c in p["loot"]]
        return _Seat(p["name"], p["scoundrel"], p["money"], p["tokens"], known, hand, hidden,
                     loot)

    def _tools_to_deal(self) -> list[str]:
        """Unseen tools minus those known to be in opponents' hands, as a sorted card list."""
        pool = unseen_tools(self.view)
        for i, s in enumerate(self._seats):
            if i != self.seat:
                pool.subtract(s.known)
        if any(n < 0 for n in pool.values()):
            raise BadArgument("the view shows more tools of a type than exist (R0.1)")
        cards_ = [t for t in TOOLS for _ in range(pool[t])]
        needed = sum(s.hidden for s in self._seats) + self.view["piles"]["tools"]["draw"]
        if needed != len(cards_):
            raise BadArgument(f"{len(cards_)} unseen tools, but hands and draw pile hold {needed}")
        return cards_

    def _check_loot_counts(self) -> None:
        wanted: Counter[Back] = Counter(self._villa + self._museum)
        for s in self._seats:
            wanted.update(b for b in s.loot if isinstance(b, tuple))
        for back, n in wanted.items():
            if n > len(self._loot_groups.get(back, [])):
                raise BadArgument(f"more face-down loot with back {back} than the deck holds")
        unseen = sum(len(g) for g in self._loot_groups.values())
        if unseen - sum(wanted.values()) != self.view["piles"]["loot"]["draw"]:
            raise BadArgument("the loot draw pile size does not match the unseen loot")

    def _fences_to_deal(self) -> list[str]:
        shown = {f["id"] for f in self.view["harbor"]}
        shown |= {f["id"] for f in self.view["piles"]["fences"]["discard"]}
        pool = sorted(set(cards.FENCE_CARDS) - shown)
        if len(pool) != self.view["piles"]["fences"]["draw"]:
            raise BadArgument("the fence draw pile size does not match the unseen fences")
        return pool

    def _template(self) -> State:
        """The position with every hidden card left out: each sample is a copy, filled in."""
        v = self.view
        players = [Player(s.name, s.scoundrel, s.money, dict(s.known if s.hand is None else s.hand),
                          [], s.tokens, dict(s.known)) for s in self._seats]
        return State(
            players=players,
            variant=v["variant"],
            round=v["round"],
            phase=v["phase"],
            start_player=v["start_player"],
            city=list(v["city"]),
            harbor=[f["id"] for f in v["harbor"]],
            squares={p: list(row) for p, row in v["squares"].items()},
            ruin_rates=dict(v["ruin_rates"]),
            scoundrel_used={
                pl: [i for i, p in enumerate(v["players"]) if p["scoundrel_used"][pl]]
                for pl in SCOUNDREL_PLACES
            },
            piles={
                # In the view's order of first discard: a twin's view keeps its very bytes.
                "tools": Pile([], [t for t, n in v["piles"]["tools"]["discard"].items()
                                   for _ in range(n)]),
                "loot": Pile([], [c["id"] for c in v["piles"]["loot"]["discard"]]),
                "fences": Pile([], [f["id"] for f in v["piles"]["fences"]["discard"]]),
            },
            money_by_round=[list(m) for m in v["money_by_round"]],
            composed=bool(v.get("composed", False)),
        )

    # --- sampling ---------------------------------------------------------------------------
    def sample(self, rng: random.Random) -> State:
        """A position the seat cannot tell apart from the real one, drawn by ``rng``.

        Built straight from the template's parts rather than as a copy of it: the
        hidden cards (hands, loot fronts, draw piles) are new lists anyway, and a
        search samples once an iteration.
        """
        fixed, random_ = self._fixed, rng.random
        seed = rng.getrandbits(31)
        tools = _shuffled(self._tool_pool, random_)
        fronts, loot_pile = self._fronts(random_)
        front = iter(fronts).__next__
        players = []
        for s, p in zip(self._seats, fixed.players, strict=True):
            hand = dict(p.hand)
            if s.hidden:  # the tools nobody saw enter this hand
                for t in tools[-s.hidden:]:
                    hand[t] += 1
                del tools[-s.hidden:]
            loot = [c if isinstance(c, str) else front() for c in s.loot]
            players.append(Player(p.name, p.scoundrel, p.money, hand, loot, p.tokens,
                                  dict(p.known)))
        villa = [front() for _ in self._villa]
        museum = [front() for _ in self._museum]
        piles = fixed.piles
        return State(
            players, seed, fixed.shuffles, fixed.variant, fixed.round, fixed.phase,
            fixed.start_player, list(fixed.city), villa, museum, list(fixed.harbor),
            {p: list(row) for p, row in fixed.squares.items()}, dict(fixed.ruin_rates),
            {p: list(seats) for p, seats in fixed.scoundrel_used.items()},
            {"tools": Pile(tools, list(piles["tools"].discard)),
             "loot": Pile(_shuffled(loot_pile, random_), list(piles["loot"].discard)),
             "fences": Pile(_shuffled(self._fence_pool, random_),
                            list(piles["fences"].discard))},
            list(fixed.money_by_round),  # the rules append rows, never change one
            fixed.composed,
        )

    def _fronts(self, random_: Callable[[], float]) -> tuple[list[str], list[str]]:
        """A front for each face-down card, uniform among the unseen ids with its back and
        without replacement, and every unseen id left over (the loot draw pile, unshuffled)."""
        groups = self._loot_groups
        left: dict[Back, list[str]] = {}  # copies of the groups drawn from so far
        fronts = []
        for back in self._face_down:
            ids = left.get(back)
            if ids is None:
                ids = left[back] = list(groups[back])
            i = int(random_() * len(ids))
            ids[i], ids[-1] = ids[-1], ids[i]
            fronts.append(ids.pop())
        rest = list(self._undrawn)
        for ids in left.values():
            rest += ids
        return fronts, rest


def _shuffled(cards_: list[Any], random_: Callable[[], float]) -> list[Any]:
    """A shuffled copy, uniform: the order of independent uniform keys (a tie has chance
    about 2**-53). ``sorted`` does the work in C, cheaper than a Fisher-Yates loop."""
    return sorted(cards_, key=lambda _: random_())


def determinize(view: View, rng: random.Random) -> State:
    """One sampled position consistent with ``view`` (see :class:`Determinizer`)."""
    return Determinizer(view).sample(rng)


def resample(state: State, seat: int, rng: random.Random) -> State:
    """``state`` with everything ``seat`` cannot see dealt afresh (``Game.resample``).

    Sampled from the seat's view alone, not by shuffling the real hidden cards: a twin then
    holds nothing the seat does not know (not even which tools are in rival hands rather
    than the pile), so a bot may search it, and every twin is as likely as the real game.
    """
    return Determinizer(views.view(state, seat)).sample(rng)
