"""Who is online through the relay (web.relay), written and read when it changes: two relays
on the local Redis, each over a stand-in for its server's tables."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio

from gamenight.web.relay import ALIVE, RedisRelay

from .test_scale_out import REDIS

TTL = 30.0  # (no heartbeat within a test but the first: whatever a relay hears is news)


class Room:
    def __init__(self, here: list[int]) -> None:
        self.held = here
        self.elsewhere: frozenset[int] | None = None

    def here(self) -> list[int]:
        return self.held


class Table:
    def __init__(self, table_id: str, here: list[int]) -> None:
        self.id = table_id
        self.room = Room(here)
        self.connections = [object()] if here else []


class Tables:
    """A server's tables as the relay sees them (web.relay.Follower), and what it was told."""

    def __init__(self, *tables: Table) -> None:
        self.tables = {t.id: t for t in tables}
        self.told: dict[str, frozenset[int]] = {}

    def live(self, table_id: str) -> Any:
        return self.tables.get(table_id)

    def live_tables(self) -> list[Any]:
        return list(self.tables.values())

    async def follow(self, table_id: str, change: Any = None) -> None:
        return None

    async def refresh(self, table_id: str, change: Any = None) -> Any:
        return self.tables.get(table_id)

    def heard(self, table_id: str, side: str, line: Any) -> None:
        return None

    def set_elsewhere(self, table: Any, seats: frozenset[int]) -> None:
        self.told[table.id] = seats


async def until(done: Callable[[], bool], what: str, seconds: float = 5.0) -> None:
    async with asyncio.timeout(seconds):
        while not done():
            await asyncio.sleep(0.02)
    assert done(), what


def with_relays(scenario: Callable[..., Awaitable[None]], *servers: Tables) -> None:
    async def run() -> None:
        relays = [
            RedisRelay(REDIS, tables, TTL, f"test-{secrets.token_hex(4)}") for tables in servers
        ]
        for relay in relays:
            await relay.start()
        try:
            await scenario(*relays)
        finally:
            for relay in relays:
                await relay.stop()

    asyncio.run(run())


def ids(count: int) -> list[str]:
    return [f"presence-test-{secrets.token_hex(4)}" for _ in range(count)]


def test_news_between_a_tables_first_read_and_its_first_page_is_heard() -> None:
    # A page's first read comes before it joins the table (web.seating): a seat taken on
    # another server meanwhile was news for a table with no page yet, and was dropped.
    (table_id,) = ids(1)
    mine, theirs = Tables(Table(table_id, [])), Tables(Table(table_id, [1]))

    async def scenario(relay: RedisRelay, other: RedisRelay) -> None:
        await relay.first_page(mine.tables[table_id])  # (nobody holds a seat yet)
        assert mine.told[table_id] == frozenset()
        other.held(theirs.tables[table_id])  # a page there opens seat 1
        await until(lambda: mine.told[table_id] == {1}, f"told {mine.told}")

    with_relays(scenario, mine, theirs)


def test_a_first_read_that_finds_a_server_dead_tells_every_table_of_its_seats() -> None:
    # Another server's seats at three tables: two of them read here already. It dies; the
    # first read of the third finds it dead, and its seats at the other two go away too,
    # not at some later heartbeat (none comes: nothing changed).
    one, two, three = ids(3)
    mine = Tables(Table(one, [0]), Table(two, [0]), Table(three, []))
    theirs = Tables(Table(one, [1]), Table(two, [1]), Table(three, [1]))

    async def scenario(relay: RedisRelay, other: RedisRelay) -> None:
        for table in theirs.live_tables():
            other.held(table)
        db = redis.asyncio.from_url(REDIS)
        try:
            await until_written(db, [one, two, three])
            for table_id in (one, two):
                await relay.first_page(mine.tables[table_id])
            assert mine.told == {one: {1}, two: {1}}
            await db.delete(ALIVE + other.origin)  # as when its server died
            await relay.first_page(mine.tables[three])
        finally:
            await db.aclose()
        assert mine.told == {one: frozenset(), two: frozenset(), three: frozenset()}

    with_relays(scenario, mine, theirs)


async def until_written(db: Any, table_ids: list[str]) -> None:
    async def written() -> bool:
        return all([await db.hgetall(f"gamenight:presence:{t}") for t in table_ids])

    async with asyncio.timeout(5):
        while not await written():
            await asyncio.sleep(0.02)
