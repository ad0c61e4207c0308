"""The store never loses or rewrites an accepted action, on SQLite and on PostgreSQL, with
several servers (several SqlStore objects, or processes) on one database; its schema is made
and upgraded by the migrations it ships.

PostgreSQL is the development machine's and CI's (127.0.0.1:5432, trust); each test works in
a database of its own, dropped at the end.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from starlette.testclient import WebSocketTestSession

from gamenight.web.app import create_app
from gamenight.web.forward import MOVED
from gamenight.web.games import get_game
from gamenight.web.seats import hash_token
from gamenight.web.settings import Settings
from gamenight.web.store import (
    DuplicateError,
    MovedOnError,
    NewTable,
    Receipt,
    SeatLostError,
    Timing,
)
from gamenight.web.store.sql import FORGET_EVERY, MIGRATIONS, Base, SqlStore, upgrade
from gamenight.web.views.centrix import notations

from .bodies import CENTRIX_2
from .hosts import TEST_HOSTS
from .postgres import postgres_database
from .test_api import act, create, receive, undo
from .test_revisions import closed_with

PREFIX = "gn_store_"  # (this file's databases)
SRC = str(Path(__file__).resolve().parents[2] / "src")


@pytest.fixture
def stores(url: str) -> Iterator[Callable[..., SqlStore]]:
    """Open SqlStore objects on ``url`` (each as one server would), closed at the end."""
    opened: list[SqlStore] = []

    def open_store(**options: Any) -> SqlStore:
        opened.append(SqlStore(url, **options))
        return opened[-1]

    yield open_store
    for store in opened:
        store.engine.dispose()


SEATS = [
    {"name": "Ann", "kind": "human", "token_hash": hash_token("ann")},
    {"name": "Bo", "kind": "human", "token_hash": hash_token("bo")},
]


def new_table(store: SqlStore) -> str:
    return store.sync.create(NewTable("centrix", {}, 7, {"first": 0}, [dict(s) for s in SEATS])).id


def play(store: SqlStore, table: str, payload: Any, **checks: Any) -> int:
    """Append ``payload`` at the table as the store now has it (a writer that is up to date)."""
    stored = store.sync.load(table)
    assert stored is not None
    return store.sync.append(
        table,
        number=len(stored.actions),
        revision=stored.revision,
        payload=payload,
        status="playing",
        outcome=None,
        **checks,
    )


def actions(store: SqlStore, table: str) -> list[Any]:
    stored = store.sync.load(table)
    assert stored is not None
    return stored.actions


# ---------------------------------------------------------------- revisions


# ---------------------------------------------------------------- receipts and seats


def test_receipts_are_kept_for_a_table_s_latest_writes_only(
    stores: Callable[..., SqlStore],
) -> None:
    """The latest ``receipts_kept`` revisions' receipts are always there, and fewer than
    ``receipts_kept + FORGET_EVERY`` in all: the old ones go every FORGET_EVERY revisions."""
    store = stores(receipts_kept=3)
    table = new_table(store)
    most = 0
    for i in range(2 * FORGET_EVERY + 5):
        play(store, table, f"a{i}", message_id=f"m{i}")
        kept = [j for j in range(i + 1) if store.sync.receipt(table, f"m{j}") is not None]
        assert kept[-3:] == list(range(max(0, i - 2), i + 1))
        assert kept == list(range(kept[0], i + 1))  # (the oldest go first)
        most = max(most, len(kept))
    assert most == 3 + FORGET_EVERY - 1
    # (a forgetting at revision 2 × FORGET_EVERY, none since)
    assert kept == list(range(2 * FORGET_EVERY - 3, 2 * FORGET_EVERY + 5))


def test_refused_writes_leave_no_trace_and_their_group_s_other_writes_stand(
    stores: Callable[..., SqlStore],
) -> None:
    """An act or undo refused in a group (moved on, seat lost, resent, no such table) leaves
    its table's row, actions and receipts as they were — the store moves the row on before
    it checks, and the write's savepoint takes that back — while the group's others commit."""
    store = stores(linger=1.0)  # (every write below in one group)
    ok, stale, lost, resent, undone = (new_table(store) for _ in range(5))
    for table in (resent, undone):
        play(store, table, "x0", message_id="m-first")
    before = {table: store.sync.load(table) for table in (stale, lost, resent, undone)}
    timing = Timing({"left": [9.0, 9.0]}, datetime(2030, 1, 1, tzinfo=UTC))

    def append(table: str, number: int, revision: int, **checks: Any) -> Any:
        return store.commits.submit(
            lambda connection: store.append_in(
                connection,
                table,
                number=number,
                revision=revision,
                payload="p",
                status="won",
                outcome={"winner": 0},
                timing=timing,
                **checks,
            ),
            table,
        )

    store.commits.figures(reset=True)
    futures = [
        append(ok, 0, 0, seat=0, token_hash=hash_token("ann"), message_id="m-ok"),
        append(stale, 0, 5, message_id="m-stale"),
        append(lost, 0, 0, seat=0, token_hash=hash_token("not ann"), message_id="m-lost"),
        append(resent, 1, 1, message_id="m-first"),
        append("no-such-table", 0, 0),
        store.commits.submit(
            lambda connection: store.undo_in(
                connection, undone, number=0, revision=0, message_id="m-undo"
            ),
            undone,
        ),
    ]
    assert futures[0].result() == 1
    refusals = [MovedOnError, SeatLostError, DuplicateError, KeyError, MovedOnError]
    for future, refusal in zip(futures[1:], refusals, strict=True):
        with pytest.raises(refusal):
            future.result()
    assert store.commits.figures()["groups"] == 1
    for table, was in before.items():
        assert store.sync.load(table) == was
    for table, message in [(stale, "m-stale"), (lost, "m-lost"), (undone, "m-undo")]:
        assert store.sync.receipt(table, message) is None
    made = store.sync.load(ok)
    assert made is not None
    assert (made.revision, made.actions, made.status, made.outcome) == (
        1,
        ["p"],
        "won",
        {"winner": 0},
    )
    assert (made.clock, made.deadline) == (timing.clock, timing.deadline)
    assert store.sync.receipt(ok, "m-ok") == Receipt("m-ok", "act", 0, 1)


# ---------------------------------------------------------------- the web app on it


def play_first(ws: WebSocketTestSession, state: dict[str, Any]) -> None:
    """Make the first legal play of ``state`` (a state message)."""
    act(ws, 0, notations(state["view"]["legal"])[0])


def test_an_undo_on_one_server_and_a_play_on_another_leave_a_table_that_replays(
    url: str,
) -> None:
    """Two servers that do not hear of each other's changes (no Redis, or Redis down)."""
    settings = Settings(url, allowed_hosts=TEST_HOSTS)
    with (
        TestClient(create_app(settings, bot_executor=ThreadPoolExecutor(1))) as one,
        TestClient(create_app(settings, bot_executor=ThreadPoolExecutor(1))) as two,
    ):
        made = create(one, CENTRIX_2)
        token = made["seats"][0]["token"]
        with one.websocket_connect(f"/ws/tables/{made['id']}") as ann:
            ann.send_json({"type": "hello", "tokens": [token]})
            for _ in range(2):
                state = receive(ann, "state")
                play_first(ann, state)
            assert receive(ann, "state")["version"] == 2
            with two.websocket_connect(f"/ws/tables/{made['id']}") as ann_two:
                # Without Redis each server claims the table in the store as it needs it
                # (web.homes): server two is its home now, and server one's undo is refused
                # for its epoch, its page sent to reconnect.
                ann_two.send_json({"type": "hello", "tokens": [token]})
                stale = receive(ann_two, "state")
                assert stale["version"] == 2
                undo(ann, 0)
                assert closed_with(ann) == MOVED
                # Ann reconnects to server one, which claims the table back, and undoes.
                with one.websocket_connect(f"/ws/tables/{made['id']}") as again:
                    again.send_json({"type": "hello", "tokens": [token]})
                    assert receive(again, "state")["version"] == 2
                    undo(again, 0)
                    assert receive(again, "state")["version"] == 1
                    # The stale play from server two is refused (the old code stored it, as
                    # action 2), its page sent to reconnect and see the table as it now is.
                    play = notations(stale["view"]["legal"])[0]
                    act(ann_two, 0, play)
                    assert closed_with(ann_two) == MOVED
    with TestClient(create_app(settings, bot_executor=ThreadPoolExecutor(1))) as three:
        info = three.get(f"/api/tables/{made['id']}")
        assert info.status_code == 200, info.text
        assert info.json()["version"] == 1


