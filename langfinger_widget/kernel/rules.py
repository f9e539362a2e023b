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
from itertools import combinations, combinations_with_replacement
from operator import itemgetter, le
from typing import Any

from . import cards, words
from .action_dicts import Action
from .cards import DISPLAY_SIZES, PLACES, RATE_COUNTS, RUIN_RATES, SQUARES_PER_PLACE, TOOLS
from .errors import BadArgument, IllegalAction
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
        raise BadArgument(f"R1.1: Langfinger is for 2-5 players, not {players!r}")


def _check_setup(players: int, seed: int, names: Sequence[str] | None,
                 scoundrels: list[str], start_player: int | None, variant: str) -> None:
    if not _whole(seed) or not 0 <= seed <= MAX_NUMBER:
        raise BadArgument(f"seed must be a whole number from 0 to {MAX_NUMBER}, not {shown(seed)}")
    if len(scoundrels) != players or len(set(scoundrels)) != players or any(
            s not in cards.SCOUNDRELS for s in scoundrels):
        raise BadArgument(f"R0.5: choose {players} different scoundrels from "
                         f"{list(cards.SCOUNDRELS)}, not {scoundrels!r}")
    if names is not None and (len(names) != players or not all(isinstance(n, str) for n in names)):
        raise BadArgument(f"names must give {players} names, not {names!r}")
    if start_player is not None and (not _whole(start_player) or not 0 <= start_player < players):
        raise BadArgument(f"R1.0: start_player is a seat from 0 to {players - 1} (or None: drawn "
                         f"from the seed), not {start_player!r}")
    if variant not in ("standard", "open_info"):
        raise BadArgument(f"R11: variant is 'standard' or 'open_info', not {variant!r}")


# --- drawing and refilling (R9) -------------------------------------------------------------

# Where an action's events go: a list, or None when nobody reads them (a search's
# simulations), which saves building them. What happens to the state is the same.
Sink = list[Event] | None


def draw(state: State, pile_name: str, count: int, events: Sink) -> list[str]:
    """Draw up to ``count`` cards; an empty draw pile takes its shuffled discard (R9.2)."""
    pile = state.piles[pile_name]
    stock = pile.draw
    if len(stock) >= count:  # the usual case: no reshuffle
        drawn = stock[:count]
        del stock[:count]
        return drawn
    drawn = []
    while len(drawn) < count:
        if not pile.draw:
            if not pile.discard:
                break  # R9.2: both empty: drawing stops short
            pile.draw, pile.discard = pile.discard, []
            state.shuffle(pile.draw)
            if events is not None:
                events.append({"type": "reshuffle", "pile": pile_name, "size": len(pile.draw)})
        take = min(count - len(drawn), len(pile.draw))
        drawn.extend(pile.draw[:take])
        del pile.draw[:take]
    return drawn


# Each display, the pile it draws from and its sizes by player count (R1.1, R9.1).
_REFILLS = tuple((place, pile, DISPLAY_SIZES[place])
                 for place, pile in (("city", "tools"), ("villa", "loot"), ("museum", "loot"),
                                     ("harbor", "fences")))


def refill(state: State, events: Sink) -> None:
    """Fill every display back up to its size (R9.1); leftover cards stay."""
    column = len(state.players) - cards.MIN_PLAYERS
    for place, pile, sizes in _REFILLS:
        display: list[str] = getattr(state, place)  # state.display(place), one call fewer
        missing = sizes[column] - len(display)
        if missing > 0:
            new = draw(state, pile, missing, events)
            display.extend(new)
            if new and events is not None:
                events.append({"type": "refill", "place": place, "cards": faces(place, new)})


def faces(place: str, new: list[str]) -> list[Any]:
    if place == "city":
        return list(new)
    if place == "harbor":
        return [cards.FENCE_CARDS[i].face() for i in new]
    return [cards.LOOT_CARDS[i].face() for i in new]


def _gain_tools(player: Player, tools: Sequence[str], seen: bool) -> None:
    hand = player.hand
    for t in tools:
        hand[t] += 1
    if seen:
        known = player.known
        for t in tools:
            known[t] += 1


def _spend_tools(state: State, player: Player, tools: Sequence[str]) -> None:
    """Discard tools from hand, face up (R5.1, R6.1); what was known shrinks with them."""
    hand, known = player.hand, player.known
    for t in tools:
        hand[t] -= 1
        if known[t]:
            known[t] -= 1  # R11.2: a public tool that leaves is no longer known to remain
    state.piles["tools"].discard.extend(tools)


# --- whose decision -------------------------------------------------------------------------

_EMPTY_ROW = [None] * SQUARES_PER_PLACE
_FROM_PLACE = {place: PLACES[i:] for i, place in enumerate(PLACES)}


