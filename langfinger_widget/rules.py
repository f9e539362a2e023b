"""The rules of Langfinger: setup, legal actions, applying them, scoring.

This is the only module that decides a rule; each function cites the
ruling it implements (``../shared/RULINGS.md``). Actions travel as dicts
(DESIGN.md) and are turned into hashable *keys* here, so that legality is a
set membership test:

=================  ==============================================
action type        key
=================  ==============================================
``place``          ``("place", place)``
``take_tools``     ``("take_tools", tools)``
``steal``          ``("steal", slot, pay, scoundrel)``
``exchange``       ``("exchange", rate, give)``
``sell``           ``("sell", fence, loot)``
``pass``           ``("pass",)``
=================  ==============================================

Tool lists in keys are sorted in ``TOOLS`` order and loot lists by id, so
that two orderings of the same cards are the same action.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Any

from . import cards
from .cards import PLACES, RATE_COUNTS, RUIN_RATES, SQUARES_PER_PLACE, TOOLS
from .errors import IllegalAction
from .state import MAX_NUMBER, Player, State, shown

Key = tuple[Any, ...]
Event = dict[str, Any]
PASS: Key = ("pass",)
TOOL_ORDER = {t: i for i, t in enumerate(TOOLS)}
PLACE_NAMES = {p: p.capitalize() for p in PLACES}
ACT_TYPES = {
    "city": "take_tools", "villa": "steal", "ruin": "exchange", "museum": "steal",
    "harbor": "sell",
}
ACT_TEXT = {
    "city": "take tools (R4)", "villa": "take loot (R5.1)", "ruin": "exchange tools (R6.1)",
    "museum": "take loot (R7)", "harbor": "sell loot (R8.1)",
}


def tool_sort(tools: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(tools, key=TOOL_ORDER.__getitem__))


# --- setup -----------------------------------------------------------------------------


def setup(
    players: int, seed: int, names: Sequence[str] | None = None,
    scoundrels: Sequence[str] | None = None, start_player: int | None = None,
    variant: str = "standard",
) -> tuple[State, list[Event]]:
    """Deal a new game (R1.0-R1.4); bad arguments raise ``ValueError``.

    ``start_player=None`` draws the start player from the seed (R1.0).
    """
    _check_players(players)  # first: the default scoundrels below depend on it
    scoundrels = list(scoundrels or list(cards.SCOUNDRELS)[:players])
    _check_setup(players, seed, names, scoundrels, start_player, variant)
    if start_player is None:
        start_player = draw_start_player(seed, players)
    names = list(names or [cards.SCOUNDRELS[s].name.split()[0] for s in scoundrels])
    state = State(players=[Player(n, s) for n, s in zip(names, scoundrels, strict=True)], seed=seed,
                  variant=variant, start_player=start_player)
    for pile, deck in (("tools", [t for t in TOOLS for _ in range(cards.TOOLS_PER_TYPE)]),
                       ("loot", sorted(cards.LOOT_CARDS)), ("fences", sorted(cards.FENCE_CARDS))):
        state.shuffle(deck)
        state.piles[pile].draw = deck
    events: list[Event] = []
    for offset in range(players):
        seat = (start_player + offset) % players
        size = cards.STARTING_HANDS[offset] if offset < 2 else cards.OTHER_STARTING_HAND
        drawn = draw(state, "tools", size, events)
        _gain_tools(state.players[seat], drawn, seen=False)
        events.append({"type": "deal", "seat": seat, "tools": drawn, "count": len(drawn)})
    refill(state, events)
    state.money_by_round = [[0] * players]
    return state, events


def draw_start_player(seed: int, players: int) -> int:
    """R1.0: the start player drawn from the seed (the same seed, the same start player).

    Its own generator, apart from the shuffles (``State.shuffle``): the decks of a
    seed are the same whoever starts.
    """
    return random.Random(f"langfinger:{seed}:start_player").randrange(players)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_players(players: int) -> None:
    if not _whole(players) or not cards.MIN_PLAYERS <= players <= cards.MAX_PLAYERS:
        raise ValueError(f"R1.1: Langfinger is for 2-5 players, not {players!r}")


def _check_setup(players: int, seed: int, names: Sequence[str] | None,
                 scoundrels: list[str], start_player: int | None, variant: str) -> None:
    if not _whole(seed) or not 0 <= seed <= MAX_NUMBER:
        raise ValueError(f"seed must be a whole number from 0 to {MAX_NUMBER}, not {shown(seed)}")
    if len(scoundrels) != players or len(set(scoundrels)) != players or any(
            s not in cards.SCOUNDRELS for s in scoundrels):
        raise ValueError(f"R0.5: choose {players} different scoundrels from "
                         f"{list(cards.SCOUNDRELS)}, not {scoundrels!r}")
    if names is not None and (len(names) != players or not all(isinstance(n, str) for n in names)):
        raise ValueError(f"names must give {players} names, not {names!r}")
    if start_player is not None and (not _whole(start_player) or not 0 <= start_player < players):
        raise ValueError(f"R1.0: start_player is a seat from 0 to {players - 1} (or None: drawn "
                         f"from the seed), not {start_player!r}")
    if variant not in ("standard", "open_info"):
        raise ValueError(f"R11: variant is 'standard' or 'open_info', not {variant!r}")


# --- drawing and refilling (R9) -------------------------------------------------------------


def draw(state: State, pile_name: str, count: int, events: list[Event]) -> list[str]:
    """Draw up to ``count`` cards; an empty draw pile takes its shuffled discard (R9.2)."""
    pile = state.piles[pile_name]
    drawn: list[str] = []
    while len(drawn) < count:
        if not pile.draw:
            if not pile.discard:
                break  # R9.2: both empty: drawing stops short
            pile.draw, pile.discard = pile.discard, []
            state.shuffle(pile.draw)
            events.append({"type": "reshuffle", "pile": pile_name, "size": len(pile.draw)})
        take = min(count - len(drawn), len(pile.draw))
        drawn.extend(pile.draw[:take])
        del pile.draw[:take]
    return drawn


def refill(state: State, events: list[Event]) -> None:
    """Fill every display back up to its size (R9.1); leftover cards stay."""
    for place, pile in (("city", "tools"), ("villa", "loot"), ("museum", "loot"),
                        ("harbor", "fences")):
        display = state.display(place)
        missing = cards.display_size(place, state.num_players) - len(display)
        if missing > 0:
            new = draw(state, pile, missing, events)
            display.extend(new)
            if new:
                events.append({"type": "refill", "place": place, "cards": _faces(place, new)})


def _faces(place: str, new: list[str]) -> list[Any]:
    if place == "city":
        return list(new)
    if place == "harbor":
        return [cards.FENCE_CARDS[i].face() for i in new]
    return [cards.LOOT_CARDS[i].face() for i in new]


def _gain_tools(player: Player, tools: Sequence[str], seen: bool) -> None:
    for t in tools:
        player.hand[t] += 1
        if seen:
            player.known[t] += 1


def _spend_tools(state: State, player: Player, tools: Sequence[str]) -> None:
    """Discard tools from hand, face up (R5.1, R6.1); what was known shrinks with them."""
    for t in tools:
        player.hand[t] -= 1
        if player.known[t]:
            player.known[t] -= 1  # R11.2: a public tool that leaves is no longer known to remain
    state.piles["tools"].discard.extend(tools)


# --- whose decision -------------------------------------------------------------------------


def acting_square(state: State) -> tuple[str, int, int] | None:
    """(place, square, seat) of the token that acts now (R3.1), or None."""
    for place in PLACES:
        for i, seat in enumerate(state.squares[place]):
            if seat is not None:
                return place, i, seat
    return None


def placing_seat(state: State) -> int:
    """R2.1: clockwise from the start player, one token a turn, until all are placed."""
    n = state.num_players
    order = [(state.start_player + k) % n for k in range(n)]
    most = max(state.players[s].tokens for s in order)
    return next(s for s in order if state.players[s].tokens == most)


def to_move(state: State) -> int | None:
    if state.phase == "place":
        return placing_seat(state)
    if state.phase == "act":
        acting = acting_square(state)
        return None if acting is None else acting[2]
    return None


# --- legal actions --------------------------------------------------------------------------


def legal_keys(state: State) -> list[Key]:
    """Every legal action of the seat to move, as keys, without duplicates; pass last."""
    if state.phase == "place":
        return [("place", p) for p in PLACES if None in state.squares[p]]
    acting = acting_square(state)
    if state.phase != "act" or acting is None:
        return []
    place, _, seat = acting
    return [*_GENERATORS[place](state, seat, place), PASS]


def _city_keys(state: State, seat: int, place: str) -> list[Key]:
    """R4: any 2 of the face-up tools, or the last one left."""
    take = min(2, len(state.city))
    if take == 0:
        return []
    return [("take_tools", c) for c in sorted(set(combinations(tool_sort(state.city), take)))]


def _covers(hand: dict[str, int], need: Counter[str]) -> bool:
    return all(hand[t] >= n for t, n in need.items())


def _steal_keys(state: State, seat: int, place: str) -> list[Key]:
    """R5.1/R5.2/R7: pay every pictured tool, the scoundrel covering at most one of its type."""
    player = state.players[seat]
    may_use_scoundrel = seat not in state.scoundrel_used[place]
    keys: list[Key] = []
    for slot, loot_id in enumerate(state.display(place)):
        pictured = cards.LOOT_CARDS[loot_id].tools
        need = Counter(pictured)
        if _covers(player.hand, need):
            keys.append(("steal", slot, tool_sort(pictured), False))
        if may_use_scoundrel and player.tool in need:
            need[player.tool] -= 1
            if _covers(player.hand, need):
                keys.append(("steal", slot, tool_sort(list(need.elements())), True))
    return keys


@cache
def _givable(capped_hand: tuple[int, ...], size: int) -> tuple[tuple[str, ...], ...]:
    """Every multiset of ``size`` tools a hand can give, in ``TOOLS`` order.

    ``capped_hand`` counts each tool type, capped at 3 (no square takes more), so
    there are few distinct arguments and the cache makes the Ruin cheap to list.
    """
    return tuple(combo for combo in combinations_with_replacement(TOOLS, size)
                 if all(combo.count(t) <= n for t, n in zip(TOOLS, capped_hand, strict=True)))


def _exchange_keys(state: State, seat: int, place: str) -> list[Key]:
    """R6.1: a free exchange square, and any cards from hand that it takes."""
    hand = state.players[seat].hand
    capped = tuple(min(hand[t], 3) for t in TOOLS)
    keys: list[Key] = []
    for rate in RUIN_RATES:
        if state.ruin_rates[rate] is not None:
            continue  # R6.2: closed until the Ruin's actions are done
        keys.extend(("exchange", rate, combo) for combo in _givable(capped, RATE_COUNTS[rate][0]))
    return keys


def _sell_keys(state: State, seat: int, place: str) -> list[Key]:
    """R8.1/R8.2: one kind to one fence; two cards only where the fence shows it twice."""
    by_kind: dict[str, list[str]] = {}
    for loot_id in sorted(state.players[seat].loot):
        by_kind.setdefault(cards.LOOT_CARDS[loot_id].kind, []).append(loot_id)
    keys: list[Key] = []
    for fence_id in state.harbor:
        for kind, (count, _) in cards.FENCE_CARDS[fence_id].buys.items():
            held = by_kind.get(kind, [])
            for size in range(1, min(count, len(held)) + 1):
                keys.extend(("sell", fence_id, c) for c in combinations(held, size))
    return keys


_GENERATORS: dict[str, Callable[[State, int, str], list[Key]]] = {
    "city": _city_keys, "villa": _steal_keys, "ruin": _exchange_keys,
    "museum": _steal_keys, "harbor": _sell_keys,
}


# --- actions as dicts <-> keys --------------------------------------------------------------

_FIELDS: dict[str, tuple[set[str], set[str]]] = {  # type -> (required, optional)
    "place": ({"place"}, set()),
    "take_tools": ({"tools"}, set()),
    "steal": ({"slot", "pay"}, {"scoundrel"}),
    "exchange": ({"rate", "give"}, set()),
    "sell": ({"fence", "loot"}, set()),
    "pass": (set(), set()),
}


def _malformed(why: str) -> IllegalAction:
    return IllegalAction(f"not an action: {why}")


def _str_list(action: dict[str, Any], field: str) -> list[str]:
    value = action[field]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _malformed(f"{field!r} must be a list of names, not {value!r}")
    return value


def _tools_field(action: dict[str, Any], field: str) -> tuple[str, ...]:
    tools = _str_list(action, field)
    unknown = [t for t in tools if t not in TOOL_ORDER]
    if unknown:
        raise _malformed(f"unknown tool(s) {unknown} in {field!r}; tools are {list(TOOLS)}")
    return tool_sort(tools)


def action_key(action: Any) -> Key:
    """Check an action's shape and turn it into its key; raise IllegalAction if malformed."""
    if not isinstance(action, dict):
        raise _malformed(f"expected a dict with a 'type', got {type(action).__name__}")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise _malformed(f"unknown type {kind!r}; types are {list(_FIELDS)}")
    required, optional = _FIELDS[kind]
    given = set(action) - {"type"}
    if not required <= given or not given <= required | optional:
        raise _malformed(f"{kind!r} takes fields {sorted(required | optional)}, "
                         f"got {sorted(given)}")
    return _KEY_MAKERS[kind](action)


