"""The kernel's fast paths (issue 13) keep the contract: shared read-only actions, events
the caller owns, the game's record written by replay, and the search path by action ids."""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import pytest
from rules_kit import random_game

import langfinger_widget as lf
from langfinger_widget.kernel import cards, rules, views
from langfinger_widget.kernel.action_dicts import Action


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def test_legal_actions_are_equal_to_plain_dicts_and_json_ready() -> None:
    g = random_game(3, seed=4, max_steps=40)
    legal = g.legal_actions()
    assert all(isinstance(a, dict) for a in legal)
    assert legal == _plain(legal) == [rules.key_action(k) for k in rules.legal_keys(g.state)]
    assert repr(legal[0]) == repr(_plain(legal)[0])


def test_a_listed_action_cannot_be_changed_in_place_and_the_game_is_untouched() -> None:
    g = lf.Game.new(players=2, seed=8)
    while not any("pay" in a or "tools" in a or "give" in a for a in g.legal_actions()):
        g.play(g.legal_actions()[0])
    before = (_plain(g.legal_actions()), g.to_dict())
    action = next(a for a in g.legal_actions() if len(a) > 1 and a["type"] != "place")
    names = next(v for v in action.values() if isinstance(v, list))
    for change in (lambda: action.__setitem__("type", "pass"), lambda: action.pop("type"),
                   lambda: action.update(type="pass"), action.clear, action.popitem,
                   lambda: action.setdefault("x", 1), lambda: action.__delitem__("type"),
                   lambda: names.append("map"), lambda: names.__setitem__(0, "map"),
                   names.clear, names.sort, names.reverse, lambda: names.extend(["map"]),
                   lambda: names.remove(names[0]), lambda: names.insert(0, "map"), names.pop):
        with pytest.raises(TypeError, match="read-only"):
            change()
    with pytest.raises(TypeError, match="read-only"):
        action |= {"type": "pass"}
    assert (_plain(g.legal_actions()), g.to_dict()) == before


@pytest.mark.parametrize("duplicate", [copy.copy, copy.deepcopy, lambda a: a.copy(),
                                       lambda a: pickle.loads(pickle.dumps(a))])
def test_copies_of_an_action_are_plain_dicts_to_change(duplicate: Any) -> None:
    g = lf.Game.new(players=2, seed=8)
    while not any("pay" in a or "tools" in a or "give" in a for a in g.legal_actions()):
        g.play(g.legal_actions()[0])
    action = next(a for a in g.legal_actions() if a["type"] != "pass")
    mine = duplicate(action)
    assert type(mine) is dict and mine == action
    for value in mine.values():
        if isinstance(value, list):
            assert type(value) is list
            value.append("map")  # a plain list: changing it is fine ...
    mine["type"] = "pass"
    assert action != mine and g.is_legal(action)  # ... and leaves the shared action alone


def test_plain_dicts_forged_or_copied_play_like_listed_ones() -> None:
    g1, g2 = lf.Game.new(players=3, seed=9), lf.Game.new(players=3, seed=9)
    rng = random.Random(9)
    while not g1.is_over:
        action = rng.choice(g1.legal_actions())
        assert g1.play(action) == g2.play(_plain(action))
    assert g1.to_dict() == g2.to_dict()
    assert isinstance(g1.history[0], dict) and not isinstance(g1.history[0], Action)


def test_play_hands_its_events_to_the_caller_and_the_log_keeps_its_own() -> None:
    g = lf.Game.new(players=2, seed=3)
    rng = random.Random(3)
    returned = list(g.log(None))
    while not g.is_over:
        events = g.play(rng.choice(g.legal_actions()))
        returned.extend(_plain(events))
        for e in events:  # the caller may change them at will
            e.clear()
    assert g.log(None) == returned


def test_the_record_follows_undo_and_copies() -> None:
    g = random_game(4, seed=12, max_steps=60)
    full = g.log(None)
    marks = [g.sight_barrier(seat) for seat in range(4)]
    twin = g.copy()
    for _ in range(7):
        g.undo()
    shorter = g.log(None)
    assert shorter == full[:len(shorter)] and len(shorter) < len(full)
    assert twin.log(None) == full and [twin.sight_barrier(s) for s in range(4)] == marks
    replay = lf.Game.new(players=4, seed=12, start_player=0)
    for action in g.history:
        replay.play(action)
    assert replay.log(None) == shorter and replay.to_dict() == g.to_dict()


