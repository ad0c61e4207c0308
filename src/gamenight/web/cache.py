"""The live tables of this server (issue 14, finding 8): loaded from the store on demand,
within the live-table limit, and let go when idle (they reload when next asked for). A
table is loaded here only as its home (web.homes): the load claims it first, and its
referee writes with the epoch claimed; a table that leaves memory lets its lease go."""

from __future__ import annotations

import time
from collections.abc import Callable

from gamenight.web.homes import Homes
from gamenight.web.live import LiveTable
from gamenight.web.quotas import Limits
from gamenight.web.referee import Referee
from gamenight.web.refusals import Code, RefusedError, no_table
from gamenight.web.store import TableStore


class TableCache:
    def __init__(
        self,
        store: TableStore,
        limits: Limits,
        now: Callable[[], int],
        homes: Homes,
        *,
        lost: Callable[[str], None],
        opened: Callable[[Referee], LiveTable],
        busy: Callable[[LiveTable], bool],
        dropped: Callable[[str], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``opened`` makes the live table of a referee just loaded (and adds it: ``add``);
        ``busy``: whether something other than a page needs a table in memory (a socket
        before its hello, a bot thinking); ``dropped``: a table has left memory; ``lost``: the
        store refused a write of a table loaded here, which another process has taken."""
        self.store = store
        self.homes = homes
        self.lost = lost
        self.limits = limits
        self.now = now
        self.opened = opened
        self.busy = busy
        self.dropped = dropped
        self.clock = clock
        self.tables: dict[str, LiveTable] = {}
        self.used: dict[str, float] = {}  # when each live table was last used, oldest first
        # Tables being loaded (how many loads each), and those of them deleted meanwhile: a
        # load that read the table before its host deleted it must not bring it back.
        self.loading: dict[str, int] = {}
        self.deleted_loading: set[str] = set()

    def add(self, table: LiveTable) -> None:
        self.tables[table.id] = table
        self.touch(table.id)

    def live(self, table: LiveTable) -> bool:
        """Whether ``table`` is the object in memory here (not one that has left it)."""
        return self.tables.get(table.id) is table

    def touch(self, table_id: str) -> None:
        """``table_id`` was used now: it is the last to leave memory."""
        self.used.pop(table_id, None)
        self.used[table_id] = self.clock()

    def idle(self, table: LiveTable) -> bool:
        """Nobody needs the table in memory: no page, no socket, no bot to play."""
        return not table.room and not table.referee.bot_to_play and not self.busy(table)

    def evict(self, now: float | None = None) -> list[str]:
        """Let go of the tables idle for ``idle_seconds``; their ids, least recently used
        first."""
        horizon = (self.clock() if now is None else now) - self.limits.idle_seconds
        gone = [
            table_id
            for table_id, used in self.used.items()
            if used <= horizon and self.idle(self.tables[table_id])
        ]
        for table_id in gone:
            self.drop(table_id)
        return gone

    def closed(self, table_id: str) -> None:
        """A socket at ``table_id`` has closed: a game that is over and that nobody is at
        leaves memory now rather than after ``idle_seconds`` (the store has it; it comes
        back on demand), since nothing will change it."""
        table = self.tables.get(table_id)
        if table is not None and table.referee.finished and self.idle(table):
            self.drop(table_id)

    def make_room(self) -> None:
        """Before another table comes into memory: at the live-table limit, the least
        recently used idle table goes; if every one is in use, refuse."""
        if len(self.tables) < self.limits.live_tables:
            return
        for table_id in self.used:
            if self.idle(self.tables[table_id]):
                self.drop(table_id)
                return
        raise RefusedError(
            "the server has as many tables open as it can hold; try again later",
            Code.SERVER_FULL,
        )

    def drop(self, table_id: str) -> None:
        del self.used[table_id]
        self.tables.pop(table_id)
        self.homes.let_go(table_id)
        self.dropped(table_id)

    def deleting(self, table_id: str) -> None:
        """The host deletes ``table_id``: a load under way must not bring it back."""
        if table_id in self.loading:
            self.deleted_loading.add(table_id)

    async def get(self, table_id: str) -> LiveTable:
        """The live table ``table_id``, loaded from the store if it is not live here."""
        table = self.tables.get(table_id)
        if table is not None:
            self.touch(table_id)
            return table
        table = await self.load(table_id)
        assert table is not None  # (every table is wanted)
        return table

    async def load(
        self, table_id: str, wanted: Callable[[Referee], bool] = lambda _: True
    ) -> LiveTable | None:
        """Bring the stored table into memory, within the live-table limit (None: loaded,
        but not ``wanted`` in memory). Refused if there is no such table, or its host
        deleted it while it loaded; web.homes.ElsewhereError if another process is its home."""
        self.make_room()
        self.loading[table_id] = self.loading.get(table_id, 0) + 1
        try:
            try:
                epoch = await self.homes.take(table_id)
            except KeyError:
                raise no_table(table_id) from None
            referee = await Referee.load(
                self.store, table_id, self.now, epoch=epoch, lost=self.lost
            )
        finally:
            self.loading[table_id] -= 1
            deleted = table_id in self.deleted_loading
            if not self.loading[table_id]:
                del self.loading[table_id]
                self.deleted_loading.discard(table_id)
        if referee is None or deleted:
            if table_id not in self.tables:
                self.homes.let_go(table_id)
            raise no_table(table_id)
        table = self.tables.get(table_id)  # loaded meanwhile by another request
        if table is None:
            if not wanted(referee):
                self.homes.let_go(table_id)
                return None
            table = self.opened(referee)
        return table
