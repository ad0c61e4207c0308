"""The bot runner: it thinks for the bots in worker processes and plays their turns.

What it promises:

- **No bot holds up the event loop or another table.** Thinking runs in a pool of worker
  processes (as many as the machine has cores by default); the only thinking done in the
  server's process is a level-1 bot's quick choice, in a thread. Every decision is thought
  within ``think_seconds`` (``GAMENIGHT_BOT_THINK_SECONDS``), whatever the table's rules make
  a flick cost, and the tables waiting for a worker are served in the order they asked
  (each table has at most one decision waiting): a table whose rules are the slowest
  allowed delays another by at most one such decision per worker (issue 31, finding 6).
- **No bot waits forever.** Each decision has a wall-clock limit (``seconds``, the setting
  ``GAMENIGHT_BOT_SECONDS``). A bot that overruns it is abandoned: its worker is killed (so
  that it cannot wedge the next table's bot) and the seat plays what a level-1 bot chooses.
- **No bot stops for good.** A worker that dies (``BrokenProcessPool``) is replaced by a
  new pool, and every decision that was waiting on the old one is thought again there; a
  bot that fails in any other way plays the level-1 choice, and a turn that could not be
  played is tried again (later and later) until it is.
- **Exactly one server thinks for a bot seat.** Before thinking, a server asks the table
  events (web.relay, when scaled out) whether the decision at this revision is its own;
  another server that holds it is waited for. The play goes through the referee with the
  revision the bot thought on, so a play chosen for an older position is never applied.
- **No orphans.** The workers are killed whenever the runner closes (the app's shutdown,
  and at exit), and each worker exits by itself when the server process dies (Linux's
  parent-death signal, and a watchdog thread checking its parent as a fallback).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import ctypes
import hashlib
import importlib
import logging
import multiprocessing
import os
import queue
import signal
import sys
import threading
import time
import weakref
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from gamenight.web.games import get_game
from gamenight.web.refusals import Code, RefusedError

log = logging.getLogger("gamenight.web")

Thinker = Callable[[str, Any, int, int, float | None], str]
FALLBACK_LEVEL = 1  # the quick bot a seat plays when its own bot overruns or fails
ATTEMPTS = 3  # pools a decision is tried in before the seat plays the fallback
CLAIM_POLL_SECONDS = 1.0  # how often a server asks again for a decision another one holds
START_SECONDS = 120.0  # the most a new pool's workers may take to start
WATCHDOG_SECONDS = 1.0  # how often a worker checks that the server still lives
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def think(game: str, view: Any, level: int, seed: int, seconds: float | None = None) -> str:
    """A bot's action in notation, thought within ``seconds`` (runs in a worker process)."""
    return get_game(game).bot_action(view, level, seed, seconds)


# Other work the pool does for the web, each a named crossing (issue 32): a job runs what
# the web may not import itself (the analysis imports the bots' own analysis), found by
# its dotted name in the worker. ``job(*args)``; a job may report progress (``progress``).
JOBS = {
    "hint": "gamenight.web.hints:hint_answer",
    "analyse": "gamenight.web.analysis:analysis_answer",
}
# Where a worker's jobs report progress (``(key, done, total)``): the runner's queue, given
# to each worker when it starts (a queue passes to a process only so).
PROGRESS: Any = None
HEARD: dict[str, tuple[int, int]] = {}  # each job's latest (done, total), by its key


def run_job(job: str, *args: Any) -> Any:
    """Run the job named ``job`` (JOBS) with ``args`` (in a worker process)."""
    module, name = JOBS[job].split(":")
    return getattr(importlib.import_module(module), name)(*args)


def report_progress(key: str, done: int, total: int) -> None:
    """A job's progress, told to the runner (nothing where no one listens)."""
    if PROGRESS is not None:
        PROGRESS.put((key, done, total))


def worker_started(parent: int, pids: Any, progress: Any = None) -> None:
    """The initializer of every bot worker: it tells the runner its process id (so that a
    stuck worker can be killed) and arranges to exit when the server process dies."""
    global PROGRESS
    PROGRESS = progress
    pids.put(os.getpid())
    if sys.platform == "linux":
        # The kernel kills this worker when the thread that started it ends: the runner
        # starts workers from the event loop's thread, which lives as long as the server.
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the server died before this worker could ask
        os._exit(1)
    threading.Thread(target=watch_parent, args=(parent,), daemon=True).start()


