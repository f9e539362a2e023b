"""Records of any registered game but Langfinger, through the game protocol alone.

A game whose :class:`~langfinger_widget.games.GameSpec` has ``action_words`` writes and
reads records in the shape of docs/records.md: the header names the game (``game crooks``),
its seats and the seed it was dealt from; the body is one line a decision, in the game's own
words (``3. Ann place 6 up +effect``), then ``end``. Only full records (``view all``) so far:
a record replays from ``Game.new(players=, seed=)``, every decision checked by the rules.

>>> from langfinger_widget.games.crooks import Game
>>> g = Game.new(players=2, seed=4)
>>> _ = g.play({"type": "recruit", "hangout": "A"})
>>> text = write_game(g, date="2026-11-26")
>>> print(text.splitlines()[1], "/", text.splitlines()[-2])
game crooks / 1. "Player 1" recruit A
>>> read_game(text).game().to_dict() == g.to_dict()
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import games
from ..games.protocol import Action, GameSpec, GameState
from ..kernel.errors import IllegalAction, RecordError
from ..kernel.notation import one_line
from .syntax import (
    DATE,
    MAGIC,
    VERSION,
    label,
    listing,
    name_token,
    split_items,
    tokens_of,
    whole_number,
)


@dataclass(frozen=True)
class GameRecord:
    """A record of a game read and replayed: its header's facts and every decision."""

    game_name: str
    date: str
    names: tuple[str, ...]
    bots: tuple[str | None, ...]
    seed: int
    decisions: tuple[tuple[int, Action], ...]  # (seat, action), in order
    scores: tuple[int, ...] | None  # the header's result, when the game is over
    winners: tuple[int, ...] | None
    text: str

    @property
    def length(self) -> int:
        return len(self.decisions)

    def game(self, at: int | None = None) -> GameState:
        """The game after the first ``at`` decisions (None: all of them)."""
        spec = games.get(self.game_name)
        game: GameState = spec.Game.new(players=len(self.names), seed=self.seed)
        for seat, action in self.decisions[:at]:
            game.play(action, seat)
        return game


def _words(spec: GameSpec) -> Any:
    if spec.action_words is None:
        raise RecordError(0, f"{spec.title} has no record words (GameSpec.action_words): its "
                             f"games are not recorded")
    return spec.action_words


def _names(game: GameState) -> list[str]:
    players = game.view(None).get("players") or []
    return [str(p.get("name") or f"Seat {i}") if isinstance(p, dict) else f"Seat {i}"
            for i, p in enumerate(players)] or [f"Seat {i}" for i in range(game.num_players)]


def write_game(game: GameState, *, bots: Mapping[int, str] | None = None,
               date: str = "?", seat: int | None = None) -> str:
    """The full record of ``game`` (every decision since its deal), which :func:`read_game`
    replays. :class:`RecordError` if the game is not one dealt by ``Game.new(players=,
    seed=)`` and played on from there (a loaded position has no deal to replay from).

    ``seat``: that seat's record instead (:func:`read_seat_game` reads it), holding only what
    the seat saw: no seed, its own decisions in words, another seat's as ``?``, and after
    each decision the events as ``log(seat)`` shows them (``seen {...}``)."""
    spec = games.spec_of(game)
    write, _ = _words(spec)
    if seat is not None:
        return _write_seat(game, spec, seat, bots or {}, date)
    seed = getattr(game, "seed", None)
    start = game.copy()
    for _ in range(game.move_number):
        start.undo()
    dealt = spec.Game.new(players=game.num_players, seed=seed) if isinstance(seed, int) else None
    if dealt is None or json.dumps(dealt.to_dict()) != json.dumps(start.to_dict()):
        raise RecordError(0, f"this {spec.title} game was not dealt by Game.new(players, seed) "
                             f"and played on: a record replays from its seed")
    names = _names(game)
    lines = [*_header(spec, names, bots or {}, date), f"seed {seed}", "view all",
             _result(game), ""]
    for number, (seat, action) in enumerate(_history(game), 1):
        lines.append(f"{number}. {label(names[seat])} {write(action)}")
    lines.append("end")
    return "\n".join(lines) + "\n"


