"""A simple bot: aim at a promising square, pick the speed from physics, check it once.

It has its own seeded generator (the game's generator is for the hands' noise only). The
better bot comes later; this one is for ``gamenight colorcity play``.
"""

from __future__ import annotations

import math
import random

from gamenight.colorcity.actions import Decision
from gamenight.colorcity.coverage import covered_squares
from gamenight.colorcity.position import EMPTY
from gamenight.colorcity.shots import Shot
from gamenight.colorcity.state import ColorCityState, winning_sets
from gamenight.colorcity.table import Gang, Table


def aim(table: Table, gang: Gang, x: float, y: float) -> Shot:
    """A spin-free shot whose textbook slide ends at board point (x, y) mm."""
    ox, oy, heading = table.launch_frame(gang)
    dx, dy = x - ox, y - oy
    forward = dx * math.cos(heading) + dy * math.sin(heading)
    left = -dx * math.sin(heading) + dy * math.cos(heading)
    position = max(-table.launch_half_width, min(table.launch_half_width, -left))
    lateral = left + position  # what is left to cover sideways, to the left
    direction = math.degrees(math.atan2(lateral, forward))
    direction = max(-table.max_direction_deg, min(table.max_direction_deg, direction))
    distance = math.hypot(forward, lateral) / 1000
    speed = math.sqrt(2 * table.friction * table.gravity * distance)
    speed = max(table.min_speed, min(table.max_speed, speed))
    return Shot(position, direction, speed, 0.0)


class SimpleBot:
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def target(self, state: ColorCityState) -> int:
        """The square that most extends one of its own lines or blocks (ties at random)."""
        gang = state.to_move
        assert gang is not None
        own = int(gang)
        cells = state.cells
        best: list[int] = []
        best_score = -1
        score = dict.fromkeys(range(state.table.num_squares), 0)
        for _, squares in winning_sets(state.table.city_size):
            mine = sum(1 for s in squares if cells[s] == own)
            theirs = sum(1 for s in squares if cells[s] not in (own, EMPTY))
            value = mine * 2 + theirs  # retaking their squares helps too
            for s in squares:
                if cells[s] != own:
                    score[s] = max(score[s], value)
        for s, v in score.items():
            if cells[s] == own:
                continue
            if v > best_score:
                best, best_score = [s], v
            elif v == best_score:
                best.append(s)
        return self.rng.choice(best) if best else self.rng.randrange(state.table.num_squares)

    def shot(self, state: ColorCityState) -> Shot:
        gang = state.to_move
        assert gang is not None
        table = state.table
        tx, ty = table.square_centre(self.target(state))
        shot = aim(table, gang, tx, ty)
        # One correction from the noise-free simulation, which slides a little differently.
        flick = state.predict(shot)
        ox, oy, _ = table.launch_frame(gang)
        wanted = math.dist((tx, ty), (ox, oy))
        got = math.dist((flick.pose.x, flick.pose.y), (ox, oy))
        if got > 1:
            speed = shot.speed * math.sqrt(wanted / got)
            shot = shot._replace(speed=max(table.min_speed, min(table.max_speed, speed)))
        return shot

    def decision(self, state: ColorCityState) -> Decision:
        gang = state.to_move
        assert state.pending is not None
        covered = covered_squares(state.table, state.pending)
        if gang is Gang.GREEN:
            gained = sum(1 for s in covered if state.cells[s] != int(Gang.GREEN))
            return Decision.LUCKY_DAY if gained == 0 else Decision.PASS
        return Decision.PURPLE_PAIN  # a cube destroyed is always worth it

    def act(self, state: ColorCityState) -> Shot | Decision:
        return self.shot(state) if state.expects() == "shot" else self.decision(state)
