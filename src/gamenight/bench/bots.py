"""Whether one hard bot starves the others (issue 31, finding 6): the server's bot runner,
with its real worker processes, thinks for a Color City level-5 bot at a table whose rules
make the physics as slow as the bounds allow, and meanwhile for an unrelated table's
level-2 bot at the ordinary rules; over a few seconds, how many of the unrelated table's
decisions were made and how long each waited. ``--think-seconds 0 --workers 1`` is the
runner as it was before: no think time, one worker.

    gamenight bench bots [--seconds S] [--workers N] [--think-seconds T] [--json]
"""

from __future__ import annotations

import asyncio
import os
import platform
import time
from typing import Any

from gamenight.web.bots import BotRunner
from gamenight.web.games import SeatSpec, get_game

# The slowest physics a host may set up (colorcity/table.py's bounds).
SLOWEST = {
    "timestep_s": 0.0001,
    "friction": 0.05,
    "rest_speed": 0.0001,
    "rest_spin": 0.001,
    "max_flick_s": 30,
    "max_flick_steps": 20000,
}


def views() -> tuple[Any, Any]:
    """The hard table's view (level 5, the slowest rules) and the unrelated table's."""
    game = get_game("colorcity")
    seats = [SeatSpec("bot", "G", 5, "green"), SeatSpec("bot", "P", 2, "purple")]
    hard, _ = game.new(seats, 0, SLOWEST, 1)
    easy, _ = game.new(seats, 0, {}, 2)
    return hard.view(0), easy.view(1)


async def measure(seconds: float, workers: int, think_seconds: float | None) -> dict[str, Any]:
    runner = BotRunner(workers, seconds=3600, think_seconds=think_seconds)
    hard_view, easy_view = views()
    # Both tables' first decisions once, so that the workers have started and measured the
    # rules' slides (cached per process) before the clock runs.
    await asyncio.gather(
        *(runner.choose("colorcity", easy_view, 2, n) for n in range(workers)),
    )
    hard_done: list[float] = []
    waits: list[float] = []
    stop = time.perf_counter() + seconds

    async def hard() -> None:
        while time.perf_counter() < stop:
            started = time.perf_counter()
            await runner.choose("colorcity", hard_view, 5, len(hard_done))
            hard_done.append(time.perf_counter() - started)

    async def easy() -> None:
        while time.perf_counter() < stop:
            started = time.perf_counter()
            await runner.choose("colorcity", easy_view, 2, len(waits))
            waits.append(time.perf_counter() - started)

    try:
        await asyncio.gather(hard(), easy())
    finally:
        runner.close()
    return {
        "workers": workers,
        "think_seconds": think_seconds,
        "seconds": seconds,
        "easy_decisions": len(waits),
        "easy_decisions_per_s": round(len(waits) / seconds, 2),
        "easy_longest_wait_s": round(max(waits), 2) if waits else None,
        "hard_decisions": len(hard_done),
        "hard_longest_s": round(max(hard_done), 2) if hard_done else None,
        "cores": os.cpu_count(),
        "cpu": platform.processor() or platform.machine(),
    }


def run(seconds: float, workers: int, think_seconds: float | None) -> dict[str, Any]:
    return asyncio.run(measure(seconds, workers, think_seconds))