_NO_TOKEN = ("", -1, -1)  # acting_memo when no token is left on the squares


def acting_square(state: State) -> tuple[str, int, int] | None:
    """(place, square, seat) of the token that acts now (R3.1), or None."""
    acting = state.acting_memo or _acting(state)
    return None if acting is _NO_TOKEN else acting


def _acting(state: State) -> tuple[str, int, int]:
    """Work out the acting square (or _NO_TOKEN) and remember it in the state."""
    acting = state.acting_memo = _first_token(state, PLACES)
    return acting


def _first_token(state: State, places: Sequence[str]) -> tuple[str, int, int]:
    """The first token on the squares of ``places``, in that order (R3.1), or _NO_TOKEN."""
    squares = state.squares
    for place in places:
        row = squares[place]
        if row != _EMPTY_ROW:  # one comparison in C skips an empty place
            first = row[0]
            if first is not None:  # usual: a place yet to act fills its lowest squares (R2.2)
                return place, 0, first
            for i, seat in enumerate(row):
                if seat is not None:
                    return place, i, seat
    return _NO_TOKEN


def placing_seat(state: State) -> int:
    """R2.1: clockwise from the start player, one token a turn, until all are placed."""
    tokens = [p.tokens for p in state.players]
    most = max(tokens)
    try:  # the first such seat from the start player on ...
        return tokens.index(most, state.start_player)
    except ValueError:  # ... or, clockwise past the last seat, from seat 0
        return tokens.index(most)


def to_move(state: State) -> int | None:
    phase = state.phase
    if phase == "place":
        return placing_seat(state)
    if phase == "act":
        acting = acting_square(state)
        return None if acting is None else acting[2]
    return None


def key_action(key: Key) -> dict[str, Any]:
    """The action dict (JSON-ready) for a key; a new dict each time (the caller may change it)."""
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


# --- action ids: the fast path for search ---------------------------------------------------
#
# Every key is also known by a small integer, handed out on first sight and the
# same for the life of the process: ``ACTIONS[i]`` is the key of id ``i``.
# ``legal_ids`` lists the same actions as ``legal_keys``, in the same order, as
# ids; a search keys its tree by them (an int hashes at once, a nested tuple does
# not). The lists below are cached by what they depend on, so a position that
# comes back costs a lookup; the caches are cleared when the deck changes.

ACTIONS: list[Key] = []
_IDS: dict[Key, int] = {}


def id_of(key: Key) -> int | None:
    """The id of ``key`` if it has one (every key ever listed legal has), else None."""
    return _IDS.get(key)


def action_id(key: Key) -> int:
    """The id of ``key`` (any well-formed key, legal or not)."""
    found = _IDS.get(key)
    if found is None:
        found = _IDS[key] = len(ACTIONS)
        ACTIONS.append(key)
        _SHARED.append(Action(key_action(key), found))
    return found


_SHARED: list[Action] = []  # by id: the one read-only dict of each action (action_dicts.py)


def shared_actions(ids: Sequence[int]) -> list[dict[str, Any]]:
    """The read-only action dicts of ``ids``, in order (a new list of shared dicts)."""
    shared = _SHARED
    return [shared[i] for i in ids]


PASS_ID = action_id(PASS)
_PLACE_IDS = tuple((place, action_id(("place", place))) for place in PLACES)
_CACHE_LIMIT = 50_000  # entries per cache; cleared when full (a long run cannot grow them)
_hand_counts = itemgetter(*TOOLS)
_rate_seats = itemgetter(*RUIN_RATES)


# The memo tables of legal action lists, keyed by what each list depends on.
_CITY: dict[tuple[str, ...], list[int]] = {}
_STEAL: dict[tuple[Any, ...], list[tuple[int, Any]]] = {}
_EXCHANGE: dict[tuple[Any, ...], list[int]] = {}
_SELL: dict[tuple[Any, ...], list[int]] = {}
_RATE: dict[tuple[Any, ...], list[int]] = {}
_FENCE: dict[tuple[Any, ...], list[int]] = {}
_TOOL_LISTS: dict[tuple[str, ...], tuple[str, ...]] = {}  # a tool list as given -> sorted


def most_tools() -> int:
    """The most tools a legal action names: the City's two (R4), the most a loot card
    pictures (R5.1), the most an exchange square takes (R6.1). A longer list is never legal,
    so it never enters :data:`_TOOL_LISTS`, which therefore holds at most a few hundred
    lists, whatever a page sends."""
    pictured = max((len(c.tools) for c in cards.LOOT_CARDS.values()), default=0)
    return max(2, pictured, *(taken for taken, _ in RATE_COUNTS.values()))


_MOST_TOOLS = [most_tools()]  # of the deck in use (a deck may picture more tools)


