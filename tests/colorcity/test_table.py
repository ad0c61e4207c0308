"""The table value: defaults, serialisation, validation, geometry."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.colorcity import DEFAULT_TABLE, Gang, Table
from gamenight.colorcity.table import BOUNDS, D19_PHYSICS
from gamenight.core.bounds import check_bounds
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


# ---------------------------------------------------------------- set-up bounds (D21)

HOSTILE = {"frame_rate": 0.01, "rest_speed": 0, "rest_spin": 0, "max_flick_s": 1e9}


def _edges() -> list[tuple[str, object, bool]]:
    """(field, value, inside?) at and just outside both edges of every bound."""
    cases: list[tuple[str, object, bool]] = []
    for name, bound in BOUNDS.items():
        if bound.choices:
            continue  # powers: test_state::test_which_gangs_have_their_power_is_checked
        assert bound.low is not None
        assert bound.high is not None
        whole = isinstance(getattr(T, name) if name != "max_turns" else 1, int)
        below = bound.low - 1 if whole else math.nextafter(bound.low, -math.inf)
        above = bound.high + 1 if whole else math.nextafter(bound.high, math.inf)
        low, high = (int(bound.low), int(bound.high)) if whole else (bound.low, bound.high)
        cases += [(name, low, True), (name, high, True), (name, below, False)]
        cases += [(name, above, False), (name, math.nan, False), (name, math.inf, False)]
    return cases


def test_every_field_has_a_bound_and_the_defaults_lie_within() -> None:
    assert set(BOUNDS) == set(T.to_dict())
    assert T.check_bounds() is T
    assert all(bound.reason for bound in BOUNDS.values())


@pytest.mark.parametrize(("name", "value", "inside"), _edges())
def test_bounds_hold_at_their_edges_and_refuse_beyond(
    name: str, value: object, inside: bool
) -> None:
    values = {**T.to_dict(), name: value}
    if inside:
        check_bounds("Color City table", values, BOUNDS)
        return
    with pytest.raises(RulesError, match=rf"{name} must be (none, or )?from .* not"):
        check_bounds("Color City table", values, BOUNDS)


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        (HOSTILE, "frame_rate must be from 10 to 240"),
        (HOSTILE, "rest_speed must be from 0.0001 to 0.05"),
        (HOSTILE, "max_flick_s must be from 1 to 30"),
        ({"max_flick_steps": 999}, "max_flick_steps must be from 1000 to 20000"),
        ({"max_flick_steps": 20_001}, "max_flick_steps must be from 1000 to 20000"),
        ({"max_turns": 10_001}, "max_turns must be none, or from 1 to 10000"),
        ({"timestep_s": 0.00001}, "timestep_s must be from 0.0001 to 0.005"),
    ],
)
def test_a_table_outside_its_bounds_is_refused_naming_the_field(
    changes: dict[str, object], problem: str
) -> None:
    table = T.with_(**changes)  # a valid value: a stored game with it still loads
    with pytest.raises(RulesError, match=re.escape(problem)):
        table.check_bounds()


def test_tables_at_the_edges_of_their_bounds_are_accepted() -> None:
    for name in ("max_flick_steps", "frame_rate", "max_flick_s", "rest_speed", "rest_spin"):
        for edge in (BOUNDS[name].low, BOUNDS[name].high):
            assert edge is not None
            value = int(edge) if name == "max_flick_steps" else edge
            assert T.with_(**{name: value}).check_bounds()
    assert T.with_(max_turns=None).check_bounds() == T


def test_nan_and_infinity_are_refused_naming_the_field() -> None:
    for value in (math.nan, math.inf, -math.inf):
        with pytest.raises(RulesError, match="friction"):
            Table.from_dict({"friction": value})


def test_a_record_without_the_step_cap_takes_the_default() -> None:
    old = {k: v for k, v in T.to_dict().items() if k != "max_flick_steps"}
    assert Table.from_dict(old).max_flick_steps == 10_000


def test_a_table_stored_before_d24_keeps_d19s_physics() -> None:
    # A record or a stored web table holds every field its table then had (to_dict).
    old = T.with_(**D19_PHYSICS, max_turns=30)
    stored = {k: v for k, v in old.to_dict().items() if k not in ("integrator", "start_lead")}
    del stored["warmstart"]
    assert Table.from_stored(stored) == old
    assert Table.from_dict(stored) != old  # read as set-up rules: D24's lead and warm start
    assert Table.from_stored(T.to_dict()) == T  # stored since D24: as it is
    # Rules a user gives are read as today's, whatever the physics fields they name.
    assert Table.from_dict({"max_turns": 60}) == T.with_(max_turns=60)
    assert Table.from_dict({"timestep_s": 0.0015}).start_lead == T.start_lead
    with pytest.raises(RulesError, match="warmstart"):
        Table.from_stored({**stored, "warmstart": "yes"})


@pytest.mark.parametrize("page", ["colorcity.md", "colorcity.ko.md"])
def test_the_bounds_tables_in_the_docs_match_the_code(page: str) -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "rules" / page).read_text("utf-8")
    section = text[text.index("| `city_size` | 9 | 4 – 9 |") :].split("\n\n", 1)[0]
    rows = {line.split(" | ")[0].strip("| `"): line for line in section.splitlines()}
    assert set(rows) == set(BOUNDS)
    for name, bound in BOUNDS.items():
        default = getattr(T, name)
        if bound.choices:
            assert f"| {default} | {bound.text()} |" in rows[name], name
            continue
        assert f" {bound.low:g} – {bound.high:g}" in rows[name], name
        assert default is None or f"| {default:g}" in rows[name], name


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
