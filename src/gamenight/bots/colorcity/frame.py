"""Coordinate frames: board millimetres against a gang's own frame (forward from its launch
line, right of the city's centre line)."""

from __future__ import annotations

import math

from gamenight.colorcity.table import Gang, Table


def to_board(table: Table, gang: Gang, forward: float, right: float) -> tuple[float, float]:
    """The board point ``forward`` mm ahead of ``gang``'s launch line and ``right`` mm to its
    right of the city's centre line."""
    ox, oy, heading = table.launch_frame(gang)
    across = heading - math.pi / 2
    return (
        ox + forward * math.cos(heading) + right * math.cos(across),
        oy + forward * math.sin(heading) + right * math.sin(across),
    )


def from_board(table: Table, gang: Gang, x: float, y: float) -> tuple[float, float]:
    """(forward, right) of board point (x, y) in ``gang``'s frame; inverse of to_board."""
    ox, oy, heading = table.launch_frame(gang)
    dx, dy = x - ox, y - oy
    forward = dx * math.cos(heading) + dy * math.sin(heading)
    right = dx * math.sin(heading) - dy * math.cos(heading)
    return forward, right
