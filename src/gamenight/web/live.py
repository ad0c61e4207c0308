"""A live table and what is said about its changes: the values the table's owners share
(web.cache keeps the tables, web.timekeeper, web.finisher, web.seating and web.rematcher
each do one job at them, web.after_change tells everyone; web.relay follows other servers).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from gamenight.web.chat import TableChat
from gamenight.web.games import Payload
from gamenight.web.outbound import ChatLine
from gamenight.web.referee import Referee
from gamenight.web.room import Connection, Room

RELOAD = "reload"


@dataclass(frozen=True)
class Change:
    """A change made at a table, as the other servers follow it (web.relay): an ``act`` (its
    action ``number``, its ``payload`` as stored, the ``clock`` stored with it) or an
    ``undo`` (the ``number`` of the action taken back), with the table's ``revision`` and
    ``status`` after it. Anything else (seats, an ending, a rematch, a deletion) is a
    ``reload``: the other servers read the table from the store."""

    revision: int
    kind: str = RELOAD  # "act", "undo" or "reload"
    number: int = -1
    payload: Payload | None = None
    clock: dict[str, Any] | None = None
    status: str | None = None


class TableEvents(Protocol):
    """What other server processes are told, and asked (web.relay, when scaled out)."""

    async def start(self) -> None:
        """Begin hearing from the other servers (the app's start-up)."""

    async def stop(self) -> None:
        """Stop, telling the others what they have not heard yet."""

    async def changed(self, table_id: str, change: Change) -> None:
        """A table changed here (an action, an undo, a seat)."""

    def held(self, table: LiveTable) -> None:
        """The seats this server's pages hold at ``table`` may have changed."""

    async def first_page(self, table: LiveTable) -> None:
        """``table`` is about to get its first page here: bring it, and who is online
        through other servers, up to date (never raises)."""

    def thinking(self, table_id: str, revision: int) -> AbstractAsyncContextManager[bool]:
        """Whether this server is the one to think for the bot at ``table_id`` at
        ``revision`` (the answer holds while the block runs; never raises)."""

    def chat(self, table_id: str, side: str, line: ChatLine) -> None:
        """A chat line was said here at ``table_id``: the pages of ``side`` on the other
        servers hear it (web.chat; never raises, never waits)."""


class NoEvents:
    """A single server: nobody else to tell."""

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def changed(self, table_id: str, change: Change) -> None:
        return None

    def held(self, table: LiveTable) -> None:
        return None

    async def first_page(self, table: LiveTable) -> None:
        return None

    @asynccontextmanager
    async def thinking(self, table_id: str, revision: int) -> AsyncIterator[bool]:
        yield True

    def chat(self, table_id: str, side: str, line: ChatLine) -> None:
        return None


@dataclass
class LiveTable:
    referee: Referee
    room: Room = field(default_factory=Room)
    chat: TableChat = field(default_factory=TableChat)

    @property
    def id(self) -> str:
        return self.referee.id

    @property
    def game(self) -> Any:
        return self.referee.game

    @property
    def state(self) -> Any:
        return self.referee.state

    @property
    def lock(self) -> asyncio.Lock:
        return self.referee.lock

    @property
    def connections(self) -> list[Connection]:
        return self.room.connections
