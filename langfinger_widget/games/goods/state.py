"""An Oh My Goods! position's JSON form (``goods/1``), its copy and the checks that load it.

The position is plain data (``rules.setup`` makes it; docs/goods.md, "The
position format"): the draw pile (its top last), the discard, the market, the
hands, every seat's buildings with their goods (card ids face down), Worker and
Assistant, the Assistants on offer, the sealed choices and plans under way, the
turn under way, the draws still owed (``queue``) and G2.3's discards due. The
game's randomness is the deal and each reshuffle, both drawn from ``seed`` (a
reshuffle from the seed and how many came before), so the same seed and the
same actions give the same game, and an undo restores the generator exactly.
"""

from __future__ import annotations

import marshal
from collections import Counter
from typing import Any

from ...errors import InvalidState
from . import cards as cards_mod
from .cards import CardSet

FORMAT = "goods/1"
KEYS = ("format", "seed", "names", "start_player", "round", "active", "phase", "final",
        "draw", "discard", "market", "hands", "buildings", "offer", "choices", "plans",
        "sealed", "mulliganed", "revealed", "planned", "held", "hired", "turn", "queue",
        "exhaust", "shuffles", "custom")
State = dict[str, Any]


def deep(value: Any) -> Any:
    """A deep copy of plain data (dicts, lists, strings, numbers, bools, None): marshal
    copies it an order of magnitude faster than ``copy.deepcopy``."""
    return marshal.loads(marshal.dumps(value))


def copy(state: State) -> State:
    """A deep copy of a position, field by field (a play copies the position once: this is
    the kernel's hottest path). Names and a custom card set are never changed in place, so
    they are shared."""
    out = dict(state)
    for key in ("draw", "discard", "market", "choices", "sealed", "mulliganed", "planned",
                "held", "hired"):
        out[key] = list(state[key])
    out["hands"] = [list(h) for h in state["hands"]]
    out["buildings"] = [[{"id": b["id"], "goods": list(b["goods"]), "worker": b["worker"],
                          "assistant": b["assistant"]} for b in row]
                        for row in state["buildings"]]
    out["offer"] = [dict(o) for o in state["offer"]]
    out["queue"] = [dict(t) for t in state["queue"]]
    for key in ("plans", "revealed", "turn", "exhaust"):
        if state[key] is not None:
            out[key] = deep(state[key])
    return out


def where(state: State) -> Counter[str]:
    """How often each card lies somewhere (G0.1: once)."""
    seen: Counter[str] = Counter()
    seen.update(state["draw"])
    seen.update(state["discard"])
    seen.update(state["market"])
    for hand in state["hands"]:
        seen.update(hand)
    for row in state["buildings"]:
        for b in row:
            seen[b["id"]] += 1
            seen.update(b["goods"])
    seen.update(c for c in state["planned"] if c is not None)
    return seen


