"""The registry of games (``lf.games``): every floor above the games finds a game here.

>>> from langfinger_widget import games
>>> "langfinger" in games.names()
True
>>> games.get("langfinger").players
range(2, 6)

Each game's package defines ``SPEC`` (a :class:`GameSpec`); the registry imports a game only
when it is first asked for, so that loading the package stays cheap.
"""

from __future__ import annotations

import importlib

from ..errors import BadArgument
from .protocol import Action, Event, GameSpec, GameState

__all__ = ["Action", "Event", "GameSpec", "GameState", "built_in", "get", "names", "register",
           "spec_of"]

# name -> the module whose SPEC describes it; order is the order games are offered in.
_BUILTIN: dict[str, str] = {
    "langfinger": "langfinger_widget.kernel.spec",
    "crooks": "langfinger_widget.games.crooks",
    "goods": "langfinger_widget.games.goods",
}
_loaded: dict[str, GameSpec] = {}


def names() -> tuple[str, ...]:
    """The registered games' names, the flagship first."""
    return tuple(dict.fromkeys([*_BUILTIN, *_loaded]))


def get(name: str) -> GameSpec:
    """The game called ``name``; :class:`BadArgument` names the games there are."""
    if not isinstance(name, str) or (name not in _BUILTIN and name not in _loaded):
        raise BadArgument(f"no game {name!r}: the games are {', '.join(names())}")
    if name not in _loaded:
        spec = importlib.import_module(_BUILTIN[name]).SPEC
        if not isinstance(spec, GameSpec) or spec.name != name:
            raise BadArgument(f"{_BUILTIN[name]}.SPEC does not describe the game {name!r}")
        _loaded[name] = spec
    return _loaded[name]


def register(spec: GameSpec) -> None:
    """Add a game (a user's own, or one under test) to the registry."""
    if not isinstance(spec, GameSpec):
        raise BadArgument(f"register takes a GameSpec, not {type(spec).__name__}")
    _loaded[spec.name] = spec


def built_in(spec: GameSpec) -> bool:
    """Whether ``spec`` is the package's own game of its name: one that another process,
    which registered nothing, has too (the game server's bots think in such processes)."""
    module = _BUILTIN.get(spec.name)
    return module is not None and importlib.import_module(module).SPEC is spec


def spec_of(game: object) -> GameSpec:
    """The registered game that ``game`` (a game in progress) is one of."""
    for name in names():
        spec = get(name)
        if isinstance(game, spec.Game):
            return spec
    raise BadArgument(f"{type(game).__name__} is no registered game: lf.games.register it")
