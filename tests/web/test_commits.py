"""Group commit (issue 20): the writes of many tables in one transaction, each in a savepoint,
nobody answered before the COMMIT that holds their write, on SQLite and PostgreSQL.

The store's COMMITs are watched through SQLAlchemy's own ``commit`` event (it runs just
before the COMMIT is sent): the first is held until the test lets it go, so that the writes
the test makes meanwhile all wait for the next one.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Connection, event, insert

from gamenight.core.errors import RulesError
from gamenight.web import commits
from gamenight.web.app import create_app
from gamenight.web.protocol import TableIn
from gamenight.web.referee import Accepted, Referee
from gamenight.web.refusals import RefusedError
from gamenight.web.seats import hash_token
from gamenight.web.settings import Settings
from gamenight.web.store import NewTable, Timing
from gamenight.web.store.sql import ActionRow, SqlStore
from gamenight.web.tables import TableManager

from .bodies import CENTRIX_2
from .hosts import TEST_HOSTS
from .postgres import postgres_database

TABLES = 6  # the first is the plug, the last goes stale


@dataclass(eq=False)  # (hashable: SQLAlchemy keeps its listeners by identity)
class Commits:
    """The COMMITs of one store's writes: counted; the first waits for ``go``; ``then`` runs at the
    second (and may raise, failing it)."""

    count: int = 0
    held: threading.Event = field(default_factory=threading.Event)
    go: threading.Event = field(default_factory=threading.Event)
    then: Callable[[], None] = lambda: None

    def __call__(self, connection: Connection) -> None:
        if not connection.get_execution_options().get("gamenight_write"):
            return  # a read's transaction (web.store.sql: the writing engine's option)
        self.count += 1
        if self.count == 1:
            self.held.set()
            self.go.wait(60)
        elif self.count == 2:
            self.then()


@dataclass
class Table:
    referee: Referee
    keys: list[str]

    def act(self, page: str = "p") -> Any:
        """The seat to act plays its first legal play, on the table as the referee has it,
        from ``page`` (which names its messages)."""
        referee = self.referee
        actor = referee.actor
        assert actor is not None
        play = str(referee.state.legal_plays()[0])
        return referee.act(
            actor,
            play,
            key=self.keys[actor],
            seen=referee.revision,
            message_id=f"{page}-{referee.revision}",
        )

    def picture(self) -> tuple[Any, ...]:
        """What the referee holds of the table."""
        r = self.referee
        return (r.version, r.revision, r.clock, r.last, list(r.actions), r.state.legal_plays())


def tables(store: SqlStore) -> list[Table]:
    manager = TableManager(store)
    made = []
    for _ in range(TABLES):
        table, seats = asyncio.run(manager.create(TableIn.model_validate(CENTRIX_2)))
        made.append(Table(table.referee, [hash_token(s["token"]) for s in seats]))
    return made


def stored_actions(store: SqlStore, table: Table) -> list[Any]:
    stored = store.sync.load(table.referee.id)
    assert stored is not None
    return stored.actions


async def plugged(store: SqlStore, made: list[Table], commits: Commits) -> tuple[Any, list[Any]]:
    """Act at the first table and hold its COMMIT; meanwhile act at every other table (and
    store the second table's clock, as a page coming or going does); then let the first
    COMMIT go. The plug's result, and the other acts' (results or exceptions)."""
    event.listen(store.engine, "commit", commits)
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(1) as waiter:
        plug = asyncio.create_task(made[0].act())
        await loop.run_in_executor(waiter, commits.held.wait, 60)
        others = [asyncio.create_task(t.act()) for t in made[1:]]
        clock = asyncio.create_task(made[1].referee.store_timing([0]))
        for _ in range(20):  # (each reaches its write at its first step)
            await asyncio.sleep(0)
        commits.go.set()
        results = await asyncio.gather(*others, return_exceptions=True)
        await clock
        return await plug, results


def test_a_group_of_tables_commits_at_once_and_a_stale_write_is_refused_alone(url: str) -> None:
    store, two = SqlStore(url), SqlStore(url)
    made = tables(store)
    stale = made[-1]
    before = stale.picture()

    async def run() -> tuple[Any, list[Any], list[bool]]:
        # Another server plays at the last table: this server's referee has not heard.
        other = await Referee.load(two, stale.referee.id)
        assert other is not None
        await Table(other, stale.keys).act("elsewhere")
        commits = Commits()
        answered_at_commit: list[bool] = []

        def at_the_groups_commit() -> None:
            answered_at_commit.extend(t.referee.version > 0 for t in made[1:])

        commits.then = at_the_groups_commit
        plug, results = await plugged(store, made, commits)
        assert commits.count == 2  # the plug's, and one for all the others and the clock
        return plug, results, answered_at_commit

    try:
        plug, results, answered_at_commit = asyncio.run(run())
        assert isinstance(plug, Accepted)
        # Nobody was answered before the COMMIT that holds their write.
        assert answered_at_commit == [False] * (TABLES - 1)
        assert [type(r) for r in results[:-1]] == [Accepted] * (TABLES - 2)
        assert isinstance(results[-1], RefusedError)
        assert results[-1].code == "moved_on"
        for table in made[:-1]:
            assert len(stored_actions(store, table)) == 1
            assert table.referee.version == 1
        # The stale table has the other server's play alone, and the referee has reloaded it.
        assert len(stored_actions(store, stale)) == 1
        assert stale.referee.revision == 1 != before[1]
    finally:
        store.engine.dispose()
        two.engine.dispose()


def test_a_failed_commit_refuses_every_write_of_its_group_and_the_tables_stay_as_they_were(
    url: str,
) -> None:
    store = SqlStore(url)
    made = tables(store)
    before = [t.picture() for t in made[1:]]

    def fail() -> None:
        raise OSError("the disk is full")

    async def run() -> tuple[Any, list[Any], Any]:
        plug, results = await plugged(store, made, Commits(then=fail))
        again = await made[1].act()  # the store goes on after the failed group
        return plug, results, again

    try:
        plug, results, again = asyncio.run(run())
        assert isinstance(plug, Accepted)
        assert all(isinstance(r, RefusedError) and r.code == "not_saved" for r in results), results
        # (the first table after the plug has played since: the picture before its play)
        assert [t.picture() for t in made[2:]] == before[1:]
        for table in made[2:]:
            assert stored_actions(store, table) == []
        assert isinstance(again, Accepted)
        assert len(stored_actions(store, made[1])) == 1
    finally:
        store.engine.dispose()


def test_a_write_that_fails_after_it_wrote_takes_back_its_own_statements_only(url: str) -> None:
    store = SqlStore(url)
    made = tables(store)
    ids = [t.referee.id for t in made[:3]]

    def writes(table_id: str, fails: bool) -> Callable[[Connection], str]:
        def write(connection: Connection) -> str:
            connection.execute(insert(ActionRow).values(table_id=table_id, number=0, payload="x"))
            if fails:
                raise ValueError("refused after writing")
            return table_id

        return write

    commits = Commits()
    event.listen(store.engine, "commit", commits)
    try:
        plug = store.commits.submit(lambda connection: None)
        assert commits.held.wait(60)
        # The three wait for the plug's COMMIT: they are the next group.
        futures = [store.commits.submit(writes(t, i == 1), t) for i, t in enumerate(ids)]
        commits.go.set()
        plug.result()
        assert [f.exception() is None for f in futures] == [True, False, True]
        assert commits.count == 2
        assert [len(stored_actions(store, t)) for t in made[:3]] == [1, 0, 1]
    finally:
        store.engine.dispose()


def synchronous(store: SqlStore) -> int:
    with store.engine.connect() as connection:
        return int(connection.exec_driver_sql("PRAGMA synchronous").scalar_one())


def test_sqlite_commits_reach_the_disk_unless_told_normal(tmp_path: Path) -> None:
    """SQLite's PRAGMA synchronous: 2 (FULL) by default, 1 (NORMAL) when set so."""
    url = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    full, normal = SqlStore(url), SqlStore(url, synchronous="normal")
    try:
        assert (synchronous(full), synchronous(normal)) == (2, 1)
    finally:
        full.engine.dispose()
        normal.engine.dispose()
    with pytest.raises(ValueError, match="synchronous"):
        SqlStore(url, synchronous="OFF")


def test_the_setting_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMENIGHT_DATABASE_URL", "sqlite://")
    assert Settings.from_env().sqlite_synchronous == "FULL"
    monkeypatch.setenv("GAMENIGHT_SQLITE_SYNCHRONOUS", "normal")
    assert Settings.from_env().sqlite_synchronous == "NORMAL"
    monkeypatch.setenv("GAMENIGHT_SQLITE_SYNCHRONOUS", "off")
    with pytest.raises(RulesError, match="GAMENIGHT_SQLITE_SYNCHRONOUS"):
        Settings.from_env()


def test_two_servers_groups_take_the_rows_in_one_order_and_never_deadlock() -> None:
    """On PostgreSQL each write holds its table's row to its group's COMMIT. Two servers'
    groups hold the same two tables, given in opposite orders, each write lingering while it
    holds its row: run as given they would deadlock (PostgreSQL would then abort one);
    in the tables' order, the second group waits for the first and both commit."""
    timing = Timing({"left": [1, 2]}, None)
    with postgres_database("gn_commits_") as url:
        one, two = SqlStore(url, linger=0.5), SqlStore(url, linger=0.5)
        try:
            low, high = sorted(new_table(one) for _ in range(2))

            def slow(store: SqlStore, table_id: str) -> Callable[[Connection], None]:
                def write(connection: Connection) -> None:
                    store.timing_in(connection, table_id, timing)
                    time.sleep(0.3)  # (holding the row)

                return write

            futures = [one.commits.submit(slow(one, t), t) for t in (high, low)]
            futures += [two.commits.submit(slow(two, t), t) for t in (low, high)]
            assert [f.exception(timeout=60) for f in futures] == [None] * 4
        finally:
            one.sync.close()
            two.sync.close()


def new_table(store: SqlStore) -> str:
    return store.sync.create(
        NewTable("centrix", {}, 7, {"first": 0}, [{"name": "A"}, {"name": "B"}])
    ).id


def test_making_a_table_leaves_the_event_loop_free_while_its_group_commits(url: str) -> None:
    """A table is made through the same group commit as every write, awaited: while the
    group holding it waits for its COMMIT, every other table's messages go on (a table made
    by blocking the loop held every server's page for the COMMIT's fsync)."""
    store = SqlStore(url)
    made = tables(store)
    manager = TableManager(store)

    async def run() -> bool:
        commits = Commits()
        event.listen(store.engine, "commit", commits)
        loop = asyncio.get_running_loop()
        # The plug: if making the table blocks the loop, nothing else can release it; a
        # thread lets it go after a while, so that the test fails rather than hangs.
        threading.Timer(3, commits.go.set).start()
        plug = asyncio.create_task(made[0].act())
        await loop.run_in_executor(None, commits.held.wait, 60)
        making = asyncio.create_task(manager.create(TableIn.model_validate(CENTRIX_2)))
        await asyncio.sleep(0.2)
        free = not making.done()  # the loop ran on while the table waited for its COMMIT
        commits.go.set()
        table, _ = await making
        await plug
        assert store.sync.load(table.id) is not None
        return free

    try:
        assert asyncio.run(run())
    finally:
        store.engine.dispose()


def test_a_group_s_answers_reach_an_event_loop_in_one_hand_over(tmp_path: Path) -> None:
    """The writer thread hands a group's answers to each waiting event loop at once: one
    ``call_soon_threadsafe`` (one wake-up of the loop, a system call made with the GIL held
    on its way) for the group, not one a write; the refused write is answered too."""
    store = SqlStore(f"sqlite:///{tmp_path / 'gamenight.sqlite3'}", linger=1.0)
    made = [new_table(store) for _ in range(5)]
    timing = Timing({"left": [1.0, 2.0]}, None)

    async def run() -> tuple[list[Any], list[Any]]:
        loop = asyncio.get_running_loop()
        handed: list[Any] = []
        hand = loop.call_soon_threadsafe

        def counted(callback: Any, *args: Any, **options: Any) -> Any:
            if threading.current_thread().name == "gamenight-commits":
                handed.append(callback)
            return hand(callback, *args, **options)

        loop.call_soon_threadsafe = counted  # type: ignore[method-assign]
        results = await asyncio.gather(
            *(store.write(store.timing_in, table, timing) for table in [*made, "missing"]),
            return_exceptions=True,
        )
        return handed, results

    try:
        store.commits.figures(reset=True)
        handed, results = asyncio.run(run())
        assert results[:-1] == [None] * 5
        assert isinstance(results[-1], KeyError)
        assert store.commits.figures()["groups"] == 1
        assert len(handed) == 1
        assert all(store.sync.load(table).clock == timing.clock for table in made)  # type: ignore[union-attr]
    finally:
        store.sync.close()


def test_a_write_awaited_on_an_event_loop_makes_no_thread_s_future(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write awaited on the loop is answered on the loop's own future alone: a
    ``concurrent.futures.Future`` beside it (a threading.Condition made and locked for every
    write, there only to say whether it was cancelled) was about one object a move."""
    made: list[Future[Any]] = []

    class Counted(Future[Any]):
        def __init__(self) -> None:
            super().__init__()
            made.append(self)

    monkeypatch.setattr(commits, "Future", Counted)
    store = SqlStore(f"sqlite:///{tmp_path / 'gamenight.sqlite3'}")
    tables_ = [new_table(store) for _ in range(3)]
    made.clear()  # (a table is made through ``wait``, whose caller is a thread)
    timing = Timing({"left": [1.0, 2.0]}, None)

    async def run() -> list[None]:
        return await asyncio.gather(*(store.write(store.timing_in, t, timing) for t in tables_))

    try:
        assert asyncio.run(run()) == [None] * 3
        assert made == []
    finally:
        store.sync.close()


def test_the_writer_is_woken_for_a_group_not_for_every_write_that_joins_it(
    tmp_path: Path,
) -> None:
    """While a group lingers for more writes, a write that joins it does not wake the writer
    thread (each wake-up made it take the GIL from the event loop, to wait again): only the
    first write of a group does, or one that fills it."""
    store = SqlStore(f"sqlite:///{tmp_path / 'gamenight.sqlite3'}")
    made = [new_table(store) for _ in range(5)]
    store.commits.linger = 1.0  # (the writes below make one group)
    timing = Timing({"left": [1.0, 2.0]}, None)
    wakes: list[int] = []
    ready = store.commits._ready
    notify = ready.notify

    def counted(n: int = 1) -> None:
        wakes.append(n)
        notify(n)

    ready.notify = counted  # type: ignore[method-assign]

    async def run() -> list[None]:
        return await asyncio.gather(*(store.write(store.timing_in, t, timing) for t in made))

    try:
        store.commits.figures(reset=True)
        assert asyncio.run(run()) == [None] * 5
        assert store.commits.figures()["groups"] == 1
        assert len(wakes) == 1
    finally:
        store.sync.close()


def test_a_write_whose_caller_stopped_waiting_before_its_group_began_is_not_made(
    tmp_path: Path,
) -> None:
    store = SqlStore(f"sqlite:///{tmp_path / 'gamenight.sqlite3'}", linger=1.0)
    dropped, kept = new_table(store), new_table(store)
    timing = Timing({"left": [1.0, 2.0]}, None)

    async def run() -> None:
        waiting = asyncio.create_task(store.write(store.timing_in, dropped, timing))
        await asyncio.sleep(0)  # (it is handed to the writer, whose group lingers)
        waiting.cancel()
        await store.write(store.timing_in, kept, timing)  # (in the same group)
        with pytest.raises(asyncio.CancelledError):
            await waiting

    try:
        store.commits.figures(reset=True)
        asyncio.run(run())
        assert store.commits.figures()["groups"] == 1
        assert store.sync.load(dropped).clock is None  # type: ignore[union-attr]
        assert store.sync.load(kept).clock == timing.clock  # type: ignore[union-attr]
    finally:
        store.sync.close()


def test_the_app_s_shutdown_answers_the_writes_waiting_and_stops_the_writer(
    tmp_path: Path,
) -> None:
    """At shutdown the app closes its store: a write waiting in the group commit is committed
    and answered (not left to the daemon writer thread dying with the process), and the
    writer thread stops; a write after that is refused."""
    before = writers()
    app = create_app(
        Settings(f"sqlite:///{tmp_path / 'gamenight.sqlite3'}", allowed_hosts=TEST_HOSTS)
    )
    store: SqlStore = app.state.manager.store
    table = new_table(store)  # (its write starts the store's writer thread)
    timing = Timing({"left": [1.0, 2.0]}, None)
    store.commits.linger = 3600.0  # the group waits for more writes for longer than the test
    assert len(writers() - before) == 1
    with TestClient(app):
        waiting = store.commits.submit(
            lambda connection: store.timing_in(connection, table, timing)
        )
    assert waiting.done()
    assert waiting.result() is None
    assert store.sync.load(table).clock == timing.clock  # type: ignore[union-attr]
    with pytest.raises(RuntimeError, match="closed"):
        store.commits.submit(lambda connection: None)
    assert writers() <= before


def writers() -> set[threading.Thread]:
    """The writer threads alive (other tests' stores may have theirs)."""
    return {t for t in threading.enumerate() if t.name == "gamenight-commits"}
