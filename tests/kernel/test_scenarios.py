"""The worked examples of the English rulebook, replayed as one round of play.

The rulebook's examples tell one continuous story with three players: Hans
starts, then Yoshiko, then Tommaso. Their placements (A) give exactly the
squares that the City, Villa, Ruin, Museum and Harbor examples (B) then
resolve. We write the position before the round by hand (hands, displays and
the top of the tool pile chosen to match the pictures), load it with
``Game.from_dict``, and replay the story step by step, each example as its
own test. Cards are found in the deck by their properties (R0.2, R0.3), not
by id, so the tests survive edits of the deck.
"""

from __future__ import annotations

from typing import Any

from rules_kit import find_fence, find_loot, load, place, position, row

import langfinger_widget as lf

HANS, YOSHIKO, TOMMASO = 0, 1, 2


def _cards() -> dict[str, str]:
    """The cards of the rulebook's pictures, looked up by what they show."""
    c: dict[str, str] = {}
    c["pillar"] = find_loot(protection="pillar", tools=["lockpick", "hammer", "map"],
                            kind="painting", value=3)
    c["chest"] = find_loot(protection="chest", tools=["hammer", "pliers"], value=2)
    c["museum_left"] = find_loot(tools=["map", "map", "welder"])
    c["museum_right"] = find_loot(tools=["welder", "hammer"], kind="coins", value=2)
    c["fence_mid"] = find_fence({"gold": (1, 0), "jewelry": (1, 1), "statue": (2, 0),
                                 "painting": (1, 0)}, exact=True)
    c["fence_right"] = find_fence({"painting": (1, 2)}, without=["coins"])
    c["fence_left"] = next(f for f in sorted(lf.FENCE_CARDS)
                           if "coins" in lf.FENCE_CARDS[f].buys
                           and f not in (c["fence_mid"], c["fence_right"]))
    return c


def story_start() -> tuple[lf.Game, dict[str, str]]:
    """The position before phase A: three players, Hans to start (seat 0)."""
    c = _cards()
    d = position("place", [
        {"name": "Hans", "scoundrel": "hans", "hand": {"pliers": 1, "welder": 1}},
        {"name": "Yoshiko", "scoundrel": "yoshiko", "hand": {"lockpick": 1}},
        {"name": "Tommaso", "scoundrel": "tommaso", "hand": {"map": 1}},
    ], city=["hammer", "lockpick", "map", "map", "pliers", "welder"],
        villa=[c["pillar"], c["chest"]], museum=[c["museum_left"], c["museum_right"]],
        harbor=[c["fence_left"], c["fence_mid"], c["fence_right"]], start_player=HANS)
    return load(d, {"tools": ["pliers", "lockpick"]}), c


PLACING = ["harbor", "museum", "city", "museum", "city", "villa", "villa", "ruin", "harbor"]


def story(until: str) -> tuple[lf.Game, dict[str, str], list[dict[str, Any]]]:
    """Replay the story up to (not including) the example at place ``until``."""
    g, c = story_start()
    events: list[dict[str, Any]] = []
    script: dict[str, list[dict[str, Any]]] = {
        "city": [
            {"type": "take_tools", "tools": ["hammer", "lockpick"]},  # Tommaso
            {"type": "take_tools", "tools": ["map", "map"]},  # Yoshiko
        ],
        "villa": [
            {"type": "steal", "slot": 0, "pay": ["lockpick", "hammer", "map"]},  # Tommaso
            {"type": "steal", "slot": 0, "pay": ["pliers"], "scoundrel": True},  # Hans
        ],
        "ruin": [{"type": "exchange", "rate": "1>2", "give": ["lockpick"]}],  # Yoshiko
        "museum": [
            {"type": "steal", "slot": 0, "pay": ["map", "map"], "scoundrel": True},  # Yoshiko
            {"type": "steal", "slot": 0, "pay": ["welder"], "scoundrel": True},  # Hans
        ],
        "harbor": [
            {"type": "sell", "fence": c["fence_left"], "loot": [c["museum_right"]]},  # Hans
            {"type": "sell", "fence": c["fence_right"], "loot": [c["pillar"]]},  # Tommaso
        ],
    }
    if until == "placing":
        return g, c, events
    for p in PLACING:
        events += g.play(place(p))
    for p in ("city", "villa", "ruin", "museum", "harbor"):
        if p == until:
            break
        for a in script[p]:
            events += g.play(a)
    return g, c, events


