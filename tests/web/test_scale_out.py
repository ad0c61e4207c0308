"""Two server processes' worth of app on PostgreSQL + Redis: one table, shared live.

Uses the PostgreSQL (127.0.0.1:5432, trust) and Redis (127.0.0.1:6379) that the development
machine and CI run; each run works in a database of its own, dropped at the end.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from fastapi.testclient import TestClient

from gamenight.web.app import create_app
from gamenight.web.settings import Settings
from gamenight.web.storage import ConflictError, Store

from .bodies import CENTRIX_2, CENTRIX_INVITE
from .test_api import create, receive

ADMIN = "postgresql://postgres@127.0.0.1:5432/test"


@pytest.fixture
def postgres() -> Iterator[str]:
    name = f"gamenight_{secrets.token_hex(4)}"
    with psycopg.connect(ADMIN, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    finally:
        with psycopg.connect(ADMIN, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)")


def test_the_store_on_postgresql_refuses_a_second_move_with_the_same_number(
    postgres: str,
) -> None:
    store = Store(postgres)
    table = store.create("centrix", {}, 2**62 - 1, {"first": 0}, [{"name": "A"}])
    store.append(table.id, 0, "A off-a1", "playing", None)
    with pytest.raises(ConflictError):
        store.append(table.id, 0, "A off-b1", "playing", None)
    loaded = store.load(table.id)
    assert loaded is not None
    assert loaded.actions == ["A off-a1"]
    assert loaded.seed == 2**62 - 1
    store.truncate(table.id, 0)
    assert store.load(table.id).actions == []  # type: ignore[union-attr]


@pytest.fixture
def servers(postgres: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Two servers on one database and one Redis, as two processes would be."""
    settings = Settings(postgres, redis_url="redis://127.0.0.1:6379/0")
    with (
        TestClient(create_app(settings, bot_executor=ThreadPoolExecutor(1))) as one,
        TestClient(create_app(settings, bot_executor=ThreadPoolExecutor(1))) as two,
    ):
        yield one, two


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
        live = two.app.state.manager.tables[made["id"]]  # type: ignore[attr-defined]
        time.sleep(0.3)  # both relays subscribed
        play = state["view"]["legal"][0]["notation"]
        ann.send_json({"type": "act", "seat": 0, "action": play})
        seen = receive(watcher, "state")
        assert seen["version"] == 1
        assert seen["view"]["log"] == [play]
        # The other server brought its live table up to date in place: the same object,
        # with its connections (and any bot's task) still attached.
        assert two.app.state.manager.tables[made["id"]] is live  # type: ignore[attr-defined]
        assert live.version == 1
        assert len(live.connections) == 1


def test_a_seat_renewed_on_one_server_is_taken_from_its_page_on_another(
    servers: tuple[TestClient, TestClient],
) -> None:
    one, two = servers
    made = create(one, CENTRIX_INVITE)
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
        bo.send_json({"type": "act", "seat": 1, "action": "pass"})
        assert "you do not hold seat 1" in receive(bo, "error")["message"]
