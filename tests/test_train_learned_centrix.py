"""examples/train_learned_centrix.py on a tiny configuration: it runs end to end, the same
arguments give the same weights and curve, and a run stopped after an iteration resumes
from its checkpoint to the same result as a run that never stopped."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

SCRIPT = Path(__file__).parent.parent / "examples" / "train_learned_centrix.py"
TINY = [
    *("--teacher-games", "3", "--selfplay-games", "1", "--search-iterations", "4"),
    *("--epochs", "1", "--eval-games", "2", "--hidden", "16", "--candidates", "6"),
]


def train(run: Path, iterations: int) -> str:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--run", str(run), "--iterations", str(iterations), *TINY],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def curve(run: Path) -> list[dict[str, object]]:
    rows = [json.loads(line) for line in (run / "curve.jsonl").read_text().splitlines()]
    for row in rows:  # what differs run to run: the time, and the folder
        for key in ("train_wall_seconds", "train_cpu_seconds", "weights"):
            del row[key]
    return rows


def weights(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as data:
        return {key: data[key] for key in data.files}


def test_seeded_resumable_training(tmp_path: Path) -> None:
    straight, stopped = tmp_path / "straight", tmp_path / "stopped"
    out = train(straight, 2)
    assert len(out.splitlines()) == 2
    assert '"iteration": 1' in out
    assert train(stopped, 1).count("iteration") == 1
    resumed = train(stopped, 2)
    assert resumed.startswith(f"resuming {stopped} at iteration 1")
    assert curve(straight) == curve(stopped)
    assert (straight / "curve.csv").read_text().count("\n") == 3  # header and two rows
    for k in (0, 1):
        a, b = weights(straight / f"weights-{k:03d}.npz"), weights(stopped / f"weights-{k:03d}.npz")
        assert a.keys() == b.keys()
        assert all(np.array_equal(a[key], b[key]) for key in a)
    # The run's folder remembers its arguments: another configuration is refused.
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--run", str(stopped), "--iterations", "3", "--seed", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode != 0
    assert "other arguments" in done.stderr
