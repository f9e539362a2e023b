"""Property tests over thousands of random games (hypothesis), 2-5 players, both variants.

What must hold in every game, at every step:

* cards and tokens are conserved (60 tools, 30 loot, 14 fences, 3 tokens a player: R0, R1.4);
* money never falls;
* legal actions are sound and complete: checked against a brute-force enumeration of
  every structurally possible action and an independent, written-out legality oracle;
* ``to_dict``/``from_dict`` in mid-game continues identically, reshuffles included;
* ``undo`` is exact; the same seed gives the same game;
* a seat's view and log do not change when only what it cannot see changes (R11);
* no hidden loot id reaches a seat's view or log;
* bad actions raise ``IllegalAction`` naming a ruling and change nothing; impossible
  positions raise ``InvalidState``.

Heavy checks run every few steps so that the suite stays within a few minutes.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from itertools import combinations, combinations_with_replacement
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_kit import PLAYERS, SEEDS, VARIANTS

import langfinger_widget as lf
from langfinger_widget.kernel.cards import (
    PLACES,
    RATE_COUNTS,
    RUIN_RATES,
    TOOLS,
)
from langfinger_widget.testing import check_conserved, hidden_twin

BASE = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
TOOL_MULTISETS = [c for n in range(4) for c in combinations_with_replacement(TOOLS, n)]
RULING = re.compile(r"^(R\d|not an action:)")


def new_game(players: int, seed: int, variant: str) -> tuple[lf.Game, random.Random]:
    g = lf.Game.new(players=players, seed=seed, variant=variant, start_player=seed % players)
    return g, random.Random(seed)


def steps(g: lf.Game, rng: random.Random) -> Iterator[dict[str, Any]]:
    """Play a random game to its end, yielding each action before it is played."""
    while not g.is_over:
        action = rng.choice(g.legal_actions())
        yield action
        g.play(action)


# --- conservation ----------------------------------------------------------------------------


@settings(BASE, max_examples=1200)
@given(PLAYERS, SEEDS, VARIANTS)
def test_cards_and_tokens_conserved_money_never_falls(players: int, seed: int,
                                                      variant: str) -> None:
    g, rng = new_game(players, seed, variant)
    money = g.money
    for i, _ in enumerate(steps(g, rng)):
        if i % 4 == 0:
            check_conserved(g)
        assert all(a <= b for a, b in zip(money, g.money, strict=True)), "money never falls"
        money = g.money
    check_conserved(g)
    assert g.winners and all(g.money[w] == max(g.money) for w in g.winners)
    assert max(g.money) >= 20


# --- legal actions: sound and complete -------------------------------------------------------


def normalize(a: dict[str, Any]) -> dict[str, Any]:
    """The canonical form of an action: tools in TOOLS order, loot by id, scoundrel explicit."""
    a = dict(a)
    for field in ("tools", "pay", "give"):
        if field in a:
            a[field] = sorted(a[field], key=TOOLS.index)
    if a["type"] == "sell":
        a["loot"] = sorted(a["loot"])
    if a["type"] == "steal":
        a.setdefault("scoundrel", False)
    return a


def candidates(g: lf.Game) -> list[dict[str, Any]]:
    """Every structurally possible action of the type the position asks for (R2.1, R3.1),
    some bogus ones, and one action of every other type (wrong phase or place)."""
    s = g.state
    decision = g.view(None)["decision"]
    kind = None if decision is None else decision["kind"]
    out: list[dict[str, Any]] = [{"type": "pass"}]
    out += [{"type": "place", "place": p} for p in PLACES]
    out += [{"type": "take_tools", "tools": ["map", "map"]},
            {"type": "steal", "slot": 0, "pay": ["map"], "scoundrel": False},
            {"type": "exchange", "rate": "1>1", "give": ["map"]}]
    for ms in TOOL_MULTISETS:
        if kind == "city":
            out.append({"type": "take_tools", "tools": list(ms)})
        if kind in ("villa", "museum"):
            for slot in range(4):
                for scoundrel in (False, True):
                    out.append({"type": "steal", "slot": slot, "pay": list(ms),
                                "scoundrel": scoundrel})
        if kind == "ruin":
            for rate in (*RUIN_RATES, "4>5", "2>1"):
                out.append({"type": "exchange", "rate": rate, "give": list(ms)})
    seat = g.to_move
    mine = s.players[seat].loot if seat is not None else []
    subsets = [list(c) for n in range(4) for c in combinations(sorted(mine), n)]
    if s.piles["loot"].draw:
        subsets.append([s.piles["loot"].draw[0]])  # loot not held
    for fence in sorted(lf.FENCE_CARDS) if kind == "harbor" else ["F01"]:
        out += [{"type": "sell", "fence": fence, "loot": sub} for sub in subsets]
    return out


def oracle(g: lf.Game, a: dict[str, Any]) -> bool:
    """Legality written out again from RULINGS.md, independently of rules.py."""
    s = g.state
    if s.phase == "over":
        return False
    if s.phase == "place":
        return a["type"] == "place" and None in s.squares[a["place"]]  # R2.1, R2.2
    place, seat = next((p, x) for p in PLACES for x in s.squares[p] if x is not None)
    if a["type"] == "pass":
        return True  # R3.1
    player = s.players[seat]
    hand = Counter({t: n for t, n in player.hand.items() if n})
    kind = a["type"]
    if place == "city":  # R4
        return (kind == "take_tools" and len(a["tools"]) == min(2, len(s.city)) > 0
                and not Counter(a["tools"]) - Counter(s.city))
    if place in ("villa", "museum"):  # R5.1, R5.2, R7
        display = s.display(place)
        if kind != "steal" or not 0 <= a["slot"] < len(display):
            return False
        need = Counter(lf.LOOT_CARDS[display[a["slot"]]].tools)
        if a["scoundrel"]:
            if seat in s.scoundrel_used[place] or need[player.tool] == 0:
                return False
            need[player.tool] -= 1
        return Counter(a["pay"]) == +need and not Counter(a["pay"]) - hand
    if place == "ruin":  # R6.1, R6.2
        rate = a.get("rate")
        return (kind == "exchange" and rate in RATE_COUNTS and s.ruin_rates[rate] is None
                and len(a["give"]) == RATE_COUNTS[rate][0] and not Counter(a["give"]) - hand)
    # harbor: R8.1, R8.2
    if kind != "sell" or a["fence"] not in s.harbor or not a["loot"]:
        return False
    if Counter(a["loot"]) - Counter(player.loot):
        return False
    kinds = {lf.LOOT_CARDS[i].kind for i in a["loot"]}
    buys = lf.FENCE_CARDS[a["fence"]].buys
    return len(kinds) == 1 and (k := kinds.pop()) in buys and len(a["loot"]) <= buys[k][0]


def check_legal(g: lf.Game) -> None:
    legal = g.legal_actions()
    keyed = [json.dumps(normalize(a), sort_keys=True) for a in legal]
    assert len(set(keyed)) == len(keyed), "no duplicates in legal_actions"
    assert all(a == normalize(a) for a in legal), "legal actions are in canonical form"
    legal_set = set(keyed)
    found = set()
    for a in candidates(g):
        why = g.why_illegal(a)
        listed = json.dumps(normalize(a), sort_keys=True) in legal_set
        assert (why is None) == listed == oracle(g, a), (a, why, listed)
        if listed:
            found.add(json.dumps(normalize(a), sort_keys=True))
        else:
            assert why is not None and RULING.match(why), why
    assert found == legal_set, "every legal action is among the candidates"
    for a in legal:  # every legal action plays
        g.copy().play(a)


@settings(BASE, max_examples=40)
@given(PLAYERS, SEEDS, VARIANTS)
def test_legal_actions_sound_and_complete(players: int, seed: int, variant: str) -> None:
    g, rng = new_game(players, seed, variant)
    every = rng.randint(3, 6)
    for i, _ in enumerate(steps(g, rng)):
        if i % every == 0:
            check_legal(g)
    check_legal(g)


# --- serialization, undo, seeds --------------------------------------------------------------


@settings(BASE, max_examples=150)
@given(PLAYERS, SEEDS, VARIANTS, st.floats(min_value=0, max_value=1))
def test_to_dict_from_dict_continues_identically(players: int, seed: int, variant: str,
                                                  where: float) -> None:
    g, rng = new_game(players, seed, variant)
    twin: lf.Game | None = None
    at = int(where * 250)
    i = 0
    while not g.is_over:
        if twin is None and i >= at:
            twin = lf.Game.from_dict(json.loads(json.dumps(g.to_dict())))
            assert twin.to_dict() == g.to_dict()
            assert twin.view(None)["players"] == g.view(None)["players"]
        a = rng.choice(g.legal_actions())
        events = g.play(a)
        if twin is not None:
            assert twin.play(a) == events  # reshuffles included: same cards drawn
        i += 1
    if twin is not None:
        assert twin.to_dict() == g.to_dict() and twin.is_over


@settings(BASE, max_examples=60)
@given(PLAYERS, SEEDS, VARIANTS)
def test_undo_is_exact(players: int, seed: int, variant: str) -> None:
    g, rng = new_game(players, seed, variant)
    for i, _ in enumerate(steps(g, rng)):
        if i % 7 == 0:
            before, log, legal = g.to_dict(), g.log(None), g.legal_actions()
            history = g.history
            other = rng.choice(legal)
            g.play(other)
            g.undo()
            assert g.to_dict() == before and g.log(None) == log
            assert g.legal_actions() == legal and g.history == history


@settings(BASE, max_examples=40)
@given(PLAYERS, SEEDS, VARIANTS)
def test_same_seed_same_game(players: int, seed: int, variant: str) -> None:
    games = []
    for _ in range(2):
        g, rng = new_game(players, seed, variant)
        for _ in steps(g, rng):
            pass
        games.append(json.dumps([g.to_dict(), g.log(None)]))
    assert games[0] == games[1]


# --- what a seat may see ---------------------------------------------------------------------


REVEALING = {"cash", "sell", "refill", "deal", "game_over"}


@settings(BASE, max_examples=120)
@given(PLAYERS, SEEDS, VARIANTS, st.integers(min_value=0, max_value=4))
def test_view_and_log_blind_to_what_seat_cannot_see(players: int, seed: int, variant: str,
                                                     seat_pick: int) -> None:
    g, rng = new_game(players, seed, variant)
    seat = seat_pick % players
    for i, _ in enumerate(steps(g, rng)):
        if i % 23 != 5:
            continue
        a, b = lf.Game.from_dict(g.to_dict()), hidden_twin(g, seat, rng)
        assert a.view(seat) == b.view(seat)
        for _ in range(12):  # play on while nothing hidden is revealed to the seat
            if a.is_over or a.to_move == seat:
                break
            common = [x for x in a.legal_actions() if b.why_illegal(x) is None]
            x = rng.choice(common)
            ea, eb = a.play(x), b.play(x)
            if any(e["type"] in REVEALING or e["type"] == "reshuffle" for e in ea + eb):
                break
            assert a.log(seat) == b.log(seat)
            assert a.view(seat) == b.view(seat)


LOOT_ID = re.compile(r"^L\d\d$")


def loot_ids(obj: Any) -> set[str]:
    """Every loot id anywhere in a JSON-like value."""
    found: set[str] = set()
    if isinstance(obj, dict):
        for v in obj.values():
            found |= loot_ids(v)
    elif isinstance(obj, list):
        for v in obj:
            found |= loot_ids(v)
    elif isinstance(obj, str) and LOOT_ID.match(obj) and obj in lf.LOOT_CARDS:
        found.add(obj)
    return found


def check_no_hidden_ids(g: lf.Game) -> None:
    s = g.state
    full = g.log(None)
    public: set[str] = set(s.piles["loot"].discard)
    for e in full:
        if e["type"] in ("cash", "sell"):
            public |= loot_ids(e["loot"])
        if e["type"] == "steal" and e["loot"]["protection"] == "chest":
            public.add(e["loot"]["id"])
    for seat in range(g.num_players):
        mine = {e["loot"]["id"] for e in full if e["type"] == "steal" and e["seat"] == seat}
        v = g.view(seat)
        assert "seed" not in v and "shuffles" not in v
        assert loot_ids(v) <= set(s.players[seat].loot) | set(s.piles["loot"].discard)
        assert loot_ids(g.log(seat)) <= public | mine
        for e in g.log(seat):
            if e["type"] == "deal" and e["seat"] != seat:
                assert e["tools"] is None
            if e["type"] == "exchange" and e["seat"] != seat:
                assert e["drew"] is None
        assert not isinstance(v["piles"]["tools"]["draw"], list)


@settings(BASE, max_examples=150)
@given(PLAYERS, SEEDS, VARIANTS)
def test_no_hidden_card_id_in_any_view_or_log(players: int, seed: int, variant: str) -> None:
    g, rng = new_game(players, seed, variant)
    for i, _ in enumerate(steps(g, rng)):
        if i % 31 == 0:
            check_no_hidden_ids(g)
    check_no_hidden_ids(g)


# --- bad input -------------------------------------------------------------------------------


def malformed(g: lf.Game) -> list[Any]:
    """Actions of every broken shape, plus legal-looking ones that the position forbids."""
    s = g.state
    seat = g.to_move
    held = s.players[seat].loot if seat is not None else []
    not_held = [c for c in lf.LOOT_CARDS if c not in held][:1]
    return [
        None, 3, "pass", ["pass"], {}, {"type": None}, {"type": "dance"}, {"type": 1},
        {"type": "pass", "extra": 1}, {"type": "place"}, {"type": "place", "place": "moon"},
        {"type": "place", "place": 3}, {"type": "place", "place": "city", "square": 0},
        {"type": "take_tools"}, {"type": "take_tools", "tools": "map"},
        {"type": "take_tools", "tools": ["spoon", "map"]}, {"type": "take_tools", "tools": [1]},
        {"type": "steal", "slot": "0", "pay": []}, {"type": "steal", "slot": True, "pay": []},
        {"type": "steal", "slot": 0}, {"type": "steal", "slot": 0, "pay": [], "scoundrel": 1},
        {"type": "steal", "slot": -1, "pay": ["map"]}, {"type": "steal", "slot": 9, "pay": []},
        {"type": "exchange", "rate": 12, "give": []}, {"type": "exchange", "rate": "1>2"},
        {"type": "exchange", "rate": "9>9", "give": ["map"]},
        {"type": "sell", "fence": 3, "loot": []}, {"type": "sell", "fence": "F99", "loot": []},
        {"type": "sell", "fence": "F01", "loot": "L01"},
        {"type": "sell", "fence": "F01", "loot": not_held},
        *[{"type": "sell", "fence": f, "loot": []} for f in s.harbor],
        *[{"type": "sell", "fence": f, "loot": [*held, *held]} for f in s.harbor if held],
    ]


@settings(BASE, max_examples=80)
@given(PLAYERS, SEEDS, VARIANTS, st.integers(min_value=0, max_value=400))
def test_bad_actions_name_a_ruling_and_change_nothing(players: int, seed: int, variant: str,
                                                      stop: int) -> None:
    g, rng = new_game(players, seed, variant)
    for i, _ in enumerate(steps(g, rng)):
        if i % 37 == stop % 37:
            check_bad_actions(g)
        if i >= stop:
            break
    check_bad_actions(g)


def check_bad_actions(g: lf.Game) -> None:
    before, log = g.to_dict(), g.log(None)
    legal = g.legal_actions()
    rng = random.Random(len(log))
    # Well-formed but forbidden here: wrong phase or place, cards not held, closed squares.
    forbidden = [a for a in candidates(g) if normalize(a) not in legal]
    for a in [*malformed(g), *rng.sample(forbidden, min(25, len(forbidden)))]:
        if a in legal:
            continue
        why = g.why_illegal(a)
        assert why is not None and RULING.match(why), (a, why)
        try:
            g.play(a)
        except lf.IllegalAction as e:
            assert str(e) == why
        else:
            raise AssertionError(f"{a!r} played")
        assert g.to_dict() == before and g.log(None) == log and g.legal_actions() == legal
    assert g.is_legal(legal[0]) if legal else g.is_over


def _overfill_harbor(x: dict[str, Any]) -> None:
    """Move every fence to the Harbor: more than any player count allows (R1.1)."""
    for pile in ("draw", "discard"):
        x["harbor"].extend(x["piles"]["fences"][pile])
        x["piles"]["fences"][pile] = []


def _extra_token(x: dict[str, Any]) -> None:
    """Put one more token of seat 0 on the lowest free square of the first place with room."""
    row = next(r for r in x["squares"].values() if None in r)
    row[row.index(None)] = 0


def impossible(d: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Mutations of a real position that no game can reach."""
    def mutate(name: str, fn: Any) -> tuple[str, dict[str, Any]]:
        x = copy.deepcopy(d)
        fn(x)
        return name, x

    p0 = "players"
    yield mutate("61 tools", lambda x: x[p0][0]["hand"].__setitem__(
        "map", x[p0][0]["hand"].get("map", 0) + 1))
    yield mutate("unknown tool", lambda x: x[p0][0]["hand"].__setitem__("spoon", 1))
    yield mutate("negative money", lambda x: x[p0][0].__setitem__("money", -1))
    yield mutate("token too many", lambda x: x[p0][0].__setitem__("tokens", 4))
    yield mutate("unknown format", lambda x: x.__setitem__("format", "langfinger/0"))
    yield mutate("no format", lambda x: x.pop("format"))
    yield mutate("unknown card", lambda x: x["piles"]["loot"]["draw"].append("L99"))
    yield mutate("unknown fence", lambda x: x["piles"]["fences"]["discard"].append("F15"))
    yield mutate("unknown key", lambda x: x.__setitem__("secret", 1))
    yield mutate("bad phase", lambda x: x.__setitem__("phase", "lunch"))
    yield mutate("one player", lambda x: x.__setitem__(p0, x[p0][:1]))
    yield mutate("same scoundrel", lambda x: x[p0][1].__setitem__(
        "scoundrel", x[p0][0]["scoundrel"]))
    if d["piles"]["loot"]["draw"]:
        yield mutate("loot missing", lambda x: x["piles"]["loot"]["draw"].clear())
    all_loot = [*d["villa"], *d["museum"], *d["piles"]["loot"]["draw"]]
    if all_loot:
        yield mutate("card in two places", lambda x: x["piles"]["loot"]["discard"].append(
            all_loot[0]))
    yield mutate("overfull harbor", _overfill_harbor)
    yield mutate("a fourth token on the board", _extra_token)
    yield mutate("seat out of range", lambda x: x["squares"]["city"].__setitem__(
        4, len(x[p0])))


