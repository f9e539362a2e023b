"""Crooks' rules: the only place they live (RULINGS-crooks.md, cited by number).

A turn is a recruit (C3.1), a keep (C3.2-C3.4), a placement (C4.1-C4.6) and at
most one follow-up (a Switch's move, a Killer's victim, a Spy's look), or a pass
(C2.1). :func:`legal` lists the actions of the seat to move, :func:`explain`
says why any other is refused, :func:`apply` plays a legal one and writes its
events. Events hide what only some seats may see inside :func:`secret` markers;
``views.redact`` opens them for the seats named (C7, C8).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...errors import IllegalAction, InvalidState
from ..base import seats, secret
from . import cards
from .cards import FACE_DOWN_COST, GANG_POINTS, GANGS, PICKPOCKET_GAIN, START_CASH, TARGETS
from .state import FOLLOW_UPS, Placed, State, Turn

Action = dict[str, Any]
Event = dict[str, Any]
# An action in a hashable, normalised form: ("recruit", "D"), ("keep", "K07"),
# ("place", 6, "up", True), ("switch", 3), ("kill", 2), ("spy", "target", 5),
# ("spy", "hangout", "C"), ("pass",).
Key = tuple[Any, ...]


# --- setup ------------------------------------------------------------------------------
def setup(players: int, seed: int, names: Sequence[str] | None, start_player: int | None,
          deck: dict[str, cards.Crook], custom_deck: bool) -> tuple[State, list[Event]]:
    """Deal a new game (C1): the piles from the shuffled deck, the rest to the box unseen."""
    # C1.0: the start player is drawn even when given, so the deal stays the seed's
    rng, names, start_player = seats(players, range(cards.MIN_PLAYERS, cards.MAX_PLAYERS + 1),
                                     "Crooks", "C1.1", seed, names, start_player, 2**64 - 1)
    order = sorted(deck)
    rng.shuffle(order)
    hangouts: dict[str, list[str]] = {}
    for h, size in zip(cards.hangouts(players), cards.PILE_SIZES[players], strict=True):
        hangouts[h], order = order[:size], order[size:]
    state = State(
        deck=deck, names=names, seed=seed, start_player=start_player, seat=start_player,
        step="start", cash=[START_CASH] * players, passed=[False] * players,
        hangouts=hangouts, rows=[{t: [] for t in TARGETS} for _ in range(players)],
        box=order, known=[set() for _ in range(players)],
        piles_known=[set() for _ in range(players)], paid=[0] * players,
        gained=[0] * players, custom_deck=custom_deck,
    )
    events: list[Event] = [{
        "type": "deal", "players": players, "start_player": start_player,
        "cash": START_CASH, "sizes": {h: len(p) for h, p in hangouts.items()},
        "hangouts": secret({h: sorted(p) for h, p in hangouts.items()}, []),
    }]
    return state, events


# --- actions as data --------------------------------------------------------------------
def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def parse(action: Any) -> Key:
    """The key of an action dict; :class:`IllegalAction` "not an action: ..." if malformed."""
    def bad(why: str) -> IllegalAction:
        return IllegalAction(f"not an action: {why}"[:200])

    if not isinstance(action, dict):
        raise bad(f"an action is a dict with a 'type', not {type(action).__name__}")
    kind = action.get("type")
    fields = {"recruit": {"hangout"}, "keep": {"crook"}, "place": {"target", "face", "effect"},
              "switch": {"to"}, "kill": {"seat"}, "pass": set()}
    if kind == "spy":
        rest = set(action) - {"type"}
        if rest == {"target"} and _is_int(action["target"]):
            return ("spy", "target", action["target"])
        if rest == {"hangout"} and isinstance(action["hangout"], str):
            return ("spy", "hangout", action["hangout"])
        raise bad("a spy names one 'target' (a number) or one 'hangout' (a letter)")
    if kind not in fields:
        raise bad(f"unknown type {kind!r}; the types are recruit, keep, place, switch, kill, "
                  f"spy, pass")
    want = fields[kind]
    if set(action) - {"type"} != want:
        raise bad(f"{kind} takes exactly {sorted(want) or 'no other keys'}, got "
                  f"{sorted(set(action) - {'type'})}")
    if kind == "recruit":
        if not isinstance(action["hangout"], str):
            raise bad("recruit.hangout is a letter")
        return ("recruit", action["hangout"])
    if kind == "keep":
        if not isinstance(action["crook"], str):
            raise bad("keep.crook is a crook id")
        return ("keep", action["crook"])
    if kind == "place":
        if not _is_int(action["target"]) or action["face"] not in ("up", "down") \
                or not isinstance(action["effect"], bool):
            raise bad("place takes target (a number), face ('up' or 'down'), effect (a bool)")
        return ("place", action["target"], action["face"], action["effect"])
    if kind == "switch":
        if not _is_int(action["to"]):
            raise bad("switch.to is a target number")
        return ("switch", action["to"])
    if kind == "kill":
        if not _is_int(action["seat"]):
            raise bad("kill.seat is a seat number")
        return ("kill", action["seat"])
    return ("pass",)


def to_action(key: Key) -> Action:
    """The JSON-ready dict of a key."""
    kind = key[0]
    if kind == "recruit":
        return {"type": "recruit", "hangout": key[1]}
    if kind == "keep":
        return {"type": "keep", "crook": key[1]}
    if kind == "place":
        return {"type": "place", "target": key[1], "face": key[2], "effect": key[3]}
    if kind == "switch":
        return {"type": "switch", "to": key[1]}
    if kind == "kill":
        return {"type": "kill", "seat": key[1]}
    if kind == "spy":
        return {"type": "spy", key[1]: key[2]}
    return {"type": "pass"}


# --- what may be done -------------------------------------------------------------------
def to_move(state: State) -> int | None:
    return None if state.step == "over" else state.seat


def _free_targets(state: State, seat: int, but: int | None = None) -> list[int]:
    return [t for t in TARGETS if t != but and not state.rows[seat][t]]


def _spy_choices(state: State, seat: int) -> list[Key]:
    """C4.8: a target holding another seat's face-down crook, or a non-empty hangout."""
    out: list[Key] = [("spy", "target", t) for t in TARGETS
                      if any(s != seat and not p.up for s, p in state.at(t))]
    out += [("spy", "hangout", h) for h, pile in state.hangouts.items() if pile]
    return out


