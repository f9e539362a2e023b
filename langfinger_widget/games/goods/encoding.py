"""Oh My Goods! for learning environments (envs/): fixed action ids and a seat's observation.

The registry's hooks (``GameSpec.action_ids``, ``GameSpec.observation``) the PettingZoo and
OpenSpiel environments read. The step actions of the rulings (``supply``, ``pay``, ``chain``
one use at a time, ``done``) keep the list finite: every action names at most a card, an
Assistant and a mode, and a chain use names its building and one id per chain item (in the
chain's order, G4.7), so the ids come from the game's card set and the player count never
changes them.

>>> from langfinger_widget.games.goods import Game
>>> ids = action_ids(Game.new(players=3, seed=1))
>>> len(ids), ids[0], ids[-1]
(4254, {'type': 'keep'}, {'type': 'done'})
>>> Observation(3).size
1660
"""

from __future__ import annotations

from itertools import product
from typing import Any

from ...errors import BadArgument
from .cards import MAX_PLAYERS, MIN_PLAYERS, SHIPPED, CardSet

Action = dict[str, Any]
View = dict[str, Any]
MODES = ("efficient", "sloppy")
PHASES = ("hand", "plan", "production", "over")
STAGES = ("produce", "supply", "after", "pay", "assign")


def _chain_uses(cs: CardSet) -> list[Action]:
    """Every single use of every chain in the card set: the building, then for each chain
    item a hand card showing that resource or another building making that good."""
    out: list[Action] = []
    for bid, card in cs.cards.items():
        options: list[list[tuple[str, str]]] = []
        for item in card.building.chain:
            if item in cs.resources:
                options.append([("hand", c) for c, d in cs.cards.items() if d.resource == item])
            else:
                options.append([("goods", c) for c, d in cs.cards.items()
                                if c != bid and d.building.good == item])
        if not options:
            continue
        for combo in product(*options):
            out.append({"type": "chain", "building": bid,
                        "hand": [x for k, x in combo if k == "hand"],
                        "goods": [x for k, x in combo if k == "goods"]})
    return out


def action_ids(game: Any) -> tuple[Action, ...]:
    """Every action an Oh My Goods! game with ``game``'s cards can ever offer, in a fixed
    order (an action's id is its index): the same list at every player count."""
    cs: CardSet = game.cards
    cards, deck, assistants = list(cs.cards), cs.deck, list(cs.assistants)
    out: list[Action] = [{"type": "keep"}, {"type": "mulligan"}]
    out += [{"type": "discard", "card": c} for c in deck]
    out += [{"type": "move_assistant", "assistant": a, "to": b}
            for a in assistants for b in cards]
    out += [{"type": "work", "building": b, "mode": m} for b in cards for m in MODES]
    out.append({"type": "work", "building": None, "mode": None})  # G3.2: nowhere free
    out += [{"type": "plan_build", "card": c} for c in deck]
    out.append({"type": "plan_build", "card": None})
    out += [{"type": "produce", "building": b} for b in cards]
    out += [{"type": "supply", "card": c} for c in deck]
    out += _chain_uses(cs)
    out.append({"type": "build"})
    out += [{"type": "hire", "assistant": a} for a in assistants]
    out += [{"type": "pay", "building": b} for b in cards]
    out += [{"type": "assign", "building": b} for b in cards]
    out.append({"type": "done"})
    return tuple(out)


