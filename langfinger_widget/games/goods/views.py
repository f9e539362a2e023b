"""What one seat may see of an Oh My Goods! position (G7): ``view(state, viewer)``.

Everything that leaves the kernel for a player, a board or a bot goes through here
(events go through ``base.redact_log``). A view is JSON-ready (format
``goods-view/1``); its keys are documented in ``games/goods/__init__.py``. Nobody
sees the draw pile's order or a good's face (G7.3); a hand, a planned card and a
sealed choice under way are their seat's alone (G7.2); the rest is public (G7.1).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..base import PUBLIC
from . import rules
from .cards import MOVE_COST, CardSet

VIEW_FORMAT = "goods-view/1"
PHASE_NUMBERS = {"hand": "I", "plan": "II", "production": "IV", "over": None}


def face(cs: CardSet, card: str) -> dict[str, Any]:
    c = cs.cards[card]
    return {"id": card, "building": c.building.key, "name": c.building.name,
            "resource": c.resource, "half_sun": c.half_sun}


def _building(cs: CardSet, state: rules.State, b: dict[str, Any]) -> dict[str, Any]:
    kind = cs.cards[b["id"]].building
    return {"id": b["id"], "building": kind.key, "name": kind.name, "colour": kind.colour,
            "vp": kind.vp, "good": kind.good, "worth": kind.worth, "goods": len(b["goods"]),
            "coins": kind.worth * len(b["goods"]), "supplies": cs.cards[b["id"]].supplies,
            "staffed": "assistant" if b["assistant"] else "worker" if b["worker"] else None,
            "assistant": b["assistant"], "mode": b["worker"]}


def _need(cs: CardSet, state: rules.State, seat: int, bid: str, mode: str,
          supplied: list[str]) -> dict[str, Any]:
    """One building's needs against what the market, the Offices and the hand supply."""
    kind = cs.cards[bid].building
    market = Counter(cs.cards[c].resource for c in state["market"])
    office = Counter(rules.offices(cs, state, seat))
    hand = Counter(cs.cards[c].resource for c in supplied)
    gap = rules.gap_of(cs, state, seat, bid, mode, supplied)
    return {"building": bid, "mode": mode,
            "needs": list(kind.needs), "needs_any": kind.needs_any,
            "market": dict(sorted(market.items())), "offices": dict(sorted(office.items())),
            "supplied": list(supplied), "from_hand": dict(sorted(hand.items())),
            "missing": dict(sorted(gap.items())), "skip": rules.allowed_gap(mode),
            "satisfied": sum(gap.values()) <= rules.allowed_gap(mode)}


def _production(cs: CardSet, state: rules.State) -> dict[str, Any] | None:
    turn = state["turn"]
    if turn is None:
        return None
    seat = turn["seat"]
    staffed = rules.staff(state, seat)
    must = set(rules.must_run(cs, state, seat)) if turn["stage"] == "produce" else set()
    cur = turn["current"]
    if state["final"]:
        chains = [b["id"] for b in state["buildings"][seat]
                  if cs.cards[b["id"]].building.chain]
    else:
        chains = [] if turn["last"] is None else [turn["last"]]
    pay = turn["pay"]
    return {
        "seat": seat, "stage": turn["stage"], "run": list(turn["run"]), "last": turn["last"],
        "buildings": [{**_need(cs, state, seat, bid, mode, []), "run": bid in turn["run"],
                       "must_run": bid in must} for bid, mode in staffed.items()],
        "current": None if cur is None else _need(cs, state, seat, cur["building"],
                                                  cur["mode"], cur["supplied"]),
        "chains": chains,
        "pay": None if pay is None else {"for": pay["for"], "card": pay["card"],
                                         "assistant": pay["assistant"], "cost": pay["cost"],
                                         "paid": pay["paid"]},
    }


def _plan(cs: CardSet, state: rules.State, seat: int) -> dict[str, Any] | None:
    plan = state["plans"][seat]
    if plan is None:
        return None
    paying = plan["paying"]
    return {"moves": [{"assistant": m["assistant"], "to": m["to"], "paid": list(m["paid"])}
                      for m in plan["moves"]],
            "paying": None if paying is None else {
                "assistant": paying["assistant"], "to": paying["to"],
                "paid": list(paying["paid"]), "cost": MOVE_COST,
                "coins": sum(cs.cards[b].building.worth for b in paying["paid"])},
            "work": plan["work"], "worked": plan["worked"], "card": plan["card"],
            "promised": rules.promised(plan)}


def view(cs: CardSet, state: rules.State, viewer: int | None) -> dict[str, Any]:
    """The position as ``viewer`` may see it (None: everything; PUBLIC: a spectator)."""
    n = len(state["names"])
    over = state["phase"] == "over"

    def mine(s: int) -> bool:
        return viewer is None or viewer == s

    sealing = state["phase"] in ("hand", "plan")
    players = []
    for s in range(n):
        sc = rules.score(cs, state, s)
        shown = state["revealed"][s]
        players.append({
            "seat": s, "name": state["names"][s],
            "buildings": [_building(cs, state, b) for b in state["buildings"][s]],
            "vp": sc["buildings"] + sc["assistants"] + sc["goods"],
            "vp_sources": {k: sc[k] for k in ("buildings", "assistants", "goods")},
            "coins": rules.coins(cs, state, s), "coins_left": sc["coins_left"],
            "hand_size": len(state["hands"][s]),
            "hand": [face(cs, c) for c in state["hands"][s]] if mine(s) else None,
            "planned": state["planned"][s] if mine(s) else None,
            # The card left the hand at the reveal: its face, so a board can name it (G7.2).
            "planned_face": (face(cs, state["planned"][s])
                             if mine(s) and state["planned"][s] is not None else None),
            "planned_any": None if shown is None else shown["planned"],
            "mulliganed": state["mulliganed"][s],
            "sealed": state["sealed"][s] if sealing else None,
            "choice": state["choices"][s] if mine(s) and state["phase"] == "hand" else None,
            "plan": _plan(cs, state, s) if mine(s) and state["phase"] == "plan" else None,
            "revealed_plan": shown,
            "hired": state["hired"][s],
            "assistants": [o["id"] for o in state["offer"] if o["owner"] == s],
        })
    market = [face(cs, c) for c in state["market"]]
    ex = state["exhaust"]
    return {
        "format": VIEW_FORMAT, "game": "goods",
        "seat": None if viewer in (None, PUBLIC) else viewer, "spectator": viewer == PUBLIC,
        "num_players": n, "start_player": state["start_player"], "round": state["round"],
        "phase": state["phase"], "phase_number": PHASE_NUMBERS[state["phase"]],
        "active": state["active"], "final_round": state["final"],
        "to_decide": rules.to_decide(state),
        "sealed": list(state["sealed"]) if sealing else None,
        "market": market, "half_suns": sum(c["half_sun"] for c in market),
        "draw_size": len(state["draw"]), "discard": list(state["discard"]),
        "assistants": [{"id": o["id"], "side": o["side"],
                        **cs.assistants[o["id"]][o["side"]].facts(), "owner": o["owner"],
                        "at": next((b["id"] for row in state["buildings"] for b in row
                                    if b["assistant"] == o["id"]), None)}
                       for o in state["offer"]],
        "exhaust": None if ex is None else {"owing": list(ex["owing"]), "left": list(ex["left"])},
        "players": players,
        "production": _production(cs, state),
        "kinds": {k: b.facts() for k, b in cs.buildings.items()},
        "standings": rules.standings(cs, state) if over else None,
        "winners": rules.winners(cs, state),
    }
