"""Two server processes' worth of app on PostgreSQL + Redis: one table, shared live.

Uses the PostgreSQL (127.0.0.1:5432, trust) and Redis (127.0.0.1:6379) that the development
machine and CI run; each run works in a database of its own, dropped at the end.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from typing import Any

import anyio
import pytest
import redis
import redis.asyncio
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from gamenight.core.errors import RulesError
from gamenight.web.app import create_app
from gamenight.web.forward import MOVED
from gamenight.web.settings import Settings
from gamenight.web.store import MEMORY, ConflictError, NewTable
from gamenight.web.store.sql import SqlStore
from gamenight.web.views.centrix import notations

from .bodies import CENTRIX_2, CENTRIX_INVITE
from .hosts import TEST_HOSTS
from .postgres import postgres_database
from .redis_server import private_redis
from .test_api import act, create, rebuilt, receive, until_pong
from .test_revisions import closed_with

REDIS = "redis://127.0.0.1:6379/0"
TTL = 2.0  # seconds a server's players stay online after it was last heard of (15 by default)


@pytest.fixture
def postgres() -> Iterator[str]:
    with postgres_database("gamenight_") as database:
        yield database


def test_the_store_on_postgresql_refuses_a_second_move_with_the_same_number(
    postgres: str,
) -> None:
    store = SqlStore(postgres)
    table = store.sync.create(NewTable("centrix", {}, 2**62 - 1, {"first": 0}, [{"name": "A"}]))
    store.sync.append(
        table.id, number=0, revision=0, payload="A off-a1", status="playing", outcome=None
    )
    with pytest.raises(ConflictError):
        store.sync.append(
            table.id, number=0, revision=0, payload="A off-b1", status="playing", outcome=None
        )
    loaded = store.sync.load(table.id)
    assert loaded is not None
    assert loaded.actions == ["A off-a1"]
    assert loaded.seed == 2**62 - 1
    store.sync.undo(table.id, number=0, revision=1)
    assert store.sync.load(table.id).actions == []  # type: ignore[union-attr]


def test_a_server_in_memory_refuses_to_share_its_tables_through_redis() -> None:
    # Each process would hold tables of its own, and the relay would tell the others of
    # tables they can never load.
    with pytest.raises(RulesError, match=r"memory://.*GAMENIGHT_REDIS_URL"):
        Settings(MEMORY, redis_url=REDIS)


@contextmanager
def two_servers(database: str, ttl: float) -> Iterator[tuple[TestClient, TestClient]]:
    """Two servers on one database and one Redis, as two processes would be."""
    settings = Settings(database, redis_url=REDIS, presence_ttl=ttl, allowed_hosts=TEST_HOSTS)
    with (
        TestClient(create_app(settings, bot_executor=ThreadPoolExecutor(1))) as one,
        TestClient(create_app(settings, bot_executor=ThreadPoolExecutor(1))) as two,
    ):
        yield one, two


@pytest.fixture
def servers(postgres: str) -> Iterator[tuple[TestClient, TestClient]]:
    with two_servers(postgres, TTL) as both:
        yield both


@pytest.fixture
def quiet_servers(postgres: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Two servers whose heartbeats are a minute apart: whatever a page hears within a test
    comes from a message, not a heartbeat."""
    with two_servers(postgres, 180.0) as both:
        yield both