def _forget() -> None:
    for table in (_CITY, _STEAL, _EXCHANGE, _SELL, _RATE, _FENCE, _SALE_GAINS):
        table.clear()
    _MOST_TOOLS[0] = most_tools()


cards.on_deck_change(_forget)  # loot and fence ids mean other cards now


def legal_ids(state: State) -> list[int]:
    """The ids of :func:`legal_keys`, in its order (a fresh list the caller may keep)."""
    return list(legal_ids_shared(state))


def legal_ids_shared(state: State) -> Sequence[int]:
    """:func:`legal_ids`, but possibly the memo tables' own list: read it, never change or
    keep it. A search lists actions at every simulated move; the copy is what it saves."""
    phase = state.phase
    if phase == "place":
        squares = state.squares
        return [i for place, i in _PLACE_IDS if None in squares[place]]  # R2.2: not full
    if phase != "act":
        return []
    acting = state.acting_memo or _acting(state)
    if acting is _NO_TOKEN:
        return []
    place, _, seat = acting
    return _GENERATORS[place](state, seat, place)  # each list ends with pass (R3.1)


def legal_keys(state: State) -> list[Key]:
    """Every legal action of the seat to move, as keys, without duplicates; pass last."""
    actions = ACTIONS
    return [actions[i] for i in legal_ids(state)]


def _remember(table: dict[Any, Any], key: Any, value: Any) -> None:
    if len(table) >= _CACHE_LIMIT:
        table.clear()
    table[key] = value


def _city_ids(state: State, seat: int, place: str) -> list[int]:
    """R4: any 2 of the face-up tools, or the last one left."""
    shown = tuple(state.city)  # as laid out: a few more entries, but no sort at each lookup
    ids = _CITY.get(shown)
    if ids is None:
        take = min(2, len(shown))
        combos = sorted(set(combinations(tool_sort(shown), take))) if take else []
        ids = [action_id(("take_tools", c)) for c in combos]
        ids.append(PASS_ID)  # R3.1: every token may pass instead
        _remember(_CITY, shown, ids)
    return ids


def _steal_terms(slot: int, loot_id: str, tool: str | None) -> list[tuple[int, Any]]:
    """What taking one card costs: (action id, need) pairs, remembered in _STEAL.

    The card pays every pictured tool (R5.1), or, when ``tool`` (the scoundrel's,
    None if it may not help) is pictured, one fewer of that tool (R5.2); a need
    is ``((tool, count), ...)``.
    """
    pictured = cards.LOOT_CARDS[loot_id].tools
    need = Counter(pictured)
    terms = [(action_id(("steal", slot, tool_sort(pictured), False)), tuple(need.items()))]
    if tool is not None and tool in need:
        need[tool] -= 1
        terms.append((action_id(("steal", slot, tool_sort(list(need.elements())), True)),
                      tuple((t, n) for t, n in need.items() if n)))  # nothing to check for 0
    _remember(_STEAL, (slot, loot_id, tool), terms)
    return terms


_TOOL_OF = {key: s.tool for key, s in cards.SCOUNDRELS.items()}  # Player.tool, as a lookup


def _steal_ids(state: State, seat: int, place: str) -> list[int]:
    """R5.1/R5.2/R7: pay every pictured tool, the scoundrel covering at most one of its type."""
    player = state.players[seat]
    hand = player.hand
    tool = None if seat in state.scoundrel_used[place] else _TOOL_OF[player.scoundrel]
    known = _STEAL
    ids: list[int] = []
    for slot, loot_id in enumerate(getattr(state, place)):  # the Villa's or Museum's display
        for aid, need in known.get((slot, loot_id, tool)) or _steal_terms(slot, loot_id, tool):
            for t, n in need:
                if hand[t] < n:
                    break
            else:
                ids.append(aid)
    ids.append(PASS_ID)  # R3.1: every token may pass instead
    return ids


# Every multiset of 1-3 tools, in TOOLS order, with how many of each tool type it holds.
_GIVINGS = {size: [(combo, tuple(combo.count(t) for t in TOOLS))
                   for combo in combinations_with_replacement(TOOLS, size)]
            for size in sorted({taken for taken, _ in RATE_COUNTS.values()})}
_CAP = (3,) * len(TOOLS)  # no exchange square takes more than 3 of a type


def _givable(capped_hand: tuple[int, ...], size: int) -> list[tuple[str, ...]]:
    """Every multiset of ``size`` tools a hand (counts per type, capped at 3) can give."""
    return [combo for combo, counts in _GIVINGS[size] if all(map(le, counts, capped_hand))]


