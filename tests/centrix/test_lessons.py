"""The guided first game's Centrix lessons: each position is the engine's own, and each goal
is reachable by a legal play (for the three-card turn, by a turn of legal plays)."""

from __future__ import annotations

import pytest

from gamenight.centrix.board import OFF, parse_square, square_name
from gamenight.centrix.cards import Card
from gamenight.centrix.explain import problem
from gamenight.centrix.lessons import Goal, Lesson, highlighted, lessons, reached
from gamenight.centrix.plays import Move, Play
from gamenight.centrix.refusals import Code
from gamenight.centrix.state import CentrixState

HANGUL = ("\uac00", "\ud7a3")

# The issue's order: entering, moving, turning, leapfrogging, bumps and chains, the two
# wilds, no bump from the bottom, the top, the three-card turn, finishing.
ORDER = [
    "enter",
    "move",
    "turn",
    "leapfrog",
    "bump",
    "chain",
    "wild",
    "spin",
    "bottom",
    "top",
    "three",
    "finish",
]


def reachable(state: CentrixState, goal: Goal, depth: int = 3) -> bool:
    seat = state.actor
    for play in state.legal_plays():
        if reached(goal, state, play):
            return True
        if depth > 1:
            state.push(play)
            more = state.actor == seat and reachable(state, goal, depth - 1)
            state.pop()
            if more:
                return True
    return False


def test_the_lessons_come_in_the_issues_order() -> None:
    assert [lesson.key for lesson in lessons()] == ORDER


@pytest.mark.parametrize("lesson", lessons(), ids=lambda lesson: lesson.key)
def test_each_goal_is_reachable_by_a_legal_play(lesson: Lesson) -> None:
    state = lesson.state()
    assert state.position() == lesson.position  # the engine's own format, read back whole
    assert state.actor == 0
    depth = 3 if lesson.goal is Goal.THREE_PLAYS else 1
    assert reachable(state, lesson.goal, depth)
    assert all(0 <= sq < 72 for sq in highlighted(lesson))
    for words in (lesson.title, lesson.text):
        assert words.en
        assert any(HANGUL[0] <= ch <= HANGUL[1] for ch in words.ko)


def test_not_every_play_reaches_the_goal() -> None:
    # A lesson teaches something: some legal play of each misses its goal, but for the
    # first, where every legal play enters and the wrong square is refused in words.
    for lesson in lessons()[1:]:
        state = lesson.state()
        assert not all(reached(lesson.goal, state, p) for p in state.legal_plays()), lesson.key
    state = lessons()[0].state()
    assert all(reached(Goal.ENTER, state, p) for p in state.legal_plays())
    found = problem(state, Play(Card.O1, None, Move(OFF, parse_square("c1"))))
    assert found is not None
    assert found.code is Code.WRONG_COLOUR
    assert found.en == "c1 is yellow, but O1 moves only onto orange"


def test_the_bottom_lesson_tells_why_the_lower_pawn_cannot_be_bumped() -> None:
    lesson = next(x for x in lessons() if x.key == "bottom")
    state = lesson.state()
    wrong = Play(Card.G1, None, Move(parse_square("d3"), parse_square("d2")))  # Blue's, ring 2
    found = problem(state, wrong)
    assert found is not None
    assert found.code is Code.BELOW_RING_1
    assert "cannot bump" in found.en
    assert square_name(highlighted(lesson)[1]) == "d2"
