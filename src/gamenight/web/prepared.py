"""Core statements compiled once for a dialect and run on the driver's own cursor.

The store's writer thread runs every write of a server, and it shares the GIL with the event
loop: each µs of Python it spends is a µs the loop waits. ``Connection.execute`` costs about
50 µs a statement of SQLAlchemy's own work (its events, the compiled cache's look-up, the
execution context, the result object) against a few µs for the driver's ``execute``. A
``Prepared`` statement does only what SQLAlchemy would do to the values — the column types'
own bind and result processors (JSON to text and back, SQLite's datetimes), taken from the
dialect once — so what it stores and reads is exactly what ``Connection.execute`` would.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Dialect
from sqlalchemy.sql.dml import UpdateBase
from sqlalchemy.sql.selectable import Select

Processor = Callable[[Any], Any] | None


@dataclass(frozen=True)
class Prepared:
    """``statement`` as ``dialect`` renders it (``keys``: the columns an INSERT or UPDATE
    gives values of, at each run, by their names)."""

    sql: str
    # The parameters by name, in the SQL's order when the driver's paramstyle is positional
    # (SQLite's qmark: a name used twice is sent twice), each with its type's processor.
    names: tuple[tuple[str, Processor], ...]
    positional: bool
    defaults: Mapping[str, Any]  # the values the statement holds itself (``revision + 1``)
    results: tuple[Processor, ...]  # for each column the statement returns

    @classmethod
    def of(
        cls,
        statement: Select[Any] | UpdateBase,
        dialect: Dialect,
        keys: Sequence[str] | None = None,
    ) -> Prepared:
        compiled = statement.compile(dialect=dialect, column_keys=list(keys or ()))
        binds = compiled.binds
        if compiled.positional:
            order: list[str] = list(compiled.positiontup or ())
        else:
            order = sorted(set(compiled.bind_names.values()))
        names = tuple(
            (name, binds[name].type.dialect_impl(dialect).bind_processor(dialect)) for name in order
        )
        defaults = {
            name: bind.effective_value
            for name, bind in binds.items()
            if name in order and not bind.required and bind.effective_value is not None
        }
        # (a SELECT's columns, or the RETURNING's: none for a statement that returns no rows)
        returned = statement.exported_columns
        results = tuple(
            column.type.dialect_impl(dialect).result_processor(dialect, None) for column in returned
        )
        return cls(compiled.string, names, compiled.positional, defaults, results)

    def run(self, cursor: Any, params: Mapping[str, Any]) -> int:
        """Execute on the DBAPI ``cursor``; the rows it changed."""
        cursor.execute(self.sql, self._values(params))
        return int(cursor.rowcount)

    def all(self, cursor: Any, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """Execute and fetch every row it returns (to the statement's end: SQLite keeps
        no statement of the cursor's in progress, which would stop a RELEASE SAVEPOINT)."""
        cursor.execute(self.sql, self._values(params))
        rows = cursor.fetchall()
        if not any(self.results):
            return [tuple(row) for row in rows]
        return [
            tuple(
                value if p is None else p(value) for p, value in zip(self.results, row, strict=True)
            )
            for row in rows
        ]

    def one(self, cursor: Any, params: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """The one row it returns, or None."""
        rows = self.all(cursor, params)
        return rows[0] if rows else None

    def _values(self, params: Mapping[str, Any]) -> Sequence[Any] | dict[str, Any]:
        given = {**self.defaults, **params}
        values = [given[name] if p is None else p(given[name]) for name, p in self.names]
        if self.positional:
            return values
        return {name: value for (name, _), value in zip(self.names, values, strict=True)}
