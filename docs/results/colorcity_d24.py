"""Color City: the candidates for D24 against D19 and the converged slide (issue 17), one run.

Each row is a table (``Table`` fields only: time step, integrator, start lead, warm start,
rest thresholds) measured in the same run as D19's (``gamenight.cli.colorcity.pure_table``):

- flicks per CPU second over the bench's 216 shots, the tables taking turns round by round
  (best of 5), and the ratio to D19's;
- the worst |error| of spin-free straight shots against v²/(2μg): the bench's grid
  (0.5–1.8 m/s, step 0.1), a fine grid (0.50–1.80, step 0.01) and the slow shots, where the
  relative error is largest, on a finer one (0.500–0.800, step 0.001);
- the worst |error| on the fine grid against the converged slide (Euler at 0.05 ms);
- how far a resting place lies from the converged one (mm, the most over the bench's 216
  shots, and over 45 spinning, angled shots of 0.4–2.0 m/s at ±25–40 rad/s), how many of
  the bench's shots cover other squares than the converged flick, and how many of 32 shots
  near the board's far and side edges fall where D19's do not, or stay where they fall.

    PYTHONPATH=src taskset -c 0 python docs/results/colorcity_d24.py
"""

from __future__ import annotations

import math
import time

from gamenight.cli.colorcity import bench_shots, pure_table
from gamenight.colorcity import DEFAULT_TABLE, Gang, Pose, Shot, covered_squares, stopping_distance
from gamenight.colorcity.shots import flick
from gamenight.colorcity.table import Table

D19 = pure_table()
CONVERGED = D19.with_(timestep_s=0.00005, max_flick_steps=400_000, max_flick_s=30.0)
D24_REST = {"warmstart": False, "rest_speed": 0.005, "rest_spin": 0.2}
CANDIDATES: list[tuple[str, Table]] = [
    ("D19: Euler 1.5 ms, no lead", D19),
    ("Euler 3 ms, no lead", D19.with_(timestep_s=0.003)),
    ("Euler 3 ms, lead ½", D19.with_(timestep_s=0.003, start_lead=0.5)),
    ("Euler 3 ms, lead 0.45", D19.with_(timestep_s=0.003, start_lead=0.45)),
    ("Euler 3 ms, lead ½, D24's rest and no warm start", DEFAULT_TABLE.with_(start_lead=0.5)),
    ("**D24: Euler 3 ms, lead 0.45, its rest, no warm start**", DEFAULT_TABLE),
    (
        "Euler 3.5 ms, lead ½, D24's rest, no warm start",
        DEFAULT_TABLE.with_(timestep_s=0.0035, start_lead=0.5),
    ),
    ("Euler 2.5 ms, lead 0.45, D24's rest, no warm start", DEFAULT_TABLE.with_(timestep_s=0.0025)),
    (
        "implicitfast 3 ms, lead 0.45, D24's rest, no warm start",
        DEFAULT_TABLE.with_(integrator="implicitfast"),
    ),
    ("RK4 5 ms, no lead", D19.with_(timestep_s=0.005, integrator="rk4")),
]
BENCH = [round(0.5 + 0.1 * i, 10) for i in range(14)]
FINE = [round(0.5 + 0.01 * i, 10) for i in range(131)]
SLOW = [round(0.5 + 0.001 * i, 10) for i in range(301)]


def spun() -> list[Shot]:
    """Spinning, angled shots from either side, slow to fast."""
    return [
        Shot(-80.0 if d > 0 else 80.0, d, v, w)
        for v in (0.4, 0.8, 1.2, 1.6, 2.0)
        for d in (-60.0, -45.0, 30.0)
        for w in (-40.0, 25.0, 40.0)
    ]


def edges() -> list[Shot]:
    """Shots that end near the far edge (straight, and spun) or the side edge."""
    return (
        [Shot(0.0, 0.0, 1.99 + 0.002 * i, 0.0) for i in range(10)]
        + [Shot(100.0, -60.0, 1.2 + 0.05 * i, 0.0) for i in range(12)]
        + [Shot(0.0, 0.0, 1.98 + 0.004 * i, 15.0) for i in range(10)]
    )


def poses(table: Table, shots: list[Shot]) -> list[Pose]:
    return [flick(table, Gang(i % 2), shot).pose for i, shot in enumerate(shots)]


def slide(table: Table, speed: float) -> float:
    return flick(table, Gang.GREEN, Shot(0.0, 0.0, speed, 0.0)).pose.y + table.launch_y


def worst(table: Table, speeds: list[float], against: list[float] | None = None) -> float:
    refs = against or [stopping_distance(table, v) for v in speeds]
    return max(abs(slide(table, v) - r) / r * 100 for v, r in zip(speeds, refs, strict=True))


def farthest(a: list[Pose], b: list[Pose]) -> float:
    both = [(p, q) for p, q in zip(a, b, strict=True) if p.on_table and q.on_table]
    return max(math.hypot(p.x - q.x, p.y - q.y) for p, q in both)


def rates(tables: list[Table], repeat: int = 5) -> list[float]:
    shots = bench_shots()
    for table in tables:
        poses(table, shots)  # build the models first
    best = [math.inf] * len(tables)
    for _ in range(repeat):
        for k, table in enumerate(tables):
            start = time.process_time()
            poses(table, shots)
            best[k] = min(best[k], time.process_time() - start)
    return [len(shots) / b for b in best]


def main() -> None:
    import sys

    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[attr-defined]
    fine_ref = [slide(CONVERGED, v) for v in FINE]
    bench_ref, spun_ref = poses(CONVERGED, bench_shots()), poses(CONVERGED, spun())
    d19_edges = poses(D19, edges())
    measured = rates([t for _, t in CANDIDATES])
    print(
        "| table | flicks/s | ratio | bench grid % | fine % | slow, fine % | vs converged %"
        " | bench mm | spun mm | other squares | falls changed |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for (name, table), rate in zip(CANDIDATES, measured, strict=True):
        bench = poses(table, bench_shots())
        other = sum(
            covered_squares(table, p) != covered_squares(table, q)
            for p, q in zip(bench, bench_ref, strict=True)
        )
        falls = sum(
            p.on_table != q.on_table for p, q in zip(poses(table, edges()), d19_edges, strict=True)
        )
        print(
            f"| {name} | {rate:.0f} | {rate / measured[0]:.2f} | {worst(table, BENCH):.3f}"
            f" | {worst(table, FINE):.3f} | {worst(table, SLOW):.3f}"
            f" | {worst(table, FINE, fine_ref):.3f} | {farthest(bench, bench_ref):.2f}"
            f" | {farthest(poses(table, spun()), spun_ref):.2f} | {other} | {falls} |"
        )


if __name__ == "__main__":
    main()
