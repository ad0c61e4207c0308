"""One hard bot cannot starve the others (issue 31, finding 6): every decision is thought
within the server's think time, whatever the table's rules make the physics cost, and the
bots think in as many workers as the machine has cores."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from gamenight.bots.base import Budget
from gamenight.bots.registry import game_bots
from gamenight.core.errors import RulesError
from gamenight.web import settings as settings_module
from gamenight.web.bots import BotRunner
from gamenight.web.games import SeatSpec, get_game
from gamenight.web.settings import Settings

# The slowest physics a host may set up (colorcity/table.py's bounds): the finest step,
# the longest slide, the longest flick; only a narrow band of speeds, so that measuring the
# rules' slides (once per worker and rules) costs this test little.
SLOWEST = {
    "min_speed": 0.8,
    "max_speed": 0.9,
    "timestep_s": 0.0001,
    "friction": 0.05,
    "rest_speed": 0.0001,
    "rest_spin": 0.001,
    "max_flick_s": 30,
    "max_flick_steps": 20000,
}


def test_a_bot_thinks_within_the_time_it_is_given() -> None:
    bots = game_bots("colorcity")
    assert bots.bot("level5", 1).budget == Budget(iterations=160)  # the level's own budget
    assert bots.bot("level5", 1, seconds=0.5).budget == Budget(iterations=160, seconds=0.5)
    assert bots.bot("planner:1s", 1, seconds=3).budget == Budget(seconds=1)  # the lesser
    assert bots.bot("level1", 1, seconds=0.5).budget.seconds == 0.5


def test_the_planner_keeps_to_its_time_at_the_slowest_rules_allowed() -> None:
    game = get_game("colorcity")
    seats = [
        SeatSpec("bot", "G", 5, "green", "normal"),
        SeatSpec("bot", "P", 1, "purple", "normal"),
    ]
    state, _ = game.new(seats, 0, SLOWEST, 1)
    view = state.view(0)
    bots = game_bots("colorcity")
    bots.bot("level5", 7, seconds=0.01).plan(view)  # (measures the rules' slides, cached)
    bot = bots.bot("level5", 7, seconds=0.01)
    plan = bot.plan(view)
    # Out of time at once: one placement aimed and the fewest flicks, not 160 of each.
    assert plan.candidates == 1
    assert plan.flicks <= 1
    game.act(state, str(bot.choose(view)))  # and what it chose is a legal shot


def test_one_table_s_long_decision_leaves_a_worker_for_the_others() -> None:
    """With the default of a worker per core, a table whose decision takes long (here: a
    thinker that blocks) does not hold up another table's, which its own worker answers."""
    release = threading.Event()
    heard: list[float | None] = []

    def thinker(game: str, view: Any, level: int, seed: int, seconds: float | None) -> str:
        heard.append(seconds)
        if level == 5:
            release.wait(30)
        return "pass"

    async def scene() -> None:
        runner = BotRunner(2, ThreadPoolExecutor(2), think_seconds=1.5, thinker=thinker)
        hard = asyncio.create_task(runner.choose("colorcity", None, 5, 1))
        await asyncio.sleep(0.05)
        assert await asyncio.wait_for(runner.choose("colorcity", None, 2, 1), 10) == "pass"
        assert not hard.done()
        release.set()
        assert await hard == "pass"
        runner.close()

    asyncio.run(scene())
    assert heard == [1.5, 1.5]  # each decision was told the time it may take


def test_the_bots_workers_and_think_time_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GAMENIGHT_DATABASE_URL", "sqlite://")
    monkeypatch.setattr(settings_module.os, "cpu_count", lambda: 6)
    assert Settings.from_env().bot_workers == 6  # a worker per core
    assert Settings("sqlite://").bot_workers == 6
    assert Settings.from_env().think_seconds == 3.0
    monkeypatch.setenv("GAMENIGHT_BOT_SECONDS", "2.5")
    assert Settings.from_env().think_seconds == 1.25  # half a decision's limit, if less
    monkeypatch.setenv("GAMENIGHT_BOT_THINK_SECONDS", "0.5")
    assert Settings.from_env().think_seconds == 0.5
    monkeypatch.setenv("GAMENIGHT_BOT_SECONDS", "0.4")
    with pytest.raises(RulesError, match="must be under GAMENIGHT_BOT_SECONDS"):
        Settings.from_env()
