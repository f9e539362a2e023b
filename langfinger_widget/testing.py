"""Conformance checks for every game, and for anything that drives a game or shows it to a seat.

Shipped in the package, as PettingZoo ships ``api_test`` and OpenSpiel opens each
game's tests with ``random_sim_test``: the project's own tests use these, and so
should every front end (a widget, a server, an environment) that hands a seat
what it may see. They know a game only through the protocol
(``langfinger_widget.games.GameState``), so they run on every registered game:

* :func:`check_game` plays random games of one registered game and checks, after every
  move, the protocol's invariants (:func:`check_state`: every legal action legal, views,
  logs and standings JSON-ready, winners among the seats, the game's own
  ``check_invariants()`` hook), that ``to_dict`` / ``from_dict`` continues identically
  (:func:`check_round_trip`), that refused actions change nothing (:func:`check_refusals`),
  that every seat is blind to what it cannot see (:func:`check_resample`), that the game
  ends, and that the same seed and moves give the same game (:func:`check_determinism`).
* :func:`check_resample` is the resampling test for hidden information: whatever a seat
  receives (its view, its log, its legal actions) must be byte for byte the same in a game
  and in its ``resample(seat, rng)`` twins, and stay so as both are played on alike until
  the seat is shown something hidden (its ``sight_barrier`` moves).

Langfinger's own checks keep their names: :func:`random_playthrough` (money never falls, the
game ends with someone at 20), :func:`check_conserved`, :func:`check_position` (and the
notation), :func:`hidden_twin` and :func:`check_no_leak`, which runs the resampling test on
any ``receive(game, seat)`` (a board's traits, a server's messages).

>>> from langfinger_widget import testing
>>> testing.random_playthrough(players=3, seed=1).is_over
True
>>> testing.check_no_leak(lambda game, seat: game.view(seat), players=2, seed=3)
>>> testing.check_game("langfinger", players=2, seed=1, every=50).is_over
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from . import games
from .errors import IllegalAction
from .games.protocol import Action, GameState

Receive = Callable[[Any, int], Any]
# A game that runs this long is taken not to end (Langfinger's longest take about 600).
MAX_DECISIONS = 20_000
# Inputs no game takes as an action: each must be refused, leaving the game as it was.
GARBAGE: tuple[Any, ...] = (None, 7, "pass", [], {}, {"type": 3}, {"type": "no such action"},
                            {"type": "pass", "extra": [1, 2]})


def _json(value: Any) -> str:
    """The bytes a seat would be sent: the order of keys counts, as it does on the wire."""
    return json.dumps(value, allow_nan=False)


def received(game: GameState, seat: int) -> str:
    """What ``seat`` is given of ``game``: its view, its log and its legal actions, as JSON."""
    return _json([game.view(seat), game.log(seat), game.legal_actions(seat)])


def random_move(game: GameState, rng: random.Random) -> tuple[int, Action]:
    """A random seat of ``to_decide`` and a random legal action of it (the game is not over)."""
    seat = rng.choice(game.to_decide)
    return seat, rng.choice(game.legal_actions(seat))


# --- the protocol, for any game ---------------------------------------------------------------


def check_state(game: GameState) -> None:
    """The protocol's invariants at one position (and the game's own ``check_invariants``)."""
    assert isinstance(game, GameState), f"{type(game).__name__} is no GameState"
    seats = range(game.num_players)
    deciding = game.to_decide
    assert deciding == sorted(set(deciding)) and set(deciding) <= set(seats), \
        f"to_decide {deciding} lists seats, each once, in order"
    assert (game.to_move is None) == (not deciding) == game.is_over, \
        "nobody decides exactly when the game is over"
    assert game.to_move is None or game.to_move in deciding, "to_move is one of to_decide"
    for seat in seats:
        legal = game.legal_actions(seat)
        if seat in deciding:
            assert legal, f"seat {seat} decides, so it has a legal action"
            for action in legal:
                why = game.why_illegal(action, seat)
                assert why is None, f"{action} is listed for seat {seat} but refused: {why}"
        else:
            assert legal == [], f"seat {seat} is not to decide, yet has legal actions"
    if game.to_move is not None:
        assert game.legal_actions() == game.legal_actions(game.to_move), "seat=None is to_move"
    deciders = game.deciders
    assert len(deciders) == game.move_number and set(deciders) <= set(seats), \
        "deciders: one seat a decision of the history"
    for seat in [*seats, None]:
        _json(game.view(seat))
        _json(game.log(seat))
    _json(game.public_view())
    winners = game.winners
    assert set(winners) <= set(seats), f"winners {winners} are seats"
    standings = game.standings()
    if not game.is_over:
        assert winners == [] and standings == [], "no winner and no standings before the end"
    else:
        assert [row["seat"] for row in standings] == list(seats), "one standing a seat, in order"
        for row in standings:
            assert sum(row["sources"].values()) == row["score"], f"sources add up: {row}"
        _json(standings)
    hook = getattr(game, "check_invariants", None)
    if hook is not None:
        hook()


def _twin_of(game: GameState) -> GameState:
    """The game reloaded from its JSON form (``Game.from_dict(to_dict())``)."""
    return type(game).from_dict(json.loads(_json(game.to_dict())))  # type: ignore[attr-defined, no-any-return]


def check_round_trip(game: GameState, rng: random.Random, steps: int = 6) -> None:
    """``from_dict(to_dict())`` is the same position and continues as the game does, for
    ``steps`` random moves (played on copies: ``game`` is left as it was)."""
    a, b = game.copy(), _twin_of(game)
    for _ in range(steps + 1):
        assert _json(a.to_dict()) == _json(b.to_dict()), "from_dict(to_dict()) continues alike"
        assert a.to_decide == b.to_decide and a.legal_actions() == b.legal_actions()
        if a.is_over:
            return
        seat, action = random_move(a, rng)
        assert _json(a.play(action, seat)) == _json(b.play(action, seat)), "the same events"


def check_refusals(game: GameState, tried: list[tuple[int, Action]]) -> None:
    """Refused input changes nothing: garbage, and earlier actions (``tried``, each with its
    seat) tried for every seat; ``why_illegal`` agrees with ``legal_actions`` on them."""
    before, version = _json(game.to_dict()), game.version
    for seat in [None, *range(game.num_players)]:
        legal = game.legal_actions(seat)
        for action in [*GARBAGE, *(a for _, a in tried)]:
            why = game.why_illegal(action, seat)
            if why is None:
                assert action in legal, f"{action} is not refused, yet not listed for {seat}"
                continue
            assert isinstance(why, str) and why, "a refusal says why"
            assert action not in legal, f"{action} is listed for seat {seat}, yet refused: {why}"
            try:
                game.play(action, seat)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{action} played for seat {seat}, though refused: {why}")
            assert game.version == version and _json(game.to_dict()) == before, \
                f"refusing {action} for seat {seat} changed the game"


def check_resample(game: GameState, seat: int, rng: random.Random,
                   receive: Receive = received, steps: int = 12, twins: int = 2) -> None:
    """Whatever ``receive(game, seat)`` gives the seat is the same in ``game`` and in
    ``twins`` of its ``resample(seat, rng)`` twins, and stays the same as each pair is played
    on alike (for ``steps`` random moves, or until something is shown to the seat); and
    resampling the game or a twin with the same generator gives the same twin."""
    for _ in range(twins):
        twin = game.resample(seat, rng)
        # A twin is drawn from what the seat sees alone (so a bot may be handed one): the
        # game and its twin, resampled alike, give the very same twin.
        again = rng.getrandbits(32)
        assert _json(game.resample(seat, random.Random(again)).to_dict()) == \
            _json(twin.resample(seat, random.Random(again)).to_dict()), \
            f"resample({seat}) draws on something seat {seat} cannot see"
        _follow(receive, game.copy(), twin, seat, rng, steps)


def _follow(receive: Receive, a: GameState, b: GameState, seat: int, rng: random.Random,
            steps: int, own_moves: bool = True) -> None:
    """Play ``a`` and ``b`` on alike while ``seat`` receives the same from both."""
    assert receive(a, seat) == receive(b, seat), f"seat {seat} sees a hidden difference"
    for _ in range(steps):
        if a.is_over or (not own_moves and seat in a.to_decide):
            return
        assert a.to_decide == b.to_decide, f"seat {seat} sees a hidden difference: to_decide"
        mover = rng.choice(a.to_decide)
        common = [x for x in a.legal_actions(mover) if b.why_illegal(x, mover) is None]
        if not common:  # the twin's hidden hand allows none of these: nothing to compare
            return
        action = rng.choice(common)
        a.play(action, mover)
        b.play(action, mover)
        if a.sight_barrier(seat) == a.move_number or b.sight_barrier(seat) == b.move_number:
            return  # that move showed the seat something hidden: the twins may part now
        assert receive(a, seat) == receive(b, seat), f"seat {seat} sees a hidden difference"


def check_determinism(name: str, players: int, seed: int, moves: int = 200,
                      **options: Any) -> None:
    """The same seed and the same moves give the same game, event for event (``options``
    go to ``Game.new``)."""
    new = games.get(name).Game.new
    a, b = (new(players=players, seed=seed, **options) for _ in range(2))
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    for _ in range(moves):
        assert _json(a.to_dict()) == _json(b.to_dict()), "the same seed, the same game"
        if a.is_over:
            break
        (seat, action), again = random_move(a, rng_a), random_move(b, rng_b)
        assert (seat, action) == again, "the same position offers the same actions"
        assert _json(a.play(action, seat)) == _json(b.play(action, seat)), "the same events"
    assert _json(a.log(None)) == _json(b.log(None))


def check_game(name: str, players: int, seed: int = 0, every: int = 7, probes: int = 3,
               **options: Any) -> GameState:
    """A random game of the registered game ``name`` played to its end with every check:
    :func:`check_state` after each move; every ``every`` moves the round trip and the
    refusals; at ``probes`` points the resampling check for every seat; and
    :func:`check_determinism`. ``options`` go to ``Game.new``. Returns the finished game."""
    spec = games.get(name)
    assert players in spec.players, f"{name} is for {spec.players} players"
    game: GameState = spec.Game.new(players=players, seed=seed, **options)
    rng = random.Random(seed)
    tried: list[tuple[int, Action]] = []
    probe_every = max(1, every * 5 // max(probes, 1))
    while not game.is_over:
        assert game.move_number < MAX_DECISIONS, f"{name} did not end in {MAX_DECISIONS} moves"
        check_state(game)
        if game.move_number % every == 0:
            check_round_trip(game, rng)
            check_refusals(game, tried[-6:])
        if probes and game.move_number % probe_every == 0:
            probes -= 1
            for seat in range(game.num_players):
                check_resample(game, seat, rng)
        seat, action = random_move(game, rng)
        tried.append((seat, action))
        events = game.play(action, seat)
        _json(events)
    check_state(game)
    check_refusals(game, tried[-6:])
    assert game.winners, "a finished game has a winner"
    check_determinism(name, players, seed, **options)
    return game


# --- Langfinger's own -----------------------------------------------------------------------


def _langfinger(players: int, seed: int, variant: str) -> Any:
    return games.get("langfinger").Game.new(players=players, seed=seed, variant=variant,
                                            start_player=seed % players)


def check_conserved(game: Any) -> None:
    """Every card once (R0.1-R0.3), three tokens a player (R1.4), no display too full (R1.1),
    and a position play can reach (Langfinger's ``check_invariants``)."""
    game.check_invariants()


def check_position(game: Any) -> None:
    """The position is one play can reach, and it survives its JSON form and its notation."""
    check_state(game)
    again = _twin_of(game)
    assert again.to_dict() == game.to_dict(), "to_dict / from_dict changes nothing"
    assert type(game).from_notation(game.notation()).to_dict() == game.to_dict(), \
        "notation round trip"


def random_playthrough(players: int = 3, seed: int = 0, variant: str = "standard",
                       every: int = 4) -> Any:
    """A random Langfinger game played to its end, every invariant checked (the position's
    every ``every`` moves, the cheap ones each move); returns the finished game."""
    game = _langfinger(players, seed, variant)
    rng = random.Random(seed)
    money = game.money
    while not game.is_over:
        if game.move_number % every == 0:
            check_position(game)
        game.play(rng.choice(game.legal_actions()))
        assert all(a <= b for a, b in zip(money, game.money, strict=True)), "money never falls"
        money = game.money
    check_conserved(game)
    assert game.winners and all(game.money[w] == max(game.money) for w in game.winners)
    assert max(game.money) >= 20, "R10: the game ends when someone has 20 or more"
    return game


def hidden_twin(game: Any, seat: int, rng: random.Random) -> Any:
    """The same position except for what ``seat`` cannot see (R11): ``game.resample``,
    reloaded from its ``to_dict`` so that, like a game loaded from ``game.to_dict()``, it
    starts with no history."""
    return _twin_of(game.resample(seat, rng))


def check_no_leak(receive: Receive, players: int = 3, seed: int = 0, variant: str = "standard",
                  probes: int = 4) -> None:
    """Whatever ``receive(game, seat)`` hands a seat is blind to what that seat cannot see.

    A random Langfinger game is played; at ``probes`` points, for every seat, the position
    is resampled in everything hidden from the seat (:func:`hidden_twin`) and both positions
    are played on with the same moves until the seat is to move or is shown something:
    ``receive`` must give the seat the same thing throughout.
    """
    game = _langfinger(players, seed, variant)
    rng = random.Random(seed)
    length = random_playthrough(players, seed, variant, every=10**9).move_number
    marks = {length * (k + 1) // (probes + 1) for k in range(probes)}
    while not game.is_over:
        if game.move_number in marks:
            for seat in range(players):
                _follow(receive, _twin_of(game), hidden_twin(game, seat, rng), seat, rng, 12,
                        own_moves=False)
        game.play(rng.choice(game.legal_actions()))


__all__ = ["GARBAGE", "check_conserved", "check_determinism", "check_game", "check_no_leak",
           "check_position", "check_refusals", "check_resample", "check_round_trip",
           "check_state", "hidden_twin", "random_move", "random_playthrough", "received"]
