"""Oh My Goods!'s rules: the only place they live (RULINGS-goods.md, cited by number).

A position is plain JSON-ready data (``state.py`` makes and checks it). A round
is phase I's sealed keep/mulligan and draws (G2), the sunrise market and the
sealed plans (G3.1, G3.2), the sunset market (G3.3), then each seat's
production, chains and build or hire (G4). :func:`legal` lists a seat's actions,
:func:`explain` says why any other is refused, :func:`apply` plays a legal one
and writes its events. Draws owed are queued tasks that :func:`run` works off,
stopping when G2.3's exhaustion needs seats to discard.

Events hide a part only some seats may see inside :func:`secret` markers, and a
whole event only its seat may see (a step inside a sealed choice, G6.1) carries
``ONLY``; ``views.redact`` opens or drops them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ...errors import IllegalAction
from ..base import ONLY, SECRET, seats, secret
from . import cards as cards_mod
from .cards import (
    ASSISTANTS_ON_OFFER,
    COINS_PER_VP,
    END_BUILDINGS,
    GREY,
    MOVE_COST,
    START_COAL,
    START_HAND,
    CardSet,
)

Action = dict[str, Any]
Event = dict[str, Any]
State = dict[str, Any]
MODES = ("efficient", "sloppy")
PHASES = ("hand", "plan", "production", "over")

__all__ = ["MODES", "ONLY", "PHASES", "SECRET", "apply", "explain", "legal", "secret",
           "setup", "standings", "to_decide", "winners"]


# --- small helpers ----------------------------------------------------------------------------
def order(state: State) -> list[int]:
    """The seats in turn order from the active player (G1.0)."""
    n = len(state["names"])
    return [(state["active"] + k) % n for k in range(n)]


def building_of(cs: CardSet, card: str) -> cards_mod.Building:
    return cs.cards[card].building


def find(state: State, seat: int, bid: str) -> dict[str, Any] | None:
    return next((b for b in state["buildings"][seat] if b["id"] == bid), None)


def producing(cs: CardSet, state: State, seat: int) -> list[dict[str, Any]]:
    return [b for b in state["buildings"][seat] if building_of(cs, b["id"]).produces]


def coins(cs: CardSet, state: State, seat: int, held_back: dict[str, int] | None = None) -> int:
    """The worth of the seat's goods (G0.2), less goods already promised (``held_back``)."""
    held_back = held_back or {}
    return sum(building_of(cs, b["id"]).worth * (len(b["goods"]) - held_back.get(b["id"], 0))
               for b in state["buildings"][seat])


def offices(cs: CardSet, state: State, seat: int) -> list[str]:
    """The resources the seat's Market Offices add (G4.3)."""
    return [s for b in state["buildings"][seat] if (s := cs.cards[b["id"]].supplies)]


def market_supply(cs: CardSet, state: State, seat: int) -> Counter[str]:
    """G4.3: the whole market and the seat's Offices."""
    out: Counter[str] = Counter(cs.cards[c].resource for c in state["market"])  # type: ignore[misc]
    out.update(offices(cs, state, seat))
    return out


def missing(cs: CardSet, bid: str, supply: Counter[str]) -> Counter[str]:
    """Units of each resource the building still lacks ("any" for the Glassmaker, G4.5)."""
    b = building_of(cs, bid)
    if b.needs_any:
        return Counter({"any": max(0, b.needs_any - sum(supply.values()))})
    need = Counter(b.needs)
    return Counter({r: k - supply[r] for r, k in need.items() if k > supply[r]})


def allowed_gap(mode: str) -> int:
    """G4.4: sloppy work skips one unit; efficient work and an Assistant skip none."""
    return 1 if mode == "sloppy" else 0


def closable(cs: CardSet, hand: Sequence[str], gap: Counter[str], allowed: int) -> bool:
    """Whether hand cards can bring the gap down to ``allowed`` units (G4.3)."""
    if "any" in gap:
        return gap["any"] - len(hand) <= allowed
    have = Counter(cs.cards[c].resource for c in hand)
    return sum(gap.values()) - sum(min(k, have[r]) for r, k in gap.items()) <= allowed


def staff(state: State, seat: int) -> dict[str, str]:
    """The seat's staffed buildings and how each works (G4.2): a Worker's mode or
    ``assistant``."""
    out: dict[str, str] = {}
    for b in state["buildings"][seat]:
        if b["assistant"] is not None:
            out[b["id"]] = "assistant"
        elif b["worker"] is not None:
            out[b["id"]] = b["worker"]
    return out


def side_of(cs: CardSet, state: State, aid: str) -> cards_mod.Side:
    offer = next(o for o in state["offer"] if o["id"] == aid)
    return cs.assistants[aid][offer["side"]]


