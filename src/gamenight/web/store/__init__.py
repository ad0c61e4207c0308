"""Where the table server keeps its tables: the protocol (web.store.protocol), the SQL
store (SQLite or PostgreSQL: web.store.sql) and the in-memory one (web.store.memory)."""

from __future__ import annotations

from gamenight.web.store.memory import MemoryStore
from gamenight.web.store.protocol import (
    ConflictError,
    DuplicateError,
    LeaseLostError,
    MovedOnError,
    NewTable,
    Receipt,
    SeatLostError,
    StoredTable,
    TableStore,
    Timing,
)

MEMORY = "memory://"  # the database URL of a store that keeps nothing


def open_store(url: str, *, synchronous: str = "FULL") -> TableStore:
    """The store at ``url``: ``memory://`` in memory, else a database's SQLAlchemy URL."""
    if url == MEMORY:
        return MemoryStore()
    from gamenight.web.store.sql import SqlStore

    return SqlStore(url, synchronous=synchronous)


__all__ = [
    "MEMORY",
    "ConflictError",
    "DuplicateError",
    "LeaseLostError",
    "MemoryStore",
    "MovedOnError",
    "NewTable",
    "Receipt",
    "SeatLostError",
    "StoredTable",
    "TableStore",
    "Timing",
    "open_store",
]
