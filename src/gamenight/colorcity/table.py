"""The table: geometry, physics constants, shot limits and rule switches in one frozen value.

Everything Color City needs to know about the world is here, so that a record carries it
whole (``to_dict``/``from_dict``) and the physics model can be cached per value.

Coordinates are board-centred millimetres: x east, y north, z up from the board's top.
The city is centred on the board; Green's HQ is along the south edge, Purple's along the
north edge. Squares are numbered row by row from the south-west corner: square ``row * 9 +
col``, named ``a1`` (south-west) to ``i9`` (north-east), like a chess board seen by Green.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields, replace
from enum import IntEnum
from typing import Any

from gamenight.core.bounds import Bound, check_bounds
from gamenight.core.errors import RulesError, shown
from gamenight.core.numbers import finite_float, read_whole_number

FILES = "abcdefghi"


class Gang(IntEnum):
    """The two gangs. Green pitches northward from the south, Purple southward."""

    GREEN = 0
    PURPLE = 1

    @property
    def letter(self) -> str:
        """``g`` or ``p``, as positions write the gang."""
        return "gp"[self]

    @property
    def label(self) -> str:
        """``green`` or ``purple``."""
        return ("green", "purple")[self]

    @property
    def other(self) -> Gang:
        """The opposing gang."""
        return Gang(1 - self)

    @classmethod
    def parse(cls, text: str) -> Gang:
        """The gang named ``green``/``purple`` or ``g``/``p`` (any case); raises RulesError
        for anything else."""
        key = text.strip().lower() if isinstance(text, str) else ""
        for gang in cls:
            if key in (gang.letter, gang.label):
                return gang
        raise RulesError(f"a gang is 'green' or 'purple' (or g/p), not {shown(text)}")


@dataclass(frozen=True)
class Table:
    """The defaults are the rulebook's table; every field is data (decision D12).

    Lengths in mm, mass in g, speeds in m/s, angles in degrees, spin in rad/s.
    """

    city_size: int = 9
    square_mm: float = 25.0
    board_width_mm: float = 420.0
    board_length_mm: float = 620.0
    launch_offset_mm: float = 160.0
    cube_mm: float = 16.0
    cube_mass_g: float = 3.0
    friction: float = 0.35
    torsional_friction_mm: float = 1.0
    rolling_friction_mm: float = 0.1
    gravity: float = 9.81
    coverage_margin_mm: float = 1.0
    cubes_per_gang: int = 4
    max_turns: int | None = None
    timestep_s: float = 0.003
    integrator: str = "euler"  # MuJoCo's integrator, by its name in lower case (D24)
    start_lead: float = 0.45  # time steps the cube starts ahead along its motion (D24)
    warmstart: bool = False  # MuJoCo's solver warm start (D24)
    frame_rate: float = 60.0
    max_flick_s: float = 10.0
    max_flick_steps: int = 10_000
    rest_speed: float = 0.005
    rest_spin: float = 0.2
    max_direction_deg: float = 60.0
    min_speed: float = 0.1
    max_speed: float = 3.0
    max_spin: float = 40.0
    powers: str = "both"  # which gangs have their power: both, green, purple or none (D22)

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            choices = _CHOICES.get(f.name)
            if choices is not None:
                if value not in choices:
                    raise RulesError(
                        f"{f.name} must be one of {', '.join(choices)}, not {shown(value)}"
                    )
                continue
            if f.name == "warmstart":
                if not isinstance(value, bool):
                    raise RulesError(f"warmstart must be true or false, not {shown(value)}")
                continue
            if f.name == "max_turns":
                if value is not None and (
                    not isinstance(value, int) or isinstance(value, bool) or value < 1
                ):
                    raise RulesError(
                        f"max_turns must be a positive whole number, not {shown(value)}"
                    )
                continue
            if f.name in ("city_size", "cubes_per_gang", "max_flick_steps"):
                if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                    raise RulesError(
                        f"{f.name} must be a positive whole number, not {shown(value)}"
                    )
                continue
            number = finite_float(value, f.name, RulesError)
            if number < 0:
                raise RulesError(f"{f.name} must be a finite number ≥ 0, not {shown(value)}")
            object.__setattr__(self, f.name, number)
        positive = ("square_mm", "cube_mm", "cube_mass_g", "friction", "gravity", "timestep_s")
        for name in (*positive, "frame_rate", "max_flick_s", "max_speed"):
            if getattr(self, name) <= 0:
                raise RulesError(f"{name} must be greater than 0")
        if self.city_mm > min(self.board_width_mm, self.board_length_mm - 2 * self.cube_mm):
            raise RulesError("the city must fit on the board")
        if self.launch_y > self.board_length_mm / 2 - self.cube_mm / 2:
            raise RulesError("the launch line must lie on the board, a cube's width from its end")
        if self.min_speed > self.max_speed:
            raise RulesError("min_speed must not exceed max_speed")
        if self.coverage_margin_mm * 2 >= self.square_mm:
            raise RulesError("coverage_margin_mm must be under half a square")
        if self.timestep_s * self.frame_rate > 1:
            raise RulesError("frames must be at least one time step apart")

    def has_power(self, gang: Gang) -> bool:
        """Whether ``gang`` starts the game with its power (D22)."""
        return self.powers in ("both", gang.label)

    # ------------------------------------------------------------------ geometry

    @property
    def num_squares(self) -> int:
        """How many squares the city has."""
        return self.city_size * self.city_size

    @property
    def city_mm(self) -> float:
        """The city's side in mm."""
        return self.city_size * self.square_mm

    @property
    def city_half(self) -> float:
        """Half the city's side in mm: its edges are at ±city_half."""
        return self.city_mm / 2

    @property
    def launch_y(self) -> float:
        """Distance of each launch line from the board's centre line (south for Green)."""
        return self.city_half + self.launch_offset_mm

    @property
    def launch_half_width(self) -> float:
        """How far from the centre line a cube may start: the whole cube within the city's
        width (decision D13)."""
        return self.city_half - self.cube_mm / 2

    def square_bounds(self, square: int) -> tuple[float, float, float, float]:
        """(x_min, y_min, x_max, y_max) of a square in mm."""
        row, col = divmod(square, self.city_size)
        x0 = -self.city_half + col * self.square_mm
        y0 = -self.city_half + row * self.square_mm
        return (x0, y0, x0 + self.square_mm, y0 + self.square_mm)

    def square_centre(self, square: int) -> tuple[float, float]:
        """(x, y) of a square's centre in mm."""
        x0, y0, x1, y1 = self.square_bounds(square)
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    def square_name(self, square: int) -> str:
        """A square's name, file letter then row: ``a1`` (south-west) … ``i9``."""
        row, col = divmod(square, self.city_size)
        return f"{FILES[col] if col < len(FILES) else f'c{col}'}{row + 1}"

    def parse_square(self, text: str) -> int:
        """The square a name stands for (any case); raises RulesError, and nothing else, for
        anything that is not the name of a square in the city."""
        t = text.strip().lower() if isinstance(text, str) else ""
        col = FILES.find(t[0]) if t else -1
        try:
            row = read_whole_number(t[1:], "a square's row", RulesError) - 1
        except RulesError:
            row = -1  # told below, with the whole name
        if 0 <= col < self.city_size and 0 <= row < self.city_size:
            return row * self.city_size + col
        raise RulesError(f"{shown(text)} is not a square of the city (a1–i9)")

    def launch_frame(self, gang: Gang) -> tuple[float, float, float]:
        """(origin x, origin y, heading in radians) of a gang's launch line: the point on
        the centre line and the world direction of "straight ahead"."""
        if gang is Gang.GREEN:
            return (0.0, -self.launch_y, math.pi / 2)
        return (0.0, self.launch_y, -math.pi / 2)

    # ------------------------------------------------------------------ values

    def check_bounds(self) -> Table:
        """This table, or RulesError naming each field outside its set-up bound (BOUNDS)
        with the bound and why. Checked when a table is set up, never when a stored one is
        loaded: tables stored under older bounds still replay (decision D21)."""
        check_bounds("Color City table", self.to_dict(), BOUNDS)
        return self

    def with_(self, **changes: Any) -> Table:
        """A copy with the given fields changed, checked like a new table (RulesError)."""
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready data; ``from_dict`` reads it back."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> Table:
        """The table in ``data`` (missing fields take their defaults); raises RulesError,
        and nothing else, for any ``data`` that is not a table (an unknown field, a value of
        the wrong type or out of range)."""
        if not isinstance(data, dict):
            raise RulesError("a Color City table is a JSON object")
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            names = ", ".join(sorted(repr(k) if not isinstance(k, str) else k for k in unknown))
            raise RulesError(f"unknown Color City table field(s): {names}")
        return cls(**data)

    @classmethod
    def from_stored(cls, data: Any) -> Table:
        """The table a record or a stored game keeps (``to_dict``'s every field), as
        ``from_dict``; but a table stored before D24 (it has no ``start_lead``) keeps the
        physics it was played with: each of D24's fields it lacks takes D19's value, not
        today's default, so that an old game neither mixes its old time step with the new
        lead nor changes its flicks after an upgrade."""
        if isinstance(data, dict) and "start_lead" not in data:
            data = {**D19_PHYSICS, **data}
        return cls.from_dict(data)


