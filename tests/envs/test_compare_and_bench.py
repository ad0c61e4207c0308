"""The comparison and speed commands behind docs/ai.md, run small."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gamenight.cli import main
from gamenight.envs import bench
from gamenight.envs.compare import GameResult, play_game, summarise


def test_a_comparison_game_is_played_to_the_end_with_seats_swapped() -> None:
    first = play_game(0, seconds=0.01, seed=1, max_turns=4)
    second = play_game(1, seconds=0.01, seed=1, max_turns=4)
    assert (first.gamenight_seat, second.gamenight_seat) == (0, 1)
    for result in (first, second):
        assert sum(result.returns) == pytest.approx(0.0)
        assert result.reason in ("finished", "turn_cap", "stalemate")
        assert result.plays > 0
        assert result.openspiel_simulations >= 2  # OpenSpiel's bot really searched


def result(seat: int, returns: tuple[float, float]) -> GameResult:
    return GameResult(0, seat, returns, "finished", 10, 1.0, 3.0, 100.0)


def test_the_summary_counts_wins_from_gamenights_seat_and_draws_as_half() -> None:
    results = [result(0, (1.0, -1.0)), result(1, (1.0, -1.0)), result(1, (0.0, 0.0))]
    summary = summarise(results)
    assert summary["gamenight_wins"] == 1.5
    assert summary["win_rate"] == pytest.approx(0.5)
    low, high = summary["interval95"]
    assert 0.0 < low < 0.5 < high < 1.0


def test_the_compare_command_writes_every_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "compare.json"
    code = main(
        [
            "envs",
            "compare",
            "--games",
            "2",
            "--seconds",
            "0.01",
            "--max-turns",
            "3",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    data = json.loads(out.read_text())
    assert data["summary"]["games"] == 2
    assert [g["gamenight_seat"] for g in data["games"]] == [0, 1]
    assert json.loads(capsys.readouterr().out)["games"] == 2


def test_the_bench_measures_every_interface_against_the_engine() -> None:
    figures = bench.run(seconds=0.0)
    assert set(figures) == {"centrix", "colorcity"}
    for by_interface in figures.values():
        native = by_interface["native"]
        assert len(by_interface) == 4
        for row in by_interface.values():
            assert row["plays_per_s"] > 0
            assert row["actions_per_play"] >= 0.5
            assert row["overhead"] > 0
        assert native["overhead"] == 1.0
    # What the adapters count: a Centrix card play is three or four decisions (PettingZoo),
    # and OpenSpiel adds the chance nodes of the deal and the refills; a Color City step is
    # one move, and OpenSpiel adds a noise chance node after each pitch (not after a power).
    centrix, colorcity = figures["centrix"], figures["colorcity"]
    assert 3.0 <= centrix["pettingzoo"]["actions_per_play"] <= 4.0
    assert centrix["openspiel"]["actions_per_play"] > 3.0
    assert colorcity["pettingzoo"]["actions_per_play"] == 1.0
    assert 1.0 < colorcity["openspiel"]["actions_per_play"] <= 2.0
