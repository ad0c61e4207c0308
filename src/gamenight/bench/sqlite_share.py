"""``gamenight bench sqlite``: may several server processes share one SQLite file? (issue 28)

Each of N processes is the home of tables of its own (web.homes) and appends moves to them
as fast as its store takes them (web.store.sql: WAL, the group commit of its writer
thread, PRAGMA synchronous as the server's), all in one file; the same for each N given, in
one run. Printed: the moves stored per second in all, each append's latency (p50, p99) and
the appends refused (the file stayed locked past SQLite's busy wait), with the commit, the
CPU, the machine and the load they were measured at.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import tempfile
import time
from pathlib import Path
from typing import Any

from gamenight.bench.server import ms, percentile
from gamenight.core import provenance

TABLES = 20  # each process's tables, all appending at once (as many pages acting)


def _process(url: str, seconds: float, tables: int, start_at: float, out: Any) -> None:
    from gamenight.web.store import NewTable
    from gamenight.web.store.sql import SqlStore

    async def play() -> dict[str, Any]:
        store = SqlStore(url)
        made = [
            await store.create(NewTable("centrix", {}, i, {"first": 0}, [{"name": "A"}]))
            for i in range(tables)
        ]
        latencies: list[float] = []
        errors = 0
        await asyncio.sleep(max(0.0, start_at - time.time()))
        end = time.monotonic() + seconds

        async def table(table_id: str) -> None:
            nonlocal errors
            number = revision = 0
            while time.monotonic() < end:
                began = time.perf_counter()
                try:
                    revision = await store.append(
                        table_id,
                        number=number,
                        revision=revision,
                        payload="A off-a1",
                        status="playing",
                        outcome=None,
                    )
                    number += 1
                    latencies.append(time.perf_counter() - began)
                except Exception:
                    errors += 1
                    stored = await store.load(table_id)
                    if stored is not None:
                        number, revision = len(stored.actions), stored.revision

        await asyncio.gather(*(table(t.id) for t in made))
        await store.close()
        return {"latencies": latencies, "errors": errors}

    out.put(asyncio.run(play()))


def measure(processes: int, seconds: float, tables: int = TABLES) -> dict[str, Any]:
    """N processes appending to one fresh SQLite file for ``seconds``."""
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="gn_sqlite_") as folder:
        url = f"sqlite:///{Path(folder) / 'g.sqlite3'}"
        from gamenight.web.store.sql import SqlStore

        SqlStore(url).engine.dispose()  # the schema, made once before the processes start
        out = context.Queue()
        start_at = time.time() + 3.0 + 0.5 * processes  # (each process imports and sets up)
        workers = [
            context.Process(target=_process, args=(url, seconds, tables, start_at, out))
            for _ in range(processes)
        ]
        for worker in workers:
            worker.start()
        results = [out.get(timeout=120 + seconds) for _ in workers]
        for worker in workers:
            worker.join(30)
    latencies: list[float] = sorted(x for r in results for x in r["latencies"])

    return {
        "processes": processes,
        "moves_per_s": round(len(latencies) / seconds, 1),
        "p50_ms": ms(percentile(latencies, 50)) if latencies else None,
        "p99_ms": ms(percentile(latencies, 99)) if latencies else None,
        "refused": sum(r["errors"] for r in results),
    }


def run(counts: list[int], seconds: float, tables: int = TABLES) -> dict[str, Any]:
    rows = [measure(n, seconds, tables) for n in counts]
    return {
        "commit": provenance.commit(),
        "cpu": provenance.cpu_model(),
        "machine": provenance.machine(),
        "load": provenance.load(),
        "seconds": seconds,
        "tables_per_process": tables,
        "runs": rows,
    }
