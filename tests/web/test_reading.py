"""The server's WebSocket protocol (web.reading) under uvicorn, on a loopback socket: a page
that waits for each answer never has its socket taken out of epoll; one that floods is
still held back, and loses nothing."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from selectors import EpollSelector
from typing import Any

import pytest
import uvicorn
from websockets.client import ClientProtocol
from websockets.exceptions import ConnectionClosed
from websockets.frames import Opcode
from websockets.sync.client import connect
from websockets.uri import parse_uri

from gamenight.web.app import serving_options
from gamenight.web.quotas import Limits
from gamenight.web.reading import PILE, PilingProtocol
from gamenight.web.settings import Settings

from .hosts import TEST_HOSTS

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
def served(
    app: Any, ws: type[PilingProtocol] | None = None, settings: Settings | None = None
) -> Iterator[str]:
    """``app`` under uvicorn with the server's options for ``settings`` (or its protocol
    ``ws``), on 127.0.0.1: its ws:// URL."""
    options = serving_options(
        settings or Settings(database_url="sqlite://", allowed_hosts=TEST_HOSTS)
    )
    if ws is not None:
        options["ws"] = ws
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


class Closing:
    """An ASGI app that takes no message, and closes the socket (code 1008, as a page cut
    off for flooding is) once ``told``."""

    def __init__(self) -> None:
        self.told = threading.Event()

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            return
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        while not self.told.is_set():
            await asyncio.sleep(0.005)
        await send({"type": "websocket.close", "code": 1008})


def test_a_page_closed_with_its_messages_waiting_has_its_close_reply_read() -> None:
    """Once the server has sent its close, it reads on until the page's close reply comes
    (uvicorn's own rule): a socket whose messages had piled up was stopped again by the
    next frame, and the page's reply went unread until uvicorn gave up after 10 s."""
    stopped_after_close: list[PilingProtocol] = []

    class Watched(PilingProtocol):
        def connection_made(self, transport: Any) -> None:
            pause = transport.pause_reading

            def pause_reading() -> None:
                if self.close_sent:
                    stopped_after_close.append(self)
                pause()

            transport.pause_reading = pause_reading
            super().connection_made(transport)

    app = Closing()
    with served(app, Watched) as url, connect(url) as page:
        for i in range(PILE + 4):
            page.send(f"move {i}")
            threading.Event().wait(0.01)  # (frames of their own)
        threading.Event().wait(0.2)
        app.told.set()
        with pytest.raises(ConnectionClosed) as closed:
            page.recv(timeout=5)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1008
    assert stopped_after_close == []


def frozen_page(url: str, seconds: float) -> tuple[list[Opcode], float | None]:
    """A page that opens its socket and then neither sends nor answers anything (a laptop
    whose lid was shut, a phone in a tunnel: its TCP connection stays open): the opcodes of
    the frames it is sent within ``seconds``, and when (from its handshake) the server
    closed the connection (None: it did not)."""
    uri = parse_uri(url)
    page = ClientProtocol(uri)
    with socket.create_connection((uri.host, uri.port)) as sock:
        page.send_request(page.connect())
        sock.sendall(b"".join(page.data_to_send()))
        opened = time.monotonic()
        heard: list[Opcode] = []
        sock.settimeout(0.05)
        while (now := time.monotonic()) < opened + seconds:
            try:
                data = sock.recv(65536)
            except TimeoutError:
                continue
            if not data:
                return heard, now - opened
            page.receive_data(data)
            heard += [event.opcode for event in page.events_received() if hasattr(event, "opcode")]
            page.data_to_send()  # (its answers, a pong among them, are never sent)
    return heard, None


def test_a_page_gone_silent_is_asked_and_closed_within_2_seconds() -> None:
    """Issue 30's 'away' friction: a page that vanished without closing its socket held
    its seat, present to the others, until uvicorn's keepalive gave up on it 39 s later."""
    with served(Echo()) as url:
        heard, closed = frozen_page(url, seconds=4.0)
    assert Opcode.PING in heard
    assert closed is not None, f"still open after 4 s; it heard {heard}"
    assert closed < Limits().silence_seconds + 0.5


def test_a_page_that_answers_is_never_closed_for_its_silence() -> None:
    settings = Settings("sqlite://", allowed_hosts=TEST_HOSTS, limits=Limits(silence_seconds=1))
    with served(Echo(), settings=settings) as url, connect(url) as page:
        threading.Event().wait(3.0)  # (it answers each ping: websockets does)
        page.send("still here")
        assert page.recv(timeout=5) == "still here"


def test_a_page_whose_messages_pile_up_is_not_closed_for_its_silence() -> None:
    """While a page's messages pile up its socket is not read (web.reading), nor its pong:
    it is plainly there, and loses nothing."""
    settings = Settings("sqlite://", allowed_hosts=TEST_HOSTS, limits=Limits(silence_seconds=1))
    app = Echo()
    with served(app, settings=settings) as url, connect(url) as page:
        app.held.clear()
        for i in range(2 * PILE):
            page.send(f"move {i}")
        threading.Event().wait(2.5)
        app.held.set()
        assert [page.recv(timeout=5) for _ in range(2 * PILE)] == [
            f"move {i}" for i in range(2 * PILE)
        ]
