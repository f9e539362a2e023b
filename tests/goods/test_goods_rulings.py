"""One test (at least) per ruling of RULINGS-goods.md, each naming it, and the rulebook's own
examples. Positions are written by hand (``goods/1``, tests/goods/goods_helpers.py) and
played on by the rules."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

import pytest
from goods_helpers import Deal, goods_of, plan_all, refused

from langfinger_widget.errors import IllegalAction, InvalidState
from langfinger_widget.games.goods import CARDS, Game, load_cards
from langfinger_widget.games.goods.cards import CARDS_FILE


def raw() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(CARDS_FILE.read_text())
    return data


def produce(bid: str) -> dict[str, Any]:
    return {"type": "produce", "building": bid}


DONE = {"type": "done"}


# --- G0: the cards ----------------------------------------------------------------------------
def test_g0_1_g0_6_the_shipped_cards_are_the_reconstruction() -> None:
    deck = [c for c in CARDS.values() if c.resource is not None]
    assert len(deck) == 94 and len([c for c in CARDS.values() if c.resource is None]) == 4
    assert Counter(c.resource for c in deck) == {"grain": 24, "wood": 24, "clay": 18,
                                                 "ore": 14, "hide": 14}
    assert Counter(c.resource for c in deck if c.half_sun) == {"grain": 10, "wood": 10,
                                                               "clay": 8, "ore": 6, "hide": 6}
    colours = Counter(c.building.colour for c in deck)
    assert colours == {"yellow": 20, "red": 20, "blue": 20, "green": 25, "grey": 9}
    assert Counter(c.building.key for c in deck)["mill"] == 11
    assert sorted(c.supplies for c in deck if c.supplies) == ["clay", "grain", "hide", "ore",
                                                                "wood"]


def test_g0_4_the_forced_facts() -> None:
    b = {c.building.key: c.building for c in CARDS.values()}
    assert b["charburner"].needs == ("grain", "grain", "wood") and b["charburner"].worth == 1
    assert b["mill"].good == "flour" and b["mill"].worth == 2 and b["mill"].chain == ("grain",)
    assert b["bakery"].chain == ("flour", "coal") and b["brickworks"].chain == ("clay", "coal")
    assert b["tannery"].worth == 6 and b["shoemaker"].worth == 8
    assert b["shoemaker"].chain == ("leather",) and b["glassmaker"].needs_any == 11
    assert b["ironworks"].worth == 3 and any(x.cost == 7 for x in b.values())
    assert b["inn"].extra_cards == 1


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d["deck"].pop(), "94"),
    (lambda d: [e.update(resource="grain") for e in d["deck"] if e["resource"] == "hide"],
     "at least 10"),
    (lambda d: [e.update(half_sun=True) for e in d["deck"]], "half suns"),
    (lambda d: d["buildings"]["mill"].update(worth=9), "worth"),
    (lambda d: d["buildings"]["mill"].update(cost=13), "cost"),
    (lambda d: d["buildings"]["mill"].update(vp=6), "VP"),
])
def test_g0_5_a_card_file_breaking_the_constraints_is_refused_naming_g0_5(
        change: Any, words: str) -> None:
    data = raw()
    change(data)
    with pytest.raises(InvalidState, match=r"G0\.5") as err:
        load_cards(data)
    assert words in str(err.value)


def test_g0_5_a_user_card_file_plays_and_survives_the_json_form(tmp_path: Any) -> None:
    data = raw()
    data["buildings"]["mill"]["worth"] = 3
    path = tmp_path / "variant.json"
    path.write_text(json.dumps(data))
    g = Game.new(players=2, seed=3, cards=str(path))
    assert g.cards.buildings["mill"].worth == 3
    again = Game.from_dict(json.loads(json.dumps(g.to_dict())))
    assert again.cards.buildings["mill"].worth == 3 and again.to_dict() == g.to_dict()


# --- G1: setup --------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_g1_1_g1_2_setup(players: int) -> None:
    g = Game.new(players=players, seed=11)
    s = g.state
    assert [len(h) for h in s["hands"]] == [5] * players
    assert [[b["id"][:2] for b in row] for row in s["buildings"]] == [["CB"]] * players
    assert [len(row[0]["goods"]) for row in s["buildings"]] == [7] * players
    assert len(s["offer"]) == 2 * players and {o["side"] for o in s["offer"]} <= {"a", "b"}
    assert len(s["draw"]) == 94 - 12 * players


def test_g1_0_the_first_player_is_drawn_from_the_seed_unless_given() -> None:
    drawn = {Game.new(players=4, seed=k).state["active"] for k in range(20)}
    assert len(drawn) > 1
    assert Game.new(players=4, seed=3, start_player=2).state["active"] == 2


# --- G2: new hand cards -----------------------------------------------------------------------
def test_g2_1_keep_or_mulligan_is_sealed_and_applied_at_the_reveal() -> None:
    g = Game.new(players=2, seed=5, start_player=0)
    hand = list(g.state["hands"][1])
    g.play({"type": "mulligan"}, seat=1)
    assert g.to_decide == [0] and g.state["hands"][1] == hand  # nothing happens yet
    assert g.view(0)["players"][1]["mulliganed"] is None
    g.play({"type": "keep"}, seat=0)
    assert set(hand) <= set(g.state["discard"])
    assert not set(hand) & set(g.state["hands"][1]) and len(g.state["hands"][1]) == 7
    assert g.view(0)["players"][1]["mulliganed"] is True


def test_g2_2_two_cards_each_and_the_inn_for_a_hand_of_three_or_fewer() -> None:
    d = Deal(2)
    inn0, inn1 = d.pick("inn"), d.pick("inn")
    hands = [d.cards(3), d.cards(4)]
    g = d.game(phase="hand", hands=hands,
               buildings=[[d.building("CB1", 7), d.building(inn0)],
                          [d.building("CB2", 7), d.building(inn1)]])
    g.play({"type": "keep"}, 0)
    g.play({"type": "keep"}, 1)
    assert [len(h) for h in g.state["hands"]] == [3 + 2 + 1, 4 + 2]  # G2.2: held <= 3 only


def test_g2_3_an_empty_draw_pile_is_the_shuffled_discard() -> None:
    d = Deal(2)
    g = d.game(phase="hand", hands=[d.cards(5), d.cards(5)], draw=False)
    assert not g.state["draw"]
    g.play({"type": "keep"}, 0)
    events = g.play({"type": "keep"}, 1)
    assert any(e["type"] == "reshuffle" for e in events)
    assert [len(h) for h in g.state["hands"]] == [7, 7]


def test_g2_3_both_piles_empty_each_seat_discards_half_its_hand_then_drawing_goes_on() -> None:
    d = Deal(2)
    hands = [d.cards(5), d.cards(4)]
    g = d.game(phase="hand", hands=hands, draw=False)
    g.state["buildings"][0][0]["goods"] += g.state["discard"]  # every other card is a good
    g.state["discard"] = []
    g = Game.from_dict(g.to_dict())
    g.play({"type": "keep"}, 0)
    g.play({"type": "keep"}, 1)
    assert g.to_decide == [0] and g.state["exhaust"] == {"owing": [0, 1], "left": [2, 2]}
    refused(g, {"type": "keep"}, "G2.3", 0)
    for seat in (0, 0, 1):
        g.play({"type": "discard", "card": g.state["hands"][seat][0]}, seat)
    assert g.to_decide == [1]
    g.play({"type": "discard", "card": g.state["hands"][1][0]}, 1)
    # the four discards reshuffled and drawn: two each, from the active player on
    assert [len(h) for h in g.state["hands"]] == [5, 4] and g.phase in ("hand", "plan")


def test_g2_3_still_nothing_the_draw_stops_short() -> None:
    d = Deal(2)
    g = d.game(phase="hand", hands=[[d.pick()], []], draw=False)
    g.state["buildings"][0][0]["goods"] += g.state["discard"]
    g.state["discard"] = []
    g = Game.from_dict(g.to_dict())
    g.play({"type": "keep"}, 0)
    g.play({"type": "keep"}, 1)  # nobody owes a discard (half of 1 is 0): nothing to draw
    assert [len(h) for h in g.state["hands"]] == [1, 0] and g.phase == "plan"
    assert g.state["market"] == []


# --- G3: sunrise and sunset -------------------------------------------------------------------
def test_g3_1_g3_3_the_market_turns_until_two_then_two_more_half_suns() -> None:
    d = Deal(2)
    top = [d.pick(sun=False), d.pick(sun=True), d.pick(sun=False), d.pick(sun=True),
           d.pick(sun=True), d.pick(sun=True)]
    g = d.game(phase="hand", hands=[[], []], top=[*d.cards(4), *top])
    g.play({"type": "keep"}, 0)
    g.play({"type": "keep"}, 1)
    assert g.state["market"] == top[:4]
    plan_all(g)
    assert g.state["market"] == top and g.phase == "production"


def test_g3_2_the_plan_moves_assistants_places_the_worker_and_plans_a_card() -> None:
    d = Deal(2)
    mill = d.pick("mill")
    offer = d.data["offer"]
    offer[0]["owner"] = 0
    aid = offer[0]["id"]
    card = d.pick("tannery")
    g = d.game(phase="plan", hands=[[card], []],
               buildings=[[d.building("CB1", 7, assistant=aid), d.building(mill, 1)],
                          [d.building("CB2", 7)]])
    legal = g.legal_actions(0)
    assert {"type": "move_assistant", "assistant": aid, "to": mill} in legal
    assert {"type": "work", "building": "CB1", "mode": "efficient"} not in legal  # an Assistant
    g.play({"type": "move_assistant", "assistant": aid, "to": mill}, 0)
    assert [a["type"] for a in g.legal_actions(0)] == ["pay", "pay"]
    g.play({"type": "pay", "building": "CB1"}, 0)  # 1 coin of 2
    g.play({"type": "pay", "building": "CB1"}, 0)
    refused(g, {"type": "plan_build", "card": card}, "G3.2", 0)
    assert [a for a in g.legal_actions(0) if a["type"] == "work"] == [
        {"type": "work", "building": "CB1", "mode": "efficient"},
        {"type": "work", "building": "CB1", "mode": "sloppy"}]  # the mill has the Assistant
    g.play({"type": "work", "building": "CB1", "mode": "sloppy"}, 0)
    g.play({"type": "plan_build", "card": card}, 0)
    assert goods_of(g, 0, "CB1") == 7  # G6.1: payments wait for the reveal
    g.play({"type": "work", "building": "CB2", "mode": "efficient"}, 1)
    g.play({"type": "plan_build", "card": None}, 1)
    assert goods_of(g, 0, "CB1") == 5
    rows = {b["id"]: b for b in g.state["buildings"][0]}
    assert rows[mill]["assistant"] == aid and rows["CB1"]["worker"] == "sloppy"
    assert g.state["planned"][0] == card and card not in g.state["hands"][0]


def test_g3_2_the_worker_rests_only_when_every_production_building_has_an_assistant() -> None:
    d = Deal(2)
    offer = d.data["offer"]
    offer[0]["owner"] = 0
    g = d.game(phase="plan", hands=[[], []],
               buildings=[[d.building("CB1", 0, assistant=offer[0]["id"])],
                          [d.building("CB2", 7)]])
    assert g.legal_actions(0) == [{"type": "work", "building": None, "mode": None}]
    refused(g, {"type": "work", "building": None, "mode": None}, "G3.2", 1)


# --- G4: production and building --------------------------------------------------------------
def market_of(d: Deal, *resources: str) -> list[str]:
    return [d.pick(resource=r) for r in resources]


def test_g4_4_rulebook_the_sloppy_charburner_with_one_grain_in_the_market() -> None:
    d = Deal(2)
    market = market_of(d, "grain", "wood")  # one grain short of grain grain wood
    g = d.game(market=market, hands=[[], []],
               buildings=[[d.building("CB1", 7, worker="sloppy")], [d.building("CB2", 7)]])
    g.play(produce("CB1"), 0)  # the missing grain is the unit skipped
    assert goods_of(g, 0, "CB1") == 8


def test_g4_4_efficient_all_or_nothing_and_hand_cards_close_the_gap() -> None:
    d = Deal(2)
    market = market_of(d, "grain", "wood")
    grain = d.pick(resource="grain")
    other = d.pick(resource="clay")
    g = d.game(market=market, hands=[[grain, other], []],
               buildings=[[d.building("CB1", 7, worker="efficient")], [d.building("CB2", 7)]])
    g.play(produce("CB1"), 0)
    assert g.state["turn"]["stage"] == "supply"
    assert g.legal_actions(0) == [{"type": "supply", "card": grain}]  # clay is not missing
    g.play({"type": "supply", "card": grain}, 0)
    assert goods_of(g, 0, "CB1") == 9 and grain in g.state["discard"]
    d2 = Deal(2)
    g2 = d2.game(market=market_of(d2, "grain", "wood"), hands=[[], []],
                 buildings=[[d2.building("CB1", 7, worker="efficient")],
                            [d2.building("CB2", 7)]])
    refused(g2, produce("CB1"), "G4.3", 0)  # no falling back to 1 good (G4.4)


def test_g4_4_an_assistant_needs_everything_and_makes_one_good() -> None:
    d = Deal(2)
    offer = d.data["offer"]
    offer[0]["owner"] = 0
    g = d.game(market=market_of(d, "grain", "grain", "wood"), hands=[[], []],
               buildings=[[d.building("CB1", 7, assistant=offer[0]["id"])],
                          [d.building("CB2", 7)]])
    g.play(produce("CB1"), 0)
    assert goods_of(g, 0, "CB1") == 8


def test_g4_3_the_market_is_shared_and_offices_add_a_resource() -> None:
    d = Deal(2)
    office = next(c for c in CARDS if CARDS[c].supplies == "grain")
    d.used.add(office)
    market = market_of(d, "grain", "wood")
    g = d.game(market=market, hands=[[], []],
               buildings=[[d.building("CB1", 7, worker="efficient"), d.building(office)],
                          [d.building("CB2", 7, worker="efficient")]])
    g.play(produce("CB1"), 0)  # grain + grain (Office) + wood: all met
    assert goods_of(g, 0, "CB1") == 9 and g.state["market"] == market  # nothing taken
    g.play(DONE, 0)
    g.play(DONE, 0)
    assert g.to_decide == [1]
    refused(g, produce("CB2"), "G4.3", 1)  # seat 1 has no Office: a grain short, no hand


def test_g4_5_the_glassmaker_needs_eleven_units_of_any_kind_ten_sloppy() -> None:
    d = Deal(2)
    glass = d.pick("glassmaker")
    market = d.cards(9)
    hand = d.cards(2)
    g = d.game(market=market, hands=[hand, []],
               buildings=[[d.building("CB1", 7), d.building(glass, 0, worker="sloppy")],
                          [d.building("CB2", 7)]])
    g.play(produce(glass), 0)
    assert len(g.legal_actions(0)) == 2  # any hand card supplies
    g.play({"type": "supply", "card": hand[0]}, 0)
    assert goods_of(g, 0, glass) == 1 and hand[1] in g.state["hands"][0]


def test_g4_6_a_building_the_market_satisfies_must_run() -> None:
    d = Deal(2)
    g = d.game(market=market_of(d, "grain", "grain", "wood"), hands=[[], []],
               buildings=[[d.building("CB1", 7, worker="efficient")], [d.building("CB2", 7)]])
    assert DONE not in g.legal_actions(0)
    refused(g, DONE, "G4.6", 0)
    assert g.view(0)["production"]["buildings"][0]["must_run"] is True


def test_g4_2_g4_7_rulebook_the_mills_chain_from_hand_and_chain_timing() -> None:
    d = Deal(2)
    mill = d.pick("mill")
    grains = [d.pick(resource="grain"), d.pick(resource="grain")]
    wood = d.pick(resource="wood")
    offer = d.data["offer"]
    offer[0]["owner"] = 0
    g = d.game(market=market_of(d, "grain", "wood", "grain"), hands=[[*grains, wood], []],
               buildings=[[d.building("CB1", 7, assistant=offer[0]["id"]),
                           d.building(mill, 0, worker="efficient")], [d.building("CB2", 7)]])
    g.play(produce(mill), 0)
    assert goods_of(g, 0, mill) == 2
    chains = [a for a in g.legal_actions(0) if a["type"] == "chain"]
    assert chains == [{"type": "chain", "building": mill, "hand": [grains[0]], "goods": []},
                      {"type": "chain", "building": mill, "hand": [grains[1]], "goods": []}]
    g.play(chains[0], 0)
    assert goods_of(g, 0, mill) == 3 and grains[0] not in g.state["hands"][0]
    g.play(produce("CB1"), 0)  # G4.2: the Mill's chain cannot be returned to
    refused(g, {"type": "chain", "building": mill, "hand": [grains[1]], "goods": []}, "G4.2",
            0)
    chain = {"type": "chain", "building": "CB1", "hand": [wood], "goods": []}
    assert chain in g.legal_actions(0)  # the Charburner's own: wood -> coal


def test_g4_7_rulebook_shoes_from_several_tanneries_leather() -> None:
    d = Deal(2)
    shoe, t1, t2 = d.pick("shoemaker"), d.pick("tannery"), d.pick("tannery")
    market = market_of(d, "hide", "hide", "ore", "ore", "wood", "clay")
    g = d.game(market=market, hands=[[], []],
               buildings=[[d.building("CB1", 7), d.building(t1, 1), d.building(t2, 2),
                           d.building(shoe, 0, worker="efficient")], [d.building("CB2", 7)]])
    g.play(produce(shoe), 0)
    for src in (t1, t2, t2):
        g.play({"type": "chain", "building": shoe, "hand": [], "goods": [src]}, 0)
    assert goods_of(g, 0, shoe) == 5 and goods_of(g, 0, t1) == goods_of(g, 0, t2) == 0
    assert not [a for a in g.legal_actions(0) if a["type"] == "chain"]  # as inputs last


def test_g4_7_rulebook_bricks_from_two_coal_and_three_clay_make_four() -> None:
    d = Deal(2)
    bricks = d.pick("brickworks")
    clay = [d.pick(resource="clay") for _ in range(3)]
    market = market_of(d, "clay", "clay", "wood")
    g = d.game(market=market, hands=[clay, []],
               buildings=[[d.building("CB1", 2), d.building(bricks, 0, worker="sloppy")],
                          [d.building("CB2", 7)]])
    g.play(produce(bricks), 0)
    made = goods_of(g, 0, bricks)
    while chains := [a for a in g.legal_actions(0) if a["type"] == "chain"]:
        assert all(len(a["hand"]) == 1 and a["goods"] == ["CB1"] for a in chains)
        g.play(chains[0], 0)
    assert goods_of(g, 0, bricks) - made == 4 and goods_of(g, 0, "CB1") == 0
    assert len(g.state["hands"][0]) == 1  # the third clay stays: no coal left


def test_g4_8_the_final_round_chains_any_building_staffed_or_not() -> None:
    d = Deal(2)
    mill, bakery = d.pick("mill"), d.pick("bakery")
    grain = d.pick(resource="grain")
    g = d.game(hands=[[grain], []], final=True,
               buildings=[[d.building("CB1", 3), d.building(mill, 2), d.building(bakery)],
                          [d.building("CB2", 7)]])
    legal = g.legal_actions(0)
    assert {"type": "chain", "building": mill, "hand": [grain], "goods": []} in legal
    assert {"type": "chain", "building": bakery, "hand": [], "goods": [mill, "CB1"]} in legal
    g.play({"type": "chain", "building": bakery, "hand": [], "goods": [mill, "CB1"]}, 0)
    assert goods_of(g, 0, bakery) == 2  # G4.7: a two-item chain makes 2 goods


def test_g4_9_g4_10_rulebook_a_cost_of_seven_paid_with_three_three_two() -> None:
    d = Deal(2)
    iron, barrels, mill = d.pick("ironworks"), d.pick("cooperage"), d.pick("mill")
    bricks = d.pick("brickworks")
    assert CARDS[bricks].building.cost == 7
    g = d.game(hands=[[], []], planned=[bricks, None],
               buildings=[[d.building("CB1", 0, worker="sloppy"), d.building(iron, 1),
                           d.building(barrels, 1), d.building(mill, 1)],
                          [d.building("CB2", 7)]])
    refused(g, {"type": "build"}, "G4.2", 0)
    g.play(DONE, 0)
    assert all(b["worker"] is None for b in g.state["buildings"][0])  # G4.9
    g.play({"type": "build"}, 0)
    before = g.view(0)["players"][0]["coins"]
    g.play({"type": "pay", "building": iron}, 0)
    g.play({"type": "pay", "building": barrels}, 0)
    assert g.view(0)["production"]["pay"] == {"for": "build", "card": bricks,
                                              "assistant": None, "cost": 7, "paid": 6}
    g.play({"type": "pay", "building": mill}, 0)
    assert [b["id"] for b in g.state["buildings"][0]][-1] == bricks
    assert before == 8 and g.view(0)["players"][0]["coins"] == 0  # 8 paid for 7: no change
    assert g.to_decide == [1]


def test_g4_10_a_planned_card_not_built_returns_to_hand() -> None:
    d = Deal(2)
    shoe = d.pick("shoemaker")
    g = d.game(hands=[[], []], planned=[shoe, None],
               buildings=[[d.building("CB1", 7)], [d.building("CB2", 7)]])
    g.play(DONE, 0)
    refused(g, {"type": "build"}, "G4.10", 0)  # 7 coins < 12
    g.play(DONE, 0)
    assert shoe in g.state["hands"][0] and g.state["planned"][0] is None


def test_g4_11_hire_pays_needs_colours_and_is_placed_at_once() -> None:
    d = Deal(2)
    offer = d.data["offer"]
    for o in offer:
        o["side"] = "a"
    aid = offer[0]["id"]
    colour = g_colour = load_cards().assistants[aid]["a"].colours[0]
    kind = next(k for k, b in load_cards().buildings.items()
                if b.colour == colour and b.produces)
    b1 = d.pick(kind)
    g = d.game(hands=[[], []], offer=offer,
               buildings=[[d.building("CB1", 7), d.building(b1, 0)], [d.building("CB2", 7)]])
    g.play(DONE, 0)
    assert {"type": "hire", "assistant": aid} in g.legal_actions(0)
    other = next(o["id"] for o in offer
                 if g_colour not in load_cards().assistants[o["id"]]["a"].colours)
    refused(g, {"type": "hire", "assistant": other}, "G4.11", 0)
    g.play({"type": "hire", "assistant": aid}, 0)
    for _ in range(4):
        g.play({"type": "pay", "building": "CB1"}, 0)
    assert g.legal_actions(0) == [{"type": "assign", "building": "CB1"},
                                  {"type": "assign", "building": b1}]
    g.play({"type": "assign", "building": b1}, 0)
    assert next(b for b in g.state["buildings"][0] if b["id"] == b1)["assistant"] == aid
    assert g.state["hired"][0] and g.to_decide == [1]


def test_g4_1_g4_12_g4_13_turn_order_market_discarded_next_active() -> None:
    g = Game.new(players=3, seed=2, start_player=1)
    for s in (2, 0, 1):
        g.play({"type": "keep"}, s)
    plan_all(g)
    seen = []
    while g.phase == "production":
        seat = g.to_decide[0]
        if not seen or seen[-1] != seat:
            seen.append(seat)
        legal = g.legal_actions(seat)
        g.play(next((a for a in legal if a["type"] == "done"), legal[0]), seat)
    assert seen == [1, 2, 0]
    assert g.state["market"] == [] and g.state["active"] == 2 and g.round == 2


# --- G5: the end ------------------------------------------------------------------------------
def test_g5_1_eight_buildings_finish_the_round_and_one_more() -> None:
    d = Deal(2)
    built = [d.building(d.pick("mill")) for _ in range(7)]
    g = d.game(hands=[[], []], buildings=[[d.building("CB1", 7), *built],
                                          [d.building("CB2", 7)]])
    for seat in (0, 0, 1, 1):
        g.play(DONE, seat)
    assert g.state["final"] and g.round == 2 and not g.is_over
    for s in (0, 1):
        g.play({"type": "keep"}, s)
    plan_all(g)
    while not g.is_over:
        seat = g.to_decide[0]
        legal = g.legal_actions(seat)
        g.play(next((a for a in legal if a["type"] == "done"), legal[0]), seat)
    assert g.round == 2


def test_g5_2_g5_3_score_and_tie_break() -> None:
    d = Deal(2)
    tannery = d.pick("tannery")
    offer = d.data["offer"]
    offer[0]["owner"] = 1
    g = d.game(hands=[[], []], final=True, offer=offer,
               buildings=[[d.building("CB1", 2), d.building(tannery, 2)],  # 14 coins: 2 VP
                          [d.building("CB2", 3, assistant=offer[0]["id"])]])
    for seat in (0, 0, 1, 1):
        g.play(DONE, seat)
    rows = g.standings()
    side = load_cards().assistants[offer[0]["id"]][offer[0]["side"]].vp
    assert rows[0]["sources"] == {"buildings": 2, "assistants": 0, "goods": 2}
    assert rows[0]["coins_left"] == 4
    assert rows[1]["sources"] == {"buildings": 0, "assistants": side, "goods": 0}
    assert g.winners == ([0] if side < 4 else [1] if side > 4 else [0])


def test_g5_3_a_tie_goes_to_coins_left_and_then_all_win() -> None:
    d = Deal(2)
    g = d.game(hands=[[], []], final=True,
               buildings=[[d.building("CB1", 4)], [d.building("CB2", 4)]])
    for seat in (0, 0, 1, 1):
        g.play(DONE, seat)
    assert g.winners == [0, 1]
    d = Deal(2)
    g = d.game(hands=[[], []], final=True,
               buildings=[[d.building("CB1", 4)], [d.building("CB2", 3)]])
    for seat in (0, 0, 1, 1):
        g.play(DONE, seat)
    assert g.winners == [0]


# --- G6: sealed choices -----------------------------------------------------------------------
def test_g6_1_steps_inside_a_sealed_plan_change_no_other_seats_view_or_log() -> None:
    d = Deal(2)
    offer = d.data["offer"]
    offer[0]["owner"] = 0
    mill = d.pick("mill")
    card = d.pick("tannery")
    g = d.game(phase="plan", hands=[[card], d.cards(3)],
               buildings=[[d.building("CB1", 7, assistant=offer[0]["id"]),
                           d.building(mill)], [d.building("CB2", 7)]])
    before = [json.dumps([g.view(1), g.log(1)]), json.dumps([g.public_view(), g.public_log()])]
    g.play({"type": "move_assistant", "assistant": offer[0]["id"], "to": mill}, 0)
    g.play({"type": "pay", "building": "CB1"}, 0)
    g.play({"type": "pay", "building": "CB1"}, 0)
    g.play({"type": "work", "building": "CB1", "mode": "sloppy"}, 0)
    assert json.dumps([g.view(1), g.log(1)]) == before[0]
    assert json.dumps([g.public_view(), g.public_log()]) == before[1]
    assert g.view(0)["players"][0]["plan"]["promised"] == {"CB1": 2}
    g.play({"type": "plan_build", "card": card}, 0)
    after = g.view(1)
    assert after["sealed"] == [True, False] and after["players"][0]["plan"] is None
    assert json.loads(before[0])[0]["players"][0]["coins"] == after["players"][0]["coins"]
    assert g.log(1)[-1] == {"type": "sealed", "seat": 0, "step": "plan", "card": None}


def test_g6_3_a_seat_redoes_its_sealed_choice_whatever_others_sealed_meanwhile() -> None:
    g = Game.new(players=3, seed=8, start_player=0)
    g.play({"type": "mulligan"}, 0)
    g.play({"type": "keep"}, 2)
    g.take_back_sealed(0)
    assert g.to_decide == [0, 1] and g.deciders == [2]
    g.play({"type": "keep"}, 0)
    g.play({"type": "keep"}, 1)
    assert g.phase == "plan" and g.state["mulliganed"] == [False, False, False]
    assert g.sight_barrier(0) == g.move_number  # the reveal's draws: no undo into it
    with pytest.raises(IllegalAction, match=r"G6\.3"):
        g.take_back_sealed(0)


def test_g6_3_a_tables_undo_takes_back_only_the_seats_own_sealed_steps() -> None:
    from langfinger_widget.tables.table import seat_undo_refusal, take_back

    g = Game.new(players=3, seed=8, start_player=0)
    g.play({"type": "mulligan"}, 0)
    g.play({"type": "keep"}, 1)  # another person sealed since: R12.2 would refuse
    assert g.can_take_back_sealed(0) and not g.can_take_back_sealed(2)
    assert seat_undo_refusal(g, 0, {0, 1, 2}) is None
    take_back(g, 0)
    assert g.to_decide == [0, 2] and g.deciders == [1]


def test_g6_3_goods_drawn_face_down_do_not_stop_undo_a_card_turned_up_does() -> None:
    d = Deal(2)
    market = market_of(d, "grain", "grain", "wood")
    g = d.game(market=market, hands=[[d.pick(resource="wood")], []],
               buildings=[[d.building("CB1", 7, worker="efficient")], [d.building("CB2", 7)]])
    g.play(produce("CB1"), 0)
    assert g.sight_barrier(0) == 0 and g.sight_barrier(1) == 0
    g.play(g.legal_actions(0)[0], 0)  # the chain shows a hand card to all
    assert g.sight_barrier(1) == g.move_number
    before = g.to_dict()
    g.play(DONE, 0)
    g.undo()
    assert g.to_dict() == before


# --- G7: public and private ---------------------------------------------------------------------
def test_g7_views_show_hands_and_planned_cards_only_to_their_seat() -> None:
    g = Game.new(players=3, seed=4)
    for s in (0, 1, 2):
        g.play({"type": "keep"}, s)
    plan_all(g, card=None)
    v = g.view(0)
    assert v["players"][0]["hand"] is not None and v["players"][1]["hand"] is None
    assert all(p["planned_any"] is False for p in v["players"])
    pub = g.public_view()
    assert all(p["hand"] is None and p["planned"] is None for p in pub["players"])
    assert "draw" not in pub and isinstance(pub["draw_size"], int)
    assert all(isinstance(b["goods"], int) for p in pub["players"] for b in p["buildings"])


def test_g7_4_a_spectator_sees_only_who_has_sealed() -> None:
    g = Game.new(players=2, seed=4)
    g.play({"type": "mulligan"}, 1)
    pub = g.public_view()
    assert pub["sealed"] == [False, True] and pub["players"][1]["choice"] is None
    assert g.public_log()[-1] == {"type": "sealed", "seat": 1, "step": "hand", "choice": None}


def test_refused_actions_name_their_ruling_and_change_nothing() -> None:
    g = Game.new(players=2, seed=1)
    refused(g, {"type": "produce", "building": "CB1"}, "G2.1", 0)
    refused(g, {"type": "nonsense"}, "not an action", 0)
    g.play({"type": "keep"}, 0)
    refused(g, {"type": "keep"}, "G6.1", 0)
    state = copy.deepcopy(g.to_dict())
    assert g.to_dict() == state


def test_g0_2_a_card_is_a_resource_a_building_or_a_good_and_keeps_its_id() -> None:
    d = Deal(2)
    mill = d.pick("mill")
    g = d.game(hands=[[], []], planned=[mill, None],
               buildings=[[d.building("CB1", 5)], [d.building("CB2", 7)]])
    assert CARDS[mill].resource in ("grain", "wood", "clay", "ore", "hide")
    assert CARDS[mill].building.name == "Mill"
    g.play(DONE, 0)
    g.play({"type": "build"}, 0)
    while g.state["turn"]["seat"] == 0:
        g.play({"type": "pay", "building": "CB1"}, 0)
    assert g.state["buildings"][0][-1]["id"] == mill  # built, it keeps its card's id
    assert all(CARDS[c].resource for c in g.state["buildings"][1][0]["goods"])  # goods: cards


def test_g0_3_grey_buildings_never_produce_and_take_no_worker() -> None:
    d = Deal(2)
    office, inn = d.pick("market_office"), d.pick("inn")
    g = d.game(phase="plan", hands=[[], []],
               buildings=[[d.building("CB1", 0), d.building(office), d.building(inn)],
                          [d.building("CB2", 7)]])
    assert {a["building"] for a in g.legal_actions(0)} == {"CB1"}
    colours = Counter(c.building.colour for c in CARDS.values() if c.resource)
    assert colours["green"] > colours["yellow"] == colours["red"] == colours["blue"]


def test_g6_2_every_plan_is_revealed_at_once_after_the_last() -> None:
    g = Game.new(players=3, seed=9)
    for s in (0, 1, 2):
        g.play({"type": "keep"}, s)
    plan_all(g)
    reveals = [e for e in g.log(0) if e["type"] == "reveal" and e["step"] == "plan"]
    assert len(reveals) == 1 and len(reveals[0]["plans"]) == 3
    assert all(p["work"] is not None for p in reveals[0]["plans"])
    assert reveals[0]["planned"] == [None, None, None]  # no card was planned
    assert [p["revealed_plan"]["work"] for p in g.public_view()["players"]] == \
        [p["work"] for p in reveals[0]["plans"]]