def test_a_move_on_one_server_reaches_a_watcher_on_another(
    servers: tuple[TestClient, TestClient],
) -> None:
    one, two = servers
    made = create(one, CENTRIX_2)
    with (
        one.websocket_connect(f"/ws/tables/{made['id']}") as ann,
        two.websocket_connect(f"/ws/tables/{made['id']}") as watcher,
    ):
        ann.send_json({"type": "hello", "tokens": [made["seats"][0]["token"]]})
        watcher.send_json({"type": "hello", "tokens": []})
        state = receive(ann, "state")
        assert receive(watcher, "state")["version"] == 0
        play = notations(state["view"]["legal"])[0]
        act(ann, 0, play)
        seen = receive(watcher, "state")
        assert seen["version"] == 1
        assert [entry["notation"] for entry in seen["view"]["log"]] == [play]
        # The table lives on its home alone (server one, which made it): the watcher's page
        # on server two is forwarded there, and the move was applied once (issue 28).
        assert made["id"] not in two.app.state.manager.tables  # type: ignore[attr-defined]
        live = one.app.state.manager.tables[made["id"]]  # type: ignore[attr-defined]
        assert live.referee.version == 1
        assert len(live.connections) == 2
        # The watcher's own messages go to the home too.
        watcher.send_json({"type": "ping"})
        assert receive(watcher, "pong")["type"] == "pong"


def test_a_seat_renewed_on_one_server_is_taken_from_its_page_on_another(
    servers: tuple[TestClient, TestClient],
) -> None:
    one, two = servers
    made = create(one, {**CENTRIX_INVITE, "visibility": "public"})  # the page watches on
    invite, key = made["seats"][1]["token"], made["seats"][1]["renew"]
    with two.websocket_connect(f"/ws/tables/{made['id']}") as bo:
        bo.send_json({"type": "hello", "tokens": [invite]})
        assert receive(bo, "welcome")["seats"] == [1]  # Bo's page is on server two
        receive(bo, "state")
        time.sleep(0.3)  # both relays subscribed
        renewed = one.post(f"/api/tables/{made['id']}/invites/1", json={"renew": key})
        assert renewed.status_code == 200
        told = receive(bo, "revoked")
        assert (told["seat"], told["seats"]) == (1, [])
        act(bo, 1, "pass")
        assert "you do not hold seat 1" in receive(bo, "error")["message"]


def next_message(ws: WebSocketTestSession, seconds: float) -> dict[str, Any] | None:
    """The page's next message, or None if none comes within ``seconds``."""

    async def receive() -> Any:
        with anyio.move_on_after(seconds):
            return await ws._send_rx.receive()
        return None

    message = ws.portal.call(receive)
    if message is None:
        return None
    assert message["type"] == "websocket.send", message
    return rebuilt(ws, json.loads(message["text"]))


def told(
    ws: WebSocketTestSession, online: list[int], kinds: tuple[str, ...], seconds: float = 10
) -> dict[str, Any]:
    """Read the page's messages until one of ``kinds`` says ``online`` are the seats online."""
    deadline = time.monotonic() + seconds
    heard = []
    while (message := next_message(ws, deadline - time.monotonic())) is not None:
        if message["type"] in ("state", "presence"):
            heard.append((message["type"], message["online"]))
            if message["type"] in kinds and message["online"] == online:
                return message
    raise AssertionError(f"not told {online} are online within {seconds}s; heard {heard}")


def written(db: redis.Redis, table_id: str, seconds: float = 3 * TTL) -> dict[bytes, bytes]:
    """The table's presence hash in Redis, once a server has written a seat there."""
    deadline = time.monotonic() + seconds
    while not (held := db.hgetall(f"gamenight:presence:{table_id}")):
        assert time.monotonic() < deadline, f"no seat written within {seconds} s"
        time.sleep(0.02)
    return held  # type: ignore[return-value]


def hello(ws: WebSocketTestSession, *tokens: str) -> dict[str, Any]:
    ws.send_json({"type": "hello", "tokens": list(tokens)})
    welcome = receive(ws, "welcome")
    assert len(welcome["seats"]) == len(tokens)
    return welcome


