"""A table's home (issue 28): the one process where its every act, undo, tick, bot move,
resignation and rematch runs, so that each move is applied once.

The home holds a lease on the table and an epoch, the fencing token the store checks
(web.store.protocol): taking a table is ``store.claim``, which raises the table's epoch, and
every write of the home's referee names that epoch, so a process whose lease lapsed and
was taken over can no longer write (LeaseLostError). The lease itself is only who is home
now, for the other processes to find it:

- ``LocalHomes``: one process alone (SQLite, or PostgreSQL without Redis) is home of every
  table it loads; it still claims each, so that a second process started on the same
  database by mistake fences the first rather than interleaving with it.
- ``RedisHomes``: the key ``gamenight:home:<table>`` names the home's process id, set only
  if nobody holds it (SET NX PX) and renewed by its holder every third of its ttl with a
  compare-and-renew script. A key nobody renews expires within a ttl: another process then
  takes the table (claims it in the store, and loads it). A home that finds its key taken by
  another process has lost the table: it lets it go (web.tables drops it from memory and
  tells its pages to reconnect). While Redis cannot be reached a process that needs a table
  claims it in the store anyway: the store's epoch keeps every write in order, and whichever
  home was overtaken drops the table at its next write.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, Protocol

from gamenight.web.redis_wait import WAIT
from gamenight.web.store import TableStore

log = logging.getLogger("gamenight.web")

HOME = "gamenight:home:"  # + a table's id: the id of the process that is its home
# Renew each lease of KEYS if it is still this process's, or take it again if it expired
# and nobody took it (a write the store refuses would tell if a claim came meanwhile): one
# call for every table a process holds, answering 1 for each, or 0 where another process
# holds the lease (a call per table took the home 5 times the CPU, issue 28).
RENEW = """
local answers = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('get', key)
  if holder == ARGV[1] then
    answers[i] = redis.call('pexpire', key, ARGV[2])
  elseif holder == false then
    redis.call('set', key, ARGV[1], 'px', ARGV[2])
    answers[i] = 1
  else
    answers[i] = 0
  end
end
return answers
"""
RENEWED_AT_ONCE = 1000  # leases renewed by one call (Redis runs a script alone: keep it short)
# Let go of the lease if it is still this process's (a clean stop: another takes at once).
RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""
# Take the lease from a home found dead, if it still names that home.
STEAL = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('set', KEYS[1], ARGV[2], 'px', ARGV[3]) and 1
end
return 0
"""
DEAD_AFTER = 0.5  # seconds a process must stay without a listener to count as dead


class ElsewhereError(Exception):
    """Another process is the table's home: ``home`` is its id."""

    def __init__(self, table_id: str, home: str) -> None:
        super().__init__(f"table {table_id} lives on process {home}")
        self.home = home


class Homes(Protocol):
    """Which tables this process is home of, and the epoch of each."""

    origin: str

    async def take(self, table_id: str) -> int:
        """Be ``table_id``'s home: its epoch (claimed now, or held already). Raises
        ElsewhereError when another process is home, KeyError when the store has no such table."""

    def epoch(self, table_id: str) -> int | None:
        """The epoch this process holds ``table_id`` at (None: it is not its home)."""

    async def home_of(self, table_id: str) -> str | None:
        """The process that is ``table_id``'s home now (None: nobody, or unknown)."""

    def let_go(self, table_id: str) -> None:
        """This process is no longer home of ``table_id`` (it left memory, or was lost)."""

    async def homeless(self, table_ids: list[str]) -> list[str]:
        """Those of ``table_ids`` that no process is home of now (a home that died: its
        lease expired), for another to take; none where nobody else could be home."""

    async def start(self, lapsed: Callable[[str], None]) -> None:
        """Begin renewing; ``lapsed`` is told of each table another process took."""

    async def stop(self) -> None:
        """Let go of every lease at once (a clean stop: the others take them now)."""


