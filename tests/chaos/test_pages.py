"""The chaos run's scripted page against a socket that says what a test tells it: what it
sends and what it records as accepted, in both forms of the table protocol."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from gamenight.colorcity import Table, parse_action
from gamenight.web.views.colorcity import city_speeds, shot_text

from .pages import Page, Switches, TableRun


class Socket:
    """Gives the page the messages put in, and keeps what the page sends."""

    def __init__(self) -> None:
        self.incoming: asyncio.Queue[str] = asyncio.Queue()
        self.sent: list[dict[str, Any]] = []

    def put(self, message: dict[str, Any]) -> None:
        self.incoming.put_nowait(json.dumps(message))

    async def recv(self) -> str:
        return await self.incoming.get()

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    async def sent_kind(self, kind: str, count: int = 1) -> dict[str, Any]:
        for _ in range(200):
            found = [m for m in self.sent if m["type"] == kind]
            if len(found) >= count:
                return found[count - 1]
            await asyncio.sleep(0.01)
        raise AssertionError(f"the page sent no {kind} (sent {self.sent})")


def state(version: int, log: list[str], revision: int | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {
        "type": "state",
        "version": version,
        "actor": 0,
        "active": 0,
        "seats": [0],
        "can_undo": False,
        "last": None,
        "view": {
            "log": [{"seat": 0, "notation": n} for n in log],
            "legal": {"moves": [], "plays": {"R2": {"1+2": "*"}}},
        },
    }
    if revision is not None:
        message["revision"] = revision
    return message


def page() -> tuple[Page, TableRun, Switches]:
    run = TableRun("t1", "test", "centrix", "sqlite", ["human", "bot"], watched=True)
    switches = Switches()
    rng = random.Random(1)
    rng.random = lambda: 0.5  # type: ignore[method-assign]  # never an undo, never twice
    return Page(run, 0, "token", "p1", [], switches, rng), run, switches


async def play(scene: Any) -> TableRun:
    me, run, switches = page()
    socket = Socket()
    task = asyncio.create_task(me.session(socket))  # type: ignore[arg-type]
    try:
        await asyncio.wait_for(scene(socket, me), 10)
    finally:
        switches.stopping = True
        await asyncio.wait_for(task, 5)
    return run


def test_on_the_older_protocol_a_move_counts_once_a_state_shows_it() -> None:
    async def scene(socket: Socket, me: Page) -> None:
        socket.put(state(2, ["A off-a1", "B1 off-b1"]))
        act = await socket.sent_kind("act")
        assert act == {"type": "act", "seat": 0, "action": "R2 1+2"}  # no fields it refuses
        socket.put(state(3, ["A off-a1", "B1 off-b1", "X"]))  # someone else's move first
        await asyncio.sleep(0.05)
        assert me.pending is not None
        socket.put(state(4, ["A off-a1", "B1 off-b1", "X", "R2 1+2"]))
        await asyncio.sleep(0.05)

    run = asyncio.run(play(scene))
    assert [(a.number, a.base, a.text) for a in run.accepted] == [(3, 2, "R2 1+2")]


def test_with_revisions_a_move_carries_its_revision_and_id_and_counts_when_accepted() -> None:
    async def scene(socket: Socket, me: Page) -> None:
        socket.put({"type": "welcome", "seats": [0]})
        socket.put(state(2, ["A off-a1", "B1 off-b1"], revision=7))
        act = await socket.sent_kind("act")
        assert act["revision"] == 7
        assert act["id"] == "p1-000001"
        socket.put(state(3, ["A off-a1", "B1 off-b1", "R2 1+2"], revision=8))
        await asyncio.sleep(0.05)
        assert me.pending is not None  # with revisions only `accepted` tells
        socket.put({"type": "accepted", "id": act["id"], "revision": 8})
        socket.put({"type": "accepted", "id": act["id"], "revision": 8})  # a resend's answer
        await asyncio.sleep(0.05)
        # Acknowledged again at another revision: the same message applied twice.
        socket.put({"type": "accepted", "id": act["id"], "revision": 9})
        await asyncio.sleep(0.05)

    run = asyncio.run(play(scene))
    assert [(a.number, a.message_id) for a in run.accepted] == [(2, "p1-000001")]
    assert run.doubled == 1


def test_with_revisions_the_change_that_says_accepted_counts_the_move_once() -> None:
    async def scene(socket: Socket, me: Page) -> None:
        socket.put(state(2, ["A off-a1", "B1 off-b1"], revision=7))
        act = await socket.sent_kind("act")
        after = state(3, ["A off-a1", "B1 off-b1", "R2 1+2"], revision=8)
        socket.put({**after, "accepted": act["id"]})
        await asyncio.sleep(0.05)
        assert me.pending is None
        socket.put({"type": "accepted", "id": act["id"], "revision": 8})  # a resend's answer
        await asyncio.sleep(0.05)

    run = asyncio.run(play(scene))
    assert [(a.number, a.message_id) for a in run.accepted] == [(2, "p1-000001")]
    assert run.doubled == 0


def test_with_revisions_a_move_unanswered_when_the_connection_dropped_is_sent_again() -> None:
    async def scene(socket: Socket, me: Page) -> None:
        socket.put(state(2, ["A off-a1", "B1 off-b1"], revision=7))
        act = await socket.sent_kind("act")
        me.reconnected = True  # as after a new connection
        socket.put(state(2, ["A off-a1", "B1 off-b1"], revision=7))
        assert await socket.sent_kind("act", 2) == act  # the same id: never applied twice
        socket.put({"type": "error", "code": "moved_on", "id": act["id"]})
        await asyncio.sleep(0.05)
        assert me.pending is None or me.pending.message_id != act["id"]

    run = asyncio.run(play(scene))
    assert run.accepted == []


def test_a_city_page_writes_its_shots_as_the_tables_log_does() -> None:
    """The chaos run checks every accepted shot against the table's log word for word: a
    spin that rounds to zero from below must be written as the log writes it ("0", not
    "-0"), or the run reports a lost move that was not lost."""
    table = Table()
    limits = {
        "launch_half_width": table.launch_half_width,
        "max_direction": table.max_direction_deg,
        "min_speed": table.min_speed,
        "max_speed": table.max_speed,
        "max_spin": table.max_spin,
        "city_speeds": city_speeds(table),
    }
    city, _, _ = page()
    for seed in range(2000):
        city.rng = random.Random(seed)
        text = city.shot(limits)
        assert text == shot_text(parse_action(text)), seed
