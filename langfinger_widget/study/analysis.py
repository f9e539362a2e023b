"""``lf.analyse``: every decision of one seat, rated by the search bot from what that seat saw.

For each decision of ``seat`` in a record, the search bot (ISMCTS at a level
of :data:`~langfinger_widget.bots.LEVELS`, ``hard`` by default) is given the
seat's view at that moment and its legal actions, as in a game, never more:

* ``before``: the seat's estimated win chance in the position (the search's
  mean over its sampled futures);
* ``best`` / ``best_chance``: the move the bot prefers and its win chance;
* ``after``: the win chance of the move actually played (a second search
  that starts every sampled future with it);
* ``loss``: how much the played move gives away against the bot's choice,
  and ``doubtful`` when that is more than ``threshold``;
* ``too_late``: for a token placed where the tokens ahead may use up all
  the place shows before it acts, the kernel's sentence saying so
  (:mod:`~langfinger_widget.kernel.late`), else None.

Any other registered game (Crooks) is analysed from its record (``records.write_game``, a
``GameRecord`` or its text) through the game protocol alone: before each decision of the
seat the game is replayed to that point, and the search (ISMCTS on ``resample`` twins,
``TwinSearch``) is given the seat's view, its legal actions and a twin re-dealt from what
the seat has seen; the rows are the same, ``move`` and ``best`` in the game's record words,
``round`` and ``too_late`` None.

The chances are estimates from a budgeted search: a deeper budget
(``expert``) gives steadier figures. Analysis runs as a generator that
yields between small pieces of search (:func:`analysis_steps`), so a board
can run it on the event loop while it stays responsive; :func:`analyse`
runs it through with a progress bar.

>>> import langfinger_widget as lf
>>> g = lf.Game.new(players=2, seed=1, start_player=0)
>>> for _ in range(4):
...     _ = g.play(g.legal_actions()[0])
>>> rows = lf.analyse(g.record(seat=0, date="2025-06-01"), 0, bot="ismcts", iterations=20,
...                   progress=False)
>>> [r["decision"] for r in rows], sorted(rows[0])[:4]
([1, 3], ['action', 'after', 'before', 'best'])
"""

from __future__ import annotations

import importlib
import random
import sys
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

from .. import games
from ..bots import make
from ..bots.base import SEARCH_PIECE
from ..games.protocol import Action, GameState
from ..kernel import describe, rules
from ..kernel.errors import BadArgument
from ..records import GameRecord, Record, read_game
from ..records.reading import as_record
from ..records.syntax import MAGIC
from ..tables.scheduler import at_once

Row = dict[str, Any]
DEFAULT_THRESHOLD = 0.1  # a move that gives away more than 10 points of win chance is marked


def searcher(bot: Any, seed: int, budget: dict[str, Any], game: str = "langfinger") -> Any:
    """The searching bot: a level or ``"ismcts"`` by name (with ``budget``), or a bot object."""
    made = make(bot, seed=seed, game=game, **budget) if isinstance(bot, str) else bot
    if not hasattr(made, "search"):
        raise BadArgument(f"analysis needs a searching bot (hard, expert or ismcts): {bot!r} "
                         "only picks moves and cannot rate them")
    return made


def _run(search: Any) -> Generator[None, None, None]:
    while not search.done:
        search.run(SEARCH_PIECE)
        yield


def rate(bot: Any, view: dict[str, Any], legal: list[dict[str, Any]], played: dict[str, Any]
         ) -> Generator[None, None, tuple[float, dict[str, Any], float, float]]:
    """(before, best action, its chance, the played move's chance) from one seat's view."""
    search = bot.search(view, legal)
    yield from _run(search)
    best, best_chance = search.best()
    before = search.value()
    if rules.action_key(best) == rules.action_key(played):
        return before, best, best_chance, best_chance
    forced = bot.search(view, legal, first=played)
    yield from _run(forced)
    return before, best, best_chance, forced.value()


