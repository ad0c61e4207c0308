"""SVG of the board from above."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from gamenight.colorcity import ColorCityState

from .helpers import make_state, pitch_to_square

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_the_board_has_81_squares_and_both_hqs() -> None:
    root = parse(make_state()._repr_svg_())
    rects = root.iter(f"{NS}rect")
    classes = [r.get("class") for r in rects]
    assert classes.count("square") == 81
    assert classes.count("cube-green") == 4
    assert classes.count("cube-purple") == 4
    assert root.find(f"{NS}polyline") is None


def test_colours_lost_cubes_trajectory_and_footprint() -> None:
    state = ColorCityState.new(seed=2, seats=[("green", "exact"), ("purple", "exact")])
    state.push("0 0 1.3 0")
    state.push("pass")
    root = parse(state._repr_svg_())
    e4 = next(r for r in root.iter(f"{NS}rect") if r.get("data-square") == "e4")
    assert e4.get("fill") == "#2e9d4f"
    line = root.find(f"{NS}polyline")
    assert line is not None
    assert line.get("class") == "trajectory"
    points = [tuple(map(float, p.split(","))) for p in (line.get("points") or "").split()]
    assert points[0] == (0.0, 272.5)  # Green's launch line, north up
    assert points[-1][1] < 50
    footprint = root.find(f"{NS}polygon")
    assert footprint is not None
    assert footprint.get("class") == "footprint"
    # A resting cube is a 16 mm square seen from above (its slight tilt adds a sliver).
    corners = [tuple(map(float, p.split(","))) for p in (footprint.get("points") or "").split()]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    assert max(xs) - min(xs) == pytest.approx(16, abs=0.2)
    assert max(ys) - min(ys) == pytest.approx(16, abs=0.2)


def test_destroyed_cubes_are_drawn_as_outlines() -> None:
    state = make_state(to_move=ColorCityState.new(seed=1).to_move.other)  # type: ignore[union-attr]
    pitch_to_square(state, 40)
    state.push("purple-pain")
    classes = [r.get("class") for r in parse(state._repr_svg_()).iter(f"{NS}rect")]
    assert classes.count("cube-green") == 3
    assert classes.count("lost-green") == 1