class Observation:
    """A seat's view (``Game.view(seat)``) as a vector of ``size`` numbers, seats relative to
    the observer (0: itself). Only the view is read, so nothing hidden enters (G7, and G6:
    another seat's sealed choice is not in the view until the reveal):

    * head: the observer is to decide; the phase, one-hot; round; final round; the active
      seat; half suns shown; the draw pile's and the discard's sizes;
    * each seat: coins, VP, hand size, sealed, mulliganed, hired, planned a building;
    * each card (the shipped card set's ids): where the observer sees it (market, discard,
      its hand, its planned card, a seat's buildings) and, as a building, its goods, worker
      (efficient or sloppy), Assistant, run this turn, produced last, being supplied, chain
      on offer, the observer's sealed Worker plan there;
    * each Assistant: on offer, side b, its owner (a seat, or none);
    * the turn under way: its seat, stage, and a payment's cost and coins paid.
    """

    def __init__(self, players: int, cards: CardSet = SHIPPED) -> None:
        if isinstance(players, bool) or players not in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            raise BadArgument(f"G1.1: Oh My Goods! is for 2 to 4 players, not {players!r}")
        self.players = players
        self.cards = {c: i for i, c in enumerate(cards.cards)}
        self.assistants = {a: i for i, a in enumerate(cards.assistants)}
        n = players
        self.spots = 4 + n  # market, discard, hand, planned, a seat's buildings
        self.per_card = self.spots + 9
        self.at: dict[str, int] = {}
        size = 0
        for name, width in (("head", 1 + len(PHASES) + 2 + n + 3), ("seats", 7 * n),
                            ("cards", len(self.cards) * self.per_card),
                            ("assistants", len(self.assistants) * (2 + n + 1)),
                            ("turn", n + len(STAGES) + 2)):
            self.at[name] = size
            size += width
        self.size = size

    def encode(self, view: View) -> list[float]:
        """The vector of one seat's view; BadArgument for the open board or another count."""
        seat = view.get("seat") if isinstance(view, dict) else None
        if not isinstance(seat, int) or view.get("game") != "goods":
            raise BadArgument("encode an Oh My Goods! seat's view (view(seat)), not the open "
                              "board or another game's")
        n = self.players
        if view["num_players"] != n:
            raise BadArgument(f"this observation is for {n} players, not {view['num_players']}")
        out = [0.0] * self.size
        at = self.at

        def rel(s: int) -> int:
            return (s - seat) % n

        def card(c: str, offset: int, value: float = 1.0) -> None:
            out[at["cards"] + self.cards[c] * self.per_card + offset] = value

        head = at["head"]
        out[head] = float(seat in view["to_decide"])
        out[head + 1 + PHASES.index(view["phase"])] = 1.0
        head += 1 + len(PHASES)
        out[head], out[head + 1] = float(view["round"]), float(view["final_round"])
        if view["active"] is not None:
            out[head + 2 + rel(view["active"])] = 1.0
        head += 2 + n
        out[head:head + 3] = [float(view["half_suns"]), float(view["draw_size"]),
                              float(len(view["discard"]))]
        for c in view["market"]:
            card(c["id"], 0)
        for c in view["discard"]:
            card(c, 1)
        for p in view["players"]:
            r = rel(p["seat"])
            out[at["seats"] + 7 * r:at["seats"] + 7 * r + 7] = [
                float(p["coins"]), float(p["vp"]), float(p["hand_size"]),
                *(float(bool(p[k])) for k in ("sealed", "mulliganed", "hired", "planned_any"))]
            for c in p["hand"] or ():
                card(c["id"], 2)
            if p["planned"]:
                card(p["planned"], 3)
            plan = p["plan"]
            if plan is not None:
                if plan["card"]:
                    card(plan["card"], 3)
                if plan["work"] and plan["work"]["building"]:
                    card(plan["work"]["building"], self.spots + 8)
            for b in p["buildings"]:
                base = self.spots
                card(b["id"], 4 + r)
                card(b["id"], base, float(b["goods"]))
                if b["mode"] in MODES:
                    card(b["id"], base + 1 + MODES.index(b["mode"]))
                if b["assistant"]:
                    card(b["id"], base + 3)
        production = view["production"]
        turn = at["turn"]
        if production is not None:
            for b in production["run"]:
                card(b, self.spots + 4)
            if production["last"]:
                card(production["last"], self.spots + 5)
            if production["current"] is not None:
                card(production["current"]["building"], self.spots + 6)
            for b in production["chains"]:
                card(b, self.spots + 7)
            out[turn + rel(production["seat"])] = 1.0
            out[turn + n + STAGES.index(production["stage"])] = 1.0
            pay = production["pay"]
            if pay is not None:
                out[turn + n + len(STAGES)] = float(pay["cost"])
                out[turn + n + len(STAGES) + 1] = float(pay["paid"])
        for a in view["assistants"]:
            base = at["assistants"] + self.assistants[a["id"]] * (2 + n + 1)
            out[base] = float(a["owner"] is None)
            out[base + 1] = float(a["side"] == "b")
            out[base + 2 + (n if a["owner"] is None else rel(a["owner"]))] = 1.0
        return out


def observation(players: int) -> Observation:
    """The observation of a ``players``-seat game (``GameSpec.observation``)."""
    return Observation(players)


__all__ = ["Observation", "action_ids", "observation"]
