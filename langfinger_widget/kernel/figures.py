"""What each player did in a game, counted from its log: the end screen's figures.

Counted from a seat's redacted log (:meth:`~langfinger_widget.kernel.game.Game.log`),
so the counts show nothing that seat may not see: each is of a public act (a
steal, a sale, the tools paid or given at the Ruin are all done face up, R5.1,
R6.1, R8.1), never of what was drawn blind. Once the game is over, and only
then, each row also turns up that player's unsold loot: it is worth nothing
(R10.2) and hides nothing left to play for.

>>> import langfinger_widget as lf
>>> g = lf.Game.new(players=2, seed=3, start_player=0)
>>> while not g.is_over:
...     _ = g.play(g.legal_actions()[0])
>>> rows = figures(g, seat=0)
>>> sorted(rows[0])  # doctest: +NORMALIZE_WHITESPACE
['chests', 'exchanges', 'money_from_chests', 'money_from_sales', 'passes', 'sales', 'seat',
 'sold', 'steals', 'tools_spent', 'tools_taken', 'unsold']
"""

from __future__ import annotations

from typing import Any

from .cards import LOOT_CARDS
from .game import Game
from .tally import COUNTS, counts

__all__ = ["COUNTS", "counts", "figures"]


def figures(game: Game, seat: int | None) -> list[dict[str, Any]]:
    """:func:`counts` of ``seat``'s log and, once the game is over, each player's unsold loot
    (its fronts, without card ids: kind, value, protection and pictured tools)."""
    rows: list[dict[str, Any]] = list(counts(game.log(seat), game.num_players))
    if game.is_over:
        for row, player in zip(rows, game.state.players, strict=True):
            row["unsold"] = [{k: v for k, v in LOOT_CARDS[i].face().items() if k != "id"}
                             for i in player.loot]
    return rows
