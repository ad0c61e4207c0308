"""The flick: a 16 mm cube sliding, spinning and perhaps falling, simulated by MuJoCo.

The board is a finite box whose top is z = 0, so a cube that slides past an edge tips
over it and falls. The cube is a free rigid body with a box geom. Contact uses MuJoCo's
elliptic friction cone (the pyramidal one overshoots diagonal slides) with sliding and
torsional friction (condim 4); spin–slide coupling is whatever the contact model gives.

One model is built per table value and cached; it is read-only while simulating, so every
thread shares it. An MjData is the simulation's scratch memory, written as it steps, so each
thread keeps its own (two flicks on one data corrupt it, and MuJoCo then crashes the
process); making one costs about a third of a flick, so it is kept rather than made per
flick. Each flick resets its data first, so the same table, start and velocity give
bit-identical results on one machine and MuJoCo version, in whichever thread. Records
keep each flick's resulting pose so that replays never depend on re-simulating.
"""

from __future__ import annotations

import math
import threading
from functools import lru_cache
from typing import NamedTuple

import mujoco
import numpy as np
import numpy.typing as npt

from gamenight.colorcity.table import MOST_FLICK_STEPS, Table
from gamenight.core.errors import NotationError, shown
from gamenight.core.numbers import finite_float, read_decimal

_MM = 1000.0  # MuJoCo works in metres and kilograms; the game in millimetres and grams.


class Pose(NamedTuple):
    """Where a cube is: its centre in board mm (z above the board's top) and its
    orientation as a unit quaternion (w, x, y, z)."""

    x: float
    y: float
    z: float
    qw: float = 1.0
    qx: float = 0.0
    qy: float = 0.0
    qz: float = 0.0

    @property
    def yaw_deg(self) -> float:
        """Heading of the cube's x axis from east, counter-clockwise, in degrees."""
        return math.degrees(
            math.atan2(
                2 * (self.qw * self.qz + self.qx * self.qy),
                1 - 2 * (self.qy * self.qy + self.qz * self.qz),
            )
        )

    @property
    def on_table(self) -> bool:
        """A cube whose centre is below the board's top has fallen off (decision D5)."""
        return self.z > 0

    def format(self) -> str:
        """The seven numbers separated by commas, exactly; ``parse`` reads them back."""
        return ",".join(repr(float(v)) for v in self)

    @classmethod
    def from_values(cls, values: object) -> Pose:
        """A pose from seven numbers; raises NotationError (a ValueError) naming the
        problem, and nothing else, for anything else."""
        if not isinstance(values, list | tuple) or len(values) != 7:
            raise NotationError("a pose is 7 numbers: x, y, z, qw, qx, qy, qz")
        numbers = [finite_float(v, "a pose's number", NotationError) for v in values]
        norm = math.sqrt(sum(q * q for q in numbers[3:]))
        if not abs(norm - 1) <= 1e-6:  # also false for a norm that overflowed to inf
            raise NotationError(f"a pose's quaternion must have length 1, not {norm:.6g}")
        return cls(*numbers)

    @classmethod
    def parse(cls, text: str) -> Pose:
        """The pose ``format`` wrote (seven ASCII decimals separated by commas); raises
        NotationError (a ValueError) naming the problem, and nothing else, for other text."""
        if not isinstance(text, str) or text.count(",") != 6:
            raise NotationError(f"a pose is 7 comma-separated numbers, not {shown(text)}")
        return cls.from_values(
            [read_decimal(p, "a pose's number", NotationError) for p in text.split(",")]
        )


class Flick(NamedTuple):
    """The result of one flick.

    ``trajectory`` has one row per frame: time (s), x, y, z (mm), qw, qx, qy, qz. The first
    row is the start and the last the final pose; frames are at least ``table.frame_rate``
    per second apart.
    """

    pose: Pose
    trajectory: npt.NDArray[np.float64]
    steps: int

    @property
    def duration(self) -> float:
        """How long the flick lasted, in seconds."""
        return float(self.trajectory[-1, 0])

    @property
    def off_table(self) -> bool:
        """Whether the cube fell off the board."""
        return not self.pose.on_table


