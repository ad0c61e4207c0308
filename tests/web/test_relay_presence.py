"""Who is online through the relay (web.relay), written and read when it changes: two relays
on the local Redis, each over a stand-in for its server's tables."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
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


def with_relays(
    scenario: Callable[..., Awaitable[None]], *servers: Tables, ttl: float = TTL
) -> None:
    async def run() -> None:
        relays = [
            RedisRelay(REDIS, tables, ttl, f"test-{secrets.token_hex(4)}") for tables in servers
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


def test_a_table_that_left_memory_while_redis_was_out_of_reach_is_let_go(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # A table whose first read failed (Redis out of reach) is read again once Redis is
    # back; if it left memory meanwhile, the relay carries on without it. It failed every
    # heartbeat after, for good, and relayed its writes again each time.
    (table_id,) = ids(1)
    mine = Tables(Table(table_id, []))

    async def scenario(relay: RedisRelay) -> None:
        client, relay.client = relay.client, redis.asyncio.from_url("redis://127.0.0.1:1")
        try:  # (nothing listens on port 1)
            await relay.first_page(mine.tables[table_id])
        finally:
            await relay.client.aclose()
            relay.client = client
        del mine.tables[table_id]  # it leaves memory
        await until(lambda: "Redis can be reached again" in caplog.text, caplog.text, 5.0)

    with caplog.at_level(logging.WARNING, logger="gamenight.web"):
        with_relays(scenario, mine, ttl=1.5)
