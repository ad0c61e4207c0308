"""Action notation: power decisions and recorded pitches."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.colorcity import Decision, Noise, Pitch, Pose, Shot, Skill, parse_action, parse_shot
from gamenight.core.errors import NotationError, RecordError
from tests.parsing import SETTINGS, any_text, json_like, mutated_text, mutated_value, only_raises


def test_decisions_and_shots_parse() -> None:
    assert parse_action("Lucky Day") is Decision.LUCKY_DAY
    assert parse_action("purple_pain") is Decision.PURPLE_PAIN
    assert parse_action(" pass ") is Decision.PASS
    assert parse_action("0 0 1.3") == Shot(0.0, 0.0, 1.3, 0.0)
    with pytest.raises(NotationError, match="power decision"):
        parse_action("shoot")
    with pytest.raises(NotationError, match="text"):
        parse_action(3)  # type: ignore[arg-type]


def test_pitches_round_trip_through_json() -> None:
    pitch = Pitch(Shot(1.5, -2.0, 1.3, 0.25), Noise(0.1, 0.97, -0.3), Pose(1.0, 2.0, 7.9))
    assert Pitch.from_json(pitch.to_json()) == pitch
    assert str(pitch) == "1.5 -2 1.3 0.25"


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ([], "object"),
        ({"shot": 1, "noise": [0, 1, 0], "pose": [0, 0, 8, 1, 0, 0, 0]}, "text"),
        ({"shot": "1 2", "noise": [0, 1, 0], "pose": [0, 0, 8, 1, 0, 0, 0]}, "3 or 4"),
        ({"shot": "0 0 1", "noise": [0, 1], "pose": [0, 0, 8, 1, 0, 0, 0]}, "noise"),
        ({"shot": "0 0 1", "noise": [0, 1, "x"], "pose": [0, 0, 8, 1, 0, 0, 0]}, "noise"),
        ({"shot": "0 0 1", "noise": [0, 1, 0], "pose": [0, 0, 8]}, "7 numbers"),
    ],
)
def test_bad_recorded_pitches_are_refused(data: object, problem: str) -> None:
    with pytest.raises(RecordError, match=problem):
        Pitch.from_json(data)


SHOT_TEXTS = ["0 0 1.3", "-12.5 3 1.35 0", "1e-05,2,0.1,-40", "lucky-day", "Purple Pain", "pass"]
PITCH = Pitch(Shot(1.5, -2.0, 1.3, 0.5), Noise(0.1, 1.02, -0.3), Pose(0, 1, 8, 1, 0, 0, 0))


@settings(**SETTINGS)
@given(st.one_of(any_text, json_like, st.sampled_from(SHOT_TEXTS).flatmap(mutated_text)))
def test_any_input_gives_an_action_or_a_notation_error(text: Any) -> None:
    action = only_raises(NotationError, parse_action, text)
    if isinstance(action, Shot):
        assert parse_action(str(action)) == action
        assert all(math.isfinite(v) for v in action)
    elif action is not None:
        assert parse_action(action.value) is action
    for read in (parse_shot, Decision.parse, Skill.parse, Pose.parse):
        only_raises(NotationError, read, text)
    only_raises(NotationError, Pose.from_values, text)


@settings(**SETTINGS)
@given(st.one_of(json_like, mutated_value(PITCH.to_json())))
def test_any_value_gives_a_pitch_or_a_record_error(data: Any) -> None:
    pitch = only_raises(RecordError, Pitch.from_json, data)
    if pitch is not None:
        assert Pitch.from_json(pitch.to_json()) == pitch
    assert Pitch.from_json(PITCH.to_json()) == PITCH
