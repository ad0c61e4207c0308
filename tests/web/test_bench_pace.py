"""``gamenight bench server --workers N`` and ``--pace S`` (issue 28): brief runs that check
what they report and that it is consistent — never how fast (docs/benchmarks.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gamenight.bench.pace import next_count
from gamenight.bench.server import Setup, run
from gamenight.cli import main
from gamenight.core.errors import RulesError

from .postgres import postgres_database

REDIS = "redis://127.0.0.1:6379/0"
STEP_KEYS = {
    "tables",
    "offered_moves_per_s",
    "moves_per_s",
    "moves",
    "p50_ms",
    "p99_ms",
    "same_process_p99_ms",
    "cross_process_p99_ms",
    "ratio_cross_to_same_p99",
    "errors",
    "cpu_ms_per_move",
    "held",
}


def bench(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["bench", "server", *argv, "--json"]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def check_ramp(result: dict[str, Any], most: int) -> None:
    """A ramp's figures: every step's, and the most tables held among them (if any: a
    machine busy enough keeps even two tables above 100 ms)."""
    assert result["errors"] == 0, result["error_codes"]
    assert result["curve"], "no step was measured"
    for step in result["curve"]:
        assert set(step) == STEP_KEYS
        # (None where no page was off its table's home: one process)
        optional = {"cross_process_p99_ms", "ratio_cross_to_same_p99"}
        assert all(number(step[k]) for k in STEP_KEYS - {"held", *optional})
        assert all(step[k] is None or number(step[k]) for k in optional)
        assert 1 <= step["tables"] <= most
        assert step["p50_ms"] <= step["p99_ms"]
        assert step["held"] == (step["errors"] == 0 and step["moves"] > 0 and step["p99_ms"] <= 100)
    held = [s["tables"] for s in result["curve"] if s["held"]]
    assert result["tables_held_at_p99_100ms"] == max(held, default=0)
    if held:
        assert number(result["held_moves_per_s"])
        assert result["held_moves_per_s"] > 0
        assert result["held_p99_ms"] <= 100


def test_the_open_loop_reports_the_most_tables_held(capsys: pytest.CaptureFixture[str]) -> None:
    result = bench(capsys, "--pace", "0.5", "--tables", "2", "--seconds", "1", "--max-tables", "3")
    assert result["pace_s"] == 0.5
    assert result["workers"] == 1
    assert "one_worker" not in result
    check_ramp(result, 3)
    # A move every half second at two or three tables, on a loopback server: held.
    assert result["tables_held_at_p99_100ms"] > 0
    # The ramp goes from --tables up (2, then 3: 2 × 1.5), and no further than --max-tables.
    assert [s["tables"] for s in result["curve"]] == [2, 3]
    # One process: no page is on another.
    assert all(s["cross_process_p99_ms"] is None for s in result["curve"])
    assert result["server_tracebacks"] == 0


def test_the_ramp_grows_until_a_step_fails_then_bisects() -> None:
    assert next_count(held=0, failed=None, count=10, ramp=1.5, most=100) == 15
    assert next_count(held=0, failed=None, count=2, ramp=1.2, most=100) == 3  # (at least +1)
    assert next_count(held=0, failed=None, count=90, ramp=1.5, most=100) == 100
    assert next_count(held=100, failed=None, count=100, ramp=1.5, most=100) is None
    # Then between the most held and the fewest failed, geometrically.
    assert next_count(held=100, failed=400, count=400, ramp=1.5, most=1000) == 200
    assert next_count(held=0, failed=8, count=8, ramp=1.5, most=100) == 4
    assert next_count(held=10, failed=11, count=11, ramp=1.5, most=100) is None


def test_workers_need_redis_and_servers_of_their_own_postgresql() -> None:
    with pytest.raises(RulesError, match="--workers above 1 needs --redis-url"):
        run(2, 1.0, workers=2)
    sqlite = Setup(database_url="sqlite:///x.sqlite3", redis_url=REDIS)
    with pytest.raises(RulesError, match="PostgreSQL"):
        sqlite.check(2, "--servers")
    # The workers of one machine may share a SQLite file (web.pool).
    sqlite.check(2, "--workers", postgres=False)


def test_workers_compare_one_process_with_two_in_the_same_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with postgres_database("gamenight_bench_") as database:
        argv = ("--tables", "2", "--seconds", "1", "--workers", "2")
        result = bench(capsys, *argv, "--database-url", database, "--redis-url", REDIS)
    one = result["one_worker"]
    assert (result["workers"], result["servers"], one["servers"]) == (2, 2, 1)
    for r in (result, one):
        assert r["errors"] == 0, r["error_codes"]
        assert r["moves"] > 0
        assert r["echo_moves_per_s"] > 0
        assert number(r["same_process_p99_ms"])
        assert r["same_process_p99_ms"] > 0
    # The same pages in both runs, a page for every seat: on one process, or each table's
    # two pages on both.
    assert one["sockets_per_server"] == [4]
    assert result["sockets_per_server"] == [2, 2]
    # Each table's pages are on both processes (a shared port: each socket's process read
    # from its handshake), so its moves are seen off its home.
    assert one["cross_process_p99_ms"] is None
    assert result["cross_process_p99_ms"] > 0
    assert isinstance(result["misplaced_pages"], int)
    assert isinstance(result["homes_lost"], int)
    assert result["ratio_cross_to_same_p99"] == pytest.approx(
        result["cross_process_p99_ms"] / result["same_process_p99_ms"], abs=0.01
    )
    assert result["ratio_moves_per_s_to_one_worker"] == pytest.approx(
        result["moves_per_s"] / one["moves_per_s"], rel=0.01
    )
    assert result["best_ratio_moves_to_echo"] == max(
        result["ratio_moves_to_echo"], one["ratio_moves_to_echo"]
    )


def test_the_open_loop_compares_one_process_with_two(capsys: pytest.CaptureFixture[str]) -> None:
    with postgres_database("gamenight_bench_") as database:
        argv = ["--pace", "0.5", "--tables", "2", "--seconds", "1", "--max-tables", "2"]
        argv += ["--workers", "2", "--database-url", database, "--redis-url", REDIS]
        result = bench(capsys, *argv)
    one = result["one_worker"]
    check_ramp(result, 2)
    check_ramp(one, 2)
    assert (result["servers"], one["servers"]) == (2, 1)
    if one["tables_held_at_p99_100ms"]:
        assert result["ratio_tables_held_at_p99_100ms_to_one_worker"] == pytest.approx(
            result["tables_held_at_p99_100ms"] / one["tables_held_at_p99_100ms"], rel=1e-3
        )
    else:
        assert result["ratio_tables_held_at_p99_100ms_to_one_worker"] is None
    # Each table's pages on both processes: its moves are seen on the other one too.
    assert all(number(s["cross_process_p99_ms"]) for s in result["curve"] if s["moves"])