def _header(spec: GameSpec, names: list[str], bots: Mapping[int, str], date: str) -> list[str]:
    if not DATE.fullmatch(date):
        raise RecordError(0, f"date must be YYYY-MM-DD or '?', not {date!r}")
    lines = [f"{MAGIC} {VERSION}", f"game {spec.name}", f"date {date}"]
    for seat, name in enumerate(names):
        who = f"bot {bots[seat]}" if seat in bots else "human"
        lines.append(f"seat {seat} {one_line(json.dumps(name, ensure_ascii=False))} {who}")
    return lines


def _result(game: GameState) -> str:
    if not game.is_over:
        return "result unfinished"
    scores = [row["score"] for row in game.standings()]
    return (f"result score {listing([str(s) for s in scores])} "
            f"winners {listing([str(w) for w in game.winners])}")


def _seen(events: list[Any]) -> list[str]:
    return [f"seen {one_line(json.dumps(e, sort_keys=True, ensure_ascii=False))}"
            for e in events]


def _write_seat(game: GameState, spec: GameSpec, seat: int, bots: Mapping[int, str],
                date: str) -> str:
    """One seat's record (see :func:`write_game`): replayed from the game's start, each
    decision's events taken from ``log(seat)``, which the protocol redacts for the seat."""
    if isinstance(seat, bool) or not isinstance(seat, int) or \
            not 0 <= seat < game.num_players:
        raise RecordError(0, f"seat must be None or 0..{game.num_players - 1}, not {seat!r}")
    write, _ = _words(spec)
    history = _history(game)
    replay = game.copy()
    for _ in range(game.move_number):
        replay.undo()
    names = _names(game)
    lines = [*_header(spec, names, bots, date), f"view {seat}", _result(game), ""]
    seen = len(replay.log(seat))
    lines += _seen(replay.log(seat))
    for number, (decider, action) in enumerate(history, 1):
        words = write(action) if decider == seat else HIDDEN_ACTION
        lines.append(f"{number}. {label(names[decider])} {words}")
        replay.play(action, decider)
        log = replay.log(seat)
        lines += _seen(log[seen:])
        seen = len(log)
    lines.append("end")
    return "\n".join(lines) + "\n"


HIDDEN_ACTION = "?"  # another seat's decision in a seat's record: its events say what it saw


@dataclass(frozen=True)
class SeatGameRecord:
    """One seat's record of a game read (:func:`read_seat_game`): each decision's seat, its
    action when the seat made it (None for another's), and the events the seat saw."""

    game_name: str
    date: str
    names: tuple[str, ...]
    bots: tuple[str | None, ...]
    seat: int
    decisions: tuple[tuple[int, Action | None], ...]
    seen: tuple[tuple[dict[str, Any], ...], ...]  # [0]: before the first decision; [i]: after i
    scores: tuple[int, ...] | None
    winners: tuple[int, ...] | None
    text: str

    @property
    def length(self) -> int:
        return len(self.decisions)

    def log(self, at: int | None = None) -> list[dict[str, Any]]:
        """The events the seat had seen after the first ``at`` decisions (None: all): the
        game's ``log(seat)`` then."""
        upto = self.seen[: (len(self.seen) if at is None else at + 1)]
        return [e for events in upto for e in events]