class LocalHomes:
    """A process alone: home of every table it loads."""

    def __init__(self, store: TableStore, origin: str = "local") -> None:
        self.store = store
        self.origin = origin
        self.held: dict[str, int] = {}
        self._taking: dict[str, asyncio.Future[int]] = {}

    async def take(self, table_id: str) -> int:
        held = self.held.get(table_id)
        if held is not None:
            return held
        # One claim at a time per table: a second claim would leave the first's epoch stale.
        pending = self._taking.get(table_id)
        if pending is None:
            pending = asyncio.ensure_future(self._take(table_id))
            self._taking[table_id] = pending
            pending.add_done_callback(lambda _: self._taking.pop(table_id, None))
        return await asyncio.shield(pending)

    async def _take(self, table_id: str) -> int:
        epoch = await self.store.claim(table_id)
        self.held[table_id] = epoch
        return epoch

    def epoch(self, table_id: str) -> int | None:
        return self.held.get(table_id)

    async def home_of(self, table_id: str) -> str | None:
        return self.origin if table_id in self.held else None

    def let_go(self, table_id: str) -> None:
        self.held.pop(table_id, None)

    async def homeless(self, table_ids: list[str]) -> list[str]:
        return []  # (a process alone resumes its tables when it starts)

    async def start(self, lapsed: Callable[[str], None]) -> None:
        return None

    async def stop(self) -> None:
        self.held.clear()