D19_PHYSICS: dict[str, Any] = {
    "timestep_s": 0.0015,
    "integrator": "euler",
    "start_lead": 0.0,
    "warmstart": True,
    "rest_speed": 1e-3,
    "rest_spin": 0.05,
}
"""The physics fields D24 added or changed, as they were before it (D19): what a table
stored without them was played with (``Table.from_stored``)."""

POWERS = ("both", "green", "purple", "none")
"""The values of ``Table.powers``: which gangs start with their power (D22)."""

INTEGRATORS = ("euler", "implicitfast", "implicit", "rk4")
"""The values of ``Table.integrator``: MuJoCo's integrators, by their names in lower case
(its MJCF spells them ``Euler``, ``implicitfast``, ``implicit``, ``RK4``; D24)."""

_CHOICES: dict[str, tuple[str, ...]] = {"powers": POWERS, "integrator": INTEGRATORS}
BOOLS = ("True", "False")  # how a Bound's choices name a true/false field's two values

_SIZE = "a board that fits on a real table, and a cube a finger can flick"
_PHYSICS = "a contact the simulation handles stably"
MOST_FLICK_STEPS = 20_000
"""The largest step cap a table may be set up with: about 0.1 s of one core's work."""
_WORK = "every flick's work stays small: at most 20,000 steps, about 0.1 s of one core"

