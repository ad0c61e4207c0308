"""Measuring the Planner's aim: games against an opponent, counting whether each shot
covered the square it aimed at (``gamenight colorcity aim``)."""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from gamenight.bots.colorcity import PlannerBot
from gamenight.bots.registry import game_bots
from gamenight.colorcity.actions import Decision
from gamenight.colorcity.coverage import covered_squares
from gamenight.colorcity.shots import Shot
from gamenight.colorcity.state import ColorCityState
from gamenight.colorcity.table import Gang
from gamenight.core.game import registry
from gamenight.core.outcome import win_share


@dataclass
class AimStats:
    """What ``aim_stats`` counts over a Planner's pitch decisions."""

    games: int = 0
    wins: float = 0.0
    shots: int = 0
    target_hits: int = 0  # the plan's target square was covered
    lost: int = 0  # the cube covered nothing (destroyed, unless Lucky Day saved it)
    seconds: list[float] = field(default_factory=list)  # per Planner decision, wall clock
    cpu: list[float] = field(default_factory=list)  # per Planner decision, this process's CPU

    def add(self, other: AimStats) -> None:
        self.games += other.games
        self.wins += other.wins
        self.shots += other.shots
        self.target_hits += other.target_hits
        self.lost += other.lost
        self.seconds.extend(other.seconds)
        self.cpu.extend(other.cpu)


def aim_game(
    seed: int,
    planner: str = "planner",
    opponent: str = "random",
    skill: str = "normal",
    planner_gang: int = 0,
) -> AimStats:
    """One game of a Planner (registry spec) against ``opponent``, both hands of
    ``skill``; counts whether each Planner shot covered the square it aimed at."""
    spec = game_bots("colorcity")
    state = registry["colorcity"].new(2, {"skills": [skill, skill]}, seed, first=seed % 2)
    assert isinstance(state, ColorCityState)
    me = Gang(planner_gang)
    bot = spec.bot(planner, seed)
    if not isinstance(bot, PlannerBot):
        raise ValueError(f"{planner!r} is not a Planner")
    bots = {me: bot, me.other: spec.bot(opponent, seed + 1)}
    stats = AimStats(games=1)
    while not state.is_over:
        gang = state.to_move
        assert gang is not None
        began, began_cpu = time.perf_counter(), time.process_time()
        action = bots[gang].choose(state.view(gang))
        if gang is me:
            stats.seconds.append(time.perf_counter() - began)
            stats.cpu.append(time.process_time() - began_cpu)
        pitch = state.push(action)
        if gang is me and isinstance(action, Shot):
            assert bot.last_plan is not None
            assert not isinstance(pitch, Decision)
            covered = covered_squares(state.table, pitch.pose)
            stats.shots += 1
            stats.target_hits += bot.last_plan.target in covered
            stats.lost += not covered
    outcome = state.outcome
    assert outcome is not None
    stats.wins += win_share(outcome.places, int(me))
    return stats


def aim_stats(
    games: int,
    planner: str = "planner",
    opponent: str = "random",
    skill: str = "normal",
    seed: int = 0,
    workers: int = 1,
) -> AimStats:
    """``games`` games (the Planner's gang alternating), on ``workers`` processes."""
    jobs = [(seed + g, planner, opponent, skill, g % 2) for g in range(games)]
    total = AimStats()
    if workers <= 1:
        for job in jobs:
            total.add(aim_game(*job))
        return total
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for result in pool.map(aim_game, *zip(*jobs, strict=True)):
            total.add(result)
    return total
