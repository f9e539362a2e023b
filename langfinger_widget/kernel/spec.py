"""Langfinger in the registry of games (``lf.games.get("langfinger")``)."""

from ..games.protocol import GameSpec
from .cards import MAX_PLAYERS, MIN_PLAYERS
from .figures import figures
from .game import Game
from .state import VARIANTS

SPEC = GameSpec(
    name="langfinger",
    title="Langfinger (Sticky Fingers)",
    players=range(MIN_PLAYERS, MAX_PLAYERS + 1),
    Game=Game,
    rulings="R",
    rulings_file="RULINGS.md",
    players_ruling="R1.1",
    options={"variant": (tuple(VARIANTS), "R11")},
    figures=figures,
)
