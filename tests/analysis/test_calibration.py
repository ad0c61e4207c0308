"""The calibration of the analysis' chance to win: its figures, and a short run of it."""

from __future__ import annotations

import pytest

from gamenight.analysis.calibration import POINTS, Game, brier, fit, play, reliability, summary
from gamenight.analysis.report import tempered


def constant(chance: tuple[float, ...], outcome: tuple[float, ...], game: str = "centrix") -> Game:
    return Game(game, len(chance), 3, (chance,) * POINTS, outcome, (chance,) * POINTS)


def test_the_reliability_table_counts_each_seats_chance_in_its_tenth() -> None:
    games = [constant((0.75, 0.25), (1.0, 0.0)), constant((0.75, 0.25), (0.0, 1.0))]
    table = reliability(games)
    assert table[7].predictions == table[2].predictions == 2 * POINTS
    assert table[7].mean == pytest.approx(0.75)
    assert table[7].observed == pytest.approx(0.5)
    assert table[2].observed == pytest.approx(0.5)
    assert sum(t.predictions for t in table) == 4 * POINTS


def test_brier_against_the_uniform_guess() -> None:
    two = constant((0.75, 0.25), (1.0, 0.0))
    assert brier([two], 0) == (pytest.approx(0.125), pytest.approx(0.5))
    four = constant((0.25,) * 4, (0.0, 1.0, 0.0, 0.0))
    assert brier([four], 0) == (pytest.approx(0.75), pytest.approx(0.75))


def test_tempering_keeps_the_order_and_sums_to_one() -> None:
    made = tempered((0.9, 0.1, 0.0), 0.02, 0.8)
    assert sum(made) == pytest.approx(1)
    assert made[0] > made[1] > made[2] > 0
    assert made[0] < 0.9  # pulled in from the extremes


def test_a_short_calibration_run() -> None:
    games = play(4, 2, seed=3, levels=(3,), colorcity_levels=(2,))
    assert [g.game for g in games] == ["centrix"] * 4 + ["colorcity"] * 2
    assert [g.players for g in games[:4]] == [2, 4, 2, 4]
    for game in games:
        assert len(game.chances) == len(game.until_won) == POINTS
        assert sum(game.outcome) == pytest.approx(1)
    for game in games[:4]:
        assert len(game.decided) == POINTS
        for row, fact in zip(game.chances, game.decided, strict=True):
            if fact:  # after the winner finished: plain fact, never tempered when shown
                assert row == game.outcome
    assert any(any(g.decided) for g in games[1:4:2])  # four players play on for places
    s = summary(games)
    assert s["games"] == {"centrix 2p": 2, "centrix 4p": 2, "colorcity 2p": 2}
    assert set(s["brier"]) == {"quarter", "half", "three_quarters"}
    assert {"centrix", "colorcity", "centrix_until_won"} <= set(s)
    assert s["brier"]["three_quarters"]["uniform"] == pytest.approx(
        (4 * 0.5 + 2 * 0.75) / 6, abs=1e-4
    )
    temper = fit(games)
    assert set(temper) == {"centrix", "colorcity"}
