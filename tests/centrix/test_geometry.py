"""The board's one layout: the file the web page draws from is this module's, and the shapes
are where the rules put them (slot a at twelve o'clock, ring 1 outermost, the top inside)."""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gamenight.centrix import CentrixState, geometry
from gamenight.centrix.board import NUM_RINGS, NUM_SLOTS, SQUARE_NAMES, TOP_LEVEL
from gamenight.centrix.svg import board_svg


def test_the_shipped_file_is_the_layout_of_this_module() -> None:
    # (After a change to the geometry: python -m gamenight.centrix.geometry)
    assert geometry.SHIPPED.read_text(encoding="utf-8") == geometry.to_json()


def test_the_command_writes_the_layout_where_it_is_told(tmp_path: Path) -> None:
    target = tmp_path / "layout.json"
    assert geometry.main([str(target)]) == 0
    assert json.loads(target.read_text(encoding="utf-8")) == json.loads(geometry.to_json())


def test_the_json_is_the_layout_itself() -> None:
    assert json.loads(geometry.to_json()) == json.loads(json.dumps(geometry.layout()))


def test_every_ring_square_has_a_shape_and_the_levels_are_the_rules() -> None:
    g = geometry.layout()
    assert set(g["squares"]) == set(SQUARE_NAMES[: NUM_RINGS * NUM_SLOTS])
    assert [ring["level"] for ring in g["rings"]] == list(range(1, NUM_RINGS + 1))
    assert g["top"]["level"] == TOP_LEVEL
    assert g["off"]["level"] == 0
    assert g["slots"] == "abcdefghijkl"
    assert len(g["slot_labels"]) == NUM_SLOTS


def angle_and_radius(x: float, y: float) -> tuple[float, float]:
    """Degrees clockwise from twelve o'clock, and the distance, from the board's centre."""
    cx, cy = geometry.layout()["centre"]
    return math.degrees(math.atan2(x - cx, cy - y)) % 360, math.hypot(x - cx, y - cy)


@pytest.mark.parametrize("name", ["a1", "c3", "l6", "g4"])
def test_a_pawn_and_a_symbol_stand_in_their_square(name: str) -> None:
    g = geometry.layout()
    shape = g["squares"][name]
    ring = g["rings"][shape["ring"] - 1]
    for x, y, _ in (shape["pawn"], shape["symbol"]):
        angle, radius = angle_and_radius(x, y)
        assert ring["inner"] < radius < ring["outer"]
        assert angle == pytest.approx(shape["slot"] * g["slot_angle"], abs=0.01)
    # Ring 1 is outermost, the top inside ring 6.
    assert g["rings"][0]["outer"] > g["rings"][-1]["inner"] >= g["top"]["radius"]


@pytest.mark.parametrize("count", [0, 1, 2, 5, 8, 9, 17, geometry.MOST_ON_TOP])
def test_the_pawns_on_the_top_stand_on_it_each_once(count: int) -> None:
    g = geometry.layout()
    spots = geometry.top_spots(g, count)
    assert len(spots) == count
    assert len({(round(x, 3), round(y, 3)) for x, y, _ in spots}) == count
    for x, y, r in spots:
        assert angle_and_radius(x, y)[1] + r < g["top"]["radius"]


def test_svg_draws_the_board_from_the_layout() -> None:
    g = geometry.layout()
    state = CentrixState.new(3, seed=2)
    root = ET.fromstring(board_svg(state, highlight=["c3"]))
    squares = [el for el in root.iter() if el.get("class") == "square"]
    assert len(squares) == NUM_RINGS * NUM_SLOTS
    for el in squares:
        assert el.get("d") == g["squares"][el.get("data-square", "")]["path"]
    marked = [el for el in root.iter() if el.get("class") == "highlight"]
    assert [child.get("d") for child in marked[0]] == [g["squares"]["c3"]["outline"]] * 2
