"""What the table server asks of its storage: game-level operations on stored tables.

The table's referee (web.referee) never sees SQL: it asks a ``TableStore`` to load a table, to
append or undo an action, to finish a game, to edit the seats… Every write is durable when
the call returns, and is refused with the table left as it was unless the table is exactly
as the writer read it: its revision (up by one on every append, undo and ending), its action
count, the seat's token, a new message id, and, where the writer names one, the
table's epoch (a fencing token for a table's home: a process whose claim was overtaken can
no longer write; the homes that will claim tables are issue 28's next step, so today no
writer names one). ``SqlStore`` (web.store.sql) keeps tables in SQLite or PostgreSQL,
``MemoryStore`` (web.store.memory) in memory, for tests and a server that keeps nothing;
one contract suite (tests/web/test_store_contract.py) holds both to the same answers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
Seats = list[dict[str, Any]]


@dataclass
class StoredTable:
    id: str
    game: str
    rules: dict[str, Any]
    seed: int
    setup: dict[str, Any]
    seats: Seats  # name, kind ("human" or "bot"), level, token_hash, …
    status: str
    outcome: dict[str, Any] | None
    created: datetime
    updated: datetime
    revision: int = 0
    actions: list[Any] = field(default_factory=list)
    host_hash: str | None = None
    archived: bool = False
    clock: dict[str, Any] | None = None
    deadline: datetime | None = None
    epoch: int = 0  # the latest claim of the table (a home's fencing token): bumped by each


@dataclass(frozen=True)
class NewTable:
    """A table to store: its set-up, and the clock and deadline it starts with."""

    game: str
    rules: dict[str, Any]
    seed: int
    setup: dict[str, Any]
    seats: Seats
    host_hash: str | None = None
    timing: Timing | None = None


@dataclass(frozen=True)
class Timing:
    """What a write stores of the table's clock (web.referee): the clock, and the deadline."""

    clock: dict[str, Any]
    deadline: datetime | None


@dataclass(frozen=True)
class Receipt:
    message_id: str
    kind: str  # "act" or "undo"
    number: int
    revision: int  # the table's revision after it


class ConflictError(Exception):
    """The write was refused because of what another writer did (see the subclasses)."""


class MovedOnError(ConflictError):
    """The table is not at the action count and revision the writer read."""


class SeatLostError(ConflictError):
    """The seat's stored token is not the writer's (its invite was renewed)."""


class LeaseLostError(ConflictError):
    """The writer's lease on the table has lapsed: another process claimed it since."""


class DuplicateError(ConflictError):
    """A message with this id was already applied at the table: ``receipt`` says how."""

    def __init__(self, receipt: Receipt) -> None:
        super().__init__(f"message {receipt.message_id!r} was applied already")
        self.receipt = receipt


class TableStore(Protocol):
    """Tables as the server keeps them. Writes raise KeyError for a table that is not there,
    the ConflictErrors above when refused, ValueError for a malformed message id; a write
    given ``epoch`` is refused (LeaseLostError) unless the table's is still that one."""

    async def create(self, table: NewTable) -> StoredTable:
        """Store a new table (its id is the store's); as stored."""

    async def load(self, table_id: str) -> StoredTable | None:
        """The table and every action, as of one moment (None: no such table)."""

    async def claim(self, table_id: str) -> int:
        """A new home takes the table: its epoch, one more than the last (KeyError: none)."""

    async def append(
        self,
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
        """Store action ``number`` if the table has exactly ``number`` actions and is at
        ``revision``, ``seat``'s token is still ``token_hash`` when one is given and
        ``message_id`` is new here; with the table's status and outcome after it (and its
        clock, ``timing``). The new revision."""

    async def undo(
        self,
        table_id: str,
        *,
        number: int,
        revision: int,
        seat: int | None = None,
        token_hash: str | None = None,
        message_id: str | None = None,
        epoch: int | None = None,
    ) -> int:
        """Take back action ``number``, if it is the latest and the table is at
        ``revision``; the other checks as for ``append``. The new revision."""

    async def finish(
        self,
        table_id: str,
        *,
        revision: int,
        status: str,
        outcome: dict[str, Any],
        timing: Timing | None = None,
        epoch: int | None = None,
    ) -> int:
        """End the game for a reason of the table's (core.endings), if it is in play at
        ``revision`` (MovedOnError otherwise: perhaps it ended meanwhile). The new revision."""

    async def set_timing(self, table_id: str, timing: Timing, *, epoch: int | None = None) -> None:
        """Store the clock and deadline as they are now (no revision: no action changed)."""

    async def edit_seats(
        self, table_id: str, edit: Callable[[Seats], T], *, epoch: int | None = None
    ) -> tuple[T, Seats]:
        """Let ``edit`` change the seats in place where they are current (two processes
        cannot both hand out one invited seat); what it returned and the seats as stored.
        Nothing is written when nothing changed, nor when ``edit`` raises."""

    async def set_rematch(self, table_id: str, rematch: str) -> None:
        """Note in the finished table's set-up the table of its rematch (T10)."""

    async def add_hint(self, table_id: str, hint: dict[str, Any]) -> None:
        """Note in the table's set-up (``hints_used``, in order) a hint given at it (issue 32:
        web.hints; the seat, the actions before it, the level)."""

    async def set_analysis(self, table_id: str, analysis: dict[str, Any]) -> None:
        """Keep the analysis of the table's finished game (web.analysis), computed once."""

    async def analysis(self, table_id: str) -> dict[str, Any] | None:
        """The analysis kept for the table (None: none yet, or no such table)."""

    async def archive(self, table_id: str, archived: bool) -> bool:
        """Archive the table or bring it back (False: no such table)."""

    async def delete(self, table_id: str) -> bool:
        """Delete the table, its actions and receipts (False: no such table)."""

    async def receipt(self, table_id: str, message_id: str) -> Receipt | None:
        """What the message with this id did at the table, if it is still remembered."""

    async def recent(self, limit: int = 100, *, playing: bool = False) -> list[StoredTable]:
        """Up to ``limit`` tables, the latest played first, without their actions
        (``playing``: in play only)."""

    async def some(self, table_ids: list[str]) -> list[StoredTable]:
        """The tables among ``table_ids`` that exist, without their actions, in no order."""

    async def due(self, now: datetime, limit: int = 100) -> list[str]:
        """The tables in play whose deadline has come by ``now``, the most overdue first."""

    async def close(self) -> None:
        """Finish the writes under way (each answered), then let go of every resource."""