def _place_key(a: dict[str, Any]) -> Key:
    if a["place"] not in PLACES:
        raise _malformed(f"unknown place {a['place']!r}; places are {list(PLACES)}")
    return ("place", a["place"])


def _steal_key(a: dict[str, Any]) -> Key:
    slot, scoundrel = a["slot"], a.get("scoundrel", False)
    if not isinstance(slot, int) or isinstance(slot, bool):
        raise _malformed(f"'slot' must be a whole number, not {slot!r}")
    if not isinstance(scoundrel, bool):
        raise _malformed(f"'scoundrel' must be true or false, not {scoundrel!r}")
    return ("steal", slot, _tools_field(a, "pay"), scoundrel)


def _exchange_key(a: dict[str, Any]) -> Key:
    if not isinstance(a["rate"], str):
        raise _malformed(f"'rate' must be one of {list(RUIN_RATES)}, not {a['rate']!r}")
    return ("exchange", a["rate"], _tools_field(a, "give"))


def _sell_key(a: dict[str, Any]) -> Key:
    if not isinstance(a["fence"], str):
        raise _malformed(f"'fence' must be a fence id, not {a['fence']!r}")
    return ("sell", a["fence"], tuple(sorted(_str_list(a, "loot"))))


_KEY_MAKERS: dict[str, Callable[[dict[str, Any]], Key]] = {
    "place": _place_key,
    "take_tools": lambda a: ("take_tools", _tools_field(a, "tools")),
    "steal": _steal_key,
    "exchange": _exchange_key,
    "sell": _sell_key,
    "pass": lambda a: PASS,
}


