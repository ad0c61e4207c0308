"""Color City: flick cubes from your HQ onto a 9×9 city and paint it in your gang's colour.

>>> from gamenight.colorcity import ColorCityState, Shot
>>> state = ColorCityState.new(seed=7)
>>> pitch = state.push(Shot(0.0, 0.0, 1.3, 0.0))
>>> _ = state.pop()
"""

from gamenight.colorcity.actions import Decision, Pitch, parse_action
from gamenight.colorcity.coverage import covered_squares, footprint
from gamenight.colorcity.physics import Flick, Pose, simulate, stopping_distance
from gamenight.colorcity.position import Position, PositionError
from gamenight.colorcity.record import replay, to_record
from gamenight.colorcity.shots import (
    SIGMAS,
    Noise,
    Shot,
    ShotError,
    Skill,
    draw_noise,
    executed,
    flick,
    parse_shot,
    predict,
)
from gamenight.colorcity.state import (
    ColorCityState,
    ColorCityView,
    Phase,
    completed_sets,
    set_gaps,
    threats,
    winning_sets,
)
from gamenight.colorcity.table import DEFAULT_TABLE, Gang, Table
from gamenight.core.errors import IllegalActionError, NotationError, RecordError

__all__ = [
    "DEFAULT_TABLE",
    "SIGMAS",
    "ColorCityState",
    "ColorCityView",
    "Decision",
    "Flick",
    "Gang",
    "IllegalActionError",
    "Noise",
    "NotationError",
    "Phase",
    "Pitch",
    "Pose",
    "Position",
    "PositionError",
    "RecordError",
    "Shot",
    "ShotError",
    "Skill",
    "Table",
    "completed_sets",
    "covered_squares",
    "draw_noise",
    "executed",
    "flick",
    "footprint",
    "parse_action",
    "parse_shot",
    "predict",
    "replay",
    "set_gaps",
    "simulate",
    "stopping_distance",
    "threats",
    "to_record",
    "winning_sets",
]
