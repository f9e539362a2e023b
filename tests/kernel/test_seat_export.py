"""What a seat may export (issue 12, R11): ``g.to_dict(seat=k)`` and ``g.notation(seat=k)``.

An export holds only what seat ``k`` knows. It is tested as the views are:
two games that differ only in what the seat cannot see (other hands, the fronts
of same-backed loot, the draw piles' order, the seed) give the identical
export. Loading an export resamples the rest with the bots' determinizer,
seeded from the export alone, into a position whose view for ``k`` is the
original's.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from rules_kit import busy_game, swapped_twin

import langfinger_widget as lf
from langfinger_widget.kernel import load

ID = re.compile(r"[LF]\d\d")


POSITIONS = [busy_game(2 + k % 4, 70 + k, 9 * k, ("standard", "open_info")[k % 2])
             for k in range(12)]


def hidden_ids(g: lf.Game, seat: int) -> set[str]:
    """Card ids whose place ``seat`` may not know: face down, or in a draw pile."""
    s = g.state
    hidden = {*s.villa, *s.museum, *s.piles["loot"].draw, *s.piles["fences"].draw}
    for k, p in enumerate(s.players):
        if k != seat:
            hidden |= set(p.loot)
    return hidden


@pytest.mark.parametrize("g", POSITIONS, ids=repr)
def test_an_export_holds_only_what_the_seat_knows(g: lf.Game) -> None:
    for seat in range(g.num_players):
        e = g.to_dict(seat=seat)
        text = json.dumps(e)
        assert e["seat"] == seat and "seed" not in e and "shuffles" not in e
        assert not set(ID.findall(text)) & hidden_ids(g, seat), "R11.1: a hidden card's id"
        assert not set(ID.findall(g.notation(seat=seat))) & hidden_ids(g, seat)
        assert f"s{g.seed}" not in g.notation(seat=seat) and "@" in g.notation(seat=seat)
        for k, p in enumerate(e["players"]):
            if k != seat:
                assert "hand" not in p and p["hand_size"] == sum(g.state.players[k].hand.values())
                assert all(isinstance(c, dict) and "id" not in c for c in p["loot"])
            if g.state.variant == "standard":
                assert p["known"] == {}  # R11.1: no hand shows more than its size
        assert all(isinstance(e["piles"][pile]["draw"], int) for pile in e["piles"])
        assert all("id" not in c for c in [*e["villa"], *e["museum"]])


@pytest.mark.parametrize("g", POSITIONS, ids=repr)
def test_games_that_differ_only_in_what_the_seat_cannot_see_export_alike(g: lf.Game) -> None:
    rng = random.Random(g.seed)
    for seat in range(g.num_players):
        twin_data = swapped_twin(g, seat, rng)
        twin = lf.Game.from_dict(twin_data)
        assert twin.to_dict() != g.to_dict()  # the twin differs (at least in its seed)
        assert twin.to_dict(seat=seat) == g.to_dict(seat=seat)
        assert twin.notation(seat=seat) == g.notation(seat=seat)
        # ... so it loads as the same game: nothing of the original seed or hands survives
        assert lf.Game.from_dict(twin.to_dict(seat=seat)).to_dict() == lf.Game.from_dict(
            g.to_dict(seat=seat)).to_dict()


@pytest.mark.parametrize("g", POSITIONS, ids=repr)
def test_an_export_loads_as_a_position_the_seat_cannot_tell_apart(g: lf.Game) -> None:
    for seat in range(g.num_players):
        e = g.to_dict(seat=seat)
        h = lf.Game.from_dict(json.loads(json.dumps(e)))
        assert h.view(seat) == g.view(seat)
        if g.to_move == seat:
            assert h.legal_actions() == g.legal_actions()
        assert h.to_dict(seat=seat) == e and h.notation(seat=seat) == g.notation(seat=seat)
        assert lf.Game.from_notation(g.notation(seat=seat)).to_dict() == h.to_dict()
        assert lf.Game.from_dict(e).to_dict() == h.to_dict()  # the same export, the same game
        assert lf.Game.from_dict(h.to_dict()).to_dict() == h.to_dict()  # a full position


def test_a_loaded_export_plays_on_to_the_end() -> None:
    rng = random.Random(3)
    for g in POSITIONS[::3]:
        h = lf.Game.from_dict(g.to_dict(seat=rng.randrange(g.num_players)))
        while not h.is_over:
            h.play(rng.choice(h.legal_actions()))
            load.check(h.state)


def test_the_unknown_cards_are_resampled_not_restored() -> None:
    """Loading draws the hidden cards afresh: the original hands and piles do not come back."""
    differ = 0
    for g in POSITIONS:
        for seat in range(g.num_players):
            h = lf.Game.from_dict(g.to_dict(seat=seat))
            assert h.seed != g.seed
            original, loaded = g.to_dict(), h.to_dict()
            others = [k for k in range(g.num_players) if k != seat]
            differ += any(original["players"][k]["hand"] != loaded["players"][k]["hand"]
                          for k in others) or original["piles"] != loaded["piles"]
            assert loaded["players"][seat]["hand"] == original["players"][seat]["hand"]
    assert differ >= 30


def test_without_a_seat_to_dict_and_notation_stay_the_full_position() -> None:
    g = POSITIONS[5]
    assert g.to_dict(seat=None) == g.to_dict() == g.state.to_dict()
    assert g.notation(seat=None) == g.notation()
    assert g.notation().startswith(f"o{g.seed}.") or g.notation().startswith(f"s{g.seed}.")
    assert "seat" not in g.to_dict()
    for bad in (-1, g.num_players, "0", True):
        with pytest.raises(ValueError, match="seat"):
            g.to_dict(seat=bad)  # type: ignore[arg-type]


# --- refusals ----------------------------------------------------------------------------------


def export(seat: int = 0) -> dict[str, object]:
    return POSITIONS[6].to_dict(seat=seat)


def test_an_export_that_claims_more_than_the_seat_can_know_is_refused() -> None:
    e = export()
    other = e["players"][1]  # type: ignore[index]
    other["hand"] = {"map": 1}
    with pytest.raises(lf.InvalidState, match=r"^R11\.1: in seat 0's export, players\[1\] gives "
                                              r"only its hand_size"):
        lf.Game.from_dict(e)
    e = export()
    e["players"][1]["loot"] = ["L08"]  # type: ignore[index]
    with pytest.raises(lf.InvalidState, match=r"^R5\.3: seat 0 cannot know the front"):
        lf.Game.from_dict(e)
    e = export()
    e["villa"] = ["L08"]
    with pytest.raises(lf.InvalidState, match=r"^R5\.1: villa lies face down"):
        lf.Game.from_dict(e)
    e = export()
    e["piles"]["tools"]["draw"] = ["map"]  # type: ignore[index]
    with pytest.raises(lf.InvalidState, match=r"piles\.tools\.draw"):
        lf.Game.from_dict(e)


def test_an_export_no_position_fits_is_refused() -> None:
    e = export()
    e["players"][1]["hand_size"] += 3  # type: ignore[index]
    with pytest.raises(lf.InvalidState, match=r"^R11\.1: no position fits seat 0's export"):
        lf.Game.from_dict(e)
    e = export()
    e["players"][0]["money"] = 30  # type: ignore[index]
    with pytest.raises(lf.InvalidState, match=r"^R(10\.1|5\.3|3\.1): "):
        lf.Game.from_dict(e)
    e = export()
    e["seed"] = 1
    with pytest.raises(lf.InvalidState, match=r"^R11\.1: a seat's export holds no seed"):
        lf.Game.from_dict(e)


def test_export_notation_is_spelled_apart_from_a_full_position() -> None:
    g = POSITIONS[7]
    text = g.notation(seat=1)
    assert re.match(r"^[so]@1 ", text) and "#" in text
    with pytest.raises(lf.NotationError, match="'#' and the size"):
        head, piles = text.rsplit(" ", 1)
        lf.Game.from_notation(f"{head} {re.sub(r'#[0-9]+:', '?:', piles, count=1)}")
    full = g.notation()
    with pytest.raises(lf.NotationError):
        lf.Game.from_notation(full.replace(":", ":#2", 1))  # '#' only in a seat's export
    lowered = re.sub(r"([LHPWM]+)#", lambda m: m.group(1).lower() + "#", g.notation(seat=0))
    if lowered != g.notation(seat=0):
        with pytest.raises(lf.NotationError, match="only upper-case tools"):
            lf.Game.from_notation(lowered)
