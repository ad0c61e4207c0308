"""The web app driven in this process through ASGI itself: requests, sockets, lifespan.

No test client stands between the fuzz and the app: every byte a request's body holds is
handed over in chunks the fuzz counts (so it sees whether the app stops reading an
oversized body), a socket's frames go in and out through queues with timeouts (so a
message the server never answers is a finding, not a hang), and an exception that escapes
the app is caught here and counted. Text the server sends is encoded to UTF-8 as a real
server would, so a message that cannot be sent fails here as it would there.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote

from starlette.types import ASGIApp, Message

HOST = "testserver"
TIMEOUT = 30.0  # seconds an answer may take before the fuzz counts it as never coming


@dataclass
class Response:
    status: int
    body: bytes
    read: int  # bytes of the request body the app took
    escaped: BaseException | None  # what the app raised to the server, if anything

    def json(self) -> Any:
        return json.loads(self.body)


def _headers(extra: dict[str, str]) -> list[tuple[bytes, bytes]]:
    headers = {"host": HOST, "origin": f"http://{HOST}", **extra}
    return [(k.encode("latin-1"), v.encode("latin-1", "replace")) for k, v in headers.items()]


def _paths(path: str) -> tuple[str, bytes]:
    """The scope's ``path`` and ``raw_path`` for ``path`` as a client would send it: as
    UTF-8 (lone surrogates too), percent-encoded, then decoded the way uvicorn does."""
    raw = quote(path, safe="/%", errors="surrogatepass").encode("ascii")
    return unquote(raw.decode("ascii")), raw


class Lifespan:
    """The app's start-up and shut-down, run as a server runs them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._inbox: asyncio.Queue[Message] = asyncio.Queue()
        self._started = asyncio.Event()
        self._stopped = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Lifespan:
        self._task = asyncio.create_task(self._run())
        await self._inbox.put({"type": "lifespan.startup"})
        await asyncio.wait_for(self._started.wait(), TIMEOUT)
        return self

    async def __aexit__(self, *_: object) -> None:
        await self._inbox.put({"type": "lifespan.shutdown"})
        await asyncio.wait_for(self._stopped.wait(), TIMEOUT)
        if self._task is not None:
            await self._task

    async def _run(self) -> None:
        scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}
        await self.app(scope, self._inbox.get, self._send)

    async def _send(self, message: Message) -> None:
        if message["type"].startswith("lifespan.startup"):
            self._started.set()
        elif message["type"].startswith("lifespan.shutdown"):
            self._stopped.set()


async def request(
    app: ASGIApp,
    method: str,
    path: str,
    body: bytes | Iterable[bytes] = b"",
    *,
    query: bytes = b"",
    headers: dict[str, str] | None = None,
    length: bool = True,
    client: str = "127.0.0.1",
) -> Response:
    """One HTTP request. ``body`` as bytes (sent with its Content-Length unless ``length``
    is false) or as chunks (sent as they come, without a length)."""
    extra = dict(headers or {})
    chunks: Iterable[bytes]
    if isinstance(body, bytes):
        chunks = [body]
        if length:
            extra.setdefault("content-length", str(len(body)))
    else:
        chunks = body
    extra.setdefault("content-type", "application/json")
    scope_path, raw_path = _paths(path)
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": scope_path,
        "raw_path": raw_path,
        "query_string": query,
        "root_path": "",
        "headers": _headers(extra),
        "client": (client, 50000),
        "server": (HOST, 80),
        "state": {},
    }
    pending = iter(chunks)
    upcoming = next(pending, None)
    read = 0
    done = asyncio.Event()
    status = 0
    out: list[bytes] = []

    async def receive() -> Message:
        nonlocal upcoming, read
        if upcoming is None:
            await done.wait()
            return {"type": "http.disconnect"}
        chunk, upcoming = upcoming, next(pending, None)
        read += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": upcoming is not None}

    async def send(message: Message) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            out.append(message.get("body", b""))
            if not message.get("more_body"):
                done.set()

    escaped: BaseException | None = None
    try:
        await asyncio.wait_for(app(scope, receive, send), TIMEOUT)
    except Exception as exc:  # what the app raised, or TimeoutError: it never answered
        escaped = exc
    done.set()
    return Response(status, b"".join(out), read, escaped)


