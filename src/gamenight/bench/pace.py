"""``gamenight bench server --pace S``: the table server in an open loop, as people play.

The closed loop (gamenight.bench.server) sends a table's next move as soon as the last one
is answered, so its moves/s and its latency are one figure seen twice: the busier the
server, the slower the answers and the fewer the moves. People do not wait for the server
to be free: here each table moves at random moments, the intervals drawn from an
exponential distribution of mean S seconds (a Poisson process per table), whatever the
server is doing. A move's latency runs from the moment it was meant to be sent (not the
moment it could be: a table whose last move is still unanswered sends the next one late,
and the wait counts) to the first message on a page carrying its revision.

The run ramps the number of tables up: a step of ``--seconds`` at ``--tables`` tables, then
``--ramp`` times as many, and so on, until a step's move p99 is above 100 ms (or it has an
error) or ``--max-tables`` is reached; then it bisects, a few steps, between the most
tables held and the fewest not held. Before each step the new tables are made and their
pages connected (not measured), every table's clock starts afresh and the load settles for
a second; a step counts the moves meant to be sent within its seconds, every one of them
answered. ``tables_held_at_p99_100ms`` is the most tables of a step whose moves' p99 was at
most 100 ms with no error; ``curve`` is every step's figures.

The pages of a table are placed as in the closed loop (bench.server.page_servers): one page
per seat over the processes with ``--workers`` (in both of its runs), so that the moves of a
table are seen on its home process and on another.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

import websockets

from gamenight.bench.server import (
    ANSWER_SECONDS,
    Figures,
    Made,
    Page,
    PageError,
    Server,
    Setup,
    Tables,
    closed,
    ms,
    open_pages,
    over_processes,
    percentile,
    process_figures,
)
from gamenight.bench.serving import PROFILE_OFF, PROFILE_ON

HELD_P99 = 0.100  # seconds: the p99 a step must keep to hold its tables
SETTLE_SECONDS = 1.0  # after every table's clock starts afresh, before a step is counted
BISECTIONS = 3  # steps between the most tables held and the fewest not held
CONNECTING = 50  # tables made and connected at once, growing the load


@dataclass
class Seen:
    """A page's first sight of a move: when the move was meant to be sent, how long after
    that the page heard it, and which: the mover's ("move"), and every page's again by
    where its socket is, on the table's home process ("same") or another ("cross")."""

    at: float
    latency: float
    kind: str  # "move", "same" or "cross"


@dataclass
class Record:
    """Everything the paced tables saw, in the order it happened."""

    seen: list[Seen] = field(default_factory=list)
    errors: list[tuple[float, str]] = field(default_factory=list)  # when, and the code
    games: int = 0


