"""What every request passes before the app sees it: the size of its body, the rate of its
address's API requests, the origin of a socket's page; and the headers every answer carries.

A plain ASGI middleware, so that a body too big is refused before it is read (announced by
its Content-Length, or counted as it streams in: at most the limit is ever held) and a socket
from another site's page is refused before it is accepted.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from gamenight.web.quotas import Gate
from gamenight.web.refusals import Code, RefusedError, refusal

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# Every answer: scripts and styles from this server's own files only (no inline script, no
# style attribute), never framed, its type never guessed, no address sent on to other sites.
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
        b" connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self';"
        b" frame-ancestors 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a socket opened by a page of ``origin`` may reach a table: a page of this
    server (its host as the browser asked for it), of one of ``allowed``, or no page at all
    (no Origin header: a program, which no browser's cookie or page could be lending)."""
    if origin is None:
        return True
    if origin.rstrip("/") in allowed:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and host is not None and parts.netloc == host


class Guard:
    def __init__(self, app: ASGIApp, gate: Gate, allowed_origins: tuple[str, ...]) -> None:
        self.app = app
        self.gate = gate
        self.allowed_origins = allowed_origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if not origin_allowed(
                header(scope, b"origin"), header(scope, b"host"), self.allowed_origins
            ):
                await send({"type": "websocket.close", "code": 1008})  # before accepting
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *SECURITY_HEADERS]
            await send(message)

        address = scope["client"][0] if scope.get("client") else ""
        try:
            if str(scope.get("path", "")).startswith("/api/"):
                self.gate.request(address)
            body = await self._body(scope, receive)
        except RefusedError as exc:
            status = 413 if exc.code == Code.TOO_BIG else 429
            await refuse(send_with_headers, status, exc)
            return
        if body is None:
            await self.app(scope, receive, send_with_headers)
            return
        replayed = False

        async def receive_body() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # the disconnect, when it comes

        await self.app(scope, receive_body, send_with_headers)

    async def _body(self, scope: Scope, receive: Receive) -> bytes | None:
        """The request's body, read whole if it is within the limit (None: a request that
        has none); a RefusedError (too_big) as soon as it is known to be over it."""
        if scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            return None
        limit = self.gate.limits.body_bytes
        too_big = RefusedError(
            f"a request's body may be at most {limit} bytes", Code.TOO_BIG, limit=limit
        )
        length = header(scope, b"content-length")
        if length is not None and not (
            length.isascii() and length.isdigit() and int(length) <= limit
        ):
            raise too_big
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break  # the client went away: the app hears it from the empty body
            chunk = bytes(message.get("body", b""))
            size += len(chunk)
            if size > limit:
                raise too_big
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)


async def refuse(send: Send, status: int, exc: RefusedError) -> None:
    body = refusal(exc)
    data = json.dumps(
        {"detail": body["message"], "code": body["code"], "params": body["params"]}
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})
