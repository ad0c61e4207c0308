"""The bot runner: bots never stop, never wait forever, and exactly one server thinks for a
bot seat (issue 14, findings 4 and 5)."""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import gamenight.web.bots
from gamenight.core.errors import RulesError
from gamenight.web.app import create_app
from gamenight.web.bots import BotRunner, think
from gamenight.web.games import SeatSpec, get_game
from gamenight.web.quotas import Limits
from gamenight.web.relay import RedisRelay
from gamenight.web.settings import Settings
from gamenight.web.store import MemoryStore, StoredTable
from gamenight.web.store.sql import SqlStore
from gamenight.web.tables import TableManager

from . import thinkers
from .bodies import CENTRIX_BOTS
from .hosts import TEST_HOSTS
from .postgres import postgres_database
from .stores import stored
from .test_api import create, receive
from .test_scale_out import REDIS, hears_of


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def bot_workers() -> set[int]:
    """This process's children that are multiprocessing workers (the bots' pool)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == os.getpid() and b"spawn_main" in cmdline and alive(int(entry.name)):
            found.add(int(entry.name))
    return found


def all_gone(pids: set[int], seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while left := {pid for pid in pids if alive(pid)}:
        assert time.monotonic() < deadline, f"worker processes {left} still run"
        time.sleep(0.05)


def centrix_view(seed: int = 7) -> Any:
    state, _ = get_game("centrix").new(
        [SeatSpec("bot", "A", 3), SeatSpec("bot", "B", 1)], 0, {}, seed
    )
    return state.view(0)


def test_a_bot_that_overruns_its_limit_is_abandoned_and_plays_a_level_1_choice() -> None:
    view = centrix_view()
    runner = BotRunner(1, seconds=0.5, thinker=thinkers.stuck_above_level_2)

    async def run() -> tuple[str, set[int], str]:
        first = await runner.choose("centrix", view, 1, 5)  # the worker is up
        stuck = bot_workers()
        assert stuck
        abandoned = await runner.choose("centrix", view, 3, 5)
        return first, stuck, abandoned

    try:
        first, stuck, abandoned = asyncio.run(run())
        # The seat played what a level-1 bot chooses, and the wedged worker was killed ...
        assert abandoned == think("centrix", view, 1, 5) == first
        all_gone(stuck)
        # ... so the next decision has a worker to think in.
        assert asyncio.run(runner.choose("centrix", view, 2, 5)) == think("centrix", view, 2, 5)
    finally:
        runner.close()
    all_gone(bot_workers())  # (killed: gone in a moment)


def test_the_bot_seconds_setting_is_checked_and_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("GAMENIGHT_BOT_SECONDS", "2.5")
    assert Settings.from_env(tmp_path).bot_seconds == 2.5
    for bad in ("0", "-1", "soon", "nan", "1e9"):
        monkeypatch.setenv("GAMENIGHT_BOT_SECONDS", bad)
        with pytest.raises(RulesError, match="GAMENIGHT_BOT_SECONDS"):
            Settings.from_env(tmp_path)


def wait_until_over(
    load: Callable[[str], StoredTable | None], table_id: str, seconds: float = 60
) -> None:
    deadline = time.monotonic() + seconds
    while (stored := load(table_id)) is not None and stored.status == "playing":
        assert time.monotonic() < deadline, f"the game stopped at {len(stored.actions)} moves"
        time.sleep(0.05)


def test_a_killed_bot_worker_is_replaced_and_the_tables_play_on(database: str) -> None:
    # The bots think in real worker processes here (no executor given).
    with TestClient(create_app(Settings(database, allowed_hosts=TEST_HOSTS))) as client:
        made = [create(client, CENTRIX_BOTS)["id"] for _ in range(2)]
        deadline = time.monotonic() + 30
        while len(stored(client, made[0]).actions) < 3:  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "the bots never started"
            time.sleep(0.02)
        workers = bot_workers()
        assert workers
        for pid in workers:  # both tables' bots wait on this worker
            os.kill(pid, signal.SIGKILL)
        for table_id in made:
            wait_until_over(lambda table: stored(client, table), table_id)
    all_gone(bot_workers())  # (killed: gone in a moment)


class Paused(ThreadPoolExecutor):
    """Bots that never answer: the server goes down before they choose."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        return Future()


def test_a_bot_table_resumes_by_itself_after_a_restart(sqlite_database: str) -> None:
    database = sqlite_database
    with (
        Paused(1) as paused,
        TestClient(create_app(Settings(database, allowed_hosts=TEST_HOSTS), paused)) as client,
    ):
        made = create(client, CENTRIX_BOTS)
    store = SqlStore(database)
    assert store.sync.load(made["id"]).actions == []  # type: ignore[union-attr]
    # A new server, and nobody opens the table: its bots play it to the end.
    with (
        ThreadPoolExecutor(1) as bots,
        TestClient(create_app(Settings(database, allowed_hosts=TEST_HOSTS), bots)),
    ):
        wait_until_over(store.sync.load, made["id"])


