"""The position builder: readable scripts that load through the kernel's checks."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import langfinger_widget as lf
from langfinger_widget.kernel.builder import Position


def test_a_scripted_position_has_what_the_script_says() -> None:
    g = (Position(["hans", "yoshiko", "bobby"], names=["Ann", "Bo", "Cy"], seed=4)
         .hand(0, hammer=2, map=1).known(0, hammer=1).loot(1, "L08").money(1, 12)
         .villa("L03", "L12").museum("L16").city("map", "welder").harbor("F03")
         .tokens("ruin", 0, 1, first=1).exchange_square("1>2", 2).token("museum", 2)
         .scoundrel_used("villa", 1).round(3).start_player(1).phase("act")
         .money_history((0, 0, 0), (0, 5, 0), (2, 12, 0)).money(0, 2)
         .build())
    d = g.to_dict()
    assert [p["name"] for p in d["players"]] == ["Ann", "Bo", "Cy"]
    assert d["players"][0]["hand"] == {"hammer": 2, "map": 1}
    assert d["players"][0]["known"] == {"hammer": 1}
    assert d["players"][1]["loot"] == ["L08"] and g.money == [2, 12, 0]
    assert d["villa"] == ["L03", "L12"] and d["city"] == ["map", "welder"]
    # Seat 2's token on 1>2 acted on the Ruin's first square, now empty (R6.2).
    assert d["squares"]["ruin"][:3] == [None, 0, 1] and d["squares"]["museum"][0] == 2
    assert d["ruin_rates"]["1>2"] == 2
    assert [p["tokens"] for p in d["players"]] == [2, 2, 1]  # the rest stay in front
    assert d["scoundrel_used"]["villa"] == [1]
    assert (g.round, g.start_player, g.phase, g.to_move) == (3, 1, "act", 0)
    assert lf.Game.from_notation(g.notation()).to_dict() == d


def test_cards_nobody_holds_are_dealt_and_on_top_fixes_the_top() -> None:
    pos = Position(["pascal", "tommaso"], seed=5).hand(0, map=3).on_top("tools", "welder",
                                                                         "map")
    d = pos.to_dict()
    draw = d["piles"]["tools"]["draw"]
    assert draw[:2] == ["welder", "map"]
    assert len(draw) == 60 - 3 and draw.count("map") == 12 - 3
    assert len(d["piles"]["loot"]["draw"]) == 30 and len(d["piles"]["fences"]["draw"]) == 14
    assert pos.to_dict() == d  # the same script always deals the same piles


def test_the_seed_decides_the_dealt_piles() -> None:
    a = Position(["pascal", "tommaso"], seed=1).to_dict()["piles"]
    b = Position(["pascal", "tommaso"], seed=2).to_dict()["piles"]
    assert a != b


def test_impossible_positions_are_refused_by_the_kernel() -> None:
    with pytest.raises(lf.InvalidState, match="R0"):  # one loot card in two places
        Position(["hans", "bobby"]).loot(0, "L08").villa("L08").build()
    with pytest.raises(lf.InvalidState, match=r"R5\.3"):  # a chest is never kept
        Position(["hans", "bobby"]).loot(0, "L01").build()
    with pytest.raises(lf.InvalidState, match=r"R1\.1"):  # the 2-player Villa holds one card
        Position(["hans", "bobby"]).villa("L06", "L07").build()
    with pytest.raises(lf.InvalidState, match="R0"):  # only 12 maps exist
        Position(["hans", "bobby"]).hand(0, map=13).build()
    with pytest.raises(lf.InvalidState, match="R0"):
        Position(["hans", "bobby"]).hand(0, map=12).on_top("tools", "map").build()
    with pytest.raises(lf.InvalidState, match=r"R2\.2"):  # a gap below a token while placing
        Position(["hans", "bobby"]).token("city", 0, square=2).build()


def test_builder_argument_errors() -> None:
    with pytest.raises(ValueError, match="seat"):
        Position(["hans", "bobby"]).hand(2, map=1)
    with pytest.raises(ValueError, match="unknown place"):
        Position(["hans", "bobby"]).tokens("castle", 0)
    with pytest.raises(ValueError, match=r"R2\.2"):
        Position(["hans", "bobby"]).tokens("city", 0, 1, 0, 1, 0, 1)
    with pytest.raises(ValueError, match="exchange square"):
        Position(["hans", "bobby"]).exchange_square("4>5", 0)
    with pytest.raises(ValueError, match="unknown pile"):
        Position(["hans", "bobby"]).on_top("gold", "L01")


# --- arguments of any shape (issue 29) --------------------------------------------------------

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 30), st.floats(allow_nan=True), st.text(max_size=6),
    st.sampled_from(["hans", "bobby", "city", "villa", "ruin", "map", "L03", "F02", "1>2",
                     "tools", "loot", "act", "place"]),
    st.lists(st.sampled_from(["hans", "map", 1, None]), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(0, 3), max_size=2),
    st.just(object()),
)
CALLS = ["hand", "known", "loot", "money", "city", "villa", "museum", "harbor", "tokens", "token",
         "exchange_square", "scoundrel_used", "phase", "round", "start_player", "money_history",
         "discard", "on_top"]


def _script(data: st.DataObject) -> None:
    """Random calls with arguments of any kind: each is taken, or refused with the package's
    own error (BadArgument now, InvalidState when the position is built); never a bare
    TypeError ('unhashable list') or ValueError."""
    try:
        builder = Position(data.draw(st.one_of(st.just(["hans", "bobby"]), JUNK)),
                           seed=data.draw(st.one_of(st.just(3), JUNK)))
    except lf.BadArgument:
        return
    for _ in range(data.draw(st.integers(1, 5))):
        name = data.draw(st.sampled_from(CALLS))
        args = data.draw(st.lists(JUNK, max_size=3))
        keywords = data.draw(st.dictionaries(st.sampled_from(["map", "hammer", "first",
                                                               "square"]), JUNK, max_size=2))
        try:
            getattr(builder, name)(*args, **keywords)
        except lf.BadArgument:
            pass
        except TypeError as e:  # a call Python itself refuses (a missing argument) is fine
            assert "argument" in str(e), e
    with contextlib.suppress(lf.InvalidState):
        builder.build()


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_builder_arguments_of_any_kind_get_the_packages_own_errors(data: st.DataObject) -> None:
    _script(data)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(data=st.data())
def test_builder_arguments_long(data: st.DataObject) -> None:
    _script(data)
