"""A table has one home process (issue 28): its lease, and the epoch every write of its
referee names, so that a home whose lease lapsed and was taken over can no longer write."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import redis.asyncio
from fastapi.testclient import TestClient

from gamenight.web.forward import CHANNEL, MOVED
from gamenight.web.homes import HOME, ElsewhereError, LocalHomes, RedisHomes
from gamenight.web.protocol import TableIn
from gamenight.web.referee import HomeLostError
from gamenight.web.seats import hash_token
from gamenight.web.store import LeaseLostError, MemoryStore
from gamenight.web.tables import TableManager

from .bodies import CENTRIX_2, CENTRIX_BOTS
from .redis_server import private_redis
from .test_api import act, create, receive
from .test_revisions import closed_with, legal


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    """A redis-server of this file's own."""
    with private_redis() as url:
        yield url


def test_a_home_overtaken_in_the_store_cannot_write_and_sends_its_pages_away(
    client: TestClient,
) -> None:
    made = create(client, CENTRIX_2)
    manager: TableManager = client.app.state.manager  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/tables/{made['id']}") as page:
        page.send_json({"type": "hello", "tokens": [made["seats"][0]["token"]]})
        state = receive(page, "state")
        table = manager.tables[made["id"]]
        assert table.referee.epoch == 1  # claimed when it was made here
        # Another process claims the table (as a home that took it over would).
        assert client.portal.call(manager.store.claim, made["id"]) == 2  # type: ignore[union-attr]
        act(page, 0, legal(state), id="m-1")
        # The write was refused for its epoch: nothing stored, no error for the page (whose
        # act is resent, with its id, where it reconnects), the table gone from memory here.
        assert closed_with(page) == MOVED
    assert made["id"] not in manager.tables
    stored = client.portal.call(manager.store.load, made["id"])  # type: ignore[union-attr]
    assert stored is not None
    assert stored.actions == []
    assert stored.epoch == 2
    # A page that comes back is served by a new claim, and plays.
    with client.websocket_connect(f"/ws/tables/{made['id']}") as page:
        page.send_json({"type": "hello", "tokens": [made["seats"][0]["token"]]})
        state = receive(page, "state")
        act(page, 0, legal(state), id="m-1")
        assert receive(page, "state")["version"] == 1
    assert manager.tables[made["id"]].referee.epoch == 3


def body() -> TableIn:
    return TableIn.model_validate(CENTRIX_2)


def test_a_home_whose_lease_lapsed_and_was_taken_cannot_append(redis_url: str) -> None:
    async def run() -> None:
        store = MemoryStore()
        client: Any = redis.asyncio.from_url(redis_url)
        one = RedisHomes(client, store, "one", ttl=5)
        two = RedisHomes(client, store, "two", ttl=5)
        first = TableManager(store, homes=one)
        second = TableManager(store, homes=two)
        lost: list[str] = []
        await one.start(lambda table_id: (lost.append(table_id), first.lapsed(table_id)))
        await two.start(second.lapsed)
        try:
            table, seats = await first.create(body())
            key = hash_token(seats[0]["token"])
            assert one.epoch(table.id) == 1
            assert await client.get(HOME + table.id) == b"one"
            with pytest.raises(ElsewhereError) as elsewhere:
                await second.get(table.id)
            assert elsewhere.value.home == "one"
            assert await two.home_of(table.id) == "one"
            # Process one hangs: its lease is not renewed and expires; two takes the table.
            await one.stop_renewing()
            await client.pexpire(HOME + table.id, 1)  # (as a ttl ends: no wait on a busy machine)
            await asyncio.sleep(0.05)
            taken = await second.get(table.id)
            assert taken.referee.epoch == 2
            assert await client.get(HOME + table.id) == b"two"
            # One wakes: its write is refused for its epoch, cleanly, and it lets go.
            play = str(table.referee.state.legal_plays()[0])
            with pytest.raises(HomeLostError):
                await table.referee.act(0, play, key=key)
            assert table.id not in first.tables
            assert one.epoch(table.id) is None
            stored = await store.load(table.id)
            assert stored is not None
            assert stored.actions == []
            # A write named with the old epoch, straight to the store, is refused too.
            with pytest.raises(LeaseLostError):
                await store.append(
                    table.id,
                    number=0,
                    revision=0,
                    payload=play,
                    status="playing",
                    outcome=None,
                    epoch=1,
                )
            # The new home plays.
            await taken.referee.act(0, play, key=key)
            assert (await store.load(table.id)).actions == [play]  # type: ignore[union-attr]
            # One let go at the refusal: its renewal has nothing to renew, nor to take back.
            assert await one.renew() == []
            assert lost == []
            assert await client.get(HOME + table.id) == b"two"
        finally:
            await one.stop()
            await two.stop()
            first.close()
            second.close()
            await client.aclose()

    asyncio.run(run())


