"""The arena: seat rotation, reproducible games, statistics, outputs, and the Ray backend."""

from __future__ import annotations

import csv
import json
import os
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from langfinger_widget.study import arena, cli
from langfinger_widget.study.arena import (
    BotSpec,
    parse_bots,
    play_game,
    run_local,
    summarize,
    wilson,
)


def _outcome(r: arena.GameResult) -> tuple[object, ...]:
    """A game's result without its timings."""
    return (r.index, r.seed, r.bots, r.scoundrels, r.money, r.winners, r.rounds, r.decisions)


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0
    low, high = wilson(90, 100)
    assert low < 0.9 < high and high - low < 0.13


def test_parse_bots_reads_names_and_budgets() -> None:
    specs = parse_bots("ismcts:time=0.5,greedy,random")
    assert [s.name for s in specs] == ["ismcts", "greedy", "random"]
    assert specs[0].budget == (("time", 0.5),)
    assert specs[0].label == "ismcts(time=0.5)"
    assert parse_bots("ismcts,greedy", {"iterations": 30})[0].budget == (("iterations", 30),)
    assert parse_bots("greedy,random", {"iterations": 30})[0].budget == ()
    # The fallback budget: only for an ISMCTS bot given neither iterations nor time.
    fallback = {"iterations": 150.0}
    assert parse_bots("ismcts,greedy", None, fallback)[0].budget == (("iterations", 150),)
    assert parse_bots("ismcts:time=0.5,greedy", None, fallback)[0].budget == (("time", 0.5),)
    assert parse_bots("ismcts,greedy", {"time": 1.0}, fallback)[0].budget == (("time", 1.0),)
    assert parse_bots("ismcts:iterations=9,greedy", None, fallback)[0].budget == (
        ("iterations", 9),)
    with pytest.raises(ValueError, match="unknown bot"):
        parse_bots("greedy,oracle")
    with pytest.raises(ValueError, match="2 to 5"):
        parse_bots("greedy")


def test_seats_rotate_and_games_repeat_exactly() -> None:
    specs = [BotSpec("greedy"), BotSpec("random")]
    first = [play_game(specs, 3, i) for i in range(4)]
    assert [r.bots for r in first] == [["greedy", "random"], ["random", "greedy"]] * 2
    again = [play_game(specs, 3, i) for i in range(4)]
    assert [_outcome(r) for r in first] == [_outcome(r) for r in again]
    assert all(r.winners and max(r.money) >= 20 for r in first)  # R10.1: games end at 20


def test_three_bots_sit_in_every_seat() -> None:
    specs = parse_bots("ismcts:iterations=5,greedy,random")
    seats = [play_game(specs, 1, i).bots for i in range(3)]
    for label in ("ismcts(iterations=5)", "greedy", "random"):
        assert sorted(s.index(label) for s in seats) == [0, 1, 2]


def test_worker_processes_give_the_same_games() -> None:
    specs = parse_bots("greedy,random")
    alone = run_local(specs, 4, seed=2, jobs=1, progress=False)
    pooled = run_local(specs, 4, seed=2, jobs=2, progress=False)
    assert [_outcome(r) for r in alone] == [_outcome(r) for r in pooled]


def test_summary_counts_wins_money_seats_and_scoundrels() -> None:
    results = run_local(parse_bots("greedy,random"), 6, seed=5, jobs=1, progress=False)
    s = summarize(results)
    bots = s["bots"]
    assert bots["greedy"]["games"] == bots["random"]["games"] == 6
    assert bots["greedy"]["wins"] + bots["random"]["wins"] == pytest.approx(6)
    assert bots["greedy"]["win_rate"] > bots["random"]["win_rate"]
    assert bots["greedy"]["avg_money"] == pytest.approx(
        sum(r.money[r.bots.index("greedy")] for r in results) / 6)
    assert sum(rate["games"] for rate in s["seats"].values()) == 12
    assert sum(rate["games"] for rate in s["scoundrels"].values()) == 12
    assert s["avg_rounds"] == pytest.approx(sum(r.rounds for r in results) / 6)
    low, high = bots["greedy"]["ci95"]
    assert low <= bots["greedy"]["win_rate"] <= high