@contextmanager
def ann_and_bo(
    one: TestClient, two: TestClient
) -> Iterator[tuple[dict[str, Any], WebSocketTestSession, WebSocketTestSession]]:
    """An invite table made on server one, with Ann's page on server one and Bo's (the
    invited seat) on server two, both past their hello."""
    # Public, so that a page may drop its seats (a hello with none) and watch on.
    made = create(one, {**CENTRIX_INVITE, "visibility": "public"})
    url = f"/ws/tables/{made['id']}"
    with one.websocket_connect(url) as ann, two.websocket_connect(url) as bo:
        hello(ann, made["seats"][0]["token"])
        # (the invite's token is the device's now: a page that reconnects says that one)
        made["device"] = hello(bo, made["seats"][1]["token"])["tokens"]["1"]
        yield made, ann, bo


def test_players_on_two_servers_see_each_other_come_and_go(
    quiet_servers: tuple[TestClient, TestClient],
) -> None:
    one, two = quiet_servers
    made = create(one, CENTRIX_INVITE)
    url = f"/ws/tables/{made['id']}"
    with one.websocket_connect(url) as ann:
        hello(ann, made["seats"][0]["token"])  # Ann's page is on server one
        state = receive(ann, "state")
        assert state["online"] == [0]
        with redis.Redis.from_url(REDIS) as db:  # server one has told Redis
            written(db, made["id"], seconds=10)
        with two.websocket_connect(url) as bo:
            hello(bo, made["seats"][1]["token"])  # Bo's page is on server two
            # Bo's first state already has Ann online, and Ann hears that Bo came.
            assert receive(bo, "state")["online"] == [0, 1]
            told(ann, [0, 1], ("presence",))
            # Every state says so too.
            play = notations(state["view"]["legal"])[0]
            act(ann, 0, play)
            assert told(bo, [0, 1], ("state",))["version"] == 1
        # Bo closed his page: Ann hears it.
        told(ann, [0], ("presence",))


def test_a_server_that_stops_withdraws_its_players_at_once(
    quiet_servers: tuple[TestClient, TestClient],
) -> None:
    one, two = quiet_servers
    forwarder = two.app.state.forwarder  # type: ignore[attr-defined]
    with ann_and_bo(one, two) as (_, ann, bo):
        told(ann, [0, 1], ("state", "presence"))
        two.portal.call(forwarder.stop)  # as on shutdown, with Bo's page still open
        told(ann, [0], ("presence",))
        assert closed_with(bo) == MOVED  # Bo's page reconnects, wherever it lands


def test_a_server_that_stops_answering_stops_counting_until_it_is_back(
    servers: tuple[TestClient, TestClient],
) -> None:
    one, two = servers
    url = ""
    with ann_and_bo(one, two) as (made, ann, bo):
        url = f"/ws/tables/{made['id']}"
        told(ann, [0, 1], ("state", "presence"))
        # While server two lives, its heartbeat keeps Bo online well past a ttl.
        deadline = time.monotonic() + 1.5 * TTL
        while (message := next_message(ann, deadline - time.monotonic())) is not None:
            assert message.get("online", [0, 1]) == [0, 1], message
        # Server two hangs (its event loop is blocked): to the table's home (server one) it
        # is as good as dead, and Bo goes away once server two's alive key expires.
        release = threading.Event()
        two.portal.start_task_soon(release.wait, 30)
        try:
            told(ann, [0], ("presence",), seconds=3 * TTL)
        finally:
            release.set()
        # Server two is back: Bo's page, let go of at the home, is sent to reconnect ...
        assert closed_with(bo) == MOVED
        # ... and once it has, Bo is back.
        with two.websocket_connect(url) as again:
            hello(again, made["device"])
            told(ann, [0, 1], ("presence",), seconds=3 * TTL)


def test_a_redis_restarted_empty_has_the_seats_written_again(
    servers: tuple[TestClient, TestClient],
) -> None:
    # Presence is written when it changes (not at every heartbeat): a Redis that lost it
    # must be told again, when the relay finds its connection cut.
    one, _ = servers
    made = create(one, CENTRIX_INVITE)
    with (
        one.websocket_connect(f"/ws/tables/{made['id']}") as ann,
        redis.Redis.from_url(REDIS) as db,
    ):
        hello(ann, made["seats"][0]["token"])
        written(db, made["id"])
        db.delete(f"gamenight:presence:{made['id']}")  # as a Redis restarted empty has it,
        db.client_kill_filter(_type="pubsub")  # and without its connections
        written(db, made["id"])


