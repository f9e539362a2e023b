"""What happened, and what a move would do, in plain words for one seat.

One place writes the sentences a player reads about the game: the replay's
captions, the analysis line, the tutorials. Each event is first redacted for
the seat (:func:`~langfinger_widget.kernel.views.redact_event`, R11), so a sentence
never names a card that seat may not see: another player's drawn tools are
"two tools", a face-down loot card is its back ("a pillar").

>>> import langfinger_widget as lf
>>> g = lf.Game.new(players=3, seed=2, start_player=0)
>>> names = [p.name for p in g.state.players]
>>> event({"type": "take_tools", "seat": 1, "place": "city", "square": 0,
...        "tools": ["lockpick", "lockpick"]}, names)
'Hans takes two lockpicks from the City.'
>>> event({"type": "exchange", "seat": 1, "place": "ruin", "square": 0, "rate": "1>2",
...        "gave": ["map"], "drew": ["pliers", "map"], "count": 2}, names, seat=0)
'Hans exchanges a map at the Ruin (1 tool for 2) and draws two tools.'
>>> action({"type": "take_tools", "tools": ["map", "pliers"]}, g.view(0))
'take pliers and a map from the City'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from . import views, words
from .cards import RATE_COUNTS
from .rules import PLACE_NAMES, Event

Card = Mapping[str, Any]


# --- cards --------------------------------------------------------------------------------------


def loot_front(card: Card) -> str:
    """A loot card whose front is known: "a painting worth 3", "gold worth 4", "2 money"."""
    if card["kind"] == "money":
        return f"{card['value']} money"
    return f"{words.one(card['kind'])} worth {card['value']}"


def loot_back(card: Card) -> str:
    """A face-down loot card by its back: "a pillar (a lockpick, a hammer and a map)"."""
    return f"{words.one(card['protection'])} ({words.tools(card['tools'])})"


def loot(card: Card | None) -> str:
    """A loot card as far as it is known: its front when shown, else its back."""
    if card is None:
        return "a loot card"
    if "kind" in card and "value" in card:
        return loot_front(card)
    return loot_back(card)


def fence(card: Card) -> str:
    """A fence and what it buys: "fence F03 (gold, two statues, a painting +2)"."""
    offers = []
    for kind, (n, bonus) in card["buys"].items():
        offer = words.some(n, kind) if n > 1 else kind
        offers.append(offer + (f" +{bonus}" if bonus else ""))
    return f"fence {card['id']} (buys {words.listing(offers)})"


def _place(place: str | None) -> str:
    return f"the {PLACE_NAMES[place]}" if place in PLACE_NAMES else "the board"


def _who(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "Someone"


def _rate(rate: str) -> str:
    give, draw = RATE_COUNTS[rate]
    return f"{give} {'tool' if give == 1 else 'tools'} for {draw}"


def _handing_in(card: Card, paid: Sequence[str], scoundrel: bool) -> str:
    """How a theft was paid: the tools handed in, and the one the scoundrel stood in for."""
    text = f"handing in {words.tools(paid)}"
    if scoundrel:
        pictured: list[str] = list(card["tools"])
        covered = Counter(pictured) - Counter(paid)
        stood = next(iter(covered), None)
        text += f", the scoundrel standing in for the {stood}" if stood else \
            ", with the scoundrel's help"
    return text


# --- events -----------------------------------------------------------------------------------


def _deal(ev: Event, who: str) -> str:
    got = words.tools(ev["tools"]) if ev.get("tools") is not None \
        else words.count(ev.get("count", 0), "tool")
    return f"{who} is dealt {got}."


def _place_token(ev: Event, who: str) -> str:
    return f"{who} puts a token on {_place(ev['place'])} (square {ev['square'] + 1})."


def _take_tools(ev: Event, who: str) -> str:
    return f"{who} takes {words.tools(ev['tools'])} from the City."


def _steal(ev: Event, who: str) -> str:
    card = ev["loot"]
    text = (f"{who} steals {words.one(card['protection'])} from {_place(ev['place'])}, "
            f"{_handing_in(card, ev['paid'], bool(ev.get('scoundrel')))}")
    if "kind" in card and card["protection"] != "chest":  # a chest's money is the next event
        text += f": {loot_front(card)}"
    return text + "."


def _cash(ev: Event, who: str) -> str:
    return f"{who} opens the chest at once: +{ev['gained']} money (now {ev['money']})."


def _exchange(ev: Event, who: str) -> str:
    drew = ev.get("drew")
    got = words.tools(drew) if drew is not None else words.count(ev.get("count", 0), "tool")
    return (f"{who} exchanges {words.tools(ev['gave'])} at the Ruin "
            f"({_rate(ev['rate'])}) and draws {got}.")


def _sell(ev: Event, who: str) -> str:
    sold = words.listing([loot(c) for c in ev["loot"]])
    return (f"{who} sells {sold} to fence {ev['fence']}: +{ev['gained']} money "
            f"(now {ev['money']}).")


def _pass(ev: Event, who: str) -> str:
    return f"{who} passes at {_place(ev.get('place'))}."


_BY_PLAYER: dict[str, Callable[[Event, str], str]] = {
    "deal": _deal, "place": _place_token, "take_tools": _take_tools, "steal": _steal,
    "cash": _cash, "exchange": _exchange, "sell": _sell, "pass": _pass,
}


def _refill(ev: Event) -> str:
    """What a refill laid out: "the City with a hammer and two maps"."""
    cards_ = ev.get("cards") or []
    if ev["place"] == "city":
        what = words.tools(cards_)
    elif ev["place"] == "harbor":
        what = words.listing([fence(c) for c in cards_])
    else:
        what = words.listing([loot(c) for c in cards_])
    return f"{_place(ev['place'])} with {what}"


def _table_event(ev: Event, names: Sequence[str]) -> str:
    """An event of the table, not of one player's decision."""
    kind = ev["type"]
    if kind == "actions_begin":
        return f"Every token is placed: the places act, the City first (round {ev['round']})."
    if kind == "ruin_reopens":
        back = words.listing([f"{_who(names, s)}'s" for s in ev["seats"]])
        return (f"The Ruin's exchange squares open again; {back} "
                f"{'token comes' if len(ev['seats']) == 1 else 'tokens come'} back.")
    if kind == "reshuffle":
        return (f"The {ev['pile']} discard pile is shuffled into a new draw pile "
                f"({words.count(ev['size'], 'card')}).")
    if kind == "refill":
        place, _, what = _refill(ev).partition(" with ")
        return f"{place[:1].upper()}{place[1:]} is refilled with {what}."
    if kind == "start_player":
        return f"Round {ev['round']} begins; {_who(names, ev['seat'])} is the start player."
    if kind == "game_over":
        won = [_who(names, s) for s in ev["winners"]]
        best = max(ev["money"]) if ev.get("money") else 0
        verb = "wins" if len(won) == 1 else "win"
        return f"Game over: {words.listing(won)} {verb} with {best} money."
    return f"{kind.replace('_', ' ').capitalize()}."


