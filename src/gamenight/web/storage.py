"""Tables in a relational database (SQLite by default) through SQLAlchemy.

A table is stored as its set-up (game, rules, seed, seats, setup) plus every accepted
action in order. An action is committed before it is acknowledged, so after a restart every
game replays to exactly where it was.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    create_engine,
    event,
    select,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker


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


class ActionRow(Base):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)  # 0, 1, 2 … in order
    payload: Mapped[Any] = mapped_column(JSON)


T = TypeVar("T")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class StoredTable:
    id: str
    game: str
    rules: dict[str, Any]
    seed: int
    setup: dict[str, Any]
    seats: list[dict[str, Any]]  # name, kind ("human" or "bot"), level, token_hash, …
    status: str
    outcome: dict[str, Any] | None
    created: datetime
    updated: datetime
    actions: list[Any] = field(default_factory=list)
    revision: int = 0


class ConflictError(Exception):
    """Another process stored an action with the same number first."""


class Store:
    def __init__(self, url: str) -> None:
        self.engine = create_engine(url, future=True)
        if url.startswith("sqlite"):
            # Several threads (the server's and the bots') share the file; WAL keeps
            # readers from blocking the writer.
            @event.listens_for(self.engine, "connect")
            def _pragmas(connection: Any, _: Any) -> None:
                cursor = connection.cursor()
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA foreign_keys=ON")
                cursor.close()

        Base.metadata.create_all(self.engine)
        self._session = sessionmaker(self.engine, expire_on_commit=False)

    @contextmanager
    def session(self) -> Iterator[Session]:
        with self._session() as session, session.begin():
            yield session

    def create(
        self,
        game: str,
        rules: dict[str, Any],
        seed: int,
        setup: dict[str, Any],
        seats: list[dict[str, Any]],
    ) -> StoredTable:
        now = datetime.now(UTC)
        row = TableRow(
            id=secrets.token_urlsafe(9),
            game=game,
            rules=rules,
            seed=seed,
            setup=setup,
            seats=seats,
            status="playing",
            outcome=None,
            created=now,
            updated=now,
        )
        with self.session() as session:
            session.add(row)
        return self._stored(row, [])

    def append(
        self,
        table_id: str,
        number: int,
        payload: Any,
        status: str,
        outcome: dict[str, Any] | None,
    ) -> None:
        """Store action ``number``; raises ConflictError if that number is taken."""
        try:
            with self.session() as session:
                session.add(ActionRow(table_id=table_id, number=number, payload=payload))
                row = session.get(TableRow, table_id)
                if row is None:
                    raise KeyError(table_id)
                row.status, row.outcome, row.updated = status, outcome, datetime.now(UTC)
        except IntegrityError as exc:
            raise ConflictError(f"action {number} of table {table_id} exists") from exc

    def truncate(self, table_id: str, keep: int, status: str = "playing") -> None:
        """Drop every action from number ``keep`` on (an undo)."""
        with self.session() as session:
            for action in session.scalars(
                select(ActionRow).where(ActionRow.table_id == table_id, ActionRow.number >= keep)
            ):
                session.delete(action)
            row = session.get(TableRow, table_id)
            if row is not None:
                row.status, row.outcome, row.updated = status, None, datetime.now(UTC)

    def change_seats(
        self, table_id: str, change: Callable[[list[dict[str, Any]]], T]
    ) -> tuple[T, list[dict[str, Any]]]:
        """Let ``change`` edit the table's seats in place, in one transaction that holds the
        row where the database can (PostgreSQL: two servers cannot both hand out one invited
        seat; SQLite has no row locks, and serves one server, whose table lock does this).
        Returns what ``change`` returned and the seats as stored; nothing is written when
        nothing changed, and an exception from ``change`` stores nothing."""
        with self.session() as session:
            row = session.get(TableRow, table_id, with_for_update=True)
            if row is None:
                raise KeyError(table_id)
            seats = [dict(seat) for seat in row.seats]
            result = change(seats)
            if seats != row.seats:
                row.seats = seats  # a new list, so the JSON column is written
            return result, seats

    def load(self, table_id: str) -> StoredTable | None:
        with self.session() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            actions = session.scalars(
                select(ActionRow.payload)
                .where(ActionRow.table_id == table_id)
                .order_by(ActionRow.number)
            ).all()
            return self._stored(row, list(actions))

    def recent(self, limit: int = 100) -> list[StoredTable]:
        """The tables most recently played first (without their actions)."""
        with self.session() as session:
            rows = session.scalars(
                select(TableRow).order_by(TableRow.updated.desc()).limit(limit)
            ).all()
            return [self._stored(row, []) for row in rows]

    def playing(self, limit: int) -> list[StoredTable]:
        """Up to ``limit`` tables still in play, the latest played first (without their
        actions): the tables whose bots a server resumes at start-up."""
        with self.session() as session:
            rows = session.scalars(
                select(TableRow)
                .where(TableRow.status == "playing")
                .order_by(TableRow.updated.desc())
                .limit(limit)
            ).all()
            return [self._stored(row, []) for row in rows]

    @staticmethod
    def _stored(row: TableRow, actions: list[Any]) -> StoredTable:
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
            actions=actions,
            revision=len(actions),
        )
