"""A gang's own frame on the board (forward from its launch line, right of the city's centre
line, in mm), and the textbook shot at a board point. Shared by the bots and the web app's
aiming aids, so it lives with the rules."""

from __future__ import annotations

import math

from gamenight.colorcity.shots import Shot
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


def aim(table: Table, gang: Gang, x: float, y: float) -> Shot:
    """A spin-free shot whose textbook slide ends at board point (x, y) mm."""
    forward, right = from_board(table, gang, x, y)
    position = max(-table.launch_half_width, min(table.launch_half_width, right))
    left = position - right  # what is left to cover sideways, to the gang's left
    direction = math.degrees(math.atan2(left, forward))
    direction = max(-table.max_direction_deg, min(table.max_direction_deg, direction))
    distance = math.hypot(forward, left) / 1000
    speed = math.sqrt(2 * table.friction * table.gravity * distance)
    speed = max(table.min_speed, min(table.max_speed, speed))
    return Shot(position, direction, speed, 0.0)