def test_undo_before_the_log_was_read_keeps_the_record_exact() -> None:
    g = random_game(3, seed=21, max_steps=30)
    g.undo()
    g.undo()
    rng = random.Random(1)
    for _ in range(5):
        g.play(rng.choice(g.legal_actions()))
    again = lf.Game.new(players=3, seed=21, start_player=0)
    for action in g.history:
        again.play(action)
    assert g.log(None) == again.log(None)
    assert [g.log(s) for s in range(3)] == [again.log(s) for s in range(3)]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_legal_ids_and_apply_id_are_legal_keys_and_apply(players: int) -> None:
    """The search's path by ids lists the same actions and leaves the same positions."""
    g = lf.Game.new(players=players, seed=players)
    fast = g.state.copy()
    rng = random.Random(players)
    while not g.is_over:
        ids = rules.legal_ids(fast)
        assert [rules.ACTIONS[i] for i in ids] == rules.legal_keys(g.state)
        assert ids[-1] == rules.PASS_ID or fast.phase == "place"
        pick = rng.randrange(len(ids))
        rules.apply_id(fast, ids[pick])
        g.play(rules.key_action(rules.ACTIONS[ids[pick]]))
        assert fast.to_dict() == g.state.to_dict()
    assert rules.legal_ids(fast) == []


def test_flat_event_types_hold_only_numbers_and_names() -> None:
    """views.copy_events copies these with a shallow copy: nothing inside may be shared."""
    seen = set()
    for seed in range(6):
        for e in random_game(2 + seed % 4, seed=seed).log(None):
            if e["type"] in views.FLAT_EVENTS:
                seen.add(e["type"])
                assert all(v is None or isinstance(v, (str, int, float)) for v in e.values()), e
    assert seen == views.FLAT_EVENTS


def test_a_new_deck_is_seen_by_the_cached_lists(restore_deck: None) -> None:
    """The legal-action caches know loot by id: installing a deck must drop them (R0.4)."""
    g = random_game(2, seed=6)
    sale = next(k for k in rules.ACTIONS if k[0] == "sell")
    before = rules.sale_gain(rules.action_id(sale))
    deck = cards.load_deck(cards.DEFAULT_DECK_PATH)
    bonus = {f: cards.FenceCard(f, {k: (n, min(b + 1, 2)) for k, (n, b) in c.buys.items()})
             for f, c in deck.fences.items()}
    cards.use_deck(cards.Deck("bonus", deck.loot, bonus))
    fence, loot = sale[1], sale[2]
    kind = cards.LOOT_CARDS[loot[0]].kind
    expected = sum(cards.LOOT_CARDS[i].value for i in loot) + len(loot) * bonus[fence].buys[kind][1]
    assert rules.sale_gain(rules.action_id(sale)) == expected
    assert expected != before or deck.fences[fence].buys[kind][1] == 2
    assert g.is_over




@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_place_each_places_like_one_resolve_a_token(players: int) -> None:
    """rules.place_each (a rollout's placing) leaves the positions one resolve a token does
    (R2.1 order, R2.2 full places), from the start of a round or part way through it."""
    rng = random.Random(players)
    for seed in range(8):
        g = lf.Game.new(players=players, seed=seed)
        while not g.is_over:
            if g.state.phase == "place":
                picks: list[str] = []

                def choose(places: Any, picks: list[str] = picks) -> str:
                    picks.append(places[rng.randrange(len(places))])
                    return picks[-1]

                whole = g.state.copy()
                rules.place_each(whole, choose)
                one_by_one = g.state.copy()
                for place in picks:
                    assert place in {rules.ACTIONS[i][1] for i in rules.legal_ids(one_by_one)}
                    rules.resolve(one_by_one, ("place", place), None)
                assert whole.phase == one_by_one.phase == "act"
                assert whole.to_dict() == one_by_one.to_dict()
                assert rules.acting_square(whole) == rules.acting_square(one_by_one)
            legal = g.legal_actions()
            g.play(legal[rng.randrange(len(legal))])


