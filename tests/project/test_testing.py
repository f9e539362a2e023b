"""langfinger_widget.testing: the conformance checks, run on the kernel's own outputs.

Every front end hands its seats one of these (a view, a log, a seat's export, a record);
each must pass the resampling no-leak check, and the check must catch a real leak.
"""

from __future__ import annotations

from typing import Any

import pytest

from langfinger_widget import testing
from langfinger_widget.kernel.game import Game


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("variant", ["standard", "open_info"])
def test_random_playthroughs_keep_every_invariant(players: int, variant: str) -> None:
    assert testing.random_playthrough(players, seed=players, variant=variant, every=5).is_over


SEAT_OUTPUTS: dict[str, Any] = {
    "view": lambda game, seat: game.view(seat),
    "log": lambda game, seat: game.log(seat),
    "export": lambda game, seat: game.to_dict(seat),
    "notation": lambda game, seat: game.notation(seat),
}


@pytest.mark.parametrize("output", sorted(SEAT_OUTPUTS))
@pytest.mark.parametrize(("players", "variant"), [(2, "open_info"), (4, "standard")])
def test_what_a_seat_receives_does_not_leak(output: str, players: int, variant: str) -> None:
    testing.check_no_leak(SEAT_OUTPUTS[output], players=players, seed=players, variant=variant)


def test_the_no_leak_check_catches_a_leak() -> None:
    with pytest.raises(AssertionError, match="hidden difference"):
        testing.check_no_leak(lambda game, seat: game.to_dict(), players=3, seed=1)


def test_a_broken_position_fails_the_invariants() -> None:
    game = Game.new(players=3, seed=2)
    game.state.city.append("hammer")  # a 61st tool (R0.1)
    with pytest.raises(AssertionError, match=r"R0\.1"):
        testing.check_conserved(game)
