"""A seat's export: the position as one seat knows it, and loading it back (R11).

``Game.to_dict(seat=k)`` writes what seat ``k`` knows and nothing more: its
own hand and loot; of the others only hand sizes (and, in ``open_info``, the
tools all have seen enter a hand, R11.2) and loot backs; the Villa and the
Museum as backs; the draw piles as sizes; public discards; no seed. It is
built from ``views.view(state, k)``, so it can hold no more than the seat's
view does (docs/state-format.md, "A seat's export").

Loading it (``Game.from_dict`` / ``Game.from_notation`` see the ``seat``
key) resamples what the seat cannot know with the bots' determinizer
(``bots/determinize.py``): opponents' hands from the unseen tools, each
face-down card from the unseen ones with its back, the draw piles from the
rest. The generator is seeded from the export itself, so the same export
always loads as the same game, and nothing of the original seed survives.
The result then passes every check of ``load.check``.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from . import cards, reachable, views
from .cards import PROTECTIONS, TOOLS
from .errors import InvalidState
from .load import (
    bounded_int,
    check,
    composed_flag,
    id_list,
    player_from,
    rates_from,
    squares_from,
    tool_counts,
    used_from,
)
from .state import DISPLAYS, FORMAT, PHASES, PILES, SCOUNDREL_PLACES, VARIANTS, State, shown

KEYS = ("format", "seat", "variant", "round", "phase", "start_player", "players", *DISPLAYS,
        "squares", "ruin_rates", "scoundrel_used", "piles", "money_by_round")
PLAYER_KEYS = {"name", "scoundrel", "money", "tokens", "hand", "hand_size", "known", "loot"}
HAND_LIMIT = len(TOOLS) * cards.TOOLS_PER_TYPE  # R0.1: 60 tools in all


def _bad(why: str) -> InvalidState:
    return InvalidState(why)


# --- writing ---------------------------------------------------------------------------------


def seat_dict(state: State, seat: int) -> dict[str, Any]:
    """What ``seat`` knows of ``state``, in the ``to_dict`` form with unknowns left out."""
    v = views.view(state, seat)
    return {
        "format": FORMAT,
        "seat": seat,
        "variant": v["variant"],
        "round": v["round"],
        "phase": v["phase"],
        "start_player": v["start_player"],
        "players": [_player(p, own=i == seat) for i, p in enumerate(v["players"])],
        "city": list(v["city"]),
        "villa": [_back(c) for c in v["villa"]],
        "museum": [_back(c) for c in v["museum"]],
        "harbor": [f["id"] for f in v["harbor"]],
        "squares": v["squares"],
        "ruin_rates": v["ruin_rates"],
        "scoundrel_used": {place: [i for i, p in enumerate(v["players"])
                                   if p["scoundrel_used"][place]] for place in SCOUNDREL_PLACES},
        "piles": {
            "tools": {"draw": v["piles"]["tools"]["draw"],
                      "discard": [t for t in TOOLS
                                  for _ in range(v["piles"]["tools"]["discard"].get(t, 0))]},
            **{name: {"draw": v["piles"][name]["draw"],
                      "discard": [c["id"] for c in v["piles"][name]["discard"]]}
               for name in ("loot", "fences")},
        },
        "money_by_round": v["money_by_round"],
        **({"composed": True} if v.get("composed") else {}),
    }


def _back(card: dict[str, Any]) -> dict[str, Any]:
    return {"protection": card["protection"], "tools": list(card["tools"])}


def _player(p: dict[str, Any], own: bool) -> dict[str, Any]:
    out = {"name": p["name"], "scoundrel": p["scoundrel"], "money": p["money"],
           "tokens": p["tokens"]}
    if own:
        out["hand"] = dict(p["hand"])
    else:
        out["hand_size"] = p["hand_size"]
    out["known"] = dict(p["known"])
    out["loot"] = [c["id"] if "id" in c else _back(c) for c in p["loot"]]
    return out


# --- loading ---------------------------------------------------------------------------------


def load(data: Any) -> State:
    """A full position consistent with a seat's export, resampled; ``InvalidState`` if none is.

    The sample is drawn by a generator seeded from the export alone.
    """
    view = _view(data)
    from .hidden import Determinizer  # the bots' sampler, loaded only when needed

    try:
        sampler = Determinizer(view)
    except ValueError as e:
        raise _bad(f"R11.1: no position fits seat {view['seat']}'s export: {e}") from None
    digest = hashlib.sha256(json.dumps(view, sort_keys=True).encode()).hexdigest()
    position = sampler.sample(random.Random(digest))
    check(position)
    return position


def _view(data: Any) -> dict[str, Any]:
    """Check a seat's export and turn it into that seat's view, as the determinizer reads it."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _bad(f"a seat's export is a {FORMAT!r} object")
    unknown = set(data) - set(KEYS) - {"composed"}
    missing = [k for k in KEYS if k not in data]
    if unknown & {"seed", "shuffles"}:
        raise _bad("R11.1: a seat's export holds no seed or shuffles (they would reveal every "
                   "shuffle: the draw piles' order)")
    if unknown or missing:
        raise _bad(f"a seat's export has the keys {list(KEYS)}: "
                   f"{'unknown ' + ', '.join(sorted(shown(k) for k in unknown)) if unknown else ''}"
                   f"{' ' if unknown and missing else ''}"
                   f"{'missing ' + ', '.join(missing) if missing else ''}")
    raw_players = data["players"]
    if not isinstance(raw_players, list) or not 2 <= len(raw_players) <= 5:
        raise _bad("R1.1: a game has 2 to 5 players")
    n = len(raw_players)
    seat = bounded_int(data["seat"], "seat", 0, n - 1)
    variant, phase = data["variant"], data["phase"]
    if variant not in VARIANTS or phase not in PHASES:
        raise _bad(f"variant must be one of {VARIANTS} (R11) and phase one of {PHASES}")
    used = used_from(data["scoundrel_used"], n)
    return {
        "seat": seat,
        "variant": variant,
        "round": bounded_int(data["round"], "round", 1, reachable.MAX_ROUNDS),
        "phase": phase,
        "start_player": bounded_int(data["start_player"], "R1.0: start_player", 0, n - 1),
        "players": [_player_view(raw, i, seat, variant, used) for i, raw in enumerate(raw_players)],
        "city": _tools(data["city"], "city"),
        "villa": [_back_of(c, "villa") for c in _list(data["villa"], "villa")],
        "museum": [_back_of(c, "museum") for c in _list(data["museum"], "museum")],
        "harbor": [{"id": f} for f in _ids(data["harbor"], "harbor", cards.FENCE_CARDS)],
        "squares": squares_from(data["squares"], n),
        "ruin_rates": rates_from(data["ruin_rates"], n),
        "piles": _piles(data["piles"]),
        "money_by_round": _money(data["money_by_round"], n),
        **({"composed": True} if composed_flag(data.get("composed", False)) else {}),
    }


