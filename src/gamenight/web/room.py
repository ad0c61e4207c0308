"""The pages open at a table: their connections and outboxes, who is online, broadcasting.

A room knows nothing of the game: it is told what to send. Every message to a page goes
through that page's outbox, written by a task of its own, so a page that stops reading is
let go (it reconnects and gets a fresh state) and never holds up the table or the others.

A page is sent the whole table once (``state``); after that, only what changed since the last
message it was sent (``change``, web.protocol), so each connection remembers that message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from gamenight.web import outbound
from gamenight.web.protocol import diff

log = logging.getLogger("gamenight.web")

OUTBOX_LIMIT = 64  # messages waiting for one client before it is let go


def to_json(message: Mapping[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


class Socket(Protocol):
    """What a room needs of a page's transport (Starlette's WebSocket has it)."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Connection:
    """One open page: the seats it holds and its outbox."""

    def __init__(self, socket: Socket, address: str = "") -> None:
        self.socket = socket
        self.address = address  # the client's address, for the limits per address
        self.keys: dict[int, str] = {}  # each seat held: the hash of the token that opened it
        # Whether the page may watch without a seat (a public table, or its spectator link).
        self.may_watch = True
        self.welcomed = False  # whether its hello was answered (until then it hears nothing)
        self.gone = False
        # The last state this page was sent, as it rebuilds it (None: none yet).
        self.shown: Mapping[str, Any] | None = None
        self._outbox: asyncio.Queue[str | int] = asyncio.Queue()  # an int: close with it
        self._writer = asyncio.create_task(self._write())
        self._writer.add_done_callback(_let_go)

    @property
    def seats(self) -> list[int]:
        return sorted(self.keys)

    def send(self, message: Mapping[str, Any] | str) -> None:
        if self.gone:
            return
        if self._outbox.qsize() >= OUTBOX_LIMIT:
            log.warning("a page stopped reading; letting it go")
            self.close()
            return
        self._outbox.put_nowait(message if isinstance(message, str) else to_json(message))

    def send_state(self, message: Mapping[str, Any], *, whole: bool = False) -> None:
        """Send the table as ``message`` (a ``state``): whole the first time (or when told:
        after ``moved_on``), else as the ``change`` from the last one sent."""
        text = self.state_text(message, whole=whole)
        if text is not None:
            self.send(text)

    def state_text(
        self,
        message: Mapping[str, Any],
        *,
        whole: bool = False,
        also: Mapping[str, Any] | None = None,
    ) -> str | None:
        """What ``send_state`` sends (None: nothing changed), with the keys of ``also`` (the
        acceptance of this page's act), and ``message`` becomes the one the page last saw."""
        before, self.shown = self.shown, message
        if before is None or whole:
            return to_json({**message, **also} if also else message)
        changes = diff(before, message)
        if not changes:
            return None
        return to_json({"type": "change", "diff": changes, **(also or {})})

    def end(self, message: Mapping[str, Any], code: int = 1008) -> None:
        """Send ``message`` after those waiting, then close the socket with ``code`` (a
        refusal that ends the page's visit: a limit, an unlisted table)."""
        if self.gone:
            return
        self._outbox.put_nowait(to_json(message))
        self._outbox.put_nowait(code)
        self.gone = True  # nothing more is sent

    async def finish(self, message: Mapping[str, Any], code: int = 1008) -> None:
        """``end``, and wait (a while) for the page to have been told."""
        self.end(message, code)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(self._writer), 5)

    async def _write(self) -> None:
        try:
            while True:
                item = await self._outbox.get()
                if isinstance(item, int):
                    await self.socket.close(code=item)
                    return
                await self.socket.send_text(item)
        except asyncio.CancelledError:
            raise
        except Exception:
            self.gone = True  # the page went away; the socket's own loop ends it

    def close(self, code: int = 1013) -> None:
        """Stop writing and close the socket (without waiting on a page that does not read)."""
        self.stop()
        task = asyncio.create_task(asyncio.wait_for(self.socket.close(code=code), 5))
        task.add_done_callback(_let_go)

    def stop(self) -> None:
        self.gone = True
        self._writer.cancel()


