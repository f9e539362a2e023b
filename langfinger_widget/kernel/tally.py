"""What each player did, counted from events: the end screen's figures (figures.py) and the
money by source of ``Game.standings``. Apart from figures.py, which reads a ``Game``, so that
the game can count with it too."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

COUNTS = ("steals", "chests", "sales", "sold", "exchanges", "passes", "tools_taken",
          "tools_spent", "money_from_chests", "money_from_sales")


def _size(value: Any) -> int:
    return len(value) if isinstance(value, list) else 0


def counts(events: Iterable[Mapping[str, Any]], players: int) -> list[dict[str, int]]:
    """One row per seat: steals, chests cashed, sales and cards sold, Ruin exchanges,
    passes, tools taken at the City, tools spent (paid for loot or given at the Ruin),
    and the money that chests and sales brought."""
    rows = [dict.fromkeys(COUNTS, 0) | {"seat": seat} for seat in range(players)]
    for event in events:
        seat = event.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < players:
            continue
        row, kind = rows[seat], event.get("type")
        if kind == "steal":
            row["steals"] += 1
            row["tools_spent"] += _size(event.get("paid"))
        elif kind == "cash":
            row["chests"] += 1
            row["money_from_chests"] += int(event.get("gained", 0))
        elif kind == "sell":
            row["sales"] += 1
            row["sold"] += _size(event.get("loot"))
            row["money_from_sales"] += int(event.get("gained", 0))
        elif kind == "exchange":
            row["exchanges"] += 1
            row["tools_spent"] += _size(event.get("gave"))
        elif kind == "take_tools":
            row["tools_taken"] += _size(event.get("tools"))
        elif kind == "pass":
            row["passes"] += 1
    return rows
