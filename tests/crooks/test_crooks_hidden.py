"""Hidden information (C7, C8): resampling never changes what a seat sees, and what a seat
sees never depends on what it cannot see."""

from __future__ import annotations

import json
import random

import pytest
from crooks_helpers import random_game, walk

from langfinger_widget.games.crooks import CROOKS, Game, GreedyBot


@pytest.mark.parametrize("players", [2, 3, 4])
def test_resampled_twins_show_the_seat_exactly_what_it_saw(players: int) -> None:
    """For each seat, view, log and legal actions are identical between a game and many
    resample(seat, rng) twins, all along random games; and the twins do differ."""
    rng = random.Random(players)
    differed = 0
    for seed in range(4):
        for g in walk(players, seed):
            if rng.random() > 0.3:
                continue
            for seat in range(players):
                want = (g.view(seat), g.log(seat), g.legal_actions(seat))
                for _ in range(3):
                    twin = g.resample(seat, random.Random(rng.random()))
                    assert (twin.view(seat), twin.log(seat), twin.legal_actions(seat)) == want
                    assert twin.move_number == g.move_number and twin.version == g.version
                    differed += twin.to_dict() != g.to_dict()
                    if not twin.is_over:  # a twin plays on under the rules
                        twin.play(random.Random(seed).choice(twin.legal_actions()))
    assert differed > 100


def test_a_twin_keeps_what_the_seat_knows_and_redeals_the_rest() -> None:
    g = Game.new(players=3, seed=3)
    g.play({"type": "recruit", "hangout": "E"})
    pile = [c["id"] for c in g.view(g.to_move)["turn"]["pile"]]
    seat = g.to_move
    g.play({"type": "keep", "crook": pile[0]})
    g.play({"type": "place", "target": 9, "face": "down", "effect": False})
    redealt, guessed = set(), set()
    other = (seat + 1) % 3
    for k in range(40):
        twin = g.resample(seat, random.Random(k))
        assert twin.state.rows[seat][9][0].crook == pile[0]  # its own face-down crook
        assert sorted(twin.state.hangouts["E"]) == sorted(pile[1:])  # the pile it saw
        redealt.add(tuple(twin.state.hangouts["A"]))
        twin_other = g.resample(other, random.Random(k))
        assert twin_other.view(other) == g.view(other)
        guessed.add(twin_other.state.rows[seat][9][0].crook)
    assert len(redealt) > 10  # the piles it never saw really are re-dealt
    assert len(guessed) > 5  # and, for another seat, the crook it placed face down


def test_a_seats_view_and_log_do_not_depend_on_what_it_cannot_see() -> None:
    """Two deals that differ only in crooks seat 0 never sees give it the same view."""
    for seed in range(30):
        g = Game.new(players=4, seed=seed)
        twin = g.resample(0, random.Random(seed))
        assert g.view(0) == twin.view(0) and g.log(0) == twin.log(0)
        assert g.public_view() == twin.public_view()


def test_no_view_or_log_names_a_crook_the_seat_may_not_know() -> None:
    for players in (2, 3, 4):
        for g in walk(players, 5):
            state = g.state
            for seat in range(players):
                text = json.dumps({k: v for k, v in g.view(seat).items() if k != "deck"})
                named = {c for c in CROOKS if f'"{c}"' in text}
                may = {p.crook for row in state.rows for st in row.values() for p in st
                       if p.up} | {p.crook for st in state.rows[seat].values() for p in st}
                may |= state.known[seat]
                may |= {c for h in state.piles_known[seat] for c in state.hangouts[h]}
                if state.turn is not None and seat == state.seat:
                    may |= set(state.turn.pile)
                if state.turn is not None and seat in state.turn.hand_known:
                    may.add(state.turn.hand or "")
                assert named <= may, (seat, named - may)
                assert not any(f'"{c}"' in json.dumps(g.public_view()["hangouts"])
                               for c in CROOKS)


def test_the_greedy_bot_is_fair_it_takes_only_a_view() -> None:
    g = Game.new(players=2, seed=1)
    bot = GreedyBot(seed=0)
    with pytest.raises(TypeError):
        bot.choose(g, g.legal_actions())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        bot.choose(g.view(None), g.legal_actions())
    # the same view gives the same choice, whatever lies hidden behind it
    for k in range(10):
        twin = g.resample(0, random.Random(k))
        assert GreedyBot(seed=4).choose(twin.view(0), twin.legal_actions()) == \
            GreedyBot(seed=4).choose(g.view(0), g.legal_actions())


def test_the_greedy_bot_refuses_bad_settings_and_is_seeded() -> None:
    from langfinger_widget.errors import BadArgument

    with pytest.raises(BadArgument):
        GreedyBot(seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(BadArgument):
        GreedyBot(blunders=2)
    g = Game.new(players=3, seed=2)
    picks = {json.dumps(GreedyBot(seed=k, blunders=1.0).choose(g.view(g.to_move),
                                                               g.legal_actions()))
             for k in range(20)}
    assert len(picks) > 1  # blunders=1: a random legal move, by the seed
    same = [GreedyBot(seed=9).choose(g.view(g.to_move), g.legal_actions()) for _ in range(3)]
    assert same[0] == same[1] == same[2]


def test_a_loaded_game_resamples_from_its_position_alone() -> None:
    """A game loaded from to_dict has no history: its twins keep the seat's view, and what
    the seat knew at save time (a pile, a spied crook) stays as it was."""
    for seed in range(6):
        played = next(g for g in walk(3, seed) if g.move_number >= 12 or g.is_over)
        g = Game.from_dict(played.to_dict())
        for seat in range(3):
            for k in range(4):
                twin = g.resample(seat, random.Random(k))
                assert twin.view(seat) == g.view(seat) and twin.log(seat) == []
                assert twin.legal_actions(seat) == g.legal_actions(seat)
                Game.from_dict(twin.to_dict())  # a twin is a position that can exist


def test_a_twin_is_drawn_from_the_seats_view_alone_and_hides_the_seed() -> None:
    """Resampling the game or any twin of it with the same generator gives the same twin
    (the draw cannot depend on where the hidden crooks really are), whose seed is not the
    game's (the seed would give the deal away)."""
    for players in (2, 4):
        g = random_game(players, 8, stop=10)
        for seat in range(players):
            twin = g.resample(seat, random.Random(1))
            assert twin.seed != g.seed
            for k in range(3):
                again = g.resample(seat, random.Random(k)).to_dict()
                assert twin.resample(seat, random.Random(k)).to_dict() == again


def test_a_seats_figures_count_only_what_it_saw() -> None:
    from langfinger_widget.games.crooks import SPEC

    assert SPEC.figures is not None
    for players in (2, 3):
        g = random_game(players, 6, stop=14)
        for seat in range(players):
            mine = SPEC.figures(g, seat)
            for k in range(3):
                assert SPEC.figures(g.resample(seat, random.Random(k)), seat) == mine
        everything = SPEC.figures(g, None)
        assert sum(r["recruits"] for r in everything) == sum(
            e["type"] == "recruit" for e in g.log(None))