class RedisHomes(LocalHomes):
    """Leases in Redis, shared by every process of the pool."""

    def __init__(
        self,
        client: Any,
        store: TableStore,
        origin: str,
        ttl: float = 2.0,
        *,
        listens: str | None = None,
    ) -> None:
        """``listens``: the prefix of the channel each process listens on while it lives
        (web.forward.CHANNEL): a home with no listener there died (its connection to Redis
        closed with it), and its tables are taken at once rather than when its leases
        expire (a live home whose listener was only cut is fenced by the store's epoch and
        lets its table go at its next write)."""
        super().__init__(store, origin)
        self.client = client
        self.ttl = ttl
        self.listens = listens
        self._renewing: asyncio.Task[None] | None = None
        self._lapsed: Callable[[str], None] = lambda _: None
        self._failing = False

    @property
    def ms(self) -> int:
        return max(1, round(self.ttl * 1000))

    async def _take(self, table_id: str) -> int:
        key = HOME + table_id
        try:
            async with asyncio.timeout(WAIT):
                mine = await self.client.set(key, self.origin, nx=True, px=self.ms)
                holder = None if mine else await self.client.get(key)
        except Exception as exc:
            self._trouble(exc)
            mine, holder = True, None  # the store's epoch fences whoever else holds it
        if not mine and holder is not None and holder.decode() != self.origin:
            home = holder.decode()
            if not await self._stolen(key, home):
                raise ElsewhereError(table_id, home)
        # (else it expired between the two calls, or is this process's own: take it)
        try:
            epoch = await self.store.claim(table_id)
        except BaseException:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(WAIT):
                    await self.client.eval(RELEASE, 1, key, self.origin)
            raise
        self.held[table_id] = epoch
        return epoch

    async def dead(self, origins: list[str]) -> set[str]:
        """Those of ``origins`` (other processes) no longer listening, twice, half a second apart
        (a live process whose connection was cut listens again within a fraction of one:
        web.forward): dead."""
        if self.listens is None or not origins:
            return set()
        quiet = await self._quiet(origins)
        if quiet:
            await asyncio.sleep(DEAD_AFTER)
            quiet = await self._quiet(sorted(quiet))
        return quiet

    async def _quiet(self, origins: list[str]) -> set[str]:
        assert self.listens is not None
        async with asyncio.timeout(WAIT):
            counts = await self.client.pubsub_numsub(*(self.listens + o for o in origins))
        return {o for o, (_, n) in zip(origins, counts, strict=True) if not n}

    async def _stolen(self, key: str, home: str) -> bool:
        """Take the lease from ``home`` if it is dead (and the lease still names it)."""
        try:
            if not await self.dead([home]):
                return False
            async with asyncio.timeout(WAIT):
                stolen = await self.client.eval(STEAL, 1, key, home, self.origin, self.ms)
        except Exception as exc:
            self._trouble(exc)
            return False
        if stolen:
            log.warning("%s: its home %s is dead; this process takes it", key, home)
        return bool(stolen)

    async def home_of(self, table_id: str) -> str | None:
        if table_id in self.held:
            return self.origin
        async with asyncio.timeout(WAIT):
            holder = await self.client.get(HOME + table_id)
        return None if holder is None else str(holder.decode())

    async def homeless(self, table_ids: list[str]) -> list[str]:
        ids = [table_id for table_id in table_ids if table_id not in self.held]
        if not ids:
            return []
        async with asyncio.timeout(WAIT):
            holders = await self.client.mget([HOME + table_id for table_id in ids])
        named = sorted({h.decode() for h in holders if h is not None} - {self.origin})
        dead = await self.dead(named)
        return [
            table_id
            for table_id, holder in zip(ids, holders, strict=True)
            if holder is None or holder.decode() in dead
        ]

    def let_go(self, table_id: str) -> None:
        if self.held.pop(table_id, None) is not None:
            task = asyncio.get_running_loop().create_task(self._release([table_id]))
            task.add_done_callback(_quiet)

    async def _release(self, table_ids: list[str]) -> None:
        try:
            async with asyncio.timeout(WAIT), self.client.pipeline(transaction=False) as pipe:
                for table_id in table_ids:
                    pipe.eval(RELEASE, 1, HOME + table_id, self.origin)
                await pipe.execute()
        except Exception as exc:  # they expire within a ttl
            self._trouble(exc)

    async def start(self, lapsed: Callable[[str], None]) -> None:
        self._lapsed = lapsed
        self._renewing = asyncio.create_task(self._renew())

    async def stop_renewing(self) -> None:
        """Renew no more (the leases held here expire within a ttl)."""
        if self._renewing is not None:
            self._renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewing
            self._renewing = None

    async def stop(self) -> None:
        await self.stop_renewing()
        held, self.held = list(self.held), {}
        if held:
            await self._release(held)

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            await self.renew()

    async def renew(self) -> list[str]:
        """Renew every lease held here; the tables found taken by another process (each
        let go, and told to ``lapsed``)."""
        ids = list(self.held)
        if not ids:
            return []
        try:
            async with asyncio.timeout(WAIT), self.client.pipeline(transaction=False) as pipe:
                for at in range(0, len(ids), RENEWED_AT_ONCE):
                    keys = [HOME + t for t in ids[at : at + RENEWED_AT_ONCE]]
                    pipe.eval(RENEW, len(keys), *keys, self.origin, self.ms)
                answers = [a for group in await pipe.execute() for a in group]
        except Exception as exc:  # the store's epoch still fences a write of a lapsed home
            self._trouble(exc)
            return []
        if self._failing:
            self._failing = False
            log.warning("the table homes reach Redis again")
        lost = [t for t, answer in zip(ids, answers, strict=True) if not answer]
        for table_id in lost:
            if self.held.pop(table_id, None) is not None:
                log.warning("table %s was taken by another process", table_id)
                self._lapsed(table_id)
        return lost

    def _trouble(self, exc: Exception) -> None:
        if not self._failing:
            self._failing = True
            log.warning(
                "the table homes cannot reach Redis (%r): a table is claimed in the store"
                " alone, whose epoch keeps its writes in order",
                exc,
            )


def _quiet(task: asyncio.Task[Any]) -> None:
    with contextlib.suppress(asyncio.CancelledError):
        task.exception()
