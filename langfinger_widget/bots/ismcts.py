"""ISMCTSBot: single-observer information-set Monte Carlo tree search.

After Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree
Search" (2012). One tree is grown for the deciding seat; its edges are
actions. Every iteration

1. *determinizes*: samples a full position consistent with the seat's view
   (:mod:`.determinize`), so hidden hands, loot fronts and pile orders are
   guessed afresh each time;
2. *selects* down the tree with UCB1, among only the actions legal in that
   sample (a child's "availability" counts how often it could have been
   chosen, which replaces the parent's visit count in UCB);
3. *expands* one untried action;
4. *rolls out* with a cheap policy (mostly some non-pass action, best sale at
   the Harbor) to the end of the game or of the round (or a few rounds ahead),
   where a win model fitted to self-play stands in for the result
   (:func:`win_chances`);
5. *backs up* each player's reward into the nodes of their own moves.

Every move is simulated by the kernel's fast path (``rules.legal_ids_shared`` /
``rules.resolve`` without events, actions as integer ids; a roll-out a round at
a time with ``rules.place_each`` / ``rules.act_each``): the bot has no rules of
its own. The seed of each sample comes from the bot's generator, so
a fixed iteration budget gives a fixed answer.
"""

from __future__ import annotations

import gc
import json
import math
import random
import time as _time
from collections.abc import Mapping, Sequence
from typing import Any

from .. import games
from ..games.protocol import GameState
from ..kernel import cards, rules
from ..kernel.errors import BadArgument
from ..kernel.hidden import Determinizer
from ..kernel.state import Player, State
from .base import Action, View, check_inputs, keyed, number

DEFAULT_ITERATIONS = 400

# The money heuristic, the cut-off's score before the win model and still the levels':
# a coin counts 1, a point of held loot LOOT_WORTH, a tool TOOL_WORTH, turned into win
# chances at a temperature of 3 coins; that search explored with c=0.7.
LOOT_WORTH, TOOL_WORTH = 0.75, 0.2
MONEY_HEURISTIC: dict[str, float] = {"temperature": 3.0, "c": 0.7}

# The cut-off's win model: a conditional logit, one weight a feature of each player (see
# _features), for each player count. Fitted by maximum likelihood to who won 2,140 self-play
# games of ISMCTS, from every round's start, by ``python benchmarks/evaluation.py``.
WIN_MODEL: dict[int, tuple[float, ...]] = {
    2: (0.1825, 0.3139, -0.1195, 0.1821, 0.1094, 0.2907, 0.0122, -0.0974, -0.1365),
    3: (0.3150, 0.4317, -0.0979, 0.2767, 0.1077, 0.2496, 0.0084, -0.1567, -0.1242),
    4: (0.2818, 0.3775, -0.0008, 0.3809, 0.0779, 0.4177, 0.2303, -0.1552, -0.1963),
    5: (0.1875, 0.3641, -0.3515, 0.3097, 0.0674, 0.4008, 0.2330, -0.1868, -0.1711),
}


