"""The kernel's public API as DESIGN.md promises it: ``Game.new`` and its arguments,
the properties, actions, undo, views, logs, copies and the two variants."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from rules_kit import PASS, place, position, random_game, row

import langfinger_widget as lf
from langfinger_widget.kernel.cards import PLACES

VIEW_KEYS = {"format", "seat", "variant", "round", "phase", "start_player", "to_move",
             "decision", "players", "city", "villa", "museum", "harbor", "squares",
             "ruin_rates", "piles", "money_by_round", "is_over", "winners"}
PLAYER_KEYS = {"seat", "name", "scoundrel", "tool", "money", "tokens", "hand_size", "hand",
               "known", "loot", "scoundrel_used"}
EVENT_TYPES = {"deal", "place", "actions_begin", "take_tools", "steal", "cash", "exchange",
               "sell", "pass", "ruin_reopens", "reshuffle", "refill", "start_player",
               "game_over"}


def test_new_defaults_and_arguments() -> None:
    g = lf.Game.new()
    assert g.num_players == 3 and isinstance(g.seed, int)
    g = lf.Game.new(players=4, seed=42, names=["A", "B", "C", "D"],
                    scoundrels=["bobby", "yoshiko", "hans", "pascal"], start_player=2,
                    variant="open_info")
    assert (g.num_players, g.round, g.phase, g.start_player, g.to_move) == (4, 1, "place", 2, 2)
    assert g.money == [0, 0, 0, 0] and not g.is_over and g.winners == []
    v = g.view(None)
    assert [p["name"] for p in v["players"]] == ["A", "B", "C", "D"]
    assert [p["scoundrel"] for p in v["players"]] == ["bobby", "yoshiko", "hans", "pascal"]
    assert v["variant"] == "open_info" and g.to_dict()["seed"] == 42
    assert [p["name"] for p in lf.Game.new(players=2, seed=0).view(None)["players"]] == [
        "Pascal", "Hans"]


@pytest.mark.parametrize("kwargs", [
    {"players": 1}, {"players": 6}, {"players": "3"}, {"players": 2.0}, {"players": True},
    {"seed": -1}, {"seed": "x"}, {"seed": 1.5}, {"seed": True},
    {"names": ["A", "B"]}, {"names": ["A", "B", 3]},
    {"scoundrels": ["hans", "hans", "bobby"]}, {"scoundrels": ["hans", "bobby"]},
    {"scoundrels": ["hans", "bobby", "moriarty"]},
    {"start_player": 3}, {"start_player": -1}, {"start_player": "0"}, {"start_player": False},
    {"variant": "open"}, {"variant": None},
])
def test_new_rejects_bad_arguments(kwargs: dict[str, Any]) -> None:
    args: dict[str, Any] = {"players": 3, "seed": 1, **kwargs}
    with pytest.raises(ValueError):
        lf.Game.new(**args)


def test_catalogue_exports() -> None:
    assert len(lf.LOOT_CARDS) == 30 and len(lf.FENCE_CARDS) == 14
    card = lf.LOOT_CARDS["L07"]
    assert card.protection and card.tools and card.kind and card.value
    assert all(isinstance(v, tuple) and len(v) == 2 for v in lf.FENCE_CARDS["F03"].buys.values())
    assert lf.SCOUNDRELS["hans"].tool == "hammer"
    assert issubclass(lf.IllegalAction, ValueError) and issubclass(lf.InvalidState, ValueError)


def test_legal_actions_json_ready_and_play_returns_events() -> None:
    g = lf.Game.new(players=3, seed=5)
    legal = g.legal_actions()
    assert json.loads(json.dumps(legal)) == legal
    assert legal == [place(p) for p in PLACES]
    events = g.play(legal[0])
    assert events == [{"type": "place", "seat": g.start_player, "place": "city", "square": 0}]
    assert g.why_illegal(legal[1]) is None
    assert g.why_illegal(PASS) is not None
    with pytest.raises(lf.IllegalAction, match=r"^R2\.1"):
        g.play(PASS)


def test_whole_game_through_the_api() -> None:
    g = random_game(4, seed=3)
    assert g.is_over and g.phase == "over" and g.to_move is None
    assert g.legal_actions() == []
    assert g.winners == [i for i, m in enumerate(g.money) if m == max(g.money)]
    log = g.log(None)
    assert {e["type"] for e in log} <= EVENT_TYPES
    assert log[-1]["type"] == "game_over" and log[-1]["money"] == g.money
    assert json.loads(json.dumps(log)) == log
    assert len(g.history) == sum(e["type"] in ("place", "take_tools", "steal", "exchange",
                                               "sell", "pass") for e in log)


def test_undo() -> None:
    g = lf.Game.new(players=2, seed=8)
    with pytest.raises(lf.IllegalAction):
        g.undo()  # nothing to undo yet
    start, log = g.to_dict(), g.log(None)
    rng = random.Random(1)
    for _ in range(40):
        g.play(rng.choice(g.legal_actions()))
    for _ in range(40):
        g.undo()
    assert g.to_dict() == start and g.log(None) == log and g.history == []


def test_view_shapes_and_seats() -> None:
    g = lf.Game.new(players=3, seed=2)
    for seat in (None, 0, 1, 2):
        v = g.view(seat)
        assert set(v) == VIEW_KEYS and v["seat"] == seat and v["format"] == "langfinger-view/1"
        assert all(set(p) == PLAYER_KEYS for p in v["players"])
        assert json.loads(json.dumps(v)) == v
    assert g.view() == g.view(None)
    for bad in (3, -1, "0", 1.0):
        with pytest.raises(ValueError):
            g.view(bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            g.log(bad)  # type: ignore[arg-type]
    assert g.view(None)["decision"] == {"seat": g.start_player, "kind": "place", "place": None,
                                        "square": None, "too_late": {}}


def test_copy_is_independent() -> None:
    g = lf.Game.new(players=3, seed=4)
    g.play(place("city"))
    twin = g.copy()
    before = g.to_dict()
    twin.play(place("villa"))
    assert g.to_dict() == before and len(g.history) == 1 and len(twin.history) == 2
    g.play(place("ruin"))
    assert twin.to_dict()["squares"]["villa"][0] == (g.start_player + 1) % 3
    assert twin.to_dict()["squares"]["ruin"][0] is None
    twin.undo()
    twin.undo()
    assert twin.history == [] and g.history == [place("city"), place("ruin")]


def test_from_dict_to_dict_round_trip_and_errors() -> None:
    g = random_game(3, seed=11, max_steps=50)
    d = g.to_dict()
    assert lf.Game.from_dict(json.loads(json.dumps(d))).to_dict() == d
    bads: list[Any] = [None, [], "x", {"format": "langfinger/1"}, {**d, "format": "langfinger/2"}]
    for bad in bads:
        with pytest.raises(lf.InvalidState):
            lf.Game.from_dict(bad)


def test_open_info_known_tools_visible_to_opponents() -> None:
    """R11.2: tools taken from the City stay visible in the taker's hand; R11.1 hides them."""
    for variant in ("open_info", "standard"):
        g = lf.Game.from_dict(position("act", [
            {"scoundrel": "pascal", "hand": {"lockpick": 2}}, {"scoundrel": "hans"},
            {"scoundrel": "tommaso"},
        ], variant=variant, city=["map", "map", "welder"], squares={"city": row(0, 1)}))
        g.play({"type": "take_tools", "tools": ["map", "welder"]})
        for seat in (1, 2):
            other = g.view(seat)["players"][0]
            assert other["hand"] is None and other["hand_size"] == 4
            expected = {"map": 1, "welder": 1} if variant == "open_info" else {}
            assert other["known"] == expected
        assert g.view(0)["players"][0]["hand"] == {"lockpick": 2, "map": 1, "welder": 1}
        take = next(e for e in g.log(2) if e["type"] == "take_tools")
        assert take["tools"] == ["welder", "map"] or sorted(take["tools"]) == ["map", "welder"]