def test_resumed_bot_tables_keep_to_the_live_table_limit(sqlite_database: str) -> None:
    database = sqlite_database
    with (
        Paused(1) as paused,
        TestClient(create_app(Settings(database, allowed_hosts=TEST_HOSTS), paused)) as client,
    ):
        made = {create(client, CENTRIX_BOTS)["id"] for _ in range(6)}
    # A new server that holds two tables: it resumes two of the six, and no more.
    with Paused(1) as paused:
        manager = TableManager(SqlStore(database), executor=paused, limits=Limits(live_tables=2))

        async def resume() -> set[str]:
            await manager.start()
            return set(manager.tables)

        try:
            live = asyncio.run(resume())
        finally:
            manager.close()
    assert len(live) == 2
    assert live <= made


@pytest.fixture
def postgres() -> Iterator[str]:
    with postgres_database("gn_bots_") as url:
        yield url


def test_on_two_servers_exactly_one_thinks_for_a_bot_seat(
    postgres: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "gamenight.web")
    thoughts: list[str] = []  # one entry per decision thought, whichever server thinks it
    busy = [0, 0]  # decisions being thought now, the most at once
    counting = threading.Lock()  # (the two servers' bots think in threads of their own)

    def recorded(game: str, view: Any, level: int, seed: int, seconds: float | None) -> str:
        with counting:
            busy[0] += 1
            busy[1] = max(busy)
        try:
            time.sleep(0.002)  # long enough for a second copy to overlap
            thoughts.append(game)
            return think(game, view, level, seed, seconds)
        finally:
            with counting:
                busy[0] -= 1

    monkeypatch.setattr(gamenight.web.bots, "think", recorded)
    settings = Settings(postgres, redis_url=REDIS, presence_ttl=2.0, allowed_hosts=TEST_HOSTS)
    with ExitStack() as stack:
        one, two = (
            stack.enter_context(
                TestClient(create_app(settings, stack.enter_context(ThreadPoolExecutor(1))))
            )
            for _ in range(2)
        )
        made = create(one, CENTRIX_BOTS)
        # A page on server two makes the table live there too: both servers could think.
        watcher = stack.enter_context(two.websocket_connect(f"/ws/tables/{made['id']}"))
        watcher.send_json({"type": "hello", "tokens": []})
        # Pages come and go on both servers meanwhile (reloads), each making sure of the bot.
        store, deadline = SqlStore(postgres), time.monotonic() + 60
        while store.sync.load(made["id"]).status == "playing":  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "the game stopped"
            for server in (one, two):
                with server.websocket_connect(f"/ws/tables/{made['id']}") as page:
                    page.send_json({"type": "hello", "tokens": []})
                    receive(page, "state")
        moves = len(SqlStore(postgres).sync.load(made["id"]).actions)  # type: ignore[union-attr]
        hears_of(watcher, moves)
    assert busy[1] == 1
    assert len(thoughts) == moves, "a decision was thought on twice"
    assert not [r.getMessage() for r in caplog.records if "bot" in r.getMessage()]


def test_a_decision_is_leased_to_one_server_and_thought_anyway_without_redis() -> None:
    manager = TableManager(MemoryStore())

    async def leases() -> list[bool]:
        one, two = (RedisRelay(REDIS, manager, presence_ttl=2.0) for _ in range(2))
        cut_off = RedisRelay("redis://127.0.0.1:1", manager)  # nothing listens on port 1
        table = f"lease-{secrets.token_hex(4)}"
        try:
            async with (
                one.thinking(table, 3) as first,
                two.thinking(table, 3) as second,
                two.thinking(table, 4) as next_one,
                cut_off.thinking(table, 3) as lost,
            ):
                pass
            async with one.thinking(table, 3) as again:  # (its turn failed: it thinks again)
                return [first, second, next_one, lost, again]
        finally:
            for relay in (one, two, cut_off):
                await relay.client.aclose()

    # One server holds revision 3 (and may think on it again); the next revision is free;
    # without Redis, a server thinks anyway.
    assert asyncio.run(leases()) == [True, False, True, True, True]


def test_a_bot_whose_plays_cannot_be_stored_for_a_while_plays_on(
    sqlite_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = sqlite_database
    failures = [4]  # the store refuses the bot's first four plays (the old runner tried 3)
    append = SqlStore.append_in  # (the write the referee hands to the group commit)

    def flaky(self: SqlStore, *args: Any, **kwargs: Any) -> int:
        if failures[0]:
            failures[0] -= 1
            raise OSError("the disk is full")
        return append(self, *args, **kwargs)

    monkeypatch.setattr(SqlStore, "append_in", flaky)
    with (
        ThreadPoolExecutor(1) as bots,
        TestClient(create_app(Settings(database, allowed_hosts=TEST_HOSTS), bots)) as client,
    ):
        made = create(client, CENTRIX_BOTS)
        wait_until_over(SqlStore(database).sync.load, made["id"])
    assert failures == [0]