@settings(BASE, max_examples=40)
@given(PLAYERS, SEEDS, VARIANTS, st.integers(min_value=0, max_value=300))
def test_impossible_positions_raise_invalid_state(players: int, seed: int, variant: str,
                                                  stop: int) -> None:
    g, rng = new_game(players, seed, variant)
    for i, _ in enumerate(steps(g, rng)):
        if i >= stop:
            break
    d = g.to_dict()
    lf.Game.from_dict(copy.deepcopy(d))  # the real position loads
    for name, bad in impossible(d):
        try:
            lf.Game.from_dict(bad)
        except lf.InvalidState as e:
            assert str(e), name
        else:
            raise AssertionError(f"{name}: loaded an impossible position")


JUNK: list[Any] = [None, True, False, -1, 0, 1, 2, 3, 7, 99, 1.5, "", "x", "map", "L01", "F01",
                   "city", "1>2", "L99", [], [None], [1], ["map"], {}, {"map": 1}, {"x": 1},
                   [[1]]]


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a value inside a JSON-like value."""
    if prefix:
        yield prefix
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(
        obj, list) else []
    for k, v in items:
        yield from _paths(v, (*prefix, k))


@settings(BASE, max_examples=60)
@given(PLAYERS, SEEDS, VARIANTS, st.integers(min_value=0, max_value=300))
def test_fuzzed_positions_load_only_as_invalid_state_or_playable(
        players: int, seed: int, variant: str, stop: int) -> None:
    """Any junk in any field: ``from_dict`` raises InvalidState (never TypeError & co.),
    and whatever does load can be viewed, logged and played on."""
    g, rng = new_game(players, seed, variant)
    for i, _ in enumerate(steps(g, rng)):
        if i >= stop:
            break
    d = g.to_dict()
    paths = list(_paths(d))
    for _ in range(40):
        x = copy.deepcopy(d)
        path = rng.choice(paths)
        parent = x
        for k in path[:-1]:
            parent = parent[k]
        if isinstance(parent, dict) and rng.random() < 0.3:
            del parent[path[-1]]
        else:
            parent[path[-1]] = rng.choice(JUNK)
        try:
            h = lf.Game.from_dict(x)
        except lf.InvalidState:
            continue
        for _ in range(20):
            for seat in [None, *range(h.num_players)]:
                h.view(seat)
                h.log(seat)
            if h.is_over:
                break
            h.play(rng.choice(h.legal_actions()))
