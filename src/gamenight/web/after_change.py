"""The one path after a table changed, whether here or on another server (web.relay):
every page is sent its own seat's view, a change made here is told to the other servers,
the bot may play and the clock's timer is set again."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gamenight.web.live import Change, LiveTable, TableEvents
from gamenight.web.outbound import StateOut
from gamenight.web.room import Connection
from gamenight.web.table_state import state_message

Answer = tuple[Connection, Mapping[str, Any]]


class AfterChange:
    def __init__(
        self,
        events: TableEvents,
        now: Callable[[], int],
        schedule_bot: Callable[[LiveTable], None],
        arm: Callable[[LiveTable], None],
    ) -> None:
        self.events = events
        self.now = now
        self.schedule_bot = schedule_bot
        self.arm = arm

    def state(self, table: LiveTable, seats: list[int]) -> StateOut:
        return state_message(table, seats, self.now())

    def broadcast(self, table: LiveTable, answer: Answer | None = None) -> bool:
        """Send every page the table's state as its seats see it (``answer``: as
        Room.broadcast's: True if that page was sent it)."""
        return table.room.broadcast(lambda seats: self.state(table, seats), answer)

    async def local(
        self, table: LiveTable, change: Change | None = None, answer: Answer | None = None
    ) -> bool:
        """A change made here: as ``followed``, and the other servers are told (``change``:
        what they follow; by default they reload the table)."""
        told = self.broadcast(table, answer)
        await self.events.changed(table.id, change or Change(table.referee.revision))
        self.schedule_bot(table)
        self.arm(table)
        return told

    def followed(self, table: LiveTable) -> None:
        """A change another server made, now followed here."""
        self.broadcast(table)
        self.schedule_bot(table)
        self.arm(table)