def only(event: Event, seat: int) -> Event:
    event[ONLY] = [seat]
    return event


# --- setup ------------------------------------------------------------------------------------
def setup(cs: CardSet, players: int, seed: int, names: Sequence[str] | None,
          start_player: int | None) -> tuple[State, list[Event]]:
    """Deal a new game (G1): a Charburner and a Worker each, the Assistants on offer, five
    cards in hand and seven coal (G1.1, G1.2); then round 1's phase I begins."""
    # G1.0: the start player is drawn even when given, so the deal stays the seed's
    rng, names, start_player = seats(
        players, range(cards_mod.MIN_PLAYERS, cards_mod.MAX_PLAYERS + 1), "Oh My Goods!",
        "G1.1", seed, names, start_player, 2**63 - 1)
    burners = sorted(cs.charburners)
    rng.shuffle(burners)
    helpers = sorted(cs.assistants)
    rng.shuffle(helpers)
    offer = [{"id": a, "side": rng.choice("ab"), "owner": None}
             for a in sorted(helpers[:ASSISTANTS_ON_OFFER[players]])]
    deck = sorted(cs.deck)
    rng.shuffle(deck)
    hands = [sorted(deck.pop() for _ in range(START_HAND)) for _ in range(players)]
    buildings = [[{"id": burners[s], "goods": [deck.pop() for _ in range(START_COAL)],
                   "worker": None, "assistant": None}] for s in range(players)]
    state: State = {
        "format": "goods/1", "seed": seed, "names": names, "start_player": start_player,
        "round": 1, "active": start_player, "phase": "hand", "final": False,
        "draw": deck, "discard": [], "market": [], "hands": hands, "buildings": buildings,
        "offer": offer, "choices": [None] * players, "plans": [None] * players,
        "sealed": [False] * players, "mulliganed": [None] * players,
        "revealed": [None] * players, "planned": [None] * players,
        "held": [len(h) for h in hands], "hired": [False] * players, "turn": None,
        "queue": [], "exhaust": None, "shuffles": 0, "custom": None,
    }
    events: list[Event] = [{
        "type": "deal", "players": players, "start_player": start_player,
        "charburners": [b[0]["id"] for b in buildings], "coal": START_COAL,
        "assistants": [{"id": o["id"], "side": o["side"]} for o in offer],
        "hands": [secret(h, [s]) for s, h in enumerate(hands)],
    }, {"type": "round", "round": 1, "active": start_player, "final": False}]
    return state, events


# --- actions as data --------------------------------------------------------------------------
FIELDS: dict[str, set[str]] = {
    "keep": set(), "mulligan": set(), "discard": {"card"},
    "move_assistant": {"assistant", "to"}, "work": {"building", "mode"},
    "plan_build": {"card"}, "produce": {"building"}, "supply": {"card"},
    "chain": {"building", "hand", "goods"}, "build": set(), "hire": {"assistant"},
    "pay": {"building"}, "assign": {"building"}, "done": set(),
}
Key = tuple[Any, ...]


def parse(action: Any) -> Key:
    """The hashable key of an action dict; :class:`IllegalAction` "not an action: ..."."""
    def bad(why: str) -> IllegalAction:
        return IllegalAction(f"not an action: {why}"[:200])

    if not isinstance(action, dict):
        raise bad(f"an action is a dict with a 'type', not {type(action).__name__}")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise bad(f"unknown type {kind!r}; the types are {', '.join(FIELDS)}")
    want = FIELDS[kind]
    if set(action) - {"type"} != want:
        raise bad(f"{kind} takes exactly {sorted(want) or 'no other keys'}, got "
                  f"{sorted(set(action) - {'type'})}")
    if kind == "chain":
        hand, goods = action["hand"], action["goods"]
        if not isinstance(action["building"], str) or not isinstance(hand, list) \
                or not isinstance(goods, list) or not all(isinstance(x, str) for x in hand) \
                or not all(isinstance(x, str) for x in goods) \
                or not 1 <= len(hand) + len(goods) <= 2:
            raise bad("chain takes building (an id), hand and goods (lists of ids, 1 or 2 "
                      "items in all)")
        return ("chain", action["building"], tuple(hand), tuple(goods))
    if kind == "work":
        if (action["building"] is not None and not isinstance(action["building"], str)) \
                or action["mode"] not in (*MODES, None):
            raise bad("work takes building (an id or null) and mode (efficient or sloppy)")
        return ("work", action["building"], action["mode"])
    values = [action[f] for f in sorted(want)]
    nullable = kind == "plan_build"
    for v in values:
        if not isinstance(v, str) and not (nullable and v is None):
            raise bad(f"{kind}'s {', '.join(sorted(want))} must be ids")
    return (kind, *values)


