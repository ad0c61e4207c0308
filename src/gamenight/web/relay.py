"""Scale-out: several server processes share live tables through Redis pub/sub.

The database stays the referee's memory: every process stores actions there, and an action
number can be stored only once, so two processes can never both make move 17. Redis only
tells the other processes what changed at a table: an act (its number, its payload as
stored, the clock stored with it) or an undo, each with the table's revision after it, or
"reload" for anything else (seats, an ending, a rematch, a deletion). A server where the
table is live makes the act or undo alone on its table, under the table's lock, when it is
the next revision there; a news of a revision it has already means nothing. Each server's
news comes in order, but two servers publish independently, so a revision may come before
the one it follows: whenever a revision is missing, or a change does not apply, or anything
else is in doubt, the server reads the table from the store (which holds every revision)
and follows on from there.

Who is online is shared through Redis too. Each server writes the seats its own pages hold
at a table into the hash ``gamenight:presence:<table>`` (field: the server's id, value: a
JSON list of seats), and keeps ``gamenight:server:<id>`` alive, a key that expires
``presence_ttl`` seconds after the server last renewed it (it does so three times a ttl). A
server's entries count only while that key lives, so the players of a server that crashed
or hangs go "away" within about a ttl and a third. When the seats its pages hold change, a
server writes them and publishes a presence message; the other servers read the table's
hash again and tell their pages. Nothing else of a table is written or read: at each
heartbeat a server looks only at which of the servers named in the entries it holds are
alive (one MGET, however many tables), which is how a dead server's players are seen to go.
After a Redis hiccup (or a Redis restarted empty), and every ``HEAL_SECONDS`` in any case,
a server writes all its seats again and reads every table it has pages at. While Redis
cannot be reached a server carries on with its own pages' presence (it forgets the other
servers' after a ttl without news) and catches up when Redis is back. A server that stops
cleanly withdraws its entries at once.

Exactly one server thinks for a bot's decision: before thinking, a server takes the lease
``gamenight:bot:<table>:<revision>`` (taken if nobody holds it, with a ttl of
``presence_ttl``, and renewed while it thinks). The lease is left to expire rather than
deleted, so a server that has not yet heard of the play cannot take that revision again.
While Redis cannot be reached a server thinks anyway: the referee's revision check refuses
a second copy's play, and the message id ``bot-<revision>`` makes a resent one harmless.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import os
import uuid
from collections.abc import AsyncIterator
from typing import Any, Protocol

import redis.asyncio as redis

from gamenight.web.live import RELOAD, Change, LiveTable
from gamenight.web.outbound import ChatLine
from gamenight.web.redis_wait import WAIT, close


class Follower(Protocol):
    """What the relay asks of this server's tables (web.tables: the manager, which makes its
    relay given itself)."""

    def live(self, table_id: str) -> LiveTable | None:
        """The table, if it is live here."""

    def live_tables(self) -> list[LiveTable]:
        """Every table live here."""

    async def follow(self, table_id: str, change: Change | None = None) -> None:
        """Bring a table changed elsewhere up to date, and tell its pages."""

    async def refresh(self, table_id: str, change: Change | None = None) -> LiveTable | None:
        """Bring a table changed elsewhere up to date (its pages not yet told)."""

    def heard(self, table_id: str, side: str, line: ChatLine) -> None:
        """A chat line said at the table on another server."""

    def set_elsewhere(self, table: LiveTable, seats: frozenset[int]) -> None:
        """The seats other servers' pages hold at the table."""


CHANNEL = "gamenight:tables"
PRESENCE = "gamenight:presence:"  # + a table's id: server id → JSON list of its pages' seats
ALIVE = "gamenight:server:"  # + a server's id: exists while the server is alive
LEASE = "gamenight:bot:"  # + "<table>:<revision>": the server that thinks for that decision
# Take a lease that nobody holds, or renew this server's own (a failed turn thinks again at
# the same revision); 0 if another server holds it.
CLAIM = """
local holder = redis.call('get', KEYS[1])
if holder == false then return redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2]) and 1 end
if holder == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0
"""
# The most changes of one table kept for Redis while it cannot be reached: past it they are
# told as one reload (the other servers read the store), so memory stays bounded.
UNSENT_KEPT = 64
# Every HEAL_SECONDS a server writes all its seats again and reads again every table it has
# pages at: whatever Redis lost or a page missed (a hash evicted or flushed, news dropped
# between a page's first read and its joining) is mended within it, at a twelfth of what
# doing it at every heartbeat cost (at the default ttl).
HEAL_SECONDS = 60.0
# How long a table's presence hash is kept after it was last written (seconds): only a
# sweep, since the entries of a server count only while it is alive.
PRESENCE_KEPT = round(10 * HEAL_SECONDS)
log = logging.getLogger("gamenight.web")