def _exchange_ids(state: State, seat: int, place: str) -> list[int]:
    """R6.1: a free exchange square, and any cards from hand that it takes."""
    counts = _hand_counts(state.players[seat].hand)  # a key as it is: no capping at each lookup
    rates = _rate_seats(state.ruin_rates)
    ids = _EXCHANGE.get((counts, rates))
    if ids is None:
        capped = tuple(map(min, counts, _CAP))
        ids = []
        for rate, taken in zip(RUIN_RATES, rates, strict=True):
            if taken is None:  # R6.2: a taken square is closed until the Ruin's actions are done
                ids.extend(_rate_ids(rate, capped))
        ids.append(PASS_ID)  # R3.1: every token may pass instead
        _remember(_EXCHANGE, (counts, rates), ids)
    return ids


def _rate_ids(rate: str, capped: tuple[int, ...]) -> list[int]:
    """The exchanges on one square that a hand (counts capped at 3) can pay for (R6.1)."""
    ids = _RATE.get((rate, capped))
    if ids is None:
        ids = [action_id(("exchange", rate, combo))
               for combo in _givable(capped, RATE_COUNTS[rate][0])]
        _remember(_RATE, (rate, capped), ids)
    return ids


_ONLY_PASS = [PASS_ID]  # shared like the memo tables' lists (legal_ids_shared)


def _sell_ids(state: State, seat: int, place: str) -> list[int]:
    """R8.1/R8.2: one kind to one fence; two cards only where the fence shows it twice."""
    held = state.players[seat].loot
    if not held:  # nothing to sell: only pass, without a lookup
        return _ONLY_PASS
    held_loot = tuple(held)  # in the order held: no sort at each lookup
    harbor = tuple(state.harbor)
    ids = _SELL.get((held_loot, harbor))
    if ids is None:
        by_kind: dict[str, list[str]] = {}
        for loot_id in sorted(held_loot):
            by_kind.setdefault(cards.LOOT_CARDS[loot_id].kind, []).append(loot_id)
        ids = []
        for fence_id in harbor:
            for kind, (count, _) in cards.FENCE_CARDS[fence_id].buys.items():
                if kind in by_kind:
                    ids.extend(_fence_ids(fence_id, count, tuple(by_kind[kind])))
        ids.append(PASS_ID)  # R3.1: every token may pass instead
        _remember(_SELL, (held_loot, harbor), ids)
    return ids


def _fence_ids(fence_id: str, count: int, held: tuple[str, ...]) -> list[int]:
    """The sales to one fence of the loot ``held`` of one kind it buys ``count`` of at once."""
    ids = _FENCE.get((fence_id, held))
    if ids is None:
        ids = [action_id(("sell", fence_id, c))
               for size in range(1, min(count, len(held)) + 1) for c in combinations(held, size)]
        _remember(_FENCE, (fence_id, held), ids)
    return ids


# Each place's legal ids, pass last; a list a memo table may own (legal_ids_shared).
_GENERATORS: dict[str, Callable[[State, int, str], list[int]]] = {
    "city": _city_ids, "villa": _steal_ids, "ruin": _exchange_ids,
    "museum": _steal_ids, "harbor": _sell_ids,
}


class _SaleGains(dict[int, int]):
    """Sale id -> money it brings, worked out on first lookup (``__missing__``): a hit is
    a lookup in C, which is what ``max(ids, key=sale_gain)`` in a rollout wants."""

    def __missing__(self, aid: int) -> int:
        _, fence_id, loot_ids = ACTIONS[aid]
        buys = cards.FENCE_CARDS[fence_id].buys  # R8.1/R8.2: value plus bonus, each card
        gain = sum(c.value + buys[c.kind][1] for c in (cards.LOOT_CARDS[i] for i in loot_ids))
        _remember(self, aid, gain)
        return gain


_SALE_GAINS = _SaleGains()
sale_gain: Callable[[int], int] = _SALE_GAINS.__getitem__
"""The money a legal sale (by id) brings: value plus the fence's bonus, each card."""


# --- actions as dicts <-> keys --------------------------------------------------------------

_FIELDS: dict[str, tuple[set[str], set[str]]] = {  # type -> (required, optional)
    "place": ({"place"}, set()),
    "take_tools": ({"tools"}, set()),
    "steal": ({"slot", "pay"}, {"scoundrel"}),
    "exchange": ({"rate", "give"}, set()),
    "sell": ({"fence", "loot"}, set()),
    "pass": (set(), set()),
}
_ALLOWED = {kind: frozenset({"type", *req, *opt}) for kind, (req, opt) in _FIELDS.items()}


def _malformed(why: str) -> IllegalAction:
    return IllegalAction(f"not an action: {why}")


def _str_list(action: dict[str, Any], field: str) -> list[str]:
    value = action[field]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _malformed(f"{shown(field)} must be a list of names, not {shown(value)}")
    return value