def _kill_choices(state: State, seat: int, target: int, placed: bool = False) -> list[int]:
    """C4.6: where the seat has crooks, only itself (the Killer takes their place); else any
    other seat with crooks there. ``placed``: the Killer is already at the target, on top."""
    if state.rows[seat][target][: -1 if placed else None]:
        return [seat]
    return [s for s in range(state.num_players) if s != seat and state.rows[s][target]]


def placements(state: State, seat: int, crook: str, cash: int) -> list[Key]:
    """Every legal placement of ``crook`` by ``seat`` with ``cash`` left (C4.1-C4.6, C4.9)."""
    special = state.deck[crook].special
    # Where a Spy could look does not depend on its own target (C4.8): asked once.
    can_spy = special == "spy" and bool(_spy_choices(state, seat))
    out: list[Key] = []
    for t in TARGETS:
        mine = bool(state.rows[seat][t])
        if special == "kingpin":
            # C4.3: the Kingpin goes face up, with its (empty) effect, and never declines it.
            if not mine:
                out.append(("place", t, "up", True))
            continue
        effect = False
        if special == "pickpocket":
            effect = not mine
        elif special == "accomplice":
            effect = mine  # C4.4: joining a stack is its whole effect
        elif special == "switch":
            effect = mine and bool(_free_targets(state, seat, t))  # C4.5
        elif special == "killer":
            effect = bool(_kill_choices(state, seat, t))  # C4.6
        elif special == "spy":
            effect = not mine and can_spy  # C4.8
        if effect:
            out.append(("place", t, "up", True))
        if not mine:  # C4.2: one crook per seat per target, plain
            out.append(("place", t, "up", False))
            if cash >= FACE_DOWN_COST:  # C4.1
                out.append(("place", t, "down", False))
    return out


def check_position(state: State) -> None:
    """What a loaded position must keep that only the rules can tell (``state.from_dict``
    checks the rest): a crook waiting to be placed can be placed (C3.4)."""
    turn = state.turn
    if state.step == "place" and turn is not None and turn.hand is not None \
            and not placements(state, state.seat, turn.hand, state.cash[state.seat]):
        raise InvalidState(f"C3.4: {turn.hand} can be placed nowhere: it would have gone to "
                           f"the box")