def read_seat_game(text: str) -> SeatGameRecord:
    """Read one seat's record of a game other than Langfinger (``write_game(seat=)``);
    :class:`RecordError` names the line that fails. What the seat could not see is not in
    it, so it is read, not replayed: its own decisions are checked as the game's words."""
    lines, head, spec, found, names, bots, i = _read_header(text)
    line, rest = found["view"]
    if len(rest) != 1 or rest[0] == "all":
        raise RecordError(line, "a seat's record says 'view <seat>'")
    seat = whole_number(rest[0], "the seat", line)
    if seat >= len(names):
        raise RecordError(line, f"view {seat}: the header has seats 0..{len(names) - 1}")
    if "seed" in found:
        raise RecordError(found["seed"][0], "a seat's record holds no seed (it gives the "
                                            "deal away)")
    scores, winners = _read_result(found["result"])
    _, read = _words(spec)
    labels = [label(n) for n in names]
    decisions: list[tuple[int, Action | None]] = []
    seen: list[list[dict[str, Any]]] = [[]]
    ended = False
    for at in range(i + 1, len(lines)):
        line = at + 1
        raw = lines[at].strip()
        if not raw:
            continue
        if ended:
            raise RecordError(line, "nothing follows 'end'")
        if raw == "end":
            ended = True
            continue
        if raw.startswith("seen "):
            try:
                event = json.loads(raw[5:])
            except ValueError:
                event = None
            if not isinstance(event, dict) or not isinstance(event.get("type"), str):
                raise RecordError(line, "'seen' is followed by an event, a JSON object with "
                                        "a 'type'")
            seen[-1].append(event)
            continue
        toks = tokens_of(raw, line)
        decider = _decider(toks, line, len(decisions) + 1, labels, "(or '... ?'), 'seen {...}' "
                                                                   "or 'end'")
        action: Action | None = None
        if decider == seat:
            try:
                action = read(toks[2:])
            except ValueError as err:
                raise RecordError(line, str(err)[:200], _ruling(str(err), spec)) from None
        elif toks[2:] != [HIDDEN_ACTION]:
            raise RecordError(line, f"seat {seat}'s record shows another seat's decision as "
                                    f"'{HIDDEN_ACTION}', not {' '.join(toks[2:])[:40]!r}")
        decisions.append((decider, action))
        seen.append([])
    if not ended:
        raise RecordError(len(lines), "truncated: the record has no 'end'")
    return SeatGameRecord(spec.name, head, tuple(names), tuple(bots), seat, tuple(decisions),
                          tuple(tuple(s) for s in seen), scores, winners, text)


def _history(game: GameState) -> list[tuple[int, Action]]:
    """Each decision of the game's history with its seat, through the protocol (``deciders``
    and the actions the game keeps: ``history`` where the game has one)."""
    history = getattr(game, "history", None)
    if not isinstance(history, list) or len(history) != game.move_number:
        raise RecordError(0, f"{games.spec_of(game).title} keeps no history of its actions")
    return list(zip(game.deciders, history, strict=True))


HEADER = ("game", "date", "seat", "seed", "view", "result")


def _read_header(text: str) -> tuple[list[str], str, GameSpec,
                                      dict[str, tuple[int, list[str]]], list[str],
                                      list[str | None], int]:
    """The header of a record of a game other than Langfinger: its lines, date, game,
    header lines by key, seats' names and bots, and the index of the blank line after it."""
    if not isinstance(text, str):
        raise RecordError(0, f"a record is text, not {type(text).__name__}")
    lines = text.splitlines()
    if not lines or lines[0].split() != [MAGIC, str(VERSION)]:
        raise RecordError(1, f"not a record: the first line must be '{MAGIC} {VERSION}'")
    found: dict[str, tuple[int, list[str]]] = {}
    seats: list[tuple[int, list[str]]] = []
    i = 1
    while i < len(lines) and lines[i].strip():
        toks = tokens_of(lines[i], i + 1)
        i += 1
        if not toks:
            continue
        if toks[0] not in HEADER:
            raise RecordError(i, f"unknown header line {toks[0]!r}; the header of another "
                                 f"game than langfinger has {', '.join(HEADER)}")
        if toks[0] == "seat":
            seats.append((i, toks[1:]))
        elif toks[0] in found or len(toks) < 2:
            raise RecordError(i, f"the header gives {toks[0]!r} twice, or with no value")
        else:
            found[toks[0]] = (i, toks[1:])
    if i >= len(lines):
        raise RecordError(len(lines), "truncated: the record ends in its header")
    for key in ("game", "date", "view", "result"):
        if key not in found:
            raise RecordError(i, f"the header has no {key!r} line")
    line, rest = found["game"]
    if len(rest) != 1 or rest[0] not in games.names():
        raise RecordError(line, f"game must be one of {', '.join(games.names())}, "
                                f"not {' '.join(rest)!r}")
    spec = games.get(rest[0])
    try:
        _words(spec)
    except RecordError as err:
        raise RecordError(line, err.why) from None
    line, rest = found["date"]
    if len(rest) != 1 or not DATE.fullmatch(rest[0]):
        raise RecordError(line, f"date must be YYYY-MM-DD or '?', not {' '.join(rest)!r}")
    names: list[str] = []
    bots: list[str | None] = []
    for n, (line, rest) in enumerate(seats):
        if len(rest) < 3 or rest[0] != str(n) or (rest[2:] != ["human"] and (
                len(rest) != 4 or rest[2] != "bot")):
            raise RecordError(line, f"expected 'seat {n} \"name\" human|bot <level>'")
        names.append(name_token(rest[1], line))
        bots.append(None if rest[2] == "human" else rest[3])
    if len(names) not in spec.players:
        raise RecordError(seats[-1][0] if seats else i, f"{spec.players_ruling or spec.rulings}"
                          f": {spec.title} has {spec.players.start} to {spec.players.stop - 1} "
                          f"players; the header has {len(names)}", spec.players_ruling or None)
    return lines, found["date"][1][0], spec, found, names, bots, i


