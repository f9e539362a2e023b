"""The envs' plain-Python core (issue 15): action ids, the observation vector, explicit chance.

No extra is needed here: PettingZoo and OpenSpiel have their own files
(tests/envs/test_envs_pettingzoo.py, tests/envs/test_envs_openspiel.py).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

import langfinger_widget as lf
from langfinger_widget.bots import Determinizer
from langfinger_widget.envs import chance, observation
from langfinger_widget.envs.actions import table
from langfinger_widget.kernel import cards, load, rules, views

DOC = Path(__file__).resolve().parents[2] / "docs" / "envs.md"


def positions(count: int, seed: int) -> Iterator[lf.Game]:
    """``count`` decision positions from seeded random games, 2-5 players, both variants."""
    rng = random.Random(seed)
    found = 0
    while True:
        n = rng.randint(2, 5)
        g = lf.Game.new(players=n, seed=rng.getrandbits(31),
                        variant=rng.choice(("standard", "open_info")),
                        scoundrels=rng.sample(sorted(cards.SCOUNDRELS), n))
        while not g.is_over:
            yield g
            found += 1
            if found >= count:
                return
            legal = g.legal_actions()
            acting = [a for a in legal if a["type"] != "pass"]  # mostly act: games move on
            g.play(rng.choice(acting if acting and rng.random() < 0.85 else legal))


# --- the action table -----------------------------------------------------------------------


def test_the_table_has_the_documented_blocks() -> None:
    t = table()
    assert t.size == 6617
    sizes = {b.name: (b.start, b.size) for b in t.blocks}
    assert sizes == {"place": (0, 5), "pass": (5, 1), "take_tools": (6, 20), "steal": (26, 6),
                     "exchange": (32, 75), "sell": (107, 6510)}
    assert len({t.describe(i) for i in range(t.size)}) == t.size, "two ids read the same"
    assert t.describe(t.id_of(("exchange", "3>4", ("hammer", "map", "map")))) == \
        "exchange 3>4 give hammer+map+map"


def test_every_legal_action_of_thousands_of_positions_has_one_id_and_back() -> None:
    t = table()
    blocks: Counter[str] = Counter()
    for g in positions(4000, seed=15):
        keys = rules.legal_keys(g.state)
        by_id = t.legal(g.state)
        assert len(by_id) == len(keys), "two legal actions share an id"
        assert list(by_id) == sorted(by_id)
        for i, key in by_id.items():
            assert key in keys and t.id_of(key) == i
            template = t.template(i)
            # Only a steal's payment is left out of its id (it follows from the card, R5.1).
            assert template == key or (key[0] == "steal" and template[2] == ()
                                       and template[:2] + template[3:] == key[:2] + key[3:])
            blocks[t.block_of(i).name] += 1
            blocks["sell two"] += key[0] == "sell" and len(key[2]) == 2
            blocks["scoundrel"] += key[0] == "steal" and key[3]
    # The positions reach every block (else this test would prove little about it).
    assert {b for b, n in blocks.items() if n} == {
        "place", "pass", "take_tools", "steal", "exchange", "sell", "sell two", "scoundrel"}


def test_steal_ids_tell_the_scoundrel_apart_and_name_the_slot() -> None:
    t = table()
    found = False
    for g in positions(3000, seed=3):
        steals = [k for k in rules.legal_keys(g.state) if k[0] == "steal"]
        if any(k[3] for k in steals) and any(not k[3] for k in steals):
            for k in steals:
                assert t.id_of(k) == 26 + 2 * k[1] + int(k[3])
            found = True
            break
    assert found


def test_an_illegal_id_is_explained_by_the_rules() -> None:
    g = lf.Game.new(players=3, seed=4)
    action = table().action(table().id_of(rules.PASS), g.state)
    assert action == {"type": "pass"}
    assert g.why_illegal(action).startswith("R2.1")
    with pytest.raises(KeyError):
        table().id_of(("take_tools", ("map", "map", "map")))  # R4: never three


# --- the observation ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_fields_tile_the_vector(players: int) -> None:
    fields = observation.fields(players, 100)
    at = 0
    for f in fields:
        assert f.start == at and f.size > 0 and f.high > 0
        at += f.size
    assert at == observation.size(players, 100) == 286 + 113 * players


def _doc_rows() -> list[tuple[str, str, str]]:
    text = DOC.read_text()
    section = text[text.index("## The observation vector"):]
    return re.findall(r"^\| `([^`]+)` \| ([^|]+) \| ([^|]+) \|", section, re.M)


def test_docs_list_every_field_with_its_size_and_bound() -> None:
    rows = _doc_rows()
    first = next(i for i, r in enumerate(rows) if r[0].startswith("players[r]"))
    last = max(i for i, r in enumerate(rows) if r[0].startswith("players[r]"))
    for n in (2, 3, 4, 5):
        value = {"n": n, "max_rounds": 100}

        def row(name: str, size: str, high: str) -> tuple[str, int, float]:
            return (name, eval(size.replace("·", "*"), value),  # noqa: B023
                    float(eval(high, value)))  # noqa: B023

        documented = [row(*r) for r in rows[:first]]
        for seat in range(n):
            documented += [row(r[0].replace("[r]", f"[{seat}]"), r[1], r[2])
                           for r in rows[first:last + 1]]
        documented += [row(*r) for r in rows[last + 1:]]
        assert documented == [(f.name, f.size, f.high) for f in observation.fields(n, 100)]


def test_vectors_stay_within_their_bounds_and_show_the_own_hand() -> None:
    for g in positions(600, seed=8):
        n = g.num_players
        encoder = observation.Encoder(n, 100)
        highs = encoder.highs
        at = {f.name: f.start for f in encoder.fields}
        for seat in range(n):
            vec = encoder.encode(g.view(seat))
            assert all(0 <= x <= h for x, h in zip(vec, highs, strict=True))
            hand = vec[at["players[0].hand"]:at["players[0].hand"] + 5]
            assert hand == [g.state.players[seat].hand[t] for t in cards.TOOLS]
            assert vec[at["players[0].money"]] == g.state.players[seat].money
            assert sum(vec[at["to_move"]:at["to_move"] + n]) == 1


def test_the_vector_never_shows_what_the_seat_cannot_see() -> None:
    """Leak test: resample every hidden card; the view and so the vector stay the same."""
    rng = random.Random(5)
    changed = 0
    for g in positions(300, seed=21):
        encoder = observation.Encoder(g.num_players, 100)
        for seat in range(g.num_players):
            view = g.view(seat)
            sample = Determinizer(view).sample(rng)
            changed += sample.to_dict()["players"] != g.state.to_dict()["players"]
            assert encoder.encode(views.view(sample, seat)) == encoder.encode(view)
    assert changed > 100, "the samples hardly differ from the real game: a weak test"


def test_the_open_board_is_refused() -> None:
    with pytest.raises(ValueError, match="open board"):
        observation.encode(lf.Game.new(players=2, seed=1).view(None), 100)


# --- explicit chance ------------------------------------------------------------------------


def _play_out(position: chance.Position, rng: random.Random) -> tuple[int, int]:
    """Random play to the end, checking every chance node and every resolved action."""
    draws = decisions = 0
    while position.current() is not None:
        if position.current() == "chance":
            pending = position.pending
            assert pending is not None
            outcomes = position.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            ids, probs = zip(*outcomes, strict=True)
            position.apply_outcome(rng.choices(ids, probs)[0])
            draws += 1
            if position.pending is None and pending.key is not None:
                _check_drawn(position, pending)
            continue
        keys = rules.legal_keys(position.state)
        position.apply_key(keys[rng.randrange(len(keys))])
        decisions += 1
        if position.pending is None:
            load.check(position.state)
    load.check(position.state)
    return draws, decisions


def _check_drawn(position: chance.Position, done: chance.Draws) -> None:
    """The kernel drew exactly the cards chance chose, in order (R6.1, R9.1, R9.2)."""
    drawn: dict[str, list[str]] = {"tools": [], "loot": [], "fences": []}
    for e in position.events:
        if e["type"] == "exchange":
            drawn["tools"] += e["drew"]
        elif e["type"] == "refill":
            pile = dict(chance.FEEDS)[e["place"]]
            drawn[pile] += [c if isinstance(c, str) else c["id"] for c in e["cards"]]
    for pile, cards_ in drawn.items():
        assert cards_ == done.chosen_from(pile)
    assert not any(position.state.on_top.values())


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_with_explicit_chance_stay_legal_positions(players: int) -> None:
    rng = random.Random(players)
    for _ in range(3):
        draws, decisions = _play_out(chance.Position.new(players), rng)
        assert draws > 20 and decisions > 30


def test_the_deal_is_every_card_once_with_the_chosen_cards_in_hands_and_displays() -> None:
    position = chance.Position.new(3)
    assert position.current() == "chance"
    first = position.chance_outcomes()
    assert [p for _, p in first] == [pytest.approx(0.2)] * 5  # 12 of each tool (R0.1)
    picks = []
    while position.current() == "chance":
        outcome = position.chance_outcomes()[-1][0]  # always the last possible card
        picks.append(chance.outcomes()[outcome])
        position.apply_outcome(outcome)
    load.check(position.state)
    dealt_tools = Counter(t for pile, t in picks if pile == "tools")
    held = Counter()
    for p in position.state.players:
        held.update(p.hand)
    held.update(position.state.city)
    assert held == dealt_tools
    assert position.state.harbor == [c for pile, c in picks if pile == "fences"]
    assert position.state.villa + position.state.museum == [c for pile, c in picks
                                                            if pile == "loot"]


def test_a_reshuffle_mid_action_draws_the_chosen_cards() -> None:
    """R9.2: the tool pile runs out during an exchange; the discard is shuffled in."""
    g = lf.Game.new(players=2, seed=11)
    ruin = {"type": "place", "place": "ruin"}
    while g.phase == "place":
        g.play(ruin if g.is_legal(ruin) else g.legal_actions()[0])
    while rules.acting_square(g.state)[0] != "ruin":
        g.play({"type": "pass"})
    position = chance.Position.new(2)
    position.state = chance.adopt(g.state.copy())
    position.pending = None
    draw = position.state.piles["tools"].draw
    position.state.piles["tools"].discard.extend(draw[1:])  # one card left to draw
    del draw[1:]
    exchange = max((k for k in rules.legal_keys(position.state) if k[0] == "exchange"),
                   key=lambda k: cards.RATE_COUNTS[k[1]][1])
    count = cards.RATE_COUNTS[exchange[1]][1]
    assert count > 1
    position.apply_key(exchange)
    assert position.pending is not None and position.pending.plan == ["tools"] * count
    assert position.chance_outcomes() == [(chance.OUTCOME_ID[("tools", draw[0])], 1.0)]
    pending = position.pending
    rng = random.Random(1)
    while position.current() == "chance":
        ids, probs = zip(*position.chance_outcomes(), strict=True)
        position.apply_outcome(rng.choices(ids, probs)[0])
    assert [pile for pile, _ in position.state.reshuffled] == ["tools"]
    _check_drawn(position, pending)
    load.check(position.state)