def key_action(key: Key) -> dict[str, Any]:
    """The action dict (JSON-ready) for a key."""
    kind = key[0]
    if kind == "place":
        return {"type": "place", "place": key[1]}
    if kind == "take_tools":
        return {"type": "take_tools", "tools": list(key[1])}
    if kind == "steal":
        return {"type": "steal", "slot": key[1], "pay": list(key[2]), "scoundrel": key[3]}
    if kind == "exchange":
        return {"type": "exchange", "rate": key[1], "give": list(key[2])}
    if kind == "sell":
        return {"type": "sell", "fence": key[1], "loot": list(key[2])}
    return {"type": "pass"}


# --- applying an action ---------------------------------------------------------------------


def apply(state: State, key: Key) -> list[Event]:
    """Play a legal action (a key from ``legal_keys``) and return what happened."""
    events: list[Event] = []
    if state.phase == "place":
        _place(state, key[1], events)
        return events
    acting = acting_square(state)
    assert acting is not None, "apply() is only called with a legal key"
    place, square, seat = acting
    info = {"seat": seat, "place": place, "square": square}
    kind = key[0]
    if kind == "pass":
        events.append({"type": "pass", **info})
    elif kind == "take_tools":
        _take_tools(state, seat, key[1], info, events)
    elif kind == "steal":
        _steal(state, seat, place, key, info, events)
    elif kind == "exchange":
        _exchange(state, seat, key, info, events)
    else:
        _sell(state, seat, key, info, events)
    _token_done(state, place, square, seat, kind == "exchange", events)
    return events


