"""The analysis of a finished table's game, for its replay page (issue 32, docs/learning.md).

- **Off the loop, once.** ``GET /api/tables/{id}/analysis`` of a finished game starts its
  analysis (gamenight.analysis, through the bot pool's job ``analyse``: the web imports no
  bot's analysis itself) in a pool of its own (``Analyst``: one worker, so that an analysis
  never keeps a table's bot waiting), and answers ``{"state": "running", "done", "total"}``
  while it runs; the result is kept with the table (``TableStore.set_analysis``) and every
  later ask, on any server, is answered from the store: ``{"state": "done", "analysis"}``.
- **Secrets.** The analysis sees every hand (it says so in its ``method``): during the game
  it is refused (409, ``analysis_after_game``), as the record is.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from concurrent.futures import Executor
from typing import Any

from fastapi import APIRouter

from gamenight.web.bots import BotRunner, report_progress
from gamenight.web.http import HttpRefusal, Keys
from gamenight.web.live import LiveTable
from gamenight.web.refusals import Code, RefusedError
from gamenight.web.services import Services
from gamenight.web.store import TableStore

log = logging.getLogger("gamenight.web")
ANALYSIS_SECONDS = 600.0  # the most one analysis may take (its worker is then replaced)


def analysis_answer(game: str, record: str, key: str) -> dict[str, Any]:
    """The analysis of ``record`` as JSON (runs in a worker: job ``analyse``), its progress
    told under ``key``."""
    analyse = importlib.import_module(f"gamenight.analysis.{game}").analyse

    def progress(done: int, total: int) -> None:
        report_progress(key, done, total)

    answer: dict[str, Any] = analyse(record, progress=progress).to_json()
    return answer


class Analyst:
    """Runs the analyses of finished tables, each once, in a pool of its own."""

    def __init__(self, store: TableStore, executor: Executor | None = None) -> None:
        self.store = store
        self.runner = BotRunner(1, executor, seconds=ANALYSIS_SECONDS)
        self._running: dict[str, asyncio.Task[None]] = {}

    def close(self) -> None:
        for task in self._running.values():
            task.cancel()
        self.runner.close()

    async def status(self, table: LiveTable) -> dict[str, Any]:
        """Where the table's analysis is (see the module); starts it if it has not begun."""
        referee = table.referee
        if not referee.finished:
            raise RefusedError("a game is analysed once it is over", Code.ANALYSIS_AFTER_GAME)
        kept = await self.store.analysis(table.id)
        if kept is not None:
            return {"state": "done", "analysis": kept}
        task = self._running.get(table.id)
        if task is None or task.done():
            if task is not None and (task.cancelled() or task.exception() is not None):
                self._running.pop(table.id)
                return {"state": "failed"}
            async with table.lock:
                record = referee.record()
                record.outcome = referee.outcome  # (a game the table ended: core.endings)
            self._running[table.id] = asyncio.create_task(
                self._analyse(table.id, referee.game.name, record.to_json(indent=None))
            )
        done, total = self.runner.heard().get(table.id, (0, referee.version))
        return {"state": "running", "done": done, "total": total}

    async def _analyse(self, table_id: str, game: str, record: str) -> None:
        try:
            answer = await self.runner.run(
                "analyse", game, record, table_id, seconds=ANALYSIS_SECONDS, key=table_id
            )
            await self.store.set_analysis(table_id, answer)
        except Exception:
            # Told once (``failed``), then asked again: the next ask starts it anew.
            log.exception("the analysis of table %s failed", table_id)
            raise


def analysis_router(services: Services, analyst: Analyst) -> APIRouter:
    router = APIRouter()

    @router.get("/api/tables/{table_id}/analysis")
    async def analysis(table_id: str, key: Keys = []) -> dict[str, Any]:  # noqa: B006
        table = await services.watched(table_id, key)
        try:
            return await analyst.status(table)
        except RefusedError as exc:
            raise HttpRefusal(409, exc) from None

    return router