def keepable(state: State) -> list[str]:
    """C3.3-C3.4: the crooks of the recruited pile the recruiter may keep."""
    assert state.turn is not None
    pile = state.hangouts[state.turn.hangout]
    allowed = [c for c in pile if len(pile) == 1 or state.deck[c].special != "kingpin"]
    placeable = [c for c in allowed if placements(state, state.seat, c, state.cash[state.seat])]
    return sorted(placeable or allowed)


def legal(state: State) -> list[Key]:
    """The keys of every legal action of the seat to move, in a fixed order."""
    seat, step, turn = state.seat, state.step, state.turn
    if step == "over":
        return []
    if step == "start":
        recruits: list[Key] = [("recruit", h) for h, pile in state.hangouts.items()
                               if pile and len(pile) <= state.cash[seat]]
        return [*recruits, ("pass",)]  # C2.1, C2.3
    assert turn is not None
    if step == "keep":
        return [("keep", c) for c in keepable(state)]
    if step == "place":
        assert turn.hand is not None
        return placements(state, seat, turn.hand, state.cash[seat])
    assert turn.target is not None
    if step == "switch":
        return [("switch", t) for t in _free_targets(state, seat, turn.target)]
    if step == "kill":
        return [("kill", s) for s in _kill_choices(state, seat, turn.target, placed=True)]
    return _spy_choices(state, seat)


def explain(state: State, action: Any) -> str | None:
    """None if ``action`` is legal now, else why not, naming the ruling."""
    try:
        key = parse(action)
    except IllegalAction as err:
        return str(err)
    if key in legal(state):
        return None
    return _diagnose(state, key)


def _diagnose(state: State, key: Key) -> str:
    seat, step, turn, kind = state.seat, state.step, state.turn, key[0]
    if step == "over":
        return "C2.2: every seat has passed; the game is over"
    expected = {"start": ("recruit", "pass"), "keep": ("keep",), "place": ("place",),
                "switch": ("switch",), "kill": ("kill",), "spy": ("spy",)}[step]
    if kind not in expected:
        if kind == "pass":
            return "C2.1: a pass is legal only at a turn's start; this turn has recruited"
        if step == "start":
            return "C2.1: a turn starts with a recruit or a pass"
        wanted = {"keep": "C3.2: keep one crook of the pile you paid for",
                  "place": "C4.1: place the crook you kept",
                  "switch": "C4.5: choose where your crooks move (switch.to)",
                  "kill": "C4.6: choose whose crooks the Killer removes (kill.seat)",
                  "spy": "C4.8: choose what the Spy looks at (a target or a hangout)"}
        return f"{wanted[step]}; a {kind} is not legal now"
    if kind == "recruit":
        h = key[1]
        if h not in state.hangouts:
            return (f"C1.1: there is no hangout {h!r} with {state.num_players} players; they are "
                    f"{', '.join(state.hangouts)}")[:200]
        size = len(state.hangouts[h])
        if not size:
            return f"C3.1: hangout {h} is empty, closed for the rest of the game"
        return (f"C3.1: hangout {h} holds {size} crooks (${size}); seat {seat} has "
                f"${state.cash[seat]}")
    assert turn is not None
    if kind == "keep":
        c = key[1]
        pile = state.hangouts[turn.hangout]
        if c not in pile:
            return f"C3.2: {c!r} is not in hangout {turn.hangout}, the pile you recruited"[:200]
        if state.deck[c].special == "kingpin" and len(pile) > 1:
            return "C3.3: the Kingpin may be kept only when it is the only crook in its hangout"
        return ("C3.4: you must keep a crook that can be placed, and this pile holds one "
                f"({', '.join(keepable(state))})")
    if kind == "place":
        return _why_not_place(state, key)
    assert turn.target is not None
    if kind == "switch":
        to = key[1]
        if to not in TARGETS:
            return f"C4.5: targets are 2 to 9, not {to}"
        if to == turn.target:
            return "C4.5: your crooks move to another target than the Switch's"
        return f"C4.5: your crooks move only to a target where you have none; you have some at {to}"
    if kind == "kill":
        victim = key[1]
        if state.rows[seat][turn.target][:-1]:
            return (f"C4.6: you have crooks at target {turn.target}: the Killer may go there only "
                    f"by removing your own (kill seat {seat})")
        if victim == seat:
            return (f"C4.6: you had no crooks at target {turn.target}: the Killer picks another "
                    f"seat there (or is placed with effect false)")
        return f"C4.6: seat {victim} has no crooks at target {turn.target}"
    if key[1] == "target":
        return (f"C4.8: a Spy looks at a target holding another seat's face-down crook; "
                f"target {key[2]} holds none")
    if key[2] not in state.hangouts:
        return f"C4.8: there is no hangout {key[2]!r} in this game"[:200]
    return f"C4.8: hangout {key[2]} is empty: nothing to look at"


