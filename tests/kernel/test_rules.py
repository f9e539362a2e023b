"""One test per ruling of RULINGS.md (R0-R11), named after it.

R0 (the card catalogue itself) is tested in tests/kernel/test_cards.py; here only
the parts of R0 that the game must keep: 60 tools in play, the scoundrels'
tools. Positions are hand-written with ``rules_kit.position`` and loaded
through ``Game.from_dict``, so each test shows exactly the situation the
ruling is about.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest
from rules_kit import PASS, find_fence, find_loot, load, place, position, row

import langfinger_widget as lf
from langfinger_widget.kernel.cards import DISPLAY_SIZES, PLACES, RUIN_RATES, TOOLS


def _loot_with_two(tool: str) -> str:
    """A non-chest loot card picturing ``tool`` twice (R0.2 allows it)."""
    for card_id in sorted(lf.LOOT_CARDS):
        c = lf.LOOT_CARDS[card_id]
        if c.protection != "chest" and c.tools.count(tool) == 2:
            return card_id
    raise AssertionError(f"R0.2: no loot card shows {tool} twice")


def _distinct_loot(protection_chest: bool, exclude: tuple[str, ...] = ()) -> str:
    """A loot card whose pictured tools are all different (chest or not)."""
    for card_id in sorted(lf.LOOT_CARDS):
        c = lf.LOOT_CARDS[card_id]
        if card_id in exclude or (c.protection == "chest") != protection_chest:
            continue
        if len(set(c.tools)) == len(c.tools):
            return card_id
    raise AssertionError("no loot card with distinct tools")


def _hand(tools: list[str] | tuple[str, ...]) -> dict[str, int]:
    return dict(Counter(tools))


# --- R0: what the game keeps of the catalogue ------------------------------------------------


def test_R0_1_sixty_tools_in_every_game() -> None:
    for n in range(2, 6):
        d = lf.Game.new(players=n, seed=n).to_dict()
        total: Counter[str] = Counter(d["city"]) + Counter(d["piles"]["tools"]["draw"])
        for p in d["players"]:
            total.update(p["hand"])
        assert total == Counter({t: 12 for t in TOOLS})


def test_R0_5_scoundrel_tools() -> None:
    tools = {k: s.tool for k, s in lf.SCOUNDRELS.items()}
    assert tools == {"pascal": "lockpick", "hans": "hammer", "tommaso": "pliers",
                     "yoshiko": "welder", "bobby": "map"}
    g = lf.Game.new(players=5, seed=1, scoundrels=["bobby", "yoshiko", "tommaso", "hans", "pascal"])
    assert [p["tool"] for p in g.view(None)["players"]] == [
        "map", "welder", "pliers", "hammer", "lockpick"]


# --- R1: setup -------------------------------------------------------------------------------


def test_R1_1_display_sizes() -> None:
    for n in range(2, 6):
        d = lf.Game.new(players=n, seed=7).to_dict()
        for place_, sizes in DISPLAY_SIZES.items():
            assert len(d[place_]) == sizes[n - 2], (n, place_)
    with pytest.raises(ValueError, match=r"R1.1"):
        lf.Game.new(players=1, seed=0)
    with pytest.raises(ValueError, match=r"R1.1"):
        lf.Game.new(players=6, seed=0)


def test_R1_1_overfull_display_is_refused() -> None:
    d = lf.Game.new(players=2, seed=3).to_dict()
    d["villa"].append(d["piles"]["loot"]["draw"].pop(0))  # 2 loot at a 2-player Villa
    with pytest.raises(lf.InvalidState, match=r"R1.1"):
        lf.Game.from_dict(d)


def test_R1_2_one_loot_deck_feeds_villa_and_museum() -> None:
    d = lf.Game.new(players=4, seed=11).to_dict()
    loot = d["villa"] + d["museum"] + d["piles"]["loot"]["draw"]
    assert sorted(loot) == sorted(lf.LOOT_CARDS)
    assert set(d["piles"]) == {"tools", "loot", "fences"}


def test_R1_3_starting_hands() -> None:
    for n in range(2, 6):
        for start in range(n):
            g = lf.Game.new(players=n, seed=5, start_player=start)
            sizes = [sum(p["hand"].values()) for p in g.to_dict()["players"]]
            expected = [4] * n
            expected[start] = 2
            expected[(start + 1) % n] = 3
            assert sizes == expected, (n, start)
            deals = [e for e in g.log(None) if e["type"] == "deal"]
            assert [e["seat"] for e in deals] == [(start + k) % n for k in range(n)]


def test_R1_4_money_zero_three_tokens() -> None:
    g = lf.Game.new(players=5, seed=2)
    assert g.money == [0] * 5
    assert [p["tokens"] for p in g.to_dict()["players"]] == [3] * 5
    d = g.to_dict()
    d["players"][0]["tokens"] = 4
    with pytest.raises(lf.InvalidState, match="tokens"):
        lf.Game.from_dict(d)
    d["players"][0]["tokens"] = 3
    d["squares"]["city"][0] = 0  # a fourth token on the board
    with pytest.raises(lf.InvalidState, match=r"R1.4"):
        lf.Game.from_dict(d)


# --- R2: placing -----------------------------------------------------------------------------


def test_R2_1_clockwise_one_token_a_turn_no_passing() -> None:
    g = lf.Game.new(players=3, seed=4, start_player=1)
    order = []
    for _ in range(9):
        assert g.phase == "place"
        order.append(g.to_move)
        assert {"type": "pass"} not in g.legal_actions()
        with pytest.raises(lf.IllegalAction, match=r"R2.1"):
            g.play(PASS)
        g.play(place("ruin" if len(order) <= 5 else "harbor"))
    assert order == [1, 2, 0] * 3
    assert g.phase == "act"
    assert all(p["tokens"] == 0 for p in g.to_dict()["players"])


def test_R2_2_lowest_free_square_and_full_places() -> None:
    g = lf.Game.new(players=2, seed=4, start_player=0)
    squares = [g.play(place("museum"))[0]["square"] for _ in range(5)]
    assert squares == [0, 1, 2, 3, 4]  # several tokens of one player at one place are fine
    assert g.to_dict()["squares"]["museum"] == [0, 1, 0, 1, 0]
    assert place("museum") not in g.legal_actions()
    msg = g.why_illegal(place("museum"))
    assert msg is not None and msg.startswith("R2.2")
    with pytest.raises(lf.IllegalAction, match=r"R2.2"):
        g.play(place("museum"))
    assert sorted(a["place"] for a in g.legal_actions()) == sorted(set(PLACES) - {"museum"})


# --- R3: resolving ---------------------------------------------------------------------------


def _act_position() -> dict[str, Any]:
    """Three players, one token at each place, in reverse seat order (checks place order)."""
    return position("act", [
        {"scoundrel": "pascal", "hand": {"map": 2}},
        {"scoundrel": "hans", "hand": {"map": 2}},
        {"scoundrel": "tommaso", "hand": {"map": 2}},
    ], squares={"harbor": row(0), "museum": row(1), "ruin": row(2, 0),
                "villa": row(1), "city": row(2, 0)})


def test_R3_1_places_resolve_in_order_square_one_first_pass_returns_token() -> None:
    g = lf.Game.from_dict(_act_position())
    seen = []
    while g.phase == "act":
        dec = g.view(None)["decision"]
        seen.append((dec["place"], dec["square"], g.to_move))
        assert PASS in g.legal_actions()  # R3.1: passing is always possible
        tokens_before = g.to_dict()["players"][g.to_move]["tokens"]
        seat = g.to_move
        only = g.legal_actions() == [PASS]  # the event says so: the board passed by itself
        ev = g.play(PASS)
        assert ev[0] == {"type": "pass", "seat": seat, "place": dec["place"],
                         "square": dec["square"], **({"only": True} if only else {})}
        if g.phase == "act":
            assert g.to_dict()["players"][seat]["tokens"] == tokens_before + 1
    assert seen == [("city", 0, 2), ("city", 1, 0), ("villa", 0, 1), ("ruin", 0, 2),
                    ("ruin", 1, 0), ("museum", 0, 1), ("harbor", 0, 0)]
    assert g.phase == "place" and g.round == 2


def test_R3_1_wrong_action_type_for_the_place() -> None:
    g = lf.Game.from_dict(_act_position())
    before = g.to_dict()
    for bad in (place("city"), {"type": "steal", "slot": 0, "pay": []},
                {"type": "exchange", "rate": "1>1", "give": ["map"]}):
        msg = g.why_illegal(bad)
        assert msg is not None and msg[0] == "R"
        with pytest.raises(lf.IllegalAction):
            g.play(bad)
    assert g.to_dict() == before


# --- R4: the City ----------------------------------------------------------------------------


def _city_game(city: list[str]) -> lf.Game:
    return lf.Game.from_dict(position("act", [
        {"scoundrel": "pascal"}, {"scoundrel": "hans"},
    ], city=city, squares={"city": row(0, 1)}))


def test_R4_city_take_any_two() -> None:
    city = ["hammer", "map", "map", "welder"]
    g = _city_game(city)
    takes = sorted(tuple(a["tools"]) for a in g.legal_actions() if a["type"] == "take_tools")
    assert takes == sorted({tuple(sorted(c, key=TOOLS.index)) for c in
                            itertools.combinations(city, 2)})
    ev = g.play({"type": "take_tools", "tools": ["map", "map"]})
    assert ev[0]["tools"] == ["map", "map"]
    assert g.to_dict()["players"][0]["hand"] == {"map": 2}
    assert g.to_dict()["city"] == ["hammer", "welder"]
    with pytest.raises(lf.IllegalAction, match="R4"):
        g.play({"type": "take_tools", "tools": ["hammer"]})  # two are there: take two
    with pytest.raises(lf.IllegalAction, match="R4"):
        g.play({"type": "take_tools", "tools": ["map", "hammer"]})  # no map left


def test_R4_city_last_tool_then_only_pass() -> None:
    g = _city_game(["pliers"])
    assert g.legal_actions() == [{"type": "take_tools", "tools": ["pliers"]}, PASS]
    g.play({"type": "take_tools", "tools": ["pliers"]})
    assert g.legal_actions() == [PASS]
    for tools in ([], ["map"], ["map", "map"]):  # taking nothing is no action either
        assert g.why_illegal({"type": "take_tools", "tools": tools}) == (
            "R4: the City is empty; only pass is possible")


# --- R5: Villa -------------------------------------------------------------------------------


def _villa_game(loot: list[str], hands: list[dict[str, int]], squares: list[int],
                scoundrels: tuple[str, ...] = ("pascal", "hans", "tommaso"),
                museum: list[str] | None = None, museum_squares: list[int] | None = None,
                ) -> lf.Game:
    hands = hands + [{}] * (len(scoundrels) - len(hands))  # a third player: Villa of 2 (R1.1)
    players = [{"scoundrel": s, "hand": h} for s, h in zip(scoundrels, hands, strict=True)]
    sq = {"villa": row(*squares)}
    if museum_squares:
        sq["museum"] = row(*museum_squares)
    return lf.Game.from_dict(position("act", players, villa=loot, museum=museum or [],
                                      squares=sq))


def test_R5_1_steal_pays_exactly_the_pictured_tools() -> None:
    a = _distinct_loot(False)
    pictured = list(lf.LOOT_CARDS[a].tools)
    g = _villa_game([a], [_hand([*pictured, "map"]), {}], [0, 1])
    steals = [x for x in g.legal_actions() if x["type"] == "steal"]
    assert {"type": "steal", "slot": 0, "pay": sorted(pictured, key=TOOLS.index),
            "scoundrel": False} in steals
    short = pictured[:-1]
    assert g.why_illegal({"type": "steal", "slot": 0, "pay": short}).startswith("R5.1")  # type: ignore[union-attr]
    assert g.why_illegal({"type": "steal", "slot": 1, "pay": pictured}).startswith("R5.1")  # type: ignore[union-attr]
    ev = g.play({"type": "steal", "slot": 0, "pay": list(reversed(pictured))})
    assert ev[0]["paid"] == sorted(pictured, key=TOOLS.index)
    d = g.to_dict()
    assert d["players"][0]["hand"] == {"map": 1}
    assert Counter(d["piles"]["tools"]["discard"]) == Counter(pictured)
    assert d["players"][0]["loot"] == [a] and d["villa"] == []


def test_R5_1_cannot_steal_without_the_tools() -> None:
    a = _distinct_loot(False)
    g = _villa_game([a], [{}, {}], [0, 1])
    assert g.legal_actions() == [PASS]
    msg = g.why_illegal({"type": "steal", "slot": 0, "pay": list(lf.LOOT_CARDS[a].tools)})
    assert msg is not None and msg.startswith("R5.1") and "your hand lacks" in msg


def test_R5_2_scoundrel_once_per_place() -> None:
    # Two loot cards both picturing a lockpick; Pascal (lockpick) acts twice at the Villa.
    cards = [c for c in sorted(lf.LOOT_CARDS) if "lockpick" in lf.LOOT_CARDS[c].tools
             and lf.LOOT_CARDS[c].protection != "chest"][:2]
    need = Counter(lf.LOOT_CARDS[cards[0]].tools) + Counter(lf.LOOT_CARDS[cards[1]].tools)
    g = _villa_game(cards, [dict(need), {}], [0, 0])  # hand: every pictured tool
    with_scoundrel = [a for a in g.legal_actions() if a.get("scoundrel")]
    assert with_scoundrel and all("lockpick" not in a["pay"] or
                                  lf.LOOT_CARDS[cards[a["slot"]]].tools.count("lockpick") > 1
                                  for a in with_scoundrel)
    pay = list((Counter(lf.LOOT_CARDS[cards[0]].tools) - Counter(["lockpick"])).elements())
    g.play({"type": "steal", "slot": 0, "pay": pay, "scoundrel": True})
    assert g.to_dict()["scoundrel_used"]["villa"] == [0]
    assert g.view(0)["players"][0]["scoundrel_used"] == {"villa": True, "museum": False}
    assert not [a for a in g.legal_actions() if a.get("scoundrel")]
    pay2 = list((Counter(lf.LOOT_CARDS[cards[1]].tools) - Counter(["lockpick"])).elements())
    msg = g.why_illegal({"type": "steal", "slot": 0, "pay": pay2, "scoundrel": True})
    assert msg is not None and msg.startswith("R5.2")
    with pytest.raises(lf.IllegalAction, match=r"R5.2"):
        g.play({"type": "steal", "slot": 0, "pay": pay2, "scoundrel": True})


def test_R5_2_scoundrel_covers_one_tool_not_two() -> None:
    twice = _loot_with_two("map")
    pictured = Counter(lf.LOOT_CARDS[twice].tools)
    one_map = dict(pictured - Counter(["map"]))  # the hand lacks one map
    g = _villa_game([twice], [one_map, {}], [0, 1], scoundrels=("bobby", "hans", "pascal"))
    assert g.legal_actions() == [{"type": "steal", "slot": 0,
                                  "pay": sorted(one_map_elems := list(Counter(one_map).elements()),
                                                key=TOOLS.index),
                                  "scoundrel": True}, PASS]
    assert one_map_elems.count("map") == 1  # at least one map card is still paid
    no_map = dict(pictured - Counter(["map", "map"]))
    msg = g.why_illegal({"type": "steal", "slot": 0, "pay": list(Counter(no_map).elements()),
                         "scoundrel": True})
    assert msg is not None and msg.startswith("R5")


def test_R5_2_scoundrel_needs_its_tool_pictured_and_is_not_discarded() -> None:
    a = next(c for c in sorted(lf.LOOT_CARDS) if "lockpick" not in lf.LOOT_CARDS[c].tools)
    tools = list(lf.LOOT_CARDS[a].tools)
    g = _villa_game([a], [_hand(tools), {}], [0, 1])
    msg = g.why_illegal({"type": "steal", "slot": 0, "pay": tools[1:], "scoundrel": True})
    assert msg is not None and msg.startswith("R5.2")
    b = next(c for c in sorted(lf.LOOT_CARDS) if "hammer" in lf.LOOT_CARDS[c].tools)
    pay = list((Counter(lf.LOOT_CARDS[b].tools) - Counter(["hammer"])).elements())
    g = _villa_game([b], [{}, _hand(pay)], [1, 0])
    g.play({"type": "steal", "slot": 0, "pay": pay, "scoundrel": True})
    assert g.to_dict()["players"][1]["scoundrel"] == "hans"
    assert Counter(g.to_dict()["piles"]["tools"]["discard"]) == Counter(pay)  # card kept


def test_R5_3_chest_cashed_at_once_other_loot_face_down() -> None:
    chest = _distinct_loot(True)
    other = _distinct_loot(False)
    need = Counter(lf.LOOT_CARDS[chest].tools) + Counter(lf.LOOT_CARDS[other].tools)
    g = _villa_game([chest, other], [dict(need), {}], [0, 0])
    ev = g.play({"type": "steal", "slot": 0, "pay": list(lf.LOOT_CARDS[chest].tools)})
    assert [e["type"] for e in ev][:2] == ["steal", "cash"]
    value = lf.LOOT_CARDS[chest].value
    assert ev[1]["gained"] == value and g.money[0] == value
    d = g.to_dict()
    assert d["piles"]["loot"]["discard"] == [chest] and d["players"][0]["loot"] == []
    assert g.view(1)["piles"]["loot"]["discard"][0]["id"] == chest  # face up for all
    assert g.log(1)[-1]["loot"]["value"] == value
    g.play({"type": "steal", "slot": 0, "pay": list(lf.LOOT_CARDS[other].tools)})
    d = g.to_dict()
    assert d["players"][0]["loot"] == [other]
    assert g.view(0)["players"][0]["loot"][0]["id"] == other  # the owner knows the front
    assert g.view(1)["players"][0]["loot"] == [lf.LOOT_CARDS[other].back()]  # others: back


def test_R5_3_chest_in_a_hand_is_impossible() -> None:
    chest = _distinct_loot(True)
    d = position("place", [{"scoundrel": "pascal", "loot": [chest]}, {"scoundrel": "hans"}])
    with pytest.raises(lf.InvalidState, match=r"R5.3"):
        lf.Game.from_dict(d)


# --- R6: the Ruin ----------------------------------------------------------------------------


def _ruin_game(hands: list[dict[str, int]], squares: list[int], rates: dict[str, int] | None = None,
               ) -> lf.Game:
    players = [{"scoundrel": s, "hand": h} for s, h in zip(("pascal", "hans", "tommaso"), hands,
                                                            strict=True)]
    return lf.Game.from_dict(position("act", players, squares={"ruin": row(*squares)},
                                      ruin_rates=rates or {}))


def test_R6_1_exchange_discards_then_draws() -> None:
    g = _ruin_game([{"map": 3, "hammer": 1}, {}, {}], [0, 1])
    g = load(g.to_dict(), {"tools": ["pliers", "pliers", "welder", "lockpick"]})
    rates = {a["rate"] for a in g.legal_actions() if a["type"] == "exchange"}
    assert rates == set(RUIN_RATES)
    ev = g.play({"type": "exchange", "rate": "3>4", "give": ["map", "hammer", "map"]})
    x = ev[0]
    assert (x["rate"], x["gave"], x["drew"], x["count"]) == (
        "3>4", ["hammer", "map", "map"], ["pliers", "pliers", "welder", "lockpick"], 4)
    d = g.to_dict()
    assert d["players"][0]["hand"] == {"map": 1, "pliers": 2, "welder": 1, "lockpick": 1}
    assert Counter(d["piles"]["tools"]["discard"]) == Counter({"map": 2, "hammer": 1})


def test_R6_1_square_needs_cards_in_hand() -> None:
    g = _ruin_game([{"map": 1}, {}, {}], [0, 1])
    rates = {a["rate"] for a in g.legal_actions() if a["type"] == "exchange"}
    assert rates == {"1>2", "1>1"}
    for rate, give in (("2>3", ["map", "map"]), ("2>2", ["map", "hammer"])):
        msg = g.why_illegal({"type": "exchange", "rate": rate, "give": give})
        assert msg is not None and msg.startswith("R6.1")
    msg = g.why_illegal({"type": "exchange", "rate": "1>2", "give": ["map", "map"]})
    assert msg is not None and msg.startswith("R6.1")
    msg = g.why_illegal({"type": "exchange", "rate": "4>5", "give": ["map"]})
    assert msg is not None and msg.startswith("R6.1")


def test_R6_2_used_square_closed_until_ruin_done() -> None:
    g = _ruin_game([{"map": 2}, {"map": 2}, {}], [0, 1, 0])
    g.play({"type": "exchange", "rate": "1>1", "give": ["map"]})
    d = g.to_dict()
    assert d["ruin_rates"]["1>1"] == 0 and d["squares"]["ruin"][0] is None
    assert d["players"][0]["tokens"] == 1  # the token stays on the exchange square
    assert all(a.get("rate") != "1>1" for a in g.legal_actions())
    msg = g.why_illegal({"type": "exchange", "rate": "1>1", "give": ["map"]})
    assert msg is not None and msg.startswith("R6.2")
    g.play({"type": "exchange", "rate": "1>2", "give": ["map"]})
    assert g.to_dict()["players"][1]["tokens"] == 2
    assert {a.get("rate") for a in g.legal_actions()} == {"2>3", "2>2", None}  # None: pass
    ev = g.play(PASS)  # the last Ruin action: every exchange token comes back
    assert {"type": "ruin_reopens", "seats": [1, 0]} in ev  # in board order: 1>2, then 1>1
    d = g.to_dict()
    assert all(v is None for v in d["ruin_rates"].values())
    assert d["phase"] == "place" and [p["tokens"] for p in d["players"]] == [3, 3, 3]


def test_R6_2_position_with_closed_square_after_ruin_is_refused() -> None:
    d = position("act", [{"scoundrel": "pascal"}, {"scoundrel": "hans"}],
                 squares={"harbor": row(1)}, ruin_rates={"1>1": 0})
    with pytest.raises(lf.InvalidState, match=r"R6.2"):
        lf.Game.from_dict(d)


# --- R7: the Museum --------------------------------------------------------------------------


def test_R7_museum_steals_with_its_own_scoundrel_use() -> None:
    cards = [c for c in sorted(lf.LOOT_CARDS) if "lockpick" in lf.LOOT_CARDS[c].tools
             and lf.LOOT_CARDS[c].protection != "chest"][:2]
    pays = [list((Counter(lf.LOOT_CARDS[c].tools) - Counter(["lockpick"])).elements())
            for c in cards]
    hand = dict(Counter(pays[0]) + Counter(pays[1]))
    g = _villa_game([cards[0]], [hand, {}], [0], museum=[cards[1]], museum_squares=[0])
    g.play({"type": "steal", "slot": 0, "pay": pays[0], "scoundrel": True})
    assert g.view(None)["decision"]["place"] == "museum"
    ev = g.play({"type": "steal", "slot": 0, "pay": pays[1], "scoundrel": True})
    assert ev[0]["place"] == "museum" and ev[0]["scoundrel"] is True
    assert sorted(g.to_dict()["players"][0]["loot"]) == sorted(cards)


def test_R7_museum_refuses_missing_tools_naming_R7() -> None:
    a = _distinct_loot(False)
    g = _villa_game([], [{}, {}], [], museum=[a], museum_squares=[0, 1])
    msg = g.why_illegal({"type": "steal", "slot": 0, "pay": list(lf.LOOT_CARDS[a].tools)})
    assert msg is not None and msg.startswith("R7")


# --- R8: the Harbor --------------------------------------------------------------------------


def _harbor_game(loot: list[str], harbor: list[str], squares: list[int] = (0, 1)) -> lf.Game:  # type: ignore[assignment]
    return lf.Game.from_dict(position("act", [
        {"scoundrel": "pascal", "loot": loot}, {"scoundrel": "hans"},
    ], harbor=harbor, squares={"harbor": row(*squares)}))


def test_R8_1_sell_value_plus_bonus_both_discarded() -> None:
    fence = find_fence({"painting": (1, 2)})
    painting = find_loot(kind="painting")
    statue = find_loot(kind="statue")
    g = _harbor_game([painting, statue], [fence])
    sells = [a for a in g.legal_actions() if a["type"] == "sell"]
    buys_statue = "statue" in lf.FENCE_CARDS[fence].buys
    assert {"type": "sell", "fence": fence, "loot": [painting]} in sells
    assert ({"type": "sell", "fence": fence, "loot": [statue]} in sells) == buys_statue
    ev = g.play({"type": "sell", "fence": fence, "loot": [painting]})
    value = lf.LOOT_CARDS[painting].value
    assert ev[0]["gained"] == value + 2 and g.money[0] == value + 2
    d = g.to_dict()
    assert d["piles"]["loot"]["discard"] == [painting]
    assert d["piles"]["fences"]["discard"] == [fence] and d["harbor"] == []
    assert ev[0]["loot"][0]["kind"] == "painting"  # revealed to all
    assert next(e for e in g.log(1) if e["type"] == "sell")["loot"][0]["id"] == painting


def test_R8_1_fence_must_buy_the_kind() -> None:
    fence = find_fence({}, without=["statue"])
    statue = find_loot(kind="statue")
    g = _harbor_game([statue], [fence])
    assert g.legal_actions() == [PASS]
    msg = g.why_illegal({"type": "sell", "fence": fence, "loot": [statue]})
    assert msg is not None and msg.startswith("R8.1")
    other = next(f for f in sorted(lf.FENCE_CARDS) if f != fence)
    msg = g.why_illegal({"type": "sell", "fence": other, "loot": [statue]})
    assert msg is not None and msg.startswith("R8.1")  # not at the Harbor
    mine = find_loot(kind="painting")
    msg = g.why_illegal({"type": "sell", "fence": fence, "loot": [mine]})
    assert msg is not None and msg.startswith("R8.1")  # not held


def _double_fence() -> tuple[str, str]:
    for fence_id in sorted(lf.FENCE_CARDS):
        for kind, (count, _) in lf.FENCE_CARDS[fence_id].buys.items():
            if count == 2:
                return fence_id, kind
    raise AssertionError("R0.3: no fence buys a kind twice")


def test_R8_2_two_of_a_kind_only_where_shown_twice() -> None:
    fence, kind = _double_fence()
    a = find_loot(kind=kind)
    b = find_loot(kind=kind, exclude=[a])
    other_kind = next(k for k in ("painting", "coins", "gold", "jewelry", "statue") if k != kind)
    c = find_loot(kind=other_kind)
    g = _harbor_game([a, b, c], [fence])
    sells = [a_ for a_ in g.legal_actions() if a_["type"] == "sell"]
    assert {"type": "sell", "fence": fence, "loot": sorted([a, b])} in sells
    msg = g.why_illegal({"type": "sell", "fence": fence, "loot": [a, c]})
    assert msg is not None and msg.startswith("R8.2")  # never two kinds
    ev = g.play({"type": "sell", "fence": fence, "loot": [b, a]})
    bonus = lf.FENCE_CARDS[fence].buys[kind][1]
    assert ev[0]["gained"] == lf.LOOT_CARDS[a].value + lf.LOOT_CARDS[b].value + 2 * bonus
    single = find_fence({}, exclude=[fence])
    single_kind = next(k for k, (n, _) in lf.FENCE_CARDS[single].buys.items() if n == 1)
    x = find_loot(kind=single_kind)
    y = find_loot(kind=single_kind, exclude=[x])
    g = _harbor_game([x, y], [single])
    msg = g.why_illegal({"type": "sell", "fence": single, "loot": [x, y]})
    assert msg is not None and msg.startswith("R8.2")


def test_R8_3_used_fence_discarded_even_half_used() -> None:
    fence, kind = _double_fence()
    a = find_loot(kind=kind)
    g = _harbor_game([a], [fence])
    g.play({"type": "sell", "fence": fence, "loot": [a]})
    d = g.to_dict()
    assert fence in d["piles"]["fences"]["discard"] and fence not in d["harbor"]


# --- R9: next round --------------------------------------------------------------------------


def _last_action_position(n: int = 3) -> dict[str, Any]:
    players = [{"scoundrel": s} for s in ("pascal", "hans", "tommaso", "yoshiko", "bobby")[:n]]
    return position("act", players, squares={"harbor": row(0)}, city=["map"],
                    start_player=n - 1)


def test_R9_1_refill_every_display_leftovers_stay() -> None:
    d = _last_action_position(3)
    d["villa"] = [find_loot(protection="pillar")]
    g = lf.Game.from_dict(d)
    ev = g.play(PASS)
    after = g.to_dict()
    assert after["city"][0] == "map" and len(after["city"]) == 6
    assert after["villa"][0] == d["villa"][0] and len(after["villa"]) == 2
    assert len(after["museum"]) == 2 and len(after["harbor"]) == 3
    refills = {e["place"]: len(e["cards"]) for e in ev if e["type"] == "refill"}
    assert refills == {"city": 5, "villa": 1, "museum": 2, "harbor": 3}


def test_R9_2_reshuffle_when_draw_pile_runs_out() -> None:
    g = lf.Game.from_dict(_last_action_position(2))
    full = g.to_dict()
    tools = full["piles"]["tools"]
    # Two tools left to draw, the rest in the discard: the City (4) needs three.
    tools["discard"] = tools["draw"][2:]
    tools["draw"] = tools["draw"][:2]
    g = lf.Game.from_dict(full)
    ev = g.play(PASS)
    kinds = [e["type"] for e in ev]
    assert "reshuffle" in kinds
    resh = next(e for e in ev if e["type"] == "reshuffle")
    assert resh["pile"] == "tools" and resh["size"] == len(tools["discard"])
    d = g.to_dict()
    assert len(d["city"]) == 4 and d["piles"]["tools"]["discard"] == []
    assert len(d["piles"]["tools"]["draw"]) == resh["size"] - 1


def test_R9_2_both_piles_empty_stops_short() -> None:
    # Every tool in hands (2 players): the City cannot be refilled at all.
    d = position("act", [{"scoundrel": "pascal", "hand": {t: 12 for t in TOOLS[:3]}},
                         {"scoundrel": "hans", "hand": {t: 12 for t in TOOLS[3:]}}],
                 squares={"harbor": row(0)})
    g = lf.Game.from_dict(d)
    ev = g.play(PASS)
    assert g.to_dict()["city"] == []
    assert not [e for e in ev if e["type"] == "refill" and e["place"] == "city"]
    g2 = lf.Game.from_dict(position("act", d["players"], squares={"ruin": row(0)}))
    ev = g2.play({"type": "exchange", "rate": "1>2", "give": ["lockpick"]})
    x = next(e for e in ev if e["type"] == "exchange")
    # One card discarded, reshuffled as the new draw pile: only one can be drawn.
    assert x["count"] == 1 and x["drew"] == ["lockpick"]


def test_R9_3_start_player_passes_clockwise() -> None:
    g = lf.Game.from_dict(_last_action_position(3))
    ev = g.play(PASS)
    assert ev[-1] == {"type": "start_player", "seat": 0, "round": 2}
    assert g.start_player == 0 and g.to_move == 0 and g.round == 2


# --- R10: the end ----------------------------------------------------------------------------


def test_R10_1_ends_at_end_of_round_with_twenty() -> None:
    g = lf.Game.from_dict(position("act", [
        {"scoundrel": "pascal", "money": 25}, {"scoundrel": "hans", "money": 3},
    ], squares={"city": row(1), "harbor": row(0)}))
    g.play(PASS)
    assert g.phase == "act" and not g.is_over and g.winners == []  # mid-round: play on
    ev = g.play(PASS)
    assert g.is_over and g.phase == "over" and g.to_move is None
    assert ev[-1] == {"type": "game_over", "money": [25, 3], "winners": [0]}
    assert g.money == [25, 3]  # totals, not wrapped at 20
    assert g.legal_actions() == []
    assert (g.why_illegal(PASS) or "").startswith("R10.1")


def test_R10_1_below_twenty_goes_on() -> None:
    g = lf.Game.from_dict(position("act", [
        {"scoundrel": "pascal", "money": 19}, {"scoundrel": "hans", "money": 19},
    ], squares={"harbor": row(0)}))
    g.play(PASS)
    assert g.phase == "place" and g.round == 2


def test_R10_2_ties_all_win_unsold_loot_worth_nothing() -> None:
    statue = find_loot(kind="statue")
    g = lf.Game.from_dict(position("act", [
        {"scoundrel": "pascal", "money": 21},
        {"scoundrel": "hans", "money": 21, "loot": [statue]},
        {"scoundrel": "tommaso", "money": 20},
    ], squares={"harbor": row(2)}, harbor=[]))
    g.play(PASS)
    assert g.winners == [0, 1] and g.money == [21, 21, 20]


# --- R11: information ------------------------------------------------------------------------


def test_R11_1_standard_hides_hands_fronts_and_piles() -> None:
    g = lf.Game.new(players=3, seed=9)
    v = g.view(1)
    assert v["players"][1]["hand"] is not None
    for seat in (0, 2):
        p = v["players"][seat]
        assert p["hand"] is None and p["known"] == {} and p["hand_size"] > 0
    assert all(set(c) == {"protection", "tools"} for c in v["villa"] + v["museum"])
    assert isinstance(v["piles"]["tools"]["draw"], int)
    assert isinstance(v["piles"]["loot"]["draw"], int)
    assert "seed" not in v
    deals = [e for e in g.log(1) if e["type"] == "deal"]
    assert [e["tools"] is None for e in deals] == [e["seat"] != 1 for e in deals]
    assert all(e["count"] > 0 for e in deals)


def test_R11_2_open_info_known_tools() -> None:
    d = position("act", [
        {"scoundrel": "pascal", "hand": {"map": 3}}, {"scoundrel": "hans"},
    ], variant="open_info", city=["hammer", "welder", "pliers"],
        squares={"city": row(0), "ruin": row(0), "harbor": row(1)})
    g = lf.Game.from_dict(d)
    g.play({"type": "take_tools", "tools": ["hammer", "welder"]})
    assert g.view(1)["players"][0]["known"] == {"hammer": 1, "welder": 1}
    assert g.view(1)["players"][0]["hand"] is None
    g.play({"type": "exchange", "rate": "1>2", "give": ["hammer"]})
    v = g.view(1)["players"][0]
    assert v["known"] == {"welder": 1}  # played: no longer known; drawn blind: hidden
    x = next(e for e in g.log(1) if e["type"] == "exchange")
    assert x["drew"] is None and x["count"] == 2 and x["gave"] == ["hammer"]
    # Standard: the same play shows nothing of the hand.
    d["variant"] = "standard"
    g = lf.Game.from_dict(d)
    g.play({"type": "take_tools", "tools": ["hammer", "welder"]})
    assert g.view(1)["players"][0]["known"] == {}