def _place(state: State, place: str, events: list[Event]) -> None:
    """R2.1/R2.2: one token on the lowest free square of the chosen place."""
    seat = placing_seat(state)
    row = state.squares[place]
    square = row.index(None)
    row[square] = seat
    state.players[seat].tokens -= 1
    events.append({"type": "place", "seat": seat, "place": place, "square": square})
    if not any(p.tokens for p in state.players):
        state.phase = "act"
        events.append({"type": "actions_begin", "round": state.round})


def _take_tools(state: State, seat: int, tools: tuple[str, ...], info: Event,
                events: list[Event]) -> None:
    for t in tools:  # R4
        state.city.remove(t)
    _gain_tools(state.players[seat], tools, seen=True)  # R11.2: taken face up
    events.append({"type": "take_tools", **info, "tools": list(tools)})


def _steal(state: State, seat: int, place: str, key: Key, info: Event,
           events: list[Event]) -> None:
    _, slot, pay, scoundrel = key
    player = state.players[seat]
    loot_id = state.display(place).pop(slot)
    _spend_tools(state, player, pay)
    if scoundrel:
        state.scoundrel_used[place].append(seat)  # R5.2: once per place per round
    card = cards.LOOT_CARDS[loot_id]
    events.append({"type": "steal", **info, "slot": slot, "loot": card.face(),
                   "paid": list(pay), "scoundrel": scoundrel})
    if card.protection == "chest":  # R5.3: cashed at once, face up
        player.money += card.value
        state.piles["loot"].discard.append(loot_id)
        events.append({"type": "cash", "seat": seat, "loot": card.face(),
                       "gained": card.value, "money": player.money})
    else:
        player.loot.append(loot_id)


