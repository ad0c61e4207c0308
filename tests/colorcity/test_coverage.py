"""Coverage: which squares a cube's footprint reaches at least 1 mm into (D3, D5)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamenight.colorcity import DEFAULT_TABLE, Pose, covered_squares, footprint
from gamenight.colorcity.coverage import corners, footprint_outline

from .helpers import pose_at

T = DEFAULT_TABLE
HALF = T.cube_mm / 2


def names(squares: tuple[int, ...]) -> list[str]:
    return [T.square_name(s) for s in squares]


def test_centred_in_a_square_covers_exactly_that_square() -> None:
    for sq in range(T.num_squares):
        x, y = T.square_centre(sq)
        assert covered_squares(T, pose_at(x, y)) == (sq,)


def test_centred_on_a_grid_corner_covers_four() -> None:
    # The corner shared by e5, f5, e6 and f6.
    x0, y0, _, _ = T.square_bounds(T.parse_square("f6"))
    assert names(covered_squares(T, pose_at(x0, y0))) == ["e5", "f5", "e6", "f6"]


@pytest.mark.parametrize(("intrusion", "expected"), [(0.5, ["e5"]), (1.5, ["e5", "f5"])])
def test_intrusion_below_the_margin_does_not_count(intrusion: float, expected: list[str]) -> None:
    # A cube in e5 whose east face reaches ``intrusion`` mm into f5.
    _, y0, x1, y1 = T.square_bounds(T.parse_square("e5"))
    pose = pose_at(x1 + intrusion - HALF, (y0 + y1) / 2)
    assert names(covered_squares(T, pose)) == expected


def test_exactly_the_margin_counts() -> None:
    _, y0, x1, y1 = T.square_bounds(T.parse_square("e5"))
    assert names(covered_squares(T, pose_at(x1 + 1.0 - HALF, (y0 + y1) / 2))) == ["e5", "f5"]


def test_the_margin_is_a_setting() -> None:
    _, y0, x1, y1 = T.square_bounds(T.parse_square("e5"))
    pose = pose_at(x1 + 1.5 - HALF, (y0 + y1) / 2)
    assert names(covered_squares(T.with_(coverage_margin_mm=2.0), pose)) == ["e5"]
    assert names(covered_squares(T.with_(coverage_margin_mm=0.0), pose)) == ["e5", "f5"]


def test_a_cube_turned_45_degrees_reaches_farther() -> None:
    # Centred 10 mm west of e5's east edge: square-on it stays in e5 (reaches 2 mm short),
    # turned 45° its corner reaches 8√2 − 10 ≈ 1.31 mm into f5.
    _, y0, x1, y1 = T.square_bounds(T.parse_square("e5"))
    y = (y0 + y1) / 2
    assert names(covered_squares(T, pose_at(x1 - 10, y))) == ["e5"]
    assert names(covered_squares(T, pose_at(x1 - 10, y, 45.0))) == ["e5", "f5"]
    outline = footprint_outline(T, pose_at(0.0, 0.0, 45.0))
    assert max(x for x, _ in outline) == pytest.approx(HALF * math.sqrt(2))


def test_a_cube_half_outside_the_city_covers_its_city_squares() -> None:
    # Straddling the south edge of the city at a1/b1.
    x_edge = T.square_bounds(T.parse_square("b1"))[0]
    assert names(covered_squares(T, pose_at(x_edge, -T.city_half))) == ["a1", "b1"]
    # Straddling the north-east corner: only i9.
    assert names(covered_squares(T, pose_at(T.city_half, T.city_half))) == ["i9"]


def test_outside_the_city_covers_nothing() -> None:
    assert covered_squares(T, pose_at(0.0, -T.city_half - HALF - 0.5)) == ()
    assert covered_squares(T, pose_at(0.0, T.launch_y)) == ()


def test_a_fallen_cube_covers_nothing() -> None:
    # Even right above the city: its centre is below the board's top, so it is off the table.
    assert covered_squares(T, Pose(0.0, 0.0, -1.0)) == ()


def test_a_tilted_cube_shows_a_larger_outline() -> None:
    # A cube tipped 30° about the x axis shows part of a side face from above.
    half = math.radians(30) / 2
    tilted = Pose(0.0, 0.0, 12.0, math.cos(half), math.sin(half), 0.0, 0.0)
    assert footprint(T, tilted).area > footprint(T, pose_at(0.0, 0.0)).area + 1
    zs = [c[2] for c in corners(T, tilted)]
    assert max(zs) - min(zs) > T.cube_mm


def test_footprint_of_a_flat_cube_is_its_face() -> None:
    assert footprint(T, pose_at(3.0, 4.0, 17.0)).area == pytest.approx(T.cube_mm**2)


@given(
    x=st.floats(-110, 110),
    y=st.floats(-110, 110),
    yaw=st.floats(-180, 180),
)
def test_a_flat_cube_on_the_city_covers_one_to_four_nearby_squares(
    x: float, y: float, yaw: float
) -> None:
    squares = covered_squares(T, pose_at(x, y, yaw))
    assert 1 <= len(squares) <= 4
    reach = HALF * math.sqrt(2)
    for s in squares:
        x0, y0, x1, y1 = T.square_bounds(s)
        # The nearest point of the shrunk square is within the cube's corner reach.
        nx = min(max(x, x0 + 1), x1 - 1)
        ny = min(max(y, y0 + 1), y1 - 1)
        assert math.hypot(nx - x, ny - y) <= reach + 1e-9
    # The square under the centre is always covered.
    col = min(int((x + T.city_half) // T.square_mm), 8)
    row = min(int((y + T.city_half) // T.square_mm), 8)
    assert row * 9 + col in squares