class _Node:
    """An edge's target: statistics of one action, for the player who took it."""

    __slots__ = ("avail", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        # By action id (rules.ACTIONS), or by the action's JSON for any game (TwinSearch).
        self.children: dict[Any, _Node] = {}


class ISMCTSBot:
    """Information-set MCTS with a budget of ``iterations`` or ``time`` seconds a move.

    ``iterations`` may map each player count to its own budget (``{2: 2000,
    5: 800, ...}``): an iteration simulates every player's moves, so a game of
    five costs more than one of two, and a level keeps its pace this way.
    ``c`` is the UCB exploration constant (rewards lie in [0, 1]);
    ``rounds_ahead`` is how many rounds after the current one a rollout may run
    before the position is scored. It is scored by the win model
    (:func:`win_chances`), or, given a ``temperature`` (money units), by the
    older heuristic: a softmax of money-equivalents (:func:`heuristic_score`)
    at that temperature, as the levels ``hard`` and ``expert`` search.
    ``depth`` is for the other games (:class:`TwinSearch`): a play-out stops after that many
    decisions past the tree and the game's own evaluation scores it (``GameSpec.evaluate``,
    found through the registry, so the bot never knows which game it plays); a game without
    one is played out to the end whatever the depth.
    """

    name = "ismcts"

    def __init__(self, seed: int = 0, iterations: int | Mapping[int, int] | None = None,
                 time: float | None = None, c: float = 0.5, rounds_ahead: int = 0,
                 temperature: float | None = None, depth: int | None = None) -> None:
        number(seed, "the seed", low=-math.inf, whole=True)
        if isinstance(iterations, Mapping):
            for players, budget in iterations.items():
                number(players, "iterations: a player count", low=2, high=5, whole=True)
                number(budget, f"iterations for {players} players", low=1, whole=True)
        elif iterations is not None:
            number(iterations, "iterations", low=1, whole=True)
        if time is not None:
            number(time, "time (seconds a move)", above=True)
        number(c, "c (the exploration constant)")
        number(rounds_ahead, "rounds_ahead", whole=True, high=1000)
        if temperature is not None:
            number(temperature, "temperature (money)", above=True)
        if depth is not None:
            number(depth, "depth (decisions a play-out)", whole=True, high=ROLLOUT_LIMIT)
        self.seed = seed
        self.iterations = iterations if iterations is not None or time is not None \
            else DEFAULT_ITERATIONS
        self.time = time
        self.c = c
        self.rounds_ahead = rounds_ahead
        self.temperature = temperature
        self.depth = depth
        self._rng = random.Random(seed)
        self.last_iterations = 0  # of the latest search
        self.total_iterations = 0  # over every search, with ``searches`` (benchmarks)
        self.searches = 0

    # --- the Bot protocol ---------------------------------------------------------------------
    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        check_inputs(view, legal, game="langfinger")
        if len(legal) == 1:  # nothing to decide: save the search
            return legal[0]
        return self.evaluate(view, legal)[0]

    def evaluate(self, view: View, legal: Sequence[Action]) -> tuple[Action, float]:
        """The best action and its estimated value for the seat (a win chance in [0, 1])."""
        search = self.search(view, legal)
        while not search.done:
            search.run(1024)
        return search.best()

    def search(self, view: View, legal: Sequence[Action], first: Action | None = None) -> Search:
        """A search from ``view``, to be run a slice at a time (:class:`Search`).

        The widget's driver runs it in slices between clicks (no threads, as
        in Pyodide); :meth:`evaluate` runs it through at once. Either way the
        same budget gives the same answer. With ``first`` (one of ``legal``)
        every iteration starts by playing it: :meth:`Search.value` is then the
        seat's win chance after that move (game analysis, ``lf.analyse``).
        """
        check_inputs(view, legal, game="langfinger")
        if view["to_move"] != view["seat"]:
            raise BadArgument(f"seat {view['seat']} is not to move: search from the mover's view")
        return Search(self, view, legal, random.Random(self._rng.getrandbits(64)), first)

    def search_twin(self, twin: GameState, seat: int, legal: Sequence[Action],
                    first: Action | None = None) -> TwinSearch:
        """A search of any game from ``twin``, a ``resample(seat, rng)`` of it (so holding
        nothing ``seat`` has not seen), run a slice at a time as :meth:`search`'s. With
        ``first`` (one of ``legal``) every iteration starts by playing it, as :meth:`search`
        does (``lf.analyse``)."""
        if seat not in twin.to_decide:
            raise BadArgument(f"seat {seat} does not decide now: search from a decider's twin")
        if not legal or not all(isinstance(a, dict) for a in legal):
            raise TypeError("legal must be a non-empty list of action dicts")
        if first is not None and _action_key(first) not in {_action_key(a) for a in legal}:
            raise BadArgument(f"first must be one of the legal actions, not {first!r}")
        return TwinSearch(self, twin, seat, legal, random.Random(self._rng.getrandbits(64)),
                          first)

    def budget(self, players: int) -> int | None:
        """The iterations a search may run in a game of ``players`` (None: time decides)."""
        if isinstance(self.iterations, Mapping):  # the entry for the most players up to these
            fitting = [n for n in self.iterations if n <= players] or [min(self.iterations)]
            return self.iterations[max(fitting)]
        return self.iterations

    def _finished(self, search: Search) -> None:
        self.last_iterations = search.iterations
        self.total_iterations += search.iterations
        self.searches += 1

    def _iterate(self, root: _Node, state: State, rng: random.Random, last_round: int) -> None:
        path = [root]
        node = root
        actions, resolve, legal_ids = rules.ACTIONS, rules.resolve, rules.legal_ids_shared
        c, log, sqrt, nothing = self.c, math.log, math.sqrt, -math.inf
        while state.phase != "over" and state.round <= last_round:
            children = node.children
            child_of = children.get
            untried = []
            best_id, best = -1, nothing
            for aid in legal_ids(state):
                child = child_of(aid)
                if child is None:
                    untried.append(aid)
                    continue
                child.avail += 1  # legal in this sample: it was available (ISMCTS)
                visits = child.visits  # UCB1 with availability counts, first best wins
                score = child.total / visits + c * sqrt(log(child.avail) / visits)
                if score > best:
                    best_id, best = aid, score
            if untried:  # expand one action never tried here
                aid = untried[int(rng.random() * len(untried))]
                child = _Node(resolve(state, actions[aid], None))
                child.avail = 1
                children[aid] = child
                path.append(child)
                break
            resolve(state, actions[best_id], None)
            node = children[best_id]
            path.append(node)
        _rollout(state, rng, last_round)
        rewards = self._rewards(state)
        for n in path:
            n.visits += 1
            n.total += rewards[n.mover]

    def _rewards(self, state: State) -> list[float]:
        """Win chances: exact when the game is over, else the win model's or the heuristic's."""
        if state.phase == "over":
            won = rules.winners(state)
            return [1.0 / len(won) if i in won else 0.0 for i in range(state.num_players)]
        if self.temperature is None:
            return win_chances(state)
        temperature = self.temperature
        return _softmax([_player_score(p) / temperature for p in state.players])


class Search:
    """One ISMCTS search in progress: :meth:`run` it a slice at a time, then :meth:`best`.

    The budget is the bot's: ``iterations``, or ``time`` seconds from the start
    of the search (wall-clock, so slices spread out by other work use it up too).
    """

    def __init__(self, bot: ISMCTSBot, view: View, legal: Sequence[Action],
                 rng: random.Random, first: Action | None = None) -> None:
        self._bot = bot
        self._pairs: list[tuple[Any, Action]] = [(rules.action_id(key), action)
                                                 for key, action in keyed(legal)]
        self._first = None if first is None else rules.action_key(first)
        if self._first is not None and rules.action_id(self._first) not in {
                i for i, _ in self._pairs}:
            raise BadArgument(f"first must be one of the legal actions, not {first!r}")
        self._sampler = Determinizer(view)
        self._rng = rng
        self._root = _Node(view["seat"])
        self._last_round = view["round"] + bot.rounds_ahead
        self._deadline = None if bot.time is None else _time.perf_counter() + bot.time
        self._limit = bot.budget(len(view["players"]))
        self.iterations = 0
        self.done = False

    def run(self, iterations: int) -> None:
        """Up to ``iterations`` more iterations, fewer if the budget runs out first.

        The cyclic garbage collector pauses meanwhile: an iteration makes many
        short-lived lists and dicts, none in a cycle (reference counting frees
        them), and the growing tree would only make each collection longer.
        """
        collecting = gc.isenabled()
        gc.disable()
        try:
            finished = self._run(iterations)
        finally:
            if collecting:
                gc.enable()
        if finished and not self.done:
            self.done = True
            self._bot._finished(self)

    def _run(self, iterations: int) -> bool:
        """Iterate; True when the budget ran out."""
        limit, deadline, first = self._limit, self._deadline, self._first
        sample, iterate, rng, root = self._sampler.sample, self._bot._iterate, self._rng, self._root
        for _ in range(iterations):
            if limit is not None and self.iterations >= limit:
                return True
            if deadline is not None and self.iterations and _time.perf_counter() >= deadline:
                return True
            state = sample(rng)
            if first is not None:
                rules.resolve(state, first, None)
            iterate(root, state, rng, self._last_round)
            self.iterations += 1
        return False

    def value(self) -> float:
        """The seat's mean reward over the iterations so far: its estimated win chance here
        (after ``first``, when the search was given one)."""
        root = self._root
        return root.total / root.visits if root.visits else 0.5

    def best(self) -> tuple[Action, float]:
        """The most visited action so far and its mean value for the seat."""
        pairs = self._pairs
        best = max(range(len(pairs)), key=lambda i: _rank(self._root.children.get(pairs[i][0]), -i))
        node = self._root.children.get(pairs[best][0])
        value = node.total / node.visits if node and node.visits else 0.5
        return pairs[best][1], value


# A play-out of a game that takes this many moves is cut short and scored a draw.
ROLLOUT_LIMIT = 5000


def _action_key(action: Action) -> str:
    """An action as a tree edge of any game: its JSON, keys sorted (dicts are unhashable)."""
    return json.dumps(action, sort_keys=True)


class TwinSearch(Search):
    """ISMCTS on any game, through the game protocol alone (``lf.games.GameState``).

    Each iteration plays on a fresh ``resample(seat, rng)`` of the twin it was given: the
    hidden part is guessed afresh, as :class:`Search` does with Langfinger's determinizer.
    In a sealed step the searching seat decides first, then the other deciders in seat
    order: the tree's statistics for their choices then follow its own, as if they could see
    it (a cautious search, never an unfair one: no seat's hidden card reaches the tree).
    Play-outs are uniformly random, to the end; or, if the bot has a ``depth`` and the game
    an evaluation (``GameSpec.evaluate``), for ``depth`` decisions, then scored by the
    evaluation of the twin so far (which holds only what the seat has seen, re-dealt).
    Slower than :class:`Search`, which runs Langfinger's own fast paths; the same budget
    gives the same answer.
    """

    def __init__(self, bot: ISMCTSBot, twin: GameState, seat: int, legal: Sequence[Action],
                 rng: random.Random, first: Action | None = None) -> None:
        self._bot = bot
        self._pairs = [(_action_key(a), a) for a in legal]
        self._first = None
        self._opening = None if first is None else dict(first)
        self._twin, self._seat = twin, seat
        self._rng = rng
        self._root = _Node(seat)
        self._deadline = None if bot.time is None else _time.perf_counter() + bot.time
        self._limit = bot.budget(twin.num_players)
        # The game's cut-off score, through the registry (the bot knows no game by name).
        self._evaluate = None if bot.depth is None else games.spec_of(twin).evaluate
        self._depth: int = ROLLOUT_LIMIT if self._evaluate is None or bot.depth is None \
            else bot.depth
        self.iterations = 0
        self.done = False

    def _run(self, iterations: int) -> bool:
        limit, deadline = self._limit, self._deadline
        for _ in range(iterations):
            if limit is not None and self.iterations >= limit:
                return True
            if deadline is not None and self.iterations and _time.perf_counter() >= deadline:
                return True
            game = self._twin.resample(self._seat, self._rng)
            if self._opening is not None:
                # The root then stands for the position after the move: value() is the seat's
                # chance after it.
                game.play(dict(self._opening), self._seat)
            self._iterate(game)
            self.iterations += 1
        return False

    def _mover(self, game: GameState) -> int:
        deciding = game.to_decide
        return self._seat if self._seat in deciding else deciding[0]

    def _iterate(self, game: GameState) -> None:
        rng, c, log, sqrt = self._rng, self._bot.c, math.log, math.sqrt
        path, node = [self._root], self._root
        while not game.is_over:
            mover = self._mover(game)
            untried: list[tuple[str, Action]] = []
            best: tuple[str, Action] | None = None
            best_score = -math.inf
            for action in game.legal_actions(mover):
                key = _action_key(action)
                child = node.children.get(key)
                if child is None:
                    untried.append((key, action))
                    continue
                child.avail += 1
                score = child.total / child.visits + c * sqrt(log(child.avail) / child.visits)
                if score > best_score:
                    best, best_score = (key, action), score
            if untried:
                key, action = untried[int(rng.random() * len(untried))]
                game.play(action, mover)
                child = node.children[key] = _Node(mover)
                child.avail = 1
                path.append(child)
                break
            assert best is not None  # a seat that decides has a legal action
            game.play(best[1], mover)
            node = node.children[best[0]]
            path.append(node)
        for _ in range(self._depth):
            if game.is_over:
                break
            mover = game.to_decide[0]
            legal = game.legal_actions(mover)
            game.play(legal[int(rng.random() * len(legal))], mover)
        players = game.num_players
        if game.is_over:
            won = game.winners
            share = 1.0 / len(won) if won else 0.0
            rewards = [share if i in won else 0.0 for i in range(players)]
        elif self._evaluate is not None:
            rewards = [float(r) for r in self._evaluate(game)]
        else:
            rewards = [1.0 / players] * players
        for n in path:
            n.visits += 1
            n.total += rewards[n.mover]


def _rank(node: _Node | None, order: int) -> tuple[int, float, int]:
    """Most visited first, then the best mean, then the earlier legal action."""
    if node is None or not node.visits:
        return (0, 0.0, order)
    return (node.visits, node.total / node.visits, order)


def win_chances(state: State) -> list[float]:
    """Each player's chance to win from here, by the win model (:data:`WIN_MODEL`).

    Meant for the end of a round (or the start of the next), where a search's
    roll-out stops: it weighs money, held loot and tools, who starts the next
    round, and how close the leader is to the end (R10.1), when unsold loot
    is about to be worth nothing (R10.2).
    """
    weights = WIN_MODEL[state.num_players]
    return _softmax([sum([w * f for w, f in zip(weights, row, strict=True)])
                     for row in _features(state)])


def _features(state: State) -> list[tuple[float, ...]]:
    """The win model's features of each player, in :data:`WIN_MODEL`'s order."""
    players, n = state.players, state.num_players
    # Before phase C the start player has yet to pass on (R9.3); after it, it has.
    starts = state.start_player if state.phase == "place" else (state.start_player + 1) % n
    late = max([p.money for p in players]) / cards.WINNING_MONEY
    loot_cards = cards.LOOT_CARDS
    rows: list[tuple[float, ...]] = []
    for seat, p in enumerate(players):
        money, hand = p.money, p.hand_size()
        loot = sum([loot_cards[i].value for i in p.loot])
        rows.append((money, loot, len(p.loot), hand, 1.0 if seat == starts else 0.0,
                     money * late, loot * late, hand * late,
                     max(money + loot - cards.WINNING_MONEY, 0)))
    return rows


def _softmax(scores: Sequence[float]) -> list[float]:
    top, exp = max(scores), math.exp
    weights = [exp(s - top) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


def heuristic_score(state: State, seat: int) -> float:
    """Money now, plus what held loot and tools should turn into (R8.1, R5.1)."""
    return _player_score(state.players[seat])


def _player_score(p: Player) -> float:
    loot_cards = cards.LOOT_CARDS
    loot = sum([loot_cards[i].value for i in p.loot])
    return p.money + LOOT_WORTH * loot + TOOL_WORTH * p.hand_size()


def _rollout(state: State, rng: random.Random, last_round: int) -> None:
    """Play on until the game ends or ``last_round`` is over, with a cheap policy.

    The policy places tokens at random; with a token to act it mostly acts (a
    random non-pass action, the best sale at the Harbor) and passes one time in
    ten (a token with nothing but pass passes). It runs a round at a time
    (``rules.place_each``, ``rules.act_each``) on action ids, and draws with
    ``rng.random`` (cheaper than ``randrange``): this loop is where a search spends
    most of its time. The last round stops short of phase C, which changes no score.
    """
    actions, random_ = rules.ACTIONS, rng.random
    sale_gain, pass_id, place_each, act_each = (rules.sale_gain, rules.PASS_ID, rules.place_each,
                                                rules.act_each)

    def anywhere(places: Sequence[str]) -> str:
        return places[int(random_() * len(places))]

    def act(ids: Sequence[int], place: str) -> int:  # ids: a real choice, pass last
        if actions[ids[0]][0] == "sell":
            return max(ids[:-1], key=sale_gain)
        if random_() < 0.1:
            return pass_id
        return ids[int(random_() * (len(ids) - 1))]

    while state.round <= last_round:
        if state.phase == "place":
            place_each(state, anywhere)
        last = state.round == last_round  # scored at its end: phase C changes no score
        act_each(state, act, refill=not last)  # the round's actions
        if last or state.phase == "over":
            return