def _why_not_place(state: State, key: Key) -> str:
    seat, turn = state.seat, state.turn
    assert turn is not None and turn.hand is not None
    _, target, face, effect = key
    crook = state.deck[turn.hand]
    special = crook.special
    if target not in TARGETS:
        return f"C4.1: the targets are 2 to 9, not {target}"
    mine = bool(state.rows[seat][target])
    if special == "kingpin":
        if face == "down":
            return "C4.3: the Kingpin must be placed face up"
        if not effect:
            return "C4.3: the Kingpin's special cannot be declined (effect is true)"
    if face == "down":
        if effect:
            return "C4.3: a special acts only face up; face down the crook is plain (effect false)"
        if mine:
            return (f"C4.4: face down, every crook needs a target of its own; you have crooks at "
                    f"{target}")
        if state.cash[seat] < FACE_DOWN_COST:
            return "C4.1: face down costs $1 more, and you have $0 left"
    if effect and special is None:
        return f"C4.3: {crook.id} has no special: place it with effect false"
    if effect:
        if special == "pickpocket" or special == "spy" or special == "kingpin":
            if mine:
                return f"C4.2: you already have a crook at target {target}"
            return "C4.3: the Spy can look at nothing now: no other seat's face-down crook, no " \
                   "crook left in a hangout"
        if special == "accomplice":
            return (f"C4.3: an Accomplice's effect is joining your crooks; you have none at "
                    f"{target} (place it with effect false)")
        if special == "switch":
            if not mine:
                return (f"C4.3: a Switch's effect needs your crooks at the target; you have none "
                        f"at {target} (place it with effect false)")
            return ("C4.5: your crooks there would have nowhere to go: you have crooks at every "
                    "other target")
        return f"C4.6: nobody has crooks at target {target}: the Killer has no one to kill"
    if mine:
        if special == "killer":
            return (f"C4.6: you have crooks at target {target}: a face-up Killer goes there only "
                    f"by killing them (effect true)")
        extra = {"accomplice": " (an Accomplice joins them face up, effect true)",
                 "switch": " (a Switch goes there face up, effect true)"}.get(special or "", "")
        return f"C4.2: you already have a crook at target {target}{extra}"
    return "C4.1: this placement is not legal"


# --- playing ----------------------------------------------------------------------------
def apply(state: State, key: Key, events: list[Event]) -> None:
    """Play the legal ``key`` for the seat to move, appending its events."""
    seat, kind = state.seat, key[0]
    if kind == "pass":
        state.passed[seat] = True  # C2.1: final
        events.append({"type": "pass", "seat": seat})
        _end_turn(state, events)
    elif kind == "recruit":
        h = key[1]
        pile = state.hangouts[h]
        state.cash[seat] -= len(pile)  # C3.1: $1 a card, to the bank
        state.paid[seat] += len(pile)
        state.turn = Turn(h, sorted(pile))
        state.piles_known[seat].add(h)  # C7.1: the recruiter saw the whole pile
        state.step = "keep"
        events.append({"type": "recruit", "seat": seat, "hangout": h, "price": len(pile),
                       "cash": state.cash[seat], "cards": secret(sorted(pile), [seat])})
    elif kind == "keep":
        _keep(state, key[1], events)
    elif kind == "place":
        _place(state, key, events)
    elif kind == "switch":
        turn = state.turn
        assert turn is not None and turn.target is not None
        stack = state.rows[seat][turn.target]
        moved, state.rows[seat][turn.target] = stack[:-1], stack[-1:]
        state.rows[seat][key[1]] = moved  # C4.5: together, faces kept, nothing triggers
        events.append({"type": "switch", "seat": seat, "from": turn.target, "to": key[1],
                       "crooks": [_shown(state, p, seat) for p in moved]})
        _end_turn(state, events)
    elif kind == "kill":
        _kill(state, key[1], events)
    elif kind == "spy":
        _spy(state, key, events)


