"""Small versions of the shipped experiments (examples/lab): each runs and reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamenight.lab.experiment import read_experiment
from gamenight.lab.metrics import summarise
from gamenight.lab.report import markdown
from gamenight.lab.results import load_rows
from gamenight.lab.run import run

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples" / "lab").glob("*.toml"))


def test_the_experiments_the_issue_names_are_shipped() -> None:
    assert [p.stem for p in EXAMPLES] == [
        "centrix-bottom",
        "centrix-seats",
        "colorcity-green-purple",  # by the hands' skill …
        "colorcity-levels",  # … and separately by bot level
        "colorcity-powers",
    ]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_shipped_experiment_runs_small(path: Path, tmp_path: Path) -> None:
    experiment = read_experiment(path)
    outcome = run(experiment, tmp_path / "run", games=1)
    assert outcome.played == len(experiment.variants)
    _, rows = load_rows(tmp_path / "run")
    summaries = summarise(experiment, rows)
    assert [s.variant for s in summaries] == [v.name for v in experiment.variants]
    assert experiment.name in markdown(experiment, summaries)
