"""Color City: MuJoCo's solver options against D19's flick (issue 17), one run.

Each variant changes one thing of D19's table (``gamenight.cli.colorcity.pure_table``:
Euler, 1.5 ms, the cube starting where it lies; Newton, elliptic cone, condim 4, 100
iterations, warm start on; the pipeline stages the model never uses off, which changes no
flick) and is measured in the same run as it on the bench's
two figures: flicks per CPU second over the bench's 216 shots
(``gamenight.cli.colorcity.bench_shots``, best of 2), and the worst |error| of spin-free
straight shots at 0.5–1.8 m/s against v²/(2μg) (``distance_errors``). "moved" is how far,
at most, a bench shot's resting place moved from the default's (mm): the spin-free metric
does not see what a variant does to spinning, angled shots.

"half-step start" is not a MuJoCo option but the table's ``start_lead`` (D24) at ½:
semi-implicit Euler under a constant friction deceleration slides v·Δt/2 short (the sum of
the velocities after each step), which is the whole of the old error; starting the cube
v·Δt/2 farther along (and turned ω·Δt/2 farther) removes that first-order term, so larger
steps keep the slide.

    PYTHONPATH=src python docs/results/colorcity_solver.py
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import mujoco

from gamenight.cli.colorcity import bench_shots, pure_table
from gamenight.colorcity import DEFAULT_TABLE, Gang, Shot, physics, stopping_distance
from gamenight.colorcity.shots import flick
from gamenight.colorcity.table import Table

_model_xml = physics.model_xml
D19 = pure_table()


@contextmanager
def variant(xml: Callable[[str], str] | None = None) -> Iterator[None]:
    """The physics with the model's XML text changed."""
    if xml is not None:
        physics.model_xml = lambda t: xml(_model_xml(t))  # type: ignore[assignment]
    physics._sim.cache_clear()
    try:
        yield
    finally:
        physics.model_xml = _model_xml  # type: ignore[assignment]
        physics._sim.cache_clear()


def measure(table: Table) -> tuple[float, float, float, list[physics.Pose] | None]:
    """(flicks/s, worst error %, mean steps, the bench shots' poses); no poses for a
    variant far slower than the default (its figures are then from its first 3 s)."""
    shots = bench_shots()
    flick(table, Gang.GREEN, shots[0])
    best = math.inf
    for _ in range(2):
        start = time.process_time()
        flicks = []
        for i, s in enumerate(shots):
            flicks.append(flick(table, Gang(i % 2), s))
            if time.process_time() - start > 3:  # far slower than the default: not a candidate
                done = len(flicks)
                return done / 3, math.nan, sum(f.steps for f in flicks) / done, None
        best = min(best, time.process_time() - start)
    worst = 0.0
    for i in range(14):
        v = round(0.5 + 0.1 * i, 10)
        slid = flick(table, Gang.GREEN, Shot(0.0, 0.0, v, 0.0)).pose.y + table.launch_y
        ref = stopping_distance(table, v)
        worst = max(worst, abs(slid - ref) / ref * 100)
    steps = sum(f.steps for f in flicks) / len(flicks)
    return len(shots) / best, worst, steps, [f.pose for f in flicks]


def _set(**fields: object) -> Callable[[mujoco.MjModel], None]:
    def apply(model: mujoco.MjModel) -> None:
        for name, value in fields.items():
            setattr(model.opt, name, value)

    return apply


def _disable(*bits: int) -> Callable[[mujoco.MjModel], None]:
    def apply(model: mujoco.MjModel) -> None:
        for bit in bits:
            model.opt.disableflags |= bit

    return apply


def _enable(bit: int) -> Callable[[mujoco.MjModel], None]:
    def apply(model: mujoco.MjModel) -> None:
        model.opt.enableflags |= bit

    return apply