def watch_parent(parent: int) -> None:
    """Exit this worker once its parent is gone (where no parent-death signal exists)."""
    while os.getppid() == parent:
        time.sleep(WATCHDOG_SECONDS)
    os._exit(1)


def kill_workers_at_exit(runner: weakref.ref[BotRunner]) -> None:
    """At exit, whatever way the server stops: no worker outlives it."""
    alive = runner()
    if alive is not None:
        alive.kill_workers()


class BotTable(Protocol):
    """What the runner needs of a live table (web.tables.LiveTable)."""

    @property
    def id(self) -> str: ...

    @property
    def referee(self) -> Any: ...


Play = Callable[[Any, int, str, int], Awaitable[object]]
"""How the runner plays a bot's action: ``play(table, seat, action, revision)``, through
the referee with ``seen=revision`` (web.tables.TableManager.bot_play)."""

Claim = Callable[[str, int], AbstractAsyncContextManager[bool]]
"""``claim(table_id, revision)``: whether this server is the one to think for the table's
bot at ``revision``, held while the block runs (web.tables.TableEvents.thinking)."""


class BotRunner:
    """Runs bots' thinking in a pool of ``workers`` processes (or in ``executor``: tests
    give threads, which are abandoned but cannot be killed when they overrun), each
    decision thought within ``think_seconds`` and abandoned after ``seconds``; ``thinker`` is
    what a worker runs (tests give bots that get stuck). One task per table plays its bots'
    turns, one after another."""

    def __init__(
        self,
        workers: int = 1,
        executor: Executor | None = None,
        *,
        seconds: float = 20.0,
        think_seconds: float | None = None,
        thinker: Thinker | None = None,
    ) -> None:
        self._workers = workers
        self.think_seconds = think_seconds
        self._given = executor
        self._pool: ProcessPoolExecutor | None = None
        self._pids: Any = None  # the pool's workers report their process ids here
        self._progress: Any = None  # and their jobs' progress here (threads: PROGRESS)
        self._known: set[int] = set()
        self.seconds = seconds
        self.thinker: Thinker = thinker or think
        # Per table id: the task playing its bots' turns, what wakes it, the table it plays.
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._wake: dict[str, asyncio.Event] = {}
        self._tables: dict[str, BotTable] = {}
        self._closed = False
        self._ready: Executor | None = None  # the pool whose workers are known to be up
        self._slots_loop: asyncio.AbstractEventLoop | None = None
        self._free = asyncio.Semaphore(workers)

    # ---------------------------------------------------------------- the pool

    @property
    def executor(self) -> Executor:
        if self._given is not None:
            return self._given
        if self._pool is None:
            # Bots are CPU-bound: separate processes keep the event loop (and other tables)
            # responsive; "spawn" because the server runs threads.
            context = multiprocessing.get_context("spawn")
            if self._pids is None:
                # One queue for every pool: a worker of a pool just replaced may still be
                # starting, and would not find a queue dropped with its pool.
                self._pids = context.SimpleQueue()
                self._progress = context.SimpleQueue()
                atexit.register(kill_workers_at_exit, weakref.ref(self))
            self._pool = ProcessPoolExecutor(
                self._workers,
                mp_context=context,
                initializer=worker_started,
                initargs=(os.getpid(), self._pids, self._progress),
            )
        return self._pool

    def worker_pids(self) -> set[int]:
        """The process ids of the workers started since the pool was last replaced."""
        if self._pids is not None:
            while not self._pids.empty():
                self._known.add(self._pids.get())
        return set(self._known)

    def _recycle(self, pool: Executor) -> None:
        """Replace ``pool`` (if it is still the runner's) by a new one on next use, killing
        its workers: a stuck one would never finish, and a dead one broke the pool."""
        if pool is not self._pool:
            return  # another decision has already replaced it
        pids = self.worker_pids()
        self._pool, self._known, self._ready = None, set(), None
        pool.shutdown(wait=False, cancel_futures=True)
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)

    def close(self) -> None:
        """Stop every bot's turn and the workers (never waits for a bot to finish)."""
        self._closed = True
        for task in self._tasks.values():
            task.cancel()
        self._tasks.clear()
        self.kill_workers()
        if self._given is not None:
            self._given.shutdown(wait=False, cancel_futures=True)

    def kill_workers(self) -> None:
        """Kill the pool's workers (a new pool starts if a bot thinks again)."""
        if self._pool is not None:
            self._recycle(self._pool)

    # ---------------------------------------------------------------- one decision

    def _slots(self) -> asyncio.Semaphore:
        """One slot per worker: a decision waits for a free worker here, in the event loop,
        so that its time limit counts its own thinking, not the queue before it."""
        loop = asyncio.get_running_loop()
        if self._slots_loop is not loop:
            self._slots_loop, self._free = loop, asyncio.Semaphore(self._workers)
        return self._free

    async def _started(self, executor: Executor) -> None:
        """Wait until a new pool's workers are up (they import the games): start-up does not
        count against a decision's limit, but it has a limit of its own."""
        if executor is self._given or executor is self._ready:
            return
        loop = asyncio.get_running_loop()
        try:
            await asyncio.wait_for(loop.run_in_executor(executor, os.getpid), START_SECONDS)
        except TimeoutError:
            self._recycle(executor)
            raise RuntimeError(f"the bot workers did not start within {START_SECONDS} s") from None
        self._ready = executor

    async def choose(self, game: str, view: Any, level: int, seed: int) -> str:
        """The bot's action for ``view``; if it overruns the limit or fails, what a level-1
        bot chooses (never raises but for the fallback's own failure)."""
        loop = asyncio.get_running_loop()
        async with self._slots():
            for attempt in range(ATTEMPTS):
                executor = self.executor
                try:
                    await self._started(executor)
                    future = loop.run_in_executor(
                        executor, self.thinker, game, view, level, seed, self.think_seconds
                    )
                    return await asyncio.wait_for(future, self.seconds)
                except BrokenProcessPool:
                    # A worker died (killed, out of memory): every decision that was waiting
                    # on this pool lands here, and is thought again in a new one.
                    log.warning("a bot worker died; its pool is replaced (try %s)", attempt + 1)
                    self._recycle(executor)
                    continue
                except TimeoutError:
                    log.warning(
                        "a level-%s %s bot overran its %s s; its seat plays a level-%s choice",
                        level,
                        game,
                        self.seconds,
                        FALLBACK_LEVEL,
                    )
                    self._recycle(executor)
                except Exception:
                    log.exception("a level-%s %s bot failed", level, game)
                break
        # The fallback is quick and runs in a thread: never in the event loop.
        return await asyncio.to_thread(think, game, view, FALLBACK_LEVEL, seed)

    # ---------------------------------------------------------------- other jobs

    async def run(self, job: str, *args: Any, seconds: float, key: str = "") -> Any:
        """Run the job named ``job`` (JOBS) in the pool, off the loop, and its answer: as a
        decision waits for a free worker and is abandoned after ``seconds`` (TimeoutError,
        its worker replaced); ``key`` names the job in ``heard()``."""
        global PROGRESS
        loop = asyncio.get_running_loop()
        async with self._slots():
            executor = self.executor
            if executor is self._given and PROGRESS is None:
                PROGRESS = queue.SimpleQueue()  # threads: the jobs report here
            await self._started(executor)
            future = loop.run_in_executor(executor, run_job, job, *args)
            try:
                return await asyncio.wait_for(future, seconds)
            except (TimeoutError, BrokenProcessPool):
                self._recycle(executor)
                raise
            finally:
                self.heard()
                HEARD.pop(key, None)

    def heard(self) -> dict[str, tuple[int, int]]:
        """Each job's progress, as its workers last reported it."""
        for channel in (self._progress, PROGRESS if self._given is not None else None):
            while channel is not None and not channel.empty():
                key, done, total = channel.get()
                HEARD[key] = (done, total)
        return HEARD

    # ---------------------------------------------------------------- the turns

    def schedule(self, table: BotTable, play: Play, claim: Claim) -> None:
        """Make sure the table's bots play their turns: start its task if it has none, or
        wake the one it has (the table changed). At most one task per table id, ever; if
        the table was loaded again (a new object), the task plays on the new one."""
        if self._closed:
            return
        task = self._tasks.get(table.id)
        if task is not None and not task.done():
            self._tables[table.id] = table
            self._wake[table.id].set()
            return
        referee = table.referee
        actor = referee.actor
        if actor is None or not referee.seats[actor].played_by_bot:
            return
        wake = self._wake[table.id] = asyncio.Event()
        self._tables[table.id] = table
        # Every caller runs in the event loop (API handlers, the socket, the relay, bots).
        self._tasks[table.id] = asyncio.create_task(self._turns(table.id, play, claim, wake))

    def stop(self, table_id: str) -> None:
        """Stop the bots' task at ``table_id`` (the table leaves memory: one whose bots are
        ``busy`` is not idle); a later ``schedule`` starts another."""
        task = self._tasks.get(table_id)
        if task is not None:
            task.cancel()

    def busy(self, table_id: str) -> bool:
        """Whether a task plays the bots' turns at ``table_id`` now."""
        task = self._tasks.get(table_id)
        return task is not None and not task.done()

    async def _turns(self, table_id: str, play: Play, claim: Claim, wake: asyncio.Event) -> None:
        failures = 0
        try:
            while True:
                wake.clear()
                table = self._tables[table_id]
                seat = table.referee.actor
                if seat is None or not table.referee.seats[seat].played_by_bot:
                    return
                revision = table.referee.revision
                async with claim(table_id, revision) as mine:
                    action = await self._decide(table, seat) if mine else None
                if not mine:
                    # Another server thinks for this seat: wait until it plays (the relay
                    # wakes this task) or its claim lapses.
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(wake.wait(), CLAIM_POLL_SECONDS)
                    continue
                if action is None:
                    failures += 1
                    await self._pause(wake, failures)
                    continue
                table = self._tables[table_id]  # (perhaps loaded again meanwhile)
                if table.referee.revision != revision or table.referee.actor != seat:
                    continue  # the table moved on meanwhile: think again
                if await self._play(table, seat, action, revision, play):
                    failures = 0
                    continue
                failures += 1
                await self._pause(wake, failures)
        finally:
            if self._tasks.get(table_id) is asyncio.current_task():
                del self._tasks[table_id], self._wake[table_id], self._tables[table_id]

    @staticmethod
    async def _pause(wake: asyncio.Event, failures: int) -> None:
        """Wait before trying a failed turn again: later and later, never for good (a
        change to the table tries at once)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), min(30.0, 0.1 * 2**failures))

    async def _decide(self, table: BotTable, seat: int) -> str | None:
        referee = table.referee
        level = int(referee.seats[seat].bot_level or FALLBACK_LEVEL)
        # The same position gives the same decision, whichever server thinks it.
        seed = int.from_bytes(
            hashlib.sha256(f"{referee.stored.seed}:{referee.version}".encode()).digest()[:6],
            "big",
        )
        async with referee.lock:  # (an action may be changing the state in a thread)
            view = referee.state.view(seat)
        try:
            return await self.choose(referee.game.name, view, level, seed)
        except Exception:
            log.exception("the bot at table %s, seat %s could not choose", table.id, seat)
            return None

    async def _play(
        self, table: BotTable, seat: int, action: str, revision: int, play: Play
    ) -> bool:
        """Play ``action``; False if it could not be (it is tried again)."""
        try:
            await play(table, seat, action, revision)
        except RefusedError as exc:
            if exc.code == Code.MOVED_ON:
                log.info(
                    "the bot at table %s, seat %s thought on revision %s; the table moved on",
                    table.id,
                    seat,
                    revision,
                )
                return True  # not a failure: it thinks again on the table as it is
            log.exception("the bot at table %s, seat %s was refused", table.id, seat)
            return False
        except Exception:
            log.exception("the bot at table %s, seat %s could not play", table.id, seat)
            return False
        return True
