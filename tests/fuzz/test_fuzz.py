"""A short fuzz run inside ``make test`` (the long one is ``make fuzz``), and proof that the
harness sees each kind of failure it counts."""

from __future__ import annotations

import asyncio
import io
import logging
import random
from typing import Any

import pytest
from rich.console import Console

from gamenight.web import outbound
from gamenight.web.referee import Accepted, Referee
from gamenight.web.refusals import Code, RefusedError
from gamenight.web.store import MemoryStore
from gamenight.web.tables import TableManager

from .asgi import Lifespan
from .fuzz import run
from .harness import Probe, report
from .server import World

INPUTS = 5000


def test_a_short_fuzz_run_finds_no_failure() -> None:
    figures = run(INPUTS, seed=1)
    assert sum(f.inputs for f in figures.values()) == INPUTS
    assert all(f.inputs > 0 for f in figures.values())
    failed = {name: f.failures for name, f in figures.items() if f.failures}
    if failed:
        out = io.StringIO()
        report(figures, Console(file=out, width=140))
        pytest.fail(f"the fuzz found failures in {sorted(failed)}:\n{out.getvalue()}")


# ---------------------------------------------------------------- the harness itself


def test_the_harness_sees_a_refused_act_that_changed_the_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def careless_act(self: Referee, seat: int, text: str, **_: object) -> Accepted:
        self.actions.append("a play that was refused")
        raise RefusedError("the game is over", Code.GAME_OVER)

    monkeypatch.setattr(Referee, "act", careless_act)
    figures = run(60, only="ws act")
    assert figures["ws act"].state_changes > 0


def test_the_harness_sees_a_server_error_and_its_log(monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(self: MemoryStore, limit: int = 100) -> list[Any]:
        raise ZeroDivisionError("the list broke")

    monkeypatch.setattr(MemoryStore, "recent", broken)
    figures = run(60, only="GET /api/tables[")
    seen = figures["GET /api/tables[/{id}]"]
    assert seen.server_errors > 0
    assert seen.unhandled > 0


def test_the_harness_sees_an_error_logged_while_handling_a_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    original = TableManager.undo

    async def noisy_undo(self: TableManager, *args: Any, **kwargs: Any) -> Accepted:
        logging.getLogger("gamenight.web").error("undo went wrong")
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(TableManager, "undo", noisy_undo)
    figures = run(60, only="ws undo")
    assert figures["ws undo"].unhandled > 0


def test_the_harness_sees_a_reply_off_its_type(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outbound, "pong", lambda: {"type": "pong", "late": True})
    figures = run(60, only="ws act")
    assert figures["ws act"].unhandled > 0


def test_a_page_the_fuzz_keeps_using_stays_under_the_message_rate() -> None:
    """Exchanges back to back from one role's page answer every ping: the fuzz's pages send
    no more than a socket's rate allows (only the flood target is meant to meet it)."""

    async def exchanges() -> tuple[list[dict[str, Any]], dict[str, str]]:
        world = World()
        async with Lifespan(world.app):
            table = await world.table(random.Random(0))
            probe = Probe()
            rate = world.settings.limits.messages_per_second
            replies = []
            for _ in range(rate * 2):
                replies += await world.exchange(table, "spectator", [], probe)
            await world.close()
        return replies, probe.found

    replies, found = asyncio.run(exchanges())
    assert found == {}
    assert [r for r in replies if r.get("type") != "pong"] == []
