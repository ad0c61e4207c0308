"""The bots' thinking, in worker processes, so that no bot holds up the event loop or another
table.

The runner owns the process pool; a table manager asks it for a bot's action for a view.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from gamenight.web.games import get_game

log = logging.getLogger("gamenight.web")


def think(game: str, view: Any, level: int, seed: int) -> str:
    """A bot's action in notation (runs in a worker process)."""
    return get_game(game).bot_action(view, level, seed)


class BotRunner:
    """Runs bots' thinking in a pool of ``workers`` processes (or in ``executor``: tests
    give threads)."""

    def __init__(self, workers: int = 1, executor: Executor | None = None) -> None:
        self._workers = workers
        self._executor = executor

    @property
    def executor(self) -> Executor:
        if self._executor is None:
            # Bots are CPU-bound: separate processes keep the event loop (and other tables)
            # responsive; "spawn" because the server runs threads.
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(self._workers, mp_context=context)
        return self._executor

    async def choose(self, game: str, view: Any, level: int, seed: int) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, think, game, view, level, seed)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
