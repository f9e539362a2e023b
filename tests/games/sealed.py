"""Sealed Bids: a tiny game for the tests alone, to prove the conformance checks and the floors
above the games generic (tests/games/test_conformance.py registers it as "sealed").

Unlike Langfinger it has a sealed simultaneous step: every round, every seat in
``to_decide`` bids one card of its hand face down, in any order; when all have, the bids are
turned up, the highest bid alone takes the round (a tie takes nothing), and each seat draws a
card while the deck lasts. When the hands are empty the most points wins.

Its rulings (cited as Langfinger cites R5.2):

- S1 Cards 1..12, each once. Each seat is dealt 3 face down; the rest is the deck.
- S2 Every seat with cards bids one of them face down, in any order; each bids once a round.
- S3 When all have bid, the bids are turned up; the highest bid alone scores every bid card's
  value (``cards``) and a round (``rounds``: 1); a tie scores nothing. Bid cards are out.
- S4 Then each seat draws one card, seat order, while the deck lasts. Empty hands: game over.
- S5 Hands, the deck and unrevealed bids are hidden; who has bid is public.
"""

from __future__ import annotations

import random
from copy import deepcopy
from typing import Any

from langfinger_widget.errors import BadArgument, IllegalAction, InvalidState
from langfinger_widget.games import GameSpec

CARDS = tuple(range(1, 13))
HAND = 3


class Sealed:
    """One game of Sealed Bids; the position is JSON-ready data, the history its actions."""

    def __init__(self, position: dict[str, Any], events: list[dict[str, Any]] | None = None
                 ) -> None:
        self._base = deepcopy(position)
        self._base_events = list(events or [])
        self._s = deepcopy(position)
        self._events: list[dict[str, Any]] = list(self._base_events)
        self._marks: list[int] = []  # where each decision's events start
        self._played: list[tuple[int, int]] = []  # (seat, card)
        self._version = 0

    # --- making games ----------------------------------------------------------------------
    @classmethod
    def new(cls, players: int = 2, seed: int | None = None) -> Sealed:
        if players not in SPEC.players:
            raise BadArgument(f"Sealed Bids is for 2-4 players, not {players!r}")
        seed = 0 if seed is None else seed
        deck = list(CARDS)
        random.Random(f"sealed:{seed}").shuffle(deck)
        hands = [sorted(deck[HAND * i:HAND * (i + 1)]) for i in range(players)]
        position = {"format": "sealed/1", "hands": hands, "deck": deck[HAND * players:],
                    "bids": [None] * players, "out": [], "rounds": [0] * players,
                    "cards": [0] * players}
        return cls(position, [{"type": "deal", "seat": i, "cards": h}
                              for i, h in enumerate(hands)])

    @classmethod
    def from_dict(cls, data: Any) -> Sealed:
        if not isinstance(data, dict) or data.get("format") != "sealed/1":
            raise InvalidState("not a Sealed Bids position")
        game = cls(data)
        try:
            game.check_invariants()
        except AssertionError as e:
            raise InvalidState(str(e)) from e
        return game

    def to_dict(self) -> dict[str, Any]:
        return deepcopy(self._s)

    def copy(self) -> Sealed:
        twin = type(self)(self._base, self._base_events)
        twin._s, twin._events = deepcopy(self._s), list(self._events)
        twin._marks, twin._played, twin._version = list(self._marks), list(self._played), \
            self._version
        return twin

    # --- the position ----------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self._s["hands"])

    @property
    def to_decide(self) -> list[int]:
        s = self._s
        return [i for i, h in enumerate(s["hands"]) if h and s["bids"][i] is None]

    @property
    def to_move(self) -> int | None:
        deciding = self.to_decide
        return deciding[0] if deciding else None

    @property
    def is_over(self) -> bool:
        return not self.to_decide

    @property
    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        scores = self._s["cards"]
        return [i for i, v in enumerate(scores) if v == max(scores)]

    def standings(self) -> list[dict[str, Any]]:
        if not self.is_over:
            return []
        s = self._s
        return [{"seat": i, "score": s["cards"][i] + s["rounds"][i],
                 "sources": {"cards": s["cards"][i], "rounds": s["rounds"][i]}}
                for i in range(self.num_players)]

    @property
    def version(self) -> int:
        return self._version

    @property
    def move_number(self) -> int:
        return len(self._played)

    @property
    def deciders(self) -> list[int]:
        return [seat for seat, _ in self._played]

    # --- actions ---------------------------------------------------------------------------
    def _seat(self, seat: int | None) -> int | None:
        if seat is None:
            return self.to_move
        if not isinstance(seat, int) or isinstance(seat, bool) or \
                not 0 <= seat < self.num_players:
            raise BadArgument(f"seat must be None or 0..{self.num_players - 1}, not {seat!r}")
        return seat

    def legal_actions(self, seat: int | None = None) -> list[dict[str, Any]]:
        who = self._seat(seat)
        if who is None or who not in self.to_decide:
            return []
        return [{"type": "bid", "card": c} for c in self._s["hands"][who]]

    def why_illegal(self, action: Any, seat: int | None = None) -> str | None:
        who = self._seat(seat)
        if who is None:
            return "S4: the game is over"
        if who not in self.to_decide:
            return f"S2: seat {who} has bid this round"
        if not isinstance(action, dict) or set(action) != {"type", "card"} or \
                action["type"] != "bid" or type(action["card"]) is not int:
            return f"not an action: {action!r}; a bid is {{'type': 'bid', 'card': n}}"
        if action["card"] not in self._s["hands"][who]:
            return f"S2: seat {who} holds no {action['card']}"
        return None

    def play(self, action: Any, seat: int | None = None) -> list[dict[str, Any]]:
        why = self.why_illegal(action, seat)
        if why is not None:
            raise IllegalAction(why)
        who = self._seat(seat)
        assert who is not None
        self._marks.append(len(self._events))
        events = _resolve(self._s, who, action["card"])
        self._events += events
        self._played.append((who, action["card"]))
        self._version += 1
        return deepcopy(events)

    def undo(self) -> None:
        if not self._played:
            raise IllegalAction("nothing to undo")
        played = self._played[:-1]
        self._s = deepcopy(self._base)
        del self._events[self._marks.pop():]
        for who, card in played:
            _resolve(self._s, who, card)
        self._played = played
        self._version += 1

    # --- what a seat may see -----------------------------------------------------------------
    def view(self, seat: int | None = None) -> dict[str, Any]:
        self._seat(seat)
        s = self._s
        return {"format": "sealed-view/1", "seat": seat,
                "hand": None if seat is None else list(s["hands"][seat]),
                "hands": [list(h) for h in s["hands"]] if seat is None else None,
                "hand_sizes": [len(h) for h in s["hands"]], "deck": len(s["deck"]),
                "bid": [b is not None for b in s["bids"]], "out": list(s["out"]),
                "rounds": list(s["rounds"]), "cards": list(s["cards"]),
                "to_decide": self.to_decide}

    def public_view(self) -> dict[str, Any]:
        out = self.view(None)
        out["hands"] = None
        return out

    def log(self, seat: int | None = None) -> list[dict[str, Any]]:
        self._seat(seat)
        return [_redact(e, seat) for e in self._events]

    def resample(self, seat: int, rng: random.Random) -> Sealed:
        """Rival hands, their unrevealed bids and the deck dealt afresh from the unseen cards."""
        self._seat(seat)
        s = self.to_dict()
        mine = set(s["hands"][seat]) | ({s["bids"][seat]} - {None})
        unseen = [c for c in CARDS if c not in mine and c not in s["out"]]
        rng.shuffle(unseen)
        for i in range(self.num_players):
            if i != seat:
                if s["bids"][i] is not None:
                    s["bids"][i] = unseen.pop()
                s["hands"][i] = sorted(unseen.pop() for _ in s["hands"][i])
        s["deck"] = unseen
        return type(self)(s, self.log(seat))

    def sight_barrier(self, seat: int | None) -> int:
        ends = [*self._marks[1:], len(self._events)]
        for index in range(len(self._marks) - 1, -1, -1):
            shown = self._events[self._marks[index]:ends[index]]
            if any(e["type"] == "reveal" or (e["type"] == "draw" and e["seat"] == seat)
                   for e in shown):
                return index + 1
        return 0

    def check_invariants(self) -> None:
        s = self._s
        held = [c for h in s["hands"] for c in h] + [b for b in s["bids"] if b is not None]
        if sorted(held + s["deck"] + s["out"]) != list(CARDS):
            raise AssertionError("S1: every card once")
        if len({len(h) + (b is not None)
                for h, b in zip(s["hands"], s["bids"], strict=True)}) != 1:
            raise AssertionError("S2: every seat bids once a round")


