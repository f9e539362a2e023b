"""Loading a position: ``from_dict`` and the checks that refuse one no real game can reach.

:func:`from_dict` reads a position's JSON form (docs/state-format.md) into a
:class:`~.state.State`; :func:`check` refuses any position that could not occur
(card counts R0, tokens R1.4, display sizes R1.1, then what play can reach:
:mod:`.reachable`). The small readers (``bounded_int``, ``player_from``...) are
shared with :mod:`.export`, which loads a seat's export the same way.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import cards, reachable
from .cards import PLACES, RUIN_RATES, SQUARES_PER_PLACE, TOKENS_PER_PLAYER, TOOLS, WINNING_MONEY
from .errors import InvalidState
from .state import (
    DISPLAYS,
    FORMAT,
    MAX_NUMBER,
    PHASES,
    PILES,
    SCOUNDREL_PLACES,
    VARIANTS,
    Pile,
    Player,
    State,
    empty_hand,
    shown,
)


def _bad(why: str) -> InvalidState:
    return InvalidState(why)


def _expect(cond: bool, why: str) -> None:
    if not cond:
        raise _bad(why)


def bounded_int(value: Any, what: str, low: int, high: int = MAX_NUMBER) -> int:
    if not (isinstance(value, int) and not isinstance(value, bool) and low <= value <= high):
        raise _bad(f"{what} must be a whole number from {low} to {high}, not {shown(value)}")
    return int(value)


def tool_counts(raw: Any, what: str) -> dict[str, int]:
    _expect(isinstance(raw, dict), f"{what} must map tool -> count")
    hand = empty_hand()
    for tool, n in raw.items():
        if tool not in hand:
            raise _bad(f"{what}: unknown tool {shown(tool)} (R0.1)")
        hand[tool] = bounded_int(n, f"R0.1: {what}[{tool}]", 0, cards.TOOLS_PER_TYPE)
    return hand


def player_from(raw: Any, i: int) -> Player:
    what = f"players[{i}]"
    _expect(isinstance(raw, dict), f"{what} must be an object")
    known_keys = {"name", "scoundrel", "money", "hand", "loot", "tokens", "known"}
    _expect(set(raw) <= known_keys, f"{what}: unknown keys {_keys(set(raw) - known_keys)}")
    scoundrel = raw.get("scoundrel")
    _expect(isinstance(scoundrel, str) and scoundrel in cards.SCOUNDRELS,
            f"{what}: unknown scoundrel {shown(scoundrel)} (R0.5)")
    name = raw.get("name", cards.SCOUNDRELS[scoundrel].name.split()[0])
    _expect(isinstance(name, str), f"{what}.name must be text")
    loot = id_list(raw.get("loot", []), f"{what}.loot")
    return Player(
        name=name,
        scoundrel=scoundrel,
        money=bounded_int(raw.get("money", 0), f"{what}.money", 0),
        hand=tool_counts(raw.get("hand", {}), f"{what}.hand"),
        loot=list(loot),
        tokens=bounded_int(raw.get("tokens", TOKENS_PER_PLAYER), f"R1.4: {what}.tokens", 0,
                    TOKENS_PER_PLAYER),
        known=tool_counts(raw.get("known", {}), f"{what}.known"),
    )


def _seat_or_none(value: Any, what: str, n: int) -> int | None:
    if value is None:
        return None
    return bounded_int(value, what, 0, n - 1)


def squares_from(raw: Any, n: int) -> dict[str, list[int | None]]:
    raw = {} if raw is None else raw
    _expect(isinstance(raw, dict) and set(raw) <= set(PLACES), f"squares: keys must be {PLACES}")
    squares: dict[str, list[int | None]] = {}
    for place in PLACES:
        row = raw.get(place, [None] * SQUARES_PER_PLACE)
        _expect(isinstance(row, list) and len(row) == SQUARES_PER_PLACE,
                f"squares.{place} must list {SQUARES_PER_PLACE} squares (R2.2)")
        squares[place] = [_seat_or_none(s, f"squares.{place}", n) for s in row]
    return squares


def rates_from(raw: Any, n: int) -> dict[str, int | None]:
    raw = {} if raw is None else raw
    _expect(isinstance(raw, dict) and set(raw) <= set(RUIN_RATES),
            f"ruin_rates: keys must be among {RUIN_RATES} (R6.1)")
    return {r: _seat_or_none(raw.get(r), f"ruin_rates[{r}]", n) for r in RUIN_RATES}


def used_from(raw: Any, n: int) -> dict[str, list[int]]:
    raw = {} if raw is None else raw
    _expect(isinstance(raw, dict) and set(raw) <= set(SCOUNDREL_PLACES),
            "scoundrel_used: keys must be villa, museum (R5.2)")
    used: dict[str, list[int]] = {}
    for place in SCOUNDREL_PLACES:
        seats = raw.get(place, [])
        _expect(isinstance(seats, list), f"scoundrel_used.{place} must be a list of seats")
        checked = [bounded_int(s, f"scoundrel_used.{place}", 0, n - 1) for s in seats]
        _expect(len(set(checked)) == len(checked), f"scoundrel_used.{place} repeats a seat")
        used[place] = checked
    return used


def _keys(keys: set[Any]) -> str:
    return ", ".join(sorted(shown(k) for k in keys))


def id_list(raw: Any, what: str) -> list[str]:
    _expect(isinstance(raw, list) and all(isinstance(c, str) for c in raw),
            f"{what} must be a list of card names")
    return list(raw)


def from_dict(data: Any) -> State:
    """Load and check a position; raise :class:`InvalidState` saying what cannot be.

    Only ``format``, ``phase`` and ``players`` are required (a hand-written
    puzzle); missing displays, squares and rates are empty, and cards not
    placed anywhere are shuffled into their draw piles by the seed.
    """
    _expect(isinstance(data, dict), "a position must be a JSON object")
    _expect(data.get("format") == FORMAT,
            f"unknown format {shown(data.get('format'))}: this version reads {FORMAT!r}")
    for key in ("phase", "players"):
        _expect(key in data, f"a position needs {key!r}")
    known = {"format", "seed", "shuffles", "variant", "round", "phase", "start_player", "players",
             *DISPLAYS, "squares", "ruin_rates", "scoundrel_used", "piles", "money_by_round",
             "composed"}
    _expect(set(data) <= known, f"unknown keys {_keys(set(data) - known)}")
    raw_players = data["players"]
    _expect(isinstance(raw_players, list) and 2 <= len(raw_players) <= 5,
            "R1.1: a game has 2 to 5 players")
    n = len(raw_players)
    variant = data.get("variant", "standard")
    _expect(variant in VARIANTS, f"unknown variant {shown(variant)} (R11)")
    _expect(data["phase"] in PHASES, f"phase must be one of {PHASES}")
    state = State(
        players=[player_from(p, i) for i, p in enumerate(raw_players)],
        seed=bounded_int(data.get("seed", 0), "seed", 0),
        shuffles=bounded_int(data.get("shuffles", 0), "shuffles", 0),
        variant=variant,
        round=bounded_int(data.get("round", 1), "round", 1, reachable.MAX_ROUNDS),
        phase=data["phase"],
        start_player=bounded_int(data.get("start_player", 0), "R1.0: start_player", 0, n - 1),
        squares=squares_from(data.get("squares"), n),
        ruin_rates=rates_from(data.get("ruin_rates"), n),
        scoundrel_used=used_from(data.get("scoundrel_used"), n),
        composed=composed_flag(data.get("composed", False)),
    )
    for d in DISPLAYS:
        setattr(state, d, id_list(data.get(d, []), d))
    _load_money_history(state, data.get("money_by_round"))
    _load_piles(state, data.get("piles", {}))
    check(state)
    return state


def composed_flag(raw: Any) -> bool:
    """``composed``: true for a composed position (a puzzle, the builder), else false."""
    _expect(isinstance(raw, bool), f"composed must be true or false, not {shown(raw)}")
    return bool(raw)


def _load_money_history(state: State, raw: Any) -> None:
    if raw is None:
        state.money_by_round = default_money_history(state)
        return
    _expect(isinstance(raw, list) and all(
        isinstance(r, list) and len(r) == state.num_players for r in raw
    ), "money_by_round must list one money total per player for each round")
    state.money_by_round = [[bounded_int(m, "money_by_round", 0) for m in r] for r in raw]


def default_money_history(state: State) -> list[list[int]]:
    """``money_by_round`` for a position that gives none (a puzzle): the least history play
    could have had. Every round began with the money now (while placing, money is what it
    was when the round began, R3.1), but under 20 (else the game had ended, R10.1); a
    finished game adds its final money."""
    now = [p.money for p in state.players]
    start = now if state.phase == "place" else [min(m, WINNING_MONEY - 1) for m in now]
    return [list(start) for _ in range(state.round)] + ([now] if state.phase == "over" else [])


def _load_piles(state: State, raw: Any) -> None:
    _expect(isinstance(raw, dict) and set(raw) <= set(PILES), f"piles: keys must be among {PILES}")
    for name in PILES:
        pile = raw.get(name, {})
        _expect(isinstance(pile, dict) and set(pile) <= {"draw", "discard"},
                f"piles.{name} must have draw and discard lists")
        discard = id_list(pile.get("discard", []), f"piles.{name}.discard")
        if "draw" in pile:
            state.piles[name] = Pile(id_list(pile["draw"], f"piles.{name}.draw"), discard)
        else:
            state.piles[name] = Pile([], discard)
            rest = _missing_cards(state, name)
            state.shuffle(rest)
            state.piles[name].draw = rest


def full_deck(pile: str) -> Counter[str]:
    if pile == "tools":
        return Counter({t: cards.TOOLS_PER_TYPE for t in TOOLS})
    return Counter(list(cards.LOOT_CARDS if pile == "loot" else cards.FENCE_CARDS))


def _present(state: State, pile: str) -> Counter[str]:
    """Every card of one family that the position places somewhere."""
    seen: Counter[str] = Counter()
    if pile == "tools":
        for p in state.players:
            seen.update(p.hand)
        seen.update(state.city)
    elif pile == "loot":
        for p in state.players:
            seen.update(p.loot)
        seen.update(state.villa)
        seen.update(state.museum)
    else:
        seen.update(state.harbor)
    seen.update(state.piles[pile].draw)
    seen.update(state.piles[pile].discard)
    return seen


def _missing_cards(state: State, pile: str) -> list[str]:
    missing = full_deck(pile) - _present(state, pile)
    return sorted(missing.elements())


def check(state: State) -> None:
    """Raise :class:`InvalidState` unless ``state`` could occur in a real game."""
    _check_cards(state)
    _check_displays(state)
    _check_players(state)
    _check_tokens(state)
    reachable.check(state)  # money history, placing order, how far the round has acted


def _check_cards(state: State) -> None:
    for pile in PILES:
        seen, deck = _present(state, pile), full_deck(pile)
        unknown = sorted(set(seen) - set(deck))
        _expect(not unknown, f"R0: unknown {pile} card(s) {unknown}")
        for card, count in seen.items():
            limit = deck[card]
            _expect(count <= limit, f"R0: {pile} card {card} appears {count} times (at most "
                    f"{limit}: a card in two places, or {sum(seen.values())} {pile} in all)")
        missing = deck - seen
        _expect(not missing, f"R0: {pile} card(s) {sorted(missing)} are nowhere "
                f"({sum(seen.values())} of {sum(deck.values())} {pile} accounted for)")
    for p in state.players:
        chests = [c for c in p.loot if cards.LOOT_CARDS[c].protection == "chest"]
        _expect(not chests, f"R5.3: chest {chests} is cashed at once, never kept by {p.name}")


def _check_displays(state: State) -> None:
    for d in DISPLAYS:
        size = cards.display_size(d, state.num_players)
        _expect(len(state.display(d)) <= size,
                f"R1.1: the {d} holds at most {size} cards with {state.num_players} players")


def _check_players(state: State) -> None:
    scoundrels = [p.scoundrel for p in state.players]
    _expect(len(set(scoundrels)) == len(scoundrels),
            "R0.5: each player has a scoundrel of their own")
    for i, p in enumerate(state.players):
        over = [t for t in TOOLS if p.known[t] > p.hand[t]]
        _expect(not over, f"players[{i}].known shows more {over} than the hand holds")


def _check_tokens(state: State) -> None:
    on_board = Counter(s for row in state.squares.values() for s in row if s is not None)
    on_rates = Counter(s for s in state.ruin_rates.values() if s is not None)
    for seat, p in enumerate(state.players):
        total = p.tokens + on_board[seat] + on_rates[seat]
        _expect(total == TOKENS_PER_PLAYER, f"R1.4: player {seat} has {total} tokens, "
                f"not {TOKENS_PER_PLAYER} (in front, on squares and on exchange squares)")
    if state.phase == "place":
        _expect(not on_rates, "R6.2: no exchange square is taken while tokens are placed")
        _expect(not any(state.scoundrel_used.values()),
                "R5.2: scoundrel uses are counted per round; none while tokens are placed")
        for place, row in state.squares.items():
            filled = [s is not None for s in row]
            _expect(filled == sorted(filled, reverse=True),
                    f"R2.2: tokens at the {place} take the lowest free squares")
        _expect(any(p.tokens for p in state.players), "R2.1: all tokens are placed: phase is act")
    elif state.phase == "act":
        _expect(bool(on_board), "R3.1: no token is left to act: the round is over")
        _expect(not on_rates or any(s is not None for s in state.squares["ruin"]),
                "R6.2: the Ruin's actions are done, so its exchange squares are open again")
        earlier = [p for p in ("city", "villa") if any(s is not None for s in state.squares[p])]
        _expect(not on_rates or not earlier,
                f"R3.1/R6.2: an exchange square is taken, but the {earlier} still acts first")
    else:
        _expect(not on_board and not on_rates, "R10.1: when the game is over no token is out")