def other_game(source: Any) -> GameRecord | None:
    """``source`` as the record of a game other than Langfinger (a :class:`GameRecord`, or
    its text or file, whose header names the game), else None."""
    if isinstance(source, GameRecord):
        return source
    if isinstance(source, Record):
        return None
    text = source
    if isinstance(source, Path) or (isinstance(source, str) and not source.startswith(MAGIC)
                                    and "\n" not in source):
        text = Path(source).read_text(encoding="utf-8")
    if not isinstance(text, str):
        return None
    for line in text.splitlines()[1:]:
        if not line.strip():
            break
        words = line.split()
        if words[0] == "game" and words[1:] != ["langfinger"]:
            return read_game(text)
    return None


def _check(seat: Any, players: int, threshold: float) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise BadArgument(f"seat must be 0..{players - 1}, not {seat!r}")
    if not 0 <= threshold <= 1:
        raise BadArgument(f"threshold is a share of win chance from 0 to 1, not {threshold!r}")


def analysis_steps(record: Record | GameRecord | str | Path, seat: int, bot: Any = "hard", *,
                   threshold: float = DEFAULT_THRESHOLD, seed: int = 0,
                   progress: Callable[[int, int], None] | None = None, **budget: Any
                   ) -> Generator[None, None, list[Row]]:
    """The analysis as a computation that yields between pieces of search; returns the rows.

    The arguments are checked at once (``ValueError``), before any search runs.
    """
    other = other_game(record)
    if other is not None:
        _check(seat, len(other.names), threshold)
        engine = searcher(bot, seed, budget, other.game_name)
        if not hasattr(engine, "search_twin"):
            raise BadArgument(f"analysis of {other.game_name} needs a bot that searches twins "
                              f"(hard, expert or ismcts), not {bot!r}")
        return _twin_steps(other, seat, engine, threshold, seed, progress)
    rec = as_record(record)  # type: ignore[arg-type]
    players = len(rec.header.seats)
    _check(seat, players, threshold)
    if rec.seat is not None and rec.seat != seat:
        raise BadArgument(f"this record holds only what seat {rec.seat} saw: analyse seat "
                         f"{rec.seat}, not {seat}")
    return _steps(rec, seat, searcher(bot, seed, budget), threshold, progress)


def _steps(rec: Record, seat: int, engine: Any, threshold: float,
           progress: Callable[[int, int], None] | None) -> Generator[None, None, list[Row]]:
    mine = [i for i, s in enumerate(rec.deciders) if s == seat]
    rows: list[Row] = []
    for n, i in enumerate(mine):
        played = rec.actions[i]
        # The bot sees what the seat saw then, and the seat's own legal actions: nothing more.
        view, legal = rec.view(i, seat), rec.legal(i)
        before, best, best_chance, after = yield from rate(engine, view, legal, played)
        loss = max(0.0, best_chance - after)
        rows.append({
            "decision": i + 1, "index": i, "line": rec.lines[i], "round": view["round"],
            "seat": seat, "move": describe.action(played, view), "action": played,
            "before": before, "after": after, "best": describe.action(best, view),
            "best_action": best,
            "best_chance": best_chance, "loss": loss,
            "doubtful": loss > threshold and rules.action_key(best) != rules.action_key(played),
            "too_late": _too_late(view, played),
        })
        if progress is not None:
            progress(n + 1, len(mine))
    return rows


def rate_twin(bot: Any, twin: GameState, seat: int, legal: list[Action], played: Action
              ) -> Generator[None, None, tuple[float, Action, float, float]]:
    """:func:`rate` for any game: the searches run on ``resample`` twins of ``twin``."""
    search = bot.search_twin(twin, seat, legal)
    yield from _run(search)
    best, best_chance = search.best()
    before = search.value()
    if _same(best, played):
        return before, best, best_chance, best_chance
    forced = bot.search_twin(twin, seat, legal, first=played)
    yield from _run(forced)
    return before, best, best_chance, forced.value()