def test_a_home_that_loses_redis_carries_on_with_its_own_pages(
    servers: tuple[TestClient, TestClient], caplog: pytest.LogCaptureFixture
) -> None:
    one, _ = servers
    relay, homes = one.app.state.relay, one.app.state.manager.homes  # type: ignore[attr-defined]
    made = create(one, {**CENTRIX_INVITE, "visibility": "public"})
    with one.websocket_connect(f"/ws/tables/{made['id']}") as ann:
        hello(ann, made["seats"][0]["token"])
        state = receive(ann, "state")
        clients = relay.client, homes.client
        relay.client = homes.client = redis.asyncio.from_url("redis://127.0.0.1:1")
        try:  # server one cannot reach Redis (nothing listens on port 1)
            # Its lease is not renewed meanwhile, and expires.
            with redis.Redis.from_url(REDIS) as db:
                deadline = time.monotonic() + 3 * homes.ttl
                while db.get(f"gamenight:home:{made['id']}") is not None:
                    assert time.monotonic() < deadline, "the lease did not expire"
                    time.sleep(0.05)
            # It carries on: a move is played (nobody else claimed the table: the store's
            # epoch is still this home's), a page's seats are still told.
            play = notations(state["view"]["legal"])[0]
            act(ann, 0, play)
            assert receive(ann, "state")["version"] == 1
            hello(ann)
            told(ann, [], ("presence",))
        finally:
            one.portal.call(relay.client.aclose)
            relay.client, homes.client = clients
        # Redis is back: the home takes its lease again at its next renewal.
        deadline = time.monotonic() + 3 * TTL
        with redis.Redis.from_url(REDIS) as db:
            while db.get(f"gamenight:home:{made['id']}") != homes.origin.encode():
                assert time.monotonic() < deadline, "the home did not take its lease again"
                time.sleep(0.05)
    assert "the table homes cannot reach Redis" in caplog.text
    assert "the table homes reach Redis again" in caplog.text


def test_a_page_forwarded_while_the_forwarding_was_cut_reconnects_and_sees_every_move(
    servers: tuple[TestClient, TestClient],
) -> None:
    one, two = servers
    with ann_and_bo(one, two) as (made, ann, bo):
        state = receive(ann, "state")
        assert receive(bo, "state")["version"] == 0
        with redis.Redis.from_url(REDIS) as db:
            db.client_kill_filter(_type="pubsub")  # nobody hears what is forwarded now
        # Bo's page, which may have missed a message, is sent to reconnect; Ann plays on.
        assert closed_with(bo) == MOVED
        play = notations(state["view"]["legal"])[0]
        act(ann, 0, play)
        assert receive(ann, "state")["version"] == 1
        with redis.Redis.from_url(REDIS) as db:  # both forwarders listen again
            for client in (one, two):
                channel = f"gamenight:process:{client.app.state.forwarder.origin}"  # type: ignore[attr-defined]
                while db.pubsub_numsub(channel)[0][1] < 1:
                    time.sleep(0.02)
        with two.websocket_connect(f"/ws/tables/{made['id']}") as again:
            hello(again, made["device"])
            hears_of(again, 1)


