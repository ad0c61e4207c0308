"""The processes a chaos run starts and kills: its own redis-server, its own PostgreSQL
database and the gamenight servers. Each child runs in a process group of its own, so that a
SIGKILL of the group takes the server with its bot worker, and the run can prove at the end
that nothing it started is left running."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO, ClassVar

import psycopg

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
HOST = "127.0.0.1"  # loopback only: a chaos run never listens on a LAN address


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def processes() -> Iterator[tuple[int, int, int, Path]]:
    """Every live process (zombies aside): its pid, parent's pid, group and /proc folder."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # gone meanwhile
        # The command name may hold spaces and parentheses: the fields follow the last ")".
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z":
            yield int(entry.name), int(fields[1]), int(fields[2]), entry


def group_members(pgids: set[int]) -> list[int]:
    """The live processes in any of the process groups ``pgids``."""
    return [pid for pid, _, group, _ in processes() if group in pgids]


def children(pid: int) -> list[tuple[int, str]]:
    """The processes whose parent is ``pid``, with their command lines."""
    found = []
    for child, parent, _, folder in processes():
        if parent == pid:
            with contextlib.suppress(OSError):
                cmdline = (folder / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                found.append((child, cmdline))
    return found


class Child:
    """A process in a session (and so a process group) of its own, its output in a log."""

    started: ClassVar[set[int]] = set()  # every group any Child ever led, for the final sweep

    def __init__(self, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.log: IO[bytes] = log.open("ab")
        self.proc = subprocess.Popen(
            argv,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.pgid = self.proc.pid
        Child.started.add(self.pgid)

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def signal_group(self, sig: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pgid, sig)

    def kill(self) -> None:
        """SIGKILL the whole group (a crash: no clean-up runs)."""
        self.signal_group(signal.SIGKILL)
        self.proc.wait()
        self.log.close()

    def stop(self, timeout: float = 8.0) -> None:
        """SIGTERM (an ordinary stop), then SIGKILL whatever of the group is still there."""
        self.signal_group(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout)
        self.kill()


def sweep() -> list[int]:
    """SIGKILL every process left in a group a Child led; returns the pids found."""
    left = group_members(Child.started)
    for pgid in Child.started:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)
    return left


class Redis:
    """A redis-server of the run's own, on a port of its own (restarted on the same port)."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.child: Child | None = None

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def start(self) -> None:
        argv = ["redis-server", "--port", str(self.port), "--bind", HOST, "--save", ""]
        argv += ["--appendonly", "no", "--dir", str(self.folder)]
        self.child = Child(argv, dict(os.environ), self.folder / "redis.log")

    def kill(self) -> None:
        if self.child is not None:
            self.child.kill()
            self.child = None

    async def wait_ready(self, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                reader, writer = await asyncio.open_connection(HOST, self.port)
                writer.write(b"PING\r\n")
                answer = await asyncio.wait_for(reader.readline(), 1)
                writer.close()
                if answer.startswith(b"+PONG"):
                    return
            except (OSError, TimeoutError):
                pass
            await asyncio.sleep(0.05)
        raise RuntimeError(f"redis-server on port {self.port} did not come up")


class Postgres:
    """A database of the run's own on the machine's PostgreSQL, dropped at the end."""

    def __init__(self, prefix: str = "gn_chaos_") -> None:
        self.name = f"{prefix}{secrets.token_hex(4)}"
        self.created = False

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@{HOST}:5432/{self.name}"

    def create(self) -> None:
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {self.name}")
        self.created = True

    def drop(self) -> None:
        if self.created:
            with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
                admin.execute(f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")
            self.created = False


class Server:
    """One ``python -m gamenight serve`` process on a fixed loopback port (a restart reuses
    it, so pages reconnect to the same address)."""

    def __init__(self, name: str, env: dict[str, str], folder: Path) -> None:
        self.name = name
        self.port = free_port()
        self.env = env
        self.folder = folder
        self.child: Child | None = None
        self.starts = 0

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def up(self) -> bool:
        return self.child is not None and self.child.alive

    def start(self) -> None:
        argv = [sys.executable, "-m", "gamenight", "serve", "--host", HOST]
        argv += ["--port", str(self.port)]
        self.starts += 1
        self.child = Child(argv, self.env, self.folder / f"{self.name}.log")

    async def start_ready(self) -> None:
        """Start the server and wait until it answers. A port another process took
        meanwhile (free_port's port is free only when it is asked) is exchanged for another."""
        for _ in range(3):
            self.start()
            try:
                await self.wait_ready()
                return
            except RuntimeError:
                if "address already in use" not in self.log_tail().lower():
                    raise
            self.port = free_port()
        raise RuntimeError(f"server {self.name} found no free port")

    def log_tail(self) -> str:
        try:
            return (self.folder / f"{self.name}.log").read_text(errors="replace")[-2000:]
        except OSError:
            return ""

    async def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.child is None or not self.child.alive:
                raise RuntimeError(f"server {self.name} exited:\n{self.log_tail()}")
            try:
                status = await asyncio.to_thread(http_status, f"{self.base}/", 1.0)
                if status == 200:
                    return
            except OSError:
                pass
            await asyncio.sleep(0.1)
        raise RuntimeError(f"server {self.name} did not answer within {timeout} s")

    def crash(self) -> None:
        if self.child is not None:
            self.child.kill()
            self.child = None

    def stop(self) -> None:
        if self.child is not None:
            self.child.stop()
            self.child = None

    def bot_workers(self) -> list[int]:
        """The server's bot worker processes (its multiprocessing descendants that are not
        the resource tracker or a fork server)."""
        if self.child is None:
            return []
        found, parents = [], [self.child.proc.pid]
        while parents:  # descendants: a forkserver's workers are its children
            for pid, cmdline in children(parents.pop()):
                parents.append(pid)
                if "multiprocessing" in cmdline and not any(
                    helper in cmdline for helper in ("resource_tracker", "forkserver")
                ):
                    found.append(pid)
        return found


def http_status(url: str, timeout: float) -> int:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