# ---------------------------------------------------------------- migrations

# The schema as 1325d76 made it with ``create_all`` (before the store had migrations).


class OldBase(DeclarativeBase):
    pass


class OldTableRow(OldBase):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    game: Mapped[str] = mapped_column(sa.String(32))
    rules: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    seed: Mapped[int] = mapped_column(sa.BigInteger)
    setup: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(sa.JSON)
    status: Mapped[str] = mapped_column(sa.String(16), default="playing")
    outcome: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON, nullable=True)
    created: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))


class OldActionRow(OldBase):
    __tablename__ = "actions"
    __table_args__ = (sa.UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        sa.ForeignKey("tables.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column(sa.Integer)
    payload: Mapped[Any] = mapped_column(sa.JSON)


def schema_differences(url: str, metadata: sa.MetaData) -> list[Any]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            return list(compare_metadata(MigrationContext.configure(connection), metadata))
    finally:
        engine.dispose()


def head() -> str:
    """The latest revision the store's migrations reach."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return str(ScriptDirectory.from_config(config).get_current_head())


def alembic_version(url: str) -> str:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            return str(connection.scalar(sa.text("SELECT version_num FROM alembic_version")))
    finally:
        engine.dispose()


def test_a_new_database_gets_the_schema_of_the_models(
    stores: Callable[..., SqlStore], url: str
) -> None:
    stores()
    assert schema_differences(url, Base.metadata) == []
    assert alembic_version(url) == head()


def test_revision_1_is_the_schema_create_all_made(url: str) -> None:
    engine = sa.create_engine(url)
    try:
        upgrade(engine, "0001")
    finally:
        engine.dispose()
    assert schema_differences(url, OldBase.metadata) == []


def test_a_database_the_old_code_made_is_upgraded_with_its_tables(url: str, tmp_path: Path) -> None:
    # A game in progress, played through the app (on a database of its own) …
    source = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    with TestClient(
        create_app(Settings(source, allowed_hosts=TEST_HOSTS), bot_executor=ThreadPoolExecutor(1))
    ) as app:
        made = create(app, CENTRIX_2)
        with app.websocket_connect(f"/ws/tables/{made['id']}") as ann:
            ann.send_json({"type": "hello", "tokens": [made["seats"][0]["token"]]})
            for _ in range(3):
                state = receive(ann, "state")
                play_first(ann, state)
            assert receive(ann, "state")["version"] == 3
        played = app.app.state.manager.store.sync.load(made["id"])  # type: ignore[attr-defined]
    # … as the old code stored it.
    old = sa.create_engine(url)
    OldBase.metadata.create_all(old)
    now = datetime.now(UTC)
    with old.begin() as connection:
        connection.execute(
            sa.insert(OldTableRow),
            [
                {
                    "id": played.id,
                    "game": played.game,
                    "rules": played.rules,
                    "seed": played.seed,
                    "setup": played.setup,
                    "seats": played.seats,
                    "status": played.status,
                    "outcome": None,
                    "created": now,
                    "updated": now,
                }
            ],
        )
        connection.execute(
            sa.insert(OldActionRow),
            [
                {"table_id": played.id, "number": i, "payload": p}
                for i, p in enumerate(played.actions)
            ],
        )
    old.dispose()

    store = SqlStore(url)
    try:
        stored = store.sync.load(played.id)
        assert stored is not None
        assert (stored.actions, stored.revision, stored.seats) == (played.actions, 0, played.seats)
        game = get_game(stored.game)
        state = game.replay(stored.rules, stored.seed, stored.setup, stored.seats, stored.actions)
        assert game.actor(state) == 1  # Ann's three plays made, Bo's turn
        # The upgraded table plays on.
        assert play(store, played.id, played.actions[-1]) == 1
    finally:
        store.engine.dispose()
    assert alembic_version(url) == head()
    assert schema_differences(url, Base.metadata) == []


# A server's start, again for every database named on its input (the imports paid once).
STARTER = """
import sys
from gamenight.web.store.sql import SqlStore
from gamenight.web.views.centrix import notations
print("ready", flush=True)
for url in sys.stdin:
    SqlStore(url.strip()).engine.dispose()
    print("started", flush=True)
"""


@contextmanager
def empty_database(backend: str, folder: Path, name: str) -> Iterator[str]:
    if backend == "sqlite":
        yield f"sqlite:///{folder / f'{name}.sqlite3'}"
    else:
        with postgres_database(PREFIX) as url:
            yield url


@pytest.mark.parametrize("backend", ["postgresql", "sqlite"])
def test_servers_started_together_on_an_empty_database_all_start(
    backend: str, tmp_path: Path
) -> None:
    servers = [
        subprocess.Popen(
            [sys.executable, "-c", STARTER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"},
        )
        for _ in range(3)
    ]
    try:
        for server in servers:
            assert server.stdout is not None
            assert server.stdout.readline() == "ready\n"
        for round_ in range(5):
            with empty_database(backend, tmp_path, f"round{round_}") as url:
                for server in servers:  # all at once
                    assert server.stdin is not None
                    server.stdin.write(url + "\n")
                    server.stdin.flush()
                for server in servers:
                    assert server.stdout is not None
                    if server.stdout.readline() != "started\n":
                        raise AssertionError(server.communicate(timeout=30)[1])
                assert alembic_version(url) == head()
    finally:
        for server in servers:
            server.kill()
            server.communicate()


def test_a_store_starts_while_another_writes_to_a_file_not_yet_in_wal(tmp_path: Path) -> None:
    """SQLite refuses the switch to WAL at once, without its busy wait, while another
    connection writes to the file in the old journal mode (how servers started together on
    a new file raced): the store waits its turn and starts."""
    path = tmp_path / "new.sqlite3"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("CREATE TABLE early (x INTEGER)")
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO early VALUES (1)")
    release = threading.Timer(0.3, lambda: other.execute("COMMIT"))
    release.start()
    try:
        store = SqlStore(f"sqlite:///{path}")
    finally:
        release.join()
        other.close()
    try:
        with store.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert alembic_version(f"sqlite:///{path}") == head()
    finally:
        store.sync.close()


def test_a_load_reads_the_actions_of_the_revision_it_reads(stores: Callable[..., SqlStore]) -> None:
    """While another server appends, every load is one table: (append-only) its revision
    is its action count."""
    one, two = stores(), stores()
    table = new_table(one)
    done = threading.Event()

    def write() -> None:
        try:
            for i in range(80):
                play(one, table, f"a{i}")
        finally:
            done.set()

    writer = threading.Thread(target=write)
    writer.start()
    seen = []
    while not done.is_set():
        stored = two.sync.load(table)
        assert stored is not None
        seen.append((stored.revision, len(stored.actions)))
    writer.join()
    assert [s for s in seen if s[0] != s[1]] == []
    assert len(seen) > 10