def _act_round(state: Any, rng: random.Random, refill: bool = True) -> tuple[Any, Any]:
    """The round's actions by rules.act_each, and the same choices by one resolve a token."""
    chosen: list[int] = []

    def choose(ids: Any, place: str) -> int:
        assert len(ids) > 1 and ids[-1] == rules.PASS_ID  # a real choice, pass last
        assert rules.ACTIONS[ids[0]][0] == rules.ACT_TYPES[place]
        chosen.append(ids[rng.randrange(len(ids))])
        return chosen[-1]

    whole = state.copy()
    rules.act_each(whole, choose, refill=refill)
    one_by_one, picks = state.copy(), iter(chosen)
    while one_by_one.phase == "act" and one_by_one.round == state.round:
        ids = rules.legal_ids(one_by_one)
        aid = ids[0] if len(ids) == 1 else next(picks)
        assert aid in ids
        rules.resolve(one_by_one, rules.ACTIONS[aid], None)
    assert next(picks, None) is None  # every choice was asked for by a token
    return whole, one_by_one


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_act_each_acts_like_one_resolve_a_token(players: int) -> None:
    """rules.act_each (a rollout's actions) leaves the position one resolve a token does
    (R3.1 order, R6.2 exchange tokens kept out and returned, R9 phase C, R10.1 the end),
    from the first token of a round or part way through it."""
    rng = random.Random(players)
    for seed in range(8):
        g = lf.Game.new(players=players, seed=seed)
        while not g.is_over:
            if g.state.phase == "act":
                state = rng.getrandbits(32)
                whole, one_by_one = _act_round(g.state, random.Random(state))
                assert whole.to_dict() == one_by_one.to_dict()
                assert rules.legal_ids(whole) == rules.legal_ids(one_by_one)
            legal = g.legal_actions()
            g.play(legal[rng.randrange(len(legal))])


def test_act_each_without_refill_stops_before_phase_c() -> None:
    """refill=False (a rollout's last round): the money is recorded and the game may end
    (R10.1), but the displays are not refilled (R9.1) and the next round does not begin."""
    rng, ended, stopped = random.Random(5), 0, 0
    for seed in range(30):
        g = lf.Game.new(players=2 + seed % 4, seed=seed)
        while not g.is_over:
            if g.state.phase == "act" and rules.acting_square(g.state)[1] == 0:  # type: ignore[index]
                short, full = _act_round(g.state, random.Random(seed), refill=False)
                assert short.money_by_round == full.money_by_round
                assert [p.money for p in short.players] == [p.money for p in full.players]
                if full.phase == "over":
                    ended += 1
                    assert short.to_dict() == full.to_dict()
                else:
                    stopped += 1
                    assert (short.phase, short.round) == ("act", g.state.round)
                    assert rules.legal_ids(short) == [] and rules.to_move(short) is None
                    assert sum(map(len, (short.city, short.villa, short.museum, short.harbor))) \
                        <= sum(map(len, (full.city, full.villa, full.museum, full.harbor)))
            legal = g.legal_actions()
            g.play(legal[rng.randrange(len(legal))])
    assert ended and stopped


def test_a_legal_action_never_listed_before_is_played() -> None:
    """Game.play accepts a legal action whose key has no id yet: in a fresh process (ids are
    handed out as actions are first listed, rules.id_of), a scoundrel's steal played at once."""
    import subprocess
    import sys
    from pathlib import Path

    here = Path(__file__).resolve().parent
    test = "test_R5_2_scoundrel_needs_its_tool_pictured_and_is_not_discarded"
    script = (f"import sys; sys.path[:0] = [{str(here)!r}, {str(here.parent)!r}]; "
              f"import test_rules; test_rules.{test}()")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr


def test_legal_ids_is_a_fresh_copy_of_the_shared_list() -> None:
    """A search reads rules.legal_ids_shared (the memo tables' own lists); legal_ids hands
    out a copy, so a caller that changes it cannot spoil the next listing."""
    rng = random.Random(3)
    g = lf.Game.new(players=3, seed=3)
    state = g.state.copy()
    while state.phase != "over":
        shared = list(rules.legal_ids_shared(state))
        mine = rules.legal_ids(state)
        assert mine == shared
        mine.clear()
        assert list(rules.legal_ids_shared(state)) == shared == rules.legal_ids(state)
        rules.apply_id(state, shared[rng.randrange(len(shared))])