def _player_view(raw: Any, i: int, seat: int, variant: str,
                 used: dict[str, list[int]]) -> dict[str, Any]:
    what = f"players[{i}]"
    if not isinstance(raw, dict) or not set(raw) <= PLAYER_KEYS:
        raise _bad(f"{what} must be an object with keys among {sorted(PLAYER_KEYS)}")
    own = i == seat
    if own != ("hand" in raw) or own == ("hand_size" in raw):
        raise _bad(f"R11.1: in seat {seat}'s export, {what} gives "
                   f"{'its hand' if own else 'only its hand_size: the hand is hidden'}")
    base = player_from({k: raw[k] for k in ("name", "scoundrel", "money", "tokens") if k in raw},
                        i)
    known = tool_counts(raw.get("known", {}), f"{what}.known")
    if variant == "standard" and any(known.values()):
        raise _bad(f"R11.1: in the standard game no hand shows known tools ({what}.known)")
    hand = tool_counts(raw["hand"], f"{what}.hand") if own else None
    size = sum(hand.values()) if hand else bounded_int(
        raw["hand_size"], f"R0.1: {what}.hand_size", 0, HAND_LIMIT)
    loot = [_own_loot(c, what) if own else _back_of(c, f"{what}.loot", seat)
            for c in _list(raw.get("loot", []), f"{what}.loot")]
    return {"name": base.name, "scoundrel": base.scoundrel, "money": base.money,
            "tokens": base.tokens, "hand": hand, "hand_size": size,
            "known": {t: k for t, k in known.items() if k}, "loot": loot,
            "scoundrel_used": {place: i in seats for place, seats in used.items()}}