def _tools_field(action: dict[str, Any], field: str) -> tuple[str, ...]:
    tools = _str_list(action, field)
    unknown = [t for t in tools if t not in TOOL_ORDER]
    if unknown:
        raise _malformed(f"unknown tool(s) {unknown} in {field!r}; tools are {list(TOOLS)}")
    ordered = tool_sort(tools)
    # What _quick_tools may look up next time: only a list some action could take (a list
    # from a page is otherwise kept for good, and a page may send millions of them).
    if len(tools) <= _MOST_TOOLS[0] and all(type(t) is str for t in tools):
        _remember(_TOOL_LISTS, tuple(tools), ordered)
    return ordered


def action_key(action: Any) -> Key:
    """Check an action's shape and turn it into its key; raise IllegalAction if malformed."""
    if type(action) is Action:  # listed by us and unchangeable: its id says it all
        return ACTIONS[action.id]
    if type(action) is dict:  # well-typed actions take a shortcut
        kind = action.get("type")
        quick = _QUICK.get(kind) if type(kind) is str else None
        key = quick(action) if quick is not None else None
        if key is not None:
            return key
    return _checked_key(action)


def _quick_place(a: dict[str, Any]) -> Key | None:
    place = a.get("place")
    return _PLACE_KEYS.get(place) if len(a) == 2 and type(place) is str else None


def _quick_tools(a: dict[str, Any], field: str) -> tuple[str, ...] | None:
    """A list of exactly-str tool names seen before, sorted; None for anything else."""
    given = a.get(field)
    if type(given) is not list or not all(type(t) is str for t in given):
        return None
    return _TOOL_LISTS.get(tuple(given))


def _quick_steal(a: dict[str, Any]) -> Key | None:
    slot, scoundrel = a.get("slot"), a.get("scoundrel", False)
    pay = _quick_tools(a, "pay")
    if type(slot) is not int or type(scoundrel) is not bool or pay is None or \
            len(a) != (4 if "scoundrel" in a else 3):
        return None
    return ("steal", slot, pay, scoundrel)


def _quick_exchange(a: dict[str, Any]) -> Key | None:
    rate, give = a.get("rate"), _quick_tools(a, "give")
    if type(rate) is not str or give is None or len(a) != 3:
        return None
    return ("exchange", rate, give)


def _quick_sell(a: dict[str, Any]) -> Key | None:
    fence, loot = a.get("fence"), a.get("loot")
    if type(fence) is not str or type(loot) is not list or len(a) != 3 or \
            not all(type(i) is str for i in loot):
        return None
    return ("sell", fence, tuple(sorted(loot)))


def _quick_take(a: dict[str, Any]) -> Key | None:
    tools = _quick_tools(a, "tools")
    return None if tools is None or len(a) != 2 else ("take_tools", tools)


_PLACE_KEYS: dict[str, Key] = {p: ACTIONS[i] for p, i in _PLACE_IDS}
_QUICK: dict[str, Callable[[dict[str, Any]], Key | None]] = {
    "place": _quick_place, "take_tools": _quick_take, "steal": _quick_steal,
    "exchange": _quick_exchange, "sell": _quick_sell,
    "pass": lambda a: PASS if len(a) == 1 else None,
}


def _checked_key(action: Any) -> Key:
    """:func:`action_key` for any input: every check, each with its own message."""
    if not isinstance(action, dict):
        raise _malformed(f"expected a dict with a 'type', got {type(action).__name__}")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise _malformed(f"unknown type {shown(kind)}; types are {list(_FIELDS)}")
    required, optional = _FIELDS[kind]
    if not (action.keys() <= _ALLOWED[kind] and required <= action.keys()):
        given = set(action) - {"type"}
        raise _malformed(f"{kind!r} takes fields {sorted(required | optional)}, "
                         f"got {sorted(given)}")
    return _KEY_MAKERS[kind](action)


def _place_key(a: dict[str, Any]) -> Key:
    if a["place"] not in PLACES:
        raise _malformed(f"unknown place {shown(a['place'])}; places are {list(PLACES)}")
    return ("place", a["place"])


def _steal_key(a: dict[str, Any]) -> Key:
    slot, scoundrel = a["slot"], a.get("scoundrel", False)
    if not isinstance(slot, int) or isinstance(slot, bool):
        raise _malformed(f"'slot' must be a whole number, not {shown(slot)}")
    if not isinstance(scoundrel, bool):
        raise _malformed(f"'scoundrel' must be true or false, not {shown(scoundrel)}")
    return ("steal", slot, _tools_field(a, "pay"), scoundrel)


def _exchange_key(a: dict[str, Any]) -> Key:
    if not isinstance(a["rate"], str):
        raise _malformed(f"'rate' must be one of {list(RUIN_RATES)}, not {shown(a['rate'])}")
    return ("exchange", a["rate"], _tools_field(a, "give"))


