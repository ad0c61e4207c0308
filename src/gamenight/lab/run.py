"""Running an experiment: the games not yet in the run directory, locally or on Ray.

Rows are appended as games end (in whatever order the workers finish them); the games of a
run, and every row's content but its timing, depend only on the experiment, so a resumed,
extended, parallel or Ray run holds the same rows as one straight local run.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamenight.lab.experiment import Experiment, Job
from gamenight.lab.metrics import primary
from gamenight.lab.play import play_row, play_rows
from gamenight.lab.results import open_run, read_rows
from gamenight.lab.sequential import ALPHA, Verdict, verdicts


@dataclass
class Outcome:
    """What a run did: games played now, games in the directory, why it stopped."""

    played: int
    total: int
    stopped: str  # "complete", "significant"
    verdicts: dict[str, Verdict] = field(default_factory=dict)


def pending(experiment: Experiment, rows: list[dict[str, Any]], games: int) -> list[Job]:
    """The jobs of a ``games``-per-variant run that have no row yet, in round order."""
    done = {(r["variant"], r["index"]) for r in rows}
    return [j for j in experiment.jobs(games) if (j.variant, j.index) not in done]


def level(experiment: Experiment, rows: list[dict[str, Any]]) -> int:
    """The number of rounds complete for every variant: games 0 … n−1 all played."""
    have: dict[str, set[int]] = {v.name: set() for v in experiment.variants}
    for r in rows:
        if r["variant"] in have:
            have[r["variant"]].add(r["index"])
    n = 0
    while all(n in s for s in have.values()):
        n += 1
    return n


def check_sequential(experiment: Experiment, rows: list[dict[str, Any]]) -> dict[str, Verdict]:
    """The sequential test's verdicts on the complete rounds so far (the arms kept level,
    each on the same games)."""
    n = level(experiment, rows)
    wins = {v.name: 0.0 for v in experiment.variants}
    for r in rows:
        if r["index"] < n and r["variant"] in wins:
            wins[r["variant"]] += primary(r, experiment.metric)
    return verdicts(wins, n, experiment.metric.margin, ALPHA)


def run(
    experiment: Experiment,
    out: Path,
    games: int | None = None,
    workers: int = 1,
    until_significant: bool = False,
    ray_address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Outcome:
    """Play the games of ``experiment`` not yet in ``out`` (``games`` per variant, default
    the experiment's), appending each row as it ends. With ``until_significant`` it stops
    once every comparison of the primary metric is settled (sequential.py). ``progress``
    hears (games done, games in all) after each game."""
    path = open_run(out, experiment)
    rows = read_rows(path, repair=True)
    target = games or experiment.games
    jobs = pending(experiment, rows, target)
    total = len(experiment.variants) * target
    done = total - len(jobs)
    if progress:
        progress(done, total)
    outcome = Outcome(0, done, "complete")
    if until_significant:
        outcome.verdicts = check_sequential(experiment, rows)
        if outcome.verdicts and all(v.settled for v in outcome.verdicts.values()):
            outcome.stopped = "significant"
            return outcome
    stream = ray_rows(jobs, ray_address, workers) if ray_address else play_rows(jobs, workers)
    with path.open("a", encoding="utf-8") as sink:
        try:
            for row in stream:
                sink.write(json.dumps(row, separators=(",", ":")) + "\n")
                sink.flush()
                rows.append(row)
                outcome.played += 1
                outcome.total += 1
                if progress:
                    progress(outcome.total, total)
                if until_significant:
                    outcome.verdicts = check_sequential(experiment, rows)
                    if outcome.verdicts and all(v.settled for v in outcome.verdicts.values()):
                        outcome.stopped = "significant"
                        break
        finally:
            close = getattr(stream, "close", None)
            if close:
                close()
    return outcome


def ray_rows(jobs: list[Job], address: str, workers: int = 1) -> Iterator[dict[str, Any]]:
    """Every job's row on a Ray cluster (``address``: ``local`` starts one here), as each
    is done. Ray's usage statistics are off and no dashboard is started: nothing is sent
    anywhere but to the cluster."""
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    import ray

    started = not ray.is_initialized()
    if started:
        kwargs: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "configure_logging": False,
        }
        if address == "local":
            kwargs["num_cpus"] = workers
        else:
            kwargs["address"] = address
        ray.init(**kwargs)
    try:
        remote = ray.remote(play_row)
        # A bounded window of games in flight, so that stopping early wastes little.
        window = max(2, 2 * workers)
        queue = list(jobs)
        flying: list[Any] = []
        while queue or flying:
            while queue and len(flying) < window:
                flying.append(remote.remote(queue.pop(0)))
            ready, flying = ray.wait(flying, num_returns=1)
            yield ray.get(ready[0])
        return
    finally:
        if started:
            ray.shutdown()
