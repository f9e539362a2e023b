"""Plain words for players (lf.describe, lf.words): every event kind, every tool, plurals, and
redaction (R11): for seat k, a sentence is the same whatever was hidden from k."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

import langfinger_widget as lf
from langfinger_widget import records
from langfinger_widget.kernel import describe, words
from langfinger_widget.kernel.cards import TOOLS
from langfinger_widget.kernel.rules import Event

NAMES = ["Pascal", "Hans", "Tommaso"]
DATE = "2025-06-01"


def played(seed: int, players: int = 3) -> lf.Game:
    """A whole game of random moves (every event kind shows up over a few of them)."""
    g = lf.Game.new(players=players, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        g.play(rng.choice(g.legal_actions()))
    return g


# --- counts and tools ---------------------------------------------------------------------------


@pytest.mark.parametrize(("tool", "single", "double"), [
    ("lockpick", "a lockpick", "two lockpicks"),
    ("hammer", "a hammer", "two hammers"),
    ("pliers", "pliers", "two pliers"),
    ("welder", "a welder", "two welders"),
    ("map", "a map", "two maps"),
])
def test_every_tool_singular_and_plural(tool: str, single: str, double: str) -> None:
    assert words.tools([tool]) == single
    assert words.tools([tool, tool]) == double
    assert words.count(3, tool).startswith("three ")


def test_every_tool_is_covered() -> None:
    assert sorted(TOOLS) == sorted(["lockpick", "hammer", "pliers", "welder", "map"])


def test_tools_group_by_type_in_board_order() -> None:
    assert words.tools(["map", "lockpick", "map", "pliers"]) == "a lockpick, pliers and two maps"
    assert words.tools([]) == "nothing"


def test_counts_and_articles() -> None:
    assert [words.count(n, "tool") for n in (0, 1, 2, 10, 11)] == [
        "no tools", "one tool", "two tools", "ten tools", "11 tools"]
    assert words.count(2, "coins") == "two coins" and words.one("coins") == "coins"
    assert words.one("exchange") == "an exchange" and words.one("statue") == "a statue"
    assert words.plural("pliers") == "pliers" and words.plural("painting") == "paintings"


# --- each event kind ----------------------------------------------------------------------------

L_PILLAR = {"id": "L07", "protection": "pillar", "tools": ["lockpick", "hammer", "map"],
            "kind": "painting", "value": 3}
L_CHEST = {"id": "L02", "protection": "chest", "tools": ["hammer", "pliers"], "kind": "money",
           "value": 2}
EXPECTED: list[tuple[Event, str]] = [
    ({"type": "deal", "seat": 0, "tools": ["map", "pliers", "map"], "count": 3},
     "Pascal is dealt pliers and two maps."),
    ({"type": "place", "seat": 1, "place": "museum", "square": 1},
     "Hans puts a token on the Museum (square 2)."),
    ({"type": "actions_begin", "round": 2},
     "Every token is placed: the places act, the City first (round 2)."),
    ({"type": "take_tools", "seat": 1, "place": "city", "square": 0,
      "tools": ["lockpick", "lockpick"]},
     "Hans takes two lockpicks from the City."),
    ({"type": "steal", "seat": 2, "place": "villa", "square": 0, "slot": 0, "loot": L_PILLAR,
      "paid": ["lockpick", "hammer", "map"], "scoundrel": False},
     "Tommaso steals a pillar from the Villa, handing in a lockpick, a hammer and a map: "
     "a painting worth 3."),
    ({"type": "steal", "seat": 1, "place": "villa", "square": 1, "slot": 0, "loot": L_CHEST,
      "paid": ["pliers"], "scoundrel": True},
     "Hans steals a chest from the Villa, handing in pliers, the scoundrel standing in for the "
     "hammer."),
    ({"type": "cash", "seat": 1, "loot": L_CHEST, "gained": 2, "money": 2},
     "Hans opens the chest at once: +2 money (now 2)."),
    ({"type": "exchange", "seat": 0, "place": "ruin", "square": 0, "rate": "1>2",
      "gave": ["lockpick"], "drew": ["pliers", "lockpick"], "count": 2},
     "Pascal exchanges a lockpick at the Ruin (1 tool for 2) and draws a lockpick and pliers."),
    ({"type": "sell", "seat": 2, "place": "harbor", "square": 1, "fence": "F03",
      "loot": [L_PILLAR], "gained": 5, "money": 9},
     "Tommaso sells a painting worth 3 to fence F03: +5 money (now 9)."),
    ({"type": "pass", "seat": 0, "place": "harbor", "square": 2},
     "Pascal passes at the Harbor."),
    ({"type": "ruin_reopens", "seats": [2, 0]},
     "The Ruin's exchange squares open again; Tommaso's and Pascal's tokens come back."),
    ({"type": "reshuffle", "pile": "tools", "size": 23},
     "The tools discard pile is shuffled into a new draw pile (23 cards)."),
    ({"type": "refill", "place": "city", "cards": ["map", "hammer", "map"]},
     "The City is refilled with a hammer and two maps."),
    ({"type": "refill", "place": "villa", "cards": [L_PILLAR]},
     "The Villa is refilled with a painting worth 3."),
    ({"type": "refill", "place": "harbor", "cards": [
        {"id": "F03", "buys": {"painting": [1, 2], "statue": [2, 0]}}]},
     "The Harbor is refilled with fence F03 (buys painting +2 and two statues)."),
    ({"type": "start_player", "seat": 1, "round": 3},
     "Round 3 begins; Hans is the start player."),
    ({"type": "game_over", "money": [21, 14, 21], "winners": [0, 2]},
     "Game over: Pascal and Tommaso win with 21 money."),
]


@pytest.mark.parametrize(("ev", "text"), EXPECTED, ids=[e["type"] for e, _ in EXPECTED])
def test_each_event_in_plain_words(ev: Event, text: str) -> None:
    assert describe.event(ev, NAMES) == text


def test_every_event_kind_the_rules_make_is_described() -> None:
    kinds = {e["type"] for e, _ in EXPECTED}
    seen: set[str] = set()
    for seed in range(6):
        for ev in played(seed).log(None):
            seen.add(ev["type"])
            for seat in (None, 0, 1, 2):
                text = describe.event(ev, NAMES, seat)
                assert text.endswith(".") and text[0].isupper(), text
                assert "_" not in text and "[" not in text and "'id'" not in text, text
    assert seen <= kinds, f"event kinds without an expected sentence: {seen - kinds}"


def test_a_face_down_theft_shows_only_its_back_to_the_others() -> None:
    ev = EXPECTED[4][0]
    assert describe.event(ev, NAMES, 0) == (
        "Tommaso steals a pillar from the Villa, handing in a lockpick, a hammer and a map.")
    assert describe.event(ev, NAMES, 2).endswith(": a painting worth 3.")


def test_the_others_learn_how_many_tools_were_drawn_not_which() -> None:
    ev = EXPECTED[7][0]
    assert describe.event(ev, NAMES, 1) == (
        "Pascal exchanges a lockpick at the Ruin (1 tool for 2) and draws two tools.")


def test_refills_between_rounds_make_one_sentence() -> None:
    refills = [e for e, _ in EXPECTED if e["type"] == "refill"]
    text = describe.events(refills, NAMES, seat=1)
    assert text == ("The board is refilled: the City with a hammer and two maps, the Villa with "
                    "a pillar (a lockpick, a hammer and a map) and the Harbor with fence F03 "
                    "(buys painting +2 and two statues).")


# --- redaction: the same words whatever was hidden --------------------------------------------


def _other_tools(tools: list[str], rng: random.Random) -> list[str]:
    other = [rng.choice(TOOLS) for _ in tools]
    return other if other != tools else [TOOLS[(TOOLS.index(t) + 1) % len(TOOLS)] for t in tools]


def _other_front(card: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same back with another front: a card the seat could not tell apart."""
    kind = rng.choice([k for k in ("painting", "coins", "gold", "jewelry", "statue")
                       if k != card["kind"]])
    return {**card, "id": f"L{rng.randint(31, 99)}", "kind": kind, "value": card["value"] % 4 + 1}


