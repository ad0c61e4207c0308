"""Tables in memory: the store of the web tests, and of a server that keeps nothing
(``GAMENIGHT_DATABASE_URL=memory://``). It answers every operation as the SQL store does
(the contract suite holds both to it), at once: a write is "durable" as soon as it is made,
and lost with the process."""

from __future__ import annotations

import copy
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, TypeVar

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

T = TypeVar("T")
MESSAGE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass
class _Kept:
    table: StoredTable  # its actions included
    receipts: dict[str, Receipt] = field(default_factory=dict)
    analysis: dict[str, Any] | None = None  # the finished game's, once computed


class MemoryStore:
    """``receipts_kept``: the latest revisions whose receipts a table keeps (as SqlStore)."""

    def __init__(self, receipts_kept: int = 200) -> None:
        self.receipts_kept = receipts_kept
        self._tables: dict[str, _Kept] = {}

    # ---------------------------------------------------------------- reading

    async def load(self, table_id: str) -> StoredTable | None:
        kept = self._tables.get(table_id)
        return None if kept is None else copy.deepcopy(kept.table)

    async def receipt(self, table_id: str, message_id: str) -> Receipt | None:
        kept = self._tables.get(table_id)
        return None if kept is None else kept.receipts.get(message_id)

    async def recent(self, limit: int = 100, *, playing: bool = False) -> list[StoredTable]:
        tables = [k.table for k in self._tables.values()]
        if playing:
            tables = [t for t in tables if t.status == "playing"]
        tables.sort(key=lambda t: t.updated, reverse=True)
        return [_bare(t) for t in tables[:limit]]

    async def some(self, table_ids: list[str]) -> list[StoredTable]:
        return [_bare(self._tables[i].table) for i in dict.fromkeys(table_ids) if i in self._tables]

    async def due(self, now: datetime, limit: int = 100) -> list[str]:
        due = [
            k.table
            for k in self._tables.values()
            if k.table.status == "playing"
            and k.table.deadline is not None
            and k.table.deadline <= now
        ]
        due.sort(key=lambda t: t.deadline or now)
        return [t.id for t in due[:limit]]

    # ---------------------------------------------------------------- writing

    async def create(self, table: NewTable) -> StoredTable:
        now = datetime.now(UTC)
        stored = StoredTable(
            id=secrets.token_urlsafe(9),
            game=table.game,
            rules=copy.deepcopy(table.rules),
            seed=table.seed,
            setup=copy.deepcopy(table.setup),
            seats=copy.deepcopy(table.seats),
            status="playing",
            outcome=None,
            created=now,
            updated=now,
            host_hash=table.host_hash,
            clock=None if table.timing is None else copy.deepcopy(table.timing.clock),
            deadline=None if table.timing is None else table.timing.deadline,
        )
        self._tables[stored.id] = _Kept(stored)
        return copy.deepcopy(stored)

    async def claim(self, table_id: str) -> int:
        table = self._get(table_id).table
        table.epoch += 1
        return table.epoch

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
        kept = self._checked(table_id, number, revision, seat, token_hash, message_id, epoch)
        table = kept.table
        table.actions.append(copy.deepcopy(payload))
        self._advance(kept, status, copy.deepcopy(outcome), timing)
        return self._receipted(kept, message_id, "act", number)

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
        kept = self._checked(table_id, number + 1, revision, seat, token_hash, message_id, epoch)
        kept.table.actions.pop()
        self._advance(kept, "playing", None, None)
        return self._receipted(kept, message_id, "undo", number)

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
        kept = self._get(table_id, epoch)
        table = kept.table
        if table.revision != revision or table.status != "playing":
            raise MovedOnError(
                f"table {table_id} is at revision {table.revision} ({table.status}),"
                f" not in play at revision {revision}"
            )
        self._advance(kept, status, copy.deepcopy(outcome), timing)
        table.deadline = None
        return table.revision

    async def set_timing(self, table_id: str, timing: Timing, *, epoch: int | None = None) -> None:
        table = self._get(table_id, epoch).table
        table.clock, table.deadline = copy.deepcopy(timing.clock), timing.deadline

    async def edit_seats(
        self, table_id: str, edit: Callable[[Seats], T], *, epoch: int | None = None
    ) -> tuple[T, Seats]:
        table = self._get(table_id, epoch).table
        seats = copy.deepcopy(table.seats)
        result = edit(seats)
        table.seats = copy.deepcopy(seats)
        return result, seats

    async def set_rematch(self, table_id: str, rematch: str) -> None:
        table = self._get(table_id).table
        table.setup = {**table.setup, "rematch": rematch}

    async def add_hint(self, table_id: str, hint: dict[str, Any]) -> None:
        table = self._get(table_id).table
        table.setup = {**table.setup, "hints_used": [*table.setup.get("hints_used", []), hint]}

    async def set_analysis(self, table_id: str, analysis: dict[str, Any]) -> None:
        self._get(table_id).analysis = copy.deepcopy(analysis)

    async def analysis(self, table_id: str) -> dict[str, Any] | None:
        kept = self._tables.get(table_id)
        return None if kept is None or kept.analysis is None else copy.deepcopy(kept.analysis)

    async def archive(self, table_id: str, archived: bool) -> bool:
        kept = self._tables.get(table_id)
        if kept is not None:
            kept.table.archived = archived
        return kept is not None

    async def delete(self, table_id: str) -> bool:
        return self._tables.pop(table_id, None) is not None

    async def close(self) -> None:
        return None

    # ---------------------------------------------------------------- the checks

    def _get(self, table_id: str, epoch: int | None = None) -> _Kept:
        kept = self._tables.get(table_id)
        if kept is None:
            raise KeyError(table_id)
        if epoch is not None and kept.table.epoch != epoch:
            raise LeaseLostError(
                f"table {table_id} was claimed at epoch {kept.table.epoch}, not {epoch}"
            )
        return kept

    def _checked(
        self,
        table_id: str,
        count: int,
        revision: int,
        seat: int | None,
        token_hash: str | None,
        message_id: str | None,
        epoch: int | None,
    ) -> _Kept:
        """The table, if a write that expects it at ``revision`` with ``count`` actions may
        be made (the refusals in SqlStore's order: the message, the table, the seat)."""
        if message_id is not None and not MESSAGE_ID.fullmatch(message_id):
            raise ValueError(
                f"a message id is 1–64 letters, digits, '_' or '-', not {message_id[:80]!r}"
            )
        kept = self._get(table_id, epoch)
        table = kept.table
        if message_id is not None and message_id in kept.receipts:
            raise DuplicateError(kept.receipts[message_id])
        if table.revision != revision or len(table.actions) != count:
            raise MovedOnError(
                f"table {table_id} is at revision {table.revision} with {len(table.actions)}"
                f" actions, not at revision {revision} with {count}"
            )
        if token_hash is not None:
            if seat is None or not 0 <= seat < len(table.seats):
                raise ValueError(
                    f"a token is checked against a seat of table {table_id}, not {seat}"
                )
            if table.seats[seat].get("token_hash") != token_hash:
                raise SeatLostError(f"seat {seat} of table {table_id} is held by another token")
        return kept

    @staticmethod
    def _advance(
        kept: _Kept, status: str, outcome: dict[str, Any] | None, timing: Timing | None
    ) -> None:
        table = kept.table
        table.revision += 1
        table.status, table.outcome, table.updated = status, outcome, datetime.now(UTC)
        if timing is not None:
            table.clock, table.deadline = copy.deepcopy(timing.clock), timing.deadline

    def _receipted(self, kept: _Kept, message_id: str | None, kind: str, number: int) -> int:
        revision = kept.table.revision
        if message_id is not None:
            kept.receipts[message_id] = Receipt(message_id, kind, number, revision)
        # The latest receipts_kept revisions' receipts, as SqlStore keeps at the least.
        horizon = revision - self.receipts_kept
        if horizon > 0 and len(kept.receipts) > self.receipts_kept:
            kept.receipts = {k: r for k, r in kept.receipts.items() if r.revision > horizon}
        return revision


def _bare(table: StoredTable) -> StoredTable:
    """A copy of ``table`` without its actions (as ``recent`` and ``some`` give them)."""
    return copy.deepcopy(replace(table, actions=[]))