def _sell_key(a: dict[str, Any]) -> Key:
    if not isinstance(a["fence"], str):
        raise _malformed(f"'fence' must be a fence id, not {shown(a['fence'])}")
    return ("sell", a["fence"], tuple(sorted(_str_list(a, "loot"))))


_KEY_MAKERS: dict[str, Callable[[dict[str, Any]], Key]] = {
    "place": _place_key,
    "take_tools": lambda a: ("take_tools", _tools_field(a, "tools")),
    "steal": _steal_key,
    "exchange": _exchange_key,
    "sell": _sell_key,
    "pass": lambda a: PASS,
}


# --- applying an action ---------------------------------------------------------------------


def apply(state: State, key: Key) -> list[Event]:
    """Play a legal action (a key from ``legal_keys``) and return what happened."""
    events: list[Event] = []
    resolve(state, key, events)
    return events


def apply_id(state: State, aid: int) -> None:
    """Play a legal action by id (from :func:`legal_ids`) without recording events.

    The fast path for search: the state changes exactly as with :func:`apply`.
    """
    resolve(state, ACTIONS[aid], None)


def place_each(state: State, choose: Callable[[Sequence[str]], str]) -> None:
    """Place every token left to place this round, each where ``choose`` picks (no events).

    ``choose`` gets the places not full (R2.2), in place order, and returns one;
    the tokens go in turn as R2.1 says. The same as one :func:`resolve` per
    token, for a simulation that plays the placing as a whole (a search's
    rollouts place every round this way): the order of turns is worked out once.
    """
    if state.phase != "place":
        return
    squares, players = state.squares, state.players
    open_places = tuple([p for p in PLACES if None in squares[p]])  # a list: no generator
    for seat in _placing_order([p.tokens for p in players], state.start_player):
        place = choose(open_places)
        row = squares[place]
        square = row.index(None)
        row[square] = seat
        if square == SQUARES_PER_PLACE - 1:  # R2.2: now full
            open_places = tuple([p for p in open_places if p != place])
    for player in players:
        player.tokens = 0
    state.acting_memo = None  # the squares changed
    state.phase = "act"


def _placing_order(tokens: list[int], start_player: int) -> list[int]:
    """The seats that place the ``tokens`` left, in turn (R2.1, as :func:`placing_seat`).

    Each turn goes to the first seat clockwise with the most tokens left, so the
    seats with ``most`` place first, then all with ``most - 1`` or more, and so on
    down to 1; each time in clockwise order from the start player.
    """
    seats = len(tokens)
    clockwise = [(start_player + k) % seats for k in range(seats)]
    most = max(tokens)
    if min(tokens) == most:  # a round's start: all alike, one each in turn
        return clockwise * most
    return [seat for level in range(most, 0, -1) for seat in clockwise if tokens[seat] >= level]


def resolve(state: State, key: Key, events: Sink) -> int:
    """Play a legal key and return the seat that decided it.

    Its events go to ``events`` (None: they are not built at all).
    """
    if state.phase == "place":
        return _place(state, key[1], events)
    acting = state.acting_memo or _acting(state)
    assert acting is not _NO_TOKEN, "resolve() is only called with a legal key"
    place, square, seat = acting
    kind = key[0]
    if kind == "pass":
        if events is not None:
            event: Event = {"type": "pass", "seat": seat, "place": place, "square": square}
            if len(legal_ids(state)) == 1:  # nothing else was legal: the board passes by itself
                event["only"] = True
            events.append(event)
    else:  # a legal key is the acting place's own kind of action (R3.1)
        _EFFECTS[place](state, acting, key, events)
    _token_done(state, place, square, seat, kind == "exchange", events)
    return seat


def act_each(state: State, choose: Callable[[Sequence[int], str], int],
             refill: bool = True) -> None:
    """Let every token still to act this round act, each as ``choose`` picks (no events).

    ``choose(ids, place)`` gets the token's legal ids (pass last, as
    :func:`legal_ids_shared`: read them, never keep them) and returns one; a token
    whose only action is pass passes without asking. The same as one
    :func:`resolve` per token, for a simulation that plays a round's actions as a
    whole (a search's rollouts): the tokens are walked in R3.1 order once, where
    ``resolve`` works out the next one after each action. ``choose`` sees the state
    before the token acts and must not change it. The round ends (R9, or the game:
    R10.1) after the last token, as with ``resolve``.

    With ``refill=False`` the round stops short of phase C: the money is recorded
    and the game may end (R10.1), but the displays are not refilled (R9) and the
    next round does not begin (the phase stays ``"act"``, with no token left). A
    simulation that scores the position at this round's end saves the work.
    """
    if state.phase != "act":
        return
    acting = state.acting_memo or _acting(state)
    if acting is _NO_TOKEN:
        return
    first_place, first_square, _ = acting
    squares, players, pass_id = state.squares, state.players, PASS_ID
    for place in _FROM_PLACE[first_place]:
        row = squares[place]
        if row == _EMPTY_ROW:
            continue
        legal, effect, on_rate = _GENERATORS[place], _EFFECTS[place], place == "ruin"
        start = first_square if place == first_place else 0
        for square, seat in enumerate(row[start:] if start else row, start):
            if seat is None:
                continue
            exchanged = False
            ids = legal(state, seat, place)
            if len(ids) > 1:
                aid = choose(ids, place)
                if aid != pass_id:
                    effect(state, (place, square, seat), ACTIONS[aid], None)
                    exchanged = on_rate
            _token_leaves(players, row, square, seat, exchanged)
        if on_rate:  # every Ruin token has acted: the exchange tokens return (R6.2)
            _reopen_ruin(state, None)
    state.acting_memo = _NO_TOKEN
    _end_round(state, None, refill)


