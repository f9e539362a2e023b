"""What each seat did in a game of Oh My Goods!, counted from the log a seat may read: the
end screen's figures and the arena's (``SPEC.figures``).

>>> from langfinger_widget.games.goods import Game, GreedyBot
>>> g, bot = Game.new(players=2, seed=5), GreedyBot(seed=1)
>>> while not g.is_over:
...     s = g.to_move
...     _ = g.play(bot.choose(g.view(s), g.legal_actions(s)), s)
>>> rows = figures(g, None)
>>> [r["seat"] for r in rows], rows[0]["built"] == len(g.state["buildings"][0]) - 1
([0, 1], True)
"""

from __future__ import annotations

from typing import Any

from .game import Game


def figures(game: Game, seat: int | None) -> list[dict[str, Any]]:
    """One row a seat: mulligans, productions by mode, goods made, chain uses, cards
    supplied from hand, buildings built (and of which kind), Assistants hired, rounds.

    Counted from ``game.log(seat)`` (None: everything), so a seat's figures never name
    what it may not know."""
    cs = game.cards
    rows: list[dict[str, Any]] = [
        {"seat": s, "mulligans": 0, "efficient": 0, "sloppy": 0, "assistant_runs": 0,
         "goods_made": 0, "chains": 0, "supplied": 0, "built": 0, "hired": 0,
         "built_kinds": {}} for s in range(game.num_players)]
    for e in game.log(seat):
        kind = e["type"]
        if kind == "mulligan":
            rows[e["seat"]]["mulligans"] += 1
        elif kind == "produce":
            rows[e["seat"]]["assistant_runs" if e["mode"] == "assistant" else e["mode"]] += 1
        elif kind == "produced":
            rows[e["seat"]]["goods_made"] += e["goods"]
        elif kind == "chain":
            rows[e["seat"]]["chains"] += 1
            rows[e["seat"]]["goods_made"] += len(e["hand"]) + len(e["goods"])
        elif kind == "supply":
            rows[e["seat"]]["supplied"] += 1
        elif kind == "built":
            row = rows[e["seat"]]
            row["built"] += 1
            name = cs.cards[e["card"]].building.key
            row["built_kinds"][name] = row["built_kinds"].get(name, 0) + 1
        elif kind == "hired":
            rows[e["seat"]]["hired"] += 1
    return rows
