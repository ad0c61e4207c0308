"""Tables in a relational database (SQLite by default, or PostgreSQL) through SQLAlchemy:
the ``SqlStore`` of web.store.protocol.

A table is stored as its set-up (game, rules, seed, seats, setup) plus every accepted
action in order. An action is committed before it is acknowledged, so after a restart every
game replays to exactly where it was.

Several servers may share one database. Every write to a table's actions holds the table's
row to its transaction's end (PostgreSQL: ``SELECT … FOR UPDATE``; SQLite: ``BEGIN
IMMEDIATE``, which holds the whole file) and is refused unless the table is still as the
writer read it: its action count and its revision, which goes up by one on every append
and every undo, and — when the writer gives one — the epoch of its home's lease. So a
writer that missed another's change is told "moved on", and nothing it stores can leave a
hole or take away an action it never saw.

Every write goes through the store's group commit (web.commits): one writer thread runs
the writes waiting in one transaction, each in its own savepoint, and answers each once the
COMMIT has returned. A write is a ``*_in`` method (``append_in``, ``undo_in``, …) run on the
group's Connection, in SQLAlchemy Core statements built once (an act's and an undo's also
compiled once for the dialect and run on the driver's cursor, web.prepared: each µs of
Python in the writer thread is one the event loop waits for the GIL); the protocol's
methods await one, ``SqlStore.sync``'s block for it.

The schema is made and upgraded by the Alembic migrations in ``web/store/migrations`` whenever a
store opens a database, one server at a time.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Connection,
    DateTime,
    Dialect,
    Engine,
    ForeignKey,
    Integer,
    Select,
    String,
    Table,
    UniqueConstraint,
    bindparam,
    create_engine,
    delete,
    event,
    false,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.sql.elements import BindParameter

from gamenight.web.commits import LINGER, Committer
from gamenight.web.prepared import Prepared
from gamenight.web.store.protocol import (
    DuplicateError,
    LeaseLostError,
    MovedOnError,
    NewTable,
    Receipt,
    SeatLostError,
    Seats,
    StoredTable,
    Timing,
)


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="playing")
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revision: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    # The hash of the host's token (None: a table stored before there was one, web.hosts).
    host_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    archived: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The clock as it stood after the latest change, and the next moment the table must act
    # of itself (web.referee: a flag, a stand-in bot, an abandonment); none without a clock.
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    deadline: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    # The latest claim of the table: a write naming an older one is refused.
    epoch: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))


class ActionRow(Base):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)  # 0, 1, 2 … in order
    payload: Mapped[Any] = mapped_column(JSON)


class ReceiptRow(Base):
    """What a client's message did at a table, kept to answer it again when it is resent."""

    __tablename__ = "receipts"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    message_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # "act" or "undo"
    number: Mapped[int] = mapped_column(Integer)  # the action stored or taken back
    revision: Mapped[int] = mapped_column(Integer)  # the table's revision after it


class AnalysisRow(Base):
    """The analysis of a table's finished game (issue 32, web.analysis): computed once."""

    __tablename__ = "analyses"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    body: Mapped[dict[str, Any]] = mapped_column(JSON)


# The tables as SQLAlchemy Core sees them: every write runs Core statements on a Connection
# (no ORM session, no row objects, on the hot path).
TABLES = cast(Table, TableRow.__table__)
ACTIONS = cast(Table, ActionRow.__table__)
RECEIPTS = cast(Table, ReceiptRow.__table__)
ANALYSES = cast(Table, AnalysisRow.__table__)

