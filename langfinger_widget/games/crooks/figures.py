"""What each seat did in a game of Crooks, counted from the log a seat may read: the end
screen's figures and the arena's (``SPEC.figures``).

>>> from langfinger_widget.games.crooks import Game, GreedyBot
>>> g, bot = Game.new(players=2, seed=5), GreedyBot(seed=1)
>>> while not g.is_over:
...     _ = g.play(bot.choose(g.view(g.to_move), g.legal_actions()))
>>> rows = figures(g, None)
>>> [r["seat"] for r in rows], rows[0]["recruits"] == sum(e["type"] == "recruit" and e["seat"] == 0
...                                                        for e in g.log(None))
([0, 1], True)
"""

from __future__ import annotations

from typing import Any

from .cards import GANGS, SPECIALS
from .game import Game


def figures(game: Game, seat: int | None) -> list[dict[str, Any]]:
    """One row a seat: its recruits, crooks placed face up and down or sent to the box
    (C3.4), each special it took (kept) and used (placed with its effect, C4.3), its kills
    and the crooks it lost to Killers (C4.6), and, once over, each gang it controls (C6.4).

    Counted from ``game.log(seat)`` (None: everything), so a seat's figures never name what
    it may not know: another seat's crook kept and never shown counts as no special."""
    deck = game.state.deck
    rows: list[dict[str, Any]] = []
    for s in range(game.num_players):
        row: dict[str, Any] = {"seat": s, "recruits": 0, "face_up": 0, "face_down": 0,
                               "to_box": 0, "kills": 0, "killed": 0}
        row.update({f"took_{name}": 0 for name in SPECIALS})
        row.update({f"used_{name}": 0 for name in SPECIALS})
        row.update({f"controls_{gang}": 0 for gang in GANGS})
        rows.append(row)
    for event in game.log(seat):
        kind, who = event["type"], int(event.get("seat", -1))
        crook = event.get("crook")
        special = deck[crook].special if isinstance(crook, str) and crook in deck else None
        if kind == "recruit":
            rows[who]["recruits"] += 1
        elif kind == "keep":
            rows[who]["to_box"] += bool(event.get("to_box"))
            if special is not None:
                rows[who][f"took_{special}"] += 1
        elif kind == "place":
            rows[who]["face_up" if event["face"] == "up" else "face_down"] += 1
            if special is not None and event["effect"]:
                rows[who][f"used_{special}"] += 1
        elif kind == "kill":
            rows[who]["kills"] += 1
            rows[event["victim"]]["killed"] += event["count"]
        elif kind == "over":
            for standing in event["standings"]:
                for gang, points in standing["by_gang"].items():
                    rows[standing["seat"]][f"controls_{gang}"] += points > 0
    return rows