def _shown(state: State, p: Placed, owner: int) -> dict[str, Any]:
    """A placed crook in an event: its id for all if face up, else for those who know it."""
    if p.up:
        return {"face": "up", "crook": p.crook}
    knowers = [owner, *(s for s in range(state.num_players) if p.crook in state.known[s])]
    return {"face": "down", "crook": secret(p.crook, knowers)}


def _keep(state: State, crook: str, events: list[Event]) -> None:
    seat, turn = state.seat, state.turn
    assert turn is not None
    pile = state.hangouts[turn.hangout]
    alone = len(pile) == 1
    pile.remove(crook)
    turn.hand = crook
    for t in range(state.num_players):
        if t != seat and turn.hangout in state.piles_known[t]:
            if alone:
                turn.hand_known.append(t)  # C7.2: the one case of counting
            else:
                # C7.2: exact again only if the kept crook is then seen (placed face up).
                state.piles_known[t].discard(turn.hangout)
                turn.watchers.append(t)
    can_place = bool(placements(state, seat, crook, state.cash[seat]))
    event: Event = {"type": "keep", "seat": seat, "hangout": turn.hangout,
                    "crook": secret(crook, [seat, *turn.hand_known]), "placeable": can_place}
    events.append(event)
    if can_place:
        state.step = "place"
        return
    # C3.4: nowhere to go: to the box face down, the money stays paid, the turn ends.
    state.box.append(crook)
    event["to_box"] = True
    _end_turn(state, events)


def _place(state: State, key: Key, events: list[Event]) -> None:
    seat, turn = state.seat, state.turn
    assert turn is not None and turn.hand is not None
    _, target, face, effect = key
    crook = turn.hand
    up = face == "up"
    if not up:
        state.cash[seat] -= FACE_DOWN_COST  # C4.1
        state.paid[seat] += FACE_DOWN_COST
        for t in turn.hand_known:
            state.known[t].add(crook)  # C7.2: knowledge follows the card
    else:
        for t in turn.watchers:
            state.piles_known[t].add(turn.hangout)  # C7.2: every card that left was seen
    state.rows[seat][target].append(Placed(crook, up))
    special = state.deck[crook].special
    events.append({"type": "place", "seat": seat, "target": target, "face": face,
                   "crook": crook if up else secret(crook, [seat, *turn.hand_known]),
                   "effect": effect, "cost": 0 if up else FACE_DOWN_COST,
                   "cash": state.cash[seat]})
    turn.target = target
    if effect and special == "pickpocket":
        state.cash[seat] += PICKPOCKET_GAIN  # C4.4, C5.1: the bank never runs short
        state.gained[seat] += PICKPOCKET_GAIN
        events.append({"type": "pickpocket", "seat": seat, "gain": PICKPOCKET_GAIN,
                       "cash": state.cash[seat]})
    if effect and special in FOLLOW_UPS:
        state.step = FOLLOW_UPS[special]
        return
    _end_turn(state, events)


def _kill(state: State, victim: int, events: list[Event]) -> None:
    seat, turn = state.seat, state.turn
    assert turn is not None and turn.target is not None
    stack = state.rows[victim][turn.target]
    dead, keep = (stack[:-1], stack[-1:]) if victim == seat else (stack, [])
    shown = [_shown(state, p, victim) for p in dead]
    state.rows[victim][turn.target] = keep
    for p in dead:
        state.box.append(p.crook)  # C4.7: face down, not revealed
        for k in state.known:
            k.discard(p.crook)
    events.append({"type": "kill", "seat": seat, "target": turn.target, "victim": victim,
                   "count": len(dead), "crooks": shown})
    _end_turn(state, events)