class ClosedError(Exception):
    """The server closed the socket."""


class Socket:
    """One WebSocket to the app: frames in through a queue, frames out into another."""

    def __init__(self, app: ASGIApp, path: str, client: str = "127.0.0.1") -> None:
        self.app = app
        self.path = path
        self.client = client
        self.close_code: int | None = None
        self.escaped: BaseException | None = None
        self.unsendable: list[str] = []  # server messages that are not UTF-8 text
        self.sent = 0  # frames sent to the server
        self._to_server: asyncio.Queue[Message] = asyncio.Queue()
        self._from_server: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._accepted = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def open(self) -> Socket:
        self._task = asyncio.create_task(self._run())
        await self._to_server.put({"type": "websocket.connect"})
        waiter = asyncio.create_task(self._accepted.wait())
        await asyncio.wait({waiter, self._task}, timeout=TIMEOUT, return_when="FIRST_COMPLETED")
        waiter.cancel()
        if not self._accepted.is_set():
            await self.close()  # the app's side must end too, not be left pending
            raise ClosedError(f"not accepted ({self.close_code})")
        return self

    async def _run(self) -> None:
        path, raw_path = _paths(self.path)
        scope = {
            "type": "websocket",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "scheme": "ws",
            "path": path,
            "raw_path": raw_path,
            "query_string": b"",
            "root_path": "",
            "headers": _headers({}),
            "client": (self.client, 50001),
            "server": (HOST, 80),
            "subprotocols": [],
            "state": {},
        }
        try:
            await self.app(scope, self._to_server.get, self._send)
        except Exception as exc:
            self.escaped = exc
        finally:
            self._from_server.put_nowait(None)

    async def _send(self, message: Message) -> None:
        kind = message["type"]
        if kind == "websocket.accept":
            self._accepted.set()
        elif kind == "websocket.close":
            self.close_code = message.get("code", 1000)
            self._from_server.put_nowait(None)
        elif kind == "websocket.send":
            text = message.get("text")
            if text is None:
                self.unsendable.append("a binary frame")
                return
            # What a real server does with it: text goes out as UTF-8, or not at all.
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                self.unsendable.append(text.encode("utf-8", "backslashreplace")[:200].decode())
                self._from_server.put_nowait(None)
                raise
            try:
                self._from_server.put_nowait(json.loads(text))
            except ValueError:
                self.unsendable.append(text[:200])

    @property
    def alive(self) -> bool:
        return (
            self.close_code is None
            and not self.unsendable
            and self._task is not None
            and not self._task.done()
        )

    def send(self, frame: str | bytes) -> None:
        self.sent += 1
        if isinstance(frame, bytes):
            self._to_server.put_nowait({"type": "websocket.receive", "bytes": frame})
            return
        try:
            frame.encode("utf-8")
        except UnicodeEncodeError:
            # A client can only send such text (lone surrogates) as bytes that are not UTF-8.
            data = frame.encode("utf-8", "surrogatepass")
            self._to_server.put_nowait({"type": "websocket.receive", "bytes": data})
            return
        self._to_server.put_nowait({"type": "websocket.receive", "text": frame})

    def pending(self) -> list[dict[str, Any]]:
        """The messages that have arrived and not been read (without waiting)."""
        out = []
        while not self._from_server.empty():
            message = self._from_server.get_nowait()
            if message is None:
                break
            out.append(message)
        return out

    async def until_pongs(self, count: int) -> list[dict[str, Any]]:
        """Every message up to and including the ``count``-th ``pong``; raises ClosedError if the
        socket closes first and TimeoutError if the server stops answering."""
        out: list[dict[str, Any]] = []
        seen = 0
        while seen < count:
            message = await asyncio.wait_for(self._from_server.get(), TIMEOUT)
            if message is None:
                if self.unsendable:
                    raise ClosedError(f"the server sent what is not UTF-8: {self.unsendable[-1]}")
                raise ClosedError(f"closed ({self.close_code}) after {out!r:.200}")
            out.append(message)
            seen += message.get("type") == "pong"
        return out

    async def close(self) -> None:
        if self._task is None:
            return
        self._to_server.put_nowait({"type": "websocket.disconnect", "code": 1000})
        try:
            await asyncio.wait_for(asyncio.shield(self._task), TIMEOUT)
        except TimeoutError:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