def test_command_line_prints_and_writes_csv_and_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_csv, out_json = tmp_path / "games.csv", tmp_path / "games.json"
    code = cli.main(["--bots", "greedy,random", "--games", "3", "--seed", "1",
                       "--csv", str(out_csv), "--json", str(out_json), "--no-progress"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "greedy" in printed and "by seat" in printed and "by scoundrel" in printed
    with open(out_csv, encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 6 and {r["bot"] for r in rows} == {"greedy", "random"}
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert len(data["games"]) == 3 and data["summary"]["games"] == 3
    assert cli.main(["--bots", "greedy,nobody", "--no-progress"]) == 2


@pytest.mark.quiet
def test_ray_backend_plays_the_same_games() -> None:
    """Ray on a real local node. Its start has limits no setting moves (the node must
    register within 30 s), so the suite runs this in a stage of its own on a quiet machine
    (the ``quiet`` marker; ``./scripts/test`` runs that stage last). Under CI Ray is part of
    the test extra, and a missing Ray is a failure, not a skip."""
    if os.environ.get("CI"):
        import ray
    else:
        ray = pytest.importorskip("ray", reason="Ray is not installed (pip install -e .[test])")
    specs = parse_bots("greedy,random")
    try:
        remote = arena.run_ray(specs, 3, seed=4, num_cpus=2, progress=False)
    finally:
        ray.shutdown()
    local = run_local(specs, 3, seed=4, jobs=1, progress=False)
    assert [_outcome(r) for r in remote] == [_outcome(r) for r in local]


def test_ray_starts_with_the_slow_machine_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """start_ray raises Ray's start-up limits unless the caller set them, and a node that
    missed the fixed registration wait is shut down and started once more."""
    for name in arena.RAY_SLOW_MACHINE:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("RAY_gcs_rpc_server_connect_timeout_s", "7")
    calls: list[str] = []

    def init(**options: Any) -> None:
        calls.append("init")
        if len(calls) == 1:
            raise Exception("The current node timed out during startup.")

    ray = types.SimpleNamespace(init=init, shutdown=lambda: calls.append("shutdown"))
    arena.start_ray(ray)
    assert calls == ["init", "shutdown", "init"]
    given = {name: os.environ[name] for name in arena.RAY_SLOW_MACHINE}
    assert given["RAY_gcs_rpc_server_connect_timeout_s"] == "7"  # the caller's own
    assert given["RAY_worker_register_timeout_seconds"] == "120"

    def never(**options: Any) -> None:
        raise Exception("The current node timed out during startup.")

    with pytest.raises(Exception, match="timed out"):
        arena.start_ray(types.SimpleNamespace(init=never, shutdown=lambda: None), attempts=1)


# --- Elo ratings and the ladder (issue 13) -----------------------------------------------------


def test_elo_fit_recovers_known_ratings() -> None:
    """Results drawn from known Elo ratings fit back to them, within the bootstrap interval."""
    import random

    from langfinger_widget.study import elo

    truth = {"a": 0.0, "b": 150.0, "c": 300.0}
    rng = random.Random(7)
    results = []
    for x, y in (("a", "b"), ("b", "c"), ("a", "c")):
        p = 1 / (1 + 10 ** ((truth[y] - truth[x]) / 400))
        results += [(x, y, 1.0 if rng.random() < p else 0.0) for _ in range(400)]
    rated = elo.rate(["a", "b", "c"], results, rounds=200, seed=1)
    for name, value in truth.items():
        low, high = rated.ci95[name]
        assert low <= rated.elo[name] <= high
        assert abs(rated.elo[name] - value) <= 1.5 * (high - low) + 1  # about 3 standard errors
    gap, low, high = rated.gaps["b"]
    assert low <= gap <= high and gap == pytest.approx(rated.elo["b"] - rated.elo["a"])
    assert len(rated.table()) == 4


def test_elo_draws_count_half_and_a_shutout_stays_finite() -> None:
    from langfinger_widget.study import elo

    even = elo.fit(["x", "y"], [("x", "y", 0.5)] * 50)
    assert even["y"] == pytest.approx(0.0, abs=1e-6)
    shutout = elo.fit(["x", "y"], [("x", "y", 0.0)] * 50)
    assert 400 < shutout["y"] < 1200  # the prior's virtual draw keeps it finite
    with pytest.raises(ValueError, match="not rated"):
        elo.fit(["x"], [("x", "z", 1.0)])


def test_pairwise_results_compare_money_within_each_game() -> None:
    results = run_local(parse_bots("greedy,random"), 4, seed=3, jobs=1, progress=False)
    pairs = arena.pairwise(results)
    assert len(pairs) == 4
    for r, (a, b, score) in zip(results, pairs, strict=True):
        ahead = r.money[r.bots.index(a)] - r.money[r.bots.index(b)]
        assert score == (1.0 if ahead > 0 else 0.5 if ahead == 0 else 0.0)
    s = arena.with_elo(summarize(results), results, ["random", "greedy"], rounds=50)
    assert s["elo"]["ratings"]["random"] == 0.0 and s["elo"]["ratings"]["greedy"] > 0


def test_levels_play_in_the_arena_and_the_ladder_reports_them() -> None:
    from langfinger_widget.study import ladder

    assert parse_bots("easy,medium")[0] == BotSpec("easy")
    matches = ladder.play(["easy", "medium"], 2, seed=1, jobs=1, progress=False)
    summary = ladder.summarize(["easy", "medium"], matches, rounds=20)
    assert [m["games"] for m in summary["matches"]] == [2]
    assert set(summary["cpu"]) == {"easy", "medium"}
    assert all(c["slowest_s"] >= c["per_move_s"] >= 0 for c in summary["cpu"].values())
    assert summary["elo"]["ratings"]["easy"] == 0.0
    lines: list[str] = []
    ladder.report(summary, lines.append)
    assert any("Elo" in line for line in lines)
    assert ladder.schedule(["a", "b", "c"]) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert ladder.schedule(["a", "b", "c"], "adjacent") == [("a", "b"), ("b", "c")]
    with pytest.raises(ValueError, match="levels"):
        ladder.play(["easy", "grandmaster"], 1, seed=1, jobs=1, progress=False)


def test_command_line_elo_and_ladder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert cli.main(["--bots", "greedy,random", "--games", "2", "--elo", "--no-progress"]) == 0
    assert "Elo" in capsys.readouterr().out
    out = tmp_path / "ladder.json"
    assert cli.main(["--ladder", "easy,medium", "--games", "2", "--no-progress",
                       "--json", str(out)]) == 0
    assert "gap to previous" in capsys.readouterr().out
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved["summary"]["levels"] == ["easy", "medium"] and len(saved["games"]) == 1
    assert cli.main(["--ladder", "easy", "--games", "1", "--no-progress"]) == 2


# --- the bare command, its progress bar and Ray's start -------------------------------------


def test_bare_command_plays_the_one_minute_match(monkeypatch: pytest.MonkeyPatch) -> None:
    """No arguments: ISMCTS, greedy and random, the default games, a small ISMCTS budget
    (the size that finishes in about a minute, measured in docs/bots.md)."""
    asked: list[tuple[list[str], int]] = []

    def fake_run(specs: list[BotSpec], games: int, *_: Any, **__: Any) -> list[Any]:
        asked.append(([s.label for s in specs], games))
        return []

    monkeypatch.setattr(cli, "run_local", fake_run)
    assert cli.main(["--no-progress"]) == 0
    budget = f"ismcts(iterations={arena.DEFAULT_ITERATIONS})"
    assert asked == [([budget, "greedy", "random"], arena.DEFAULT_GAMES)]
    asked.clear()
    assert cli.main(["--time", "0.2", "--no-progress"]) == 0
    assert asked[0][0][0] == "ismcts(time=0.2)"  # a time budget is not capped by iterations


def test_progress_bar_shows_an_eta(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--bots", "greedy,random", "--games", "2"]) == 0
    bar = capsys.readouterr().err
    assert "games:" in bar and "2/2" in bar and "ETA" in bar, bar


def _fake_ray(calls: list[str], err: Callable[[], str]) -> types.ModuleType:
    """Just enough of Ray to run the arena's games in this process, noting when ``init``
    is called and what the screen showed by then."""
    ray = types.ModuleType("ray")
    state = {"up": False}

    def init(**_: Any) -> None:
        calls.append(f"init after: {err()!r}")
        state["up"] = True

    def remote(fn: Callable[..., Any]) -> Any:
        return types.SimpleNamespace(remote=lambda *a: fn(*a))

    ray.is_initialized = lambda: state["up"]  # type: ignore[attr-defined]
    ray.init = init  # type: ignore[attr-defined]
    ray.remote = remote  # type: ignore[attr-defined]
    ray.wait = lambda pending, num_returns: (pending[:num_returns], pending[num_returns:])  # type: ignore[attr-defined]
    ray.get = list  # type: ignore[attr-defined]
    return ray


def test_ray_backend_says_it_is_starting_ray(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Ray's start takes seconds (a minute on a busy machine): the screen says so before,
    and how long it took after, instead of a silent wait before the first game."""
    calls: list[str] = []
    said: list[str] = []

    def err_so_far() -> str:
        said.append(capsys.readouterr().err)
        return "".join(said)

    monkeypatch.setitem(sys.modules, "ray", _fake_ray(calls, err_so_far))
    results = arena.run_ray(parse_bots("greedy,random"), 2, seed=4, progress=True)
    assert len(results) == 2
    assert len(calls) == 1 and "starting Ray" in calls[0], calls
    said.append(capsys.readouterr().err)
    after = "".join(said).split("starting Ray", 1)[1]
    assert "Ray ready after" in after, after
    arena.run_ray(parse_bots("greedy,random"), 1, seed=4, progress=False)
    assert "Ray" not in capsys.readouterr().err  # --no-progress: quiet


# --- the command lines check every argument before the first game (issue 29) ----------------------


@pytest.fixture
def no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game played would mean an argument was checked too late (its results then lost)."""
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a game was played before every argument was checked")

    monkeypatch.setattr(arena, "play_game", refuse)
    monkeypatch.setattr(arena, "run_local", refuse)
    monkeypatch.setattr(cli, "run_local", refuse)
    monkeypatch.setattr("langfinger_widget.study.ladder.run_local", refuse)


def _exit_status(main: Callable[[list[str]], int], argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as e:  # argparse's own refusals (not a number) exit here
        return int(e.code or 0)


def _bad_arguments(tmp_path: Path) -> list[list[str]]:
    a_file = tmp_path / "a-file.txt"
    a_file.write_text("x")
    return [
        ["--time", "nan"], ["--time", "inf"], ["--time", "0"], ["--time", "-1"],
        ["--iterations", "0"], ["--iterations", "x"], ["--games", "0"], ["--games", "-3"],
        ["--jobs", "0"], ["--jobs", "-1"], ["--records", ""], ["--records", str(a_file)],
        ["--records", str(a_file / "deeper")], ["--csv", str(tmp_path)],
        ["--csv", str(tmp_path / "missing" / "games.csv")], ["--json", str(tmp_path)],
        ["--json", str(tmp_path / "missing" / "games.json")], ["--csv", ""],
        ["--bots", "ismcts:time=nan,greedy"], ["--bots", "ismcts:iterations=0,greedy"],
        ["--bots", "ismcts:iterations=nan,greedy"], ["--bots", "ismcts:time=fast,greedy"],
        ["--bots", "ismcts:c=inf,random"], ["--bots", "greedy:blunders=2,random"],
        ["--bots", "ismcts:width=3,random"], ["--bots", "ismcts:depth=-1,random"],
        ["--bots", "ismcts:depth=2.5,random"], ["--ladder", "easy,medium", "--jobs", "0"],
        ["--ladder", "easy,medium", "--json", str(tmp_path)], ["--ladder", "easy,oracle"],
    ]


def test_every_bad_argument_is_one_line_and_status_2_before_any_game(
        tmp_path: Path, no_games: None, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in _bad_arguments(tmp_path):
        status = _exit_status(cli.main, [*argv, "--no-progress"])
        said = capsys.readouterr()
        assert status == 2, argv
        lines = said.err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("arena: "), (argv, said.err)
        assert "Traceback" not in said.err and said.out == ""


def test_the_study_checks_every_argument_before_any_game(
        tmp_path: Path, no_games: None, capsys: pytest.CaptureFixture[str]) -> None:
    from langfinger_widget.study import balance as study

    a_file = tmp_path / "a-file.txt"
    a_file.write_text("x")
    for argv in (["--bot", "ismcts:time=nan"], ["--bot", "ismcts:iterations=0"],
                 ["--bot", "oracle"], ["--jobs", "0"], ["--out", ""], ["--out", str(a_file)],
                 ["--games", "0"], ["--games", "x"], ["--players", "2,9"]):
        status = _exit_status(study.main, [*argv, "--backend", "local"])
        said = capsys.readouterr()
        assert status == 2, argv
        lines = said.err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("study: "), (argv, said.err)
    assert a_file.read_text() == "x"
