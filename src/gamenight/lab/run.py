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

PILOT = 20
"""Complete rounds the sequential test sees before it estimates the games it needs."""


@dataclass
class Outcome:
    """What a run did: games played now, games in the directory (in all and by variant),
    why it stopped, and with the sequential test its verdicts and its estimate of the games
    per variant an answer needs."""

    played: int
    total: int
    stopped: str  # "complete", "significant"
    verdicts: dict[str, Verdict] = field(default_factory=dict)
    per_variant: dict[str, int] = field(default_factory=dict)
    needed: int | None = None


def pending(experiment: Experiment, rows: list[dict[str, Any]], games: int) -> list[Job]:
    """The jobs of a ``games``-per-variant run that have no row yet, in round order."""
    done = {(r["variant"], r["index"]) for r in rows}
    return [j for j in experiment.jobs(games) if (j.variant, j.index) not in done]


class Tally:
    """The running account of a run: the games held by variant, and the sequential test on
    the complete rounds (game i of every variant), the arms kept level. Each row costs the
    same however many came before: the test is redone only when a round completes (it was
    recounted over every row after every game, which made a long run quadratic)."""

    def __init__(self, experiment: Experiment, sequential: bool = True) -> None:
        self.sequential = sequential
        self.metric = experiment.metric
        self.values: dict[str, dict[int, float]] = {v.name: {} for v in experiment.variants}
        self.wins = dict.fromkeys(self.values, 0.0)
        self.rounds = 0
        self.verdicts: dict[str, Verdict] = {}
        self.needed: int | None = None

    def add(self, row: dict[str, Any]) -> bool:
        """Count one row (a duplicate or another experiment's is ignored); True when it
        completed a round."""
        values = self.values.get(row["variant"])
        if values is None or row["index"] in values:
            return False
        values[row["index"]] = primary(row, self.metric)
        grew = False
        while all(self.rounds in v for v in self.values.values()):
            for name, v in self.values.items():
                self.wins[name] += v[self.rounds]
            self.rounds += 1
            grew = True
        if grew and self.sequential:
            margin = self.metric.margin
            self.verdicts = verdicts(self.wins, self.rounds, margin, ALPHA)
            if self.verdicts and self.rounds >= PILOT:
                self.needed = max(v.needed for v in self.verdicts.values())
        return grew

    @property
    def settled(self) -> bool:
        return bool(self.verdicts) and all(v.settled for v in self.verdicts.values())

    @property
    def per_variant(self) -> dict[str, int]:
        return {name: len(v) for name, v in self.values.items()}


def run(
    experiment: Experiment,
    out: Path,
    games: int | None = None,
    workers: int = 1,
    until_significant: bool = False,
    ray_address: str | None = None,
    progress: Callable[[int, int, int | None], None] | None = None,
) -> Outcome:
    """Play the games of ``experiment`` not yet in ``out`` (``games`` per variant, default
    the experiment's), appending each row as it ends. With ``until_significant`` it stops
    once every comparison of the primary metric is settled (sequential.py). ``progress``
    hears (games done, games in all, the sequential test's estimate of the games in all an
    answer needs, or None) after each game."""
    path = open_run(out, experiment)
    rows = read_rows(path, repair=True)
    target = games or experiment.games
    jobs = pending(experiment, rows, target)
    total = len(experiment.variants) * target
    tally = Tally(experiment, until_significant)
    for row in rows:
        tally.add(row)
    outcome = Outcome(0, 0, "complete")
    arms = len(experiment.variants)

    def update() -> None:
        outcome.per_variant = tally.per_variant
        outcome.total = sum(outcome.per_variant.values())
        if until_significant:
            outcome.verdicts = tally.verdicts
            outcome.needed = tally.needed

    update()
    done = total - len(jobs)
    if progress:
        progress(done, total, tally.needed and tally.needed * arms)
    if until_significant and tally.settled:
        outcome.stopped = "significant"
        return outcome
    stream = ray_rows(jobs, ray_address, workers) if ray_address else play_rows(jobs, workers)
    with path.open("a", encoding="utf-8") as sink:
        try:
            for row in stream:
                sink.write(json.dumps(row, separators=(",", ":")) + "\n")
                sink.flush()
                outcome.played += 1
                done += 1
                rounded = tally.add(row)
                if progress:
                    progress(done, total, tally.needed and tally.needed * arms)
                if until_significant and rounded and tally.settled:
                    outcome.stopped = "significant"
                    break
        finally:
            close = getattr(stream, "close", None)
            if close:
                close()
    update()
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
