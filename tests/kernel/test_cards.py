"""The card catalogue (R0): the shipped deck and the loader that checks any deck.

Each test is named after the ruling it checks. The deck tests read the
catalogue the package installed at import time (``data/deck.json``); the
loader tests build small broken variants of that same file and expect
``InvalidState`` with a message that names the ruling broken.
"""

from __future__ import annotations

import copy
import json
from collections import Counter, defaultdict
from pathlib import Path
from statistics import mean
from typing import Any

import pytest

import langfinger_widget as lf
from langfinger_widget.kernel.cards import (
    DEFAULT_DECK_PATH,
    FENCE_CARDS,
    KINDS,
    LOOT_CARDS,
    PROTECTIONS,
    SCOUNDRELS,
    TOOLS,
    TOOLS_PER_TYPE,
    FenceCard,
    LootCard,
    load_deck,
    parse_deck,
    use_deck,
)
from langfinger_widget.kernel.errors import InvalidState

SELLABLE = tuple(k for k in KINDS if k != "money")
# R0.2: which kinds each protection may hold (the reviews' pairing).
HOLDS = {
    "chest": {"money"},
    "pillar": {"painting"},
    "showcase": {"statue", "coins"},
    "safe": {"gold", "jewelry"},
}


def _raw() -> dict[str, Any]:
    """A fresh copy of the shipped deck file, to break on purpose."""
    data: dict[str, Any] = json.loads(DEFAULT_DECK_PATH.read_text(encoding="utf-8"))
    return data


def _loot(**back: Any) -> list[LootCard]:
    """Cards whose fields equal ``back`` (tools compared as multisets)."""
    want_tools = Counter(back.pop("tools", ()))
    return [
        c
        for c in LOOT_CARDS.values()
        if all(getattr(c, k) == v for k, v in back.items())
        and (not want_tools or Counter(c.tools) == want_tools)
    ]


def _fence_buys(buys: dict[str, tuple[int, int]]) -> list[FenceCard]:
    return [f for f in FENCE_CARDS.values() if dict(f.buys) == buys]




# --- R0.1 / R0.5: tools and scoundrels -------------------------------------------------


def test_R0_1_five_tool_types_of_twelve_cards() -> None:
    assert len(TOOLS) == len(set(TOOLS)) == 5
    assert TOOLS_PER_TYPE * len(TOOLS) == 60


def test_R0_5_each_scoundrel_brings_one_tool_and_a_colour_with_a_shape() -> None:
    by_tool = {s.tool: s.name for s in SCOUNDRELS.values()}
    assert by_tool == {
        "lockpick": "Pascal Passepartout",
        "hammer": "Hans Hammer",
        "pliers": "Tommaso Tenaglia",
        "welder": "Yoshiko Yosetsuki",
        "map": "Bobby Blueprint",
    }
    colours = {s.name.split()[0]: s.colour for s in SCOUNDRELS.values()}
    assert colours == {
        "Hans": "brown",
        "Yoshiko": "yellow",
        "Tommaso": "green",
        "Pascal": "blue",
        "Bobby": "red",
    }
    assert len({s.shape for s in SCOUNDRELS.values()}) == len(SCOUNDRELS)  # never colour alone


# --- R0.2: loot ------------------------------------------------------------------------


def test_R0_2_thirty_loot_cards_L01_to_L30() -> None:
    assert sorted(LOOT_CARDS) == [f"L{n:02d}" for n in range(1, 31)]
    assert all(card_id == c.id for card_id, c in LOOT_CARDS.items())


def test_R0_2_backs_show_a_protection_and_2_or_3_tools() -> None:
    for c in LOOT_CARDS.values():
        assert c.protection in PROTECTIONS, c
        assert 2 <= len(c.tools) <= 3 and set(c.tools) <= set(TOOLS), c
    assert {len(c.tools) for c in LOOT_CARDS.values()} == {2, 3}


def test_R0_2_chests_hold_money_1_to_3_the_rest_is_worth_2_to_4() -> None:
    for c in LOOT_CARDS.values():
        if c.protection == "chest":
            assert c.kind == "money" and 1 <= c.value <= 3, c
        else:
            assert c.kind in SELLABLE and 2 <= c.value <= 4, c


