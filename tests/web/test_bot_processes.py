"""A server stopped in any way leaves no process behind: its bot workers and
multiprocessing's resource tracker go with it (issue 14, finding 13)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
# Two planners (level 5): each decision keeps a worker busy for a while.
PLANNERS = {"game": "centrix", "seats": [{"kind": "bot", "level": 5}] * 2, "seed": 3}


def processes() -> dict[int, tuple[int, str, bytes]]:
    """Every live process: pid → (parent pid, start time, command line)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if fields[0] not in ("Z", "X"):  # a zombie is dead
            found[int(entry.name)] = (int(fields[1]), fields[19], cmdline)
    return found


def descendants(root: int) -> dict[int, tuple[str, bytes]]:
    """The processes whose parent chain leads to ``root``: pid → (start time, cmdline)."""
    table = processes()
    family, grown = {root}, True
    while grown:
        more = {pid for pid, (parent, _, _) in table.items() if parent in family}
        grown = bool(more - family)
        family |= more
    return {pid: table[pid][1:] for pid in family - {root} if pid in table}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def server(tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A real ``gamenight serve`` on 127.0.0.1 with a bot-only table whose bots are thinking."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(SRC), "GAMENIGHT_DATABASE_URL": ""}
    process = subprocess.Popen(
        [sys.executable, "-m", "gamenight", "serve", "--port", str(port), "--data-dir", tmp_path],
        env=env,
        stdout=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/tables", timeout=5).close()
                break
            except OSError:
                assert process.poll() is None, "the server did not start"
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)
        request = urllib.request.Request(
            f"{base}/api/tables",
            json.dumps(PLANNERS).encode(),
            {"Content-Type": "application/json"},
        )
        urllib.request.urlopen(request, timeout=10).close()
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()


def workers_of(process: subprocess.Popen[bytes]) -> dict[int, tuple[str, bytes]]:
    """The server's bot worker and resource tracker, once both are up."""
    deadline = time.monotonic() + 60
    while True:
        family = descendants(process.pid)
        lines = [cmdline for _, cmdline in family.values()]
        if any(b"spawn_main" in c for c in lines) and any(b"resource_tracker" in c for c in lines):
            return family
        assert time.monotonic() < deadline, f"no bot worker started: {lines}"
        time.sleep(0.1)


def wait_gone(family: dict[int, tuple[str, bytes]], seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while True:
        now = processes()
        # (a pid reused by an unrelated process since does not count: its start time differs)
        left = [cmd for pid, (start, cmd) in family.items() if pid in now and now[pid][1] == start]
        if not left:
            return
        assert time.monotonic() < deadline, f"left behind: {left}"
        time.sleep(0.1)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_a_stopped_server_leaves_no_process_behind(tmp_path: Path, stop: signal.Signals) -> None:
    with server(tmp_path) as process:
        family = workers_of(process)
        process.send_signal(stop)
        process.wait(timeout=60)
        wait_gone(family)