def to_action(key: Key) -> Action:
    kind = key[0]
    if kind == "chain":
        return {"type": "chain", "building": key[1], "hand": list(key[2]), "goods": list(key[3])}
    if kind == "work":
        return {"type": "work", "building": key[1], "mode": key[2]}
    fields = sorted(FIELDS[kind])
    return {"type": kind, **dict(zip(fields, key[1:], strict=True))}


# --- who decides --------------------------------------------------------------------------------
def to_decide(state: State) -> list[int]:
    if state["phase"] == "over":
        return []
    if state["exhaust"] is not None:
        return [state["exhaust"]["owing"][0]]
    if state["phase"] in ("hand", "plan"):
        return [s for s, done in enumerate(state["sealed"]) if not done]
    return [state["turn"]["seat"]]


# --- the plan (G3.2), inside the sealed step --------------------------------------------------
def plan_of(state: State, seat: int) -> dict[str, Any]:
    plan: dict[str, Any] | None = state["plans"][seat]
    if plan is None:
        plan = {"moves": [], "work": None, "card": None, "worked": False, "paying": None}
    return plan


def promised(plan: dict[str, Any]) -> dict[str, int]:
    """Goods a plan pays with, by building: they leave at the reveal (G6.1)."""
    out: Counter[str] = Counter()
    for m in plan["moves"]:
        out.update(m["paid"])
    if plan["paying"] is not None:
        out.update(plan["paying"]["paid"])
    return dict(out)


def planned_places(state: State, seat: int, plan: dict[str, Any]) -> dict[str, str]:
    """Each of the seat's Assistants -> its building once the plan's moves are made."""
    where = {b["assistant"]: b["id"] for b in state["buildings"][seat] if b["assistant"]}
    for m in plan["moves"]:
        where[m["assistant"]] = m["to"]
    if plan["paying"] is not None:
        where[plan["paying"]["assistant"]] = plan["paying"]["to"]
    return where


def _pay_keys(cs: CardSet, state: State, seat: int, held: dict[str, int]) -> list[Key]:
    return [("pay", b["id"]) for b in state["buildings"][seat]
            if len(b["goods"]) > held.get(b["id"], 0)]


def _plan_legal(cs: CardSet, state: State, seat: int) -> list[Key]:
    plan = plan_of(state, seat)
    held = promised(plan)
    if plan["paying"] is not None:
        return _pay_keys(cs, state, seat, held)
    if plan["worked"]:
        return [("plan_build", c) for c in state["hands"][seat]] + [("plan_build", None)]
    where = planned_places(state, seat, plan)
    manned = set(where.values())
    free = [b["id"] for b in producing(cs, state, seat) if b["id"] not in manned]
    out: list[Key] = []
    if coins(cs, state, seat, held) >= MOVE_COST:
        out += [("move_assistant", a, to) for a in sorted(where) for to in free]
    out += [("work", b, m) for b in free for m in MODES]
    return out or [("work", None, None)]


# --- production (G4) ----------------------------------------------------------------------------
def gap_of(cs: CardSet, state: State, seat: int, bid: str, mode: str,
           supplied: Sequence[str] = ()) -> Counter[str]:
    supply = market_supply(cs, state, seat)
    supply.update(cs.cards[c].resource for c in supplied)  # type: ignore[misc]
    return missing(cs, bid, supply)


def must_run(cs: CardSet, state: State, seat: int) -> list[str]:
    """G4.6: staffed buildings not yet run that the market and Offices already satisfy."""
    turn = state["turn"]
    return [b for b, mode in staff(state, seat).items() if b not in turn["run"]
            and sum(gap_of(cs, state, seat, b, mode).values()) <= allowed_gap(mode)]


def _chain_keys(cs: CardSet, state: State, seat: int, bid: str) -> list[Key]:
    """Every single use of ``bid``'s chain the seat can make now (G4.7)."""
    chain = building_of(cs, bid).chain
    if not chain:
        return []
    hand = state["hands"][seat]
    options: list[list[tuple[str, str]]] = []
    for item in chain:
        if item in cs.resources:
            options.append([("hand", c) for c in hand if cs.cards[c].resource == item])
        else:
            options.append([("goods", b["id"]) for b in state["buildings"][seat]
                            if b["id"] != bid and b["goods"]
                            and building_of(cs, b["id"]).good == item])
    combos: list[list[tuple[str, str]]] = [[]]
    for opts in options:
        combos = [[*c, o] for c in combos for o in opts]
    out: list[Key] = []
    for combo in combos:
        used = Counter(x for kind, x in combo if kind == "goods")
        if any(len(find(state, seat, b)["goods"]) < k for b, k in used.items()):  # type: ignore[index]
            continue
        if len({x for kind, x in combo if kind == "hand"}) < sum(k == "hand" for k, _ in combo):
            continue
        key = ("chain", bid, tuple(x for k, x in combo if k == "hand"),
               tuple(x for k, x in combo if k == "goods"))
        if key not in out:
            out.append(key)
    return out


