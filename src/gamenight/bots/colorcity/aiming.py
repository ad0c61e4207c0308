"""Aiming: the Planner's aim against the noise-free physics, with a process-wide cache of
its slides (the textbook shot, ``aim``, is the engine's: gamenight.colorcity.frame)."""

from __future__ import annotations

import bisect
import math
from functools import lru_cache

from gamenight.colorcity.frame import aim as aim  # re-exported: the bots read it here
from gamenight.colorcity.frame import from_board
from gamenight.colorcity.shots import Shot, predict
from gamenight.colorcity.table import Gang, Table

_SPEED_GRID = tuple(round(0.8 + 0.02 * i, 4) for i in range(66))  # 0.8 … 2.1 m/s


@lru_cache(maxsize=32)
def slide_table(table: Table, spin: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(slide lengths, speeds) of straight flicks with ``spin`` over 0.8–2.1 m/s, from the
    physics itself, in increasing order of slide: the analytic first guess of an aim."""
    rows = []
    for speed in _SPEED_GRID:
        if not table.min_speed <= speed <= table.max_speed:
            continue
        pose = predict(table, Gang.GREEN, Shot(0.0, 0.0, speed, spin)).pose
        if pose.on_table:
            rows.append((pose.y + table.launch_y, speed))
    rows.sort()
    return tuple(r[0] for r in rows), tuple(r[1] for r in rows)


def speed_for(table: Table, spin: float, distance: float) -> float:
    """The speed whose straight flick slides ``distance`` mm, interpolated in the square
    root of the slide (which the speed follows nearly linearly)."""
    slides, speeds = slide_table(table, spin)
    if len(slides) < 2:
        return math.sqrt(2 * table.friction * table.gravity * distance / 1000)
    i = min(max(bisect.bisect_left(slides, distance), 1), len(slides) - 1)
    a, b = math.sqrt(max(slides[i - 1], 0.0)), math.sqrt(max(slides[i], 0.0))
    t = (math.sqrt(max(distance, 0.0)) - a) / (b - a) if b > a else 0.0
    speed = speeds[i - 1] + t * (speeds[i] - speeds[i - 1])
    return max(table.min_speed, min(table.max_speed, speed))


@lru_cache(maxsize=4096)  # (bounded: a server sees tables of many rules)
def aim_at(table: Table, gang: Gang, x: float, y: float, spin: float) -> Shot:
    """A shot whose noise-free flick stops at (x, y): straight from the launch point in
    line with the target (angled only when that is off the line), the speed from the
    slide table, then corrected twice against ``predict``. The physics is deterministic,
    so aims are cached (the latest few thousand) for the life of the process."""
    forward, right = from_board(table, gang, x, y)
    half = table.launch_half_width
    position = max(-half, min(half, right))
    direction = math.degrees(math.atan2(position - right, forward))
    distance = math.hypot(forward, position - right)
    shot = clamp(table, Shot(position, direction, speed_for(table, spin, distance), spin))
    for _ in range(2):
        pose = predict(table, gang, shot).pose
        if not pose.on_table:
            # (Within the table's speeds: a host may have set a lowest speed this passes.)
            shot = clamp(table, shot._replace(speed=shot.speed * 0.97))
            continue
        got_forward, got_right = from_board(table, gang, pose.x, pose.y)
        start_right = shot.position
        want = math.hypot(forward, right - start_right)
        got = math.hypot(got_forward, got_right - start_right)
        if abs(got - want) < 0.5 and abs(got_right - right) < 0.5:
            break
        speed = shot.speed * math.sqrt(want / got) if got > 1 else shot.speed
        # Sideways misses are corrected by moving along the line (exact, D15) while the
        # shot is straight; else by turning it.
        if shot.direction == 0.0 and abs(shot.position - (got_right - right)) <= half:
            shot = shot._replace(position=shot.position - (got_right - right), speed=speed)
        else:
            turn = math.degrees(
                math.atan2(right - start_right, forward)
                - math.atan2(got_right - start_right, got_forward)
            )
            shot = shot._replace(direction=shot.direction - turn, speed=speed)
        shot = clamp(table, shot)
    return shot


def clamp(table: Table, shot: Shot) -> Shot:
    """``shot`` with each value brought within the table's limits."""

    def clip(v: float, limit: float) -> float:
        return max(-limit, min(limit, v))

    return Shot(
        clip(shot.position, table.launch_half_width),
        clip(shot.direction, table.max_direction_deg),
        max(table.min_speed, min(table.max_speed, shot.speed)),
        clip(shot.spin, table.max_spin),
    )
