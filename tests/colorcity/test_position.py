"""The one-line position format: round trips and clear errors naming the field."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.colorcity import ColorCityState, Gang, Pose, Position, PositionError, Shot, Skill
from gamenight.colorcity.table import DEFAULT_TABLE
from gamenight.core.errors import NotationError, RulesError
from tests.parsing import SETTINGS, any_text, json_like, mutated_text, only_raises

from .helpers import make_state, pitch_to_square

START = (
    "........./........./........./........./........./........./........./........./......... "
    "4,4 LP g pitch - 0 0000000000003039 g:normal,p:normal -"
)


def test_a_new_state_formats_as_documented() -> None:
    assert make_state().position() == START


def test_positions_round_trip_through_every_phase() -> None:
    state = ColorCityState.new(seed=21, seats=[(Gang.GREEN, "shaky"), (Gang.PURPLE, "steady")])
    for action in ("0 0 1.3 0", "pass", "12 -3 1.45 7", "purple-pain", "0 4 1.2 0"):
        state.push(action)
        text = state.position()
        again = ColorCityState.from_position(text)
        assert again.position() == text
        assert again == state
        assert Position.parse(text) == state.to_position()
    assert state.phase.value == "power"
    assert state.position().split()[5] != "-"


def test_the_city_is_written_north_row_first() -> None:
    state = make_state(powers=(False, False))
    pitch_to_square(state, DEFAULT_TABLE.parse_square("a9"))
    pitch_to_square(state, DEFAULT_TABLE.parse_square("i1"))
    rows = state.position().split()[0].split("/")
    assert rows[0] == "g........"
    assert rows[-1] == "........p"


def test_a_finished_game_formats_its_result() -> None:
    state = make_state(to_move=Gang.PURPLE, cubes=(1, 2))
    pitch_to_square(state, 40)
    state.push("purple-pain")
    fields = state.position().split()
    assert fields[1] == "0,2"
    assert fields[2] == "L-"
    assert fields[4] == "over"
    assert fields[9] == "p:elimination"
    again = ColorCityState.from_position(state.position())
    assert again.outcome == state.outcome


def bad(index: int, value: str) -> str:
    fields = START.split()
    fields[index] = value
    return " ".join(fields)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("", "10 fields"),
        (START + " extra", "10 fields"),
        (bad(0, "......../........"), "city"),
        (bad(0, START.split()[0].replace(".", "x", 1)), "city"),
        (bad(1, "4"), "cubes"),
        (bad(1, "4,-1"), "cubes"),
        (bad(2, "PL"), "powers"),
        (bad(3, "x"), "gang to move"),
        (bad(4, "flying"), "phase"),
        (bad(5, "1,2,3"), "pose"),
        (bad(4, "power"), "pose"),
        (bad(6, "two"), "turn"),
        (bad(7, "123"), "key"),
        (bad(7, "zzzzzzzzzzzzzzzz"), "key"),
        (bad(8, "g:normal"), "seats"),
        (bad(8, "g:normal,x:normal"), "seats"),
        (bad(8, "g:normal,p:tipsy"), "seats"),
        (bad(9, "g:luck"), "result"),
        (bad(9, "g:line"), "result"),
    ],
)
def test_malformed_positions_name_the_field(text: str, field: str) -> None:
    with pytest.raises(PositionError, match=field):
        Position.parse(text)
    assert issubclass(PositionError, NotationError)


def test_a_position_must_fit_the_table() -> None:
    small = "...../...../...../...../..... 4,4 LP g pitch - 0 0000000000000001 g:exact,p:exact -"
    Position.parse(small)  # readable
    with pytest.raises(PositionError, match="city: the table's city is 9×9 squares, not 5×5"):
        ColorCityState.from_position(small)
    with pytest.raises(PositionError, match="cubes: a gang has at most 4 cubes; green has 5"):
        ColorCityState.from_position(bad(1, "5,4"))
    with pytest.raises(PositionError, match=r"cubes: .* purple has 9"):
        ColorCityState.from_position(bad(1, "4,9"))
    # Built from values rather than read from text, a misfit stays a set-up (rules) error.
    with pytest.raises(RulesError, match="at most 4"):
        ColorCityState(DEFAULT_TABLE, Position.parse(bad(1, "5,4")))


def fields(**changed: str) -> str:
    names = ["city", "cubes", "powers", "to_move", "phase", "pose", "turn", "key", "seats"]
    parts = START.split()
    for name, value in changed.items():
        parts[[*names, "result"].index(name)] = value
    return " ".join(parts)


def city(*rows: str) -> str:
    """A city from its rows, north row (9) first; rows not given are empty."""
    return "/".join([*rows, *["." * 9] * (9 - len(rows))])


POSE = "0.0,0.0,8.0,1.0,0.0,0.0,0.0"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (fields(cubes="0,4"), "cubes: green has no cube left"),
        (fields(cubes="3,0", to_move="p"), "cubes: purple has no cube left"),
        (fields(city=city("ggggggggg")), "city: green has a full row or column of 9"),
        (fields(city=city(*["....p...."] * 9)), "city: purple has a full row or column"),
        (fields(city=city(*["gggg....."] * 4)), "city: green has a full 4×4 block"),
        (fields(city=city("ggggggggg"), phase="power", pose=POSE), "city: green has a full"),
        (fields(powers="-P", phase="power", pose=POSE), "phase: green's power is spent"),
        (fields(powers="L-", to_move="p", phase="power", pose=POSE), "phase: purple's power"),
    ],
)
def test_a_running_game_play_cannot_reach_is_refused(text: str, message: str) -> None:
    Position.parse(text)  # well-formed: the game, not the text, is wrong
    with pytest.raises(PositionError, match=message):
        ColorCityState.from_position(text)


@pytest.mark.parametrize(
    "text",
    [
        fields(city=city("ggggggggg"), phase="over", result="g:line"),
        fields(cubes="0,4", phase="over", result="p:elimination"),
        fields(cubes="0,0", phase="over", result="=:elimination"),
        fields(city=city("gggggggg.", *["g........"] * 7)),  # 8 in a row: no line yet
        fields(powers="-P", to_move="p", phase="power", pose=POSE),
    ],
)
def test_positions_that_play_can_reach_are_read(text: str) -> None:
    assert ColorCityState.from_position(text).position() == text


def test_a_position_state_plays_on() -> None:
    state = ColorCityState.from_position(START)
    state.push(Shot(0.0, 0.0, 1.3, 0.0))
    assert state.phase.value == "power"


@given(
    cells=st.lists(st.sampled_from([-1, 0, 1]), min_size=81, max_size=81),
    cubes=st.tuples(st.integers(1, 4), st.integers(1, 4)),
    powers=st.tuples(st.booleans(), st.booleans()),
    gang=st.sampled_from(list(Gang)),
    turn=st.integers(0, 10_000),
    key=st.integers(0, 2**64 - 1),
    x=st.floats(-300, 300),
    power_phase=st.booleans(),
)
def test_any_position_round_trips(
    cells: list[int],
    cubes: tuple[int, int],
    powers: tuple[bool, bool],
    gang: Gang,
    turn: int,
    key: int,
    x: float,
    power_phase: bool,
) -> None:
    position = Position(
        cells=tuple(cells),
        cubes=cubes,
        powers=powers,
        to_move=gang,
        phase="power" if power_phase else "pitch",
        pending=Pose(x, -x / 3, 7.9, 0.6, 0.0, 0.0, 0.8) if power_phase else None,
        turn=turn,
        key=key,
        seats=((Gang.PURPLE, Skill.SHAKY), (Gang.GREEN, Skill.EXACT)),
    )
    assert Position.parse(position.format()) == position


@pytest.mark.parametrize(
    ("index", "value", "field"),
    [
        (1, "²,4", "cubes"),
        (1, "4,١", "cubes"),
        (1, "4,+4", "cubes"),
        (6, "²", "turn"),
        (6, "١", "turn"),
        (6, "9" * 5000, "turn"),
        (5, "1_0,0,8,1,0,0,0", "pose"),
        (5, "１,0,8,1,0,0,0", "pose"),
        (5, "nan,0,8,1,0,0,0", "pose"),
    ],
)
def test_numbers_are_ascii_digits_or_a_position_error(index: int, value: str, field: str) -> None:
    # '²'.isdigit() is true, and int('²') then raised ValueError; '١' read as 1.
    fields = POWER.split()
    fields[index] = value
    with pytest.raises(PositionError, match=field):
        Position.parse(" ".join(fields))


def power_position() -> str:
    state = ColorCityState.from_position(START)
    state.push(Shot(0.0, 0.0, 1.3, 0.0))
    return state.position()


POWER = power_position()


@settings(**SETTINGS)
@given(st.one_of(any_text, json_like, st.sampled_from([START, POWER]).flatmap(mutated_text)))
def test_any_text_gives_a_position_or_a_position_error(text: Any) -> None:
    parsed = only_raises(PositionError, Position.parse, text)
    if parsed is not None:
        assert Position.parse(parsed.format()) == parsed
        state = only_raises(PositionError, ColorCityState.from_position, text)
        if state is not None:
            assert ColorCityState.from_position(state.position()).position() == state.position()
    for valid in (START, POWER):
        assert Position.parse(valid).format() == valid
