"""Flicks over processes (issue 17): the same results as one after another."""

from __future__ import annotations

import pytest

from gamenight.bots.base import Budget
from gamenight.bots.colorcity import PlannerBot
from gamenight.bots.registry import game_bots
from gamenight.colorcity import DEFAULT_TABLE, Gang, Shot, Skill, draw_noise, executed
from gamenight.colorcity.pool import poses, serial_poses
from gamenight.colorcity.state import ColorCityState
from gamenight.core.errors import NotationError


def _pitches(count: int) -> list[tuple[Gang, Shot]]:
    key, out = 3, []
    for i in range(count):
        noise, key = draw_noise(key, Skill.SHAKY)
        shot = Shot(-40.0 + 10.0 * (i % 9), -10.0 + 5.0 * (i % 5), 1.0 + 0.05 * i, 8.0 * (i % 3))
        out.append((Gang(i % 2), executed(shot, noise)))
    return out


def test_poses_over_processes_are_the_serial_poses_in_order() -> None:
    pitches = _pitches(11)  # not a multiple of the workers: chunks of unequal size
    serial = serial_poses(DEFAULT_TABLE, pitches)
    assert len(set(serial)) == len(serial)  # distinct, so a reordering would show
    assert poses(DEFAULT_TABLE, pitches, workers=2) == serial
    assert poses(DEFAULT_TABLE, pitches, workers=3) == serial
    assert poses(DEFAULT_TABLE, pitches) == serial


def test_a_planner_with_workers_chooses_as_the_serial_one() -> None:
    state = ColorCityState.new(seed=5)
    for shot in (Shot(0.0, 0.0, 1.3, 0.0), Shot(20.0, 5.0, 1.4, 10.0)):
        state.push(shot)
        while state.expects() == "decision":
            state.push(state.legal_decisions()[0])
    view = state.view(state.to_move)  # type: ignore[arg-type]
    bots = [
        PlannerBot(9, Budget(iterations=40), placements=3, spins=(0.0, 40.0), workers=w)
        for w in (1, 2)
    ]
    chosen = [bot.choose(view) for bot in bots]
    assert chosen[0] == chosen[1]
    assert bots[0].last_plan == bots[1].last_plan
    # The generator ends where the serial loop left it: later decisions agree too.
    assert bots[0].rng.getstate() == bots[1].rng.getstate()


def test_workers_is_a_planner_option_and_off_by_default() -> None:
    spec = game_bots("colorcity")
    assert spec.bot("planner").workers == 1
    assert spec.bot("planner:8it:workers=2").workers == 2
    with pytest.raises(NotationError, match="workers"):
        spec.bot("planner:workers=0")
