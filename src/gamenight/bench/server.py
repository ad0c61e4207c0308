"""``gamenight bench server``: the table server's cost per move, against its own stack's echo.

The benchmark starts its own server process(es) (gamenight.bench.serving) on 127.0.0.1 —
SQLite in a temporary folder unless a database is given — creates bot-free tables through
the public HTTP API (Centrix and Color City alternately), and drives them with the browser
protocol from concurrent clients in this process, for a fixed time:

- each table has pages that hold its seats' tokens (one page for every seat; with two
  servers, one page per seat, the seats' pages alternating between the servers, so every
  move crosses from one server to the other);
- the client keeps its own copy of each game (the same web adapter the server sets tables
  up with, from the same seed) to choose a legal action for the seat to act, at random;
- a move's latency runs from sending the ``act`` to the first message on the mover's page
  that carries a ``revision`` above the one acted on, whatever its type (so the figure
  does not depend on the shape of the state messages); with two servers, the cross-server
  delay runs from the same send to the first such message on the other seat's page;
- a finished game is replaced by a new table, so every table stays in play.

Then the same clients drive the echo endpoint for the same time, message for message, on
the same sockets: a client per table, with a socket where each of the table's pages was
(so with two servers, one per seat, alternating between the servers), sends a message of
an act's size on each socket in turn and waits for it to come back.
The ratios to the echo are what the bars of issue 20 are set in (docs/benchmarks.md),
because the machine's speed drifts.

``--workers N`` measures the same on one process and then on N in the same run, as the
workers of ``gamenight serve --workers N`` run (web.pool): the processes share one listening
socket, bound here, and the kernel gives each new connection to one of them. Each process
names itself in its sockets' handshake (bench.serving), so the client knows where every
page landed: a page per seat in both runs, a table's pages on two processes (a socket that
landed elsewhere is opened again), the first on the table's home, which Redis names
(web.homes: the process that made the table). A move seen on a page on its home and one
seen on a page elsewhere (forwarded, web.forward) give ``same_process_p99_ms`` and
``cross_process_p99_ms``. ``--pace S`` is the open loop (gamenight.bench.pace).

Server CPU and memory are read from /proc (Linux), for every server process; the CPU of
its main thread (the event loop's) apart too, since the loop is what one process cannot
spread over more cores, and how long that thread waited for a core. How busy the machine's
cores were in each phase comes from /proc/stat, and the play's CPU a move (servers' and
client's) gives the most moves/s the cores allow: its ratio to the echo's rate is the best
``moves/s ÷ echo`` this CPU a move can reach, whatever the scheduling.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection

from gamenight.bench.serving import (
    COMMITS_PATH,
    ECHO_PATH,
    ORIGIN_LINE,
    PROCESS_HEADER,
    PROFILE_OFF,
    PROFILE_ON,
)
from gamenight.core.errors import RulesError
from gamenight.core.game import GameState
from gamenight.web.games import SeatSpec, get_game
from gamenight.web.homes import HOME
from gamenight.web.pool import bind

HOST = "127.0.0.1"
ANSWER_SECONDS = 30.0  # a move not answered in this long counts as an error
SEATS = 2  # at every table the benchmark makes
REOPENING = 5  # tries at a page whose socket is closed before its first state
PLACING = 40  # sockets opened at most, on a shared port, to land a page where it is meant
# Every limit of web.quotas as high as it may be set: the benchmark's clients all come
# from one address and mean to be fast.
LIMITS = {
    "GAMENIGHT_TABLES_PER_MINUTE": "1000000",
    "GAMENIGHT_LIVE_TABLES": "1000000",
    "GAMENIGHT_SPECTATORS_PER_TABLE": "1000000",
    "GAMENIGHT_SPECTATORS_PER_ADDRESS": "1000000",
    "GAMENIGHT_SOCKETS_PER_ADDRESS": "1000000",
    "GAMENIGHT_MESSAGES_PER_SECOND": "1000000",
    "GAMENIGHT_ADDRESS_MESSAGES_PER_SECOND": "1000000",
    "GAMENIGHT_REQUESTS_PER_SECOND": "1000000",
}
# The tables set up, in turn: two devices, a seed of the benchmark's (so the client's copy
# is the server's), Color City's hands of the ordinary skill.
SETUPS: tuple[tuple[str, int | str, tuple[str, str]], ...] = (
    ("centrix", 0, ("", "")),
    ("colorcity", "green", ("green", "purple")),
)


# ---------------------------------------------------------------- server processes


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int
    log: Path
    origin: str = ""  # the process's id among the others (bench.serving.ORIGIN_LINE)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def cpu_seconds(self, loop: bool = False) -> float:
        """User and system CPU time of the process so far (``loop``: of its main thread
        alone, where uvicorn runs the event loop; the rest is the writer thread's and the
        threads' that work off the loop)."""
        fields = self.proc("stat", loop).rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def waited_for_cpu(self) -> float:
        """Seconds its main thread (the event loop's) has spent so far ready to run but waiting
        for a core (the kernel's schedstat: another thread or process had every core)."""
        return int(self.proc("schedstat", loop=True).split()[1]) / 1e9

    def rss_mb(self) -> float:
        for line in self.proc("status").splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RulesError("no VmRSS in /proc: the server benchmark needs Linux")

    def proc(self, name: str, loop: bool = False) -> str:
        """The process's file ``name`` in /proc (``loop``: its main thread's, the loop's)."""
        pid = self.process.pid
        return Path(f"/proc/{pid}/task/{pid}/{name}" if loop else f"/proc/{pid}/{name}").read_text()


def machine_cpu() -> tuple[int, int]:
    """The machine's busy and total clock ticks so far, every core's (/proc/stat); idle and
    waiting for the disk are not busy."""
    ticks = [int(field) for field in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(ticks) - ticks[3] - ticks[4], sum(ticks)


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@contextmanager
def servers(
    count: int,
    database_url: str,
    redis_url: str | None,
    profile: Path | None,
    logs: Path,
    synchronous: str = "FULL",
    profile_clock: str = "wall",
    shared: bool = False,
) -> Iterator[list[Server]]:
    """``count`` server processes on one database (and Redis), stopped at the end; what
    they print goes to ``logs`` (server-N.log), not among the figures. ``synchronous``:
    SQLite's (web.settings). ``shared``: the processes share one listening socket, bound
    here (web.pool.bind), as ``gamenight serve --workers N``'s workers do; otherwise each
    has a port of its own, as servers of their own do."""
    env = {
        **os.environ,
        **LIMITS,
        "GAMENIGHT_DATABASE_URL": database_url,
        "GAMENIGHT_SQLITE_SYNCHRONOUS": synchronous,
    }
    env.pop("GAMENIGHT_REDIS_URL", None)
    if redis_url:
        env["GAMENIGHT_REDIS_URL"] = redis_url
    started: list[Server] = []
    listening = bind(HOST, 0) if shared else None
    try:
        for i in range(count):
            command = [sys.executable, "-m", "gamenight.bench.serving"]
            fds: tuple[int, ...] = ()
            if listening is not None:
                port = int(listening.getsockname()[1])
                command += ["--fd", str(listening.fileno())]
                fds = (listening.fileno(),)
            else:
                port = free_port()
                command += ["--port", str(port)]
            if profile is not None:
                command += ["--profile", str(profile if i == 0 else f"{profile}.{i}")]
                command += ["--profile-clock", profile_clock]
            log = logs / f"server-{i}.log"
            with log.open("wb") as out:
                process = subprocess.Popen(
                    command, env=env, stdout=out, stderr=subprocess.STDOUT, pass_fds=fds
                )
            started.append(Server(process, port, log))
        for server in started:
            wait_up(server)
        yield started
    finally:
        if listening is not None:
            listening.close()  # (each process holds its own copy)
        for server in started:
            server.process.terminate()
        for server in started:
            try:
                server.process.wait(30)
            except subprocess.TimeoutExpired:
                server.process.kill()
                server.process.wait()


def wait_up(server: Server) -> None:
    """Wait until the process has said which it is and its port answers (a shared port
    answers once any process is up: each is waited for by its own first line)."""
    deadline = time.monotonic() + 60
    while True:
        if server.process.poll() is not None:
            raise RulesError(
                f"the benchmark's server stopped at start (exit {server.process.returncode})"
            )
        said = server.log.read_text(errors="replace").partition("\n")
        if said[1] and said[0].startswith(ORIGIN_LINE) and not server.origin:
            server.origin = said[0][len(ORIGIN_LINE) :].strip()
        if server.origin:
            try:
                with urllib.request.urlopen(f"{server.url}/api/links", timeout=2):
                    return
            except OSError:
                pass
        if time.monotonic() > deadline:
            raise RulesError("the benchmark's server did not start within 60 s") from None
        time.sleep(0.1)


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


# ---------------------------------------------------------------- the clients


@dataclass
class Figures:
    """What the clients measured in one phase."""

    latencies: list[float] = field(default_factory=list)  # seconds per move (or echo)
    crossings: list[float] = field(default_factory=list)  # cross-server delay per move
    # Every page's delay from a move's send to hearing it, by whether the page's socket is on
    # the process where the move was made (the table's home) or on another.
    same_process: list[float] = field(default_factory=list)
    cross_process: list[float] = field(default_factory=list)
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)
    messages: int = 0  # server → client messages received
    message_bytes: int = 0
    games: int = 0  # games played to the end
    moves_sent: int = 0
    answered: list[float] = field(default_factory=list)  # when each answer came
    sent_bytes: int = 0  # client → server, the acts (or echoes)
    sockets: dict[int, int] = field(default_factory=dict)  # server's pid → sockets open now
    misplaced: int = 0  # pages left on another process than meant (a shared port)
    reopened: int = 0  # pages closed before their first state, and opened again
    extensions: set[str] = field(default_factory=set)  # what each page's socket negotiated

    def opened(self, server: Server) -> None:
        pid = server.process.pid
        self.sockets[pid] = self.sockets.get(pid, 0) + 1

    def closed(self, server: Server) -> None:
        self.sockets[server.process.pid] -= 1

    def error(self, code: str) -> None:
        self.errors += 1
        self.error_codes[code] = self.error_codes.get(code, 0) + 1


def revision_of(message: dict[str, Any]) -> Any:
    """The table revision a message tells of: its own ``revision`` field, or, in a ``change``
    (web.protocol: only what changed since the page's last state), a replaced revision."""
    if "revision" in message:
        return message["revision"]
    changed = message.get("diff", {}).get("revision") if message.get("type") == "change" else None
    return changed[1] if isinstance(changed, list) and changed[:1] == ["="] else None


class Page:
    """One browser page at a table: its socket, and the highest revision it has heard of."""

    def __init__(self, ws: ClientConnection, figures: Figures, server: Server) -> None:
        self.ws = ws
        self.figures = figures
        self.server = server
        figures.opened(server)
        self.revision = -1
        self.heard_at: dict[int, float] = {}  # revision → when this page first heard it
        self.changed = asyncio.Event()
        self.failed: str | None = None
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                self.figures.messages += 1
                self.figures.message_bytes += len(raw)
                message = json.loads(raw)
                if message.get("type") == "error":
                    self.failed = str(message.get("code"))
                revision = revision_of(message)
                if isinstance(revision, int) and revision > self.revision:
                    for r in range(self.revision + 1, revision + 1):
                        self.heard_at.setdefault(r, now)
                    self.revision = revision
                self.changed.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            if self.failed is None:
                self.failed = "closed"
            self.changed.set()

    async def heard(self, revision: int) -> float:
        """When this page first heard of ``revision`` (waits for it)."""
        async with asyncio.timeout(ANSWER_SECONDS):
            while self.revision < revision:
                if self.failed is not None:
                    raise PageError(self.failed)
                self.changed.clear()
                await self.changed.wait()
        return self.heard_at[revision]

    async def close(self) -> None:
        await self.ws.close()
        await self.reader
        self.figures.closed(self.server)


class PageError(Exception):
    """A page was refused something (the error's code) or lost its socket."""


@dataclass
class Tables:
    """Where the benchmark's tables are made, and on which server each seat's page sits."""

    servers: list[Server]
    seed: random.Random
    made: int = 0
    # Tables are made in worker threads (the HTTP call blocks): one at a time picks its game.
    lock: threading.Lock = field(default_factory=threading.Lock)

    # One page per seat even on one server (the comparison of 1 and N processes: the same
    # pages in both runs); otherwise one server has one page holding every seat.
    per_seat: bool = False
    # Where the servers name each table's home (web.homes: RedisHomes); None: one server.
    redis_url: str | None = None

    def new(self) -> Made:
        """A new table, made on the next server in turn (its home: its pages begin there)."""
        with self.lock:
            name, first, roles = SETUPS[self.made % len(SETUPS)]
            home = self.made % len(self.servers)
            self.made += 1
            seed = self.seed.getrandbits(62)
        seats = [{"kind": "device", "name": f"P{i + 1}", "role": roles[i]} for i in range(SEATS)]
        body = {"game": name, "seats": seats, "first": first, "seed": seed}
        answer = post(f"{self.servers[home].url}/api/tables", body)
        state, _ = get_game(name).new(
            [SeatSpec("human", s["name"], None, s["role"]) for s in seats], first, {}, seed
        )
        # The process that made the table is its home (a shared port: whichever took the
        # request); Redis names it.
        named = self.home_of(answer["id"])
        home = named if named is not None else home
        return Made(answer["id"], state, [s["token"] for s in answer["seats"]], name, home)

    def home_of(self, table_id: str) -> int | None:
        """The index of the table's home among the servers, as Redis names it (None: no
        Redis, or no home)."""
        if self.redis_url is None or len(self.servers) == 1:
            return None
        import redis

        with redis.Redis.from_url(self.redis_url) as client:
            origin = client.get(HOME + table_id)
        origins = [s.origin for s in self.servers]
        named = origin.decode() if isinstance(origin, bytes) else None
        return origins.index(named) if named in origins else None


@dataclass
class Made:
    """A table the benchmark made: its id, the client's copy of its game, its seats' tokens,
    its game's name, and the index of the server it was made on."""

    id: str
    state: GameState
    tokens: list[str]
    game: str
    home: int


async def open_page(
    server: Server,
    table: str,
    tokens: list[str],
    figures: Figures,
    among: list[Server] | None = None,
) -> Page:
    """A page at the table on ``server`` (landed_page), opened again, as a page does, when
    its socket is closed before its first state (a table whose home is changing sends its
    pages to reconnect: web.homes), up to REOPENING times; each such is counted."""
    for _ in range(REOPENING - 1):
        try:
            return await landed_page(server, table, tokens, figures, among)
        except PageError:
            figures.reopened += 1
    return await landed_page(server, table, tokens, figures, among)


async def landed_page(
    server: Server,
    table: str,
    tokens: list[str],
    figures: Figures,
    among: list[Server] | None = None,
) -> Page:
    """A page at the table on ``server``: where its socket lands is read from the header
    the process answers with (bench.serving); on a port the processes share (``among``),
    a socket that landed on another is closed and opened again, up to PLACING times."""
    among = among or [server]
    for tries in range(1, PLACING + 1):
        ws = await websockets.connect(
            f"ws://{HOST}:{server.port}/ws/tables/{table}", max_size=None, open_timeout=60
        )
        assert ws.response is not None
        origin = ws.response.headers.get(PROCESS_HEADER, "")
        landed = next((s for s in among if s.origin == origin), server)
        if landed is server:
            break
        if tries == PLACING:  # (kept where it landed: a busy process accepts less often)
            figures.misplaced += 1
            break
        await ws.close()
    page = Page(ws, figures, landed)
    # What the server agreed to (permessage-deflate, or nothing): the bytes and the
    # server's memory per page depend on it.
    assert ws.response is not None
    figures.extensions.add(ws.response.headers.get("Sec-WebSocket-Extensions", ""))
    try:
        await ws.send(json.dumps({"type": "hello", "tokens": tokens}))
        await page.heard(0)  # the first state
    except websockets.ConnectionClosed:
        await page.close()
        raise PageError("closed") from None
    except PageError:
        await page.close()
        raise
    return page


def page_servers(
    servers_: list[Server], seats: int = SEATS, home: int = 0, per_seat: bool = False
) -> list[Server]:
    """Where a table's pages are, one server each: one page holding every seat, or (several
    servers, or ``per_seat``) one page per seat, seat i on the server ``home`` + i, so that
    with several servers every table has pages on two of them. The echo's clients open the
    same."""
    if len(servers_) == 1 and not per_seat:
        return servers_[:1]
    return [servers_[(home + i) % len(servers_)] for i in range(seats)]


async def open_pages(tables: Tables, made: Made, figures: Figures) -> list[Page]:
    """The table's pages (page_servers), each with the tokens of its seats."""
    where = page_servers(tables.servers, len(made.tokens), made.home, tables.per_seat)
    if len(where) == 1:
        return [await open_page(where[0], made.id, made.tokens, figures)]
    return [
        await open_page(server, made.id, [token], figures, tables.servers)
        for server, token in zip(where, made.tokens, strict=True)
    ]


class Start:
    """The start of a phase: every client connects, then all are let go at once, until the
    deadline (connecting is not measured)."""

    def __init__(self, clients: int, seconds: float) -> None:
        self.waiting = clients
        self.seconds = seconds
        self.connected = asyncio.Event()
        self.go = asyncio.Event()
        self.deadline = 0.0

    async def arrive(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.connected.set()
        await self.go.wait()

    def release(self) -> None:
        self.deadline = time.perf_counter() + self.seconds
        self.go.set()

    def over(self) -> bool:
        return time.perf_counter() >= self.deadline


async def drive_table(tables: Tables, rng: random.Random, figures: Figures, start: Start) -> None:
    """Play random legal moves at one table until the deadline, a new table after each
    finished game."""
    made = await asyncio.to_thread(tables.new)
    pages = await open_pages(tables, made, figures)
    state, home = made.state, tables.servers[made.home]
    await start.arrive()
    revision = 0
    try:
        while not start.over():
            actor = state.actor
            if actor is None:
                figures.games += 1
                for page in pages:
                    await page.close()
                made = await asyncio.to_thread(tables.new)
                pages = await open_pages(tables, made, figures)
                state, home = made.state, tables.servers[made.home]
                revision = 0
                continue
            mover = pages[actor % len(pages)]
            try:
                if mover.revision < revision:
                    # The table as the other server last changed it.
                    await mover.heard(revision)
                action = state.action_space().sample(rng)
                text = str(action)
                state.push(action)
                message = {
                    "type": "act",
                    "seat": actor,
                    "action": text,
                    "revision": revision,
                    "id": f"m{revision}",
                }
                raw = json.dumps(message)
                sent = time.perf_counter()
                await mover.ws.send(raw)
                figures.moves_sent += 1
                figures.sent_bytes += len(raw)
                answer = await mover.heard(revision + 1)
                figures.latencies.append(answer - sent)
                figures.answered.append(answer)
                for page in pages:
                    delay = (
                        answer - sent if page is mover else await page.heard(revision + 1) - sent
                    )
                    if page is not mover:
                        figures.crossings.append(delay)
                    at_home = page.server is home
                    (figures.same_process if at_home else figures.cross_process).append(delay)
            except PageError as exc:
                figures.error(str(exc))
                return
            except websockets.ConnectionClosed as exc:  # (its code: 1012, sent elsewhere)
                figures.error(closed(exc))
                return
            except TimeoutError:
                figures.error("timeout")
                return
            revision += 1
    finally:
        for page in pages:
            await page.close()


def echo_text(size: int, n: int) -> str:
    """A message of about ``size`` bytes, shaped like an act."""
    head = json.dumps({"type": "act", "seat": 0, "action": "x", "revision": n, "id": f"m{n}"})
    return head[:-1] + ', "pad": "' + "x" * max(0, size - len(head) - 11) + '"}'


async def drive_echo(
    servers_: list[Server],
    size: int,
    figures: Figures,
    start: Start,
    home: int = 0,
    per_seat: bool = False,
) -> None:
    """One client of the echo, standing for one table (made on server ``home``): the sockets
    its pages would be (page_servers), each message of ``size`` bytes sent on the next of
    them in turn (as the seats take turns to move) and its echo awaited there, and again."""
    sockets: list[tuple[Server, ClientConnection]] = []
    try:
        for server in page_servers(servers_, home=home, per_seat=per_seat):
            ws = await websockets.connect(
                f"ws://{HOST}:{server.port}{ECHO_PATH}", max_size=None, open_timeout=60
            )
            sockets.append((server, ws))
            figures.opened(server)
        await start.arrive()
        n = 0
        while not start.over():
            _, ws = sockets[n % len(sockets)]
            text = echo_text(size, n)
            sent = time.perf_counter()
            await ws.send(text)
            figures.sent_bytes += len(text)
            try:
                async with asyncio.timeout(ANSWER_SECONDS):
                    raw = await ws.recv()
            except (TimeoutError, websockets.ConnectionClosed):
                figures.error("echo")
                return
            answer = time.perf_counter()
            figures.latencies.append(answer - sent)
            figures.answered.append(answer)
            figures.moves_sent += 1
            figures.messages += 1
            figures.message_bytes += len(raw)
            n += 1
    finally:
        for server, ws in sockets:
            await ws.close()
            figures.closed(server)


@dataclass
class Phase:
    figures: Figures
    seconds: float  # from the start to the last answer (the moves sent before the deadline)
    in_window: int  # the moves answered before the deadline
    server_cpu: float  # seconds, every server process
    loop_cpu: float  # seconds, every server process's event loop thread
    client_cpu: float  # seconds, this process
    rss_mb: float  # the servers' memory at the end of the phase
    connected_rss_mb: float  # and as its measured seconds began, every page connected
    sockets: list[int]  # the sockets open on each server as the measured seconds began
    machine_busy: float  # the share of the machine's cores busy in the phase (0–1)
    loop_waited: float  # seconds the servers' event loops waited for a core, summed
    commits: list[dict[str, Any]] = field(default_factory=list)  # each server's, if asked


async def phase(
    servers_: list[Server],
    clients: list[Any],
    start: Start,
    figures: Figures,
    profiled: bool = False,
    commits: bool = False,
) -> Phase:
    """Run the clients (coroutines that arrive at ``start``) together and measure them from
    the moment all are connected; ``profiled``: the servers' cProfile (bench.serving) runs
    for these measured seconds alone; ``commits``: each server's group commits in them are
    read (web.commits)."""
    tasks = [asyncio.ensure_future(c) for c in clients]
    connected = asyncio.ensure_future(start.connected.wait())
    await asyncio.wait([connected, *tasks], return_when=asyncio.FIRST_COMPLETED)
    for task in tasks:
        failed = task.exception() if task.done() else None
        if failed is not None:
            raise failed  # a table or page that could not be set up
    await connected
    # What the pages heard while connecting (welcome, first state, presence) is not a move's.
    figures.messages = figures.message_bytes = 0
    if commits:
        for server in servers_:
            post(server.url + COMMITS_PATH, {})  # (reset: the set-up's writes are not play's)
    connected_rss = sum(s.rss_mb() for s in servers_)
    cpu = sum(s.cpu_seconds() for s in servers_)
    loop = sum(s.cpu_seconds(loop=True) for s in servers_)
    own = time.process_time()
    waited = sum(s.waited_for_cpu() for s in servers_)
    busy, ticks = machine_cpu()
    sockets = [figures.sockets.get(server.process.pid, 0) for server in servers_]
    began = time.perf_counter()
    if profiled:
        for server in servers_:
            server.process.send_signal(PROFILE_ON)
    start.release()
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - began
    if profiled:
        for server in servers_:
            server.process.send_signal(PROFILE_OFF)
    # The loop thread is read after the process at the start and before it at the end, so
    # that its span lies within the process's: the thread's CPU never counts more than the
    # process's (the echo's loop does nearly all of its process's work).
    loop = sum(s.cpu_seconds(loop=True) for s in servers_) - loop
    cpu = sum(s.cpu_seconds() for s in servers_) - cpu
    waited = sum(s.waited_for_cpu() for s in servers_) - waited
    busy_now, ticks_now = machine_cpu()
    return Phase(
        figures,
        elapsed,
        sum(1 for t in figures.answered if t <= start.deadline),
        cpu,
        loop,
        time.process_time() - own,
        sum(s.rss_mb() for s in servers_),
        connected_rss,
        sockets,
        (busy_now - busy) / max(1, ticks_now - ticks),
        waited,
        [post(server.url + COMMITS_PATH, {}) for server in servers_] if commits else [],
    )


def closed(exc: websockets.ConnectionClosed) -> str:
    """A socket the server closed, as an error: with its close code, if it sent one."""
    return f"closed {exc.rcvd.code if exc.rcvd else ''}".strip()


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


async def measure(
    servers_: list[Server],
    tables: int,
    seconds: float,
    seed: int,
    profiled: bool = False,
    per_seat: bool = False,
    redis_url: str | None = None,
) -> dict[str, Any]:
    """The closed loop's figures on these servers, the play's and then the echo's
    (``per_seat``: a page for every seat, on one server too; ``redis_url``: where the
    servers name each table's home)."""
    idle = sum(s.rss_mb() for s in servers_)
    made = Tables(servers_, random.Random(seed), per_seat=per_seat, redis_url=redis_url)
    play = Figures()
    rngs = [random.Random(seed * 7919 + i) for i in range(tables)]
    start = Start(tables, seconds)
    moves = await phase(
        servers_,
        [drive_table(made, rngs[i], play, start) for i in range(tables)],
        start,
        play,
        profiled,
        commits=True,
    )
    # The echo is sent what the table was: messages of an act's size.
    size = max(1, play.sent_bytes // max(1, play.moves_sent))
    echo = Figures()
    start = Start(tables, seconds)
    echoed = await phase(
        servers_,
        [
            drive_echo(servers_, size, echo, start, i % len(servers_), per_seat)
            for i in range(tables)
        ],
        start,
        echo,
    )
    done = len(play.latencies)
    # Rates count what was answered within the measured seconds (the moves still waiting
    # at the deadline are answered after it: their latency counts, not their rate).
    echo_rate = echoed.in_window / seconds
    rate = moves.in_window / seconds
    echo_p99 = percentile(echo.latencies, 99)
    cpu_per_move = moves.server_cpu * 1000 / max(1, done)
    client_per_move = moves.client_cpu * 1000 / max(1, done)
    cores = len(os.sched_getaffinity(0))
    # The moves/s at which the servers' and the client's CPU a move would keep every core
    # busy: no scheduling does better (PostgreSQL's and Redis's own CPU, not counted, only
    # lowers it). Over the echo's rate, the best ratio to the echo this CPU a move allows.
    ceiling = cores * 1000 / (cpu_per_move + client_per_move) if done else 0.0
    result: dict[str, Any] = {
        "moves_per_s": round(rate, 1),
        "p50_ms": ms(percentile(play.latencies, 50)),
        "p95_ms": ms(percentile(play.latencies, 95)),
        "p99_ms": ms(percentile(play.latencies, 99)),
        "errors": play.errors,
        "cpu_ms_per_move": round(cpu_per_move, 3),
        "loop_cpu_ms_per_move": round(moves.loop_cpu * 1000 / max(1, done), 3),
        "client_cpu_ms_per_move": round(client_per_move, 3),
        "rss_above_idle_mb": round(moves.rss_mb - idle, 1),
        # The "500 live tables, one page each" before any move: the tables made and
        # their pages connected (each has its first state), nothing played yet.
        "pages_rss_above_idle_mb": round(moves.connected_rss_mb - idle, 1),
        "echo_moves_per_s": round(echo_rate, 1),
        "echo_p99_ms": ms(echo_p99),
        "echo_p50_ms": ms(percentile(echo.latencies, 50)),
        "echo_errors": echo.errors,
        "echo_cpu_ms_per_message": round(echoed.server_cpu * 1000 / max(1, len(echo.latencies)), 3),
        "echo_loop_cpu_ms_per_message": round(
            echoed.loop_cpu * 1000 / max(1, len(echo.latencies)), 3
        ),
        "echo_client_cpu_ms_per_message": round(
            echoed.client_cpu * 1000 / max(1, len(echo.latencies)), 3
        ),
        "cores": cores,
        "cpu_ceiling_moves_per_s": round(ceiling, 1),
        "ceiling_ratio_moves_to_echo": round(ceiling / echo_rate, 4) if echo_rate else None,
        "machine_busy_pct": round(moves.machine_busy * 100, 1),
        "echo_machine_busy_pct": round(echoed.machine_busy * 100, 1),
        # Of each server's event loop's time in the phase (the mean of the servers').
        "loop_waiting_for_cpu_pct": round(
            moves.loop_waited / moves.seconds / len(servers_) * 100, 1
        ),
        "echo_loop_waiting_for_cpu_pct": round(
            echoed.loop_waited / echoed.seconds / len(servers_) * 100, 1
        ),
        "moves": done,
        "games_finished": play.games,
        "tables_made": made.made,
        "seconds": seconds,
        "seconds_to_last_answer": round(moves.seconds, 2),
        "servers": len(servers_),
        # The load each phase put on the servers: the sockets open as it began, per server.
        "sockets": sum(moves.sockets),
        "echo_sockets": sum(echoed.sockets),
        "sockets_per_server": moves.sockets,
        "echo_sockets_per_server": echoed.sockets,
        "bytes_per_message": round(play.message_bytes / max(1, play.messages), 1),
        "messages_per_move": round(play.messages / max(1, done), 2),
        "bytes_per_act": round(play.sent_bytes / max(1, play.moves_sent), 1),
        "echo_bytes_per_message": round(echo.message_bytes / max(1, echo.messages), 1),
        "ws_extensions": ", ".join(sorted(play.extensions)),
        "error_codes": play.error_codes,
        "idle_rss_mb": round(idle, 1),
        "ratio_moves_to_echo": round(rate / echo_rate, 4) if echo_rate else None,
        "ratio_p99_to_echo": round(percentile(play.latencies, 99) / echo_p99, 2)
        if echo_p99
        else None,
    }
    # The servers' group commits in the play (web.commits): the groups, summed; the
    # timings, the slowest server's.
    result |= {
        "event_loop": moves.commits[0]["event_loop"],  # (every server's is the same)
        "commit_groups": sum(c["groups"] for c in moves.commits),
        "writes_per_commit": max(c["writes_per_group"] for c in moves.commits),
        **{
            key: max(c[key] for c in moves.commits)
            for key in (
                "commit_p50_ms",
                "commit_p99_ms",
                "write_p50_ms",
                "write_p99_ms",
                "writer_cpu_us_per_write",
            )
        },
    }
    result |= process_figures(play.same_process, play.cross_process)
    result["misplaced_pages"] = play.misplaced
    result["reopened_pages"] = play.reopened
    if len(servers_) > 1:
        cross_p99 = percentile(play.crossings, 99)
        result |= {
            "cross_p50_ms": ms(percentile(play.crossings, 50)),
            "cross_p95_ms": ms(percentile(play.crossings, 95)),
            "cross_p99_ms": ms(cross_p99),
            "ratio_cross_p99_to_echo": round(cross_p99 / echo_p99, 2) if echo_p99 else None,
        }
    return result


def process_figures(same_process: list[float], cross_process: list[float]) -> dict[str, Any]:
    """The p99 of a move seen on a page on its home process (latencies in seconds), and on
    another (None: no page was on another), and their ratio."""
    same = percentile(same_process, 99)
    cross = percentile(cross_process, 99) if cross_process else None
    return {
        "same_process_p99_ms": ms(same),
        "cross_process_p99_ms": None if cross is None else ms(cross),
        "ratio_cross_to_same_p99": round(cross / same, 3) if cross is not None and same else None,
    }


@dataclass(frozen=True)
class Setup:
    """How the benchmark's servers are started, whatever their number: their database (None:
    SQLite in the run's temporary folder) and Redis, SQLite's ``synchronous``, and the first
    server's cProfile (file and clock, bench.serving)."""

    database_url: str | None = None
    redis_url: str | None = None
    synchronous: str = "FULL"
    profile: Path | None = None
    profile_clock: str = "wall"

    def check(self, processes: int, option: str, postgres: bool = True) -> None:
        """Several processes find each table's home through Redis (web.homes), and servers
        of their own (``postgres``) share PostgreSQL; the workers of one machine may share
        a SQLite file (web.pool)."""
        url = self.database_url or ""
        if processes > 1 and not self.redis_url:
            raise RulesError(
                f"{option} above 1 needs --redis-url (the processes find each table's home"
                " through it)"
            )
        if processes > 1 and postgres and not url.startswith("postgres"):
            raise RulesError(
                f"{option} above 1 needs a PostgreSQL --database-url (servers of their own"
                " share it)"
            )


# A measure on these servers (``True``: the first one profiled, if the setup asks).
Measure = Callable[[list[Server], bool], Coroutine[Any, Any, dict[str, Any]]]


def on_servers(
    setup: Setup, count: int, measure_: Measure, shared: bool = False, profiled: bool = True
) -> dict[str, Any]:
    """``measure_``'s figures on ``count`` fresh server processes (``shared``: on one port,
    as ``gamenight serve --workers N``'s), with the servers' logged tracebacks and, on
    SQLite, its ``synchronous``; ``profiled``: if the setup asks for a profile."""
    with tempfile.TemporaryDirectory(prefix="gamenight-bench-") as name:
        folder = Path(name)
        url = setup.database_url or f"sqlite:///{folder / 'gamenight.sqlite3'}"
        profile = setup.profile if profiled else None
        with servers(
            count,
            url,
            setup.redis_url,
            profile,
            folder,
            setup.synchronous,
            setup.profile_clock,
            shared,
        ) as started:
            result = asyncio.run(measure_(started, profile is not None))
        # (the servers have stopped, and written all they will)
        logged = "".join(log.read_text(errors="replace") for log in sorted(folder.glob("*.log")))
    if url.startswith("sqlite"):
        result["sqlite_synchronous"] = setup.synchronous
    # Errors the servers logged (a failed write, an unexpected exception), beside the ones
    # the pages were told of.
    result["server_tracebacks"] = logged.count("Traceback")
    # Tables whose home lost its lease to another process mid-run (web.homes logs each):
    # their pages were sent to reconnect.
    result["homes_lost"] = logged.count("was taken by another process")
    return result


def workers_compared(setup: Setup, workers: int, measure_: Measure) -> dict[str, Any]:
    """``measure_`` on one process, then on ``workers`` sharing one port as the workers of
    ``gamenight serve --workers N`` do (servers: ``shared``), on the same database and
    Redis: the second's figures, with the first's under ``one_worker``. Only the second is
    profiled."""
    one = on_servers(setup, 1, measure_, shared=True, profiled=False)
    result = on_servers(setup, workers, measure_, shared=True)
    result["one_worker"] = one
    return result


def compare(result: dict[str, Any], keys: tuple[str, ...]) -> None:
    """For each of ``keys``, the ratio of the run on every worker to the one on one
    (``ratio_KEY_to_one_worker``)."""
    for key in keys:
        mine, theirs = result[key], result["one_worker"][key]
        result[f"ratio_{key}_to_one_worker"] = round(mine / theirs, 4) if theirs else None


def over_processes(
    setup: Setup, servers_: int, workers: int, measure_: Measure, ratios: tuple[str, ...]
) -> dict[str, Any]:
    """``measure_``'s figures on ``servers_`` processes or, ``workers`` above 1, on one and
    then on ``workers`` (workers_compared), with the ratio to one worker of each of
    ``ratios``; and the machine's load as the run began (the machine is shared)."""
    setup.check(servers_, "--servers")
    setup.check(workers, "--workers", postgres=False)
    if servers_ > 1 and workers > 1:
        raise RulesError(
            "--servers and --workers are not given together (--workers N compares"
            " one process with N)"
        )
    load = os.getloadavg()[0]
    if workers > 1:
        result = workers_compared(setup, workers, measure_)
        compare(result, ratios)
    else:
        result = on_servers(setup, servers_, measure_)
    result["workers"] = workers
    result["load_average"] = round(load, 2)
    return result


def run(
    tables: int,
    seconds: float,
    servers_: int = 1,
    database_url: str | None = None,
    redis_url: str | None = None,
    profile: Path | None = None,
    seed: int = 2026,
    synchronous: str = "FULL",
    profile_clock: str = "wall",
    workers: int = 1,
) -> dict[str, Any]:
    """The figures of one run (see the module's docstring); ``profile``: the first server's
    cProfile statistics are written there, timed by ``profile_clock`` (bench.serving: wall
    or cpu); ``synchronous``: SQLite's PRAGMA synchronous (FULL or NORMAL,
    docs/reliability.md); ``workers`` above 1: the same measure on one process and then on
    ``workers`` (workers_compared), a page for every seat in both."""
    setup = Setup(database_url, redis_url, synchronous, profile, profile_clock)

    async def play(started: list[Server], profiled: bool) -> dict[str, Any]:
        return await measure(started, tables, seconds, seed, profiled, workers > 1, setup.redis_url)

    result = over_processes(setup, servers_, workers, play, ("moves_per_s",))
    if workers > 1:
        # The better of the two against its own echo (the bar of issue 28).
        result["best_ratio_moves_to_echo"] = max(
            r["ratio_moves_to_echo"] or 0.0 for r in (result, result["one_worker"])
        )
    return result