BOUNDS: dict[str, Bound] = {
    "city_size": Bound("a 4×4 block must fit (D10); squares are named a–i", 4, 9),
    "square_mm": Bound(_SIZE, 5, 100),
    "board_width_mm": Bound(_SIZE, 50, 2000),
    "board_length_mm": Bound(_SIZE, 50, 3000),
    "launch_offset_mm": Bound(_SIZE, 0, 1000),
    "cube_mm": Bound(_SIZE, 5, 50),
    "cube_mass_g": Bound(_SIZE, 0.5, 100),
    "friction": Bound("sliding friction of real surfaces: below 0.05 a cube barely stops", 0.05, 2),
    "torsional_friction_mm": Bound(_PHYSICS, 0, 10),
    "rolling_friction_mm": Bound(_PHYSICS, 0, 10),
    "gravity": Bound(_PHYSICS, 1, 30),
    "coverage_margin_mm": Bound("under half a square, as the table checks", 0, 10),
    "cubes_per_gang": Bound("a game of a sensible length", 1, 20),
    "max_turns": Bound("a game of a sensible length", 1, 10_000, optional=True),
    "timestep_s": Bound(_PHYSICS + "; finer steps only cost time", 0.0001, 0.005),
    "integrator": Bound(
        "MuJoCo's integrators; Euler is the fastest here (D24)", choices=INTEGRATORS
    ),
    "start_lead": Bound(
        "½ cancels the Euler step's half-step short slide (D24); beyond a step the cube jumps",
        0,
        1,
    ),
    "warmstart": Bound("MuJoCo's solver option: a rest moves under 0.001 mm (D24)", choices=BOOLS),
    "frame_rate": Bound(
        "enough frames to draw a path; the cube is checked for rest once a frame", 10, 240
    ),
    "max_flick_s": Bound("no real flick lasts longer", 1, 30),
    "max_flick_steps": Bound(_WORK, 1000, MOST_FLICK_STEPS),
    "rest_speed": Bound("above 0, or a cube is never at rest and runs to the cap", 0.0001, 0.05),
    "rest_spin": Bound("above 0, or a cube is never at rest and runs to the cap", 0.001, 1),
    "max_direction_deg": Bound("a shot goes toward the city, not along the line", 0, 89),
    "min_speed": Bound("a finger's flick", 0, 10),
    "max_speed": Bound("a finger's flick", 0.1, 10),
    "max_spin": Bound("a finger's flick", 0, 200),
    "powers": Bound("the gangs whose power is in play (D22)", choices=POWERS),
}
"""Each Table field's set-up bound and its reason (documented in docs/rules/colorcity.md)."""

DEFAULT_TABLE = Table()