def test_open_info_blind_draws_stay_hidden() -> None:
    g = random_game(3, seed=21, variant="open_info")
    for seat in range(3):
        for e in g.log(seat):
            if e["type"] == "deal" and e["seat"] != seat:
                assert e["tools"] is None
            if e["type"] == "exchange" and e["seat"] != seat:
                assert e["drew"] is None
    final = g.to_dict()["players"]
    for seat, p in enumerate(g.view(0)["players"]):
        assert p["known"] == final[seat]["known"]
        assert all(final[seat]["hand"].get(t, 0) >= n for t, n in p["known"].items())


def test_repr_mentions_the_state() -> None:
    assert "3 players" in repr(lf.Game.new(players=3, seed=0))


def _vandalize(value: Any) -> None:
    """Empty every dict and list inside ``value``, however deep."""
    children = list(value.values()) if isinstance(value, dict) else list(value)
    for child in children:
        if isinstance(child, (dict, list)):
            _vandalize(child)
    value.clear()


def test_changing_a_returned_log_or_view_changes_nothing_inside() -> None:
    g = lf.Game.new(players=2, seed=5)
    before = json.dumps([g.log(None), g.view(None)])
    assert any(e["type"] == "refill" and isinstance(e["cards"][0], dict) for e in g.log(None))
    _vandalize(g.log(None))
    _vandalize(g.view(None))
    assert json.dumps([g.log(None), g.view(None)]) == before


