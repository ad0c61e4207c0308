"""A page that stops reading is let go; it never holds up the table or the other pages."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from gamenight.web.room import OUTBOX_LIMIT, Connection

T = TypeVar("T")


def run_alone(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` in a loop of its own (the browser tests' Playwright keeps one
    running in this thread)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


class Socket:
    """A page's socket; ``reading=False``: a page that has stopped reading (sends hang)."""

    def __init__(self, reading: bool = True) -> None:
        self.reading = reading
        self.sent: list[str] = []
        self.closed_with: int | None = None

    async def send_text(self, text: str) -> None:
        if not self.reading:
            await asyncio.Event().wait()  # never set: the network buffer is full
        self.sent.append(text)

    async def close(self, code: int = 1000) -> None:
        self.closed_with = code


def test_a_page_that_stops_reading_is_let_go_and_the_others_carry_on() -> None:
    async def run() -> tuple[Socket, Socket, Connection, Connection]:
        stuck, fine = Socket(reading=False), Socket()
        slow, fast = Connection(stuck), Connection(fine)  # type: ignore[arg-type]
        for i in range(OUTBOX_LIMIT + 5):
            for connection in (slow, fast):
                connection.send({"type": "state", "version": i})
            await asyncio.sleep(0)  # the writers run
        await asyncio.sleep(0.01)
        return stuck, fine, slow, fast

    stuck, fine, slow, fast = run_alone(run())
    assert slow.gone
    assert stuck.closed_with == 1013  # "try again later": the page reconnects for a fresh state
    assert not fast.gone
    assert len(fine.sent) == OUTBOX_LIMIT + 5
    assert '"version":0' in fine.sent[0]  # in order


def test_messages_to_a_page_keep_their_order() -> None:
    async def run() -> list[str]:
        socket = Socket()
        connection = Connection(socket)  # type: ignore[arg-type]
        messages: list[Any] = [{"type": "welcome"}, {"type": "state"}, "raw text"]
        for message in messages:
            connection.send(message)
        await asyncio.sleep(0.01)
        connection.stop()
        return socket.sent

    assert run_alone(run()) == ['{"type":"welcome"}', '{"type":"state"}', "raw text"]
