"""How a game ends by the table rather than by its rules (core.endings; docs/rules/table.md
T1–T3): a resignation, a flag where a flag loses, an abandoned table."""

from __future__ import annotations

from gamenight.core.endings import ABANDONED, OUT_OF_TIME, RESIGNED
from gamenight.web.live import LiveTable
from gamenight.web.refusals import Code, RefusedError


class Finisher:
    @staticmethod
    async def resigned(table: LiveTable, seat: int) -> bool:
        """``seat`` gives the game up (T1): a two-seat game ends with the other seat winning;
        at a larger table a bot plays the seat for good. The caller holds the lock and has
        checked that the page holds the seat."""
        referee = table.referee
        if referee.finished:
            raise RefusedError("the game is over", Code.GAME_OVER)
        online = table.room.online()
        if len(referee.seats) == 2:
            return await referee.end(RESIGNED, (seat,), online)
        settings = referee.clock_settings
        return await referee.stand_in(seat, settings.bot_level, online, resigned=True)

    @staticmethod
    async def flagged(table: LiveTable, seat: int) -> bool:
        """``seat``'s time ran out where the host said a flag loses (T2)."""
        return await table.referee.end(OUT_OF_TIME, (seat,), table.room.online())

    @staticmethod
    async def abandoned(table: LiveTable) -> bool:
        """Nobody has been at the table for the host's abandonment time (T3)."""
        return await table.referee.end(ABANDONED, (), table.room.online())
