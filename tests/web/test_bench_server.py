"""``gamenight bench server`` (issue 20): a brief run of the benchmark that stays.

Checks what the run reports and that it played without errors — never how fast (speed is
the command's figures, docs/benchmarks.md)."""

from __future__ import annotations

import json
import os
import pstats
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gamenight.bench.serving import ECHO_PATH, bench_app
from gamenight.cli import main
from gamenight.core.errors import RulesError
from gamenight.web.app import create_app
from gamenight.web.settings import Settings

from .hosts import TEST_HOSTS
from .postgres import postgres_database

KEYS = {
    "moves_per_s",
    "p50_ms",
    "p95_ms",
    "p99_ms",
    "errors",
    "cpu_ms_per_move",
    "client_cpu_ms_per_move",
    "rss_above_idle_mb",
    "echo_moves_per_s",
    "echo_p99_ms",
}


def test_a_brief_run_reports_every_figure_and_plays_without_errors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "server", "--tables", "4", "--seconds", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) >= KEYS
    assert result["errors"] == 0, result["error_codes"]
    assert result["echo_errors"] == 0
    assert result["moves"] > 0
    assert result["echo_moves_per_s"] > 0
    assert result["cpu_ms_per_move"] > 0
    # The event loop's thread alone (the rest: the writer, the threads off the loop). The
    # kernel counts a thread's and a process's CPU each in clock ticks, rounded apart, and
    # the echo's loop does nearly all its process's work: the two may differ by a tick or
    # two, and the figures are rounded to µs.
    tick_ms = 1000 / os.sysconf("SC_CLK_TCK")
    echoed = result["echo_moves_per_s"] * result["seconds"]
    slack, echo_slack = 2 * tick_ms / result["moves"] + 1e-3, 2 * tick_ms / echoed + 1e-3
    assert 0 < result["loop_cpu_ms_per_move"] <= result["cpu_ms_per_move"] + slack
    assert result["echo_loop_cpu_ms_per_message"] > 0
    assert result["echo_loop_cpu_ms_per_message"] <= result["echo_cpu_ms_per_message"] + echo_slack
    assert result["bytes_per_message"] > 0
    # The memory of the tables and their pages alone, before the play (as the run's start
    # reads it: every page connected), beside the memory after the play.
    assert isinstance(result["pages_rss_above_idle_mb"], float)
    assert result["sqlite_synchronous"] == "FULL"
    # The play's writes, in the server's group commits (web.commits).
    assert result["commit_groups"] > 0
    assert result["writes_per_commit"] >= 1
    assert 0 < result["commit_p50_ms"] <= result["commit_p99_ms"]
    # No permessage-deflate: its contexts cost the server memory for every open page.
    assert result["ws_extensions"] == ""
    # The server's loop, as ``gamenight serve`` runs it: uvloop, which is not on Windows.
    assert result["event_loop"] == ("asyncio" if sys.platform == "win32" else "uvloop")
    # What the machine's cores allow, the bars being ratios to the echo: the moves/s at which
    # the play's CPU a move, the servers' and the client's, would keep every core busy.
    cores = len(os.sched_getaffinity(0))
    assert result["cores"] == cores
    spent = result["cpu_ms_per_move"] + result["client_cpu_ms_per_move"]
    assert result["cpu_ceiling_moves_per_s"] == pytest.approx(cores * 1000 / spent, rel=0.01)
    assert result["ceiling_ratio_moves_to_echo"] == pytest.approx(
        result["cpu_ceiling_moves_per_s"] / result["echo_moves_per_s"], rel=0.01
    )
    assert result["echo_client_cpu_ms_per_message"] > 0
    # How busy the machine's cores were in each phase, and how long the servers' event
    # loops waited for a core when they had work.
    assert 0 < result["machine_busy_pct"] <= 100
    assert 0 < result["echo_machine_busy_pct"] <= 100
    assert 0 <= result["loop_waiting_for_cpu_pct"] <= 100
    assert 0 <= result["echo_loop_waiting_for_cpu_pct"] <= 100


def test_the_servers_sqlite_may_be_run_with_synchronous_normal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["bench", "server", "--tables", "2", "--seconds", "1", "--json"]
    assert main([*argv, "--sqlite-synchronous", "normal"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["sqlite_synchronous"] == "NORMAL"
    assert result["errors"] == 0, result["error_codes"]


def test_two_servers_split_each_table_and_the_echo_alike_and_measure_the_crossing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with postgres_database("gamenight_bench_") as database:
        argv = ["bench", "server", "--tables", "2", "--seconds", "2", "--servers", "2"]
        argv += ["--database-url", database, "--redis-url", "redis://127.0.0.1:6379/0", "--json"]
        assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["errors"] == 0, result["error_codes"]
    assert result["servers"] == 2
    assert result["moves"] > 0
    assert result["cross_p99_ms"] > 0
    # The echo is the same load as the play: one socket per seat's page, each table's
    # pages split over the two servers (so the ratios compare like with like).
    assert result["sockets"] == 4
    assert (result["echo_sockets"], result["echo_sockets_per_server"]) == (
        result["sockets"],
        result["sockets_per_server"],
    )
    assert result["sockets_per_server"] == [2, 2]


def test_two_servers_need_postgresql_and_redis() -> None:
    from gamenight.bench.server import run

    with pytest.raises(RulesError, match="--redis-url"):
        run(2, 1.0, servers_=2)


def echo_once(client: TestClient) -> str:
    with client.websocket_connect(ECHO_PATH) as ws:
        ws.send_text("hello")
        return ws.receive_text()


def test_the_echo_is_on_the_benchmarks_servers_alone(tmp_path: Path) -> None:
    settings = Settings(f"sqlite:///{tmp_path / 'g.sqlite3'}", allowed_hosts=TEST_HOSTS)
    with TestClient(bench_app(settings)) as bench:
        assert echo_once(bench) == "hello"
    with TestClient(create_app(settings)) as normal, pytest.raises(WebSocketDisconnect):
        echo_once(normal)


def test_the_profile_may_time_the_loop_thread_s_cpu(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    profile = tmp_path / "loop.prof"
    argv = ["bench", "server", "--tables", "2", "--seconds", "1", "--json"]
    assert main([*argv, "--profile", str(profile), "--profile-clock", "cpu"]) == 0
    assert json.loads(capsys.readouterr().out)["errors"] == 0
    stats = pstats.Stats(str(profile))
    assert stats.total_tt > 0  # type: ignore[attr-defined]
    assert any("referee.py" in where[0] for where in stats.stats)  # type: ignore[attr-defined]
