"""Group commit: the store's writes of many tables in one transaction, each in a savepoint.

A server's writes (an action, an undo, an ending, a clock, a seat change) are handed to one
writer thread (``Committer.submit``). It takes every write waiting — those that came while
it was committing the last group, and those that come within ``linger`` seconds of the
oldest — and runs them in one transaction, each inside its own SAVEPOINT, then commits once:
one disk flush for the group instead of one per write.

- A write that raises (the table moved on, a seat's token was renewed, a resent message, no
  such table, any error) rolls back its own savepoint only: the group's other writes stand,
  and its caller gets the exception.
- Nobody is answered before the COMMIT that holds their write has returned: until then a
  write may still be lost, so it must not be acknowledged.
- If the COMMIT fails (or anything outside one write's savepoint does), nothing of the group
  is stored and every caller of the group gets a ``NotCommittedError``.

SQLite allows one writer at a time anyway; one thread doing every write also means a
server's writers never queue on the database's lock (``database is locked``). The event
loop never waits on it: ``Committer.write`` awaits the write's future.

With several servers on PostgreSQL, each write holds its table's row (``FOR UPDATE``) to
the group's commit. The writes of a group run in the order of their tables' ids (a table's
own writes keep the order they came in), so two servers' groups always take their rows in
the same order and never deadlock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import Connection, Engine

log = logging.getLogger("gamenight.web")
T = TypeVar("T")

LINGER = 0.002  # seconds a group waits after its oldest write, for more to join it
MOST = 1000  # writes in one group at most
SAVEPOINT = "gamenight_write"
KEPT = 10_000  # latest groups and writes whose timings ``figures`` reports (≤ 0.7 MB)


class NotCommittedError(Exception):
    """The transaction that held the write did not commit: nothing of it was stored."""


@dataclass(eq=False)  # (one write is itself only: a withdrawn one is found by identity)
class _Write(Generic[T]):
    work: Callable[[Connection], T]
    key: str  # the row the write holds (a table's id): groups take rows in this order
    came: float  # time.monotonic() when it was submitted
    # Where the answer goes: ``submit``'s future, or ``Committer.write``'s caller's on its
    # event loop (no thread's future for those: each holds a threading.Condition, made and
    # locked for every write only to tell a cancellation, which ``_withdraw`` handles).
    future: Future[T] | None = None
    waiter: asyncio.Future[T] | None = None


class Committer:
    """One writer thread that commits the writes submitted to it in groups (see the module).

    ``engine`` is the store's writing engine; ``linger`` how long (seconds) a group waits
    for more writes after its oldest came (0: only those already waiting); ``most`` the
    largest group."""

    def __init__(self, engine: Engine, *, linger: float = LINGER, most: int = MOST) -> None:
        self.engine = engine
        self.linger = linger
        self.most = most
        self._waiting: deque[_Write[Any]] = deque()
        self._ready = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False
        # What ``figures`` reports (guarded by ``_ready``): transactions committed, the
        # writes in them (refused ones included), and the latest timings.
        self._groups = self._writes = 0
        self._commits: deque[float] = deque(maxlen=KEPT)  # BEGIN → COMMIT returned, seconds
        self._answers: deque[float] = deque(maxlen=KEPT)  # submitted → answered, seconds
        # The writer thread's CPU in its groups (time.thread_time, seconds): the GIL it holds
        # is the event loop's wait, so this is the figure to keep small.
        self._cpu = 0.0

    def submit(self, work: Callable[[Connection], T], key: str = "") -> Future[T]:
        """Run ``work`` in the next group; its future is resolved once the group's COMMIT has
        returned (with what ``work`` returned or raised), or with a NotCommittedError."""
        future: Future[T] = Future()
        self._submit(_Write(work, key, time.monotonic(), future=future))
        return future

    def _submit(self, write: _Write[Any]) -> None:
        with self._ready:
            if self._closed:
                raise RuntimeError("the store is closed")
            self._waiting.append(write)
            if self._thread is None:
                # (the first write; or the thread was stopped by a BaseException of a write)
                self._thread = threading.Thread(
                    target=self._run, name="gamenight-commits", daemon=True
                )
                self._thread.start()
            if len(self._waiting) in (1, self.most):
                # The writer waits for a group's first write, or lingers until its group is
                # full: a write that joins a lingering group need not wake it (each wake-up
                # took the GIL from the event loop, only to wait again).
                self._ready.notify()

    def _withdraw(self, write: _Write[Any]) -> None:
        """``write``'s caller stopped waiting: a write still waiting for its group is not
        made (one already taken into a group is made, and its answer goes nowhere)."""
        with self._ready, contextlib.suppress(ValueError):
            self._waiting.remove(write)

    def run(self, work: Callable[[Connection], T], key: str = "") -> T:
        """``work``'s result once committed, waiting for it in this thread."""
        if threading.current_thread() is self._thread:
            # (it would wait for itself for ever)
            raise RuntimeError("a write cannot wait for another write of the store")
        return self.submit(work, key).result()

    async def write(self, work: Callable[[Connection], T], key: str = "") -> T:
        """``work``'s result once committed; the event loop goes on meanwhile. (Answered on
        the loop with the group's other writes from it, in one hand-over: see ``_answer``.)"""
        waiter: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        write = _Write(work, key, time.monotonic(), waiter=waiter)
        self._submit(write)
        try:
            return await waiter
        except asyncio.CancelledError:
            self._withdraw(write)
            raise

    def figures(self, reset: bool = False) -> dict[str, int | float]:
        """How the groups went since the start (or the last reset): groups committed, writes
        per group, the median and 99th percentile of a group's transaction (BEGIN to
        COMMIT returned) and of a write's wait (submitted to answered), in ms, and the writer
        thread's CPU per write (µs, its whole group's work: statements, COMMIT, answers)."""
        with self._ready:
            groups, writes, cpu = self._groups, self._writes, self._cpu
            commits, answers = sorted(self._commits), sorted(self._answers)
            if reset:
                self._groups = self._writes = 0
                self._cpu = 0.0
                self._commits.clear()
                self._answers.clear()
        return {
            "groups": groups,
            "writes_per_group": round(writes / groups, 1) if groups else 0.0,
            "commit_p50_ms": _ms(commits, 50),
            "commit_p99_ms": _ms(commits, 99),
            "write_p50_ms": _ms(answers, 50),
            "write_p99_ms": _ms(answers, 99),
            "writer_cpu_us_per_write": round(cpu / writes * 1e6, 1) if writes else 0.0,
        }

    def close(self) -> None:
        """Commit what is waiting, then stop the thread (later writes are refused)."""
        with self._ready:
            self._closed = True
            self._ready.notify()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    # ---------------------------------------------------------------- the writer thread

    def _run(self) -> None:
        try:
            while (group := self._take()) is not None:
                if not group:
                    continue  # (every write of it was withdrawn or cancelled meanwhile)
                try:
                    self._commit(group)
                except BaseException as exc:  # (never leave a caller waiting)
                    self._answer([(write, False, exc) for write in group])
                    if not isinstance(exc, Exception):
                        raise
        finally:
            with self._ready:  # (the next write starts another)
                if self._thread is threading.current_thread():
                    self._thread = None

    def _take(self) -> list[_Write[Any]] | None:
        """The next group, oldest first (None: closed, and nothing is waiting)."""
        with self._ready:
            while not self._waiting:
                if self._closed:
                    return None
                self._ready.wait()
            until = self._waiting[0].came + self.linger
            while len(self._waiting) < self.most and not self._closed:
                left = until - time.monotonic()
                if left <= 0:
                    break
                self._ready.wait(left)
            count = min(len(self._waiting), self.most)
            group = [self._waiting.popleft() for _ in range(count)]
        # A caller of ``submit`` that cancelled its future before the group began: its write
        # is not made. (``write``'s callers withdraw theirs from ``_waiting``.)
        return [
            write
            for write in group
            if write.future is None or write.future.set_running_or_notify_cancel()
        ]

    def _commit(self, group: list[_Write[Any]]) -> None:
        # Stable: a table's own writes stay in the order they came.
        group = sorted(group, key=lambda write: write.key)
        done: list[tuple[_Write[Any], bool, Any]] = []
        began, cpu = time.monotonic(), time.thread_time()
        try:
            with self.engine.connect() as connection, connection.begin():
                # The savepoints' own SQL on the driver's cursor: SQLAlchemy's begin_nested()
                # costs about 30 times as much, for two statements of every write. The
                # connection holds one savepoint at a time, always by the same name.
                cursor = connection.connection.cursor()
                for write in group:
                    cursor.execute(f"SAVEPOINT {SAVEPOINT}")
                    try:
                        value = write.work(connection)
                    except Exception as exc:
                        # (if this fails, the whole group does)
                        cursor.execute(f"ROLLBACK TO SAVEPOINT {SAVEPOINT}")
                        done.append((write, False, exc))
                    else:
                        done.append((write, True, value))
                    cursor.execute(f"RELEASE SAVEPOINT {SAVEPOINT}")
                cursor.close()
                # Leaving the block commits: nothing is answered before it returns.
        except Exception as exc:
            log.error("a group of %d writes was not committed", len(group), exc_info=exc)
            failed = NotCommittedError("the transaction holding the write did not commit")
            failed.__cause__ = exc
            self._answer([(write, False, failed) for write in group])
            return
        self._answer(done)
        answered = time.monotonic()
        with self._ready:
            self._cpu += time.thread_time() - cpu
            self._groups += 1
            self._writes += len(group)
            self._commits.append(answered - began)
            self._answers.extend(answered - write.came for write in group)

    @staticmethod
    def _answer(answers: list[tuple[_Write[Any], bool, Any]]) -> None:
        """Answer each write (True: with its value; False: with its exception, ``value``):
        on its future, or a ``write``'s on its event loop, in one hand-over per loop for the
        whole group — each ``call_soon_threadsafe`` wakes the loop through its self-pipe, a
        system call made in this thread (holding the GIL on its way) for every write when
        each future was wrapped for the loop on its own."""
        loops: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], bool, Any]]] = {}
        for write, ok, value in answers:
            if write.waiter is not None:
                loops.setdefault(write.waiter.get_loop(), []).append((write.waiter, ok, value))
            elif write.future is not None and not write.future.done():
                # (done: answered already, before a BaseException stopped the group)
                _resolve(write.future, ok, value)
        for loop, waiters in loops.items():
            # (RuntimeError: the loop is closed, nobody waits there any more)
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_settle, waiters)


def _settle(waiters: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    """On the waiters' loop: give each its answer, unless its caller stopped waiting."""
    for waiter, ok, value in waiters:
        if not waiter.done():
            _resolve(waiter, ok, value)


def _resolve(future: Future[Any] | asyncio.Future[Any], ok: bool, value: Any) -> None:
    """Give ``future`` its answer: ``value`` (True) or the exception ``value`` (False)."""
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


def _ms(ordered: list[float], p: float) -> float:
    if not ordered:
        return 0.0
    return round(ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000, 2)
