"""Shared helpers: states built from plain values, and pitches placed without physics."""

from __future__ import annotations

from gamenight.colorcity import ColorCityState, Gang, Pitch, Pose, Position, Shot, Skill
from gamenight.colorcity.position import EMPTY
from gamenight.colorcity.shots import draw_noise
from gamenight.colorcity.table import DEFAULT_TABLE, Table

CUBE_Z = 8.0  # a resting cube's centre; coverage only looks at the outline from above


def make_state(
    cells: dict[int, Gang] | None = None,
    *,
    cubes: tuple[int, int] = (4, 4),
    powers: tuple[bool, bool] = (True, True),
    to_move: Gang = Gang.GREEN,
    turn: int = 0,
    key: int = 12345,
    seats: tuple[tuple[Gang, Skill], ...] = (
        (Gang.GREEN, Skill.NORMAL),
        (Gang.PURPLE, Skill.NORMAL),
    ),
    table: Table = DEFAULT_TABLE,
) -> ColorCityState:
    grid = [EMPTY] * table.num_squares
    for sq, gang in (cells or {}).items():
        grid[sq] = int(gang)
    position = Position(
        cells=tuple(grid),
        cubes=cubes,
        powers=powers,
        to_move=to_move,
        phase="pitch",
        pending=None,
        turn=turn,
        key=key,
        seats=seats,
    )
    return ColorCityState(table, position)


def pose_at(x: float, y: float, yaw_deg: float = 0.0) -> Pose:
    import math

    half = math.radians(yaw_deg) / 2
    return Pose(x, y, CUBE_Z, math.cos(half), 0.0, 0.0, math.sin(half))


def placed(state: ColorCityState, pose: Pose, shot: Shot | None = None) -> Pitch:
    """A pitch that ends at ``pose``, with the noise the state's generator draws now (a
    recorded pitch, as a replay would push it)."""
    gang = state.to_move
    assert gang is not None
    seat = state.seat_for_turn(gang, state.turn)
    noise, _ = draw_noise(state.key, state.seats[seat][1])
    return Pitch(shot or Shot(0.0, 0.0, 1.3, 0.0), noise, pose)


def pitch_to_square(state: ColorCityState, square: int) -> Pitch:
    """Push a pitch whose cube stops centred on ``square`` (covering exactly it)."""
    x, y = state.table.square_centre(square)
    result = state.push(placed(state, pose_at(x, y)))
    assert isinstance(result, Pitch)
    return result


def pitch_off(state: ColorCityState) -> Pitch:
    """Push a pitch whose cube fell off the table."""
    result = state.push(placed(state, Pose(0.0, 400.0, -20.0)))
    assert isinstance(result, Pitch)
    return result
