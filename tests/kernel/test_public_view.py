"""The spectator's view (R13.1): what every seat may see, and nothing more."""

from __future__ import annotations

import json

import pytest
from rules_kit import busy_game

import langfinger_widget as lf


@pytest.mark.parametrize("players,seed,moves", [(2, 1, 0), (3, 2, 40), (4, 3, 90), (5, 4, 150),
                                                (3, 5, 400)])
def test_public_view_holds_no_hand_and_no_face_down_front(players: int, seed: int,
                                                          moves: int) -> None:
    g = busy_game(players, seed, moves)
    public = g.public_view()
    assert public["spectator"] is True and public["seat"] is None
    for p in public["players"]:
        assert p["hand"] is None and p["hand_size"] == g.state.players[p["seat"]].hand_size()
        assert all("id" not in card for card in p["loot"])
    assert all("id" not in card for card in public["villa"] + public["museum"])
    assert "seed" not in json.dumps(public)
    for event in g.public_log():
        if event["type"] == "deal":
            assert event["tools"] is None
        if event["type"] == "exchange":
            assert event["drew"] is None
        if event["type"] == "refill" and event["place"] in ("villa", "museum"):
            assert all("id" not in card for card in event["cards"])


@pytest.mark.parametrize("players,seed,moves", [(2, 11, 30), (3, 12, 120), (5, 13, 200)])
def test_public_view_is_the_same_whatever_any_seat_cannot_see(players: int, seed: int,
                                                              moves: int) -> None:
    """Resampling what a seat cannot see (its export, loaded) never changes the public view."""
    g = busy_game(players, seed, moves)
    for seat in range(players):
        twin = lf.Game.from_dict(g.to_dict(seat=seat))
        assert twin.to_dict() != g.to_dict()  # the hidden cards did change
        assert twin.public_view() == g.public_view()


def test_public_view_is_each_seats_view_without_its_own_secrets() -> None:
    g = busy_game(3, 21, 100)
    public = g.public_view()
    for seat in range(3):
        mine = g.view(seat)
        for key in ("city", "villa", "museum", "harbor", "squares", "ruin_rates", "piles",
                    "round", "phase", "to_move", "decision", "money_by_round"):
            assert public[key] == mine[key], key
        for theirs, p in zip(public["players"], mine["players"], strict=True):
            if p["seat"] != seat:
                assert theirs == p  # a rival's panel: the same for a seat as for a spectator


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("variant", ["standard", "open_info"])
def test_views_at_once_are_each_seats_view_and_the_spectators(players: int,
                                                              variant: str) -> None:
    """``Game.views`` (a server's broadcast, R11/R13.1): every seat's view and the spectator's,
    equal to each built alone at every position of random games, whatever the variant."""
    import random

    for seed in range(4):
        rng = random.Random(seed)
        g = lf.Game.new(players, seed=seed, variant=variant)
        while not g.is_over:
            shown = g.views(range(players), spectator=True)
            assert set(shown) == {*range(players), None}
            for seat in range(players):
                assert json.dumps(shown[seat], sort_keys=True) == json.dumps(
                    g.view(seat), sort_keys=True)
            assert json.dumps(shown[None], sort_keys=True) == json.dumps(
                g.public_view(), sort_keys=True)
            g.play(rng.choice(g.legal_actions()))
    assert g.views([1]) == {1: g.view(1)}
    with pytest.raises(lf.BadArgument):
        g.views([None])  # type: ignore[list-item]
    with pytest.raises(lf.BadArgument):
        g.views([players])


def test_a_view_is_the_callers_to_change_while_views_at_once_share_their_cards() -> None:
    """``Game.view`` hands out its own dicts (a caller may change them, no other view
    changes); ``Game.views`` (read only, for encoding) spells each card once and shares it."""
    import random

    rng = random.Random(2)
    g = lf.Game.new(3, seed=9)
    while not g.state.harbor or not g.state.villa:
        g.play(rng.choice(g.legal_actions()))
    mine = g.view(0)
    mine["harbor"][0]["buys"].clear()
    mine["villa"][0]["tools"].append("changed")
    again = g.view(0)
    assert again["harbor"][0]["buys"] and "changed" not in again["villa"][0]["tools"]
    shown = g.views([0, 1])
    assert shown[0]["harbor"][0] is shown[1]["harbor"][0]
    assert shown[0]["harbor"][0] is g.views([2])[2]["harbor"][0]
    assert shown[0]["harbor"][0] == again["harbor"][0]