def _let_go(task: asyncio.Task[Any]) -> None:
    """Ask a finished task of the connection's for its exception: asyncio then neither logs
    it as never retrieved nor keeps it. A cancelled task keeps its CancelledError until
    asked, and for the writer, its traceback holds the writer's frame and so the connection
    that holds the task: a cycle only the cycle collector would free."""
    with contextlib.suppress(asyncio.CancelledError):
        task.exception()


class Room:
    """The pages at one table. ``on_held`` is told whenever the seats held by this server's
    pages may have changed (the relay shares them with the other servers)."""

    def __init__(self, on_held: Callable[[], None] = lambda: None) -> None:
        self.connections: list[Connection] = []
        # Scale-out: the seats pages on other servers hold, as the relay last heard (None:
        # not looked up since this server had a page at the table).
        self.elsewhere: frozenset[int] | None = None
        self.on_held = on_held

    def __bool__(self) -> bool:
        return bool(self.connections)

    def __len__(self) -> int:
        return len(self.connections)

    def here(self) -> list[int]:
        """The seats a page open on this server holds."""
        return sorted({seat for c in self.connections if not c.gone for seat in c.seats})

    def online(self) -> list[int]:
        """The seats someone holds an open page for, on this server or (scaled out) another."""
        return sorted({*self.here(), *(self.elsewhere or ())})

    def join(self, connection: Connection) -> None:
        if connection not in self.connections:
            self.connections.append(connection)

    def leave(self, connection: Connection) -> None:
        """``connection``'s page is closed: it hears no more, and the others hear if a seat
        went offline."""
        # The gone included: they have not been told away yet.
        before = sorted({*(s for c in self.connections for s in c.seats), *(self.elsewhere or ())})
        connection.stop()
        with contextlib.suppress(ValueError):
            self.connections.remove(connection)
        self.held_changed(before)
        if not self.connections:
            self.elsewhere = None  # nobody here to keep it for: looked up again for a page

    def set_elsewhere(self, seats: frozenset[int]) -> None:
        """The seats pages on other servers hold (from the relay); the pages here hear if
        that changes who is online."""
        before = self.online()
        self.elsewhere = seats
        self.tell_online(before)

    def held_changed(self, before: list[int]) -> None:
        """The seats this server's pages hold may have changed: tell the pages if who is
        online did, and the relay."""
        self.tell_online(before)
        self.on_held()

    def tell_online(self, before: list[int]) -> None:
        online = self.online()
        if online != before:
            self.send_all(to_json(outbound.presence(online)))

    def send_all(self, text: str) -> None:
        for connection in list(self.connections):
            connection.send(text)

    def broadcast(
        self,
        message_for: Callable[[list[int]], Mapping[str, Any]],
        answer: tuple[Connection, Mapping[str, Any]] | None = None,
    ) -> bool:
        """Send every page ``message_for(its seats)``; pages that are gone are dropped.
        ``answer``: a page and keys its message carries besides (``accepted``: its act is
        stored), so that one message tells it both. True: that page was sent them."""
        for connection in [c for c in self.connections if c.gone]:
            self.leave(connection)
        # Pages holding the same seats (spectators, above all) get the same state, built
        # once; those that saw the same state before get the same change, serialised once.
        states: dict[tuple[int, ...], Mapping[str, Any]] = {}
        texts: dict[tuple[tuple[int, ...], int], str | None] = {}
        seen = [c.shown for c in self.connections]  # kept alive: their ids stay theirs
        told = False
        for connection in list(self.connections):
            key = tuple(connection.seats)
            if key not in states:
                states[key] = message_for(connection.seats)
            if answer is not None and connection is answer[0]:
                # Its own text, not shared: the others do not hear of its act's acceptance.
                text = connection.state_text(states[key], also=answer[1])
                if text is not None:
                    connection.send(text)
                    told = True
                continue
            text_key = (key, id(connection.shown))
            if text_key in texts:
                connection.shown = states[key]
                text = texts[text_key]
            else:
                text = texts[text_key] = connection.state_text(states[key])
            if text is not None:
                connection.send(text)
        del seen
        return told

    def close_all(self, code: int = 1001) -> None:
        for connection in list(self.connections):
            connection.close(code)
        self.connections.clear()