D = mujoco.mjtDisableBit
S = mujoco.mjtSolver
VARIANTS: list[tuple[str, float, dict[str, object]]] = [
    ("default, D19 (Euler 1.5 ms, Newton)", 0.0015, {}),
    ("iterations 1", 0.0015, {"opt": _set(iterations=1)}),
    ("iterations 3", 0.0015, {"opt": _set(iterations=3)}),
    ("ls_iterations 1", 0.0015, {"opt": _set(ls_iterations=1)}),
    ("tolerance 1e-4", 0.0015, {"opt": _set(tolerance=1e-4)}),
    ("solver CG", 0.0015, {"opt": _set(solver=S.mjSOL_CG)}),
    ("solver PGS", 0.0015, {"opt": _set(solver=S.mjSOL_PGS)}),
    ("cone pyramidal", 0.0015, {"opt": _set(cone=mujoco.mjtCone.mjCONE_PYRAMIDAL)}),
    ("noslip_iterations 2", 0.0015, {"opt": _set(noslip_iterations=2)}),
    ("mjDSBL_WARMSTART", 0.0015, {"opt": _disable(D.mjDSBL_WARMSTART)}),
    ("mjDSBL_EULERDAMP", 0.0015, {"opt": _disable(D.mjDSBL_EULERDAMP)}),
    ("mjDSBL_FILTERPARENT", 0.0015, {"opt": _disable(D.mjDSBL_FILTERPARENT)}),
    ("mjDSBL_MIDPHASE", 0.0015, {"opt": _disable(D.mjDSBL_MIDPHASE)}),
    ("mjDSBL_ISLAND", 0.0015, {"opt": _disable(D.mjDSBL_ISLAND)}),
    ("mjDSBL_REFSAFE", 0.0015, {"opt": _disable(D.mjDSBL_REFSAFE)}),
    ("mjDSBL_NATIVECCD", 0.0015, {"opt": _disable(D.mjDSBL_NATIVECCD)}),
    (
        "all of: it 3, ls 1, tol 1e-4, no warmstart/eulerdamp/island",
        0.0015,
        {
            "opt": lambda m: (
                _set(iterations=3, ls_iterations=1, tolerance=1e-4)(m),
                _disable(D.mjDSBL_WARMSTART, D.mjDSBL_EULERDAMP, D.mjDSBL_ISLAND)(m),
            )
        },
    ),
    ("condim 3 (no torsional friction)", 0.0015, {"xml": lambda s: s.replace('"4"', '"3"')}),
    ("Euler 3 ms", 0.003, {}),
    ("RK4 3 ms", 0.003, {"opt": _set(integrator=mujoco.mjtIntegrator.mjINT_RK4)}),
    ("half-step start, 1.5 ms", 0.0015, {"lead": 0.5}),
    ("half-step start, 3 ms", 0.003, {"lead": 0.5}),
    ("half-step start, 4 ms", 0.004, {"lead": 0.5}),
    ("half-step start, 5 ms", 0.005, {"lead": 0.5}),
    ("D24: lead 0.45, 3 ms, no warm start, rest 5 mm/s 0.2 rad/s", 0.003, {"d24": True}),
]


def main() -> None:
    import sys

    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[attr-defined]
    print("| variant | step ms | worst error % | steps a flick | flicks/s | ratio | moved mm |")
    print("|---|---|---|---|---|---|---|")
    base_rate, base_poses = 0.0, None
    for name, dt, change in VARIANTS:
        table = D19.with_(timestep_s=dt, start_lead=change.get("lead", 0.0))
        if change.get("d24"):
            table = DEFAULT_TABLE
        opt = change.get("opt")
        with variant(change.get("xml")):  # type: ignore[arg-type]
            if opt is not None:
                opt(physics._sim(table).model)  # type: ignore[operator]  # this table's model
            rate, worst, steps, poses = measure(table)
        if poses is None:
            print(
                f"| {name} | {dt * 1000:.1f} | — | {steps:.0f} | {rate:.0f} | — | — |", flush=True
            )
            continue
        if base_poses is None:
            base_rate, base_poses = rate, poses
        moved = max(
            math.hypot(a.x - b.x, a.y - b.y) for a, b in zip(poses, base_poses, strict=True)
        )
        print(
            f"| {name} | {dt * 1000:.1f} | {worst:.3f} | {steps:.0f} | {rate:.0f}"
            f" | {rate / base_rate:.2f} | {moved:.2f} |"
        )


if __name__ == "__main__":
    main()
