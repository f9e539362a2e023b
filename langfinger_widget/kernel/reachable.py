"""Whether play can reach a position: the checks ``load.check`` makes after counting cards.

Card counts, display sizes and token totals (``state.py``) say what a
position holds. The checks here say whether a game's own course could have
produced it; each refusal is an :class:`InvalidState` naming the ruling:

* money (R10.1): ``money_by_round`` has one entry per round begun, plus the
  final one when the game is over; money never falls, changes only during
  actions, a round begins only while nobody has 20, a finished game has
  someone at 20, and one round pays at most what every loot card pays once;
* placing (R2.1, R2.2): tokens go down one a turn from the start player
  clockwise, each on the lowest free square of its place, so the squares
  must be the outcome of some such order of turns;
* resolving (R3.1, R5.2, R6.2): places act in order, square 1 first, and a
  square empties only when its token acts; so only squares before the acting
  one are empty below a token, and a scoundrel is spent at a place, or an
  exchange square taken, only by a token that has acted there.

The placing order is found by a small search over the turns (at most 15),
remembering positions already tried, so it stays fast.

A position saved from a game (not ``composed``) must moreover show what a
game shows of its deal (R1.3, R1.4) and of the round so far: money from 0,
displays refilled before each round (R9.1, R9.2), and in round 1 the dealt
hands, no loot held and empty discards until the places that change them
act. A composed position (a puzzle, the builder: ``State.composed``) may
start from any position that passes the other checks (docs/state-format.md,
"What cannot load").

One thing is left unchecked on purpose: where a token in front of its owner
during actions acted. Puzzles leave an opponent's tokens in front to keep the
board simple (e.g. Hans alone on the board, at the City, while Yoshiko's three
tokens wait in front of her), and they must load; so a returned token may have
gone down on any of its owner's turns. Everything on the board is checked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from . import cards
from .cards import PLACES, TOKENS_PER_PLAYER, WINNING_MONEY
from .errors import InvalidState

if TYPE_CHECKING:
    from .state import State

MAX_ROUNDS = 10_000  # the kernel's limit (a game usually lasts about ten rounds)


def _expect(cond: bool, why: str) -> None:
    if not cond:
        raise InvalidState(why)


def check(state: State) -> None:
    """Raise :class:`InvalidState` unless play can reach ``state`` (see the module doc)."""
    _check_money(state)
    if state.phase == "place":
        _check_placing(state)
    elif state.phase == "act":
        _check_acting(state)
    if not state.composed:
        _check_from_the_deal(state)


# --- from the deal: positions saved from a game (not composed) --------------------------------


def begun(state: State) -> set[str]:
    """The places whose tokens have begun to act this round (R3.1: in place order, square 1
    first): none while placing, every one once the game is over."""
    if state.phase == "place":
        return set()
    if state.phase == "over":
        return set(PLACES)
    here, first = next((k, i) for k, p in enumerate(PLACES)
                       for i, s in enumerate(state.squares[p]) if s is not None)
    return set(PLACES[:here + (first > 0)])


# What changes as each place acts: who may have taken or given tools (R4-R7), discarded them
# (R5.1, R6.1), taken loot (R5.1), discarded loot (R5.3, R8.1) or fences (R8.3), gained money.
_CHANGES = {
    "hands": {"city", "villa", "ruin", "museum"},
    "tools": {"villa", "ruin", "museum"},
    "loot": {"villa", "museum", "harbor"},
    "fences": {"harbor"},
    "held loot": {"villa", "museum"},
    "money": {"villa", "museum", "harbor"},
}
_FAMILY = {"city": "tools", "villa": "loot", "museum": "loot", "harbor": "fences"}


def _check_from_the_deal(state: State) -> None:
    """What a position saved from a game shows of the deal and of this round so far."""
    n, acted = state.num_players, begun(state)
    _expect(not any(state.money_by_round[0]),
            f"R1.4: every player starts at 0 money, but money_by_round begins with "
            f"{state.money_by_round[0]} (a position that starts elsewhere is composed: "
            f"\"composed\": true)")
    now = [p.money for p in state.players]
    _expect(bool(acted & _CHANGES["money"]) or now == state.money_by_round[state.round - 1],
            f"R5.3/R8.1: money changes only at the Villa, the Museum and the Harbor, none of "
            f"which has acted this round: it is what it was when the round began "
            f"({state.money_by_round[state.round - 1]}), not {now}")
    for place in ("city", "villa", "museum", "harbor"):
        size, shown = cards.display_size(place, n), len(state.display(place))
        _expect(place in acted or shown == size or not state.piles[_FAMILY[place]].draw,
                f"R9.1/R9.2: the {place.capitalize()} holds {shown} of its {size} cards "
                f"although the {_FAMILY[place]} pile has cards to draw and no token has acted "
                f"there this round: every display is refilled before the round begins")
    if state.round == 1:
        _check_round_one(state, acted)


def _check_round_one(state: State, acted: set[str]) -> None:
    """Round 1 shows the deal (R1.3) until the places that change it act."""
    n, start = state.num_players, state.start_player
    for family in ("tools", "loot", "fences"):
        discard = state.piles[family].discard
        _expect(bool(acted & _CHANGES[family]) or not discard,
                f"R1.2/R9.2: in round 1 no {family} card is discarded before the "
                f"{' or '.join(sorted(p.capitalize() for p in _CHANGES[family]))} acts, but "
                f"the {family} discard holds {len(discard)}")
    for seat, p in enumerate(state.players):
        _expect(bool(acted & _CHANGES["held loot"]) or not p.loot,
                f"R5.1: in round 1 loot is taken only at the Villa and the Museum, neither of "
                f"which has acted, but seat {seat} holds {len(p.loot)}")
        if acted & _CHANGES["hands"]:
            continue
        offset = (seat - start) % n
        dealt = cards.STARTING_HANDS[offset] if offset < 2 else cards.OTHER_STARTING_HAND
        _expect(p.hand_size() == dealt and not any(p.known.values()),
                f"R1.3: before round 1's first action seat {seat} holds the {dealt} tools "
                f"dealt to it, face down, not {p.hand_size()}"
                f"{' (some seen by all)' if any(p.known.values()) else ''}")


# --- money (R10.1) -----------------------------------------------------------------------------


def round_gain_limit() -> int:
    """The most money one round can pay all players together: each loot card once.

    Loot is drawn only when the displays are refilled between rounds (R9.1), so
    within a round a card is cashed (R5.3) or sold (R8.1, with the best bonus any
    fence pays for its kind) at most once.
    """
    bonus: dict[str, int] = {}
    for fence in cards.FENCE_CARDS.values():
        for kind, (_, extra) in fence.buys.items():
            bonus[kind] = max(bonus.get(kind, 0), extra)
    return sum(c.value + (0 if c.protection == "chest" else bonus.get(c.kind, 0))
               for c in cards.LOOT_CARDS.values())


def _check_money(state: State) -> None:
    history, now = state.money_by_round, [p.money for p in state.players]
    over = state.phase == "over"
    want = state.round + over
    _expect(len(history) == want,
            f"R10.1: money_by_round holds the money at the start of every round begun"
            f"{' and at the end of the game' if over else ''}: round {state.round}"
            f"{' (over)' if over else ''} needs {want} entries, not {len(history)}")
    for k, entry in enumerate(history[:state.round]):
        best = max(entry)
        _expect(best < WINNING_MONEY,
                f"R10.1: seat {entry.index(best)} had {best} money when round {k + 1} began, "
                f"but the game ends at the end of a round in which someone has "
                f"{WINNING_MONEY}: no round begins after that")
    steps, limit = [*history, now], round_gain_limit()
    for k in range(len(history)):
        _check_step(steps[k], steps[k + 1], limit,
                    f"in round {k + 1}" if k < len(history) - 1 else
                    "from money_by_round's last entry to the money now")
    if state.phase == "place":
        _expect(now == history[-1], "R3.1: money changes only by actions: while tokens are "
                f"placed it is what it was when the round began ({history[-1]}), not {now}")
    if over:
        _expect(now == history[-1], f"R10.1: a finished game's last money_by_round entry is "
                f"its final money ({now}), not {history[-1]}")
        _expect(max(now) >= WINNING_MONEY, f"R10.1: the game is over only when someone has "
                f"{WINNING_MONEY} or more at the end of a round; the most here is {max(now)}")


def _check_step(before: list[int], after: list[int], limit: int, when: str) -> None:
    for seat, (a, b) in enumerate(zip(before, after, strict=True)):
        _expect(a <= b, f"R10.1: money never falls, but seat {seat} went from {a} to {b} {when}")
    gained = sum(after) - sum(before)
    _expect(gained <= limit, f"R5.3/R8.1: {gained} money was gained {when}, but one round "
            f"pays at most {limit} in all (each loot card once)")


# --- placing (R2.1, R2.2) ----------------------------------------------------------------------


def _check_placing(state: State) -> None:
    """While placing, every token placed this round is on a square (R6.2: no exchange yet)."""
    n, start = state.num_players, state.start_player
    placed = [TOKENS_PER_PLAYER - p.tokens for p in state.players]
    turns = sum(placed)
    for j in range(n):
        seat = (start + j) % n
        due = (turns - j + n - 1) // n  # turns j, j + n, j + 2n, ... are this seat's
        _expect(placed[seat] == due,
                f"R2.1: tokens go down one a turn, clockwise from the start player (seat "
                f"{start}): after {turns} turns seat {seat} has placed {due}, not {placed[seat]}")
    rows = [tuple(s for s in state.squares[p] if s is not None) for p in PLACES]
    _expect(_order_exists(n, start, tuple(rows), (0,) * n, None, 0, (), ()),
            f"R2.1/R2.2: no order of turns from the start player (seat {start}), one token a "
            f"turn on the lowest free square, puts these tokens on these squares: "
            f"{_rows_text(PLACES, rows)}")


def _rows_text(places: Sequence[str], rows: Sequence[Sequence[int]]) -> str:
    return "; ".join(f"{p} {list(r)}" for p, r in zip(places, rows, strict=True) if r) or "none"


# --- resolving (R3.1, R5.2, R6.2) --------------------------------------------------------------


def _check_acting(state: State) -> None:
    n = state.num_players
    acting = next((k, i) for k, p in enumerate(PLACES) for i, s in enumerate(state.squares[p])
                  if s is not None)  # state.check made sure a token is left (R3.1)
    here, first = acting
    rows: list[tuple[int, ...]] = []
    for k, place in enumerate(PLACES[here:], start=here):
        row = state.squares[place][first if k == here else 0:]
        size = sum(s is not None for s in row)
        _expect(all(s is not None for s in row[:size]),
                f"R3.1: a token at the {place} lies above an empty square, but the {place} "
                f"has not acted {'beyond square ' + str(first) if k == here and first else 'yet'}"
                f": a square empties only when its token acts, square 1 first")
        rows.append(tuple(s for s in row[:size] if s is not None))
    on_board = Counter(s for row in rows for s in row)
    acted = [TOKENS_PER_PLAYER - on_board[s] for s in range(n)]
    _expect(sum(acted) >= first,
            f"R3.1: squares 1 to {first} of the {PLACES[here].capitalize()} are empty, so {first} "
            f"tokens have acted there, but only {sum(acted)} are back with their owners or on "
            f"exchange squares")
    require, need = _who_acted(state, here, first)
    _expect(_order_exists(n, state.start_player, tuple(rows), tuple(acted), 0, first,
                          tuple(require[s] for s in range(n)), tuple(need[s] for s in range(n))),
            f"R2.1/R2.2: no order of turns from the start player (seat {state.start_player}), "
            f"one token a turn on the lowest free square, leaves these tokens to act: "
            f"{_rows_text(PLACES[here:], rows)}")


def _who_acted(state: State, here: int, first: int) -> tuple[Counter[int], Counter[int]]:
    """Seats known to have acted at the acting place (``require``) and at earlier ones (``need``).

    A scoundrel used at the Villa or Museum (R5.2) and a token on an exchange square
    (R6.2) each stand for a token that acted there.
    """
    require: Counter[int] = Counter()
    need: Counter[int] = Counter()
    taken = [s for s in state.ruin_rates.values() if s is not None]
    ruin = PLACES.index("ruin")
    if taken:  # state.check: exchange squares are taken only while the Ruin acts
        _expect(here == ruin and len(taken) <= first,
                f"R6.2: {len(taken)} exchange squares are taken, but only {first} tokens "
                f"have acted at the Ruin")
        require.update(taken)
    for place, seats in state.scoundrel_used.items():
        k = PLACES.index(place)
        _expect(not seats or k <= here,
                f"R3.1/R5.2: a scoundrel was used at the {place.capitalize()}, but the "
                f"{PLACES[here].capitalize()} still has tokens to act, and places act in order "
                f"City, Villa, Ruin, Museum, Harbor: no token has acted at the "
                f"{place.capitalize()} this round")
        _expect(k < here or len(seats) <= first,
                f"R5.2: {len(seats)} scoundrel(s) used at the {place.capitalize()}, but only "
                f"{first} of its tokens have acted")
        (require if k == here else need).update(seats)
    return require, need


@lru_cache(maxsize=4096)
def _order_exists(n: int, start: int, rows: tuple[tuple[int, ...], ...], acted: tuple[int, ...],
                  acting_row: int | None, prefix: int, require: tuple[int, ...],
                  need: tuple[int, ...]) -> bool:
    """Whether some order of turns (R2.1, R2.2) puts ``rows`` on the squares.

    ``rows`` are the seats still on each place's squares, in square order.
    While acting, ``rows[acting_row]`` is the acting place's and ``acted[s]`` of
    seat ``s``'s tokens have acted, so their squares are empty now: each lay on
    one of the ``prefix`` squares of the acting place before its first token
    left, or at a place that has acted. ``require[s]`` of them must have been at
    the acting place and ``need[s]`` at earlier ones (scoundrels used, exchange
    squares taken).
    """
    total = sum(map(len, rows)) + sum(acted)
    seat_at = [(start + t) % n for t in range(total)]

    @cache
    def go(t: int, at: tuple[int, ...], wild: tuple[int, ...],
           early: tuple[int, ...] | None) -> bool:
        # at: tokens placed in each row so far; wild: tokens placed that have acted since,
        # per seat; early: ``wild`` frozen when the acting row's first token went down.
        if t == total:
            return acting_row is None or _fits(wild if early is None else early, acted, prefix,
                                               require, need)
        seat = seat_at[t]
        for j, row in enumerate(rows):
            if at[j] < len(row) and row[at[j]] == seat:
                moved = (*at[:j], at[j] + 1, *at[j + 1:])
                frozen = wild if j == acting_row and at[j] == 0 else early
                if go(t + 1, moved, wild, frozen):
                    return True
        more = (*wild[:seat], wild[seat] + 1, *wild[seat + 1:])
        return wild[seat] < acted[seat] and go(t + 1, at, more, early)

    found = go(0, (0,) * len(rows), (0,) * n, None)
    go.cache_clear()
    return found


def _fits(early: tuple[int, ...], acted: tuple[int, ...], prefix: int,
          require: tuple[int, ...], need: tuple[int, ...]) -> bool:
    """Can the tokens that acted fill the acting place's first ``prefix`` squares (from those
    placed before its first remaining token) and the earlier places, meeting ``require`` and
    ``need``? Tokens of one seat are alike here, so counts per seat decide."""
    low = list(require)
    high = [min(early[s], acted[s] - need[s]) for s in range(len(acted))]
    return all(lo <= hi for lo, hi in zip(low, high, strict=True)) and (
        sum(low) <= prefix <= sum(high))
