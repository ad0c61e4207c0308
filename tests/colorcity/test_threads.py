"""Flicks from many threads at once give exactly the serial results (issue 14, finding 1).

MuJoCo's data is scratch memory that one simulation writes as it goes; shared between
threads it was corrupted (``nefc under-allocation``, then a segfault). The workload runs in
a child process so that on code with that bug the test fails instead of killing pytest.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from gamenight.colorcity import ColorCityState, Gang, Shot, Table, to_record

THREADS = 8
ROUNDS = 6


def shots(n: int, salt: int) -> list[Shot]:
    """Varied legal shots, short and long, straight and spun, some falling off."""
    return [
        Shot(
            (i * 37 + salt) % 200 - 100.0,
            (i * 13 + salt) % 100 - 50.0,
            0.3 + ((i * 7 + salt) % 25) / 10,
            (i * 11 + salt) % 60 - 30.0,
        )
        for i in range(n)
    ]


def predictions(job: int) -> list[Any]:
    """Noise-free flicks, on two tables so two cached models are in play."""
    table = Table() if job % 2 else Table(friction=0.3)
    state = ColorCityState.new(seed=job, table=table, first=Gang(job % 2))
    return [list(state.predict(s).pose) for s in shots(4, job)]


def game(job: int) -> Any:
    """A game of pitches with noise: the record holds every pose."""
    state = ColorCityState.new(seed=1000 + job)
    for shot in shots(6, job):
        if state.is_over:
            break
        state.push(shot)
        if state.legal_decisions():
            state.push(state.legal_decisions()[-1])
    return to_record(state).to_dict()


def workload(job: int) -> Any:
    return predictions(job) if job % 3 else game(job)


def main() -> None:
    jobs = list(range(THREADS * ROUNDS))
    serial = [workload(job) for job in jobs]
    with ThreadPoolExecutor(THREADS) as pool:
        for _ in range(ROUNDS):
            together = list(pool.map(workload, jobs))
            if together != serial:
                print(json.dumps({"mismatch": True}))
                sys.exit(3)
    print(json.dumps({"results": len(serial)}))


def test_concurrent_predictions_and_pitches_equal_the_serial_results() -> None:
    src = Path(__file__).resolve().parents[2] / "src"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(src), str(src.parent)])}
    child = subprocess.run(
        [sys.executable, "-c", "from tests.colorcity.test_threads import main; main()"],
        capture_output=True,
        text=True,
        env=env,
        cwd=src.parent,
        timeout=300,
    )
    assert child.returncode == 0, child.stderr[-2000:] + child.stdout[-2000:]
    assert json.loads(child.stdout.splitlines()[-1]) == {"results": THREADS * ROUNDS}