def _place(state: State, place: str, events: Sink) -> int:
    """R2.1/R2.2: one token on the lowest free square of the chosen place."""
    seat = placing_seat(state)
    row = state.squares[place]
    square = row.index(None)
    row[square] = seat
    state.acting_memo = None  # the squares changed
    players = state.players
    players[seat].tokens -= 1
    if events is not None:
        events.append({"type": "place", "seat": seat, "place": place, "square": square})
    for p in players:
        if p.tokens:
            return seat
    state.phase = "act"
    if events is not None:
        events.append({"type": "actions_begin", "round": state.round})
    return seat


Acting = tuple[str, int, int]  # (place, square, seat) of the token acting now


def _take_tools(state: State, acting: Acting, key: Key, events: Sink) -> None:
    place, square, seat = acting
    tools = key[1]
    for t in tools:  # R4
        state.city.remove(t)
    _gain_tools(state.players[seat], tools, seen=True)  # R11.2: taken face up
    if events is not None:
        events.append({"type": "take_tools", "seat": seat, "place": place, "square": square,
                       "tools": list(tools)})


def _steal(state: State, acting: Acting, key: Key, events: Sink) -> None:
    place, square, seat = acting
    _, slot, pay, scoundrel = key
    player = state.players[seat]
    loot_id = getattr(state, place).pop(slot)  # state.display(place), one call fewer
    _spend_tools(state, player, pay)
    if scoundrel:
        state.scoundrel_used[place].append(seat)  # R5.2: once per place per round
    card = cards.LOOT_CARDS[loot_id]
    if events is not None:
        events.append({"type": "steal", "seat": seat, "place": place, "square": square,
                       "slot": slot, "loot": card.face(), "paid": list(pay),
                       "scoundrel": scoundrel})
    if card.protection == "chest":  # R5.3: cashed at once, face up
        player.money += card.value
        state.piles["loot"].discard.append(loot_id)
        if events is not None:
            events.append({"type": "cash", "seat": seat, "loot": card.face(),
                           "gained": card.value, "money": player.money})
    else:
        player.loot.append(loot_id)


def _exchange(state: State, acting: Acting, key: Key, events: Sink) -> None:
    place, square, seat = acting
    _, rate, give = key
    player = state.players[seat]
    _spend_tools(state, player, give)  # R6.1: discard first, then draw
    drawn = draw(state, "tools", RATE_COUNTS[rate][1], events)
    _gain_tools(player, drawn, seen=False)  # R11.2: drawn blind
    state.ruin_rates[rate] = seat
    if events is not None:
        events.append({"type": "exchange", "seat": seat, "place": place, "square": square,
                       "rate": rate, "gave": list(give), "drew": drawn, "count": len(drawn)})


def _sell(state: State, acting: Acting, key: Key, events: Sink) -> None:
    place, square, seat = acting
    _, fence_id, loot_ids = key
    player = state.players[seat]
    gained = _SALE_GAINS[action_id(key)]  # R8.1/R8.2: value plus bonus, each card
    for loot_id in loot_ids:
        player.loot.remove(loot_id)
    player.money += gained
    state.piles["loot"].discard.extend(loot_ids)
    state.harbor.remove(fence_id)
    state.piles["fences"].discard.append(fence_id)  # R8.3: even if half of it went unused
    if events is not None:
        events.append({"type": "sell", "seat": seat, "place": place, "square": square,
                       "fence": fence_id,
                       "loot": [cards.LOOT_CARDS[i].face() for i in loot_ids],
                       "gained": gained, "money": player.money})


# What each place's action does (R4-R8), given a legal key of its kind.
_EFFECTS: dict[str, Callable[[State, Acting, Key, Sink], None]] = {
    "city": _take_tools, "villa": _steal, "ruin": _exchange, "museum": _steal, "harbor": _sell,
}