def check(cs: CardSet, state: State) -> None:
    """What a position must keep whatever led to it; :class:`InvalidState` names the
    ruling broken."""
    n = len(state["names"])
    seen = where(state)
    twice = sorted(c for c, k in seen.items() if k > 1)
    if twice:
        raise InvalidState(f"G0.1: cards {twice[:5]} lie in two places at once")
    unknown = sorted(set(seen) - set(cs.cards))
    if unknown:
        raise InvalidState(f"G0.1: {unknown[:5]} are no cards of the set")
    lost = sorted(set(cs.deck) - set(seen))
    if lost:
        raise InvalidState(f"G0.1: deck cards {lost[:5]} lie nowhere")
    burners = [row[0]["id"] if row else None for row in state["buildings"]]
    if any(b not in cs.charburners for b in burners):
        raise InvalidState("G1.1: each seat's first building is its Charburner")
    for s, row in enumerate(state["buildings"]):
        workers = [b for b in row if b["worker"] is not None]
        if len(workers) > 1:
            raise InvalidState(f"G3.2: seat {s} has one Worker, not {len(workers)}")
        for b in row:
            kind = cs.cards[b["id"]].building
            if b["id"] in cs.charburners and b is not row[0]:
                raise InvalidState(f"G1.1: seat {s} owns a second Charburner")
            if not kind.produces and (b["goods"] or b["worker"] or b["assistant"]):
                raise InvalidState(f"G0.3: {b['id']} is grey: no goods, nobody works there")
            if b["worker"] is not None and b["assistant"] is not None:
                raise InvalidState(f"G3.2: {b['id']} holds both the Worker and an Assistant")
            if b["assistant"] is not None:
                owner = [o["owner"] for o in state["offer"] if o["id"] == b["assistant"]]
                if owner != [s]:
                    raise InvalidState(f"G4.11: {b['assistant']} at {b['id']} is not seat "
                                       f"{s}'s Assistant")
    placed = Counter(b["assistant"] for row in state["buildings"] for b in row
                     if b["assistant"] is not None)
    turn = state["turn"]
    hiring = turn["pay"]["assistant"] if turn is not None and turn["stage"] == "assign" \
        else None
    for o in state["offer"]:
        if o["owner"] is not None and placed[o["id"]] != (o["id"] != hiring):
            raise InvalidState(f"G4.11: a hired Assistant ({o['id']}) works at one building")
    if len(state["offer"]) != cards_mod.ASSISTANTS_ON_OFFER[n]:
        raise InvalidState(f"G1.1: {cards_mod.ASSISTANTS_ON_OFFER[n]} Assistants lie out "
                           f"with {n} players")
    if state["phase"] not in ("hand", "plan", "production", "over"):
        raise InvalidState(f"G2-G4: no phase {state['phase']!r}")
    if state["phase"] == "production" and state["turn"] is None and state["exhaust"] is None \
            and not state["queue"]:
        raise InvalidState("G4.1: production has a seat whose turn it is")


def _list(value: Any, what: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise InvalidState(f"G0.1: {what} must be a list" +
                           (f" of {length}" if length is not None else ""))
    return value


def from_dict(data: Any, cs: CardSet) -> State:
    """A position from ``to_dict`` data; :class:`InvalidState` (naming the ruling) if it
    cannot exist."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidState(f"not a {FORMAT!r} position")
    missing = [k for k in KEYS if k not in data]
    if missing:
        raise InvalidState(f"G0.1: a {FORMAT} position lacks {missing[:5]}")
    names = _list(data["names"], "names")
    n = len(names)
    if n not in range(cards_mod.MIN_PLAYERS, cards_mod.MAX_PLAYERS + 1) \
            or not all(isinstance(x, str) for x in names):
        raise InvalidState(f"G1.1: Oh My Goods! is for 2 to 4 players named by strings, not {n}")
    for key in ("seed", "start_player", "round", "active", "shuffles"):
        v = data[key]
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise InvalidState(f"G1.0: {key} is a whole number, not {v!r}"[:200])
    if data["active"] >= n or data["start_player"] >= n:
        raise InvalidState("G1.0: the active player is a seat")
    for key in ("draw", "discard", "market"):
        if not all(isinstance(c, str) for c in _list(data[key], key)):
            raise InvalidState(f"G0.1: {key} holds card ids")
    for key in ("hands", "buildings", "choices", "plans", "sealed", "mulliganed", "revealed",
                "planned", "held", "hired"):
        _list(data[key], key, n)
    for row in data["buildings"]:
        for b in _list(row, "a seat's buildings"):
            if not isinstance(b, dict) or set(b) != {"id", "goods", "worker", "assistant"} \
                    or not isinstance(b["id"], str) or b["id"] not in cs.cards \
                    or not all(isinstance(c, str) for c in _list(b["goods"], "goods")) \
                    or b["worker"] not in (None, "efficient", "sloppy"):
                raise InvalidState(f"G0.2: a building is {{id, goods, worker, assistant}}, "
                                   f"not {b!r}"[:200])
    for o in _list(data["offer"], "offer"):
        if not isinstance(o, dict) or o.get("id") not in cs.assistants \
                or o.get("side") not in ("a", "b") or o.get("owner") not in (None, *range(n)):
            raise InvalidState(f"G1.1: an Assistant on offer is {{id, side, owner}}, not {o!r}"
                               [:200])
    state: State = deep(data)
    check(cs, state)
    return state