def _production_legal(cs: CardSet, state: State, seat: int) -> list[Key]:
    turn = state["turn"]
    stage = turn["stage"]
    hand = state["hands"][seat]
    if stage == "supply":
        cur = turn["current"]
        gap = gap_of(cs, state, seat, cur["building"], cur["mode"], cur["supplied"])
        return [("supply", c) for c in hand
                if "any" in gap or gap[cs.cards[c].resource or ""] > 0]
    if stage == "pay":
        return _pay_keys(cs, state, seat, {})
    if stage == "assign":
        return [("assign", b["id"]) for b in producing(cs, state, seat) if b["assistant"] is None]
    if stage == "after":
        out: list[Key] = []
        card = state["planned"][seat]
        have = coins(cs, state, seat)
        if card is not None and have >= building_of(cs, card).cost:
            out.append(("build",))
        if not state["hired"][seat] and any(b["assistant"] is None
                                            for b in producing(cs, state, seat)):
            colours = Counter(building_of(cs, b["id"]).colour for b in state["buildings"][seat])
            for o in state["offer"]:
                side = cs.assistants[o["id"]][o["side"]]
                if o["owner"] is None and have >= side.cost \
                        and all(colours[c] >= 1 for c in side.colours):
                    out.append(("hire", o["id"]))
        return [*out, ("done",)]
    # stage "produce"
    out = []
    for bid, mode in staff(state, seat).items():
        if bid in turn["run"]:
            continue
        if closable(cs, hand, gap_of(cs, state, seat, bid, mode), allowed_gap(mode)):
            out.append(("produce", bid))
    if state["final"]:  # G4.8: every own chain, any time, in any order
        for b in state["buildings"][seat]:
            out += _chain_keys(cs, state, seat, b["id"])
    elif turn["last"] is not None:
        out += _chain_keys(cs, state, seat, turn["last"])
    if not must_run(cs, state, seat):
        out.append(("done",))
    return out


def legal(cs: CardSet, state: State, seat: int) -> list[Key]:
    """The keys of every legal action of ``seat``, in a fixed order ([] if not to decide)."""
    if seat not in to_decide(state):
        return []
    if state["exhaust"] is not None:
        return [("discard", c) for c in state["hands"][seat]]
    phase = state["phase"]
    if phase == "hand":
        return [("keep",), ("mulligan",)]
    if phase == "plan":
        return _plan_legal(cs, state, seat)
    return _production_legal(cs, state, seat)


def explain(cs: CardSet, state: State, seat: int, key: Key) -> str:
    """Why the (well-formed) ``key`` is refused for ``seat`` now, naming the ruling."""
    kind = key[0]
    if state["phase"] == "over":
        return "G5.1: the game is over"
    if seat not in to_decide(state):
        if state["phase"] in ("hand", "plan") and state["exhaust"] is None:
            return f"G6.1: seat {seat} has sealed its choice; the others are still choosing"
        return f"G4.1: it is seat {to_decide(state)[0]}'s turn, not seat {seat}'s"
    if state["exhaust"] is not None:
        if kind != "discard":
            return "G2.3: both piles are empty; discard half your hand first, a card a step"
        return f"G2.3: {key[1]} is not in your hand"
    phase = state["phase"]
    if phase == "hand":
        return "G2.1: phase I starts with keep or mulligan"
    if phase == "plan":
        plan = plan_of(state, seat)
        if plan["paying"] is not None:
            return (f"G4.10: pay the Assistant's move first: a good from an own building "
                    f"with goods left ({MOVE_COST} coins in all, G3.2)")
        if kind == "move_assistant":
            if plan["worked"]:
                return "G3.2: Assistants move before the Worker is placed"
            if coins(cs, state, seat, promised(plan)) < MOVE_COST:
                return f"G3.2: moving an Assistant costs {MOVE_COST} coins in goods"
            return ("G3.2: an Assistant moves to an own production building without a "
                    "person, one of your own Assistants")
        if kind == "work":
            if plan["worked"]:
                return "G3.2: the Worker is already placed; plan a card (or none)"
            return ("G3.2: the Worker goes to an own production building without an "
                    "Assistant, efficient or sloppy; null only if none is free")
        if kind == "plan_build":
            if not plan["worked"]:
                return "G3.2: place the Worker before planning a card"
            return "G3.2: the planned building is a card of your hand, or null for none"
        return "G3.2: phase II is the sealed plan: move_assistant, work, plan_build"
    turn = state["turn"]
    stage = turn["stage"]
    if stage == "supply":
        return ("G4.3: supply a hand card whose resource the building still misses "
                "(closing the gap for its mode)")
    if stage == "pay":
        return "G4.10: pay with a good from an own building that has goods"
    if stage == "assign":
        return "G4.11: place the hired Assistant at an own production building without one"
    if stage == "after":
        if kind == "build":
            if state["planned"][seat] is None:
                return "G4.10: only the planned card is built, and you planned none"
            return "G4.10: your goods are worth less than the planned building's cost"
        if kind == "hire":
            if state["hired"][seat]:
                return "G4.11: at most one Assistant a round"
            return ("G4.11: hire an Assistant on offer whose cost your goods cover, owning a "
                    "building of each colour it needs and a production building without one")
        if kind in ("produce", "supply", "chain"):
            return ("G4.2: production is over, and a building's chain cannot be returned to: "
                    "build, hire or done")
        return "G4.10: production is over: build, hire or done"
    if kind == "produce":
        if key[1] not in staff(state, seat):
            return "G4.2: only a building with the Worker or an Assistant produces"
        if key[1] in turn["run"]:
            return "G4.2: that building has run this round"
        return ("G4.3: the market, your Offices and your hand cannot meet that building's "
                "needs for its mode (G4.4)")
    if kind == "chain":
        if not state["final"] and key[1] != turn["last"]:
            return ("G4.2: a chain is offered only for the building that produced last, "
                    "before the next produce or done (G4.7)")
        return ("G4.7: a chain takes its inputs from your hand or your buildings' goods, "
                "never the market or an Office")
    if kind == "done":
        return (f"G4.6: {', '.join(must_run(cs, state, seat))} must run first: the market "
                f"and your Offices already satisfy it")
    return "G4.2: produce, chain or done"