def _exchange(state: State, seat: int, key: Key, info: Event, events: list[Event]) -> None:
    _, rate, give = key
    player = state.players[seat]
    _spend_tools(state, player, give)  # R6.1: discard first, then draw
    drawn = draw(state, "tools", RATE_COUNTS[rate][1], events)
    _gain_tools(player, drawn, seen=False)  # R11.2: drawn blind
    state.ruin_rates[rate] = seat
    events.append({"type": "exchange", **info, "rate": rate, "gave": list(give),
                   "drew": drawn, "count": len(drawn)})


def _sell(state: State, seat: int, key: Key, info: Event, events: list[Event]) -> None:
    _, fence_id, loot_ids = key
    player = state.players[seat]
    fence = cards.FENCE_CARDS[fence_id]
    sold = [cards.LOOT_CARDS[i] for i in loot_ids]
    bonus = fence.buys[sold[0].kind][1]
    gained = sum(c.value + bonus for c in sold)  # R8.1/R8.2: value plus bonus, each card
    for loot_id in loot_ids:
        player.loot.remove(loot_id)
    player.money += gained
    state.piles["loot"].discard.extend(loot_ids)
    state.harbor.remove(fence_id)
    state.piles["fences"].discard.append(fence_id)  # R8.3: even if half of it went unused
    events.append({"type": "sell", **info, "fence": fence_id, "loot": [c.face() for c in sold],
                   "gained": gained, "money": player.money})


def _token_done(state: State, place: str, square: int, seat: int, on_rate: bool,
                events: list[Event]) -> None:
    """R3.1: the token leaves its square; at the Ruin an exchange keeps it out (R6.2)."""
    state.squares[place][square] = None
    if not on_rate:
        state.players[seat].tokens += 1
    if place == "ruin" and not any(s is not None for s in state.squares["ruin"]):
        _reopen_ruin(state, events)
    if acting_square(state) is None:
        _end_round(state, events)


def _reopen_ruin(state: State, events: list[Event]) -> None:
    """R6.2: once every Ruin action is done, the exchange tokens return."""
    seats = [s for s in state.ruin_rates.values() if s is not None]
    if not seats:
        return
    for s in seats:
        state.players[s].tokens += 1
    state.ruin_rates = dict.fromkeys(RUIN_RATES)
    events.append({"type": "ruin_reopens", "seats": seats})


def _end_round(state: State, events: list[Event]) -> None:
    """Phase C (R9) or the end of the game (R10.1)."""
    money = [p.money for p in state.players]
    state.money_by_round.append(money)
    if max(money) >= cards.WINNING_MONEY:
        state.phase = "over"
        events.append({"type": "game_over", "money": money, "winners": winners(state)})
        return
    refill(state, events)
    state.start_player = (state.start_player + 1) % state.num_players  # R9.3
    state.round += 1
    state.phase = "place"
    state.scoundrel_used = {p: [] for p in state.scoundrel_used}
    events.append({"type": "start_player", "seat": state.start_player, "round": state.round})


def winners(state: State) -> list[int]:
    """R10.2: every seat tied for the most money; [] until the game is over."""
    if state.phase != "over":
        return []
    best = max(p.money for p in state.players)
    return [i for i, p in enumerate(state.players) if p.money == best]


# --- explaining why an action is illegal ----------------------------------------------------


def explain(state: State, action: Any) -> str | None:
    """None if ``action`` is legal now, else why not, naming the ruling."""
    try:
        key = action_key(action)
    except IllegalAction as e:
        return str(e)
    if key in legal_keys(state):
        return None
    if state.phase == "over":
        return "R10.1: the game is over; no more actions"
    if state.phase == "place":
        return _explain_place(state, key)
    acting = acting_square(state)
    assert acting is not None
    place, square, seat = acting
    expected = ACT_TYPES[place]
    if key[0] == "place":
        return f"R2.1: all tokens are placed; now the {PLACE_NAMES[place]} acts"
    if key[0] != expected:
        return (f"R3.1: the token on square {square + 1} of the {PLACE_NAMES[place]} acts now: "
                f"{ACT_TEXT[place]} or pass")
    return _EXPLAINERS[expected](state, seat, place, key)