def _same(a: Action, b: Action) -> bool:
    return sorted(a.items()) == sorted(b.items())


def _twin_steps(rec: GameRecord, seat: int, engine: Any, threshold: float, seed: int,
                progress: Callable[[int, int], None] | None) -> Generator[None, None, list[Row]]:
    spec = games.get(rec.game_name)
    words = spec.action_words[0] if spec.action_words is not None else str
    lines = rec.text.splitlines()
    mine = [i for i, (s, _) in enumerate(rec.decisions) if s == seat]
    game = rec.game(at=0)
    rows: list[Row] = []
    done = 0
    for i, (decider, played) in enumerate(rec.decisions):
        if decider == seat:
            # The bot gets the seat's view, its legal actions and a twin re-dealt from what
            # the seat had seen then: nothing more (the real game stays here).
            legal = game.legal_actions(seat)
            twin = game.resample(seat, random.Random(f"analysis:{seed}:{i}"))
            before, best, best_chance, after = yield from rate_twin(engine, twin, seat, legal,
                                                                    played)
            loss = max(0.0, best_chance - after)
            rows.append({
                "decision": i + 1, "index": i,
                "line": next((n + 1 for n, text in enumerate(lines)
                              if text.startswith(f"{i + 1}. ")), None),
                "round": None, "seat": seat, "move": words(played), "action": played,
                "before": before, "after": after, "best": words(best), "best_action": best,
                "best_chance": best_chance, "loss": loss,
                "doubtful": loss > threshold and not _same(best, played), "too_late": None,
            })
            done += 1
            if progress is not None:
                progress(done, len(mine))
        game.play(played, decider)
    return rows


def _too_late(view: dict[str, Any], played: dict[str, Any]) -> str | None:
    """The kernel's warning the board showed for the square this token took, if any."""
    if played.get("type") != "place":
        return None
    late: dict[str, str] = (view.get("decision") or {}).get("too_late") or {}
    return late.get(played["place"])


def analyse(record: Record | GameRecord | str | Path, seat: int, bot: Any = "hard", *,
            threshold: float = DEFAULT_THRESHOLD, seed: int = 0, progress: bool = True,
            frame: bool = False, **budget: Any) -> Any:
    """Rate every decision of ``seat`` in ``record`` (see the module docstring).

    Returns a list of dicts, one per decision of the seat (a pandas DataFrame
    with ``frame=True``). ``bot`` is ``"hard"``, ``"expert"``, ``"ismcts"``
    with a budget (``iterations=``), or a searching bot. ``progress`` shows a
    tqdm bar on long records when tqdm is installed. ``record`` may be any registered
    game's (a :class:`GameRecord` or its text, ``records.write_game``).
    """
    rec: Record | GameRecord = other_game(record) or as_record(record)  # type: ignore[arg-type]
    bar: Any = None
    report = None
    if progress:
        deciders = [s for s, _ in rec.decisions] if isinstance(rec, GameRecord) \
            else rec.deciders
        bar = _bar(sum(s == seat for s in deciders))
        if bar is not None:
            def report(done: int, total: int) -> None:
                bar.update(done - bar.n)
    try:
        rows = at_once(analysis_steps(rec, seat, bot, threshold=threshold, seed=seed,
                                      progress=report, **budget))
    finally:
        if bar is not None:
            bar.close()
    if frame:
        try:
            pandas = importlib.import_module("pandas")
        except ImportError:
            raise ImportError("frame=True needs pandas (pip install pandas); the rows are "
                              "plain dicts without it") from None
        return pandas.DataFrame(rows)
    return rows


def _bar(total: int) -> Any:
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc="analysing", unit="decision", file=sys.stderr, miniters=1)


__all__ = ["DEFAULT_THRESHOLD", "analyse", "analysis_steps", "other_game", "rate", "rate_twin"]
