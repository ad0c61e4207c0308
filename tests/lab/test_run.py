"""Running experiments: reproducible rows, resume after a kill, extension, bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from gamenight.cli import main
from gamenight.lab import ExperimentError, load, load_rows, parse_experiment, read_experiment
from gamenight.lab.run import run

ROOT = Path(__file__).resolve().parents[2]

TINY = """
name = "tiny"
game = "centrix"
players = 2
seats = ["greedy", "random"]
games = {games}
seed = 3
first = "alternate"
rules = {{ max_turns = 150 }}
[grid]
bottom = ["protect", "floor"]
"""


def comparable(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows without their timing, in game order."""
    out = [{k: v for k, v in r.items() if k != "seconds"} for r in rows]
    return sorted(out, key=lambda r: (r["index"], r["variant"]))


def test_a_tiny_experiment_runs_with_standings_after_every_turn(tmp_path: Path) -> None:
    experiment = parse_experiment(TINY.format(games=2))
    outcome = run(experiment, tmp_path / "run")
    assert (outcome.played, outcome.total) == (4, 4)
    _, rows = load_rows(tmp_path / "run")
    assert {(r["variant"], r["index"]) for r in rows} == {
        (v, i) for v in ("bottom=protect", "bottom=floor") for i in range(2)
    }
    for r in rows:
        assert r["seed"] == experiment.game_seed(r["index"])
        assert r["first"] == r["index"] % 2
        assert len(r["standings"]) == r["turns"] > 0
        assert all(len(turn) == 2 for turn in r["standings"])
        assert {"bumps", "leapfrogs", "rotations", "passes"} <= set(r["counts"])
    frame = load(tmp_path / "run")
    assert len(frame) == 4
    assert {"variant", "winner", "first_won", "n_bumps", "lead_changes"} <= set(frame.columns)


def test_a_finished_run_extends_with_the_same_first_games(tmp_path: Path) -> None:
    experiment = parse_experiment(TINY.format(games=2))
    run(experiment, tmp_path / "short")
    outcome = run(experiment, tmp_path / "short", games=3)
    assert outcome.played == 2
    run(parse_experiment(TINY.format(games=3)), tmp_path / "long")
    assert comparable(load_rows(tmp_path / "short")[1]) == comparable(
        load_rows(tmp_path / "long")[1]
    )
    assert run(experiment, tmp_path / "short", games=3).played == 0


def test_a_run_killed_mid_way_resumes_in_a_later_process(tmp_path: Path) -> None:
    path = tmp_path / "tiny.toml"
    # Enough games that the kill lands part of the way through even on the compiled core,
    # where a tiny game takes a few milliseconds.
    games = 150
    path.write_text(TINY.format(games=games), "utf-8")
    out = tmp_path / "killed"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    command = [sys.executable, "-m", "gamenight", "lab", "run", str(path), "--out", str(out)]
    process = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL)
    results = out / "results.jsonl"
    try:
        while process.poll() is None:
            if results.exists() and results.read_bytes().count(b"\n") >= 3:
                break
            time.sleep(0.01)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait()
    _, before = load_rows(out)
    assert 3 <= len(before) < 2 * games, "the run was to be killed part of the way through"
    # A torn last line, as a kill in the middle of a write leaves it.
    with results.open("ab") as f:
        f.write(b'{"variant": "bottom=pro')
    outcome = run(read_experiment(path), out)
    assert outcome.played == 2 * games - len(before)
    run(read_experiment(path), tmp_path / "straight")
    assert comparable(load_rows(out)[1]) == comparable(load_rows(tmp_path / "straight")[1])


