"""A page whose socket lands on a process that is not its table's home (issue 28): its
frames are forwarded to the home over Redis, and the home's answers come back the same way.

Each process listens on a channel of its own, ``gamenight:process:<id>``. The process the
page's socket reached (its *origin*) meters the page's frames as it would its own (the
limits per socket and per address hold there, as for any page of its own) and publishes
them, raw, to the home's channel; the home runs an ordinary session (web.session) for the
page, on a ``RemoteSocket`` whose sends are published back to the origin's channel, which
writes them to the page's socket. The move is applied once, on the home; the page is in
the home's room like any other, so who is online needs no sharing.

All of one process's publishes go out in order through one task (a pipeline at a time on
one connection), so a page's frames reach the home in the order they were sent, and its
answers come back in order.

Either end going away is noticed: the origin asks who the table's home is every third of
the lease's ttl and closes the page's socket with ``MOVED`` when it is no longer the process
it forwards to (the home died and its lease expired, or it let the table go): the page
reconnects, and the process it lands on takes the table. The home drops the sessions of
an origin whose ``gamenight:alive:<id>`` key (renewed every third of the ttl) has expired.
A publish Redis refuses ends every forwarded page of the process the same way: a page
that missed a message must not carry on as if it had not.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from gamenight.web.homes import HOME, RedisHomes
from gamenight.web.redis_wait import WAIT, close

log = logging.getLogger("gamenight.web")

CHANNEL = "gamenight:process:"  # + a process's id: what is forwarded to it
ALIVE = "gamenight:alive:"  # + a process's id: exists while it forwards or is forwarded to
MOVED = 1012  # the close code that sends a page to reconnect: its table has a new home
Frame = dict[str, Any]


class RemoteSocket:
    """A page's socket as the home sees it: frames from the origin, sends back to it."""

    def __init__(self, forwarder: Forwarder, origin: str, page: str) -> None:
        self.forwarder, self.origin, self.page = forwarder, origin, page
        self.frames: asyncio.Queue[Frame] = asyncio.Queue()
        self.closed = False

    async def receive(self) -> Frame:
        return await self.frames.get()

    async def send_text(self, data: str) -> None:
        if self.closed:
            raise ConnectionError("the page's socket is closed")
        self.forwarder.publish(self.origin, {"t": "out", "p": self.page, "d": data})

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        if not self.closed:
            self.closed = True
            self.forwarder.publish(self.origin, {"t": "close", "p": self.page, "code": code})

    def gone(self, *, tell: bool = False) -> None:
        """The page's socket closed at the origin, or the page is let go here (``tell``:
        the origin, if it is still there, is told to send the page to reconnect)."""
        if tell and not self.closed:
            self.forwarder.publish(self.origin, {"t": "close", "p": self.page, "code": MOVED})
        self.closed = True
        self.frames.put_nowait({"type": "websocket.disconnect", "code": 1001})


class Page:
    """A page forwarded from here: its socket's outbox, and the home it is forwarded to."""

    def __init__(self, table_id: str, home: str, opened: float) -> None:
        self.table_id, self.home = table_id, home
        self.opened = opened  # (loop time) when its opening was sent
        self.heard = False  # whether the home has answered (an opening lost is not)
        self.out: asyncio.Queue[str | int] = asyncio.Queue()  # an int: close with it


Serve = Callable[[str, RemoteSocket, str], Awaitable[None]]


