"""Centrix: spin the rings, climb, leapfrog and bump your pawns to the top.

>>> from gamenight.centrix import CentrixState
>>> state = CentrixState.new(4, seed=7)
>>> play = state.legal_plays()[0]
>>> _ = state.push(play); _ = state.pop()
"""

from gamenight.centrix.board import (
    DEFAULT_LAYOUT,
    OFF,
    SQUARE_NAMES,
    TOP,
    Colour,
    Layout,
    parse_square,
    square,
    square_name,
)
from gamenight.centrix.cards import DECK, Card
from gamenight.centrix.plays import Move, Play, Rotation, parse_play
from gamenight.centrix.position import Position, PositionError
from gamenight.centrix.rules import Bottom, Rules
from gamenight.centrix.state import CentrixState, CentrixView, IllegalPlayError
from gamenight.core.errors import NotationError, RecordError

__all__ = [
    "DECK",
    "DEFAULT_LAYOUT",
    "OFF",
    "SQUARE_NAMES",
    "TOP",
    "Bottom",
    "Card",
    "CentrixState",
    "CentrixView",
    "Colour",
    "IllegalPlayError",
    "Layout",
    "Move",
    "NotationError",
    "Play",
    "Position",
    "PositionError",
    "RecordError",
    "Rotation",
    "Rules",
    "parse_play",
    "parse_square",
    "square",
    "square_name",
]
