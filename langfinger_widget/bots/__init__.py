"""Bots that play Langfinger from a seat's view: random, greedy and ISMCTS.

Every bot implements :class:`Bot` — ``choose(view, legal) -> action`` — and is
seeded at construction. It is given what a player at that seat sees
(``Game.view(seat)``) and the legal actions, never the game itself:

>>> import langfinger_widget as lf
>>> g = lf.Game.new(players=2, seed=1)
>>> bot = lf.bots.make("greedy", seed=0)
>>> bot.choose(g.view(g.to_move), g.legal_actions()) in g.legal_actions()
True
"""

from __future__ import annotations

from typing import Any

from .base import Action, Bot, View
from .determinize import Determinizer, determinize
from .greedy import GreedyBot
from .ismcts import ISMCTSBot
from .random_bot import RandomBot

BOTS: dict[str, type[RandomBot] | type[GreedyBot] | type[ISMCTSBot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "ismcts": ISMCTSBot,
}


def make(name: str, seed: int = 0, **budget: Any) -> Bot:
    """A bot by name (``random``, ``greedy``, ``ismcts``), seeded.

    ``budget`` goes to the bot: ``iterations=`` or ``time=`` (seconds a move)
    for ISMCTS, plus its tuning knobs; the other bots take none.
    """
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; bots are {sorted(BOTS)}")
    if name != "ismcts" and budget:
        raise ValueError(f"the {name} bot takes no budget, got {sorted(budget)}")
    return BOTS[name](seed=seed, **budget)


__all__ = [
    "BOTS", "Action", "Bot", "Determinizer", "GreedyBot", "ISMCTSBot", "RandomBot", "View",
    "determinize", "make",
]