def test_a_change_never_relayed_reaches_a_table_when_its_first_page_comes(
    servers: tuple[TestClient, TestClient],
) -> None:
    one, two = servers
    made = create(one, CENTRIX_INVITE)
    url = f"/ws/tables/{made['id']}"
    with two.websocket_connect(url) as bo:  # the table is live on server two from now on
        bo.send_json({"type": "hello", "tokens": [made["seats"][1]["token"]]})
        device = receive(bo, "welcome")["tokens"]["1"]
        assert receive(bo, "state")["version"] == 0
    # Server one stores Ann's move but never relays it (as if it died just after storing).
    relay = one.app.state.manager.events  # type: ignore[attr-defined]

    async def withheld(table_id: str, revision: int) -> None:
        return None

    relay.changed = withheld
    with one.websocket_connect(url) as ann:
        hello(ann, made["seats"][0]["token"])
        state = receive(ann, "state")
        play = notations(state["view"]["legal"])[0]
        act(ann, 0, play)
        assert receive(ann, "state")["version"] == 1
    # Bo comes back to server two, which kept the table as it was: he sees the move.
    with two.websocket_connect(url) as bo:
        hello(bo, device)
        mine = receive(bo, "state")
        assert (mine["version"], [e["notation"] for e in mine["view"]["log"]]) == (1, [play])


def hears_of(ws: WebSocketTestSession, version: int, seconds: float = 10) -> None:
    """Read the page's messages until a state of ``version`` comes."""
    deadline = time.monotonic() + seconds
    while (message := next_message(ws, deadline - time.monotonic())) is not None:
        if message["type"] == "state" and message["version"] == version:
            return
    raise AssertionError(f"the page never heard of version {version}")


def test_a_page_revoked_while_its_server_was_cut_off_from_redis_is_told(
    servers: tuple[TestClient, TestClient],
) -> None:
    """Issue 31, finding 7: the invite was renewed on server one while server two could not
    hear it; the old device's act on server two was refused, but its page was never told
    its seat was gone, even once Redis was back."""
    one, two = servers
    # The table's home is server one (Bo's page is there); the host renews through server
    # two, which reads the table from the store and tells the home through the relay.
    relay = one.app.state.relay  # type: ignore[attr-defined]
    made = create(one, {**CENTRIX_INVITE, "visibility": "public", "first": 1})  # Bo first
    with one.websocket_connect(f"/ws/tables/{made['id']}") as bo:
        hello(bo, made["seats"][1]["token"])
        receive_state = receive(bo, "state")
        client, relay.client = relay.client, redis.asyncio.from_url("redis://127.0.0.1:1")
        try:
            with redis.Redis.from_url(REDIS) as db:
                db.client_kill_filter(_type="pubsub")  # server two hears nothing more
            key = made["seats"][1]["renew"]
            renewed = two.post(f"/api/tables/{made['id']}/invites/1", json={"renew": key})
            assert renewed.status_code == 200
            # Server one has not heard: the page still thinks it holds seat 1. Its act is
            # refused in the store's transaction, and the page is told why at once.
            act(bo, 1, notations(receive_state["view"]["legal"])[0])
            heard = until_pong(bo)
            assert [m["code"] for m in heard if m["type"] == "error"] == ["not_your_seat"]
            revoked = [m for m in heard if m["type"] == "revoked"]
            assert [(m["seat"], m["seats"]) for m in revoked] == [(1, [])]
        finally:
            one.portal.call(relay.client.aclose)
            relay.client = client


def test_a_page_revoked_while_its_server_was_cut_off_is_told_once_redis_is_back(
    servers: tuple[TestClient, TestClient],
) -> None:
    one, two = servers
    relay = one.app.state.relay  # type: ignore[attr-defined]  (the home's: as above)
    made = create(one, {**CENTRIX_INVITE, "visibility": "public"})
    with one.websocket_connect(f"/ws/tables/{made['id']}") as bo:
        hello(bo, made["seats"][1]["token"])
        receive(bo, "state")
        client, relay.client = relay.client, redis.asyncio.from_url("redis://127.0.0.1:1")
        try:
            with redis.Redis.from_url(REDIS) as db:
                db.client_kill_filter(_type="pubsub")
            key = made["seats"][1]["renew"]
            renewed = two.post(f"/api/tables/{made['id']}/invites/1", json={"renew": key})
            assert renewed.status_code == 200
            while (message := next_message(bo, 1.0)) is not None:
                assert message["type"] == "presence", message  # server one has not heard
        finally:
            one.portal.call(relay.client.aclose)
            relay.client = client
        # Redis is back: server one catches up with the store, and the page is told.
        deadline = time.monotonic() + 5
        while (message := next_message(bo, deadline - time.monotonic())) is not None:
            if message["type"] == "revoked":
                assert (message["seat"], message["seats"]) == (1, [])
                return
        raise AssertionError("the page was not told its seat was given a new link")


