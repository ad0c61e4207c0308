"""The guided first game's Color City lessons: each position is the engine's own, and each
goal is reached by a legal action (a shot aimed as the bots aim)."""

from __future__ import annotations

import pytest

from gamenight.bots.colorcity import aim_at
from gamenight.colorcity import Decision, Shot
from gamenight.colorcity.explain import problem
from gamenight.colorcity.lessons import Goal, Lesson, lessons, reached
from gamenight.colorcity.state import ColorCityState

ORDER = ["aim", "two", "off", "lucky", "pain", "line", "block"]


def square(state: ColorCityState, name: str) -> int:
    return next(s for s in range(state.table.num_squares) if state.table.square_name(s) == name)


def a_way(lesson: Lesson, state: ColorCityState) -> Shot | Decision:
    gang = state.to_move
    assert gang is not None
    table = state.table
    if lesson.goal is Goal.LUCKY_DAY:
        return Decision.LUCKY_DAY
    if lesson.key == "pain":
        return Decision.PURPLE_PAIN
    if lesson.goal is Goal.DESTROYED:
        return Shot(0.0, 0.0, table.max_speed)
    if lesson.goal is Goal.TWO_SQUARES:
        (x0, y0), (x1, y1) = (table.square_centre(square(state, n)) for n in lesson.highlight)
        return aim_at(table, gang, (x0 + x1) / 2, (y0 + y1) / 2, 0.0)
    assert lesson.target is not None
    return aim_at(table, gang, *table.square_centre(square(state, lesson.target)), 0.0)


def test_the_lessons_come_in_the_issues_order() -> None:
    assert [lesson.key for lesson in lessons()] == ORDER


@pytest.mark.parametrize("lesson", lessons(), ids=lambda lesson: lesson.key)
def test_each_goal_is_reached_by_a_legal_action(lesson: Lesson) -> None:
    state = lesson.state()
    assert state.position() == lesson.position
    assert state.actor == 0
    assert state.seats[0][1].value == "exact"
    action = a_way(lesson, state)
    assert problem(state, action) is None
    assert reached(lesson, state, action)
    assert state.position() == lesson.position  # judged on a copy
    for words in (lesson.title, lesson.text):
        assert words.en
        assert any("\uac00" <= ch <= "\ud7a3" for ch in words.ko)


def test_a_lesson_is_not_reached_by_just_anything() -> None:
    paint = lessons()[0]
    state = paint.state()
    assert not reached(paint, state, Shot(0.0, 0.0, state.table.max_speed))  # off the city
    lucky = next(x for x in lessons() if x.key == "lucky")
    assert not reached(lucky, lucky.state(), Decision.PASS)
    assert problem(lucky.state(), Decision.PURPLE_PAIN) is not None  # not Green's power