# --- drawing (G2.3) -----------------------------------------------------------------------------
def _reshuffle(state: State, events: list[Event]) -> None:
    pile = sorted(state["discard"])
    random.Random(f"goods:{state['seed']}:{state['shuffles']}").shuffle(pile)
    state["shuffles"] += 1
    state["discard"] = []
    state["draw"] = pile
    events.append({"type": "reshuffle", "cards": len(pile)})


def _draw(state: State, task: dict[str, Any], events: list[Event]) -> str | None:
    """The top card, the discard reshuffled first if needed; None when both piles are
    empty (``task['blocked']`` says G2.3's discards are due)."""
    if not state["draw"] and state["discard"]:
        _reshuffle(state, events)
    if state["draw"]:
        return str(state["draw"].pop())
    if not task.get("exhausted"):
        owing = [s for s in order(state) if len(state["hands"][s]) // 2 > 0]
        task["exhausted"] = True
        if owing:
            state["exhaust"] = {"owing": owing,
                                "left": [len(state["hands"][s]) // 2 for s in owing]}
            events.append({"type": "exhausted", "owing": list(owing),
                           "discards": list(state["exhaust"]["left"])})
            task["blocked"] = True
    return None


def _task(cs: CardSet, state: State, task: dict[str, Any], events: list[Event]) -> bool:
    """Work one task off; False if it must wait for G2.3's discards."""
    kind = task["t"]
    if kind == "hand":
        while task["n"] > 0:
            card = _draw(state, task, events)
            if card is None:
                if task.pop("blocked", False):
                    return False
                break
            task["n"] -= 1
            seat = task["seat"]
            state["hands"][seat] = sorted([*state["hands"][seat], card])
            events.append({"type": "draw", "seat": seat, "why": task["why"],
                           "card": secret(card, [seat])})
        return True
    if kind == "market":
        while task["suns"] > 0:
            card = _draw(state, task, events)
            if card is None:
                if task.pop("blocked", False):
                    return False
                break
            state["market"].append(card)
            task["suns"] -= cs.cards[card].half_sun
            events.append({"type": "market", "card": card})
        return True
    if kind == "goods":
        seat, bid = task["seat"], task["building"]
        b = find(state, seat, bid)
        assert b is not None
        while task["n"] > 0:
            card = _draw(state, task, events)
            if card is None:
                if task.pop("blocked", False):
                    _tell_goods(state, task, b, events)  # what was drawn before the pause
                    return False
                break
            task["n"] -= 1
            task["made"] += 1
            b["goods"].append(card)
        _tell_goods(state, task, b, events)
        state["turn"]["last"] = bid if task["made"] else None  # G2.3: no good, no production
        return True
    if kind == "plan":
        _begin_plan(state, events)
    elif kind == "production":
        _begin_production(state, events)
    return True


def _tell_goods(state: State, task: dict[str, Any], b: dict[str, Any],
                events: list[Event]) -> None:
    """The goods drawn since the last telling, face down: their count is public (G4.4)."""
    fresh = task["made"] - task.get("told", 0)
    if fresh or not task.get("told_once"):
        events.append({"type": "produced", "seat": task["seat"], "building": task["building"],
                       "goods": fresh, "cards": secret(b["goods"][-fresh:] if fresh else [],
                                                       [])})
    task["told"] = task["made"]
    task["told_once"] = True


def run(cs: CardSet, state: State, events: list[Event]) -> None:
    """Work off the queued tasks until done or G2.3's discards are due."""
    while state["queue"] and state["exhaust"] is None:
        if not _task(cs, state, state["queue"][0], events):
            return
        state["queue"].pop(0)


# --- phase changes ------------------------------------------------------------------------------
def _begin_round(state: State, events: list[Event]) -> None:
    n = len(state["names"])
    state["phase"] = "hand"
    state["sealed"] = [False] * n
    state["choices"] = [None] * n
    state["mulliganed"] = [None] * n
    state["revealed"] = [None] * n
    state["hired"] = [False] * n
    state["held"] = [len(h) for h in state["hands"]]
    state["turn"] = None
    events.append({"type": "round", "round": state["round"], "active": state["active"],
                   "final": state["final"]})


def _begin_plan(state: State, events: list[Event]) -> None:
    n = len(state["names"])
    state["phase"] = "plan"
    state["sealed"] = [False] * n
    state["plans"] = [None] * n
    events.append({"type": "phase", "phase": "plan"})


def _begin_production(state: State, events: list[Event]) -> None:
    state["phase"] = "production"
    _start_turn(state, state["active"], events)


def _start_turn(state: State, seat: int, events: list[Event]) -> None:
    state["turn"] = {"seat": seat, "stage": "produce", "run": [], "last": None,
                     "current": None, "pay": None}
    events.append({"type": "turn", "seat": seat})


def _reveal_hands(cs: CardSet, state: State, events: list[Event]) -> None:
    """G2.1, G2.2: the choices revealed and applied in turn order, then the draws."""
    choices = state["choices"]
    state["mulliganed"] = [c == "mulligan" for c in choices]
    events.append({"type": "reveal", "step": "hand", "mulligan": list(state["mulliganed"])})
    for s in order(state):
        if choices[s] == "mulligan":
            hand = state["hands"][s]
            state["discard"] += hand
            state["hands"][s] = []
            events.append({"type": "mulligan", "seat": s, "cards": list(hand)})
            state["queue"].append({"t": "hand", "seat": s, "n": len(hand), "why": "mulligan"})
    for s in order(state):
        state["queue"].append({"t": "hand", "seat": s, "n": 2, "why": "phase I"})
    for s in order(state):
        if state["held"][s] <= 3:
            extra = sum(building_of(cs, b["id"]).extra_cards for b in state["buildings"][s])
            if extra:
                state["queue"].append({"t": "hand", "seat": s, "n": extra, "why": "inn"})
    state["queue"].append({"t": "market", "suns": 2})  # G3.1
    state["queue"].append({"t": "plan"})
    state["choices"] = [None] * len(state["names"])


def _reveal_plans(cs: CardSet, state: State, events: list[Event]) -> None:
    """G6.1: every plan at once, applied in turn order from the active player."""
    shown: list[dict[str, Any]] = [{}] * len(state["names"])
    for s in order(state):
        plan = state["plans"][s]
        moves = []
        for m in plan["moves"]:
            paid = []
            for bid in m["paid"]:
                b = find(state, s, bid)
                assert b is not None
                card = b["goods"].pop()
                state["discard"].append(card)
                paid.append({"building": bid, "card": card})
            for b in state["buildings"][s]:
                if b["assistant"] == m["assistant"]:
                    b["assistant"] = None
            target = find(state, s, m["to"])
            assert target is not None
            target["assistant"] = m["assistant"]
            moves.append({"assistant": m["assistant"], "to": m["to"], "paid": paid})
        work = plan["work"]
        if work is not None:
            b = find(state, s, work["building"])
            assert b is not None
            b["worker"] = work["mode"]
        if plan["card"] is not None:
            state["hands"][s].remove(plan["card"])
        state["planned"][s] = plan["card"]
        shown[s] = {"moves": moves, "work": work, "planned": plan["card"] is not None}
    state["revealed"] = shown
    state["plans"] = [None] * len(state["names"])
    events.append({"type": "reveal", "step": "plan", "plans": shown,
                   "planned": [secret(state["planned"][s], [s])
                               for s in range(len(state["names"]))]})
    state["queue"].append({"t": "market", "suns": 2})  # G3.3
    state["queue"].append({"t": "production"})


def _next_turn(cs: CardSet, state: State, events: list[Event]) -> None:
    """The seat's turn is over (G4.1): the next seat, or the round's end (G4.13, G5.1)."""
    seat = state["turn"]["seat"]
    card = state["planned"][seat]
    if card is not None:  # G4.10: not built, back to hand
        state["hands"][seat] = sorted([*state["hands"][seat], card])
        state["planned"][seat] = None
        events.append({"type": "unbuilt", "seat": seat})
    seats = order(state)
    k = seats.index(seat)
    if k + 1 < len(seats):
        _start_turn(state, seats[k + 1], events)
        return
    state["discard"] += state["market"]
    events.append({"type": "market_discarded", "cards": list(state["market"])})
    state["market"] = []
    state["turn"] = None
    if state["final"]:
        state["phase"] = "over"
        events.append({"type": "over", "standings": standings(cs, state),
                       "winners": winners(cs, state)})
        return
    if any(len(b) >= END_BUILDINGS for b in state["buildings"]):
        state["final"] = True  # G5.1: one more full round
    state["round"] += 1
    state["active"] = (state["active"] + 1) % len(state["names"])
    _begin_round(state, events)


# --- playing ------------------------------------------------------------------------------------
def apply(cs: CardSet, state: State, seat: int, key: Key, events: list[Event]) -> None:
    """Play the legal ``key`` for ``seat``, changing ``state`` in place."""
    kind = key[0]
    if kind == "discard":
        ex = state["exhaust"]
        state["hands"][seat].remove(key[1])
        state["discard"].append(key[1])
        events.append({"type": "discard", "seat": seat, "card": key[1]})
        ex["left"][0] -= 1
        if ex["left"][0] == 0:
            ex["owing"].pop(0)
            ex["left"].pop(0)
        if not ex["owing"]:
            state["exhaust"] = None
            run(cs, state, events)
        return
    phase = state["phase"]
    if phase == "hand":
        state["choices"][seat] = kind
        state["sealed"][seat] = True
        events.append({"type": "sealed", "seat": seat, "step": "hand",
                       "choice": secret(kind, [seat])})
        if all(state["sealed"]):
            _reveal_hands(cs, state, events)
            run(cs, state, events)
        return
    if phase == "plan":
        _apply_plan(cs, state, seat, key, events)
        return
    _apply_production(cs, state, seat, key, events)


def _apply_plan(cs: CardSet, state: State, seat: int, key: Key, events: list[Event]) -> None:
    plan = plan_of(state, seat)
    state["plans"][seat] = plan
    kind = key[0]
    if kind == "move_assistant":
        plan["paying"] = {"assistant": key[1], "to": key[2], "paid": []}
        events.append(only({"type": "move_assistant", "seat": seat, "assistant": key[1],
                            "to": key[2]}, seat))
    elif kind == "pay":
        pay = plan["paying"]
        pay["paid"].append(key[1])
        events.append(only({"type": "pay", "seat": seat, "building": key[1]}, seat))
        if sum(building_of(cs, b).worth for b in pay["paid"]) >= MOVE_COST:
            plan["moves"].append(pay)
            plan["paying"] = None
    elif kind == "work":
        plan["work"] = None if key[1] is None else {"building": key[1], "mode": key[2]}
        plan["worked"] = True
        events.append(only({"type": "work", "seat": seat, "building": key[1],
                            "mode": key[2]}, seat))
    else:  # plan_build seals the plan
        plan["card"] = key[1]
        state["sealed"][seat] = True
        events.append({"type": "sealed", "seat": seat, "step": "plan",
                       "card": secret(key[1], [seat])})
        if all(state["sealed"]):
            _reveal_plans(cs, state, events)
            run(cs, state, events)


def _produce(cs: CardSet, state: State, seat: int, bid: str, mode: str,
             events: list[Event]) -> None:
    turn = state["turn"]
    turn["stage"] = "produce"
    turn["current"] = None
    state["queue"].append({"t": "goods", "seat": seat, "building": bid,
                           "n": 2 if mode == "efficient" else 1, "made": 0})
    run(cs, state, events)


def _apply_production(cs: CardSet, state: State, seat: int, key: Key,
                      events: list[Event]) -> None:
    turn = state["turn"]
    kind = key[0]
    if kind == "produce":
        bid = key[1]
        mode = staff(state, seat)[bid]
        turn["run"].append(bid)
        turn["last"] = None
        events.append({"type": "produce", "seat": seat, "building": bid, "mode": mode})
        gap = gap_of(cs, state, seat, bid, mode)
        if sum(gap.values()) <= allowed_gap(mode):
            _produce(cs, state, seat, bid, mode, events)
        else:
            turn["stage"] = "supply"
            turn["current"] = {"building": bid, "mode": mode, "supplied": []}
    elif kind == "supply":
        cur = turn["current"]
        state["hands"][seat].remove(key[1])
        state["discard"].append(key[1])
        cur["supplied"].append(key[1])
        events.append({"type": "supply", "seat": seat, "building": cur["building"],
                       "card": key[1]})
        gap = gap_of(cs, state, seat, cur["building"], cur["mode"], cur["supplied"])
        if sum(gap.values()) <= allowed_gap(cur["mode"]):
            _produce(cs, state, seat, cur["building"], cur["mode"], events)
    elif kind == "chain":
        _, bid, hand, goods = key
        target = find(state, seat, bid)
        assert target is not None
        for c in hand:
            state["hands"][seat].remove(c)
            target["goods"].append(c)
        for src in goods:
            b = find(state, seat, src)
            assert b is not None
            target["goods"].append(b["goods"].pop())
        events.append({"type": "chain", "seat": seat, "building": bid, "hand": list(hand),
                       "goods": list(goods)})
    elif kind == "done" and turn["stage"] == "produce":
        for b in state["buildings"][seat]:
            b["worker"] = None  # G4.9
        turn["stage"] = "after"
        turn["last"] = None
        events.append({"type": "production_done", "seat": seat})
    elif kind == "done":
        events.append({"type": "done", "seat": seat})
        _next_turn(cs, state, events)
    elif kind in ("build", "hire"):
        card = state["planned"][seat]
        if kind == "build":
            assert card is not None
            turn["pay"] = {"for": "build", "card": card, "cost": building_of(cs, card).cost,
                           "paid": 0, "assistant": None}
        else:
            turn["pay"] = {"for": "hire", "card": None, "cost": side_of(cs, state, key[1]).cost,
                           "paid": 0, "assistant": key[1]}
        turn["stage"] = "pay"
        events.append({"type": kind, "seat": seat,
                       **({"assistant": key[1]} if kind == "hire" else {"card": card})})
    elif kind == "pay":
        b = find(state, seat, key[1])
        assert b is not None
        good = b["goods"].pop()
        state["discard"].append(good)
        pay = turn["pay"]
        pay["paid"] += building_of(cs, key[1]).worth
        events.append({"type": "pay", "seat": seat, "building": key[1], "card": good})
        if pay["paid"] >= pay["cost"]:
            if pay["for"] == "build":
                state["buildings"][seat].append({"id": pay["card"], "goods": [], "worker": None,
                                                 "assistant": None})
                state["planned"][seat] = None
                events.append({"type": "built", "seat": seat, "card": pay["card"]})
                turn["pay"] = None
                _next_turn(cs, state, events)
            else:
                state["hired"][seat] = True
                o = next(o for o in state["offer"] if o["id"] == pay["assistant"])
                o["owner"] = seat
                turn["stage"] = "assign"
    elif kind == "assign":
        aid = turn["pay"]["assistant"]
        b = find(state, seat, key[1])
        assert b is not None
        b["assistant"] = aid
        events.append({"type": "hired", "seat": seat, "assistant": aid, "building": key[1]})
        turn["pay"] = None
        _next_turn(cs, state, events)


# --- the end (G5) -------------------------------------------------------------------------------
def score(cs: CardSet, state: State, seat: int) -> dict[str, int]:
    """G5.2: VP by source and the coins left."""
    total = coins(cs, state, seat)
    return {"buildings": sum(building_of(cs, b["id"]).vp for b in state["buildings"][seat]),
            "assistants": sum(cs.assistants[o["id"]][o["side"]].vp for o in state["offer"]
                              if o["owner"] == seat),
            "goods": total // COINS_PER_VP, "coins_left": total % COINS_PER_VP}


def standings(cs: CardSet, state: State) -> list[dict[str, Any]]:
    rows = []
    for s in range(len(state["names"])):
        sc = score(cs, state, s)
        sources = {k: sc[k] for k in ("buildings", "assistants", "goods")}
        rows.append({"seat": s, "score": sum(sources.values()), "sources": sources,
                     "coins_left": sc["coins_left"]})
    return rows


def winners(cs: CardSet, state: State) -> list[int]:
    """G5.3: most VP, then most coins left; all still tied win. [] until over."""
    if state["phase"] != "over":
        return []
    rows = standings(cs, state)
    best = max((r["score"], r["coins_left"]) for r in rows)
    return [r["seat"] for r in rows if (r["score"], r["coins_left"]) == best]


def is_grey(cs: CardSet, bid: str) -> bool:
    return building_of(cs, bid).colour == GREY
