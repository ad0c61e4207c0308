"""Scale-out: several server processes share live tables through Redis pub/sub.

The database stays the referee's memory: every process stores actions there, and an action
number can be stored only once, so two processes can never both make move 17. Redis only
tells the other processes that a table changed, so they reload it and update their clients.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import uuid
from typing import Any

import redis.asyncio as redis

from gamenight.web.tables import TableManager

CHANNEL = "gamenight:tables"
log = logging.getLogger("gamenight.web")


class RedisRelay:
    def __init__(self, url: str, manager: TableManager) -> None:
        self.client: Any = redis.from_url(url)
        self.manager = manager
        self.origin = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        pubsub = self.client.pubsub()
        await pubsub.subscribe(CHANNEL)
        self._task = asyncio.create_task(self._listen(pubsub))
        self.manager.on_change = self.publish

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.client.aclose()

    async def publish(self, table_id: str, version: int) -> None:
        message = {"table": table_id, "version": version, "origin": self.origin}
        await self.client.publish(CHANNEL, json.dumps(message))

    async def _listen(self, pubsub: Any) -> None:
        async for message in pubsub.listen():
            if message.get("type") != "message":
                continue
            try:
                data = json.loads(message["data"])
                if data["origin"] == self.origin:
                    continue
                table = await self.manager.refresh(data["table"])
                if table is not None:
                    self.manager.broadcast(table)
                    self.manager.schedule_bot(table)
            except Exception:
                log.exception("a relay message could not be handled: %r", message)
