"""A rematch (docs/rules/table.md T10): the seats of a finished game accept, and the
acceptance that completes them makes the new table, with the same seats' tokens."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from gamenight.web import hints
from gamenight.web.after_change import AfterChange
from gamenight.web.live import LiveTable
from gamenight.web.protocol import ClockIn, SeatIn, TableIn
from gamenight.web.refusals import Code, RefusedError
from gamenight.web.room import Connection

# How a table is made (web.tables: TableManager.create): the set-up, its privacy, its host,
# the seats whose tokens it keeps; the live table made, with its seats as told to the maker.
Make = Callable[..., Awaitable[tuple[LiveTable, list[dict[str, Any]]]]]


class Rematcher:
    def __init__(self, make: Make, after: AfterChange) -> None:
        self.make = make
        self.after = after

    async def rematch(self, table: LiveTable, page: Connection) -> None:
        """The page's seats ask for a rematch. The acceptances are the store's (pages on
        other servers count); the server whose acceptance completes them makes the new
        table, and every page hears of it in its state (``seating.next``) and goes there."""
        async with table.lock:
            referee = table.referee
            if not referee.finished:
                raise RefusedError("a rematch is for a game that is over", Code.REMATCH_IN_PLAY)
            if "rematch" not in referee.stored.setup:
                seats = page.seats
                if await referee.change_seats(lambda book: book.accept_rematch(seats)):
                    # The same host: the rematch is the host's to archive or delete too.
                    made, _ = await self.make(
                        rematch_of(table),
                        privacy_of(table),
                        referee.stored.host_hash,
                        keep=list(referee.seats),
                    )
                    await referee.rematch_made(made.id)
        await self.after.local(table)


def rematch_of(table: LiveTable) -> TableIn:
    """The same seats, rules and clock; the first seat moved on by one; a fresh seed. A seat
    a bot played at the end is a bot of that level in the rematch."""
    referee = table.referee
    stored = referee.stored
    start = referee.game.replay(stored.rules, stored.seed, stored.setup, stored.seats, [])
    first = (referee.game.actor(start) or 0) + 1
    seats = [
        SeatIn(
            kind="bot" if seat.played_by_bot else ("invite" if seat.invite else "device"),
            name=seat.name,
            level=seat.bot_level,
            role=seat.role,
            skill=seat.skill,
        )
        for seat in referee.seats
    ]
    settings = referee.clock_settings
    return TableIn(
        game=referee.game.name,
        seats=seats,
        first=first % len(seats),
        rules=stored.rules,
        hints=stored.setup.get(hints.SETTING),  # the host's choice holds for the rematch
        clock=ClockIn(
            kind=settings.kind,
            bank_seconds=settings.bank_ms / 1000,
            increment_seconds=settings.increment_ms / 1000,
            turn_hours=settings.turn_ms / 3_600_000,
            grace_seconds=settings.grace_ms / 1000,
            bot_level=settings.bot_level,
            on_timeout=settings.on_timeout,
            abandon_hours=settings.abandon_ms / 3_600_000,
        ),
    )


def privacy_of(table: LiveTable) -> dict[str, str]:
    """The old table's privacy: its spectator link watches the rematch too."""
    setup = table.referee.stored.setup
    return {k: setup[k] for k in ("visibility", "watch_hash") if k in setup}
