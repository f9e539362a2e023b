"""The balance study (issue 15): its statistics, one tiny run end to end, the stored results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from langfinger_widget.study import arena
from langfinger_widget.study import balance as study

STORED = Path(__file__).resolve().parents[2] / "docs" / "study"


def games(folder: Path) -> dict[int, list[study.Row]]:
    """A stored study's games, all but the thinking time (which differs from run to run)."""
    return {n: [{k: v for k, v in r.items() if k != "think_s"} for r in rows]
            for n, rows in study.load(folder).items()}


def _row(game: int, seat: int, won: int, winners: int, money: int, scoundrel: str) -> study.Row:
    return {"game": game, "seed": 1, "seat": seat, "bot": "greedy", "scoundrel": scoundrel,
            "money": money, "won": won, "winners": winners, "rounds": 8 + game,
            "decisions": 90, "think_s": 0.0}


def test_a_shared_win_counts_one_over_the_winners() -> None:
    rows = [_row(0, 0, 1, 1, 22, "hans"), _row(0, 1, 0, 1, 10, "bobby"),
            _row(1, 0, 1, 2, 21, "bobby"), _row(1, 1, 1, 2, 21, "hans")]
    s = study.summarize({2: rows})["2"]
    assert s["games"] == 2 and s["shared_wins"] == 0.5
    assert s["seats"]["0"]["win_rate"] == 0.75 and s["seats"]["1"]["win_rate"] == 0.25
    assert s["scoundrels"]["hans"]["win_rate"] == 0.75
    low, high = s["seats"]["0"]["ci95"]
    assert low < 0.75 < high
    assert s["rounds"]["mean"] == 8.5 and s["winner_money"]["min"] == 21