def resample_hidden(ev: Event, seat: int, rng: random.Random) -> Event:
    """``ev`` with everything R11 hides from ``seat`` dealt otherwise (written from the rules,
    not from views.redact_event, so that the test checks the redaction)."""
    out = copy.deepcopy(ev)
    kind, mine = ev["type"], ev.get("seat") == seat
    if kind == "deal" and not mine:  # R11.1: hands are dealt face down
        out["tools"] = _other_tools(ev["tools"], rng)
    elif kind == "exchange" and not mine:  # R11.2: drawn blind
        out["drew"] = _other_tools(ev["drew"], rng)
    elif kind == "steal" and not mine and ev["loot"]["protection"] != "chest":  # R5.3
        out["loot"] = _other_front(ev["loot"], rng)
    elif kind == "refill" and ev["place"] in ("villa", "museum"):  # R5.1: laid out face down
        out["cards"] = [_other_front(c, rng) for c in ev["cards"]]
    return out


@pytest.mark.parametrize("seed", range(4))
def test_hidden_cards_never_change_a_seats_sentence(seed: int) -> None:
    rng = random.Random(seed)
    changed_for_everyone = 0
    for ev in played(seed).log(None):
        for seat in range(3):
            twin = resample_hidden(ev, seat, rng)
            assert describe.event(ev, NAMES, seat) == describe.event(twin, NAMES, seat), ev
            changed_for_everyone += describe.event(ev, NAMES) != describe.event(twin, NAMES)
    assert changed_for_everyone > 0  # the resampling did change what the open board says