def test_a_table_deleted_through_another_server_lets_its_pages_at_the_home_go(
    quiet_servers: tuple[TestClient, TestClient],
) -> None:
    one, two = quiet_servers
    made = create(one, CENTRIX_2)  # its home is server one
    with one.websocket_connect(f"/ws/tables/{made['id']}") as ann:
        hello(ann, made["seats"][0]["token"])
        receive(ann, "state")
        deleted = two.post(f"/api/tables/{made['id']}/delete", json={"keys": [made["host"]]})
        assert deleted.status_code == 200
        assert receive(ann, "error")["code"] == "no_table"
    assert made["id"] not in one.app.state.manager.tables  # type: ignore[attr-defined]


def test_a_server_stops_though_redis_never_answers_its_goodbyes(postgres: str) -> None:
    """redis-py's close can wait forever on a connection's closing (redis/redis-py#3941): a
    server stopping (a restart, a deploy) must not wait with it."""
    settings = Settings(postgres, redis_url=REDIS, presence_ttl=TTL, allowed_hosts=TEST_HOSTS)
    client = TestClient(create_app(settings, bot_executor=ThreadPoolExecutor(1)))
    client.__enter__()
    made = create(client, CENTRIX_2)
    with client.websocket_connect(f"/ws/tables/{made['id']}") as ann:
        hello(ann, made["seats"][0]["token"])

    async def never() -> None:
        await asyncio.Event().wait()

    state = client.app.state  # type: ignore[attr-defined]
    for redis_client in (state.relay.client, state.forwarder.client, state.manager.homes.client):
        redis_client.aclose = never
    stopping = threading.Thread(target=client.__exit__, args=(None, None, None), daemon=True)
    stopping.start()
    stopping.join(20)
    assert not stopping.is_alive(), "the server did not stop"


def test_a_heartbeat_with_nothing_changed_asks_redis_nothing_per_table(postgres: str) -> None:
    """Issue 28's profile: each heartbeat (three a ttl) wrote and read again the presence of
    every table with a page, a cost that grew with the tables while nothing changed. Now
    presence is written and read when it changes, and a heartbeat looks only at which
    servers are alive."""
    ttl, tables = 0.6, 12
    with private_redis() as url:
        settings = Settings(postgres, redis_url=url, presence_ttl=ttl, allowed_hosts=TEST_HOSTS)
        with (
            TestClient(create_app(settings, bot_executor=ThreadPoolExecutor(1))) as one,
            ExitStack() as pages,
            redis.Redis.from_url(url) as db,
        ):
            for _ in range(tables):
                made = create(one, CENTRIX_INVITE)
                page = pages.enter_context(one.websocket_connect(f"/ws/tables/{made['id']}"))
                hello(page, made["seats"][0]["token"])
            time.sleep(ttl)  # (the pages' seats written)
            db.config_resetstat()
            time.sleep(5 * ttl / 3)  # five heartbeats
            stats = db.info("commandstats")
    per_table = {c: stats.get(f"cmdstat_{c}", {}).get("calls", 0) for c in PER_TABLE}
    assert per_table == dict.fromkeys(PER_TABLE, 0)


# (Not PEXPIRE: the table homes renew their leases, one per table, in one call: web.homes.)
PER_TABLE = ("hset", "hdel", "hgetall")