def _list(raw: Any, what: str) -> list[Any]:
    if not isinstance(raw, list):
        raise _bad(f"{what} must be a list")
    return raw


def _back_of(raw: Any, what: str, seat: int | None = None) -> dict[str, Any]:
    """A face-down card's back: ``{"protection": ..., "tools": [...]}`` (R0.2)."""
    if isinstance(raw, str) and seat is not None:
        raise _bad(f"R5.3: seat {seat} cannot know the front of {what}'s {shown(raw)}: give "
                   f"its back")
    ok = (isinstance(raw, dict) and set(raw) == {"protection", "tools"}
          and raw["protection"] in PROTECTIONS and isinstance(raw["tools"], list)
          and all(isinstance(t, str) and t in TOOLS for t in raw["tools"]))
    if not ok:
        raise _bad(f"R5.1: {what} lies face down: give its back as {{'protection': one of "
                   f"{list(PROTECTIONS)}, 'tools': [tool, ...]}}, not {shown(raw)}")
    return {"protection": raw["protection"], "tools": list(raw["tools"])}


def _own_loot(raw: Any, what: str) -> dict[str, Any]:
    if not (isinstance(raw, str) and raw in cards.LOOT_CARDS):
        raise _bad(f"R5.3: {what}: a seat knows its own loot: give loot ids, not {shown(raw)}")
    return cards.LOOT_CARDS[raw].face()


def _ids(raw: Any, what: str, catalogue: dict[str, Any]) -> list[str]:
    ids = id_list(raw, what)
    unknown = [i for i in ids if i not in catalogue]
    if unknown:
        raise _bad(f"R0: {what}: unknown card(s) {shown(unknown)}")
    return ids


def _tools(raw: Any, what: str) -> list[str]:
    tools = id_list(raw, what)
    if any(t not in TOOLS for t in tools):
        raise _bad(f"R0.1: {what} lists tools, not {shown(tools)}")
    return tools


def _piles(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict) or set(raw) != set(PILES) or not all(
            isinstance(p, dict) and set(p) == {"draw", "discard"} for p in raw.values()):
        raise _bad(f"piles: {{pile: {{'draw': size, 'discard': [...]}}}} for {list(PILES)}")
    sizes = {name: bounded_int(raw[name]["draw"], f"piles.{name}.draw (a size: R11.1)", 0,
                               HAND_LIMIT) for name in PILES}
    tools = _tools(raw["tools"]["discard"], "piles.tools.discard")
    return {
        "tools": {"draw": sizes["tools"], "discard": {t: tools.count(t) for t in set(tools)}},
        "loot": {"draw": sizes["loot"], "discard": [cards.LOOT_CARDS[i].face() for i in _ids(
            raw["loot"]["discard"], "piles.loot.discard", cards.LOOT_CARDS)]},
        "fences": {"draw": sizes["fences"], "discard": [{"id": i} for i in _ids(
            raw["fences"]["discard"], "piles.fences.discard", cards.FENCE_CARDS)]},
    }


def _money(raw: Any, n: int) -> list[list[int]]:
    if not isinstance(raw, list) or not all(isinstance(r, list) and len(r) == n for r in raw):
        raise _bad("money_by_round must list one money total per player for each round")
    return [[bounded_int(m, "money_by_round", 0) for m in r] for r in raw]
