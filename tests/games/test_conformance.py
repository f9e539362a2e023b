"""The conformance checks (langfinger_widget.testing) on every registered game, through the
game protocol alone; Sealed Bids (sealed.py, a test game with a sealed simultaneous step)
proves them generic, and broken copies of it prove that they can fail."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from sealed import SPEC as SEALED
from sealed import Sealed

import langfinger_widget as lf
from langfinger_widget import games, testing
from langfinger_widget.games import GameState

games.register(SEALED)


def _counts(name: str) -> list[int]:
    """The fewest and the most players the game takes (the checks' cost grows with them)."""
    players = games.get(name).players
    return sorted({players.start, players.stop - 1})


def _cases() -> list[tuple[str, int, dict[str, Any]]]:
    """Each game at its fewest and most players, and at its fewest with each choice of its
    own options but the default (Langfinger's open_info variant)."""
    cases: list[tuple[str, int, dict[str, Any]]] = []
    for name in games.names():
        cases += [(name, n, {}) for n in _counts(name)]
        spec = games.get(name)
        cases += [(name, spec.players.start, {key: choice})
                  for key, (choices, _) in spec.options.items() for choice in choices[1:]]
    return cases


@pytest.mark.parametrize(("name", "players", "options"), _cases())
def test_every_registered_game_passes_the_conformance_checks(name: str, players: int,
                                                              options: dict[str, Any]) -> None:
    game = testing.check_game(name, players=players, seed=players, **options)
    assert game.is_over and isinstance(game, GameState)


@pytest.mark.parametrize("name", games.names())
def test_every_registered_game_is_a_game_state(name: str) -> None:
    spec = games.get(name)
    game = spec.Game.new(players=spec.players.start, seed=1)
    assert isinstance(game, GameState)
    assert isinstance(game.copy(), GameState)
    assert isinstance(game.resample(0, random.Random(0)), GameState)


def test_the_test_game_has_a_sealed_step_and_hides_the_bids() -> None:
    game = Sealed.new(players=3, seed=2)
    assert game.to_decide == [0, 1, 2]
    card = game.legal_actions(2)[0]["card"]
    game.play({"type": "bid", "card": card}, seat=2)
    assert game.to_decide == [0, 1] and game.view(0)["bid"] == [False, False, True]
    assert game.log(0)[-1] == {"type": "bid", "seat": 2, "card": None}
    with pytest.raises(lf.IllegalAction, match=r"^S2: seat 2 has bid"):
        game.play(game.legal_actions(0)[0], seat=2)
    assert game.legal_actions(2) == []


class Leaky(Sealed):
    """Sealed Bids whose views show the sealed bids (S5 broken)."""

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return {**super().view(seat), "sealed": list(self._s["bids"])}


def test_the_resampling_check_catches_a_view_that_shows_a_sealed_bid() -> None:
    game = Leaky.new(players=3, seed=1)
    game.play(game.legal_actions(1)[0], seat=1)
    with pytest.raises(AssertionError, match="hidden difference"):
        for seed in range(5):
            testing.check_resample(game, 0, random.Random(seed))


def test_the_resampling_check_catches_a_twin_drawn_from_the_whole_position() -> None:
    class Seeded(Sealed):
        """Seeds its resampling by the whole position: twins then depend on hidden cards."""

        def resample(self, seat: int, rng: random.Random) -> Sealed:
            return super().resample(seat, random.Random(f"{self.to_dict()}{rng.random()}"))

    with pytest.raises(AssertionError, match="draws on something seat 0 cannot see"):
        testing.check_resample(Seeded.new(players=3, seed=1), 0, random.Random(0))


def test_the_refusal_check_catches_a_refused_action_that_changed_the_game() -> None:
    class Sloppy(Sealed):
        def play(self, action: Any, seat: int | None = None) -> list[dict[str, Any]]:
            self._version += 1  # counts the try even when refusing it
            return super().play(action, seat)

    with pytest.raises(AssertionError, match="changed the game"):
        testing.check_refusals(Sloppy.new(players=2, seed=1), [])


def test_the_round_trip_check_catches_a_position_that_loses_something() -> None:
    class Forgetful(Sealed):
        def to_dict(self) -> dict[str, Any]:
            d = super().to_dict()
            d["deck"] = sorted(d["deck"])  # the deck's order is lost
            return d

    game = Forgetful.new(players=2, seed=3)
    with pytest.raises(AssertionError, match=r"continues alike|the same events"):
        testing.check_round_trip(game, random.Random(0), steps=12)


def test_the_invariant_hook_runs_after_moves() -> None:
    game = Sealed.new(players=2, seed=1)
    game._s["deck"].append(5)  # a card in two places
    with pytest.raises(AssertionError, match=r"^S1"):
        testing.check_state(game)


def test_langfinger_standings_add_up_to_the_money_and_follow_the_end_screen() -> None:
    game = testing.random_playthrough(players=3, seed=4)
    rows = game.standings()
    assert [r["score"] for r in rows] == game.money
    json.dumps(rows)
    assert all(set(r["sources"]) == {"chests", "sales"} for r in rows)
    loaded = lf.Game.from_dict(game.to_dict())  # no history: all its money came before
    assert loaded.standings() == [{"seat": i, "score": m, "sources": {"chests": 0, "sales": 0,
                                                                     "before": m}}
                                  for i, m in enumerate(game.money)]
    assert lf.Game.new(players=2, seed=1).standings() == []


def test_langfinger_refuses_a_seat_that_is_not_to_move_naming_the_ruling() -> None:
    game = lf.Game.new(players=3, seed=42)  # seat 2 places first (R1.0)
    assert game.to_decide == [2]
    with pytest.raises(lf.IllegalAction, match=r"^R2\.1: seat 2 places"):
        game.play({"type": "place", "place": "museum"}, seat=0)
    assert game.move_number == 0 and game.legal_actions(0) == []
    assert game.why_illegal({"type": "place", "place": "museum"}, seat=2) is None
    game.play({"type": "place", "place": "museum"}, seat=2)
    with pytest.raises(lf.BadArgument):
        game.legal_actions(3)