_MJCF_INTEGRATORS = {
    "euler": "Euler",
    "implicitfast": "implicitfast",
    "implicit": "implicit",
    "rk4": "RK4",
}

NO_OP_FLAGS = " ".join(
    f'{name}="disable"'
    for name in (
        # One body: one island; no joint damping for Euler to treat implicitly.
        "island",
        "eulerdamp",
        # Nothing in the model for these: no actuators, springs, dampers, equality
        # constraints, joint friction or limits, sensors; two geoms, the board being the
        # world's (no parent to filter, no midphase to prune); box–box contact has its own
        # collider rather than the CCD ones.
        "actuation",
        "clampctrl",
        "spring",
        "damper",
        "equality",
        "frictionloss",
        "limit",
        "sensor",
        "autoreset",
        "midphase",
        "filterparent",
        "refsafe",
        "nativeccd",
        "multiccd",
    )
)
"""MuJoCo's pipeline stages this model never uses, turned off: every flick is bit-identical
with them on (``test_physics::test_the_flags_turned_off_change_no_flick``); issue 17's
study measured island and Euler damping 6 % and the rest about 3 % (docs/benchmarks.md)."""


def model_xml(table: Table) -> str:
    """The MuJoCo model (MJCF) of ``table``'s board and one cube."""
    half = table.cube_mm / 2 / _MM
    friction = (
        f"{table.friction!r} {table.torsional_friction_mm / _MM!r} "
        f"{table.rolling_friction_mm / _MM!r}"
    )
    warmstart = "enable" if table.warmstart else "disable"
    # Both geoms carry the same friction: MuJoCo combines a contact's two geoms by max.
    # The flags turned off in NO_OP_FLAGS only cost time here: off, every flick is
    # bit-identical. The warm start is the table's (D24): it moves a flick by under a µm.
    return f"""<mujoco model="colorcity">
  <option timestep="{table.timestep_s!r}" integrator="{_MJCF_INTEGRATORS[table.integrator]}"
          cone="elliptic" gravity="0 0 {-table.gravity!r}">
    <flag {NO_OP_FLAGS} warmstart="{warmstart}"/>
  </option>
  <worldbody>
    <geom name="board" type="box" pos="0 0 -0.01"
          size="{table.board_width_mm / 2 / _MM!r} {table.board_length_mm / 2 / _MM!r} 0.01"
          friction="{friction}" condim="4"/>
    <body name="cube" pos="0 0 {half!r}">
      <freejoint/>
      <geom name="cube" type="box" size="{half!r} {half!r} {half!r}"
            mass="{table.cube_mass_g / _MM!r}" friction="{friction}" condim="4"/>
    </body>
  </worldbody>
</mujoco>"""


class _Sim(NamedTuple):
    model: mujoco.MjModel
    rest_z: float  # the cube's settled height on the board, in metres
    steps_per_frame: int
    threads: threading.local  # each thread's MjData for this model, as ``data``

    def data(self) -> mujoco.MjData:
        """This thread's MjData for the model."""
        data: mujoco.MjData | None = getattr(self.threads, "data", None)
        if data is None:
            data = self.threads.data = mujoco.MjData(self.model)
        return data


def settle_steps(table: Table) -> int:
    """Steps of the cube's settling before its first flick: half a second, but never more
    than the longest flick a table may be set up with, so that no stored table, whatever
    its time step, makes building its model a long computation (D21)."""
    return max(1, min(round(0.5 / table.timestep_s), MOST_FLICK_STEPS))


