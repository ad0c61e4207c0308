"""The designer's lab: experiments over rule variants, with honest statistics and a report.

``gamenight lab run EXPERIMENT.toml`` plays the games, ``gamenight lab report DIR`` writes the
report, ``gamenight.lab.load(DIR)`` gives the results as a pandas DataFrame (docs/lab.md).
"""

from gamenight.lab.experiment import Experiment, ExperimentError, parse_experiment, read_experiment
from gamenight.lab.results import load, load_rows
from gamenight.lab.run import run

__all__ = [
    "Experiment",
    "ExperimentError",
    "load",
    "load_rows",
    "parse_experiment",
    "read_experiment",
    "run",
]
