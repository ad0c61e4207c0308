"""The actions of a turn besides the shot: the power decision, and the played pitch.

A pushed ``Shot`` becomes a ``Pitch`` on the state's stack: the shot as aimed, the noise the
hand added and the pose where the cube stopped. A record stores pitches, so a replay
applies the recorded pose instead of simulating again (decision D17).

Power decisions are written ``lucky-day``, ``purple-pain`` and ``pass``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

from gamenight.colorcity.physics import Pose
from gamenight.colorcity.shots import Noise, Shot, parse_shot
from gamenight.core.errors import NotationError, RecordError, shown
from gamenight.core.numbers import finite_float


class Decision(StrEnum):
    """A power decision once the cube stops: Green's Lucky Day, Purple's Purple Pain, or
    pass."""

    LUCKY_DAY = "lucky-day"
    PURPLE_PAIN = "purple-pain"
    PASS = "pass"

    @classmethod
    def parse(cls, text: str) -> Decision:
        """The decision ``text`` names (any case; ``_`` or a space for ``-``); raises
        NotationError for anything else."""
        key = (
            text.strip().lower().replace("_", "-").replace(" ", "-")
            if isinstance(text, str)
            else None
        )
        for d in cls:
            if key == d.value:
                return d
        raise NotationError(
            f"a power decision is one of {', '.join(d.value for d in cls)}, not {shown(text)}"
        )


class Pitch(NamedTuple):
    """A shot as played: the shot as aimed, the noise the hand added, where the cube
    stopped."""

    shot: Shot
    noise: Noise
    pose: Pose

    def __str__(self) -> str:
        return str(self.shot)

    def to_json(self) -> dict[str, Any]:
        """The pitch as record data; ``from_json`` reads it back."""
        return {"shot": str(self.shot), "noise": list(self.noise), "pose": list(self.pose)}

    @classmethod
    def from_json(cls, data: Any) -> Pitch:
        """The pitch in record data; raises RecordError naming the problem, and nothing
        else, for any ``data``."""
        if not isinstance(data, dict) or set(data) != {"shot", "noise", "pose"}:
            raise RecordError("a pitch in a record is an object with shot, noise and pose")
        if not isinstance(data["shot"], str):
            raise RecordError("a pitch's shot is written as text")
        try:
            shot = parse_shot(data["shot"])
        except NotationError as exc:
            raise RecordError(f"pitch: {exc}") from None
        noise = data["noise"]
        if not isinstance(noise, list) or len(noise) != 3:
            raise RecordError("a pitch's noise is 3 finite numbers")
        values = [finite_float(v, "a pitch's noise", RecordError) for v in noise]
        try:
            pose = Pose.from_values(data["pose"])
        except NotationError as exc:
            raise RecordError(f"pitch: {exc}") from None
        return cls(shot, Noise(*values), pose)


Action = Shot | Pitch | Decision


def parse_action(text: str) -> Shot | Decision:
    """A decision by name, otherwise a shot in notation; raises NotationError, and nothing
    else, for any other input."""
    if not isinstance(text, str):
        raise NotationError(f"an action is written as text, not {type(text).__name__}")
    try:
        return Decision.parse(text)
    except NotationError:
        pass
    try:
        return parse_shot(text)
    except NotationError as exc:
        decisions = ", ".join(d.value for d in Decision)
        raise NotationError(f"{exc} (or a power decision: {decisions})") from None
