"""Action notation: power decisions and recorded pitches."""

from __future__ import annotations

import pytest

from gamenight.colorcity import Decision, Noise, Pitch, Pose, Shot, parse_action
from gamenight.core.errors import NotationError, RecordError


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