def test_R0_2_protections_pair_with_their_kinds() -> None:
    for c in LOOT_CARDS.values():
        assert c.kind in HOLDS[c.protection], c
    # and every pairing is actually used, every kind exists
    used = {(c.protection, c.kind) for c in LOOT_CARDS.values()}
    assert used == {(p, k) for p, kinds in HOLDS.items() for k in kinds}


def test_R0_2_more_tools_means_higher_value() -> None:
    for protection in PROTECTIONS:
        by_size = defaultdict(list)
        for c in _loot(protection=protection):
            by_size[len(c.tools)].append(c.value)
        assert set(by_size) == {2, 3}, protection
        assert mean(by_size[3]) > mean(by_size[2]), protection


def test_R0_2_some_cards_show_a_tool_twice() -> None:
    doubled = Counter(t for c in LOOT_CARDS.values() for t, n in Counter(c.tools).items() if n == 2)
    assert set(doubled) == set(TOOLS)  # every tool is doubled somewhere
    assert len(set(doubled.values())) == 1  # and equally often


def test_R0_2_rulebook_example_cards_are_in_the_deck() -> None:
    # Villa example: a pillar (painting) needing lockpick, hammer, map,
    # and a chest worth 2 needing hammer and pliers.
    assert _loot(protection="pillar", kind="painting", tools=("lockpick", "hammer", "map"))
    assert _loot(protection="chest", value=2, tools=("hammer", "pliers"))
    # Museum example: one card needing map, map, welder; one needing welder, hammer.
    assert _loot(tools=("map", "map", "welder"))
    assert _loot(tools=("welder", "hammer"))
    # Harbor example: coins worth 2 and a painting worth 3.
    assert _loot(kind="coins", value=2)
    assert _loot(kind="painting", value=3)


def test_R0_2_rulebook_story_can_be_replayed_with_single_cards() -> None:
    # The loot Tommaso steals at the Villa can be the painting worth 3 he sells,
    # and the card Hans takes at the Museum can be the coins worth 2 he sells.
    assert _loot(protection="pillar", kind="painting", value=3, tools=("lockpick", "hammer", "map"))
    assert _loot(kind="coins", value=2, tools=("welder", "hammer"))


def test_R0_2_tools_are_balanced_so_every_scoundrel_is_equally_useful() -> None:
    pictured = Counter(t for c in LOOT_CARDS.values() for t in c.tools)
    on_cards = Counter(t for c in LOOT_CARDS.values() for t in set(c.tools))
    worth = Counter({t: 0 for t in TOOLS})
    for c in LOOT_CARDS.values():
        for t in set(c.tools):
            worth[t] += c.value
    assert set(pictured) == set(TOOLS)
    assert len(set(pictured.values())) == 1, pictured  # each tool demanded equally
    assert len(set(on_cards.values())) == 1, on_cards  # each scoundrel helps on as many cards
    assert max(worth.values()) - min(worth.values()) <= 1, worth  # ... worth as much


def test_R0_2_no_back_reveals_its_front() -> None:
    """R11.1 hides the front of face-down loot; the catalogue must not undo that.

    Everyone sees a face-down card's back exactly as ``LootCard.back()`` gives it,
    so every back must belong to at least 2 cards, with at least 2 different fronts.
    """
    fronts: dict[str, set[tuple[str, int]]] = defaultdict(set)
    cards: Counter[str] = Counter()
    for c in LOOT_CARDS.values():
        back = json.dumps(c.back(), sort_keys=False)  # exact, tool order included
        fronts[back].add((c.kind, c.value))
        cards[back] += 1
    lonely = {b: n for b, n in cards.items() if n < 2 or len(fronts[b]) < 2}
    assert not lonely, f"these backs identify their front: {lonely}"


def test_R0_2_shipped_file_lists_each_back_in_one_order() -> None:
    # The loader canonicalises anyway; the file itself should already agree.
    for raw in _raw()["loot"]:
        assert raw["tools"] == sorted(raw["tools"], key=TOOLS.index), raw["id"]


# --- R0.3: fences ----------------------------------------------------------------------


def test_R0_3_fourteen_fences_F01_to_F14() -> None:
    assert sorted(FENCE_CARDS) == [f"F{n:02d}" for n in range(1, 15)]
    assert all(card_id == f.id for card_id, f in FENCE_CARDS.items())