def test_a_directory_of_another_experiment_is_refused(tmp_path: Path) -> None:
    run(parse_experiment(TINY.format(games=1)), tmp_path / "run")
    other = parse_experiment(TINY.format(games=1).replace("seed = 3", "seed = 4"))
    with pytest.raises(ExperimentError, match="different experiment"):
        run(other, tmp_path / "run")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("game = 'chess'\ngames = 1\nseats = 'x'", "unknown game 'chess'"),
        ("game = 'centrix'\ngames = 0\nseats = 'greedy'", "games must be at least 1"),
        ("game = 'centrix'\ngames = 1", "seats names no bot"),
        ("game = 'centrix'\ngames = 1\nseats = 'wizard'", "no centrix bot called 'wizard'"),
        ("game = 'centrix'\ngames = 1\nseats = 'greedy'\nrules = {bottom = 'lava'}", "lava"),
        ("game = 'centrix'\ngames = 1\nseats = ['greedy']\nplayers = 2", "1 seats listed"),
        ("game = 'centrix'\ngames = 1\nseats = 'greedy'\nplayers = 9", "2–6 players"),
        ("game = 'centrix'\ngames = 1\nseats = 'greedy'\nlevels = 3", "unknown key"),
        ("game = 'centrix'\ngames = 1\nseats = 'greedy'\n[metric]\nseat = 5", "metric.seat"),
        ("game = 'centrix'\ngames = 1\nseats = 'greedy'\n[grid]\nbottom = []", "grid.bottom"),
        ("game = 'colorcity'\ngames = 1\nseats = 'simple'\nrules = {powers = 'x'}", "powers"),
        ("game = [", "not TOML"),
    ],
)
def test_a_bad_experiment_is_refused_naming_the_fault(text: str, problem: str) -> None:
    with pytest.raises(ExperimentError, match=problem):
        parse_experiment(text)


def test_the_command_line_names_the_file_of_a_bad_experiment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("game = 'centrix'\ngames = 1", "utf-8")
    assert main(["lab", "run", str(path), "--out", str(tmp_path / "out")]) == 2
    assert f"{path}: variant 'rulebook': seats names no bot" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
    assert main(["lab", "show", str(tmp_path)]) == 2
    assert "is not a lab run" in capsys.readouterr().err


def test_two_processes_give_the_same_rows_as_one(tmp_path: Path) -> None:
    experiment = parse_experiment(TINY.format(games=2))
    run(experiment, tmp_path / "one")
    assert run(experiment, tmp_path / "two", workers=2).played == 4
    assert comparable(load_rows(tmp_path / "two")[1]) == comparable(load_rows(tmp_path / "one")[1])


def test_an_out_path_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("x", "utf-8")
    with pytest.raises(ExperimentError, match="cannot hold a lab run"):
        run(parse_experiment(TINY.format(games=1)), tmp_path / "taken")
    assert (tmp_path / "taken").read_text("utf-8") == "x"


def test_a_results_file_with_a_foreign_line_is_refused_naming_it(tmp_path: Path) -> None:
    run(parse_experiment(TINY.format(games=1)), tmp_path / "run")
    with (tmp_path / "run" / "results.jsonl").open("a") as f:
        f.write('{"variant": "bottom=floor", "index": 5}\n')
    with pytest.raises(ExperimentError, match=r"line 3: not a results row \(no actions, counts"):
        load_rows(tmp_path / "run")


def test_extending_with_fewer_games_counts_every_game_in_the_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 29: --games 1500 on a folder of 3,000 games per variant printed "0 games played
    # now, 4500 in run-c3" while the file held 9,000 rows.
    path = tmp_path / "tiny.toml"
    path.write_text(TINY.format(games=3), "utf-8")
    out = tmp_path / "run"
    assert main(["lab", "run", str(path), "--out", str(out)]) == 0
    capsys.readouterr()
    outcome = run(read_experiment(path), out, games=1)
    assert (outcome.played, outcome.total) == (0, 6)
    assert outcome.per_variant == {"bottom=protect": 3, "bottom=floor": 3}
    assert main(["lab", "run", str(path), "--out", str(out), "--games", "1"]) == 0
    err = capsys.readouterr().err
    assert f"0 games played now; {out} holds 3 games per variant, 6 in all" in err
    assert len(load_rows(out)[1]) == 6


def test_the_bench_prints_both_rates_their_ratio_and_where_they_were_measured(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tiny.toml"
    path.write_text(TINY.format(games=2), "utf-8")
    assert main(["lab", "bench", str(path), "--games", "2", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["plain_games"] == figures["sequential_games"] == 2 * 2 * 2  # twice a mode
    ratio = figures["sequential_games_per_s"] / figures["plain_games_per_s"]
    assert figures["ratio"] == pytest.approx(ratio, rel=0.01)
    assert figures["core"] in ("compiled", "pure")
    assert {"commit", "cpu", "cores", "load", "clock"} <= set(figures)
    assert main(["lab", "bench", str(path), "--games", "2"]) == 0
    assert "ratio" in capsys.readouterr().out
