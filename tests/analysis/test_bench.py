"""The analysis benchmark's set-up: the game it times and what it reports beside the time."""

from __future__ import annotations

from gamenight.bench.analysis import TURNS, long_centrix_game, machine


def test_the_benchmark_times_a_four_player_game_of_about_450_turns() -> None:
    game = long_centrix_game(0)
    assert game.num_players == 4
    assert game.is_over
    assert TURNS[0] <= game.turn <= TURNS[1]


def test_every_figure_names_its_commit_core_and_machine() -> None:
    about = machine()
    assert set(about) >= {"commit", "core", "machine"}
    assert about["core"] in ("compiled", "pure Python")
    assert "cores" in about["machine"]