def test_R0_3_fences_buy_kinds_once_or_twice_with_bonus_0_to_2() -> None:
    entries = [(k, pair) for f in FENCE_CARDS.values() for k, pair in f.buys.items()]
    assert all(k in SELLABLE for k, _ in entries)
    assert {count for _, (count, _b) in entries} == {1, 2}  # some doubles
    assert {bonus for _, (_c, bonus) in entries} == {0, 1, 2}  # some +1, some +2
    assert len({tuple(sorted(f.buys.items())) for f in FENCE_CARDS.values()}) == 14  # all differ


def test_R0_3_rulebook_example_fences_are_in_the_deck() -> None:
    assert _fence_buys({"gold": (1, 0), "jewelry": (1, 1), "statue": (2, 0), "painting": (1, 0)})
    assert [f for f in FENCE_CARDS.values() if f.buys.get("painting") == (1, 2)]


def test_R0_3_harbor_example_can_be_replayed() -> None:
    # Three fences: only the left one buys coins; the other two both buy
    # paintings, one of them with +2.
    middle = _fence_buys(
        {"gold": (1, 0), "jewelry": (1, 1), "statue": (2, 0), "painting": (1, 0)}
    )[0]
    rights = [
        f
        for f in FENCE_CARDS.values()
        if f.buys.get("painting") == (1, 2) and "coins" not in f.buys
    ]
    lefts = [f for f in FENCE_CARDS.values() if "coins" in f.buys]
    assert "coins" not in middle.buys and rights and lefts
    coins_2 = _loot(kind="coins", value=2)[0]
    painting_3 = _loot(kind="painting", value=3)[0]
    assert coins_2.value + lefts[0].buys["coins"][1] >= 2
    assert painting_3.value + rights[0].buys["painting"][1] == 5  # the rulebook's 3 + 2


def test_R0_3_every_kind_sells_and_the_economy_is_even() -> None:
    loot_count = Counter(c.kind for c in LOOT_CARDS.values() if c.kind != "money")
    loot_value: Counter[str] = Counter()
    for c in LOOT_CARDS.values():
        loot_value[c.kind] += c.value
    fences = Counter(k for f in FENCE_CARDS.values() for k in f.buys)
    capacity: Counter[str] = Counter()
    bonus: Counter[str] = Counter()
    for f in FENCE_CARDS.values():
        for k, (count, b) in f.buys.items():
            capacity[k] += count
            bonus[k] += b
    for table in (loot_count, fences, capacity, bonus):
        assert set(table) == set(SELLABLE)
        assert len({table[k] for k in SELLABLE}) == 1, table
    assert len({loot_value[k] for k in SELLABLE}) == 1, loot_value
    assert all(capacity[k] > loot_count[k] for k in SELLABLE)  # room to sell every card


# --- R0.4: the deck is data, and the loader guards it -----------------------------------


def test_R0_4_shipped_file_is_what_the_package_installed() -> None:
    deck = load_deck(DEFAULT_DECK_PATH)
    assert deck.loot == LOOT_CARDS and deck.fences == FENCE_CARDS
    assert lf.LOOT_CARDS is LOOT_CARDS and lf.cards.LOOT_CARDS is LOOT_CARDS


def _set(path: str, value: Any) -> dict[str, Any]:
    """The shipped deck with one field changed: ``path`` like ``loot.3.kind``."""
    data = _raw()
    *parents, leaf = path.split(".")
    node: Any = data
    for p in parents:
        node = node[int(p)] if isinstance(node, list) else node[p]
    node[int(leaf) if isinstance(node, list) else leaf] = value
    return data


def _first(protection: str) -> int:
    return next(i for i, c in enumerate(_raw()["loot"]) if c["protection"] == protection)