def test_example_setup_three_players() -> None:
    g, _ = story_start()
    d = g.to_dict()
    assert (len(d["city"]), len(d["villa"]), len(d["museum"]), len(d["harbor"])) == (6, 2, 2, 3)
    assert [sum(p["hand"].values()) for p in d["players"]] == [2, 1, 1]  # hand-written hands


def test_example_placing() -> None:
    g, _, _ = story("placing")
    seats = []
    for p in PLACING:
        seats.append(g.to_move)
        g.play(place(p))
    assert seats == [HANS, YOSHIKO, TOMMASO] * 3
    sq = g.to_dict()["squares"]
    assert sq == {"city": row(TOMMASO, YOSHIKO), "villa": row(TOMMASO, HANS),
                  "ruin": row(YOSHIKO), "museum": row(YOSHIKO, HANS),
                  "harbor": row(HANS, TOMMASO)}
    assert g.phase == "act" and g.to_move == TOMMASO


def test_example_city() -> None:
    g, _, _ = story("city")
    assert g.to_move == TOMMASO
    g.play({"type": "take_tools", "tools": ["hammer", "lockpick"]})
    assert g.to_move == YOSHIKO
    g.play({"type": "take_tools", "tools": ["map", "map"]})
    d = g.to_dict()
    assert d["players"][TOMMASO]["hand"] == {"lockpick": 1, "hammer": 1, "map": 1}
    assert d["players"][YOSHIKO]["hand"] == {"lockpick": 1, "map": 2}
    assert d["city"] == ["pliers", "welder"]
    assert [p["tokens"] for p in d["players"]][TOMMASO] == 1  # City token back in front
    assert g.view(None)["decision"]["place"] == "villa"  # the City is done


def test_example_villa() -> None:
    g, c, _ = story("villa")
    ev = g.play({"type": "steal", "slot": 0, "pay": ["lockpick", "hammer", "map"]})
    assert ev[0]["loot"]["id"] == c["pillar"] and ev[0]["seat"] == TOMMASO
    assert g.to_dict()["players"][TOMMASO]["loot"] == [c["pillar"]]  # face down: no cash
    assert g.view(HANS)["players"][TOMMASO]["loot"] == [{"protection": "pillar",
                                                         "tools": ["lockpick", "hammer", "map"]}]
    assert g.view(TOMMASO)["players"][TOMMASO]["loot"][0]["kind"] == "painting"
    ev = g.play({"type": "steal", "slot": 0, "pay": ["pliers"], "scoundrel": True})
    assert ev[1] == {"type": "cash", "seat": HANS, "loot": lf.LOOT_CARDS[c["chest"]].face(),
                     "gained": 2, "money": 2}
    d = g.to_dict()
    assert g.money == [2, 0, 0] and d["piles"]["loot"]["discard"] == [c["chest"]]
    assert d["players"][HANS]["hand"] == {"welder": 1}  # the scoundrel card is not discarded
    assert d["scoundrel_used"]["villa"] == [HANS]


def test_example_ruin() -> None:
    g, _, _ = story("ruin")
    assert g.to_move == YOSHIKO
    ev = g.play({"type": "exchange", "rate": "1>2", "give": ["lockpick"]})
    x = next(e for e in ev if e["type"] == "exchange")
    assert x["gave"] == ["lockpick"] and sorted(x["drew"]) == ["lockpick", "pliers"]
    assert {"type": "ruin_reopens", "seats": [YOSHIKO]} in ev  # she picks her token up again
    d = g.to_dict()
    assert d["players"][YOSHIKO]["hand"] == {"lockpick": 1, "pliers": 1, "map": 2}
    assert d["ruin_rates"]["1>2"] is None
    assert next(e for e in g.log(HANS) if e["type"] == "exchange")["drew"] is None


