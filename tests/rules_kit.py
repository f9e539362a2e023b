"""Helpers shared across the test tree: hand-written positions, card lookups, random play,
hidden twins, replays, and a loop of its own for a table's coroutines.

Cards are found by their properties (protection, tools, kind, value), never
by hard-coded ids, so that the tests survive edits to ``data/deck.json``
(R0.4: the deck is a reconstruction that may change).
"""

from __future__ import annotations

import asyncio
import copy
import functools
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

import langfinger_widget as lf
from langfinger_widget.kernel.cards import LOOT_CARDS, PLACES, TOKENS_PER_PLAYER
from langfinger_widget.kernel.state import VARIANTS as VARIANT_NAMES
from langfinger_widget.puzzles import Puzzle

FORMAT = "langfinger/1"
SCOUNDREL_ORDER = ("pascal", "hans", "tommaso", "yoshiko", "bobby")

# What the property tests draw a game from: a player count, a seed, a variant.
PLAYERS = st.integers(min_value=2, max_value=5)
SEEDS = st.integers(min_value=0, max_value=2**31 - 1)
VARIANTS = st.sampled_from(VARIANT_NAMES)


def find_loot(
    *, protection: str | None = None, tools: Iterable[str] | None = None,
    kind: str | None = None, value: int | None = None, exclude: Iterable[str] = (),
) -> str:
    """The first loot id (by id) with these properties; fails the test naming R0.2 if none."""
    want_tools = None if tools is None else Counter(tools)
    skip = set(exclude)
    for card_id in sorted(lf.LOOT_CARDS):
        c = lf.LOOT_CARDS[card_id]
        if card_id in skip:
            continue
        if protection is not None and c.protection != protection:
            continue
        if want_tools is not None and Counter(c.tools) != want_tools:
            continue
        if kind is not None and c.kind != kind:
            continue
        if value is not None and c.value != value:
            continue
        return card_id
    raise AssertionError(f"R0.2: the deck holds no loot card with protection={protection} "
                         f"tools={tools} kind={kind} value={value} (excluding {sorted(skip)})")


def find_fence(buys: dict[str, tuple[int, int]] | None = None, *, exact: bool = False,
               without: Iterable[str] = (), exclude: Iterable[str] = ()) -> str:
    """The first fence buying at least (``exact``: exactly) ``buys`` and none of ``without``."""
    skip, never = set(exclude), set(without)
    for fence_id in sorted(lf.FENCE_CARDS):
        f = dict(lf.FENCE_CARDS[fence_id].buys)
        if fence_id in skip or never & set(f):
            continue
        wanted = buys or {}
        if exact and f != wanted:
            continue
        if all(f.get(k) == v for k, v in wanted.items()):
            return fence_id
    raise AssertionError(f"R0.3: the deck holds no fence buying {buys} without {sorted(never)}")


def position(phase: str, players: list[dict[str, Any]], **rest: Any) -> dict[str, Any]:
    """A hand-written position, composed (it need not come from a deal: docs/state-format.md);
    each player's ``tokens`` defaults to those not on the board."""
    squares = rest.get("squares", {})
    rates = rest.get("ruin_rates", {})
    out_players = []
    for seat, p in enumerate(players):
        p = dict(p)
        if "tokens" not in p:
            out = sum(s == seat for row in squares.values() for s in row)
            out += sum(s == seat for s in rates.values())
            p["tokens"] = TOKENS_PER_PLAYER - out
        out_players.append(p)
    return {"format": FORMAT, "composed": True, "phase": phase, "players": out_players, **rest}


def row(*seats: int | None) -> list[int | None]:
    """A place's five squares, the given seats first."""
    return [*seats, *[None] * (5 - len(seats))]