def test_one_renewal_keeps_each_lease_takes_back_an_expired_one_and_names_the_taken(
    redis_url: str,
) -> None:
    # Every lease of a process is renewed by one call (a call per table took the home 5
    # times the CPU, issue 28); its answers must still be per table.
    async def run() -> None:
        client: Any = redis.asyncio.from_url(redis_url)
        one = RedisHomes(client, MemoryStore(), "one", ttl=30)
        kept, expired, taken = ("renew-kept", "renew-expired", "renew-taken")
        one.held = {kept: 1, expired: 1, taken: 1}
        try:
            await client.set(HOME + kept, "one", px=1000)
            await client.set(HOME + taken, "two", px=30_000)
            assert await one.renew() == [taken]
            assert set(one.held) == {kept, expired}
            for table_id in (kept, expired):
                assert await client.get(HOME + table_id) == b"one"
                assert await client.pttl(HOME + table_id) > 20_000, "renewed for a whole ttl"
            assert await client.get(HOME + taken) == b"two", "another's lease is left alone"
        finally:
            await client.delete(*(HOME + t for t in (kept, expired, taken)))
            await client.aclose()

    asyncio.run(run())


def test_a_home_notices_at_its_renewal_that_another_took_its_table(redis_url: str) -> None:
    async def run() -> None:
        store = MemoryStore()
        client: Any = redis.asyncio.from_url(redis_url)
        one, two = RedisHomes(client, store, "one"), RedisHomes(client, store, "two")
        first, second = TableManager(store, homes=one), TableManager(store, homes=two)
        await one.start(first.lapsed)
        try:
            table, _ = await first.create(body())
            await client.delete(HOME + table.id)  # (as if it had expired)
            assert (await second.get(table.id)).referee.epoch == 2
            assert await one.renew() == [table.id]
            assert table.id not in first.tables
            # A clean stop lets go at once: another process takes the table without waiting.
            await two.stop()
            assert await client.get(HOME + table.id) is None
        finally:
            await one.stop()
            first.close()
            second.close()
            await client.aclose()

    asyncio.run(run())


def test_a_process_alone_is_home_of_every_table_it_loads() -> None:
    async def run() -> None:
        store = MemoryStore()
        homes = LocalHomes(store)
        manager = TableManager(store, homes=homes)
        table, _ = await manager.create(body())
        manager.cache.drop(table.id)  # (left memory: the lease goes with it)
        assert homes.epoch(table.id) is None
        # Two loads at once make one claim, and so one epoch both share.
        both = await asyncio.gather(manager.get(table.id), manager.get(table.id))
        assert both[0] is both[1]
        assert both[0].referee.epoch == homes.epoch(table.id) == 2
        manager.close()

    asyncio.run(run())


def test_the_bot_tables_of_a_home_that_died_are_adopted_and_play_on(redis_url: str) -> None:
    async def run() -> None:
        store = MemoryStore()
        client: Any = redis.asyncio.from_url(redis_url)
        one = RedisHomes(client, store, "one", ttl=0.5)
        two = RedisHomes(client, store, "two", ttl=0.5)
        with ThreadPoolExecutor(1) as bots:
            first = TableManager(store, executor=bots, homes=one)
            second = TableManager(store, executor=bots, homes=two)
            try:
                # A bot table of four seats, homed on process one, its bots held back there.
                bodies = TableIn.model_validate(
                    {**CENTRIX_BOTS, "seats": [CENTRIX_BOTS["seats"][1]] * 4}
                )
                first.bots.close()  # (process one "dies": nothing more plays there)
                table, _ = await first.create(bodies)
                assert await second.homes.homeless([table.id]) == []  # one holds it
                await second.adopt()
                assert table.id not in second.tables
                await asyncio.sleep(0.8)  # one's lease expires, never renewed
                assert await two.homeless([table.id]) == [table.id]
                await second.adopt()
                adopted = second.tables[table.id]
                assert adopted.referee.epoch == 2
                for _ in range(200):  # its bots play on, on process two
                    if adopted.referee.version > 0:
                        break
                    await asyncio.sleep(0.05)
                assert adopted.referee.version > 0
            finally:
                await two.stop()
                first.close()
                second.close()
                await client.aclose()

    asyncio.run(run())


def test_a_dead_home_is_known_by_its_channel_and_its_tables_are_taken_at_once(
    redis_url: str,
) -> None:
    async def run() -> None:
        store = MemoryStore()
        client: Any = redis.asyncio.from_url(redis_url)
        listening = client.pubsub()
        await listening.subscribe(CHANNEL + "one")  # process one's forwarder, alive
        one = RedisHomes(client, store, "one", ttl=30, listens=CHANNEL)
        two = RedisHomes(client, store, "two", ttl=30, listens=CHANNEL)
        first, second = TableManager(store, homes=one), TableManager(store, homes=two)
        try:
            table, _ = await first.create(body())
            with pytest.raises(ElsewhereError):  # one lives: its lease stands
                await second.get(table.id)
            assert await two.homeless([table.id]) == []
            await listening.aclose()  # one dies: its connection to Redis closes with it
            # Long before its lease (30 s) expires, its table is taken.
            assert await two.homeless([table.id]) == [table.id]
            assert (await second.get(table.id)).referee.epoch == 2
            assert await client.get(HOME + table.id) == b"two"
        finally:
            await two.stop()
            first.close()
            second.close()
            await client.aclose()

    asyncio.run(run())
