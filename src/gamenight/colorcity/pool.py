"""Many independent flicks spread over processes (issue 17), for callers that pitch many.

A flick is about a millisecond of MuJoCo stepping that holds the GIL, so threads do not
help; processes do (two gave 1.86× on 2 cores). ``poses`` splits a list of pitches into one
contiguous chunk per worker and joins the results back in the list's order, so a caller
sees exactly the serial results: the physics is deterministic, and each worker runs the
same code on the same table (bit-identical on one machine and MuJoCo version).

The pools are opt-in (``workers`` ≥ 2) and kept for the life of the process, one per
worker count, because starting one costs far more than a flick (each worker imports
MuJoCo and builds its model once). They start by ``spawn``: forking a process that runs
threads (the table server) is unsafe, and a spawned worker shares nothing with its parent.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from gamenight.colorcity.physics import Pose
from gamenight.colorcity.shots import Shot, flick
from gamenight.colorcity.table import Gang, Table

PitchedShot = tuple[Gang, Shot]  # who pitches, and the shot as executed (noise included)

_pools: dict[int, ProcessPoolExecutor] = {}
_lock = threading.Lock()


def _pool(workers: int) -> ProcessPoolExecutor:
    with _lock:
        pool = _pools.get(workers)
        if pool is None:
            context = multiprocessing.get_context("spawn")
            pool = _pools[workers] = ProcessPoolExecutor(workers, mp_context=context)
        return pool


def serial_poses(table: Table, pitches: Sequence[PitchedShot]) -> list[Pose]:
    """The final pose of each pitch, flicked one after another in this process."""
    return [flick(table, gang, shot).pose for gang, shot in pitches]


def poses(table: Table, pitches: Sequence[PitchedShot], workers: int = 1) -> list[Pose]:
    """The final pose of each pitch (``flick``'s, noise already in the shot), in order.

    With ``workers`` ≥ 2 the pitches are flicked by that many processes, one contiguous
    chunk each; the result is the same list ``serial_poses`` gives.
    """
    if workers < 2 or len(pitches) < 2:
        return serial_poses(table, pitches)
    n = min(workers, len(pitches))
    size, extra = divmod(len(pitches), n)
    chunks: list[Sequence[PitchedShot]] = []
    start = 0
    for k in range(n):
        end = start + size + (k < extra)
        chunks.append(pitches[start:end])
        start = end
    results = _pool(workers).map(serial_poses, [table] * n, chunks)
    return [pose for chunk in results for pose in chunk]


def shutdown() -> None:
    """Stop every pool (they stop by themselves when the process exits)."""
    with _lock:
        for pool in _pools.values():
            pool.shutdown()
        _pools.clear()