def _spy(state: State, key: Key, events: list[Event]) -> None:
    seat = state.seat
    if key[1] == "target":
        target = key[2]
        seen = [(s, p.crook) for s, p in state.at(target) if not p.up]
        state.known[seat].update(c for s, c in seen if s != seat)  # C4.8
        events.append({"type": "spy", "seat": seat, "target": target,
                       "crooks": secret([{"seat": s, "crook": c} for s, c in seen], [seat])})
    else:
        h = key[2]
        state.piles_known[seat].add(h)
        events.append({"type": "spy", "seat": seat, "hangout": h,
                       "cards": secret(sorted(state.hangouts[h]), [seat])})
    _end_turn(state, events)


def _end_turn(state: State, events: list[Event]) -> None:
    state.turn = None
    n = state.num_players
    for step in range(1, n + 1):  # C2.2: clockwise among those who have not passed
        nxt = (state.seat + step) % n
        if not state.passed[nxt]:
            state.seat = nxt
            state.step = "start"
            return
    _finish(state, events)


def _finish(state: State, events: list[Event]) -> None:
    """C6.1: every crook at a target turns face up; then the scoring."""
    revealed = []
    for t in TARGETS:
        for s, row in enumerate(state.rows):
            for k, p in enumerate(row[t]):
                if not p.up:
                    revealed.append({"target": t, "seat": s, "crook": p.crook})
                    row[t][k] = Placed(p.crook, True)
    state.step = "over"
    state.turn = None
    for knows in state.known:
        knows.clear()  # C6.1: nothing is face down any more, every seat sees every target
    events.append({"type": "reveal", "crooks": revealed})
    events.append({"type": "over", "standings": standings(state), "winners": winners(state)})


# --- scoring ----------------------------------------------------------------------------
def worth(state: State, target: int) -> int:
    """C6.2: printed value plus every modifier there, any owner, either face; at least 0."""
    return max(0, target + sum(state.deck[p.crook].modifier for _, p in state.at(target)))


def standings(state: State) -> list[dict[str, Any]]:
    """Each seat's score by source (C6.2-C6.4), in the protocol's rows: ``sources`` splits it
    between ``targets`` and ``gangs`` (adding up to ``score``), ``by_target`` and ``by_gang``
    break those down, ``cash`` breaks ties (C6.5).

    Counted from every crook at a target whatever its face, so only the end may show it
    (``Game.standings`` is [] before): earlier it would reveal face-down crooks.
    """
    n = state.num_players
    by_target: list[dict[str, int]] = [{str(t): 0 for t in TARGETS} for _ in range(n)]
    by_gang: list[dict[str, int]] = [dict.fromkeys(GANGS, 0) for _ in range(n)]
    for t in TARGETS:
        strength = [sum(state.deck[p.crook].rank for p in state.rows[s][t]) for s in range(n)]
        present = [s for s in range(n) if state.rows[s][t]]
        if not present:
            continue  # C6.3: an empty target pays nobody
        best = max(strength[s] for s in present)
        top = [s for s in present if strength[s] == best]
        share = worth(state, t) // len(top)  # C6.3: shared, rounded down
        for s in top:
            by_target[s][str(t)] = share
    for gang in GANGS:
        counts = [sum(gang in state.deck[p.crook].gangs for st in state.rows[s].values()
                      for p in st) for s in range(n)]
        best = max(counts)
        if best >= 1 and counts.count(best) == 1:  # C6.4: a tie gives nobody anything
            by_gang[counts.index(best)][gang] = GANG_POINTS[n]
    rows = []
    for s in range(n):
        sources = {"targets": sum(by_target[s].values()), "gangs": sum(by_gang[s].values())}
        rows.append({"seat": s, "score": sum(sources.values()), "sources": sources,
                     "name": state.names[s], "cash": state.cash[s],
                     "by_target": by_target[s], "by_gang": by_gang[s]})
    return rows


def winners(state: State) -> list[int]:
    """C6.5: most points, then most cash; seats still tied all win. [] until over."""
    if state.step != "over":
        return []
    table = standings(state)
    best = max((r["score"], r["cash"]) for r in table)
    return [r["seat"] for r in table if (r["score"], r["cash"]) == best]