def _explain_place(state: State, key: Key) -> str:
    if key[0] != "place":
        return "R2.1: tokens are being placed; every token must be placed, there is no passing"
    return f"R2.2: the {PLACE_NAMES[key[1]]} is full ({SQUARES_PER_PLACE} tokens)"


def _missing_from_hand(hand: dict[str, int], tools: Sequence[str]) -> tuple[str, ...]:
    short: Counter[str] = Counter(tools) - Counter(hand)
    return tool_sort(list(short.elements()))


def _explain_city(state: State, seat: int, place: str, key: Key) -> str:
    take = min(2, len(state.city))
    if take == 0:  # even taking nothing is no City action: only pass is left
        return "R4: the City is empty; only pass is possible"
    if len(key[1]) != take:
        return f"R4: take {take} of the City's tools"
    wanted: Counter[str] = Counter(key[1])
    short = wanted - Counter(state.city)
    return f"R4: the City does not show {', '.join(short.elements())}"


def _explain_steal(state: State, seat: int, place: str, key: Key) -> str:
    _, slot, pay, scoundrel = key
    display, player = state.display(place), state.players[seat]
    rule = "R7" if place == "museum" else "R5.1"
    if not 0 <= slot < len(display):
        return f"{rule}: the {PLACE_NAMES[place]} has no loot in slot {slot}"
    pictured = cards.LOOT_CARDS[display[slot]].tools
    need = Counter(pictured)
    if scoundrel:
        if seat in state.scoundrel_used[place]:
            return (f"R5.2: {player.name}'s scoundrel was already used at the "
                    f"{PLACE_NAMES[place]} this round")
        if player.tool not in need:
            return f"R5.2: this loot pictures no {player.tool} for the scoundrel to stand in for"
        need[player.tool] -= 1
    if Counter(pay) != +need:
        covered = f" (the scoundrel covering one {player.tool}, R5.2)" if scoundrel else ""
        return (f"{rule}: this loot pictures {', '.join(pictured)}; pay exactly "
                f"{', '.join(tool_sort(list(need.elements())))}{covered}")
    return f"{rule}: you hold no {', '.join(_missing_from_hand(player.hand, pay))} to pay with"


def _explain_exchange(state: State, seat: int, place: str, key: Key) -> str:
    _, rate, give = key
    if rate not in RATE_COUNTS:
        return f"R6.1: there is no exchange square {rate!r}; they are {', '.join(RUIN_RATES)}"
    if state.ruin_rates[rate] is not None:
        return f"R6.2: exchange square {rate} is closed until the Ruin's actions are done"
    if len(give) != RATE_COUNTS[rate][0]:
        return f"R6.1: exchange square {rate} takes {RATE_COUNTS[rate][0]} tool(s) from hand"
    missing = _missing_from_hand(state.players[seat].hand, give)
    return f"R6.1: you hold no {', '.join(missing)} to give"


def _explain_sell(state: State, seat: int, place: str, key: Key) -> str:
    _, fence_id, loot_ids = key
    if fence_id not in state.harbor:
        return f"R8.1: fence {fence_id} is not at the Harbor"
    if not loot_ids:
        return "R8.1: sell at least one loot card"
    not_held = [i for i in loot_ids if i not in state.players[seat].loot]
    if not_held or len(set(loot_ids)) != len(loot_ids):
        return f"R8.1: you hold no face-down loot {', '.join(not_held or loot_ids)}"
    kinds = {cards.LOOT_CARDS[i].kind for i in loot_ids}
    if len(kinds) > 1:
        return "R8.2: never two kinds of loot in one sale"
    kind = kinds.pop()
    buys = cards.FENCE_CARDS[fence_id].buys
    if kind not in buys:
        return f"R8.1: fence {fence_id} does not buy {kind}"
    return f"R8.2: fence {fence_id} buys only {buys[kind][0]} {kind} in one action"


_EXPLAINERS: dict[str, Callable[[State, int, str, Key], str]] = {
    "take_tools": _explain_city, "steal": _explain_steal, "exchange": _explain_exchange,
    "sell": _explain_sell,
}


__all__ = [
    "Event",
    "Key",
    "acting_square",
    "action_key",
    "apply",
    "explain",
    "key_action",
    "legal_keys",
    "setup",
    "to_move",
    "winners",
]