class PacedTable:
    """One table moving at random moments: the mean interval is ``pace`` seconds."""

    def __init__(
        self,
        tables: Tables,
        pace: float,
        rng: random.Random,
        record: Record,
        figures: Figures,
        connecting: asyncio.Semaphore,
    ) -> None:
        self.tables = tables
        self.pace = pace
        self.rng = rng
        self.record = record
        self.figures = figures
        self.connecting = connecting
        self.next_at = math.inf  # when the next move is meant to be sent
        self.restarts = 0  # how often the clock started afresh
        self.woken = asyncio.Event()  # the clock started afresh: the wait is to be read again
        self.ready = asyncio.Event()  # made and connected (or failed to be)
        self.failed = False
        self.task = asyncio.ensure_future(self.run())

    def restart(self, now: float) -> None:
        """The clock starts afresh at ``now``: the next move at a random moment after it."""
        self.next_at = now + self.rng.expovariate(1 / self.pace)
        self.restarts += 1
        self.woken.set()

    async def wait_turn(self) -> None:
        while (delay := self.next_at - time.perf_counter()) > 0:
            self.woken.clear()
            if math.isinf(delay):
                await self.woken.wait()
                continue
            try:
                async with asyncio.timeout(delay):
                    await self.woken.wait()
            except TimeoutError:
                pass

    async def connect(self) -> tuple[Made, list[Page]]:
        async with self.connecting:
            made = await asyncio.to_thread(self.tables.new)
            return made, await open_pages(self.tables, made, self.figures)

    async def run(self) -> None:
        pages: list[Page] = []
        try:
            made, pages = await self.connect()
            self.ready.set()
            state, revision = made.state, 0
            while True:
                await self.wait_turn()
                actor = state.actor
                if actor is None:
                    self.record.games += 1
                    for page in pages:
                        await page.close()
                    pages = []
                    made, pages = await self.connect()
                    state, revision = made.state, 0
                    self.restart(time.perf_counter())
                    continue
                meant, restarts = self.next_at, self.restarts
                mover = pages[actor % len(pages)]
                action = state.action_space().sample(self.rng)
                state.push(action)
                message = {
                    "type": "act",
                    "seat": actor,
                    "action": str(action),
                    "revision": revision,
                    "id": f"m{revision}",
                }
                await mover.ws.send(json.dumps(message))
                self.figures.moves_sent += 1
                answer = await mover.heard(revision + 1)
                self.record.seen.append(Seen(meant, answer - meant, "move"))
                home = self.tables.servers[made.home]
                for page in pages:
                    heard = answer if page is mover else await page.heard(revision + 1)
                    kind = "same" if page.server is home else "cross"
                    self.record.seen.append(Seen(meant, heard - meant, kind))
                revision += 1
                if self.restarts == restarts:  # (else the fresh clock has set the next)
                    self.next_at = meant + self.rng.expovariate(1 / self.pace)
        except PageError as exc:
            self.fail(str(exc))
        except websockets.ConnectionClosed as exc:  # (its code: 1012, sent elsewhere)
            self.fail(closed(exc))
        except TimeoutError:
            self.fail("timeout")
        finally:
            self.ready.set()
            for page in pages:
                await page.close()

    def fail(self, code: str) -> None:
        self.failed = True
        self.next_at = math.inf
        self.record.errors.append((time.perf_counter(), code))
        self.figures.error(code)

    async def stop(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


class Ramp:
    """The paced tables of one run, grown and shrunk step by step."""

    def __init__(
        self,
        servers_: list[Server],
        pace: float,
        seed: int,
        per_seat: bool,
        redis_url: str | None,
    ) -> None:
        self.tables = Tables(servers_, random.Random(seed), per_seat=per_seat, redis_url=redis_url)
        self.pace = pace
        self.seed = seed
        self.record = Record()
        self.figures = Figures()
        self.live: list[PacedTable] = []
        self.connecting = asyncio.Semaphore(CONNECTING)
        self.servers = servers_

    async def resize(self, count: int) -> None:
        """``count`` live tables: the failed ones and then the last made stopped, or new
        ones made and connected."""
        for table in [t for t in self.live if t.failed]:
            self.live.remove(table)
            await table.stop()
        while len(self.live) > count:
            await self.live.pop().stop()
        added = [
            PacedTable(
                self.tables,
                self.pace,
                random.Random(self.seed * 7919 + len(self.live) + i),
                self.record,
                self.figures,
                self.connecting,
            )
            for i in range(count - len(self.live))
        ]
        self.live += added
        await asyncio.gather(*(t.ready.wait() for t in added))

    async def step(self, count: int, seconds: float) -> dict[str, Any]:
        """The figures of ``seconds`` at ``count`` tables (see the module's docstring)."""
        await self.resize(count)
        now = time.perf_counter()
        for table in self.live:
            table.restart(now)
        await asyncio.sleep(SETTLE_SECONDS)
        cpu = sum(s.cpu_seconds() for s in self.servers)
        began = time.perf_counter()
        await asyncio.sleep(seconds)
        ended = time.perf_counter()
        cpu = sum(s.cpu_seconds() for s in self.servers) - cpu
        # Every move meant within the step answered (or its table failed).
        deadline = ended + ANSWER_SECONDS
        while time.perf_counter() < deadline and any(
            t.next_at < ended and not t.failed for t in self.live
        ):
            await asyncio.sleep(0.05)
        seen = [s for s in self.record.seen if began <= s.at < ended]
        moves = [s.latency for s in seen if s.kind == "move"]
        same = [s.latency for s in seen if s.kind == "same"]
        cross = [s.latency for s in seen if s.kind == "cross"]
        errors = sum(1 for at, _ in self.record.errors if at >= began)
        p99 = percentile(moves, 99)
        return {
            "tables": count,
            "offered_moves_per_s": round(count / self.pace, 1),
            "moves_per_s": round(len(moves) / seconds, 1),
            "moves": len(moves),
            "p50_ms": ms(percentile(moves, 50)),
            "p99_ms": ms(p99),
            **process_figures(same, cross),
            "errors": errors,
            "cpu_ms_per_move": round(cpu * 1000 / max(1, len(moves)), 3),
            "held": errors == 0 and bool(moves) and p99 <= HELD_P99,
        }


def next_count(held: int, failed: int | None, count: int, ramp: float, most: int) -> int | None:
    """The next step's tables: ``ramp`` times more until a step fails (or ``most``), then
    the geometric middle of the most held and the fewest failed (half the fewest failed
    while none held); None when there is nothing left between them."""
    if failed is None:
        return None if count >= most else min(most, max(count + 1, round(count * ramp)))
    middle = round(math.sqrt(held * failed)) if held else failed // 2
    return middle if held < middle < failed else None


async def ramp_up(
    servers_: list[Server],
    pace: float,
    first: int,
    seconds: float,
    most: int,
    ramp: float,
    seed: int,
    per_seat: bool,
    profiled: bool = False,
    redis_url: str | None = None,
) -> dict[str, Any]:
    """The ramp's figures on these servers (see the module's docstring); ``profiled``: the
    servers' cProfile (bench.serving) runs through the whole ramp."""
    tables = Ramp(servers_, pace, seed, per_seat, redis_url)
    if profiled:
        for server in servers_:
            server.process.send_signal(PROFILE_ON)
    curve: list[dict[str, Any]] = []
    held, failed = 0, None
    bisections = 0
    count: int | None = first
    try:
        while count is not None:
            step = await tables.step(count, seconds)
            curve.append(step)
            if step["held"]:
                held = max(held, count)
            else:
                failed = count if failed is None else min(failed, count)
            if failed is not None and bisections >= BISECTIONS:
                break
            count = next_count(held, failed, count, ramp, most)
            if failed is not None:
                bisections += 1
    finally:
        await tables.resize(0)
        if profiled:
            for server in servers_:
                server.process.send_signal(PROFILE_OFF)
    at = next((s for s in curve if s["tables"] == held), None)
    return {
        "pace_s": pace,
        "tables_held_at_p99_100ms": held,
        # The step that held the most tables: its moves/s and p99 (0 and None: none held).
        "held_moves_per_s": at["moves_per_s"] if at else 0.0,
        "held_p99_ms": at["p99_ms"] if at else None,
        "held_same_process_p99_ms": at["same_process_p99_ms"] if at else None,
        "held_cross_process_p99_ms": at["cross_process_p99_ms"] if at else None,
        "first_failed_tables": failed,
        "curve": curve,
        "errors": sum(s["errors"] for s in curve),
        "error_codes": tables.figures.error_codes,
        "games_finished": tables.record.games,
        "tables_made": tables.tables.made,
        "step_seconds": seconds,
        "servers": len(servers_),
    }


def run(
    setup: Setup,
    pace: float,
    first: int,
    seconds: float,
    most: int,
    ramp: float = 1.5,
    seed: int = 2026,
    workers: int = 1,
    servers_: int = 1,
) -> dict[str, Any]:
    """The open loop's figures: the ramp on ``servers_`` processes, or (``workers`` above 1)
    on one and then on ``workers`` (bench.server.workers_compared); the setup's profile is
    of the (last) whole ramp."""

    async def measure(started: list[Server], profiled: bool) -> dict[str, Any]:
        return await ramp_up(
            started,
            pace,
            first,
            seconds,
            most,
            ramp,
            seed,
            workers > 1,
            profiled,
            setup.redis_url,
        )

    return over_processes(setup, servers_, workers, measure, ("tables_held_at_p99_100ms",))