@pytest.mark.parametrize("seat", range(3))
def test_a_seats_captions_are_the_same_from_its_own_record(seat: int) -> None:
    """A seat's record holds only what the seat saw, the rest dealt at random when read: its
    captions must be the full record's, seen from that seat, word for word."""
    g = played(11)
    full = records.read(g.record(seat=None, date=DATE))
    for sampler in (0, 1):
        own = records.read(g.record(seat=seat, date=DATE), seed=sampler)
        assert own.captions(seat) == full.captions(seat)
    assert full.captions(None) != full.captions(seat)


# --- actions before they are played -------------------------------------------------------------


def test_each_action_in_plain_words_from_the_seats_view() -> None:
    from langfinger_widget.kernel.builder import Position

    g = (Position(["pascal", "hans"], seed=1).phase("act")
         .villa("L07").tokens("villa", 0).tokens("harbor", 0)
         .hand(0, hammer=1, map=1).loot(0, "L16", "L19").harbor("F14").build())
    view = g.view(0)
    card = view["villa"][0]
    assert "kind" not in card  # the seat sees the back only
    steal = describe.action({"type": "steal", "slot": 0, "pay": ["hammer", "map"],
                             "scoundrel": True}, view)
    assert steal == (f"steal {describe.loot_back(card)} from the Villa, handing in a hammer "
                     "and a map, the scoundrel standing in for the lockpick")
    assert describe.action({"type": "pass"}, view) == "pass at the Villa"
    assert describe.action({"type": "place", "place": "ruin"}, view) == "put a token on the Ruin"
    assert describe.action({"type": "take_tools", "tools": ["pliers"]}, view) == \
        "take pliers from the City"
    assert describe.action({"type": "exchange", "rate": "3>4",
                            "give": ["map", "map", "hammer"]}, view) == \
        "exchange a hammer and two maps at the Ruin (3 tools for 4)"
    sell = describe.action({"type": "sell", "fence": "F14", "loot": ["L16", "L19"]}, view)
    assert sell == "sell a statue worth 4 and a statue worth 3 to fence F14"
    assert describe.move({"type": "pass"}, view, "Pascal") == "Pascal passes at the Villa."
    hans = describe.move({"type": "take_tools", "tools": ["map", "map"]}, view, "Hans")
    assert hans == "Hans takes two maps from the City."


def test_the_modules_examples() -> None:
    import doctest

    for module in (words, describe):
        failures, tests = doctest.testmod(module)
        assert tests > 0 and failures == 0, module.__name__