def _token_done(state: State, place: str, square: int, seat: int, on_rate: bool,
                events: Sink) -> None:
    """The token has acted: it leaves, and the next token to act is worked out (R3.1)."""
    row = state.squares[place]
    _token_leaves(state.players, row, square, seat, on_rate)
    after = square + 1
    if after < SQUARES_PER_PLACE:
        nxt = row[after]
        if nxt is not None:  # usual: the next square of this place acts
            state.acting_memo = (place, after, nxt)
            return
    if place == "ruin" and row == _EMPTY_ROW:
        _reopen_ruin(state, events)
    # The next token to act: the places before this one are empty (R3.1 order).
    state.acting_memo = acting = _first_token(state, _FROM_PLACE[place])
    if acting is _NO_TOKEN:
        _end_round(state, events)


def _token_leaves(players: list[Player], row: list[int | None], square: int, seat: int,
                  exchanged: bool) -> None:
    """R3.1: the token leaves its square, back to its owner; after an exchange it stays out
    until the Ruin's actions are done (R6.2, :func:`_reopen_ruin`)."""
    row[square] = None
    if not exchanged:
        players[seat].tokens += 1


def _reopen_ruin(state: State, events: Sink) -> None:
    """R6.2: once every Ruin action is done, the exchange tokens return."""
    seats = [s for s in state.ruin_rates.values() if s is not None]
    if not seats:
        return
    for s in seats:
        state.players[s].tokens += 1
    state.ruin_rates = dict.fromkeys(RUIN_RATES)
    if events is not None:
        events.append({"type": "ruin_reopens", "seats": seats})


def _end_round(state: State, events: Sink, phase_c: bool = True) -> None:
    """Phase C (R9) or the end of the game (R10.1); ``phase_c=False``: see :func:`act_each`."""
    money = [p.money for p in state.players]
    state.money_by_round.append(money)
    if max(money) >= cards.WINNING_MONEY:
        state.phase = "over"
        if events is not None:
            events.append({"type": "game_over", "money": money, "winners": winners(state)})
        return
    if not phase_c:
        return
    refill(state, events)
    state.start_player = (state.start_player + 1) % state.num_players  # R9.3
    state.round += 1
    state.phase = "place"
    state.scoundrel_used = {"villa": [], "museum": []}  # SCOUNDREL_PLACES, each afresh
    if events is not None:
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
        return ("R4: take two of the City's tools" if take == 2
                else "R4: one tool is left in the City: take that one")
    wanted: Counter[str] = Counter(key[1])
    short = wanted - Counter(state.city)
    return f"R4: the City does not show {words.tools(short.elements())}"


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
            return (f"R5.2: this loot shows no {player.tool} for the scoundrel to stand in "
                    "for")
        need[player.tool] -= 1
    if Counter(pay) != +need:
        covered = f" (the scoundrel standing in for the {player.tool}, R5.2)" if scoundrel \
            else ""
        return (f"{rule}: this loot shows {words.tools(pictured)}; hand in exactly "
                f"{words.tools(need.elements())}{covered}")
    short = words.tools(_missing_from_hand(player.hand, pay))
    return f"{rule}: your hand lacks {short} to pay with"


def _explain_exchange(state: State, seat: int, place: str, key: Key) -> str:
    _, rate, give = key
    if rate not in RATE_COUNTS:
        return f"R6.1: there is no exchange square {rate!r}; they are {', '.join(RUIN_RATES)}"
    if state.ruin_rates[rate] is not None:
        return f"R6.2: exchange square {rate} is closed until the Ruin's actions are done"
    if len(give) != RATE_COUNTS[rate][0]:
        gives, draws = RATE_COUNTS[rate]
        return (f"R6.1: exchange square {rate} takes {words.count(gives, 'tool')} from your "
                f"hand and draws {draws}")
    missing = _missing_from_hand(state.players[seat].hand, give)
    return f"R6.1: your hand lacks {words.tools(missing)} to give"


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
    return f"R8.2: fence {fence_id} buys only {words.count(buys[kind][0], kind)} in one sale"


_EXPLAINERS: dict[str, Callable[[State, int, str, Key], str]] = {
    "take_tools": _explain_city, "steal": _explain_steal, "exchange": _explain_exchange,
    "sell": _explain_sell,
}


__all__ = [
    "ACTIONS",
    "PASS_ID",
    "Event",
    "Key",
    "act_each",
    "acting_square",
    "action_id",
    "action_key",
    "apply",
    "apply_id",
    "explain",
    "id_of",
    "key_action",
    "legal_ids",
    "legal_ids_shared",
    "legal_keys",
    "place_each",
    "resolve",
    "sale_gain",
    "setup",
    "shared_actions",
    "to_move",
    "winners",
]