def test_example_museum() -> None:
    g, c, _ = story("museum")
    ev = g.play({"type": "steal", "slot": 0, "pay": ["map", "map"], "scoundrel": True})
    assert ev[0]["seat"] == YOSHIKO and ev[0]["loot"]["id"] == c["museum_left"]
    # Hans used his hammer at the Villa; at the Museum he may use it again (R5.2, R7).
    assert g.to_dict()["scoundrel_used"] == {"villa": [HANS], "museum": [YOSHIKO]}
    ev = g.play({"type": "steal", "slot": 0, "pay": ["welder"], "scoundrel": True})
    assert ev[0]["seat"] == HANS and ev[0]["loot"]["id"] == c["museum_right"]
    d = g.to_dict()
    assert d["players"][HANS]["hand"] == {} and d["players"][HANS]["loot"] == [c["museum_right"]]
    assert d["scoundrel_used"]["museum"] == [YOSHIKO, HANS]


def test_example_harbor() -> None:
    g, c, _ = story("harbor")
    assert g.to_move == HANS
    coin_fences = [a["fence"] for a in g.legal_actions() if a["type"] == "sell"]
    assert coin_fences == [c["fence_left"]]  # only the left fence deals in coins
    ev = g.play({"type": "sell", "fence": c["fence_left"], "loot": [c["museum_right"]]})
    assert ev[0]["gained"] == 2 and g.money[HANS] == 4  # 2 from the chest, 2 for the coins
    assert g.to_move == TOMMASO
    both = sorted(a["fence"] for a in g.legal_actions() if a["type"] == "sell")
    assert both == sorted([c["fence_mid"], c["fence_right"]])  # both buy paintings
    ev = g.play({"type": "sell", "fence": c["fence_right"], "loot": [c["pillar"]]})
    assert ev[0]["gained"] == 5 and g.money == [4, 0, 5]  # 3 + 2 bonus
    d = g.to_dict()
    assert d["piles"]["fences"]["discard"] == [c["fence_left"], c["fence_right"]]
    assert d["piles"]["loot"]["discard"] == [c["chest"], c["museum_right"], c["pillar"]]
    # Phase C: refill, and the start player passes to Yoshiko (R9).
    assert d["round"] == 2 and d["start_player"] == YOSHIKO and d["phase"] == "place"
    assert d["harbor"][0] == c["fence_mid"] and len(d["harbor"]) == 3
    assert len(d["city"]) == 6 and len(d["villa"]) == 2 and len(d["museum"]) == 2


def test_example_fence_buys_two_statues() -> None:
    """The middle fence: 1 gold, or 1 jewelry at +1, or 1-2 statues, or 1 painting."""
    c = _cards()
    statues = [find_loot(kind="statue")]
    statues.append(find_loot(kind="statue", exclude=statues))
    jewelry = find_loot(kind="jewelry")
    g = lf.Game.from_dict(position("act", [
        {"scoundrel": "hans", "loot": [*statues, jewelry]}, {"scoundrel": "yoshiko"},
        {"scoundrel": "tommaso"},
    ], harbor=[c["fence_mid"]], squares={"harbor": row(0)}))
    sells = [a["loot"] for a in g.legal_actions() if a["type"] == "sell"]
    assert sorted(statues) in sells and [jewelry] in sells
    assert [*statues, jewelry] not in sells
    ev = g.play({"type": "sell", "fence": c["fence_mid"], "loot": statues})
    assert ev[0]["gained"] == sum(lf.LOOT_CARDS[s].value for s in statues)
    g2 = lf.Game.from_dict(position("act", [
        {"scoundrel": "hans", "loot": [jewelry]}, {"scoundrel": "yoshiko"},
        {"scoundrel": "tommaso"},
    ], harbor=[c["fence_mid"]], squares={"harbor": row(0)}))
    ev = g2.play({"type": "sell", "fence": c["fence_mid"], "loot": [jewelry]})
    assert ev[0]["gained"] == lf.LOOT_CARDS[jewelry].value + 1


def test_whole_story_log_for_each_seat() -> None:
    """The round as each player saw it: Hans never learns Tommaso's painting before the sale."""
    g, c, _ = story("end")
    hans_log = g.log(HANS)
    steal = next(e for e in hans_log if e["type"] == "steal" and e["seat"] == TOMMASO)
    assert "id" not in steal["loot"]
    sale = next(e for e in hans_log if e["type"] == "sell" and e["seat"] == TOMMASO)
    assert sale["loot"][0]["id"] == c["pillar"]  # revealed when sold
    assert [e["type"] for e in g.log(None)].count("steal") == 4