def _read_result(found: tuple[int, list[str]]
                 ) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    line, rest = found
    if rest == ["unfinished"]:
        return None, None
    if len(rest) != 4 or rest[0] != "score" or rest[2] != "winners":
        raise RecordError(line, "result is 'unfinished' or 'score 30,21 winners 0'")
    return (tuple(whole_number(s, "a score", line) for s in split_items(rest[1])),
            tuple(whole_number(w, "a winner's seat", line) for w in split_items(rest[3])))


def read_game(text: str) -> GameRecord:
    """Read and replay the record of a game other than Langfinger; :class:`RecordError`
    names the line that fails (a misspelled line, an illegal decision, a wrong result)."""
    lines, date, spec, found, names, bots, i = _read_header(text)
    _, read = _words(spec)
    if found["view"][1] != ["all"]:
        raise RecordError(found["view"][0], "this is one seat's record (view <seat>): "
                                            "read it with read_seat_game")
    if "seed" not in found:
        raise RecordError(i, "the header has no 'seed' line")
    line, rest = found["seed"]
    seed = whole_number(rest[0], "the seed", line)
    scores, winners = _read_result(found["result"])
    game: GameState = spec.Game.new(players=len(names), seed=seed)
    decisions: list[tuple[int, Action]] = []
    labels = [label(n) for n in names]
    ended = False
    for at in range(i + 1, len(lines)):
        line = at + 1
        toks = tokens_of(lines[at], line)
        if not toks:
            continue
        if ended:
            raise RecordError(line, "nothing follows 'end'")
        if toks == ["end"]:
            ended = True
            continue
        seat = _decider(toks, line, len(decisions) + 1, labels, "or 'end'")
        try:
            action = read(toks[2:])
            game.play(action, seat)
        except (ValueError, IllegalAction) as err:
            raise RecordError(line, str(err)[:200], _ruling(str(err), spec)) from None
        decisions.append((seat, action))
    if not ended:
        raise RecordError(len(lines), "truncated: the record has no 'end'")
    if scores is not None:
        got = tuple(row["score"] for row in game.standings())
        if not game.is_over or got != scores or tuple(game.winners) != winners:
            raise RecordError(found["result"][0], f"the result says scores {list(scores)}, "
                                                  f"winners {list(winners or ())}; the game "
                                                  f"gives {list(got)}, {game.winners}")
    elif game.is_over:
        raise RecordError(found["result"][0], "the game is over: the result must say so")
    return GameRecord(spec.name, date, tuple(names), tuple(bots), seed, tuple(decisions),
                      scores, winners, text)


def _decider(toks: list[str], line: int, number: int, labels: list[str], besides: str
             ) -> int:
    """The seat of decision line ``number`` (its tokens ``toks``), checked."""
    head = toks[0]
    if not (head.endswith(".") and head[:-1].isdigit()) or len(toks) < 3:
        raise RecordError(line, f"expected a decision ('{number}. Ann <action>') {besides}, "
                                f"not {' '.join(toks)[:60]!r}")
    if whole_number(head[:-1], "the decision number", line) != number:
        raise RecordError(line, f"decision {number} is numbered {head}")
    who = label(name_token(toks[1], line))
    if who not in labels:
        raise RecordError(line, f"{who} is no seat of the header")
    return labels.index(who)


def _ruling(reason: str, spec: GameSpec) -> str | None:
    head = reason.split(":", 1)[0]
    return head if head.startswith(spec.rulings) and head[len(spec.rulings):][:1].isdigit() \
        else None


__all__ = ["GameRecord", "SeatGameRecord", "read_game", "read_seat_game", "write_game"]
