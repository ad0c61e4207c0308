"""The chaos run: servers killed at random while scripted pages and bots play, then every
table checked straight from the database and by replaying it.

One run starts its own redis-server and its own PostgreSQL database, two servers sharing
them and (in parallel) one server on SQLite; it creates many tables of both games (bots
only, watched or not; bots and humans; humans only, some seats with two pages at once),
SIGKILLs servers at random moments and restarts them, SIGKILLs a bot worker and stops
Redis for a while. At the end, after a grace period in which every table must move again
by itself, it stops everything and counts, for every table:

- lost: an action a page was told was accepted that is not stored at its number (and was
  not taken back by an undo sent after it);
- doubled: an accepted action stored twice, or one message acknowledged at two revisions;
- stale: an action applied at another place than the position the page acted on;
- holes / disordered: action numbers that are not 0…n-1, or were written out of order;
- unreplayable: a table that does not replay from its record, that a server will not open,
  or whose replay is not the state its pages last saw;
- stuck: a table still in play that did not move during the grace period, or a bot table
  whose servers were all killed while it was mid-game and that did not move again;
- slow takeovers (issue 28): a table in play whose home was SIGKILLed (on PostgreSQL, where
  its two servers share tables through Redis, the kill picks the home of the most tables,
  while they play) that no other process took within TAKEOVER_S (its pages reconnect and
  the process they reach claims it; a bot table is adopted by the live server).

The last fault before the grace period is always such a kill: a few bot tables are made,
and once each has played a few moves every server of the cluster is SIGKILLed and
restarted, so that the stuck check has tables to check (bots' games are otherwise over
before it runs).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import shutil
import signal
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine

from gamenight.web.games import get_game
from gamenight.web.store.sql import SqlStore

from .pages import Page, Switches, TableRun, notations_of
from .processes import Child, Postgres, Redis, Server, group_members, http_status, sweep


@dataclass(frozen=True)
class Kind:
    """A kind of table: its seats, how many pages each human seat has open, and whether a
    spectator watches it."""

    name: str
    game: str
    seats: tuple[dict[str, Any], ...]
    pages: tuple[int, ...] = ()  # per seat; bots have none
    watched: bool = True


def _bot(level: int = 2, role: str = "") -> dict[str, Any]:
    # Level 2 and up think in the server's worker processes (the ones a run kills); a
    # server may think for level 1 in a thread of its own.
    return {"kind": "bot", "level": level, "role": role}


def _human(role: str = "") -> dict[str, Any]:
    return {"kind": "device", "role": role}


GREEN, PURPLE = "green", "purple"
# Diverse from the start: the SQLite server gets the first few only.
KINDS = (
    Kind("centrix bots unwatched", "centrix", (_bot(), _bot(1), _bot(3)), watched=False),
    Kind("centrix humans, two pages a seat", "centrix", (_human(), _human()), (2, 2)),
    Kind("colorcity human and bot", "colorcity", (_human(GREEN), _bot(2, PURPLE)), (2, 0)),
    Kind("centrix human and bots", "centrix", (_human(), _bot(), _bot(1)), (1, 0, 0)),
    Kind("colorcity bots", "colorcity", (_bot(2, GREEN), _bot(3, PURPLE))),
    Kind("colorcity humans", "colorcity", (_human(GREEN), _human(PURPLE)), (1, 2)),
    Kind("centrix three humans", "centrix", (_human(), _human(), _human()), (2, 1, 1)),
    Kind("centrix bots", "centrix", (_bot(), _bot(), _bot(1), _bot(2))),
    Kind("colorcity bots unwatched", "colorcity", (_bot(1, GREEN), _bot(2, PURPLE)), watched=False),
)
# The bot tables killed mid-game: four seats, so that a game lasts past the restart.
MIDGAME = Kind("centrix bots mid-game", "centrix", (_bot(), _bot(), _bot(), _bot()), watched=False)
MIDGAME_MOVES = 5  # the moves each has made when its servers are killed
TAKEOVER_S = 5.0  # the most a table of a killed home may wait for another home (issue 28)
HOME = "gamenight:home:"  # (web.homes.HOME) + a table's id: the process that is its home


@dataclass
class Config:
    kills: int = 4  # server SIGKILLs in all: two thirds on PostgreSQL, the rest on SQLite
    tables: int = 14  # tables in play at once (finished ones are replaced)
    max_tables: int = 60  # tables created in all, at most
    bot_worker_kills: int = 1  # per cluster; the last one after the last server kill
    redis_outages: int = 1
    outage_s: float = 3.0
    gap_s: tuple[float, float] = (1.5, 3.5)  # between two events
    down_s: tuple[float, float] = (0.1, 1.5)  # a killed server stays down
    grace_s: float = 10.0  # after the chaos, every table in play must move within this
    midgame: int = 2  # bot tables per cluster whose servers are all killed mid-game
    settle_s: float = 2.0  # pages stop acting this long before the end
    sqlite: bool = True
    two_pages: bool = True  # False: one page a seat, whatever the kind says
    undo: float = 0.15  # how often a page takes a play back, when it may
    twice: float = 0.1  # how often a page sends a message twice
    seed: int | None = None
    server_env: dict[str, str] = field(default_factory=dict)
    keep: bool = False  # keep the run's folder (logs) even when all is well
    verbose: bool = False


@dataclass
class Report:
    kills: int = 0
    bot_worker_kills: int = 0
    redis_outages: int = 0
    tables: int = 0
    moves: int = 0  # actions pages were told were accepted
    undos: int = 0
    stored: int = 0  # actions stored in all
    lost: int = 0
    doubled: int = 0
    stale: int = 0
    holes: int = 0
    disordered: int = 0
    unreplayable: int = 0
    stuck: int = 0
    orphans: int = 0  # processes of the run still running after it
    candidates: int = 0  # tables in play when the grace period began (the stuck check's)
    midgame: int = 0  # bot tables whose servers were all killed mid-game
    sent: int = 0
    resent: int = 0
    reconnects: int = 0
    takeovers: int = 0  # tables of a killed home that another process took
    takeover_max_s: float = 0.0  # the longest of those takeovers
    slow_takeovers: int = 0  # tables not taken within TAKEOVER_S
    seed: int = 0
    seconds: float = 0.0
    folder: str = ""
    problems: list[str] = field(default_factory=list)

    BAD = (
        "lost",
        "doubled",
        "stale",
        "holes",
        "disordered",
        "unreplayable",
        "stuck",
        "orphans",
        "slow_takeovers",
    )

    @property
    def ok(self) -> bool:
        return all(getattr(self, name) == 0 for name in self.BAD)

    def summary(self) -> str:
        lines = [
            f"chaos (seed {self.seed}, {self.seconds:.0f} s): kills {self.kills},"
            f" bot-worker kills {self.bot_worker_kills}, Redis outages {self.redis_outages},"
            f" tables {self.tables}, moves {self.moves} (undos {self.undos}, stored"
            f" {self.stored}; sent {self.sent}, resent {self.resent}, reconnects"
            f" {self.reconnects}); in play at the grace period {self.candidates}, killed"
            f" mid-game {self.midgame}; homes' tables taken over {self.takeovers} (the"
            f" slowest in {self.takeover_max_s:.1f} s)",
            "  " + ", ".join(f"{name} {getattr(self, name)}" for name in self.BAD),
        ]
        # The gravest first: a misplaced move (stale) is the commonest and least telling.
        ranked = sorted(self.problems, key=lambda p: "was applied as action" in p)
        lines += [f"  - {problem}" for problem in ranked[:40]]
        if len(self.problems) > 40:
            lines.append(f"  … and {len(self.problems) - 40} more")
        if self.folder:
            lines.append(f"  logs: {self.folder}")
        return "\n".join(lines)


@dataclass
class Cluster:
    name: str
    database_url: str
    servers: list[Server]
    redis: Redis | None = None
    runs: list[TableRun] = field(default_factory=list)
    pages: list[asyncio.Task[None]] = field(default_factory=list)
    pages_of: dict[str, list[asyncio.Task[None]]] = field(default_factory=dict)
    over_since: dict[str, float] = field(default_factory=dict)
    engine: Engine | None = None
    midgame: dict[str, int] = field(default_factory=dict)  # table → its moves when killed


class Chaos:
    def __init__(self, config: Config) -> None:
        self.config = config
        seed = config.seed
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
        self.rng = random.Random(self.seed)
        self.folder = Path(tempfile.mkdtemp(prefix="gn_chaos_"))
        self.switches = Switches(config.undo, config.twice)
        self.report = Report(seed=self.seed, folder=str(self.folder))
        self.postgres = Postgres()
        self.clusters: list[Cluster] = []
        self.created = 0
        self.page_number = 0

    # ---------------------------------------------------------------- set-up

    def env(self, **settings: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("GAMENIGHT_")}
        # Presence news within seconds (15 by default); the run's own settings win.
        env |= {"GAMENIGHT_PRESENCE_TTL": "3"} | settings | self.config.server_env
        return env

    async def start(self) -> None:
        redis = Redis(self.folder)
        redis.start()
        await redis.wait_ready()
        self.postgres.create()
        env = self.env(GAMENIGHT_DATABASE_URL=self.postgres.url, GAMENIGHT_REDIS_URL=redis.url)
        pg = Cluster(
            "postgresql",
            self.postgres.url,
            [Server(f"pg{i}", env, self.folder) for i in (1, 2)],
            redis,
        )
        self.clusters.append(pg)
        if self.config.sqlite:
            data = self.folder / "sqlite"
            data.mkdir()
            env = self.env(GAMENIGHT_DATA_DIR=str(data))
            url = f"sqlite:///{data / 'gamenight.sqlite3'}"
            self.clusters.append(Cluster("sqlite", url, [Server("sqlite", env, self.folder)]))
        for cluster in self.clusters:
            # One after the other: the first creates the schema.
            for server in cluster.servers:
                await server.start_ready()
            cluster.engine = create_engine(cluster.database_url)

    def share(self, total: int, cluster: Cluster) -> int:
        """A cluster's share of ``total``: two thirds for PostgreSQL when SQLite runs too."""
        if len(self.clusters) == 1:
            return total
        pg = round(total * 2 / 3)
        return pg if cluster.name == "postgresql" else total - pg

    async def create_table(self, cluster: Cluster, kind: Kind) -> TableRun:
        body: dict[str, Any] = {"game": kind.game, "seats": [dict(s) for s in kind.seats]}
        if kind.game == "colorcity":
            body["first"] = "green"
        made = await self.post(cluster, "/api/tables", body)
        self.created += 1
        run = TableRun(
            made["id"],
            kind.name,
            kind.game,
            cluster.name,
            [seat["kind"] for seat in made["seats"]],
            kind.watched or any(kind.pages),
        )
        cluster.runs.append(run)
        for seat, count in enumerate(kind.pages):
            for _ in range(count if self.config.two_pages else min(count, 1)):
                self.add_page(cluster, run, seat, made["seats"][seat]["token"])
        if kind.watched and not any(kind.pages):
            self.add_page(cluster, run, None, None)
        return run

    def add_page(
        self, cluster: Cluster, run: TableRun, seat: int | None, token: str | None
    ) -> None:
        self.page_number += 1
        rng = random.Random(self.rng.randrange(2**32))
        page = Page(run, seat, token, f"p{self.page_number}", cluster.servers, self.switches, rng)
        task = asyncio.create_task(page.play())
        cluster.pages.append(task)
        cluster.pages_of.setdefault(run.id, []).append(task)

    async def post(self, cluster: Cluster, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """POST to any server of the cluster that answers; a refusal to create is the
        harness's fault or a limit, so it is retried a while, then raised."""
        data = json.dumps(body).encode()
        last = ""
        for attempt in range(60):
            server = self.rng.choice(cluster.servers)
            request = urllib.request.Request(
                f"{server.base}{path}", data, {"Content-Type": "application/json"}
            )
            try:
                made: dict[str, Any] = await asyncio.to_thread(_json_of, request)
                return made
            except urllib.error.HTTPError as exc:
                last = f"{exc.code} {exc.read()[:300]!r}"
                if exc.code not in (429, 500, 502, 503):
                    raise RuntimeError(f"POST {path} refused: {last}") from None
            except OSError as exc:
                last = repr(exc)
            await asyncio.sleep(min(2.0, 0.1 * (attempt + 1)))
        raise RuntimeError(f"POST {path} failed: {last}")

    async def replenish(self, cluster: Cluster) -> None:
        """Replace each finished table with a new one of its kind, so that tables are in
        play (bots above all, which finish fast) whenever a server dies."""
        kinds = {kind.name: kind for kind in KINDS}
        while not self.switches.stopping:
            await asyncio.sleep(1.0)
            status = await asyncio.to_thread(self.statuses, cluster)
            live = [run for run in cluster.runs if status.get(run.id) == "playing"]
            over = [run for run in cluster.runs if status.get(run.id, "playing") != "playing"]
            now = time.monotonic()
            for run in over:
                # A finished table's pages have seen its end by then: they go, so that
                # a server's restart is not met by every page of every finished table.
                since = cluster.over_since.setdefault(run.id, now)
                if now - since > 3.0:
                    for task in cluster.pages_of.pop(run.id, []):
                        task.cancel()
            missing = self.share(self.config.tables, cluster) - len(live)
            for run in over[-missing:] if missing > 0 else []:
                if self.created >= self.config.max_tables or not self.switches.acting:
                    return
                with contextlib.suppress(RuntimeError):
                    await self.create_table(cluster, kinds[run.kind])

    def statuses(self, cluster: Cluster) -> dict[str, str]:
        assert cluster.engine is not None
        with cluster.engine.connect() as connection:
            rows = connection.execute(text("SELECT id, status FROM tables")).all()
        return {str(row[0]): str(row[1]) for row in rows}

    def snapshot(self, cluster: Cluster) -> dict[str, tuple[int, str, str]]:
        """Each table's action count, last action and status, from the database."""
        assert cluster.engine is not None
        out: dict[str, tuple[int, str, str]] = {}
        with cluster.engine.connect() as connection:
            counts = dict(
                connection.execute(
                    text("SELECT table_id, count(*) FROM actions GROUP BY table_id")
                ).all()
            )
            lasts = dict(
                connection.execute(
                    text(
                        "SELECT a.table_id, a.payload FROM actions a JOIN (SELECT table_id,"
                        " max(number) AS n FROM actions GROUP BY table_id) m"
                        " ON a.table_id = m.table_id AND a.number = m.n"
                    )
                ).all()
            )
            for table_id, status in connection.execute(text("SELECT id, status FROM tables")):
                last = json.dumps(lasts.get(table_id), sort_keys=True, default=str)
                out[str(table_id)] = (int(counts.get(table_id, 0)), last, str(status))
        return out

    # ---------------------------------------------------------------- chaos

    async def chaos(self, cluster: Cluster) -> None:
        config = self.config
        events = ["kill"] * self.share(config.kills, cluster)
        events += ["worker"] * max(0, config.bot_worker_kills - 1)
        if cluster.redis is not None:
            events += ["redis"] * config.redis_outages
        self.rng.shuffle(events)
        if config.midgame > 0:
            events.append("midgame")  # tables in play for the stuck check
        if config.bot_worker_kills > 0:
            events.append("worker")  # after the last restart, which would hide it
        for event in events:
            await asyncio.sleep(self.rng.uniform(*config.gap_s))
            if event == "kill":
                await self.kill_server(cluster)
            elif event == "worker":
                await self.kill_bot_worker(cluster)
            elif event == "midgame":
                await self.kill_midgame(cluster)
            else:
                await self.redis_outage(cluster)

    async def kill_server(self, cluster: Cluster) -> None:
        up = [server for server in cluster.servers if server.up]
        homed: dict[str, list[str]] = {}
        if cluster.redis is not None:
            homed = await asyncio.to_thread(self.homes, cluster)
            # Kill a home: the server that is home of the most tables in play.
            up.sort(key=lambda server: -len(homed.get(self.origin_of(server), [])))
            server = up[0]
        else:
            server = self.rng.choice(up)
        origin = self.origin_of(server)
        tables = homed.get(origin, [])
        server.crash()
        killed = time.monotonic()
        self.report.kills += 1
        self.say(f"{cluster.name}: killed {server.name}, home of {len(tables)} tables")
        for run in cluster.runs:
            run.note("chaos", f"killed {server.name}")
        watching = None
        if tables:
            watching = asyncio.create_task(self.takeover(cluster, tables, origin, killed))
        await asyncio.sleep(self.rng.uniform(*self.config.down_s))
        await server.start_ready()
        if watching is not None:
            await watching

    @staticmethod
    def origin_of(server: Server) -> str:
        """The prefix of the server's process id among its cluster's (web.relay.process_id)."""
        return f"{server.child.proc.pid}-" if server.child is not None else "?"

    def homes(self, cluster: Cluster) -> dict[str, list[str]]:
        """The tables in play with someone at them (a page, or a bot to play), by the prefix
        of their home's process id, from Redis."""
        import redis

        assert cluster.redis is not None
        status = self.statuses(cluster)
        needed = [
            run.id
            for run in cluster.runs
            if status.get(run.id) == "playing"
            and (
                "bot" in run.seat_kinds
                or any(not t.done() for t in cluster.pages_of.get(run.id, []))
            )
        ]
        out: dict[str, list[str]] = {}
        try:
            with redis.Redis.from_url(cluster.redis.url, socket_timeout=2) as db:
                holders = db.mget([HOME + table_id for table_id in needed]) if needed else []
        except redis.RedisError:
            return out
        for table_id, holder in zip(needed, holders, strict=True):
            if holder is not None:
                pid = holder.decode().split("-", 1)[0]
                out.setdefault(f"{pid}-", []).append(table_id)
        return out

    async def takeover(self, cluster: Cluster, tables: list[str], dead: str, killed: float) -> None:
        """Wait until another process than ``dead`` (its id's prefix: killed at ``killed``)
        is home of each of ``tables``; count those that took longer than TAKEOVER_S."""
        import redis.asyncio

        assert cluster.redis is not None
        waiting = set(tables)
        client = redis.asyncio.from_url(cluster.redis.url, socket_timeout=2)
        try:
            while waiting and time.monotonic() - killed < 3 * TAKEOVER_S:
                ids = sorted(waiting)
                with contextlib.suppress(redis.RedisError, OSError):
                    holders = await client.mget([HOME + table_id for table_id in ids])
                    status = await asyncio.to_thread(self.statuses, cluster)
                    for table_id, holder in zip(ids, holders, strict=True):
                        if status.get(table_id) != "playing":
                            waiting.discard(table_id)  # (it ended meanwhile: nothing to take)
                        elif holder is not None and not holder.decode().startswith(dead):
                            waiting.discard(table_id)
                            took = time.monotonic() - killed
                            self.report.takeovers += 1
                            self.report.takeover_max_s = max(self.report.takeover_max_s, took)
                            if took > TAKEOVER_S:
                                self.slow(cluster, table_id, took)
                await asyncio.sleep(0.1)
        finally:
            await client.aclose()
        for table_id in waiting:
            self.slow(cluster, table_id, time.monotonic() - killed)

    def slow(self, cluster: Cluster, table_id: str, took: float) -> None:
        self.report.slow_takeovers += 1
        self.report.problems.append(
            f"{cluster.name} {table_id}: its home was killed, and no other process took it"
            f" for {took:.1f} s"
        )

    async def kill_midgame(self, cluster: Cluster) -> None:
        """Make ``midgame`` bot tables, and once each has made a few moves SIGKILL every
        server of the cluster and restart them: each table must then move again."""
        # Only the tables made here: other tasks make tables into cluster.runs meanwhile.
        tables = [
            (await self.create_table(cluster, MIDGAME)).id for _ in range(self.config.midgame)
        ]
        for _ in range(300):
            snapshot = await asyncio.to_thread(self.snapshot, cluster)
            if all(snapshot[t][0] >= MIDGAME_MOVES for t in tables):
                break
            await asyncio.sleep(0.1)
        for server in cluster.servers:
            server.crash()
        self.report.kills += len(cluster.servers)
        snapshot = await asyncio.to_thread(self.snapshot, cluster)
        cluster.midgame = {t: snapshot[t][0] for t in tables if snapshot[t][2] == "playing"}
        self.report.midgame += len(cluster.midgame)
        self.say(f"{cluster.name}: killed every server, {len(cluster.midgame)} bot tables mid-game")
        await asyncio.sleep(self.rng.uniform(*self.config.down_s))
        for server in cluster.servers:
            await server.start_ready()

    async def kill_bot_worker(self, cluster: Cluster) -> None:
        # A server starts its bot worker when a bot first thinks there: give it a while.
        for _ in range(100):
            for server in self.rng.sample(cluster.servers, len(cluster.servers)):
                workers = server.bot_workers()
                if workers:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(self.rng.choice(workers), signal.SIGKILL)
                        self.report.bot_worker_kills += 1
                        self.say(f"{cluster.name}: killed the bot worker of {server.name}")
                    return
            await asyncio.sleep(0.1)
        self.report.problems.append(f"{cluster.name}: no bot worker to kill")

    async def redis_outage(self, cluster: Cluster) -> None:
        assert cluster.redis is not None
        cluster.redis.kill()
        self.report.redis_outages += 1
        self.say(f"{cluster.name}: Redis down")
        for run in cluster.runs:
            run.note("chaos", "Redis down")
        await asyncio.sleep(self.config.outage_s)
        cluster.redis.start()
        await cluster.redis.wait_ready()
        self.say(f"{cluster.name}: Redis back")

    def say(self, text: str) -> None:
        if self.config.verbose:
            print(f"[{time.strftime('%H:%M:%S')}] {text}", flush=True)

    # ---------------------------------------------------------------- the run

    async def run(self) -> Report:
        started = time.monotonic()
        await self.start()
        for cluster in self.clusters:
            for i in range(self.share(self.config.tables, cluster)):
                await self.create_table(cluster, KINDS[i % len(KINDS)])
        fillers = [asyncio.create_task(self.replenish(c)) for c in self.clusters]
        await asyncio.gather(*(self.chaos(c) for c in self.clusters))
        # Every server is up again (and Redis): from now on every table must move.
        before = {c.name: await asyncio.to_thread(self.snapshot, c) for c in self.clusters}
        self.say("grace period")
        await asyncio.sleep(self.config.grace_s)
        after = {c.name: await asyncio.to_thread(self.snapshot, c) for c in self.clusters}
        # Only now (asking a server about a table opens it, and so could wake its bots).
        served = {c.name: await self.served(c) for c in self.clusters}
        self.switches.acting = False
        await asyncio.sleep(self.config.settle_s)
        self.switches.stopping = True
        for task in fillers:
            task.cancel()
        pages = [task for c in self.clusters for task in c.pages]
        if pages:
            await asyncio.wait(pages, timeout=10)
        for task in pages:
            task.cancel()
        for cluster in self.clusters:
            for server in cluster.servers:
                server.stop()
        for cluster in self.clusters:
            self.check(cluster, before[cluster.name], after[cluster.name], served[cluster.name])
        self.report.sent = self.switches.sent
        self.report.resent = self.switches.resent
        self.report.reconnects = self.switches.reconnects
        self.report.seconds = time.monotonic() - started
        return self.report

    async def served(self, cluster: Cluster) -> dict[str, list[str]]:
        """For each table, the servers that would not open it (and how they answered)."""
        refused: dict[str, list[str]] = {}
        for run in cluster.runs:
            for server in cluster.servers:
                url = f"{server.base}/api/tables/{run.id}"
                answer = ""
                for _ in range(20):
                    try:
                        status = await asyncio.to_thread(http_status, url, 10.0)
                    except OSError as exc:
                        answer = repr(exc)
                        break
                    answer = f"HTTP {status}"
                    if status != 429:  # a host's limit on requests: asked again
                        break
                    await asyncio.sleep(1.0)
                if answer != "HTTP 200":
                    refused.setdefault(run.id, []).append(f"{server.name}: {answer}")
        return refused

    def cleanup(self) -> None:
        self.switches.stopping = True
        for cluster in self.clusters:
            for server in cluster.servers:
                with contextlib.suppress(Exception):
                    server.crash()
            if cluster.redis is not None:
                cluster.redis.kill()
            if cluster.engine is not None:
                cluster.engine.dispose()
        left = sweep()
        # The sweep's SIGKILLs land at once, but a process takes a moment to go.
        for _ in range(50):
            if not group_members(Child.started):
                break
            time.sleep(0.1)
        self.report.orphans = len(left)
        if left:
            self.report.problems.append(f"processes left running after the run: {left}")
        self.postgres.drop()
        if self.report.ok and not self.config.keep:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.report.folder = ""

    # ---------------------------------------------------------------- the checks

    def check(
        self,
        cluster: Cluster,
        before: dict[str, tuple[int, str, str]],
        after: dict[str, tuple[int, str, str]],
        served: dict[str, list[str]],
    ) -> None:
        report = self.report
        assert cluster.engine is not None
        store = SqlStore(cluster.database_url)
        try:
            with cluster.engine.connect() as connection:
                rows = connection.execute(
                    text("SELECT table_id, number FROM actions ORDER BY id")
                ).all()
            written: dict[str, list[int]] = {}
            for table_id, number in rows:
                written.setdefault(str(table_id), []).append(int(number))
            for run in cluster.runs:
                report.tables += 1
                problems = list(
                    self.check_table(run, store, written.get(run.id, []), served.get(run.id))
                )
                snap0, snap1 = before.get(run.id), after.get(run.id)
                report.candidates += snap0 is not None and snap0[2] == "playing"
                killed_at = cluster.midgame.get(run.id)
                if snap1 is not None and snap1[2] == "playing" and snap0 == snap1:
                    report.stuck += 1
                    problems.append(f"stuck at {snap1[0]} actions through the grace period")
                elif killed_at is not None and snap1 is not None and snap1[0] <= killed_at:
                    report.stuck += 1
                    problems.append(
                        f"never moved again after its servers were killed at {killed_at}"
                    )
                report.problems += [f"{cluster.name} {run.id} ({run.kind}): {p}" for p in problems]
                if problems:
                    self.dump(run, store, problems)
        finally:
            store.engine.dispose()

    def dump(self, run: TableRun, store: SqlStore, problems: list[str]) -> None:
        """The table's story for a post-mortem: what its pages were told, and what is stored."""
        stored = store.sync.load(run.id)
        story = {
            "table": run.id,
            "kind": run.kind,
            "problems": problems,
            "accepted": [vars(a) for a in run.accepted],
            "undo_attempts": run.undo_attempts,
            "last_seen": vars(run.last_seen) if run.last_seen else None,
            "stored": stored.actions if stored else None,
            "set-up": (
                {"rules": stored.rules, "seed": stored.seed, "setup": stored.setup}
                | {"seats": stored.seats}
                if stored
                else None
            ),
            "trace": run.trace,
        }
        folder = self.folder / "tables"
        folder.mkdir(exist_ok=True)
        (folder / f"{run.id}.json").write_text(json.dumps(story, indent=1, default=str))

    def check_table(
        self, run: TableRun, store: SqlStore, numbers: list[int], refused: list[str] | None
    ) -> Iterator[str]:
        report = self.report
        acts = [a for a in run.accepted if a.kind == "act"]
        report.moves += len(acts)
        report.undos += sum(1 for a in run.accepted if a.kind == "undo")
        report.stored += len(numbers)
        if sorted(numbers) != list(range(len(numbers))):
            report.holes += 1
            yield f"action numbers stored are not 0…n-1: {sorted(numbers)[:30]}"
        if any(a >= b for a, b in itertools.pairwise(numbers)):
            report.disordered += 1
            yield f"actions written out of order (numbers by row): {numbers[:40]}"
        if run.doubled:
            report.doubled += run.doubled
            yield f"{run.doubled} message(s) applied twice or acknowledged at two revisions"
        unreplayable: list[str] = []
        if refused:
            unreplayable.append("a server will not open it: " + "; ".join(refused))
        stored = store.sync.load(run.id)
        log: list[str] = []
        movers: list[int] = []
        if stored is None:
            unreplayable.append("it is not in the database")
        else:
            game = get_game(stored.game)
            try:
                state = game.replay(
                    stored.rules, stored.seed, stored.setup, stored.seats, stored.actions
                )
                log = notations_of(game.view(state, None))
                movers = list(state.movers)
            except Exception as exc:
                unreplayable.append(f"it does not replay: {exc!r:.200}")
                stored = None
        if stored is not None and run.last_seen is not None:
            seen = run.last_seen.log
            # Bots may have played on after the pages stopped listening; nobody else.
            later = movers[len(seen) :]
            if log[: len(seen)] != seen or any(run.seat_kinds[s] != "bot" for s in later):
                differ = [i for i, (a, b) in enumerate(zip(log, seen, strict=False)) if a != b]
                unreplayable.append(
                    f"it replays to {len(log)} actions, not to what its pages last saw"
                    f" ({len(seen)} actions; first difference at"
                    f" {differ[0] if differ else min(len(log), len(seen))})"
                )
        if unreplayable:
            report.unreplayable += 1
            yield from unreplayable
        if stored is None:
            return
        for act in acts:
            if act.number != act.base:
                report.stale += 1
                yield (
                    f"{act.page}'s {act.text!r} was applied as action {act.number}, on a table"
                    f" it saw at {act.base}"
                )
            # Taken back by an undo from a page that showed this very play as the one to take
            # back (so sent after it was stored: the second allows for pages hearing of it
            # one after the other).
            taken_back = any(
                n == act.number and shown == act.text and at > act.at - 1.0
                for n, shown, at in run.undo_attempts
            )
            if not taken_back and (act.number >= len(log) or log[act.number] != act.text):
                report.lost += 1
                found = log[act.number] if act.number < len(log) else "nothing"
                yield f"accepted action {act.number} {act.text!r} ({act.page}) lost: {found!r}"
        claimed = {(act.number, act.text) for act in acts}
        for number, text_, seat in sorted({(a.number, a.text, a.seat) for a in acts}):
            # A copy of the action soon after it, that no page was told was its own: the
            # same message applied twice. (A decision such as "pass" comes back every turn.)
            if run.game == "colorcity" and not any(c.isdigit() for c in text_):
                continue
            copies = [
                p
                for p in range(number + 1, min(len(log), number + 4))
                if log[p] == text_ and movers[p] == seat and (p, text_) not in claimed
            ]
            if copies and number < len(log) and log[number] == text_:
                report.doubled += 1
                yield f"accepted action {number} {text_!r} stored again at {copies}"


def _json_of(request: urllib.request.Request) -> Any:
    with urllib.request.urlopen(request, timeout=15) as response:
        return json.loads(response.read())


async def _run(config: Config) -> Report:
    chaos = Chaos(config)
    try:
        return await chaos.run()
    except BaseException:
        chaos.config.keep = True  # the logs tell what went wrong
        raise
    finally:
        chaos.switches.stopping = True
        pages = [task for c in chaos.clusters for task in c.pages]
        for task in pages:
            task.cancel()
        await asyncio.gather(*pages, return_exceptions=True)
        chaos.cleanup()


def run(config: Config) -> Report:
    """One chaos run; every process it started is gone when it returns (or raises)."""
    return asyncio.run(_run(config))