# The write path's statements, built once: a statement built at each call costs SQLAlchemy
# about five times as much (building it, then its cache key) as running it. ``key`` is the
# table's id (a bound parameter may not take a column's name); the values an UPDATE sets
# come with the parameters of each execution.
KEY: BindParameter[str] = bindparam("key")
# (each holds the table's row: PostgreSQL's SELECT … FOR UPDATE; SQLite holds the file)
HOLD_REVISION = (
    select(TABLES.c.revision, TABLES.c.status, TABLES.c.epoch)
    .where(TABLES.c.id == KEY)
    .with_for_update()
)
HOLD_SEATS = (
    select(TABLES.c.revision, TABLES.c.seats, TABLES.c.epoch)
    .where(TABLES.c.id == KEY)
    .with_for_update()
)
HOLD_SETUP = select(TABLES.c.setup).where(TABLES.c.id == KEY).with_for_update()
HOLD_EPOCH = select(TABLES.c.epoch).where(TABLES.c.id == KEY).with_for_update()
CLAIM = (
    update(TABLES)
    .where(TABLES.c.id == KEY)
    .values(epoch=TABLES.c.epoch + 1)
    .returning(TABLES.c.epoch)
)
MESSAGE: BindParameter[str | None] = bindparam("message")
# What a write checks once it holds the row: the table's action count and last number, and
# whether the message has a receipt here (its revision; RECEIPT reads the whole of it, for
# a resent message alone).
COUNT = select(func.count()).where(ACTIONS.c.table_id == KEY).scalar_subquery()
LAST = select(func.max(ACTIONS.c.number)).where(ACTIONS.c.table_id == KEY).scalar_subquery()
RECEIVED = (
    select(RECEIPTS.c.revision)
    .where(RECEIPTS.c.table_id == KEY, RECEIPTS.c.message_id == MESSAGE)
    .scalar_subquery()
)
STANDING = select(COUNT, LAST, RECEIVED)
RECEIPT = select(RECEIPTS.c.kind, RECEIPTS.c.number, RECEIPTS.c.revision).where(
    RECEIPTS.c.table_id == KEY, RECEIPTS.c.message_id == MESSAGE
)
ADD_TABLE = insert(TABLES)
ADD_ACTION = insert(ACTIONS).inline()  # (inline: no RETURNING of the new id)
ADD_RECEIPT = insert(RECEIPTS).inline()
CHANGE_TABLE = update(TABLES).where(TABLES.c.id == KEY)
# An act's or an undo's first statement: it moves the table on to its next revision and
# returns, with the revision it reached, what the write checks (the seats, COUNT, LAST,
# RECEIVED) — one statement where a SELECT … FOR UPDATE, a SELECT of the checks and an
# UPDATE were three. The UPDATE holds the row as FOR UPDATE did (PostgreSQL: to the group's
# COMMIT; SQLite: BEGIN IMMEDIATE holds the file); a refused write rolls it back with its
# savepoint.
ADVANCE = (
    update(TABLES)
    .where(TABLES.c.id == KEY)
    .values(revision=TABLES.c.revision + 1)
    .returning(TABLES.c.revision, TABLES.c.seats, TABLES.c.epoch, COUNT, LAST, RECEIVED)
)
ADVANCED = ("status", "outcome", "updated")  # the values ADVANCE sets at each run
TIMED = ("clock", "deadline")  # and, with the clock after the write, these
TAKE_BACK = delete(ACTIONS).where(ACTIONS.c.table_id == KEY, ACTIONS.c.number == bindparam("at"))
FORGET = delete(RECEIPTS).where(
    RECEIPTS.c.table_id == KEY, RECEIPTS.c.revision <= bindparam("before")
)


@dataclass(frozen=True)
class WritePath:
    """The statements of every act and undo, compiled for one dialect and run on the
    driver's cursor (web.prepared: about a tenth of ``Connection.execute``'s CPU)."""

    advance: Prepared
    advance_timed: Prepared
    standing: Prepared
    add_action: Prepared
    take_back: Prepared
    add_receipt: Prepared
    forget: Prepared

    @classmethod
    def of(cls, dialect: Dialect) -> WritePath:
        return cls(
            advance=Prepared.of(ADVANCE, dialect, ADVANCED),
            advance_timed=Prepared.of(ADVANCE, dialect, ADVANCED + TIMED),
            standing=Prepared.of(STANDING, dialect),
            add_action=Prepared.of(ADD_ACTION, dialect, ("table_id", "number", "payload")),
            take_back=Prepared.of(TAKE_BACK, dialect),
            add_receipt=Prepared.of(
                ADD_RECEIPT, dialect, ("table_id", "message_id", "kind", "number", "revision")
            ),
            forget=Prepared.of(FORGET, dialect),
        )


T = TypeVar("T")

