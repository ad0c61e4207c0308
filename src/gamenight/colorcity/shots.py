"""The shot value, the skill levels that perturb it, and turning a shot into a flick.

A shot is written from the pitching gang's own seat (decision D14): ``position`` is where
the cube rests on the launch line, in mm from the city's centre line, positive to the
gang's right; ``direction`` is in degrees from straight toward the city, positive turned
to the gang's left (counter-clockwise seen from above); ``speed`` in m/s; ``spin`` in rad/s
about the vertical, positive counter-clockwise seen from above. Purple's frame is Green's
turned half a turn, so the same shot means the same thing from either HQ.

Notation: the four numbers separated by spaces, ``position direction speed spin``, e.g.
``-12.5 3 1.35 0``.
"""

from __future__ import annotations

import math
import random
from enum import StrEnum
from typing import NamedTuple

from gamenight.colorcity.physics import Flick, simulate
from gamenight.colorcity.refusals import number, shot_problem
from gamenight.colorcity.table import Gang, Table
from gamenight.core.errors import IllegalActionError, NotationError, shown
from gamenight.core.numbers import read_decimal


class ShotError(IllegalActionError):
    """A shot out of the table's ranges or not finite; the state is untouched."""


class Shot(NamedTuple):
    """A shot as aimed, in the pitching gang's own frame: position (mm), direction (°),
    speed (m/s) and spin (rad/s)."""

    position: float
    direction: float
    speed: float
    spin: float = 0.0

    def __str__(self) -> str:
        return " ".join(number(v) for v in self)

    @classmethod
    def parse(cls, text: str) -> Shot:
        """The shot written in ``text`` (as ``parse_shot``); raises NotationError."""
        return parse_shot(text)

    def check(self, table: Table) -> Shot:
        """This shot with float fields, or ShotError naming the first bad value."""
        found = shot_problem(table, tuple(self))
        if found is not None:
            raise ShotError(found.en, rule=found.code, words=found.words())
        return Shot(*(float(v) for v in self))


def parse_shot(text: str) -> Shot:
    """A shot in notation: 3 or 4 numbers (spin defaults to 0) separated by spaces or
    commas, each a finite ASCII decimal (``-12.5``, ``1e-05``); raises NotationError, and
    nothing else, for any other ``text``. The ranges are checked by ``Shot.check``."""
    if not isinstance(text, str):
        raise NotationError(f"a shot is written as text, not {type(text).__name__}")
    parts = text.replace(",", " ").split()
    if len(parts) not in (3, 4):
        raise NotationError(
            f"a shot is 'position direction speed [spin]' (3 or 4 numbers), not {shown(text)}"
        )
    values: list[float] = []
    for name, part in zip(("position", "direction", "speed", "spin"), parts, strict=False):
        values.append(read_decimal(part, f"the shot's {name}", NotationError))
    return Shot(*values)


class Skill(StrEnum):
    """How steady a seat's hand is. The σ of each level is in ``SIGMAS`` (decision D15)."""

    EXACT = "exact"
    STEADY = "steady"
    NORMAL = "normal"
    SHAKY = "shaky"

    @classmethod
    def parse(cls, text: str) -> Skill:
        """The skill level ``text`` names (any case); raises NotationError for anything else."""
        key = text.strip().lower() if isinstance(text, str) else None
        for skill in cls:
            if key == skill.value:
                return skill
        names = ", ".join(s.value for s in cls)
        raise NotationError(f"a skill level is one of {names}, not {shown(text)}")


class Sigma(NamedTuple):
    """The spread (one σ) of a hand's noise on direction, speed and spin."""

    direction_deg: float  # additive, degrees
    speed: float  # multiplicative: speed × (1 + σ·z)
    spin: float  # additive, rad/s


SIGMAS: dict[Skill, Sigma] = {
    Skill.EXACT: Sigma(0.0, 0.0, 0.0),
    Skill.STEADY: Sigma(1.0, 0.02, 1.0),
    Skill.NORMAL: Sigma(2.5, 0.05, 2.5),
    Skill.SHAKY: Sigma(5.0, 0.10, 5.0),
}


class Noise(NamedTuple):
    """What the hand added: degrees added to the direction, the factor on the speed, and
    rad/s added to the spin."""

    direction: float
    speed_factor: float
    spin: float


NO_NOISE = Noise(0.0, 1.0, 0.0)


def draw_noise(key: int, skill: Skill) -> tuple[Noise, int]:
    """Noise for one pitch from the generator key; returns the noise and the next key.

    Three standard normals are drawn whatever the skill, so the key's sequence does not
    depend on who pitches (decision D16).
    """
    rng = random.Random(key)
    return noise_from(SIGMAS[skill], normals(rng)), rng.getrandbits(64)


def normals(rng: random.Random) -> tuple[float, float, float]:
    """Three standard normal draws (direction, speed, spin), for ``noise_from``."""
    return (rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0))


def noise_from(sigma: Sigma, z: tuple[float, float, float]) -> Noise:
    """The noise of a hand with spread ``sigma`` for three standard normal draws ``z``
    (direction, speed, spin): the one formula of D15 for the game, its bots and adapters."""
    return Noise(sigma.direction_deg * z[0], max(0.0, 1.0 + sigma.speed * z[1]), sigma.spin * z[2])


def executed(shot: Shot, noise: Noise) -> Shot:
    """The shot the hand actually played. It may leave the aiming ranges: it is physics now."""
    return Shot(
        shot.position,
        shot.direction + noise.direction,
        shot.speed * noise.speed_factor,
        shot.spin + noise.spin,
    )


def flick(table: Table, gang: Gang, shot: Shot) -> Flick:
    """Simulate ``shot`` (already executed, noise included) pitched by ``gang``."""
    ox, oy, heading = table.launch_frame(gang)
    across = heading - math.pi / 2  # the gang's right-hand direction along the line
    x = ox + shot.position * math.cos(across)
    y = oy + shot.position * math.sin(across)
    travel = heading + math.radians(shot.direction)
    # The cube is turned to face its direction of travel: the finger pushes a face square.
    return simulate(
        table,
        x,
        y,
        travel - math.pi / 2,
        shot.speed * math.cos(travel),
        shot.speed * math.sin(travel),
        shot.spin,
    )


def predict(table: Table, gang: Gang, shot: Shot) -> Flick:
    """The noise-free flick of a valid shot (for the UI and bots); raises ShotError."""
    return flick(table, gang, shot.check(table))
