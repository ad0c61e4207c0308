"""The pieces of one server that its routes and sockets use, made once by create_app."""

from __future__ import annotations

from dataclasses import dataclass

from gamenight.core.errors import GamenightError
from gamenight.web.http import KEYS, HttpRefusal
from gamenight.web.live import LiveTable
from gamenight.web.privacy import may_watch
from gamenight.web.quotas import Gate
from gamenight.web.refusals import Code, RefusedError, unlisted
from gamenight.web.replays import Replays
from gamenight.web.settings import Settings
from gamenight.web.store import TableStore
from gamenight.web.tables import TableManager


@dataclass(frozen=True)
class Services:
    settings: Settings
    store: TableStore
    manager: TableManager
    gate: Gate
    replays: Replays

    async def live(self, table_id: str) -> LiveTable:
        """The live table, or the HTTP refusal that says why not."""
        try:
            return await self.manager.read(table_id)
        except RefusedError as exc:
            raise HttpRefusal(429 if exc.code == Code.SERVER_FULL else 404, exc) from None
        except GamenightError as exc:
            raise HttpRefusal(404, exc) from None

    async def watched(self, table_id: str, keys: list[str]) -> LiveTable:
        """The table, if one of ``keys`` lets its asker see it (web.privacy)."""
        table = await self.live(table_id)
        stored = table.referee.stored
        if not may_watch(stored.setup, stored.seats, keys[:KEYS]):
            raise HttpRefusal(403, unlisted())
        return table
