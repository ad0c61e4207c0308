"""A run's directory: the experiment as it was run, and its append-only results file.

``DIR/experiment.toml`` is the experiment's text, copied at the first run; ``DIR/results.jsonl``
has one JSON row per game, appended as each game ends. A later run in the same directory
resumes: it plays only the games not yet in the file (and more, if asked for more games).
A run killed while writing leaves at most one partial last line, which the next run drops
before appending.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gamenight.lab.experiment import Experiment, ExperimentError, parse_experiment

EXPERIMENT = "experiment.toml"
RESULTS = "results.jsonl"
ROW_KEYS = {"variant", "index", "seed", "players", "lineup", "first", "places", "reason"}
ROW_KEYS |= {"actions", "turns", "standings", "counts"}


def open_run(directory: Path, experiment: Experiment) -> Path:
    """The run directory for ``experiment``, created or checked: an existing directory
    must hold this same experiment (its games count aside), or ExperimentError says so."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExperimentError(f"{directory} cannot hold a lab run: {exc.strerror or exc}") from None
    stored = directory / EXPERIMENT
    if stored.exists():
        before = parse_experiment(stored.read_text("utf-8"))
        if (before.game, before.seed, before.variants) != (
            experiment.game,
            experiment.seed,
            experiment.variants,
        ):
            raise ExperimentError(
                f"{directory} holds a run of a different experiment ({before.name!r}):"
                " give another --out directory"
            )
    else:
        stored.write_text(experiment.source, "utf-8")
    return directory / RESULTS


def read_rows(path: Path, repair: bool = False) -> list[dict[str, Any]]:
    """The rows of a results file. A partial last line (a run killed while writing) is
    left out — and cut off the file with ``repair``, so appending starts on a fresh line."""
    if not path.exists():
        return []
    data = path.read_bytes()
    complete, newline, tail = data.rpartition(b"\n")
    if tail and repair:
        with path.open("r+b") as f:
            f.truncate(len(complete) + len(newline))
    rows = []
    for number, line in enumerate(complete.decode("utf-8").splitlines(), 1):
        if line.strip():
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ExperimentError(f"{path}, line {number}: not a results row ({exc})") from None
            missing = ROW_KEYS - set(row) if isinstance(row, dict) else ROW_KEYS
            if missing:
                names = ", ".join(sorted(missing))
                raise ExperimentError(f"{path}, line {number}: not a results row (no {names})")
            rows.append(row)
    return rows


def load_rows(directory: Path) -> tuple[Experiment, list[dict[str, Any]]]:
    """The experiment and the rows of a run directory, one row per game (the first of
    any duplicates)."""
    stored = directory / EXPERIMENT
    if not stored.exists():
        raise ExperimentError(f"{directory} is not a lab run (no {EXPERIMENT})")
    experiment = parse_experiment(stored.read_text("utf-8"))
    seen: set[tuple[str, int]] = set()
    rows = []
    for row in read_rows(directory / RESULTS):
        key = (row["variant"], row["index"])
        if key not in seen:
            seen.add(key)
            rows.append(row)
    return experiment, rows


def load(directory: str | Path) -> Any:
    """The results of a run directory as a pandas DataFrame, one row per game.

    Columns: variant, index, seed, players, lineup, first, places, reason, actions, turns,
    seconds, standings (by turn, by seat), ``winner`` (the seat placed first alone, or -1),
    ``first_won`` (the starting seat's win share), ``win_<seat>`` (each seat's win share)
    and each of the game's own counts as ``n_<name>``. Needs ``gamenight[lab]``.
    """
    import pandas as pd

    from gamenight.lab.metrics import flatten

    _, rows = load_rows(Path(directory))
    return pd.DataFrame([flatten(row) for row in rows])
