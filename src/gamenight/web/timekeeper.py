"""The tables' clocks (docs/rules/table.md): a timer per live table for its next deadline,
who was last seen when, and the stand-in bot for a seat out of time or away. The clock
itself is the referee's (web.referee: Clock, due, flagged); the timekeeper only asks."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from gamenight.web.finisher import Finisher
from gamenight.web.live import LiveTable


class Timekeeper:
    def __init__(
        self,
        now: Callable[[], int],
        live: Callable[[LiveTable], bool],
        on_due: Callable[[LiveTable], Coroutine[Any, Any, None]],
        finisher: Finisher,
    ) -> None:
        """``live``: whether the table object is the one in memory here (a table that left
        memory keeps no timer); ``on_due``: what a timer that fires runs (web.tables)."""
        self.now = now
        self.live = live
        self.on_due = on_due
        self.finisher = finisher
        self.timers: dict[str, asyncio.TimerHandle] = {}

    def arm(self, table: LiveTable) -> None:
        """Set the table's timer for its next deadline (web.referee: Referee.due)."""
        self.disarm(table.id)
        if not self.live(table):
            return
        due = table.referee.due(table.room.online())
        if due is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # (set up outside the event loop: armed when the table is next used)
        delay = max(0.0, (due - self.now()) / 1000)
        self.timers[table.id] = loop.call_later(delay, lambda: loop.create_task(self.on_due(table)))

    def disarm(self, table_id: str) -> None:
        timer = self.timers.pop(table_id, None)
        if timer is not None:
            timer.cancel()  # (its deadline is stored: the sweep's ``wake_due`` finds it)

    def presence(self, table: LiveTable) -> None:
        """Who is online changed: the referee notes when each seat was seen and stores the
        deadline (abandonment and grace count from here), and the timer is set again."""
        write = table.referee.present(table.room.online())  # (the picture is taken now)
        if write is not None:
            try:
                asyncio.get_running_loop().create_task(write)
            except RuntimeError:
                write.close()
        self.arm(table)

    async def due(self, table: LiveTable) -> bool:
        """Do what is due at the table now (docs/rules/table.md): end an abandoned game (T3),
        let a bot stand in for a seat out of time or away (T8), or end the game on a flag
        where the host said a flag loses (T2); whether the table changed. Safe to run on
        several servers at once."""
        async with table.lock:
            referee = table.referee
            online = table.room.online()
            clock = referee.clock
            if clock is None or referee.finished:
                return False
            referee.saw(online)
            now = self.now()
            actor = referee.actor
            if not online and now >= clock.active + clock.settings.abandon_ms:
                return await self.finisher.abandoned(table)
            if actor is not None and referee.flagged(actor):
                if clock.settings.on_timeout == "lose" and len(referee.seats) == 2:
                    return await self.finisher.flagged(table, actor)
                return await self.stand_in(table, actor)
            if actor is not None and (due := referee.due(online)) is not None and now >= due:
                return await self.stand_in(table, actor)  # its page away past the grace
            return False

    @staticmethod
    async def stand_in(table: LiveTable, seat: int) -> bool:
        """A bot of the host's level plays ``seat`` from now on; the caller holds the lock."""
        referee = table.referee
        settings = referee.clock_settings
        return await referee.stand_in(seat, settings.bot_level, table.room.online())