def event(ev: Event, names: Sequence[str], seat: int | None = None) -> str:
    """One event in a sentence, as ``seat`` may know it (``None``: everything, the open board).

    ``names`` are the players' names by seat.
    """
    shown = views.redact_event(ev, seat) if seat is not None else ev
    tell = _BY_PLAYER.get(shown["type"])
    if tell is not None:
        return tell(shown, _who(names, shown.get("seat")))
    return _table_event(shown, names)


def events(evs: Sequence[Event], names: Sequence[str], seat: int | None = None) -> str:
    """Several events as one text; the refills between two rounds make one sentence."""
    out: list[str] = []
    refills: list[str] = []
    for ev in evs:
        if ev["type"] == "refill":
            refills.append(_refill(views.redact_event(ev, seat) if seat is not None else ev))
            continue
        if refills:
            out.append(_refills(refills))
            refills = []
        out.append(event(ev, names, seat))
    if refills:
        out.append(_refills(refills))
    return " ".join(out)


def _refills(parts: list[str]) -> str:
    return f"The board is refilled: {words.listing(parts)}."


# --- actions not yet played -------------------------------------------------------------------


def _own_loot(view: Mapping[str, Any], loot_id: str) -> Card | None:
    """The loot card ``loot_id`` as the view shows it (only a seat's own loot has ids)."""
    for p in view.get("players", []):
        for card in p.get("loot", []):
            if card.get("id") == loot_id:
                return card  # type: ignore[no-any-return]
    return None


def action(act: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """An action in words, from the position ``view`` shows (the seat's own view).

    Cards are named as the view shows them, so the words reveal no more than
    the view: a loot card to steal by its back, unless the view shows its front.
    """
    kind = act["type"]
    decision = view.get("decision") or {}
    at = decision.get("place")
    if kind == "place":
        return f"put a token on {_place(act['place'])}"
    if kind == "take_tools":
        return f"take {words.tools(act['tools'])} from the City"
    if kind == "steal":
        display = view.get(at, []) if at in ("villa", "museum") else []
        slot = act["slot"]
        card = display[slot] if 0 <= slot < len(display) else None
        what = loot(card)
        paying = _handing_in(card, act["pay"], bool(act.get("scoundrel"))) if card else \
            f"handing in {words.tools(act['pay'])}"
        return f"steal {what} from {_place(at)}, {paying}"
    if kind == "exchange":
        return f"exchange {words.tools(act['give'])} at the Ruin ({_rate(act['rate'])})"
    if kind == "sell":
        sold = words.listing([loot(_own_loot(view, i)) for i in act["loot"]])
        return f"sell {sold} to fence {act['fence']}"
    return f"pass at {_place(at)}" if at else "pass"


def move(act: Mapping[str, Any], view: Mapping[str, Any], who: str) -> str:
    """``who`` makes the action, as a sentence: "Hans takes two maps from the City."."""
    phrase = action(act, view)
    verb, _, rest = phrase.partition(" ")
    third = {"pass": "passes", "take": "takes", "put": "puts", "steal": "steals",
             "exchange": "exchanges", "sell": "sells"}.get(verb, verb)
    return f"{who} {third}{' ' + rest if rest else ''}."


__all__ = ["action", "event", "events", "fence", "loot", "loot_back", "loot_front", "move"]
