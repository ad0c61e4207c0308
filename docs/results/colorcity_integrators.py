"""Color City: MuJoCo's integrators and time steps against the converged slide (issue 17).

A study, not a change: the table's default (Euler, 1.5 ms) stays. For each integrator and
time step, spin-free straight shots at 0.6, 1.0, 1.4 and 1.8 m/s go through ``predict``
(the game's own flick) and their slides are compared with the same shots under Euler at
0.05 ms (the converged slide); flicks/s is over those shots, CPU time.

    PYTHONPATH=src python docs/results/colorcity_integrators.py
"""

from __future__ import annotations

import time

from gamenight.colorcity import DEFAULT_TABLE, Gang, Shot, physics, predict
from gamenight.colorcity.table import Table

SPEEDS = (0.6, 1.0, 1.4, 1.8)
_model_xml = physics.model_xml


def slides(table: Table, integrator: str) -> tuple[list[float], float, float]:
    physics.model_xml = lambda t: _model_xml(t).replace(  # type: ignore[assignment]
        'cone="elliptic"', f'cone="elliptic" integrator="{integrator}"'
    )
    physics._sim.cache_clear()
    shots = [Shot(0.0, 0.0, v, 0.0) for v in SPEEDS]
    predict(table, Gang.GREEN, shots[0])  # build the model first
    start = time.process_time()
    flicks = [predict(table, Gang.GREEN, shot) for shot in shots]
    seconds = time.process_time() - start
    out = [f.pose.y + table.launch_y for f in flicks]
    return out, len(shots) / seconds, sum(f.steps for f in flicks) / len(flicks)


def main() -> None:
    reference, _, _ = slides(DEFAULT_TABLE.with_(timestep_s=0.00005), "Euler")
    print("converged slides mm:", " ".join(f"{d:.2f}" for d in reference))
    header = ("integrator", 12), ("step ms", 8), ("worst error %", 14), ("steps/flick", 12)
    print(" ".join(f"{name:>{width}}" for name, width in header), f"{'flicks/s':>9}")
    for integrator in ("Euler", "implicitfast", "RK4"):
        for dt in (0.005, 0.004, 0.003, 0.002, 0.0015, 0.001):
            got, rate, steps = slides(DEFAULT_TABLE.with_(timestep_s=dt), integrator)
            worst = max(abs(g - r) / r * 100 for g, r in zip(got, reference, strict=True))
            print(f"{integrator:>12} {dt * 1000:8.2f} {worst:14.3f} {steps:12.0f} {rate:9.0f}")
    physics.model_xml = _model_xml  # type: ignore[assignment]


if __name__ == "__main__":
    main()
