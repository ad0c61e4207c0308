"""--ray: the same run on a local Ray instance gives the same rows, game by game."""

from __future__ import annotations

from pathlib import Path

from gamenight.lab.experiment import parse_experiment
from gamenight.lab.results import load_rows
from gamenight.lab.run import run

from .test_run import TINY, comparable


def test_a_run_on_ray_gives_the_same_rows_as_a_local_run(tmp_path: Path) -> None:
    experiment = parse_experiment(TINY.format(games=2))
    run(experiment, tmp_path / "local")
    outcome = run(experiment, tmp_path / "ray", ray_address="local", workers=1)
    assert outcome.played == 4
    assert comparable(load_rows(tmp_path / "ray")[1]) == comparable(
        load_rows(tmp_path / "local")[1]
    )