def test_one_command_plays_stores_and_plots(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    summary = study.run(tmp_path, "greedy", games=3, seed=4, backend="local", jobs=1,
                        counts=[2, 3])
    assert set(summary) == {"2", "3"} and summary["3"]["games"] == 3
    for name in ("games_2p.csv", "games_3p.csv", "summary.json", "meta.json", "seats.png",
                 "scoundrels.png", "rounds.png", "money.png"):
        assert (tmp_path / name).stat().st_size > 0, name
    meta = json.loads((tmp_path / "meta.json").read_text())
    assert meta["bot"] == "greedy" and set(meta["runs"]) == {"2", "3"}
    assert json.loads((tmp_path / "summary.json").read_text()) == summary


def test_a_study_grows_a_player_count_at_a_time_with_the_same_bot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    study.run(tmp_path, "greedy", games=2, seed=4, backend="local", jobs=1, counts=[2])
    summary = study.run(tmp_path, "greedy", games=3, seed=4, backend="local", jobs=1,
                        counts=[5])
    assert {n: s["games"] for n, s in summary.items()} == {"2": 2, "5": 3}
    runs = json.loads((tmp_path / "meta.json").read_text())["runs"]
    assert {n: r["games"] for n, r in runs.items()} == {"2": 2, "5": 3}
    before = (tmp_path / "games_2p.csv").read_text()
    for bot, seed in (("random", 4), ("greedy", 5)):  # another study: refused, nothing changes
        with pytest.raises(ValueError, match="holds a study of 'greedy' from seed 4"):
            study.run(tmp_path, bot, games=1, seed=seed, backend="local", jobs=1, counts=[2])
    assert (tmp_path / "games_2p.csv").read_text() == before


@pytest.mark.parametrize("bot", ["expert", "hard", "greedy"])
def test_the_stored_summary_follows_from_the_stored_games(bot: str) -> None:
    folder = STORED / bot
    stored = json.loads((folder / "summary.json").read_text())
    assert study.summarize(study.load(folder)) == stored
    meta = json.loads((folder / "meta.json").read_text())
    data = study.load(folder)
    assert meta["bot"] == bot and set(meta["runs"]) == set(stored)  # each count says how
    assert f"--out docs/study/{bot}" in meta["reproduce"]
    n = 2  # replay the 2-player game that took the least thinking: it depends on its seed alone
    think = {r["game"]: 0.0 for r in data[n]}
    for r in data[n]:
        think[r["game"]] += r["think_s"]
    index = min(think, key=think.__getitem__)
    specs = arena.parse_bots(",".join([meta["bot"]] * n))
    replay = arena.play_game(specs, meta["seed"] + n, index)
    game = [r for r in data[n] if r["game"] == index]
    assert replay.money == [r["money"] for r in game]
    assert replay.rounds == game[0]["rounds"]


def test_games_per_player_count_and_one_command_that_reproduces_them(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "s"
    args = ["--bot", "greedy", "--players", "2,3", "--games", "2,3", "--backend", "local",
            "--jobs", "1", "--seed", "9", "--out", str(out)]
    assert study.main(args) == 0
    meta = json.loads((out / "meta.json").read_text())
    assert {n: r["games"] for n, r in meta["runs"].items()} == {"2": 2, "3": 3}
    assert meta["reproduce"] == (f"python -m langfinger_widget.study --bot greedy --seed 9 "
                                 f"--players 2,3 --games 2,3 --backend ray --out {out}")
    again = tmp_path / "again"
    assert study.main([*args[:-1], str(again)]) == 0  # the same games, wherever they go

    assert games(again) == games(out)
    assert meta["runs"]["2"]["command"] == " ".join(["python -m langfinger_widget.study", *args])
    for bad in (["--players", "2,3", "--games", "1,2,3"], ["--players", "1,6"],
                ["--players", "two"], ["--games", "0"]):
        with pytest.raises(SystemExit):
            study.main([*bad, "--out", str(tmp_path / "x")])
    assert not (tmp_path / "x").exists()


def test_a_grown_study_holds_the_same_games_as_one_played_at_once(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")

    once, grown = tmp_path / "once", tmp_path / "grown"
    study.run(once, "greedy", games=4, seed=3, backend="local", jobs=1, counts=[2])
    study.run(grown, "greedy", games=1, seed=3, backend="local", jobs=1, counts=[2])
    study.run(grown, "greedy", games=4, seed=3, backend="local", jobs=1, counts=[2], grow=True)
    assert games(grown) == games(once)
    run = json.loads((grown / "meta.json").read_text())["runs"]["2"]
    assert run["games"] == 4 and [(p["first"], p["games"]) for p in run["parts"]] == [(0, 1),
                                                                                       (1, 3)]
    assert run["seconds"] == round(sum(p["seconds"] for p in run["parts"]), 1)
    assert run["commit"] == study.code_commit() == run["parts"][-1]["commit"]  # what played
    before = (grown / "games_2p.csv").read_text()
    meta_before = (grown / "meta.json").read_text()
    study.run(grown, "greedy", games=4, seed=3, backend="local", jobs=1, counts=[2], grow=True)
    assert (grown / "games_2p.csv").read_text() == before  # all stored: nothing played
    assert json.loads((grown / "meta.json").read_text())["runs"] == json.loads(meta_before)["runs"]
    with pytest.raises(ValueError, match="4 games are stored; --grow adds games"):
        study.run(grown, "greedy", games=3, seed=3, backend="local", jobs=1, counts=[2],
                  grow=True)
    (grown / "games_2p.csv").write_text(before.rsplit("\n", 3)[0] + "\n")  # game 3 torn off
    with pytest.raises(ValueError, match="does not hold games 0-3"):
        study.run(grown, "greedy", games=5, seed=3, backend="local", jobs=1, counts=[2],
                  grow=True)
    assert (grown / "games_2p.csv").read_text() == before.rsplit("\n", 3)[0] + "\n"


def test_the_arena_plays_any_stretch_of_a_match() -> None:
    specs = arena.parse_bots("greedy,random")
    whole = arena.run_local(specs, 3, seed=7, jobs=1, progress=False)
    tail = arena.run_local(specs, 2, seed=7, jobs=1, progress=False, first=1)
    assert [(r.index, r.money) for r in tail] == [(r.index, r.money) for r in whole[1:]]
