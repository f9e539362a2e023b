"""Crooks (Neil Crowley, White Goblin Games 2012) for 2 to 4 players: the second game.

Master criminals pay to look through a hangout's pile of crooks, keep one and
send it face up, or face down for $1 more, to one of eight targets; at the end
each target pays its strongest seat and each gang the seat that hired most of
it. The rules are RULINGS-crooks.md's (cited ``C4.6``); docs/crooks.md teaches
the game, the action and position formats and the deck.

>>> import langfinger_widget as lf
>>> lf.crooks.CROOKS["K01"].special, lf.crooks.SPEC.players
('kingpin', range(2, 5))
"""

from __future__ import annotations

from ..protocol import GameSpec
from .cards import CROOKS, Crook, load_deck
from .encoding import action_ids, observation
from .figures import figures as seat_figures
from .game import Game
from .greedy import GreedyBot
from .words import action_text, read_action

__all__ = ["CROOKS", "SPEC", "Crook", "Game", "GreedyBot", "load_deck"]

SPEC = GameSpec(
    name="crooks",
    title="Crooks",
    players=range(2, 5),
    Game=Game,
    rulings="C",
    rulings_file="RULINGS-crooks.md",
    greedy=GreedyBot,
    players_ruling="C1.1",
    figures=seat_figures,
    action_words=(action_text, read_action),
    action_ids=action_ids,
    observation=observation,
)
