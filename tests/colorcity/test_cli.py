"""``gamenight colorcity play / replay / bench``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from gamenight.bots.registry import game_bots
from gamenight.cli import main
from gamenight.cli.colorcity import _describe
from gamenight.colorcity import ColorCityState, Gang, Shot, replay


def test_bench_json_prints_the_issues_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["colorcity", "bench", "--json", "--repeat", "1"]) == 0
    figures = json.loads(capsys.readouterr().out)
    # Issue 17's keys; ``pure.`` is the settings before it, timed in the same run.
    assert set(figures) == {"flicks_per_s", "distance_error_pct", "pure.flicks_per_s", "ratio"}
    assert figures["flicks_per_s"] > 0
    assert figures["pure.flicks_per_s"] > 0
    ratio = figures["flicks_per_s"] / figures["pure.flicks_per_s"]
    assert figures["ratio"] == pytest.approx(ratio, abs=0.01)
    assert 0 <= figures["distance_error_pct"] < 1.0


def test_bench_workers_times_the_flicks_over_processes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["colorcity", "bench", "--json", "--repeat", "1", "--workers", "2"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["workers.2.flicks_per_s"] > 0
    assert figures["workers.2.ratio"] > 0


def test_bench_steps_measures_the_step_cap_margin(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["colorcity", "bench", "--json", "--repeat", "1", "--steps", "8"]) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    assert steps["flicks"] == 8
    assert 0 < steps["mean_steps"] <= steps["most_steps"] < 10_000
    assert steps["us_per_mjdata"] > 0


def test_bench_text_prints_the_error_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["colorcity", "bench", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "flicks/s" in out
    assert "worst error" in out
    assert out.count("\n") > 14


def test_play_a_short_game_against_the_bot(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = [
        "0 0 9 0",  # out of range: refused, asked again
        "0 0 1.3 0",
        "n",  # not this one
        "0 0 1.3 0",
        "y",
        "pass",
        "10 0 1.4 0",
        "",
        "lucky-day",
        "-10 0 1.2 0",
        "y",
        "0 5 1.35 0",
        "yes",
    ]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    record = tmp_path / "game.json"
    args = ["colorcity", "play", "--seed", "5", "--plain", "--max-turns", "6"]
    assert main([*args, "--skill", "exact", "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "speed must be from 0.1 to 3 m/s" in out
    # D24 moved the flick: 0.8 mm farther (D19 slid 0.9 mm short at 1.3 m/s).
    assert out.count("Without noise the cube stops at (-0.0, -26.5) mm, covering e4.") == 2
    assert "Bot (purple)" in out
    assert "Game over after 6 turns" in out
    state = replay(record.read_text())
    assert state.is_over
    assert state.turn == 6
    assert main(["colorcity", "replay", str(record), "--plain"]) == 0
    assert "Game over after 6 turns" in capsys.readouterr().out


def test_play_stops_at_the_end_of_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["colorcity", "play", "--seed", "1", "--gang", "purple", "--first", "green"]) == 0
    assert "Bot (green)" in capsys.readouterr().out


def test_play_asks_again_on_an_unclear_answer_and_says_when_it_is_left(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = ["[/]", "0 0 1.3 0", "maybe", "help", "n", "help"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["colorcity", "play", "--seed", "5", "--plain"]) == 0
    out = capsys.readouterr().out
    assert "not '[/]'" in out  # refused like any unreadable shot
    assert "'maybe': answer y (or Enter) to pitch it, n to choose another" in out
    assert "Your hand added" not in out  # neither 'maybe' nor 'help' pitched the shot
    assert out.count("Example: 0 0 1.3 0.") == 3  # the greeting, then each 'help'
    assert out.rstrip().endswith("Game left unfinished.")
    for script in ("quit\n", "0 0 1.3 0\nquit\n", ""):
        monkeypatch.setattr("sys.stdin", io.StringIO(script))
        assert main(["colorcity", "play", "--seed", "5", "--plain"]) == 0
        assert capsys.readouterr().out.rstrip().endswith("Game left unfinished.")


def test_a_game_left_unfinished_is_recorded_as_far_as_it_went(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("0 0 1.3 0\ny\nquit\n"))
    record = tmp_path / "game.json"
    argv = ["colorcity", "play", "--seed", "5", "--plain", "--record", str(record)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Game left unfinished." in out
    assert f"Record written to {record}." in out
    state = replay(record.read_text())
    assert not state.is_over
    assert state.actions[0].shot == Shot.parse("0 0 1.3 0")  # the pitch made before leaving


def test_play_against_the_bot_you_choose(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    argv = ["colorcity", "play", "--seed", "1", "--gang", "purple", "--first", "green", "--plain"]
    assert main([*argv, "--bot", "nobody"]) == 2
    assert "no colorcity bot called 'nobody'" in capsys.readouterr().err
    # The same first shot as the registry's level-1 bot seeded with the game's seed.
    assert main([*argv, "--bot", "level1"]) == 0
    out = capsys.readouterr().out
    state = ColorCityState.new(
        seed=1, first=Gang.GREEN, seats=[(Gang.GREEN, "normal"), (Gang.PURPLE, "normal")]
    )
    shot = game_bots("colorcity").bot("level1", state.seed).choose(state.view(state.pitcher))
    done = state.push(shot)
    assert f"Bot (green): {_describe(done)}" in out


def test_bad_record_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["colorcity", "replay", str(bad)]) == 2
    assert "record format" in capsys.readouterr().err
