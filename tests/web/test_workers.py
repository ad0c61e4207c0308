"""``gamenight serve --workers N`` (issue 28): N processes share one port and the tables;
a page plays whichever process its socket lands on; SIGINT or SIGTERM stops them all."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
import redis
from websockets.sync.client import connect

from gamenight.cli import main
from gamenight.web.views.centrix import notations

from .bodies import CENTRIX_2
from .test_homes import redis_url  # noqa: F401  (the fixture: a redis-server of its own)

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.chaos.processes import free_port, group_members


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "--workers above 1 needs GAMENIGHT_REDIS_URL"),
        (
            {"GAMENIGHT_DATABASE_URL": "memory://"},
            "--workers above 1 needs a database the processes share",
        ),
    ],
)
def test_several_workers_without_what_they_share_are_refused(
    env: dict[str, str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    monkeypatch.delenv("GAMENIGHT_REDIS_URL", raising=False)
    monkeypatch.delenv("GAMENIGHT_DATABASE_URL", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(["serve", "--workers", "2", "--data-dir", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err


@pytest.fixture
def pool(redis_url: str, tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:  # noqa: F811
    port = free_port()
    env = {
        **os.environ,
        "GAMENIGHT_REDIS_URL": redis_url,
        "GAMENIGHT_BOT_WORKERS": "1",
        "GAMENIGHT_DATABASE_URL": f"sqlite:///{tmp_path / 'g.sqlite3'}",
    }
    argv = [sys.executable, "-m", "gamenight", "serve", "--workers", "2", "--port", str(port)]
    child = subprocess.Popen(argv, env=env, start_new_session=True, stdout=subprocess.DEVNULL)
    base = f"127.0.0.1:{port}"
    try:
        with redis.Redis.from_url(redis_url) as db:
            deadline = time.monotonic() + 60
            while len(db.keys("gamenight:alive:*")) < 2:  # both workers listen
                assert child.poll() is None, "the pool exited"
                assert time.monotonic() < deadline, "the workers did not start"
                time.sleep(0.2)
        yield base, child
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()


def post(base: str, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        f"http://{base}{path}",
        json.dumps(body).encode(),
        {"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def next_state(ws: Any) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message["type"] in ("state", "change"):
            return message  # type: ignore[no-any-return]


def test_two_workers_share_a_port_and_a_table_and_stop_together(
    pool: tuple[str, subprocess.Popen[bytes]],
    redis_url: str,  # noqa: F811
) -> None:
    base, child = pool
    made = post(base, "/api/tables", CENTRIX_2)
    token = made["seats"][0]["token"]
    # Eight pages of Ann's: the kernel spreads their sockets over both workers; each plays.
    with ExitStack() as stack:
        pages = [
            stack.enter_context(connect(f"ws://{base}/ws/tables/{made['id']}")) for _ in range(8)
        ]
        for ws in pages:
            ws.send(json.dumps({"type": "hello", "tokens": [token]}))
        first = [next_state(ws) for ws in pages]
        assert {state["version"] for state in first} == {0}
        text = notations(first[-1]["view"]["legal"])[0]
        pages[-1].send(
            json.dumps({"type": "act", "seat": 0, "action": text, "revision": 0, "id": "a-1"})
        )
        for ws in pages:
            change = next_state(ws)
            assert change.get("diff", {}).get("version") == ["=", 1] or change["version"] == 1
    with redis.Redis.from_url(redis_url) as db:
        assert db.get(f"gamenight:home:{made['id']}") is not None  # one home
    # Ctrl+C reaches the whole group (SIGTERM, the parent alone, takes the same path).
    os.killpg(child.pid, signal.SIGINT)
    child.wait(30)
    assert child.returncode == 0
    deadline = time.monotonic() + 10
    while group_members({child.pid}):
        assert time.monotonic() < deadline, "a worker was left running"
        time.sleep(0.1)


def test_the_sqlite_benchmark_prints_each_process_count_measured(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "sqlite", "--processes", "1", "2", "--seconds", "0.5", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [row["processes"] for row in printed["runs"]] == [1, 2]
    assert all(row["moves_per_s"] > 0 and row["refused"] == 0 for row in printed["runs"])
    assert {"commit", "cpu", "machine", "load"} <= set(printed)