def process_id() -> str:
    """A server process's id among the others (its pid, and chance: pids are reused)."""
    return f"{os.getpid()}-{uuid.uuid4().hex[:8]}"


class RedisRelay:
    def __init__(
        self, url: str, manager: Follower, presence_ttl: float = 15.0, origin: str | None = None
    ) -> None:
        self.client: Any = redis.from_url(url)
        self.manager = manager
        self.origin = origin or process_id()
        self.ttl = presence_ttl
        self._tasks: list[asyncio.Task[None]] = []
        self._written: dict[str, list[int]] = {}  # table → the seats last written for it
        # Tables whose seats are written again even if unchanged: Redis may have lost them
        # (it was out of reach, or restarted, or it is the heal's turn).
        self._rewrite: set[str] = set()
        self._losses = 0  # how many times Redis may have lost the seats written here
        self._writing: set[str] = set()  # the tables of a write that may be under way
        self._dirty: set[str] = set()  # tables where the seats held here may have changed
        self._stale: set[str] = set()  # tables where another server's seats changed
        self._unsent: dict[str, list[Change]] = {}  # table → its changes not yet relayed
        self._sending: set[asyncio.Task[None]] = set()  # chat lines on their way to Redis
        # The changes heard from other servers, per table, each table's followed in order by
        # a task of its own while it has any: a table whose change waits on a thread (a
        # flick drawn, a reload) holds up no other table's.
        self._inbox: dict[str, collections.deque[Change | None]] = {}
        self._following: dict[str, asyncio.Task[None]] = {}
        self._wake = asyncio.Event()
        self._heard = 0.0  # (loop time) when presence was last read from Redis
        # Each table in memory here that was read: the seats the other servers' pages hold
        # there, per server, as last read (a server's count only while it is alive).
        self._entries: dict[str, dict[str, frozenset[int]]] = {}
        self._alive: set[str] = set()  # the servers named there, alive when last looked at
        self._reading = asyncio.Lock()  # (one read at a time: each updates the two above)
        self._failing = False

    async def start(self) -> None:
        pubsub = self.client.pubsub()
        await pubsub.subscribe(CHANNEL)
        self._heard = asyncio.get_running_loop().time()
        self._tasks = [
            asyncio.create_task(self._listen(pubsub)),
            asyncio.create_task(self._keep_presence()),
        ]

    async def stop(self) -> None:
        for task in [*self._tasks, *self._sending, *self._following.values()]:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=WAIT)
        try:  # the other servers' pages hear at once that this server's players left
            async with asyncio.timeout(WAIT), self.client.pipeline(transaction=True) as pipe:
                pipe.delete(ALIVE + self.origin)
                for table_id, changes in self._unsent.items():
                    for change in changes:
                        pipe.publish(CHANNEL, self._change_news(table_id, change))
                for table_id in {*self._written, *self._writing}:
                    pipe.hdel(PRESENCE + table_id, self.origin)
                    pipe.publish(CHANNEL, self._presence_news(table_id))
                await pipe.execute()
        except Exception as exc:
            log.warning("presence could not be withdrawn from Redis (%r): it expires", exc)
        await close(self.client)

    async def changed(self, table_id: str, change: Change) -> None:
        """Tell the other servers what changed at ``table_id``. Queued, not awaited: a move
        never waits on Redis (a Redis that hangs would hold up every move and every bot),
        and a change Redis cannot take now is sent again, in order, until it can."""
        self._queue(table_id, [change])
        self._wake.set()

    def _queue(self, table_id: str, changes: list[Change]) -> None:
        """Add ``changes`` after those of ``table_id`` not yet relayed (too many: one reload
        at the latest revision stands for them all)."""
        queued = [*self._unsent.get(table_id, []), *changes]
        if len(queued) > UNSENT_KEPT:
            queued = [Change(max(change.revision for change in queued))]
        self._unsent[table_id] = queued

    @contextlib.asynccontextmanager
    async def thinking(self, table_id: str, revision: int) -> AsyncIterator[bool]:
        """Take the lease on the bot's decision at ``revision`` (False: another server holds
        it) and renew it while the block runs; True when Redis cannot be reached."""
        key, ms = f"{LEASE}{table_id}:{revision}", max(1, round(self.ttl * 1000))
        try:
            async with asyncio.timeout(WAIT):
                mine = bool(await self.client.eval(CLAIM, 1, key, self.origin, ms))
        except Exception as exc:
            self._trouble(exc)
            mine = True
        if not mine:
            yield False
            return
        renewing = asyncio.create_task(self._renew(key, ms))
        try:
            yield True
        finally:
            renewing.cancel()

    async def _renew(self, key: str, ms: int) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                async with asyncio.timeout(WAIT):
                    await self.client.eval(CLAIM, 1, key, self.origin, ms)
            except Exception as exc:  # the referee still refuses a second copy's play
                self._trouble(exc)

    def chat(self, table_id: str, side: str, line: ChatLine) -> None:
        """Relay a chat line said here, as it goes (not awaited: a line never waits on
        Redis, and one Redis cannot take now is heard on this server only)."""
        news = {"type": "chat", "table": table_id, "side": side, "line": line}
        task = asyncio.create_task(self._publish(json.dumps({**news, "origin": self.origin})))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _publish(self, news: str) -> None:
        try:
            async with asyncio.timeout(WAIT):
                await self.client.publish(CHANNEL, news)
        except Exception as exc:
            self._trouble(exc)

    def _change_news(self, table_id: str, change: Change) -> str:
        news: dict[str, Any] = {"table": table_id, "revision": change.revision, "kind": change.kind}
        if change.kind != RELOAD:
            news |= {"number": change.number, "status": change.status}
            if change.kind == "act":
                news |= {"payload": change.payload, "clock": change.clock}
        return json.dumps({**news, "origin": self.origin})

    @staticmethod
    def _change_of(news: dict[str, Any]) -> Change:
        """The change a news tells of (a news without a kind, from a server of before
        issue 20, is a reload)."""
        kind = news.get("kind", RELOAD)
        if kind not in ("act", "undo"):
            return Change(int(news["revision"]))
        return Change(
            int(news["revision"]),
            kind,
            int(news["number"]),
            news.get("payload"),
            news.get("clock"),
            news.get("status"),
        )

    # ---------------------------------------------------------------- listening

    async def _listen(self, pubsub: Any) -> None:
        lost = False
        while True:
            try:
                if pubsub is None:
                    pubsub = self.client.pubsub()
                    await pubsub.subscribe(CHANNEL)
                    live = self.manager.live_tables()
                    self._stale |= {t.id for t in live if t.connections}
                    self._lost_writes()  # (a Redis that restarted has none of them)
                    self._wake.set()  # catch up on the presence news missed
                    await self._catch_up(live)
                if lost:
                    lost = False
                    log.warning("the relay listens to Redis again")
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        await self._handle(message)
            except Exception as exc:
                if not lost:
                    lost = True
                    log.warning("the relay lost Redis (%r); it tries again every second", exc)
            if pubsub is not None:
                await close(pubsub)
            pubsub = None
            await asyncio.sleep(1)

    async def _catch_up(self, tables: list[LiveTable]) -> None:
        """Bring up to date the live tables here, whose changes made elsewhere while this
        server could not hear them were never heard of (the store has them)."""
        for table in tables:
            try:
                await self._changed(table.id)
            except Exception:  # the store's trouble, not Redis's: its first page reloads it
                log.exception("table %s could not be brought up to date", table.id)

    async def _changed(self, table_id: str, change: Change | None = None) -> None:
        """Another server changed ``table_id``: bring it up to date (if it is live here:
        ``change`` followed alone if it can be, else the table reloaded), tell its pages and
        let its bot think."""
        await self.manager.follow(table_id, change)

    def _follow(self, table_id: str, change: Change | None) -> None:
        """Bring ``table_id`` up to date with ``change`` (None: from the store) after the
        changes of that table heard before it."""
        self._inbox.setdefault(table_id, collections.deque()).append(change)
        if table_id not in self._following:
            self._following[table_id] = asyncio.create_task(self._follow_table(table_id))

    async def _follow_table(self, table_id: str) -> None:
        inbox = self._inbox[table_id]
        try:
            while inbox:
                change = inbox.popleft()
                try:
                    await self._changed(table_id, change)
                except Exception:  # the store's trouble: its next change or page reloads it
                    log.exception("table %s could not be brought up to date", table_id)
        finally:  # (nothing was heard since the inbox was found empty: no await between)
            del self._following[table_id]
            del self._inbox[table_id]

    async def _handle(self, message: dict[str, Any]) -> None:
        try:
            data = json.loads(message["data"])
            if data["origin"] == self.origin:
                return
            if data.get("type") == "chat":
                self.manager.heard(data["table"], data["side"], data["line"])
                return
            if data.get("type") == "presence":
                live = self.manager.live(data["table"])
                if live is not None and (live.connections or live.id in self._entries):
                    self._stale.add(live.id)
                    self._wake.set()
                return
            self._follow(data["table"], self._change_of(data))
        except Exception:
            log.exception("a relay message could not be handled: %r", message)

    # ---------------------------------------------------------------- presence

    def _presence_news(self, table_id: str) -> str:
        return json.dumps({"type": "presence", "table": table_id, "origin": self.origin})

    def held(self, table: LiveTable) -> None:
        self._dirty.add(table.id)
        self._wake.set()

    async def first_page(self, table: LiveTable) -> None:
        """``table`` has no page here yet: read it from the store (a change made elsewhere
        may never have been relayed: its server died before it could) and look up the seats
        held through other servers; while Redis is out of reach, a page is not kept waiting
        for it."""
        try:
            await self.manager.refresh(table.id)
        except Exception:  # the table as this server has it is what the page gets
            log.exception("table %s could not be brought up to date", table.id)
        try:
            if self._failing:
                raise ConnectionError("Redis is out of reach")
            async with asyncio.timeout(WAIT):
                heard = await self._read({table.id})
        except Exception as exc:
            self._trouble(exc)
            self._stale.add(table.id)  # (read when Redis answers again)
            return
        # (all of it: a server found dead, or back, changes the other tables too)
        self._tell({table.id: frozenset(), **heard})

    async def _keep_presence(self) -> None:
        """Write the seats held here, and read those held elsewhere, when they change; at
        every heartbeat (three times a ttl) renew this server's life and look at which of
        the others are alive. Nothing of a table is written or read while nothing changes
        at it, however many tables there are."""
        loop = asyncio.get_running_loop()
        beat = loop.time()
        heal = beat + HEAL_SECONDS
        while True:
            # Not wait_for: on Python 3.11 it loses a cancellation that comes as the event is set.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, beat - loop.time())):
                    await self._wake.wait()
            self._wake.clear()
            write, self._dirty = self._dirty, set()
            read, self._stale = self._stale, set()
            changes, self._unsent = self._unsent, {}
            beating = loop.time() >= beat
            if beating:
                beat = loop.time() + self.ttl / 3
            if loop.time() >= heal:
                heal = loop.time() + HEAL_SECONDS
                self._rewrite |= set(self._written)
                write |= set(self._written)
                read |= {t.id for t in self.manager.live_tables() if t.connections}
            try:
                async with asyncio.timeout(WAIT):
                    await self._write(write, changes)
                    heard = await self._read(read, look_again=beating)
            except Exception as exc:
                # Tried again at the next heartbeat, whatever was written before the failure
                # (Redis may have done a write it did not answer in time).
                self._dirty |= write
                self._rewrite |= write
                self._lost_writes()
                # Anything may have been missed meanwhile: every table is read again.
                self._stale |= read | {t.id for t in self.manager.live_tables() if t.connections}
                unsent, self._unsent = self._unsent, changes
                for table_id, later in unsent.items():  # (after the older ones, in order)
                    self._queue(table_id, later)
                self._trouble(exc)
                if loop.time() - self._heard > self.ttl:
                    for live in self.manager.live_tables():
                        if live.room.elsewhere:  # no news for a ttl: carry on with local presence
                            self.manager.set_elsewhere(live, frozenset())
                continue
            self._heard = loop.time()
            if self._failing:
                self._failing = False
                log.warning("Redis can be reached again")
            self._tell(heard)

    def _tell(self, heard: dict[str, frozenset[int]]) -> None:
        """Tell each table here the seats held through the other servers, as ``heard``
        (a table between its first read and its first page's joining included)."""
        for table_id, seats in heard.items():
            table = self.manager.live(table_id)
            if table is not None and (table.connections or table_id in self._entries):
                self.manager.set_elsewhere(table, seats)

    def _lost_writes(self) -> None:
        """Redis may have lost the seats written here: write them all again."""
        self._losses += 1
        self._rewrite |= {*self._written, *self._writing}
        self._dirty |= {*self._written, *self._writing}

    def _trouble(self, exc: Exception) -> None:
        if not self._failing:
            self._failing = True
            log.warning(
                "Redis cannot be reached (%r): each server counts its own pages for presence,"
                " and changes are relayed when Redis is back",
                exc,
            )

    async def _write(self, table_ids: set[str], changes: dict[str, list[Change]]) -> None:
        """In one round trip: renew this server's life, write the seats its pages hold at
        ``table_ids`` (the other servers hear of those that changed) and relay ``changes``
        (table → its changes, in order)."""
        held = {}
        for table_id in table_ids:
            table = self.manager.live(table_id)
            held[table_id] = table.room.here() if table is not None else []
        ms = max(1, round(self.ttl * 1000))
        self._writing = set(held)
        losses, written = self._losses, set()
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.set(ALIVE + self.origin, 1, px=ms)
            for table_id, queued in changes.items():
                for change in queued:
                    pipe.publish(CHANNEL, self._change_news(table_id, change))
            for table_id, seats in held.items():
                if seats == self._written.get(table_id, []) and table_id not in self._rewrite:
                    continue
                written.add(table_id)
                if seats:
                    pipe.hset(PRESENCE + table_id, self.origin, json.dumps(seats))
                    # The entries of a server that died count no more (they name a server
                    # no longer alive); the hash itself is swept away long after.
                    pipe.expire(PRESENCE + table_id, PRESENCE_KEPT)
                else:
                    pipe.hdel(PRESENCE + table_id, self.origin)
                pipe.publish(CHANNEL, self._presence_news(table_id))
            await pipe.execute()
        if losses == self._losses:  # (else Redis may have lost them meanwhile: again)
            self._rewrite -= written
        for table_id, seats in held.items():
            if seats:
                self._written[table_id] = seats
            else:
                self._written.pop(table_id, None)
        self._writing = set()

    async def _read(
        self, table_ids: set[str], *, look_again: bool = False
    ) -> dict[str, frozenset[int]]:
        """The seats held through the other servers alive, at each of ``table_ids`` (read
        from Redis) and, when ``look_again`` (a heartbeat: which servers are alive is
        looked at again) or a server died or came back, at every table read before."""
        async with self._reading:  # (a page's first read and the heartbeat's, one by one)
            return await self._read_now(sorted(table_ids), look_again)

    async def _read_now(self, ids: list[str], look_again: bool) -> dict[str, frozenset[int]]:
        if ids:
            async with self.client.pipeline(transaction=False) as pipe:
                for table_id in ids:
                    pipe.hgetall(PRESENCE + table_id)
                hashes = await pipe.execute()
            for table_id, held in zip(ids, hashes, strict=True):
                self._entries[table_id] = {
                    o.decode(): frozenset(json.loads(v))
                    for o, v in held.items()
                    if o.decode() != self.origin
                }
        if look_again:  # (the tables no longer in memory here are forgotten)
            live = {t.id for t in self.manager.live_tables()}
            for table_id in [t for t in self._entries if t not in live]:
                del self._entries[table_id]
        named = {s for held in self._entries.values() for s in held} if look_again else set()
        # (.get: a table read now may have left memory meanwhile, and been forgotten above)
        named |= {s for table_id in ids for s in self._entries.get(table_id, {})}
        servers = sorted(named)
        flags = await self.client.mget([ALIVE + s for s in servers]) if servers else []
        found = {s for s, flag in zip(servers, flags, strict=True) if flag is not None}
        # A heartbeat looked at every server named; a read, only at those of its tables.
        alive = found if look_again else (self._alive - named) | found
        told = set(ids) if alive == self._alive else set(self._entries)
        self._alive = alive
        # A crashed server's entries stay in the table's hash, but do not count.
        return {
            table_id: frozenset(
                seat
                for server, seats in self._entries[table_id].items()
                if server in alive
                for seat in seats
            )
            for table_id in told
            if table_id in self._entries
        }