class Forwarder:
    def __init__(self, client: Any, homes: RedisHomes, ttl: float) -> None:
        self.client = client
        self.homes = homes
        self.origin = homes.origin
        self.ttl = ttl
        self.serve: Serve | None = None
        self.pages: dict[str, Page] = {}  # forwarded from here, by their id
        self.remotes: dict[tuple[str, str], RemoteSocket] = {}  # served here: (origin, page)
        self._serving: set[asyncio.Task[None]] = set()
        self._ids = itertools.count()
        self._queue: list[tuple[str, str]] = []
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def ms(self) -> int:
        return max(1, round(self.ttl * 1000))

    async def start(self, serve: Serve) -> None:
        """Listen on this process's channel; ``serve`` runs a forwarded page's session here
        (its table's id, its socket and its address)."""
        self.serve = serve
        pubsub = self.client.pubsub()
        await pubsub.subscribe(CHANNEL + self.origin)
        await self.client.set(ALIVE + self.origin, 1, px=self.ms)
        self._tasks = [
            asyncio.create_task(self._listen(pubsub)),
            asyncio.create_task(self._send()),
            asyncio.create_task(self._beat()),
        ]

    async def stop(self) -> None:
        """Send every page forwarded from here, and every page served here for another
        process, to reconnect (to the tables' next homes), then stop listening."""
        self._lose_all()
        await self._flush()
        for task in self._serving:
            task.cancel()
        await asyncio.sleep(0)  # (the pages' writers close their sockets)
        for task in self._tasks:
            task.cancel()
        if tasks := [*self._tasks, *self._serving]:
            # (not gather: a task that swallows its cancellation would hold up the stop)
            done, _ = await asyncio.wait(tasks, timeout=WAIT)
            for task in done:  # (asked, so that asyncio does not log it as never retrieved)
                if not task.cancelled():
                    task.exception()
        with contextlib.suppress(Exception):
            async with asyncio.timeout(WAIT):
                await self.client.delete(ALIVE + self.origin)

    # ---------------------------------------------------------------- publishing, in order

    def publish(self, process: str, message: Frame) -> None:
        """Send ``message`` to ``process``'s channel after every one published before."""
        self._queue.append((CHANNEL + process, json.dumps({**message, "o": self.origin})))
        self._wake.set()

    async def _flush(self) -> None:
        """Publish what is queued now, whatever the sending task is doing (a stop)."""
        batch, self._queue = self._queue, []
        if batch:
            with contextlib.suppress(Exception):
                await self._publish(batch)

    async def _send(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._queue = self._queue, []
            if not batch:
                continue
            try:
                await self._publish(batch)
            except Exception as exc:
                log.warning("forwarding through Redis failed (%r): its pages reconnect", exc)
                self._lose_all()

    async def _publish(self, batch: list[tuple[str, str]]) -> None:
        async with asyncio.timeout(WAIT), self.client.pipeline(transaction=False) as pipe:
            for channel, data in batch:
                pipe.publish(channel, data)
            await pipe.execute()

    def _lose_all(self) -> None:
        for page in self.pages.values():
            page.out.put_nowait(MOVED)
        for remote in list(self.remotes.values()):
            remote.gone(tell=True)  # (heard if Redis takes it after all)
        self.remotes.clear()

    # ---------------------------------------------------------------- listening

    async def _listen(self, pubsub: Any) -> None:
        pause = 0.05  # (at once, at first: a process not listening looks dead: web.homes)
        while True:
            try:
                if pubsub is None:
                    pubsub = self.client.pubsub()
                    await pubsub.subscribe(CHANNEL + self.origin)
                pause = 0.05
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        self._handle(json.loads(message["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("the forwarder lost Redis (%r): its pages reconnect", exc)
                self._lose_all()  # (a message may have been missed)
            if pubsub is not None:
                await close(pubsub)
            pubsub = None
            await asyncio.sleep(pause)
            pause = min(1.0, pause * 4)

    def _handle(self, message: Frame) -> None:
        kind, origin, page_id = message["t"], message["o"], message["p"]
        if kind == "out" or kind == "close":  # (to a page forwarded from here)
            page = self.pages.get(page_id)
            if page is not None:
                page.heard = True
                page.out.put_nowait(message["d"] if kind == "out" else int(message["code"]))
            return
        key = (origin, page_id)
        if kind == "open":
            remote = RemoteSocket(self, origin, page_id)
            self.remotes[key] = remote
            task = asyncio.create_task(self._served(key, remote, message["tb"], message["a"]))
            self._serving.add(task)
            task.add_done_callback(self._serving.discard)
        elif kind == "in":
            known = self.remotes.get(key)
            if known is not None:
                known.frames.put_nowait({"type": "websocket.receive", "text": message["d"]})
            else:  # a page this process let go of (or never heard open): it reconnects
                self.publish(origin, {"t": "close", "p": page_id, "code": MOVED})
        elif kind == "bye":
            left = self.remotes.pop(key, None)
            if left is not None:
                left.gone()

    async def _served(
        self, key: tuple[str, str], remote: RemoteSocket, table_id: str, address: str
    ) -> None:
        try:
            assert self.serve is not None
            await self.serve(table_id, remote, address)
        except Exception:
            log.exception("a forwarded page of table %s failed", table_id)
        finally:
            self.remotes.pop(key, None)
            await remote.close(MOVED)  # (nothing if the session closed it)

    # ---------------------------------------------------------------- heartbeats

    async def _beat(self) -> None:
        """Keep this process's alive key; end the pages forwarded from here to a home that
        is no longer theirs, and the sessions here of pages whose origin is gone."""
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                async with asyncio.timeout(WAIT):
                    await self.client.set(ALIVE + self.origin, 1, px=self.ms)
                    await self._check_homes()
                    await self._check_origins()
            except Exception as exc:
                log.warning("the forwarder's heartbeat failed (%r)", exc)

    async def _check_homes(self) -> None:
        pages = list(self.pages.values())
        tables = sorted({page.table_id for page in pages})
        if not tables:
            return
        holders = dict(zip(tables, await self.client.mget([HOME + t for t in tables]), strict=True))
        # A home that died no longer listens (its connection closed with it): its pages go
        # at once, not when its leases expire.
        dead = await self.homes.dead(sorted({page.home for page in pages}))
        now = asyncio.get_running_loop().time()
        for page in pages:
            holder = holders.get(page.table_id)
            unanswered = not page.heard and now - page.opened > self.ttl
            if holder is None or holder.decode() != page.home or unanswered or page.home in dead:
                page.out.put_nowait(MOVED)

    async def _check_origins(self) -> None:
        origins = sorted({origin for origin, _ in self.remotes})
        if not origins:
            return
        alive = await self.client.mget([ALIVE + origin for origin in origins])
        dead = {origin for origin, flag in zip(origins, alive, strict=True) if flag is None}
        for key, remote in list(self.remotes.items()):
            if key[0] in dead:
                self.remotes.pop(key, None)
                remote.gone(tell=True)  # (an origin that hung and is back sends it away)

    # ---------------------------------------------------------------- the origin's side

    def forwarding(self, table_id: str, home: str, address: str) -> tuple[str, Page]:
        """Open a page forwarded to ``home``: its id and its outbox."""
        page_id = f"{next(self._ids)}"
        page = Page(table_id, home, asyncio.get_running_loop().time())
        self.pages[page_id] = page
        self.publish(home, {"t": "open", "p": page_id, "tb": table_id, "a": address})
        return page_id, page

    def frame(self, page_id: str, text: str) -> None:
        page = self.pages.get(page_id)
        if page is not None:
            self.publish(page.home, {"t": "in", "p": page_id, "d": text})

    def closed(self, page_id: str) -> None:
        page = self.pages.pop(page_id, None)
        if page is not None:
            self.publish(page.home, {"t": "bye", "p": page_id})