def load(d: dict[str, Any], tops: dict[str, list[str]] | None = None) -> lf.Game:
    """Load ``d``; ``tops`` puts these cards on top of the named draw piles (R9.2 order)."""
    g = lf.Game.from_dict(d)
    if not tops:
        return g
    full = g.to_dict()
    for pile, top in tops.items():
        draw = list(full["piles"][pile]["draw"])
        for card in top:
            draw.remove(card)
        full["piles"][pile]["draw"] = [*top, *draw]
    return lf.Game.from_dict(full)


def play_all(g: lf.Game, actions: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Play the actions in order; return all their events."""
    events: list[dict[str, Any]] = []
    for a in actions:
        events.extend(g.play(a))
    return events


def random_game(players: int, seed: int, variant: str = "standard",
                max_steps: int | None = None) -> lf.Game:
    """A game played by a seeded random policy (to the end, or ``max_steps`` decisions)."""
    g = lf.Game.new(players=players, seed=seed, variant=variant,
                    start_player=seed % players)
    rng = random.Random(seed)
    steps = 0
    while not g.is_over and (max_steps is None or steps < max_steps):
        g.play(rng.choice(g.legal_actions()))
        steps += 1
    return g


def busy_game(players: int, seed: int, moves: int, variant: str = "standard",
              start_player: int | None = None) -> lf.Game:
    """A game after ``moves`` seeded random actions (or over, if it ends first), passing
    only one time in ten when something else is legal: positions with loot, tools and
    money in play, as bots and exports meet them."""
    g = lf.Game.new(players=players, seed=seed, variant=variant, start_player=start_player)
    rng = random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            break
        legal = g.legal_actions()
        acting = [a for a in legal if a["type"] != "pass"]
        g.play(rng.choice(acting if acting and rng.random() < 0.9 else legal))
    return g


def place(p: str) -> dict[str, Any]:
    return {"type": "place", "place": p}


PASS: dict[str, Any] = {"type": "pass"}
ALL_PLACES = PLACES


# --- hidden information (R11) -------------------------------------------------------------------


def swapped_twin(game: lf.Game, seat: int, rng: random.Random) -> dict[str, Any]:
    """The same position with everything ``seat`` cannot see changed, via to_dict edits: the
    draw piles and the seed, opponents' unknown tools traded with the tool pile, and same-back
    loot fronts swapped. (``langfinger_widget.testing.hidden_twin`` shuffles the unknown tools
    among the opponents instead; the two perturb different things.)"""
    d = copy.deepcopy(game.to_dict())
    d["seed"] = d["seed"] + 1  # the seed decides future shuffles: hidden from everyone
    for pile in ("tools", "loot", "fences"):
        rng.shuffle(d["piles"][pile]["draw"])
    _swap_opponent_tools(d, seat, rng)
    _swap_same_back_loot(d, seat)
    return d


def _swap_opponent_tools(d: dict[str, Any], seat: int, rng: random.Random) -> None:
    """Trade unknown tools of each opponent with other-type tools from the draw pile."""
    draw = d["piles"]["tools"]["draw"]
    for i, p in enumerate(d["players"]):
        if i == seat:
            continue
        hand, known = Counter(p["hand"]), Counter(p.get("known", {}))
        for tool in sorted((hand - known).elements()):
            spots = [k for k, t in enumerate(draw) if t != tool]
            if spots and rng.random() < 0.7:
                k = rng.choice(spots)
                hand[tool] -= 1
                hand[draw[k]] += 1
                draw[k] = tool
        p["hand"] = {t: n for t, n in hand.items() if n}


def _swap_same_back_loot(d: dict[str, Any], seat: int) -> None:
    """Swap the fronts of two loot cards with one back, where the seat sees neither."""
    slots: list[tuple[list[str], int]] = []
    for i, p in enumerate(d["players"]):
        if i != seat:
            slots += [(p["loot"], k) for k in range(len(p["loot"]))]
    for where in (d["villa"], d["museum"], d["piles"]["loot"]["draw"]):
        slots += [(where, k) for k in range(len(where))]
    by_back: dict[tuple[str, tuple[str, ...]], list[tuple[list[str], int]]] = {}
    for where, k in slots:
        card = LOOT_CARDS[where[k]]
        by_back.setdefault((card.protection, card.tools), []).append((where, k))
    for same in by_back.values():
        if len(same) >= 2:
            (a, i), (b, j) = same[0], same[1]
            a[i], b[j] = b[j], a[i]


def replayed_views(g: lf.Game, seat: int | None) -> list[dict[str, Any]]:
    """The seat's view at every step of ``g``, replayed from its start."""
    origin = g.origin()
    out = [origin.view(seat)]
    for action in g.history:
        origin.play(action)
        out.append(origin.view(seat))
    return out


def run_alone(coro: Any) -> Any:
    """Run ``coro`` on a loop of its own, even when the suite left another loop marked running
    in this thread (Playwright's sync API does): a kernel's loop is the only one it runs on."""
    running = asyncio.events._get_running_loop()
    asyncio.events._set_running_loop(None)
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(coro)
    finally:
        loop.close()
        asyncio.events._set_running_loop(running)


# --- our own words: no sentence lifted from the rulebooks --------------------------------------

REPO = Path(__file__).resolve().parents[1]
RULE_TEXTS = [REPO.parent / "shared" / "rules", REPO / "rules"]
SHINGLE = 8  # this many words in a row, copied, is a copied sentence


def _shingles(text: str) -> set[tuple[str, ...]]:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return {tuple(words[i:i + SHINGLE]) for i in range(len(words) - SHINGLE + 1)}


@functools.cache
def rulebook_shingles() -> frozenset[tuple[str, ...]]:
    """Every run of SHINGLE words in the rulebooks' texts; empty where the checkout has none."""
    texts = [p for d in RULE_TEXTS if d.is_dir() for p in sorted(d.glob("*.txt"))]
    return frozenset(s for p in texts for s in _shingles(p.read_text(errors="replace")))


def copied_from_rulebook(text: str) -> list[str]:
    """The runs of SHINGLE words that ``text`` shares with a rulebook (the first three)."""
    return [" ".join(s) for s in sorted(_shingles(text) & rulebook_shingles())][:3]


def rulings_index(text: str, letter: str) -> dict[str, dict[str, str]]:
    """A game's docs page's "Rulings index" (docs/crooks.md, docs/goods.md) as its board
    bundles it (js/crooks/rulings.json, js/goods/rulings.json): ``{"C4.6": {section, text}}``
    for the rulings numbered with ``letter``."""
    index: dict[str, dict[str, str]] = {}
    section, last = "", ""
    item_re = re.compile(rf"- \*\*({letter}\d+\.\d+)\*\* (.*)")
    for line in text.split("## Rulings index", 1)[1].splitlines():
        heading = re.match(r"\*\*(.+?)\*\*", line)
        item = item_re.match(line)
        if heading and not line.startswith("-"):
            section = heading.group(1)
        elif item:
            last = item.group(1)
            index[last] = {"section": section, "text": item.group(2)}
        elif line.startswith("  ") and last:
            index[last]["text"] += " " + line.strip()
    return index


# --- the board's intents -------------------------------------------------------------------------


def act(w: Any, action: Any, **quote: Any) -> dict[str, Any]:
    """An ``act`` intent sent to widget ``w`` as the page sends it: quoting the board's move
    number and version (``quote`` overrides or adds keys, as a stale or forged page would)."""
    reply: dict[str, Any] = w.handle_message({"kind": "act", "action": action,
                                              "move": w.move_number, "version": w.version,
                                              **quote})
    return reply


# --- puzzles mined from the stored study (tests/puzzles/) -------------------------------------

Replayer = Callable[[int, int], tuple[Path, str]]
"""The ``replayed`` fixture: (players, game) -> that study game's record file and label."""


def mined_from(p: Puzzle) -> dict[str, Any]:
    """A mined puzzle's source: its record's label, the decision, seed, players and round."""
    assert isinstance(p.source, dict), f"{p.name} is composed"
    return p.source