@lru_cache(maxsize=8)
def _sim(table: Table) -> _Sim:
    model = mujoco.MjModel.from_xml_string(model_xml(table))
    data = mujoco.MjData(model)
    # Settle a cube once so flicks start in resting contact rather than dropping onto
    # the soft contact (which would make it hop at the start of every flick).
    mujoco.mj_step(model, data, nstep=settle_steps(table))
    rest_z = float(data.qpos[2])
    steps = max(1, math.floor(1 / (table.frame_rate * table.timestep_s)))
    return _Sim(model, rest_z, steps, threading.local())


def rest_height(table: Table) -> float:
    """Height (mm) of a resting cube's centre above the board's top, as the physics has it."""
    return _sim(table).rest_z * _MM


def simulate(
    table: Table,
    x: float,
    y: float,
    yaw: float,
    vx: float,
    vy: float,
    spin: float,
) -> Flick:
    """Flick a cube resting at (x, y) mm, turned ``yaw`` radians, with velocity (vx, vy) m/s
    and ``spin`` rad/s about the vertical (counter-clockwise seen from above).

    Runs until the cube is at rest, its centre has dropped below the board's top (it fell
    off), ``table.max_flick_s`` has passed, or it has taken ``table.max_flick_steps`` steps
    (exactly: a step cap rather than a clock, so the result never depends on the machine).
    """
    sim = _sim(table)
    model, data = sim.model, sim.data()
    mujoco.mj_resetData(model, data)
    qpos, qvel = data.qpos, data.qvel

    def lying(x: float, y: float, yaw: float) -> tuple[float, ...]:
        """The free joint's position: flat on the board at (x, y) mm, turned ``yaw``."""
        return (x / _MM, y / _MM, sim.rest_z, math.cos(yaw / 2), 0.0, 0.0, math.sin(yaw / 2))

    frames = [[0.0, *lying(x, y, yaw)]]
    # The start lead (D24): semi-implicit Euler moves the cube by the velocity *after* each
    # step, so under friction's constant deceleration it slides v·Δt/2 short of the true
    # path whatever the step count; starting it ``start_lead`` steps ahead along its motion
    # (and turned as far along its spin) cancels that term at ½. The trajectory's first row
    # is where the cube lay.
    lead = table.start_lead * table.timestep_s
    if lead:
        qpos[:] = lying(x + vx * lead * _MM, y + vy * lead * _MM, yaw + spin * lead)
    else:
        qpos[:] = lying(x, y, yaw)
    # The free joint's angular velocity is in the body frame; the cube starts flat, so its
    # body z axis is the world's vertical and the spin can be written straight into it.
    qvel[:] = (vx, vy, 0.0, 0.0, 0.0, spin)
    n = sim.steps_per_frame
    max_steps = math.ceil(table.max_flick_s / table.timestep_s)
    rest_v2 = table.rest_speed * table.rest_speed
    rest_w2 = table.rest_spin * table.rest_spin
    cap = table.max_flick_steps
    steps = 0
    while True:
        # The last chunk stops at the cap; a flick within it runs as it always did (D21).
        chunk = min(n, cap - steps)
        mujoco.mj_step(model, data, nstep=chunk)
        steps += chunk
        # Plain lists: reading numpy scalars one by one costs more than the check itself.
        row = [data.time, *qpos.tolist()]
        frames.append(row)
        a, b, c, d, e, f = qvel.tolist()
        if a * a + b * b + c * c < rest_v2 and d * d + e * e + f * f < rest_w2:
            break
        if row[3] < 0 or steps >= max_steps or steps >= cap:
            break
    trajectory = np.array(frames, dtype=np.float64)
    trajectory[:, 1:4] *= _MM
    last = trajectory[-1]
    pose = Pose(*(float(v) for v in last[1:8]))
    return Flick(pose, trajectory, steps)


def stopping_distance(table: Table, speed: float) -> float:
    """The textbook slide length v²/(2μg) of a spin-free flick, in mm."""
    return speed * speed / (2 * table.friction * table.gravity) * _MM
