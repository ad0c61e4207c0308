"""The guided first game's lessons for Color City, as data (``lessons.json``): each a
position in the engine's own position format (the learner's hand ``exact``, so that a
lesson's aim is what happens), the squares that matter, one goal and its title and text in
English and Korean (issue 32). A page sets the position up, lets the learner act, and asks
``reached``; an action the rules refuse is told why by ``explain.problem``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from importlib import resources

from gamenight.colorcity.actions import Decision, Pitch
from gamenight.colorcity.describe import Words
from gamenight.colorcity.shots import Shot
from gamenight.colorcity.state import ColorCityState


class Goal(StrEnum):
    """What a lesson asks of the learner's action."""

    PAINT = "paint"  # the pitch paints the lesson's target square
    TWO_SQUARES = "two_squares"  # one pitch paints two squares or more
    DESTROYED = "destroyed"  # the cube stops off the city
    LUCKY_DAY = "lucky_day"  # Green takes its power
    WIN = "win"  # the learner's gang wins


@dataclass(frozen=True)
class Lesson:
    """One lesson: its position, what to highlight, its goal and its words."""

    key: str
    goal: Goal
    target: str | None  # the square a goal names, if any
    position: str
    highlight: tuple[str, ...]
    title: Words
    text: Words

    def state(self) -> ColorCityState:
        """The lesson's position, the learner (seat 0) to act."""
        return ColorCityState.from_position(self.position)


@lru_cache(maxsize=1)
def lessons() -> tuple[Lesson, ...]:
    """The lessons, in the order the guided game teaches them."""
    raw = json.loads(resources.files("gamenight.colorcity").joinpath("lessons.json").read_text())
    return tuple(
        Lesson(
            item["key"],
            Goal(item["goal"]),
            item["target"],
            item["position"],
            tuple(item["highlight"]),
            Words(item["title"]["en"], item["title"]["ko"]),
            Words(item["text"]["en"], item["text"]["ko"]),
        )
        for item in raw
    )


def reached(lesson: Lesson, before: ColorCityState, action: Shot | Decision) -> bool:
    """Whether ``action``, legal in ``before``, reaches the lesson's goal (``before`` is
    unchanged; a shot is pitched on a copy with the seat's own hand)."""
    seat = before.actor
    after = before.copy(history=False)
    done = after.push(action)
    covered = before.covered(done.pose) if isinstance(done, Pitch) else ()
    goal = lesson.goal
    if goal is Goal.PAINT:
        table = before.table
        return any(table.square_name(s) == lesson.target for s in covered)
    if goal is Goal.TWO_SQUARES:
        return len(covered) >= 2
    if goal is Goal.DESTROYED:
        return isinstance(done, Pitch) and not covered
    if goal is Goal.LUCKY_DAY:
        return action is Decision.LUCKY_DAY
    outcome = after.outcome
    return (
        seat is not None
        and outcome is not None
        and outcome.places[seat] == 1
        and (len(set(outcome.places)) > 1)
    )
