"""Color City as flat discrete decisions and a fixed-size tensor, shared by the adapters.

A shot is chosen on a grid (``ShotGrid``; the defaults make 9 × 5 × 9 × 3 = 1215 shots):

- launch position: the 9 city column centres, −100 … +100 mm (gang's right positive);
- direction: −10, −5, 0, +5, +10 degrees (positive to the gang's left);
- speed: index k aims the noise-free textbook slide at the centre of city row k counted from
  the gang's own side (k = 0 … 8) *along the chosen direction*: v = √(2 μ g d / cos θ), d the
  distance from the launch line to that row's centre;
- spin: −20, 0, +20 rad/s.

Shot ``(p, d, s, w)`` is action ``((p × D + d) × S + s) × W + w``; then come the three power
decisions: ``lucky-day`` (N), ``purple-pain`` (N + 1) and ``pass`` (N + 2), N the number of
shots. In the pitch phase every shot is legal; in the power phase only the mover's power and
``pass``. See docs/envs.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from gamenight.colorcity.actions import Decision
from gamenight.colorcity.coverage import covered_squares
from gamenight.colorcity.shots import Shot
from gamenight.colorcity.state import ColorCityView, Phase
from gamenight.colorcity.table import DEFAULT_TABLE, Table

DECISIONS = (Decision.LUCKY_DAY, Decision.PURPLE_PAIN, Decision.PASS)


@dataclass(frozen=True)
class ShotGrid:
    table: Table = DEFAULT_TABLE
    directions: tuple[float, ...] = (-10.0, -5.0, 0.0, 5.0, 10.0)
    spins: tuple[float, ...] = (-20.0, 0.0, 20.0)
    positions: tuple[float, ...] = field(default=())  # empty: the city's column centres
    rows: tuple[int, ...] = field(default=())  # empty: every row

    @cached_property
    def position_values(self) -> tuple[float, ...]:
        if self.positions:
            return self.positions
        t = self.table
        return tuple(-t.city_half + (c + 0.5) * t.square_mm for c in range(t.city_size))

    @cached_property
    def row_values(self) -> tuple[int, ...]:
        return self.rows or tuple(range(self.table.city_size))

    @property
    def num_shots(self) -> int:
        return (
            len(self.position_values)
            * len(self.directions)
            * len(self.row_values)
            * len(self.spins)
        )

    @property
    def num_actions(self) -> int:
        return self.num_shots + len(DECISIONS)

    def speed(self, row: int, direction: float) -> float:
        t = self.table
        distance_m = (t.launch_offset_mm + (row + 0.5) * t.square_mm) / 1000
        along = distance_m / math.cos(math.radians(direction))
        v = math.sqrt(2 * t.friction * t.gravity * along)
        return max(t.min_speed, min(t.max_speed, v))

    def shot(self, action: int) -> Shot:
        if not 0 <= action < self.num_shots:
            raise ValueError(f"action {action} is not a shot (0–{self.num_shots - 1})")
        rest, w = divmod(action, len(self.spins))
        rest, s = divmod(rest, len(self.row_values))
        p, d = divmod(rest, len(self.directions))
        direction = self.directions[d]
        return Shot(
            self.position_values[p],
            direction,
            self.speed(self.row_values[s], direction),
            self.spins[w],
        )

    def nearest(self, shot: Shot) -> int:
        """The grid action closest to ``shot``: nearest position, direction and spin, and the
        row whose speed (at that direction) is closest to the shot's reach. For playing a
        continuous bot's shots in the discrete game."""

        def closest(values: tuple[float, ...], x: float) -> int:
            return min(range(len(values)), key=lambda i: abs(values[i] - x))

        p = closest(self.position_values, shot.position)
        d = closest(self.directions, shot.direction)
        w = closest(self.spins, shot.spin)
        direction = self.directions[d]
        speeds = tuple(self.speed(row, direction) for row in self.row_values)
        s = closest(speeds, shot.speed)
        return ((p * len(self.directions) + d) * len(self.row_values) + s) * len(self.spins) + w

    def decision(self, action: int) -> Decision:
        if not self.num_shots <= action < self.num_actions:
            raise ValueError(f"action {action} is not a power decision")
        return DECISIONS[action - self.num_shots]

    def decision_action(self, decision: Decision) -> int:
        return self.num_shots + DECISIONS.index(decision)

    def action_of(self, move: Shot | Decision) -> int:
        """The action that plays a bot's ``move``: a Decision's own action, the nearest grid
        shot to a Shot (see :meth:`nearest`)."""
        return self.nearest(move) if isinstance(move, Shot) else self.decision_action(move)

    def action(self, value: int) -> Shot | Decision:
        return self.shot(value) if value < self.num_shots else self.decision(value)

    def legal_actions(self, phase: Phase, decisions: list[Decision]) -> list[int]:
        if phase is Phase.PITCH:
            return list(range(self.num_shots))
        if phase is Phase.POWER:
            return sorted(self.decision_action(d) for d in decisions)
        return []

    def mask(self, phase: Phase, decisions: list[Decision]) -> npt.NDArray[np.int8]:
        mask = np.zeros(self.num_actions, dtype=np.int8)
        mask[self.legal_actions(phase, decisions)] = 1
        return mask

    def action_name(self, action: int) -> str:
        if action >= self.num_shots:
            return self.decision(action).value
        return f"shot {self.shot(action)}"


def observation_size(table: Table = DEFAULT_TABLE) -> int:
    # own squares, their squares, squares the waiting cube covers; cubes, powers (own,
    # theirs); phase pitch/power; observer to move; turn / cap.
    return 3 * table.num_squares + 2 + 2 + 2 + 1 + 1


def encode(view: ColorCityView, max_turns: int | None, out: Any = None) -> Any:
    """Observation of the seat's gang: its own squares first, whichever gang it plays."""
    table = view.table
    n = table.num_squares
    size = observation_size(table)
    if out is None:
        out = np.zeros(size, dtype=np.float32)
    else:
        out.fill(0.0)
    seat = view.seat if view.seat is not None else 0
    mine = int(view.seats[seat][0])
    cells = np.asarray(view.cells)
    out[0:n] = cells == mine
    out[n : 2 * n] = cells == 1 - mine
    if view.pending is not None:
        for sq in covered_squares(table, view.pending):
            out[2 * n + sq] = 1.0
    i = 3 * n
    per_gang = table.cubes_per_gang
    out[i] = view.cubes[mine] / per_gang
    out[i + 1] = view.cubes[1 - mine] / per_gang
    out[i + 2] = float(view.powers[mine])
    out[i + 3] = float(view.powers[1 - mine])
    if view.phase is Phase.PITCH:
        out[i + 4] = 1.0
    elif view.phase is Phase.POWER:
        out[i + 5] = 1.0
    if view.to_move is not None and int(view.to_move) == mine:
        out[i + 6] = 1.0
    cap = max_turns or table.max_turns
    out[i + 7] = min(1.0, view.turn / cap) if cap else 0.0
    return out


__all__ = ["DECISIONS", "ShotGrid", "encode", "observation_size"]
