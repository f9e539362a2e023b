"""Langfinger in the registry of games (``lf.games.get("langfinger")``)."""

from ..games.protocol import GameSpec
from .cards import MAX_PLAYERS, MIN_PLAYERS
from .game import Game

SPEC = GameSpec(
    name="langfinger",
    title="Langfinger (Sticky Fingers)",
    players=range(MIN_PLAYERS, MAX_PLAYERS + 1),
    Game=Game,
    rulings="R",
    rulings_file="RULINGS.md",
)