def _resolve(s: dict[str, Any], seat: int, card: int) -> list[dict[str, Any]]:
    s["hands"][seat].remove(card)
    s["bids"][seat] = card
    events: list[dict[str, Any]] = [{"type": "bid", "seat": seat, "card": card}]
    if any(b is None for b in s["bids"]):
        return events
    bids: list[int] = s["bids"]
    top = [i for i, b in enumerate(bids) if b == max(bids)]
    events.append({"type": "reveal", "bids": list(bids), "taken_by": top[0] if len(top) == 1
                   else None})
    if len(top) == 1:  # S3: a tie takes nothing
        s["rounds"][top[0]] += 1
        s["cards"][top[0]] += sum(bids)
    s["out"] += sorted(bids)
    s["bids"] = [None] * len(bids)
    for i, hand in enumerate(s["hands"]):
        if s["deck"]:
            drawn = s["deck"].pop(0)
            hand.append(drawn)
            hand.sort()
            events.append({"type": "draw", "seat": i, "card": drawn})
    return events


def _redact(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    out = dict(event)
    if seat is not None and event.get("seat") != seat:
        if event["type"] == "bid":
            out["card"] = None  # S5: sealed
        elif event["type"] in ("deal", "draw"):
            out["cards" if "cards" in out else "card"] = None
    return deepcopy(out)


SPEC = GameSpec(name="sealed", title="Sealed Bids (a test game)", players=range(2, 5),
                Game=Sealed, rulings="S", rulings_file="tests/games/sealed.py")
