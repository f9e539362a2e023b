"""What one seat may see: redaction of the position and of events (R11).

Everything that leaves the kernel for a player, a browser or a bot goes
through this module (docs/view-format.md). A loot card shows its id, kind
and value only to those who may know its front; otherwise only its back.
Draw piles show only their size, and the seed never leaves (it would reveal
every shuffle).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from . import cards
from .late import too_late_places
from .rules import Event, acting_square, to_move, winners
from .state import SCOUNDREL_PLACES, Player, State

VIEW_FORMAT = "langfinger-view/1"


def _loot_back(loot_id: str) -> dict[str, Any]:
    return cards.LOOT_CARDS[loot_id].back()


def _loot_face(loot_id: str) -> dict[str, Any]:
    return cards.LOOT_CARDS[loot_id].face()


def _fence(fence_id: str) -> dict[str, Any]:
    return cards.FENCE_CARDS[fence_id].face()


class _Faces:
    """How a view spells a card: each time anew (:func:`view`: the caller's own, to change),
    or, for :func:`views_for` (read only), one dict a card, made once and shared by every
    view: a server's broadcast spelled ~30 cards a view, after every move."""

    def __init__(self, shared: bool) -> None:
        self.loot_back, self.loot_face, self.fence = (
            (_memo(_loot_back), _memo(_loot_face), _memo(_fence)) if shared
            else (_loot_back, _loot_face, _fence))


def _memo(spell: Callable[[str], dict[str, Any]]) -> Callable[[str], dict[str, Any]]:
    made: dict[str, dict[str, Any]] = {}

    def spelled(card_id: str) -> dict[str, Any]:
        card = made.get(card_id)
        if card is None:
            card = made[card_id] = spell(card_id)
        return card
    return spelled


_FRESH, _SHARED = _Faces(shared=False), _Faces(shared=True)


def _player_view(state: State, seat: int, p: Player, viewer: int | None,
                 faces: _Faces = _FRESH) -> dict[str, Any]:
    own = viewer is None or viewer == seat
    loot_card = faces.loot_face if own else faces.loot_back
    return {
        "seat": seat,
        "name": p.name,
        "scoundrel": p.scoundrel,
        "tool": p.tool,
        "money": p.money,
        "tokens": p.tokens,
        "hand_size": p.hand_size(),
        "hand": {t: n for t, n in p.hand.items() if n} if own else None,
        "known": {t: n for t, n in p.known.items() if n} if state.variant == "open_info" else {},
        "loot": [loot_card(i) for i in p.loot],
        "scoundrel_used": {pl: seat in state.scoundrel_used[pl] for pl in SCOUNDREL_PLACES},
    }


def decision(state: State) -> dict[str, Any] | None:
    """Who decides what now: placing, or the action of one token (R2.1, R3.1)."""
    seat = to_move(state)
    if seat is None:
        return None
    if state.phase == "place":
        # too_late: where a token placed now may find everything gone (public: displays and
        # squares), so that the board says so before it is placed.
        return {"seat": seat, "kind": "place", "place": None, "square": None,
                "too_late": too_late_places(state)}
    acting = acting_square(state)
    assert acting is not None
    return {"seat": seat, "kind": acting[0], "place": acting[0], "square": acting[1]}


def view(state: State, seat: int | None, faces: _Faces = _FRESH) -> dict[str, Any]:
    """The position as ``seat`` may see it (``None``: everything, for teaching)."""
    tools, loot, fences = (state.piles[k] for k in ("tools", "loot", "fences"))
    hidden = faces.loot_face if seat is None else faces.loot_back
    fence = faces.fence
    out = {
        "format": VIEW_FORMAT,
        "seat": seat,
        "variant": state.variant,
        "round": state.round,
        "phase": state.phase,
        "start_player": state.start_player,
        "to_move": to_move(state),
        "decision": decision(state),
        "players": [_player_view(state, i, p, seat, faces)
                    for i, p in enumerate(state.players)],
        "city": list(state.city),
        "villa": [hidden(i) for i in state.villa],
        "museum": [hidden(i) for i in state.museum],
        "harbor": [fence(i) for i in state.harbor],
        "squares": {p: list(row) for p, row in state.squares.items()},
        "ruin_rates": dict(state.ruin_rates),
        "piles": {
            "tools": {"draw": len(tools.draw), "discard": dict(Counter(tools.discard))},
            "loot": {"draw": len(loot.draw),
                     "discard": [faces.loot_face(i) for i in loot.discard]},
            "fences": {"draw": len(fences.draw), "discard": [fence(i) for i in fences.discard]},
        },
        "money_by_round": [list(m) for m in state.money_by_round],
        "is_over": state.phase == "over",
        "winners": winners(state),
    }
    if state.composed:  # a puzzle's or the builder's: every seat may know it
        out["composed"] = True
    return out


# A viewer who holds no seat: every card is seen as a rival of its owner sees it.
_NOBODY = -1


def public_view(state: State) -> dict[str, Any]:
    """What everyone at a table may see (R13.1): a spectator's view.

    No hand, no face-down front, no pile order: each card as a rival of its
    owner sees it. ``seat`` is None (no seat is the viewer's own) and
    ``spectator`` is True, which tells it apart from the open board.
    """
    out = view(state, _NOBODY)
    out["seat"] = None
    out["spectator"] = True
    return out


def views_for(state: State, seats: Iterable[int], spectator: bool = False
              ) -> dict[int | None, dict[str, Any]]:
    """Each of ``seats``' :func:`view`, and with ``spectator`` the :func:`public_view` (under
    the key None), equal to building each alone, but the part every seat sees alike built
    once and shared.

    A seat's view differs from a rival's eye only in its own player's entry (its hand and its
    loot's fronts) and its ``seat``, so a server showing a move to every seat builds the rest
    once. The views share their unchanged parts: read them (encode them), never change them.
    """
    base = view(state, _NOBODY, _SHARED)
    players = base["players"]
    out: dict[int | None, dict[str, Any]] = {}
    for seat in seats:
        own = list(players)
        own[seat] = _player_view(state, seat, state.players[seat], seat, _SHARED)
        out[seat] = {**base, "seat": seat, "players": own}
    if spectator:
        out[None] = {**base, "seat": None, "spectator": True}
    return out


# --- events ---------------------------------------------------------------------------------


def _hide_loot(card: dict[str, Any]) -> dict[str, Any]:
    return {"protection": card["protection"], "tools": list(card["tools"])}


def redact_event(event: Event, seat: int | None) -> Event:
    """An event as ``seat`` may see it: the same redaction as :func:`view`."""
    kind = event["type"]
    out = dict(event)
    own = seat is None or event.get("seat") == seat
    if kind == "deal" and not own:
        out["tools"] = None  # R11.1: starting hands are dealt face down
    elif kind == "exchange" and not own:
        out["drew"] = None  # R11.2: tools drawn blind stay hidden, even in open_info
    elif kind == "steal" and not own and event["loot"]["protection"] != "chest":
        out["loot"] = _hide_loot(event["loot"])  # R5.3: face down before its owner
    elif kind == "refill" and event["place"] in ("villa", "museum") and seat is not None:
        out["cards"] = [_hide_loot(c) for c in event["cards"]]  # R5.1: dealt face down
    elif kind == "pass" and not own:
        out.pop("only", None)  # R11.1: whether they could pay says what their hand lacks
    fresh: Event = _fresh(out)
    return fresh


def shows_hidden(event: Event, seat: int | None) -> bool:
    """Whether ``event`` showed ``seat`` a card that was hidden from it before (R12.1).

    Drawing from a pile shows new cards (a refill's fronts or backs, the tools
    drawn at the Ruin), a thief sees the front of what it stole, a chest is
    cashed face up before everyone, and a sale shows its fronts to the rivals.
    ``seat=None`` is the open board, which shows every hand and every front: all it
    had not shown is what comes off a draw pile, whoever draws it (R12.4).
    """
    kind = event["type"]
    if seat is None:
        return kind == "refill" or (kind == "exchange" and bool(event["count"]))
    if kind in ("refill", "cash"):
        return True
    if kind == "sell":
        return bool(event["seat"] != seat)
    if kind in ("exchange", "steal"):
        return bool(event["seat"] == seat)
    return False


_ATOMS = frozenset({str, int, bool, float, type(None)})


def _fresh(value: Any) -> Any:
    """A deep copy of JSON-like data: what leaves the kernel can be changed without harm."""
    if type(value) in _ATOMS:  # most values: nothing to copy, decided without isinstance
        return value
    if isinstance(value, dict):
        return {k: v if type(v) in _ATOMS else _fresh(v) for k, v in value.items()}
    if isinstance(value, list):
        return [v if type(v) in _ATOMS else _fresh(v) for v in value]
    return value


# Event types whose values are all plain numbers or names (tests/kernel/test_game_api.py checks it):
# a shallow copy of one is a whole copy.
FLAT_EVENTS = frozenset({"place", "pass", "actions_begin", "start_player", "reshuffle"})


def copy_events(events: Iterable[Event]) -> list[Event]:
    """Fresh copies of events as they are (the trusted caller of ``play`` sees everything)."""
    flat = FLAT_EVENTS
    return [e.copy() if e["type"] in flat else _fresh(e) for e in events]


def redact_log(events: Iterable[Event], seat: int | None) -> list[Event]:
    if seat is None:
        return copy_events(events)  # the open board: nothing to hide
    return [redact_event(e, seat) for e in events]


def public_log(events: Iterable[Event]) -> list[Event]:
    """The events as a spectator may see them (R13.1), redacted as :func:`public_view` is."""
    return [redact_event(e, _NOBODY) for e in events]