BAD_DECKS: dict[str, tuple[dict[str, Any], str]] = {
    "unknown kind": (_set("loot.0.kind", "diamonds"), r"R0\.2: unknown kind"),
    "money in a safe": (_set(f"loot.{_first('safe')}.kind", "money"), r"R0\.2: chests"),
    "painting in a chest": (_set(f"loot.{_first('chest')}.kind", "painting"), r"R0\.2: chests"),
    "money worth 4": (_set(f"loot.{_first('chest')}.value", 4), r"R0\.2: money is worth 1-3"),
    "painting worth 1": (_set(f"loot.{_first('pillar')}.value", 1), r"R0\.2: .* worth 2-4"),
    "value true": (_set("loot.0.value", True), r"R0\.2: value"),
    "value as text": (_set("loot.0.value", "2"), r"R0\.2: value"),
    "unknown protection": (_set("loot.0.protection", "vault"), r"R0\.2: unknown protection"),
    "one tool": (_set("loot.0.tools", ["map"]), r"R0\.2: .*2 or 3"),
    "four tools": (_set("loot.0.tools", ["map"] * 4), r"R0\.2: .*2 or 3"),
    "unknown tool": (_set("loot.0.tools", ["map", "crowbar"]), r"R0\.2: .*known tools"),
    "extra field": (_set("loot.0.secret", 1), r"R0\.4: .*needs exactly"),
    "duplicate loot id": (_set("loot.1.id", "L01"), r"R0\.2: L01 appears twice"),
    "missing loot id": (_set("loot.29.id", "L31"), r"R0\.2: .*missing \['L30'\]"),
    "duplicate fence id": (_set("fences.1.id", "F01"), r"R0\.3: F01 appears twice"),
    "fence buys money": (_set("fences.0.buys.money", [1, 0]), r"R0\.3: a fence cannot buy"),
    "fence buys thrice": (_set("fences.0.buys.gold", [3, 0]), r"R0\.3: gold needs"),
    "fence bonus 3": (_set("fences.0.buys.gold", [1, 3]), r"R0\.3: gold needs"),
    "fence pair of three": (_set("fences.0.buys.gold", [1, 0, 0]), r"R0\.3: gold needs"),
    "fence pair of bools": (_set("fences.0.buys.gold", [True, False]), r"R0\.3: gold needs"),
    "fence buys nothing": (_set("fences.0.buys", {}), r"R0\.3: .*at least one"),
    "no fences": (_set("fences", None), r"R0\.4: .*'fences' list"),
}


@pytest.mark.parametrize("case", sorted(BAD_DECKS))
def test_R0_4_loader_rejects_bad_decks_naming_the_ruling(case: str) -> None:
    data, message = BAD_DECKS[case]
    with pytest.raises(InvalidState, match=message) as err:
        parse_deck(data)
    assert str(err.value).startswith("R0.4: deck")


def test_R0_4_loader_puts_back_tools_in_one_order() -> None:
    data = _raw()
    data["loot"][0]["tools"] = list(reversed(data["loot"][0]["tools"]))
    card = parse_deck(data).loot[data["loot"][0]["id"]]
    assert list(card.tools) == sorted(card.tools, key=TOOLS.index)


def test_R0_4_load_deck_validates_without_installing(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(_set("loot.0.value", 9)), encoding="utf-8")
    before = dict(LOOT_CARDS)
    with pytest.raises(InvalidState, match=r"R0\.2"):
        load_deck(path)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_set("name", "checked only")), encoding="utf-8")
    assert load_deck(good).name == "checked only"
    assert before == LOOT_CARDS  # neither call touched the catalogue


def test_R0_4_use_deck_installs_a_deck_from_one_file(tmp_path: Path, restore_deck: None) -> None:
    data = copy.deepcopy(_raw())
    data["name"] = "variant"
    chest = _first("chest")
    data["loot"][chest]["value"] = 3 if data["loot"][chest]["value"] != 3 else 1
    data["fences"][0]["buys"] = {"coins": [2, 2]}
    path = tmp_path / "my_deck.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    card_id = data["loot"][chest]["id"]
    shipped_value = LOOT_CARDS[card_id].value

    deck = lf.cards.use_deck(str(path))

    assert deck.name == lf.cards.DECK_NAME[0] == "variant"
    assert lf.LOOT_CARDS[card_id].value == data["loot"][chest]["value"] != shipped_value
    assert lf.FENCE_CARDS["F01"].buys == {"coins": (2, 2)}
    use_deck()  # back to the shipped deck, in place
    assert lf.LOOT_CARDS[card_id].value == shipped_value
    assert lf.cards.DECK_NAME[0] == load_deck(DEFAULT_DECK_PATH).name


def test_R0_4_a_rejected_deck_leaves_the_catalogue_alone(
    tmp_path: Path, restore_deck: None
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_set("loot.0.kind", "diamonds")), encoding="utf-8")
    before = (dict(LOOT_CARDS), dict(FENCE_CARDS))
    with pytest.raises(InvalidState):
        use_deck(path)
    assert (dict(LOOT_CARDS), dict(FENCE_CARDS)) == before