def test_version_grows_on_every_play_and_undo_and_copy_keeps_it() -> None:
    # The lead's Table drops a background result (bot move, hint) computed for another version:
    # the move number cannot tell an undone-and-replayed position apart, the version can.
    g = lf.Game.new(players=3, seed=4)
    assert g.version == 0
    seen = [g.version]
    rng = random.Random(2)
    for _ in range(6):
        g.play(rng.choice(g.legal_actions()))
        seen.append(g.version)
    g.undo()
    seen.append(g.version)
    g.play(rng.choice(g.legal_actions()))
    seen.append(g.version)
    assert seen == sorted(set(seen)) and seen[-1] == 8  # strictly increasing, one per change
    twin = g.copy()
    assert twin.version == g.version
    twin.undo()
    assert twin.version == g.version + 1 and g.version == 8  # independent after the copy
    with pytest.raises(lf.IllegalAction):
        g.play(PASS)  # an illegal action changes nothing, the version included
    assert g.version == 8


def test_R1_0_start_player_is_drawn_from_the_seed_unless_given() -> None:
    drawn = {seed: lf.Game.new(players=4, seed=seed).start_player for seed in range(60)}
    assert set(drawn.values()) == {0, 1, 2, 3}  # chance decides, not always seat 0
    assert all(lf.Game.new(players=4, seed=s).start_player == k for s, k in drawn.items())
    for seed, k in list(drawn.items())[:8]:
        g = lf.Game.new(players=4, seed=seed)
        assert g.to_move == k and g.view(None)["decision"]["seat"] == k
        # The draw is R1.0 alone: the same decks and deal as a game given that start player.
        assert g.to_dict() == lf.Game.new(players=4, seed=seed, start_player=k).to_dict()
        assert g.log(None) == lf.Game.new(players=4, seed=seed, start_player=k).log(None)
        hands = [sum(p["hand"].values()) for p in g.to_dict()["players"]]
        assert hands[k] == 2 and hands[(k + 1) % 4] == 3  # R1.3 follows the drawn start player
    assert lf.Game.new(players=3, seed=1, start_player=1).start_player == 1


@pytest.mark.parametrize("bad", [3, -1, "0", False, 1.0])
def test_R1_0_start_player_out_of_range_names_the_ruling(bad: Any) -> None:
    with pytest.raises(ValueError, match=r"^R1\.0: start_player is a seat from 0 to 2"):
        lf.Game.new(players=3, seed=1, start_player=bad)
    d = lf.Game.new(players=3, seed=1).to_dict()
    d["start_player"] = bad
    with pytest.raises(lf.InvalidState, match=r"R1\.0: start_player"):
        lf.Game.from_dict(d)


def test_notation_error_is_exported_like_the_other_errors() -> None:
    assert lf.NotationError is lf.notation.NotationError
    assert issubclass(lf.NotationError, lf.InvalidState) and "NotationError" in lf.__all__
    with pytest.raises(lf.NotationError):
        lf.Game.from_notation("s7 1x0")


@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_record_kept_move_by_move_is_the_record_replayed(players: int) -> None:
    """A game whose log is read after every move keeps its record as it plays (no replay);
    through copies (a server's drafts) and undos it holds exactly what a game asked once at
    the end replays: every seat's log, the open log and every sight barrier (R12.1)."""
    import random

    rng = random.Random(players)
    kept = lf.Game.new(players, seed=players)
    moves: list[dict] = []
    while not kept.is_over and len(moves) < 400:
        kept.log(0)  # asked after every move, as a server does
        draft = kept.copy()
        action = rng.choice(draft.legal_actions())
        draft.play(action)
        kept = draft
        moves.append(action)
        if rng.random() < 0.05:
            kept.undo()
            moves.pop()
    replayed = lf.Game.new(players, seed=players)
    for action in moves:
        replayed.play(action)
    for seat in [None, *range(players)]:
        assert kept.log(seat) == replayed.log(seat)
        assert kept.sight_barrier(seat) == replayed.sight_barrier(seat)
