"""The server's WebSocket protocol (web.reading) under uvicorn, on a loopback socket: a page
that waits for each answer never has its socket taken out of epoll; one that floods is
still held back, and loses nothing."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from selectors import EpollSelector
from typing import Any

import pytest
import uvicorn
from websockets.sync.client import connect

from gamenight.web.app import serving_options
from gamenight.web.reading import PILE
from gamenight.web.settings import Settings

Scope = dict[str, Any]


class Echo:
    """An ASGI app answering each text message with itself; while ``held`` is clear it
    takes no message (the messages wait for it, as for a busy table)."""

    def __init__(self) -> None:
        self.held = threading.Event()
        self.held.set()

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            return
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        while True:
            while not self.held.is_set():
                await asyncio.sleep(0.005)
            message = await receive()
            if message["type"] == "websocket.disconnect":
                return
            await send({"type": "websocket.send", "text": message["text"]})


class Counting(EpollSelector):
    """An epoll selector counting the sockets taken out of it (a socket's reading stopped)."""

    taken_out = 0

    def unregister(self, fileobj: Any) -> Any:
        Counting.taken_out += 1
        return super().unregister(fileobj)


@contextmanager
def served(app: Echo) -> Iterator[str]:
    """``app`` under uvicorn with the server's options, on 127.0.0.1: its ws:// URL."""
    options = serving_options(Settings(database_url="sqlite://"))
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", **options)
    server = uvicorn.Server(config)
    loop = asyncio.SelectorEventLoop(Counting())
    thread = threading.Thread(target=loop.run_until_complete, args=(server.serve(),))
    thread.start()
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("the server did not start")
            threading.Event().wait(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        yield f"ws://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(10)
        loop.close()


def test_a_page_that_waits_for_each_answer_keeps_its_socket_read() -> None:
    """uvicorn's own protocol stopped reading after every message, and read again when the
    app took it: two epoll_ctl calls a message."""
    with served(Echo()) as url, connect(url) as page:
        Counting.taken_out = 0
        for i in range(50):
            page.send(f"move {i}")
            assert page.recv(timeout=5) == f"move {i}"
        assert Counting.taken_out == 0


@pytest.mark.parametrize("sent", [PILE - 1, 5 * PILE])
def test_a_page_that_floods_is_held_back_and_loses_nothing(sent: int) -> None:
    app = Echo()
    with served(app) as url, connect(url) as page:
        Counting.taken_out = 0
        app.held.clear()  # the app takes nothing: the messages pile up
        for i in range(sent):
            page.send(f"move {i}")
        threading.Event().wait(0.3)
        stopped = Counting.taken_out
        app.held.set()
        assert [page.recv(timeout=5) for _ in range(sent)] == [f"move {i}" for i in range(sent)]
    # Below the pile the socket is read on; above it, reading stops.
    assert stopped == (sent >= PILE)
