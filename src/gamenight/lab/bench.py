"""``gamenight lab bench``: the sequential test's cost, as games/s of the same experiment
played plainly and with ``until_significant``, in the same run, as a ratio.

Each mode runs twice, alternating (plain, sequential, plain, sequential), each time into a
fresh directory, so that a change in the machine's load falls on both. A sequential run
that settles early plays fewer games; its rate is still games played over its seconds.
With one worker the seconds are this process's CPU time (``time.process_time``), so that
other work on the machine slows the figures less; with more, wall-clock time.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any

from gamenight.centrix import native
from gamenight.core.provenance import commit, cpu_model, load
from gamenight.lab.experiment import Experiment
from gamenight.lab.run import run

ROUNDS = 2


def provenance() -> dict[str, Any]:
    """What a figure was measured on: the commit, the core, the CPU model and the load."""
    return {
        "commit": commit(),
        "core": "compiled" if native.COMPILED else "pure",
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "load": load()[0],
    }


def measure(experiment: Experiment, games: int, workers: int = 1) -> dict[str, Any]:
    """Games/s of ``games`` per variant played plainly and sequentially, and their ratio."""
    seconds = {"plain": 0.0, "sequential": 0.0}
    played = {"plain": 0, "sequential": 0}
    stopped = ""
    clock = time.process_time if workers <= 1 else time.perf_counter
    with tempfile.TemporaryDirectory(prefix="gamenight-lab-bench-") as scratch:
        for turn in range(ROUNDS):
            for mode in ("plain", "sequential"):
                start = clock()
                outcome = run(
                    experiment,
                    Path(scratch) / f"{mode}-{turn}",
                    games=games,
                    workers=workers,
                    until_significant=mode == "sequential",
                )
                seconds[mode] += clock() - start
                played[mode] += outcome.played
                if mode == "sequential":
                    stopped = outcome.stopped
    rate = {mode: played[mode] / seconds[mode] for mode in seconds}
    return {
        "experiment": experiment.name,
        "games_per_variant": games,
        "workers": workers,
        "clock": "cpu" if workers <= 1 else "wall",
        "plain_games": played["plain"],
        "plain_games_per_s": round(rate["plain"], 1),
        "sequential_games": played["sequential"],
        "sequential_games_per_s": round(rate["sequential"], 1),
        "sequential_stopped": stopped,
        "ratio": round(rate["sequential"] / rate["plain"], 3),
        **provenance(),
    }
