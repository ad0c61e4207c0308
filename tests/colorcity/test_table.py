"""The table value: defaults, serialisation, validation, geometry."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.colorcity import DEFAULT_TABLE, Gang, Table
from gamenight.core.errors import RulesError
from tests.parsing import SETTINGS, any_text, json_like, mutated_text, mutated_value, only_raises

T = DEFAULT_TABLE


def test_defaults_are_the_rulebook_table() -> None:
    assert (T.city_size, T.square_mm, T.board_width_mm, T.board_length_mm) == (9, 25, 420, 620)
    assert (T.launch_offset_mm, T.cube_mm, T.cube_mass_g, T.friction) == (160, 16, 3, 0.35)
    assert T.coverage_margin_mm == 1.0
    assert T.cubes_per_gang == 4
    assert T.max_turns is None


def test_round_trips_through_json() -> None:
    table = T.with_(max_turns=30, friction=0.4, coverage_margin_mm=1.5)
    again = Table.from_dict(json.loads(json.dumps(table.to_dict())))
    assert again == table
    assert hash(again) == hash(table)


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"friction": -0.1}, "friction"),
        ({"friction": float("nan")}, "friction"),
        ({"max_turns": 0}, "max_turns"),
        ({"cubes_per_gang": 2.5}, "cubes_per_gang"),
        ({"coverage_margin_mm": 13.0}, "coverage_margin_mm"),
        ({"board_width_mm": 100.0}, "city must fit"),
        ({"launch_offset_mm": 300.0}, "launch line"),
        ({"timestep_s": "fast"}, "timestep_s"),
    ],
)
def test_bad_values_are_refused(changes: dict[str, object], problem: str) -> None:
    with pytest.raises(RulesError, match=problem):
        T.with_(**changes)


def test_unknown_fields_are_refused() -> None:
    with pytest.raises(RulesError, match="unknown"):
        Table.from_dict({"gravity": 9.81, "wind": 3})
    with pytest.raises(RulesError, match="object"):
        Table.from_dict([1, 2])


def test_squares_are_named_from_the_south_west() -> None:
    assert T.square_name(0) == "a1"
    assert T.square_name(8) == "i1"
    assert T.square_name(80) == "i9"
    assert T.parse_square("E5") == 40
    assert T.square_bounds(0) == (-112.5, -112.5, -87.5, -87.5)
    assert T.square_centre(40) == (0.0, 0.0)
    with pytest.raises(RulesError, match="not a square"):
        T.parse_square("j1")


def test_launch_lines_face_each_other() -> None:
    assert T.launch_frame(Gang.GREEN)[:2] == (0.0, -272.5)
    assert T.launch_frame(Gang.PURPLE)[:2] == (0.0, 272.5)
    assert T.launch_half_width == 104.5


def test_gangs_parse() -> None:
    assert Gang.parse("Green") is Gang.GREEN
    assert Gang.parse("p") is Gang.PURPLE
    assert Gang.GREEN.other is Gang.PURPLE
    with pytest.raises(RulesError):
        Gang.parse("blue")


@pytest.mark.parametrize("name", ["a²", "b١", "c+1", "d0x1", "e_1", "a" + "9" * 5000, 5, None])
def test_square_names_are_ascii_or_a_rules_error(name: Any) -> None:
    # 'a²' passed isdigit() and then failed in int().
    with pytest.raises(RulesError, match="not a square"):
        T.parse_square(name)


@settings(**SETTINGS)
@given(st.one_of(json_like, mutated_value(T.with_(max_turns=30).to_dict())))
def test_any_value_gives_a_table_or_a_rules_error(data: Any) -> None:
    table = only_raises(RulesError, Table.from_dict, data)
    if table is not None:
        assert Table.from_dict(json.loads(json.dumps(table.to_dict()))) == table
    only_raises(RulesError, Gang.parse, data)
    only_raises(RulesError, T.parse_square, data)
    assert Table.from_dict(T.to_dict()) == T


@settings(**SETTINGS)
@given(st.one_of(any_text, st.sampled_from(["a1", "i9", "E5", " c3 "]).flatmap(mutated_text)))
def test_any_text_gives_a_square_or_a_rules_error(text: str) -> None:
    square = only_raises(RulesError, T.parse_square, text)
    if square is not None:
        assert T.parse_square(T.square_name(square)) == square
