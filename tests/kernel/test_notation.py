"""The position notation: exact round trips and errors that point at the mistake."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import langfinger_widget as lf
from langfinger_widget.kernel import notation
from langfinger_widget.kernel.notation import NotationError

CHECKS_PER_GAME = 8
EXAMPLES = 400  # x CHECKS_PER_GAME positions: 3200 random reachable positions per run


def _random_game(seed: int, players: int, variant: str, rng: random.Random) -> lf.Game:
    return lf.Game.new(players=players, seed=seed, variant=variant,
                       start_player=rng.randrange(players))


def _assert_round_trip(g: lf.Game) -> None:
    s = g.notation()
    assert len(s.splitlines()) == 1
    back = lf.Game.from_notation(s)
    assert back.to_dict() == g.to_dict()
    assert back.notation() == s


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), players=st.integers(2, 5),
       variant=st.sampled_from(["standard", "open_info"]), walk=st.integers(0, 2**32))
def test_round_trip_at_random_points_of_random_games(seed: int, players: int, variant: str,
                                                    walk: int) -> None:
    rng = random.Random(walk)
    g = _random_game(seed, players, variant, rng)
    length = rng.randrange(1, 400)  # long walks reach reshuffles and game ends
    stops = set(rng.sample(range(length), min(CHECKS_PER_GAME, length)))
    checked = 0
    for step in range(length):
        if step in stops:
            _assert_round_trip(g)
            checked += 1
        if g.is_over:
            break
        g.play(rng.choice(g.legal_actions()))
    _assert_round_trip(g)
    assert checked >= 1 or length == 1


def test_a_decoded_position_continues_exactly_as_the_original() -> None:
    rng = random.Random(5)
    g = lf.Game.new(players=4, seed=99)
    for _ in range(150):
        g.play(rng.choice(g.legal_actions()))
    twin = lf.Game.from_notation(g.notation())
    for _ in range(300):
        if g.is_over:
            break
        action = rng.choice(g.legal_actions())
        assert g.play(action) == twin.play(action)
    assert twin.to_dict() == g.to_dict()


@settings(max_examples=60, deadline=None)
@given(names=st.lists(st.text(max_size=12), min_size=2, max_size=5))
def test_any_names_round_trip_on_one_line(names: list[str]) -> None:
    g = lf.Game.new(players=len(names), seed=3, names=names)
    _assert_round_trip(g)


def test_hidden_piles_may_be_left_out_and_are_dealt_from_the_seed() -> None:
    rng = random.Random(2)
    g = lf.Game.new(players=3, seed=8)
    for _ in range(40):
        g.play(rng.choice(g.legal_actions()))
    short = notation.encode(g.state, piles=False)
    assert "?:" in short
    back = lf.Game.from_notation(short)
    full, dealt = g.to_dict(), back.to_dict()
    for key in ("players", "city", "villa", "museum", "harbor", "squares", "round", "phase"):
        assert dealt[key] == full[key]
    for pile in ("tools", "loot", "fences"):
        assert dealt["piles"][pile]["discard"] == full["piles"][pile]["discard"]
        assert sorted(dealt["piles"][pile]["draw"]) == sorted(full["piles"][pile]["draw"])
    # Dealing is itself seeded: the same short string always gives the same piles.
    assert lf.Game.from_notation(short).to_dict() == dealt


def test_a_minimal_string_names_only_the_players() -> None:
    g = lf.Game.from_notation("s7* 1p0 h0:-:-:3,y5:hhM:-:3")  # '*': composed, not dealt
    assert g.money == [0, 5] and g.state.composed and g.notation().startswith("s7.3* ")
    with pytest.raises(lf.InvalidState, match=r"^R1\.4: every player starts at 0 money"):
        lf.Game.from_notation("s7 1p0 h0:-:-:3,y5:hhM:-:3")  # as if saved from a game
    assert g.state.players[1].hand["hammer"] == 2 and g.state.players[1].known["map"] == 1
    assert g.to_move == 0 and g.legal_actions()


BAD = [
    ("x7 1p0 h0:-:-:3,y0:-:-:3", 0, "a variant letter"),
    ("s 1p0 h0:-:-:3,y0:-:-:3", 1, "a number (the seed)"),
    ("s7 1x0 h0:-:-:3,y0:-:-:3", 4, "a phase letter"),
    ("s7 1p0 q0:-:-:3,y0:-:-:3", 7, "a scoundrel letter"),
    ("s7 1p0 h0:hq:-:3,y0:-:-:3", 11, "':' after the hand"),
    ("s7 1p0 h0:-:L7:3,y0:-:-:3", 13, "two digits after 'L'"),
    ("s7 1p0 h0:-:-:x,y0:-:-:3", 14, "a digit: the tokens"),
    ("s7 1p0 h0:-:-:33,y0:-:-:3", 15, "',' and another player"),
    ('s7 1p0 h"Ann0:-:-:3', 19, "a closing '\"'"),
    ("s7 1p0 h0:-:-:3,y0:-:-:3 -/-/-", 30, "'/' between the displays"),
    ("s7 1p0 h0:-:-:3,y0:-:-:3 -/-/-/- ----x/-----/-----/-----/-----", 37,
     "a seat digit or '-' (square 5 of the city)"),
    ("s7 1p0 h0:-:-:3,y0:-:-:3  -/-/-/-", 25, "tool letters l h p w m or '-'"),
    ("s7 1p0 h0:-:-:3,y0:-:-:3 -/-/-/- -----/-----/-----/-----/----- ----- -/- 0,0 x", 77,
     "'?'"),
    ("s7 1p0 h0:-:-:3,y0:-:-:3 -/-/-/- -----/-----/-----/-----/----- ----- -/- 0 ", 74,
     "',' between the seats' money"),
]


@pytest.mark.parametrize(("text", "index", "expected"), BAD)
def test_a_bad_string_points_at_the_offending_character(text: str, index: int,
                                                        expected: str) -> None:
    with pytest.raises(NotationError) as caught:
        lf.Game.from_notation(text)
    err = caught.value
    assert err.index == index, str(err)
    assert expected in err.expected
    message = str(err)
    assert f"at index {index}" in message
    caret_line = message.splitlines()[-1]
    assert caret_line.index("^") - 2 == index  # two spaces of indent before text and caret
    assert isinstance(err, lf.InvalidState)


def test_a_well_spelled_impossible_position_is_refused_by_the_kernel() -> None:
    # Both players hold L08: spelled right, but a card cannot lie in two places (R0).
    with pytest.raises(lf.InvalidState, match="R0") as caught:
        lf.Game.from_notation("s7 1p0 h0:-:L08:3,y0:-:L08:3")
    assert not isinstance(caught.value, NotationError)
    with pytest.raises(lf.InvalidState, match="from 0 to 3") as caught:  # a digit, but 9
        lf.Game.from_notation("s7 1p0 h0:-:-:9,y0:-:-:3")
    assert not isinstance(caught.value, NotationError)
    with pytest.raises(lf.InvalidState, match=r"R1\.4"):  # four tokens for Hans
        lf.Game.from_notation("s7 1p0 h0:-:-:3,y0:-:-:3 -/-/-/- 0----/-----/-----/-----/----- "
                              "----- -/- 0,0")


def test_not_a_string() -> None:
    with pytest.raises(NotationError):
        notation.decode(42)  # type: ignore[arg-type]