MIGRATIONS = Path(__file__).with_name("migrations")
# Any fixed number, the same for every server: PostgreSQL's advisory locks are named by one.
MIGRATION_LOCK = 0x67616D656E69
MESSAGE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
FORGET_EVERY = 20  # revisions between two forgettings of a table's old receipts


def upgrade(engine: Engine, target: str = "head") -> None:
    """Bring the database's schema to ``target``, one server at a time. A database made
    before there were migrations (its tables there, no ``alembic_version``) is taken to be
    at revision 0001, which is that schema."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    # One transaction for the check and every step: the first server to start migrates, and
    # the others, waiting on the lock, then find the schema at head.
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(select(func.pg_advisory_xact_lock(MIGRATION_LOCK)))
        config.attributes["connection"] = connection
        names = set(inspect(connection).get_table_names())
        if "tables" in names and "alembic_version" not in names:
            command.stamp(config, "0001")
        command.upgrade(config, target)


SYNCHRONOUS = ("FULL", "NORMAL")  # SQLite's PRAGMA synchronous a store may be given
P = ParamSpec("P")


class SqlStore:
    """The tables in SQLite or PostgreSQL (a ``TableStore``). ``synchronous`` (SQLite only):
    FULL (the default, durable after a power cut) or NORMAL (docs/reliability.md);
    ``linger``: how long a group of writes waits for more (web.commits). ``sync`` has the
    same operations, blocking (for tools and tests, off any event loop)."""

    def __init__(
        self,
        url: str,
        receipts_kept: int = 200,
        *,
        synchronous: str = "FULL",
        linger: float = LINGER,
    ) -> None:
        if synchronous.upper() not in SYNCHRONOUS:
            raise ValueError(f"synchronous is one of {', '.join(SYNCHRONOUS)}, not {synchronous!r}")
        self.engine = create_engine(url)
        self.receipts_kept = receipts_kept
        self._path = WritePath.of(self.engine.dialect)
        reader = self.engine
        writer = self.engine.execution_options(gamenight_write=True)
        if self.engine.dialect.name == "sqlite":
            _serialise_sqlite_writes(self.engine, synchronous.upper())
        elif self.engine.dialect.name == "postgresql":
            # A load reads the row and then the actions: one snapshot for both, so that a
            # table is never read as a revision with another revision's actions.
            reader = self.engine.execution_options(isolation_level="REPEATABLE READ")
        upgrade(writer)
        self._read = sessionmaker(reader, expire_on_commit=False)
        self._write = sessionmaker(writer, expire_on_commit=False)
        self._reader = reader
        # Every write of the store goes through one writer thread, in groups (web.commits).
        self.commits = Committer(writer, linger=linger)
        self.sync = SqlBlocking(self)

    async def close(self) -> None:
        """Commit the writes waiting, stop the writer thread and close the connections
        (off the loop, which delivers the answers)."""
        await asyncio.to_thread(self.sync.close)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A transaction that only reads: one snapshot of the database."""
        with self._read() as session, session.begin():
            yield session

    @contextmanager
    def writing(self) -> Iterator[Session]:
        """A transaction that writes on its own, outside the group commit (on SQLite: it
        holds the database from its start)."""
        with self._write() as session, session.begin():
            yield session

    async def write(
        self,
        op: Callable[Concatenate[Connection, str, P], T],
        table_id: str,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """``op(connection, table_id, …)`` (one of the ``*_in`` methods) made in the next
        group commit: what it returned once committed (or what it raised). The event loop
        goes on while the group commits."""
        return await self.commits.write(_bound(op, table_id, args, kwargs), table_id)

    # ---------------------------------------------------------------- the protocol

    async def create(self, table: NewTable) -> StoredTable:
        stored, made = self._new(table)
        await self.commits.write(made, stored.id)
        return stored

    async def load(self, table_id: str) -> StoredTable | None:
        return await asyncio.to_thread(self.sync.load, table_id)

    async def claim(self, table_id: str) -> int:
        return await self.write(self.claim_in, table_id)

    async def append(self, table_id: str, **write: Any) -> int:
        return await self.write(self.append_in, table_id, **write)

    async def undo(self, table_id: str, **write: Any) -> int:
        return await self.write(self.undo_in, table_id, **write)

    async def finish(self, table_id: str, **write: Any) -> int:
        return await self.write(self.finish_in, table_id, **write)

    async def set_timing(self, table_id: str, timing: Timing, *, epoch: int | None = None) -> None:
        await self.write(self.timing_in, table_id, timing, epoch=epoch)

    async def edit_seats(
        self, table_id: str, edit: Callable[[Seats], T], *, epoch: int | None = None
    ) -> tuple[T, Seats]:
        return await self.write(self.seats_in, table_id, edit, epoch=epoch)

    async def set_rematch(self, table_id: str, rematch: str) -> None:
        await self.write(self.rematch_in, table_id, rematch)

    async def add_hint(self, table_id: str, hint: dict[str, Any]) -> None:
        await self.write(self.hint_in, table_id, hint)

    async def set_analysis(self, table_id: str, analysis: dict[str, Any]) -> None:
        await self.write(self.analysis_in, table_id, analysis)

    async def analysis(self, table_id: str) -> dict[str, Any] | None:
        return await asyncio.to_thread(self.sync.analysis, table_id)

    async def archive(self, table_id: str, archived: bool) -> bool:
        return await self.write(self.archive_in, table_id, archived)

    async def delete(self, table_id: str) -> bool:
        return await self.write(_delete, table_id)

    async def receipt(self, table_id: str, message_id: str) -> Receipt | None:
        return await asyncio.to_thread(self.sync.receipt, table_id, message_id)

    async def recent(self, limit: int = 100, *, playing: bool = False) -> list[StoredTable]:
        return await asyncio.to_thread(self.sync.recent, limit, playing=playing)

    async def some(self, table_ids: list[str]) -> list[StoredTable]:
        return await asyncio.to_thread(self.sync.some, table_ids)

    async def due(self, now: datetime, limit: int = 100) -> list[str]:
        return await asyncio.to_thread(self.sync.due, now, limit)

    # ---------------------------------------------------------------- the writes

    @staticmethod
    def _new(table: NewTable) -> tuple[StoredTable, Callable[[Connection], None]]:
        """A new table as stored, and the write that stores it."""
        now = datetime.now(UTC)
        timing = table.timing
        stored = StoredTable(
            id=secrets.token_urlsafe(9),
            game=table.game,
            rules=table.rules,
            seed=table.seed,
            setup=table.setup,
            seats=table.seats,
            status="playing",
            outcome=None,
            created=now,
            updated=now,
            revision=0,
            host_hash=table.host_hash,
            archived=False,
            clock=None if timing is None else timing.clock,
            deadline=None if timing is None else timing.deadline,
        )
        row = {
            "id": stored.id,
            "game": table.game,
            "rules": table.rules,
            "seed": table.seed,
            "setup": table.setup,
            "seats": table.seats,
            "status": stored.status,
            "outcome": None,
            "created": now,
            "updated": now,
            "revision": 0,
            "host_hash": table.host_hash,
            "archived": False,
            "clock": stored.clock,
            "deadline": stored.deadline,
            "epoch": 0,
        }

        def made(connection: Connection) -> None:
            connection.execute(ADD_TABLE, row)

        return stored, made

    def claim_in(self, connection: Connection, table_id: str) -> int:
        """``claim``'s write, in ``connection``'s transaction."""
        epoch = connection.execute(CLAIM, {"key": table_id}).scalar_one_or_none()
        if epoch is None:
            raise KeyError(table_id)
        return int(epoch)

    def append_in(
        self,
        connection: Connection,
        table_id: str,
        *,
        number: int,
        revision: int,
        payload: Any,
        status: str,
        outcome: dict[str, Any] | None,
        seat: int | None = None,
        token_hash: str | None = None,
        message_id: str | None = None,
        timing: Timing | None = None,
        epoch: int | None = None,
    ) -> int:
        """``append``'s write, in ``connection``'s transaction."""
        with _cursor(connection) as cursor:
            new = self._advance(
                connection,
                cursor,
                table_id,
                number,
                revision,
                status,
                outcome,
                seat,
                token_hash,
                message_id,
                timing,
                epoch,
            )
            self._path.add_action.run(
                cursor, {"table_id": table_id, "number": number, "payload": payload}
            )
            self._receipted(cursor, table_id, new, number, "act", message_id)
        return new

    def undo_in(
        self,
        connection: Connection,
        table_id: str,
        *,
        number: int,
        revision: int,
        seat: int | None = None,
        token_hash: str | None = None,
        message_id: str | None = None,
        epoch: int | None = None,
    ) -> int:
        """``undo``'s write, in ``connection``'s transaction."""
        with _cursor(connection) as cursor:
            new = self._advance(
                connection,
                cursor,
                table_id,
                number + 1,
                revision,
                "playing",
                None,
                seat,
                token_hash,
                message_id,
                None,
                epoch,
            )
            self._path.take_back.run(cursor, {"key": table_id, "at": number})
            self._receipted(cursor, table_id, new, number, "undo", message_id)
        return new

    def finish_in(
        self,
        connection: Connection,
        table_id: str,
        *,
        revision: int,
        status: str,
        outcome: dict[str, Any],
        timing: Timing | None = None,
        epoch: int | None = None,
    ) -> int:
        """``finish``'s write, in ``connection``'s transaction."""
        row = _hold(connection, HOLD_REVISION, table_id)
        _fenced(table_id, row.epoch, epoch)
        if row.revision != revision or row.status != "playing":
            raise MovedOnError(
                f"table {table_id} is at revision {row.revision} ({row.status}),"
                f" not in play at revision {revision}"
            )
        new = revision + 1
        values = {
            "key": table_id,
            "revision": new,
            "status": status,
            "outcome": outcome,
            "updated": datetime.now(UTC),
            "deadline": None,
        }
        connection.execute(
            CHANGE_TABLE, values if timing is None else {**values, "clock": timing.clock}
        )
        return new

    def timing_in(
        self, connection: Connection, table_id: str, timing: Timing, *, epoch: int | None = None
    ) -> None:
        """``set_timing``'s write, in ``connection``'s transaction (without an epoch the
        UPDATE holds the row: nothing is read before it)."""
        if epoch is not None:
            _fenced(table_id, _hold(connection, HOLD_EPOCH, table_id).epoch, epoch)
        done = connection.execute(
            CHANGE_TABLE, {"key": table_id, "clock": timing.clock, "deadline": timing.deadline}
        )
        if not done.rowcount:
            raise KeyError(table_id)

    def rematch_in(self, connection: Connection, table_id: str, rematch: str) -> None:
        """``set_rematch``'s write, in ``connection``'s transaction."""
        setup = _hold(connection, HOLD_SETUP, table_id).setup
        connection.execute(CHANGE_TABLE, {"key": table_id, "setup": {**setup, "rematch": rematch}})

    def hint_in(self, connection: Connection, table_id: str, hint: dict[str, Any]) -> None:
        """``add_hint``'s write, in ``connection``'s transaction."""
        setup = _hold(connection, HOLD_SETUP, table_id).setup
        hints = [*setup.get("hints_used", []), hint]
        connection.execute(CHANGE_TABLE, {"key": table_id, "setup": {**setup, "hints_used": hints}})

    def analysis_in(self, connection: Connection, table_id: str, analysis: dict[str, Any]) -> None:
        """``set_analysis``'s write, in ``connection``'s transaction (the latest kept)."""
        _hold(connection, HOLD_SETUP, table_id)
        connection.execute(delete(ANALYSES).where(ANALYSES.c.table_id == table_id))
        connection.execute(insert(ANALYSES).values(table_id=table_id, body=analysis))

    def archive_in(self, connection: Connection, table_id: str, archived: bool) -> bool:
        """``archive``'s write, in ``connection``'s transaction."""
        done = connection.execute(CHANGE_TABLE, {"key": table_id, "archived": archived})
        return bool(done.rowcount)

    def seats_in(
        self,
        connection: Connection,
        table_id: str,
        change: Callable[[Seats], T],
        *,
        epoch: int | None = None,
    ) -> tuple[T, Seats]:
        """``edit_seats``'s write, in ``connection``'s transaction."""
        row = _hold(connection, HOLD_SEATS, table_id)
        _fenced(table_id, row.epoch, epoch)
        seats = [dict(seat) for seat in row.seats]
        result = change(seats)
        if seats != row.seats:
            connection.execute(CHANGE_TABLE, {"key": table_id, "seats": seats})
        return result, seats

    def _advance(
        self,
        connection: Connection,
        cursor: Any,
        table_id: str,
        count: int,
        revision: int,
        status: str,
        outcome: dict[str, Any] | None,
        seat: int | None,
        token_hash: str | None,
        message_id: str | None,
        timing: Timing | None,
        epoch: int | None,
    ) -> int:
        """Move the table on to its next revision (with the clock after the write, if
        given), holding its row, and refuse the write (see ``append``) unless the message is
        new here, the table had ``count`` actions (numbered 0 to count - 1) and was at
        ``revision``, the seat's token is ``token_hash`` (when one is given) and the table's
        epoch is ``epoch`` (when given). The new revision. (A refusal raises: the write's
        savepoint takes the UPDATE back.)"""
        if message_id is not None and not MESSAGE_ID.fullmatch(message_id):
            raise ValueError(
                f"a message id is 1–64 letters, digits, '_' or '-', not {message_id[:80]!r}"
            )
        values = {
            "key": table_id,
            "message": message_id,
            "status": status,
            "outcome": outcome,
            "updated": datetime.now(UTC),
        }
        if timing is None:
            row = self._path.advance.one(cursor, values)
        else:
            values |= {"clock": timing.clock, "deadline": timing.deadline}
            row = self._path.advance_timed.one(cursor, values)
        if row is None:
            raise KeyError(table_id)
        new, seats, held_epoch, stored, last, receipt = row
        _fenced(table_id, held_epoch, epoch)
        if receipt is not None or not _standing(new - 1, stored, last, revision, count):
            # Read the checks again before refusing, now that the row is held: on PostgreSQL
            # the UPDATE's subqueries read the snapshot of its start, and it may have waited
            # for the row meanwhile (a resent message made on another server is then told
            # it was, not that the table moved on).
            stored, last, receipt = self._path.standing.one(
                cursor, {"key": table_id, "message": message_id}
            ) or (0, None, None)
            if message_id is not None and receipt is not None:
                done = _receipt(connection, table_id, message_id)
                if done is not None:
                    raise DuplicateError(done)
            # The last number as well as the count: a table stored with a hole (by older
            # code) takes no more actions rather than more holes.
            if not _standing(new - 1, stored, last, revision, count):
                raise MovedOnError(
                    f"table {table_id} is at revision {new - 1} with {stored} actions,"
                    f" not at revision {revision} with {count}"
                )
        if token_hash is not None:
            if seat is None or not 0 <= seat < len(seats):
                raise ValueError(
                    f"a token is checked against a seat of table {table_id}, not {seat}"
                )
            if seats[seat].get("token_hash") != token_hash:
                raise SeatLostError(f"seat {seat} of table {table_id} is held by another token")
        return int(new)

    def _receipted(
        self,
        cursor: Any,
        table_id: str,
        revision: int,
        number: int,
        kind: str,
        message_id: str | None,
    ) -> None:
        """Store the message's receipt (if it has an id) and, every FORGET_EVERY revisions,
        forget the table's receipts older than its latest ``receipts_kept`` revisions."""
        if message_id is not None:
            self._path.add_receipt.run(
                cursor,
                {
                    "table_id": table_id,
                    "message_id": message_id,
                    "kind": kind,
                    "number": number,
                    "revision": revision,
                },
            )
        # A page resends only what it sent just now: the table's latest receipts do. Once
        # every FORGET_EVERY revisions rather than at each (one statement fewer a write):
        # a table keeps fewer than receipts_kept + FORGET_EVERY receipts.
        if revision > self.receipts_kept and revision % FORGET_EVERY == 0:
            self._path.forget.run(
                cursor, {"key": table_id, "before": revision - self.receipts_kept}
            )

    @staticmethod
    def stored(row: TableRow, actions: list[Any]) -> StoredTable:
        return StoredTable(
            id=row.id,
            game=row.game,
            rules=row.rules,
            seed=int(row.seed),
            setup=row.setup,
            seats=row.seats,
            status=row.status,
            outcome=row.outcome,
            created=row.created,
            updated=row.updated,
            revision=row.revision,
            actions=actions,
            host_hash=row.host_hash,
            archived=bool(row.archived),
            clock=row.clock,
            deadline=_aware(row.deadline),
            epoch=row.epoch,
        )


class SqlBlocking:
    """A SqlStore's operations, each blocking its thread until it is done (a write: until
    the group commit that holds it has committed)."""

    def __init__(self, store: SqlStore) -> None:
        self.store = store

    def run(
        self,
        op: Callable[Concatenate[Connection, str, P], T],
        table_id: str,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        return self.store.commits.run(_bound(op, table_id, args, kwargs), table_id)

    def close(self) -> None:
        """Commit the writes waiting, stop the writer thread and close the connections."""
        self.store.commits.close()
        self.store.engine.dispose()

    def create(self, table: NewTable) -> StoredTable:
        stored, made = self.store._new(table)
        self.store.commits.run(made, stored.id)
        return stored

    def claim(self, table_id: str) -> int:
        return self.run(self.store.claim_in, table_id)

    def append(self, table_id: str, **write: Any) -> int:
        return self.run(self.store.append_in, table_id, **write)

    def undo(self, table_id: str, **write: Any) -> int:
        return self.run(self.store.undo_in, table_id, **write)

    def finish(self, table_id: str, **write: Any) -> int:
        return self.run(self.store.finish_in, table_id, **write)

    def set_timing(self, table_id: str, timing: Timing, *, epoch: int | None = None) -> None:
        self.run(self.store.timing_in, table_id, timing, epoch=epoch)

    def edit_seats(
        self, table_id: str, edit: Callable[[Seats], T], *, epoch: int | None = None
    ) -> tuple[T, Seats]:
        return self.run(self.store.seats_in, table_id, edit, epoch=epoch)

    def set_rematch(self, table_id: str, rematch: str) -> None:
        self.run(self.store.rematch_in, table_id, rematch)

    def archive(self, table_id: str, archived: bool) -> bool:
        return self.run(self.store.archive_in, table_id, archived)

    def add_hint(self, table_id: str, hint: dict[str, Any]) -> None:
        self.run(self.store.hint_in, table_id, hint)

    def set_analysis(self, table_id: str, analysis: dict[str, Any]) -> None:
        self.run(self.store.analysis_in, table_id, analysis)

    def analysis(self, table_id: str) -> dict[str, Any] | None:
        with self.store.session() as session:
            row = session.get(AnalysisRow, table_id)
            return None if row is None else dict(row.body)

    def delete(self, table_id: str) -> bool:
        return self.run(_delete, table_id)

    def load(self, table_id: str) -> StoredTable | None:
        with self.store.session() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            actions = session.scalars(
                select(ActionRow.payload)
                .where(ActionRow.table_id == table_id)
                .order_by(ActionRow.number)
            ).all()
            return self.store.stored(row, list(actions))

    def receipt(self, table_id: str, message_id: str) -> Receipt | None:
        with self.store._reader.connect() as connection:
            return _receipt(connection, table_id, message_id)

    def recent(self, limit: int = 100, *, playing: bool = False) -> list[StoredTable]:
        query = select(TableRow).order_by(TableRow.updated.desc()).limit(limit)
        if playing:
            query = query.where(TableRow.status == "playing")
        with self.store.session() as session:
            return [self.store.stored(row, []) for row in session.scalars(query).all()]

    def some(self, table_ids: list[str]) -> list[StoredTable]:
        if not table_ids:
            return []
        query = select(TableRow).where(TableRow.id.in_(table_ids))
        with self.store.session() as session:
            return [self.store.stored(row, []) for row in session.scalars(query).all()]

    def due(self, now: datetime, limit: int = 100) -> list[str]:
        query = (
            select(TableRow.id)
            .where(TableRow.status == "playing", TableRow.deadline <= now)
            .order_by(TableRow.deadline)
            .limit(limit)
        )
        with self.store.session() as session:
            return list(session.scalars(query).all())


def _fenced(table_id: str, held: int, epoch: int | None) -> None:
    """Refuse a write made under ``epoch`` when the table's is ``held`` (another home
    claimed it since)."""
    if epoch is not None and held != epoch:
        raise LeaseLostError(f"table {table_id} was claimed at epoch {held}, not {epoch}")


def _bound(
    write: Callable[..., T], table_id: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> Callable[[Connection], T]:
    """``write`` as the committer calls it: on a connection alone."""

    def bound(connection: Connection) -> T:
        return write(connection, table_id, *args, **kwargs)

    return bound


@contextmanager
def _cursor(connection: Connection) -> Iterator[Any]:
    """A cursor of the driver's, on ``connection``'s transaction (web.prepared)."""
    cursor = connection.connection.cursor()
    try:
        yield cursor
    finally:
        cursor.close()


def _standing(at: int, stored: int, last: int | None, revision: int, count: int) -> bool:
    """Whether a table at revision ``at`` with ``stored`` actions, the last numbered
    ``last``, is as a writer expecting ``revision`` and ``count`` actions read it."""
    return at == revision and stored == count and (last if stored else -1) == count - 1


def _hold(connection: Connection, query: Select[Any], table_id: str) -> Any:
    """The table's row as ``query`` (one of the HOLD_* statements) reads it, held to the
    transaction's end (KeyError: no such table)."""
    row = connection.execute(query, {"key": table_id}).one_or_none()
    if row is None:
        raise KeyError(table_id)
    return row


def _receipt(connection: Connection, table_id: str, message_id: str) -> Receipt | None:
    row = connection.execute(RECEIPT, {"key": table_id, "message": message_id}).one_or_none()
    if row is None:
        return None
    return Receipt(message_id, row.kind, row.number, row.revision)


def _delete(connection: Connection, table_id: str) -> bool:
    for rows in (RECEIPTS, ACTIONS, ANALYSES):
        connection.execute(delete(rows).where(rows.c.table_id == table_id))
    done = connection.execute(delete(TABLES).where(TABLES.c.id == KEY), {"key": table_id})
    return bool(done.rowcount)


def _aware(moment: datetime | None) -> datetime | None:
    # SQLite hands back the naive UTC time it stored.
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


WAL_PATIENCE = 5.0  # seconds; pysqlite's own busy timeout


def _into_wal(cursor: Any) -> None:
    """Switch the file to WAL. While another connection writes to a file still in the old
    journal mode (servers started together on a new file), SQLite refuses the switch at
    once, without its busy wait, so the wait is here."""
    deadline = time.monotonic() + WAL_PATIENCE
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            # (or an extended BUSY_*; an error made in Python has no code)
            if getattr(error, "sqlite_errorcode", 0) & 0xFF != sqlite3.SQLITE_BUSY:
                raise
            if time.monotonic() > deadline:
                raise sqlite3.OperationalError(
                    f"the database stayed locked for {WAL_PATIENCE:g} s: could not switch it to WAL"
                ) from error
        time.sleep(0.01)


def _serialise_sqlite_writes(engine: Engine, synchronous: str) -> None:
    """SQLAlchemy's recipe for pysqlite (its SQLite dialect documentation, "Serializable
    isolation / Savepoints / Transactional DDL"): pysqlite's own BEGIN is turned off, and
    each transaction emits its own; a writing one ``BEGIN IMMEDIATE``, so that it holds the
    database from its first read to its commit (a deferred one would read, then fail to
    write when another writer came first, instead of waiting its turn)."""

    @event.listens_for(engine, "connect")
    def connect(connection: Any, _: Any) -> None:
        connection.isolation_level = None
        cursor = connection.cursor()
        # Several threads (the server's and the bots') share the file; WAL keeps readers
        # from blocking the writer.
        _into_wal(cursor)
        # FULL: a commit is on the disk when it returns; NORMAL: in WAL mode the last
        # commits may be lost to a power cut or an OS crash (docs/reliability.md).
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def begin(connection: Any) -> None:
        writes = connection.get_execution_options().get("gamenight_write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")
