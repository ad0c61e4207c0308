"""The guided first game's lessons for Centrix, as data (``lessons.json``): each a scripted
position in the engine's own position format, the squares that matter, one goal, and its
title and text in English and Korean (issue 32). A page plays a lesson by setting the
position up, letting the learner play, and asking ``reached`` after each play; a play the
rules refuse is told why by ``explain.problem``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from importlib import resources

from gamenight.centrix.board import NUM_SLOTS, OFF, TOP, parse_square
from gamenight.centrix.cards import Card
from gamenight.centrix.describe import Words
from gamenight.centrix.movegen import neighbours
from gamenight.centrix.plays import Play
from gamenight.centrix.state import CentrixState


class Goal(StrEnum):
    """What a lesson asks of the learner's play."""

    ENTER = "enter"  # a pawn comes onto the board
    CLIMB = "climb"  # a pawn moves to a higher level
    TURN_AND_MOVE = "turn_and_move"  # one play turns a ring, then moves
    LEAPFROG = "leapfrog"  # a pawn leaps over a line of pawns
    BUMP = "bump"  # another pawn is bumped
    CHAIN = "chain"  # a bumped pawn bumps another
    WILD = "wild"  # the any-colour wild moves a pawn
    SPIN = "spin"  # the spin wild turns a ring
    TOP = "top"  # a pawn reaches the top
    THREE_PLAYS = "three_plays"  # the turn's third play
    FINISH = "finish"  # the learner's last pawn reaches the top: finished


@dataclass(frozen=True)
class Lesson:
    """One lesson: its position, what to highlight, its goal and its words."""

    key: str
    goal: Goal
    position: str
    highlight: tuple[str, ...]  # the squares that matter, by name
    title: Words
    text: Words

    def state(self) -> CentrixState:
        """The lesson's position, the learner (seat 0) to move."""
        return CentrixState.from_position(self.position)


@lru_cache(maxsize=1)
def lessons() -> tuple[Lesson, ...]:
    """The lessons, in the order the guided game teaches them."""
    raw = json.loads(resources.files("gamenight.centrix").joinpath("lessons.json").read_text())
    return tuple(
        Lesson(
            item["key"],
            Goal(item["goal"]),
            item["position"],
            tuple(item["highlight"]),
            Words(item["title"]["en"], item["title"]["ko"]),
            Words(item["text"]["en"], item["text"]["ko"]),
        )
        for item in raw
    )


def reached(goal: Goal, before: CentrixState, play: Play) -> bool:
    """Whether ``play``, legal in ``before``, reaches ``goal`` (``before`` is unchanged)."""
    seat = before.actor
    card, rotation, move = play
    effects = before.effects(play)
    if goal is Goal.TURN_AND_MOVE:
        return rotation is not None and move is not None
    if goal is Goal.SPIN:
        return card is Card.SPIN and rotation is not None
    if goal is Goal.THREE_PLAYS:
        return before.plays_done == 2
    if goal is Goal.FINISH:
        after = before.copy(history=False)
        after.push(play)
        return seat is not None and after.places[seat] != 0
    if move is None:
        return False
    frm, to = move
    if goal is Goal.ENTER:
        return frm == OFF
    if goal is Goal.CLIMB:
        return frm != OFF and (to == TOP or (to < OFF and to // NUM_SLOTS > frm // NUM_SLOTS))
    if goal is Goal.LEAPFROG:
        # After the rotation the pawn's square is the move's own; a leap skips a neighbour.
        return frm != OFF and to < OFF and to not in neighbours(frm)
    if goal is Goal.BUMP:
        return len(effects) >= 2
    if goal is Goal.CHAIN:
        return len(effects) >= 3
    if goal is Goal.WILD:
        return card is Card.ANY
    return to == TOP  # Goal.TOP


def highlighted(lesson: Lesson) -> list[int]:
    """The lesson's highlighted squares, as square numbers."""
    return [parse_square(name) for name in lesson.highlight]
