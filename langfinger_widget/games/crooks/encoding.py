"""Crooks for learning environments (envs/): fixed action ids and a seat's observation vector.

The registry's hooks (``GameSpec.action_ids``, ``GameSpec.observation``) the PettingZoo and
OpenSpiel environments read. Ids are deck-free: a crook is named by its place in the deck's
id order (C0.4 fixes 32 crooks in every deck), so a replaced deck keeps the same numbering.

>>> from langfinger_widget.games.crooks import Game
>>> ids = action_ids(Game.new(players=3, seed=1))
>>> len(ids), ids[0], ids[-1]
(90, {'type': 'recruit', 'hangout': 'A'}, {'type': 'pass'})
>>> Observation(3).size
1896
"""

from __future__ import annotations

from typing import Any

from ...errors import BadArgument
from .cards import DECK_SIZE, MAX_PLAYERS, MIN_PLAYERS, TARGETS, hangouts
from .state import STEPS

Action = dict[str, Any]
View = dict[str, Any]
# The face and effect of a placement that can ever be legal: face down never takes an
# effect (C4.1: a special acts only face up).
PLACEMENTS = (("up", False), ("up", True), ("down", False))


def action_ids(game: Any) -> tuple[Action, ...]:
    """Every action a Crooks game of ``game``'s player count and deck can ever offer, in a
    fixed order (an action's id is its index); the length depends on the player count only:
    hangouts, the 32 crooks, 8 targets x 3 placements, switches, kills, spies, pass."""
    players = game.num_players
    crooks = sorted(c["id"] for c in game.view(None)["deck"])
    out: list[Action] = [{"type": "recruit", "hangout": h} for h in hangouts(players)]
    out += [{"type": "keep", "crook": c} for c in crooks]
    out += [{"type": "place", "target": t, "face": face, "effect": effect}
            for t in TARGETS for face, effect in PLACEMENTS]
    out += [{"type": "switch", "to": t} for t in TARGETS]
    out += [{"type": "kill", "seat": s} for s in range(players)]
    out += [{"type": "spy", "target": t} for t in TARGETS]
    out += [{"type": "spy", "hangout": h} for h in hangouts(players)]
    out.append({"type": "pass"})
    return tuple(out)


class Observation:
    """A seat's view (``Game.view(seat)``) as a vector of ``size`` numbers, seats relative to
    the observer (0: itself). Only the view is read, so nothing hidden can enter (C7, C8):

    * head: the observer is to move; the step (C2.1), one-hot;
    * each seat: cash (C1.2), passed (C2.1);
    * each hangout in play: its size, whether the observer knows its pile (C7.2), and which
      crooks it holds when known;
    * each crook of the deck (by its place in id order): where the observer sees it, one
      flag among (target, owner, face up or down), the pile being recruited from, the crook
      being placed; a face-down crook the observer cannot see is only counted below;
    * each target and seat: the face-down crooks there the observer cannot see (C8.1);
    * the turn under way: its seat, hangout, price and target.
    """

    def __init__(self, players: int) -> None:
        if players not in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            raise BadArgument(f"C1.1: Crooks is for 2 to 4 players, not {players!r}")
        self.players = players
        self.hangouts = hangouts(players)
        n, h, t = players, len(self.hangouts), len(TARGETS)
        # Where a crook may be seen: targets x owners x faces, the pile, the hand.
        self.spots = t * n * 2 + 2
        self.at: dict[str, int] = {}
        size = 0
        for name, width in (("to_move", 1), ("step", len(STEPS)), ("seats", 2 * n),
                            ("hangouts", h * (2 + DECK_SIZE)), ("crooks", DECK_SIZE * self.spots),
                            ("unseen", t * n), ("turn", 1 + n + h + 1 + t)):
            self.at[name] = size
            size += width
        self.size = size

    def encode(self, view: View) -> list[float]:
        """The vector of one seat's view; BadArgument for the open board or another count."""
        seat = view.get("seat") if isinstance(view, dict) else None
        if not isinstance(seat, int) or view.get("game") != "crooks":
            raise BadArgument("encode a Crooks seat's view (view(seat)), not the open board "
                              "or another game's")
        n = self.players
        if view["num_players"] != n:
            raise BadArgument(f"this observation is for {n} players, not {view['num_players']}")
        out = [0.0] * self.size
        index = {c["id"]: i for i, c in enumerate(sorted(view["deck"], key=lambda c: c["id"]))}

        def rel(s: int) -> int:
            return (s - seat) % n

        at = self.at
        out[at["to_move"]] = float(view["to_move"] == seat)
        out[at["step"] + STEPS.index(view["step"])] = 1.0
        for p in view["players"]:
            out[at["seats"] + 2 * rel(p["seat"])] = float(p["cash"])
            out[at["seats"] + 2 * rel(p["seat"]) + 1] = float(p["passed"])
        for k, hangout in enumerate(view["hangouts"]):
            base = at["hangouts"] + k * (2 + DECK_SIZE)
            out[base] = float(hangout["size"])
            if hangout["cards"] is not None:
                out[base + 1] = 1.0
                for c in hangout["cards"]:
                    out[base + 2 + index[c["id"]]] = 1.0
        for ti, target in enumerate(view["targets"]):
            for owner, row in enumerate(target["rows"]):
                for placed in row:
                    down = placed["face"] == "down"
                    if placed["crook"] is None:
                        out[at["unseen"] + ti * n + rel(owner)] += 1.0
                        continue
                    spot = (ti * n + rel(owner)) * 2 + down
                    out[at["crooks"] + index[placed["crook"]["id"]] * self.spots + spot] = 1.0
        turn = view["turn"]
        if turn is not None:
            for c in turn["pile"] or ():
                out[at["crooks"] + index[c["id"]] * self.spots + self.spots - 2] = 1.0
            if turn["hand"] is not None:
                out[at["crooks"] + index[turn["hand"]["id"]] * self.spots + self.spots - 1] = 1.0
            base = at["turn"]
            out[base] = 1.0
            out[base + 1 + rel(turn["seat"])] = 1.0
            if turn["hangout"] in self.hangouts:
                out[base + 1 + n + self.hangouts.index(turn["hangout"])] = 1.0
            out[base + 1 + n + len(self.hangouts)] = float(turn["price"])
            if turn["target"] is not None:
                out[base + 2 + n + len(self.hangouts) + TARGETS.index(turn["target"])] = 1.0
        return out


def observation(players: int) -> Observation:
    """The observation of a ``players``-seat game (``GameSpec.observation``)."""
    return Observation(players)


__all__ = ["PLACEMENTS", "Observation", "action_ids", "observation"]
