"""One page's socket at a table: the hello deadline, the message limits, and each message
handed to the table's owner of its kind (web.tables), by its type."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

from fastapi import WebSocket, WebSocketDisconnect

from gamenight.core.errors import GamenightError
from gamenight.web import hints, outbound, protocol
from gamenight.web.chat import side_of
from gamenight.web.forward import MOVED, Forwarder
from gamenight.web.homes import ElsewhereError
from gamenight.web.live import LiveTable
from gamenight.web.protocol import parse_client
from gamenight.web.quotas import FloodingError, Gate, Ticket
from gamenight.web.referee import HomeLostError
from gamenight.web.refusals import Code, RefusedError, no_hello
from gamenight.web.room import Connection, to_json
from gamenight.web.settings import Settings
from gamenight.web.tables import TableManager

log = logging.getLogger("gamenight.web")


class PageSocket(Protocol):
    """A page's socket as a session reads and writes it: Starlette's WebSocket, or a page
    forwarded from another process (web.forward.RemoteSocket)."""

    async def receive(self) -> Mapping[str, Any]: ...

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


async def table_socket(
    socket: WebSocket,
    table_id: str,
    manager: TableManager,
    gate: Gate,
    settings: Settings,
    forwarder: Forwarder | None = None,
) -> None:
    """Serve the page's socket at ``table_id`` until it closes (forwarded to the table's
    home, when that is another process: web.forward)."""
    # (Guard has refused a page of another site before this.)
    await socket.accept()
    try:
        # Counted from the start: a table with a socket open stays in memory.
        ticket = gate.open_socket(table_id, socket.client.host if socket.client else "")
    except RefusedError as exc:
        await socket.send_json(protocol.error(exc))
        await socket.close(code=1008)
        return
    try:
        await visit(socket, table_id, ticket, manager, gate, settings, forwarder)
    finally:
        gate.close_socket(ticket)
        manager.closed(table_id)


async def forwarded(
    socket: PageSocket,
    table_id: str,
    address: str,
    manager: TableManager,
    gate: Gate,
    settings: Settings,
) -> None:
    """Serve, as its table's home, a page whose socket is on another process: its frames
    were metered there (the limits per socket and address), the spectators and the chat
    are counted here, at the table."""
    ticket = gate.forwarded_socket(table_id, address)
    try:
        await visit(socket, table_id, ticket, manager, gate, settings, metered=False)
    finally:
        gate.close_socket(ticket)
        manager.closed(table_id)


async def visit(
    socket: PageSocket,
    table_id: str,
    ticket: Ticket,
    manager: TableManager,
    gate: Gate,
    settings: Settings,
    forwarder: Forwarder | None = None,
    *,
    metered: bool = True,
) -> None:
    try:
        table = await manager.get(table_id)
    except ElsewhereError as exc:
        if forwarder is None:  # (a forwarded page whose table moved meanwhile)
            await socket.close(code=MOVED)
            return
        await forward(socket, table_id, exc.home, ticket, gate, forwarder)
        return
    except GamenightError as exc:
        await socket.send_text(to_json(protocol.error(exc)))
        full = isinstance(exc, RefusedError) and exc.code == Code.SERVER_FULL
        await socket.close(code=1013 if full else 4404)
        return
    connection = Connection(socket, ticket.address)
    await Session(manager, gate, settings, table, socket, connection, ticket, metered).run()


async def forward(
    socket: PageSocket, table_id: str, home: str, ticket: Ticket, gate: Gate, forwarder: Forwarder
) -> None:
    """Forward the page's frames, metered here, to its table's home, and write what the
    home sends back, until either end closes (web.forward)."""
    page_id, page = forwarder.forwarding(table_id, home, ticket.address)

    async def write() -> None:
        while True:
            item = await page.out.get()
            if isinstance(item, int):
                await socket.close(code=item)
                return
            await socket.send_text(item)

    writer = asyncio.create_task(write())
    try:
        while True:
            reading = asyncio.ensure_future(socket.receive())
            done, _ = await asyncio.wait({reading, writer}, return_when=asyncio.FIRST_COMPLETED)
            if reading not in done:
                reading.cancel()
                break
            frame = reading.result()
            if frame["type"] == "websocket.disconnect":
                break
            raw = frame.get("text") or frame.get("bytes") or ""
            text = raw if isinstance(raw, str) else raw.decode(errors="replace")
            try:
                gate.message(ticket, len(text.encode()))
            except FloodingError as exc:
                page.out.put_nowait(to_json(protocol.error(exc)))
                page.out.put_nowait(1008)
                await asyncio.wait({writer}, timeout=5)
                break
            except RefusedError as exc:
                page.out.put_nowait(to_json(protocol.error(exc)))  # at once, at no cost
                continue
            forwarder.frame(page_id, text)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        forwarder.closed(page_id)
        writer.cancel()


class Session:
    def __init__(
        self,
        manager: TableManager,
        gate: Gate,
        settings: Settings,
        table: LiveTable,
        socket: PageSocket,
        connection: Connection,
        ticket: Ticket,
        metered: bool = True,
    ) -> None:
        """``metered``: whether this process meters the page's frames (a page forwarded from
        another process was metered there)."""
        self.metered = metered
        self.manager, self.gate, self.settings = manager, gate, settings
        self.table, self.socket, self.connection, self.ticket = table, socket, connection, ticket
        self.handlers: dict[type[Any], Callable[[Any], Awaitable[None]]] = {
            protocol.Hello: self.hello,
            protocol.Act: self.act,
            protocol.Undo: self.undo,
            protocol.Resign: self.resign,
            protocol.Reclaim: self.reclaim,
            protocol.Rematch: self.rematch,
            protocol.Query: self.query,
            protocol.Predict: self.predict,
            protocol.Preview: self.preview,
            protocol.Chat: self.chat,
            protocol.Ping: self.ping,
            protocol.Hint: self.hint,  # issue 32 (web.hints)
        }

    async def run(self) -> None:
        connection, socket = self.connection, self.socket
        self.manager.schedule_bot(self.table)
        # A socket that says no hello is let go soon: it holds a place at its address and in
        # memory, and nobody can tell yet whether it is a player's (web.quotas).
        hello_by = asyncio.get_running_loop().time() + self.settings.limits.hello_seconds
        try:
            while not connection.gone:
                try:
                    async with asyncio.timeout_at(None if connection.welcomed else hello_by):
                        frame = await socket.receive()
                except TimeoutError:
                    await connection.finish(protocol.error(no_hello(self.settings.limits)))
                    break
                if frame["type"] == "websocket.disconnect":
                    break
                # A binary frame is read as the same JSON (receive_text would fail on one).
                raw = frame.get("text") or frame.get("bytes") or ""
                try:
                    size = len(raw.encode() if isinstance(raw, str) else raw)
                    if self.metered:
                        self.gate.message(self.ticket, size)
                except FloodingError as exc:
                    await connection.finish(protocol.error(exc))
                    break
                except RefusedError as exc:
                    connection.send(protocol.error(exc))  # answered at once, at no cost
                    continue
                await self.handle(raw)
        except WebSocketDisconnect:
            pass
        finally:
            self.manager.leave(self.table, connection)

    async def handle(self, raw: str | bytes) -> None:
        connection = self.connection
        try:
            message = parse_client(raw)
            await self.handlers[type(message)](message)
        except HomeLostError:
            pass  # (web.tables.lapsed) the page reconnects, and resends what is unanswered
        except GamenightError as exc:
            connection.send(protocol.error(exc))
            if isinstance(exc, RefusedError) and exc.code == Code.MOVED_ON:
                # "Have another look": the table as it now is.
                state = self.manager.state_message(self.table, connection.seats)
                connection.send_state(state, whole=True)
        except Exception as exc:
            log.exception("unexpected error handling %r", raw[:200])
            connection.send(protocol.error(exc))

    async def hello(self, message: protocol.Hello) -> None:
        gate, ticket = self.gate, self.ticket

        def admit(seats: list[int]) -> None:
            # A page that opens a seat always gets in; one that opens none is a spectator,
            # within the spectators' limits.
            gate.sit(ticket) if seats else gate.watch(ticket)

        try:
            await self.manager.hello(
                self.table, self.connection, message.tokens, message.watch, admit=admit
            )
        except RefusedError as exc:
            if exc.code not in (Code.UNLISTED, Code.TOO_MANY_SPECTATORS):
                raise
            await self.connection.finish(protocol.error(exc))

    async def act(self, message: protocol.Act) -> None:
        # The manager tells the page it is stored (in the change it hears).
        await self.manager.act(
            self.table,
            message.seat,
            message.action,
            self.connection,
            seen=message.revision,
            message_id=message.id,
        )

    async def undo(self, message: protocol.Undo) -> None:
        await self.manager.undo(
            self.table, message.seat, self.connection, seen=message.revision, message_id=message.id
        )

    async def resign(self, message: protocol.Resign) -> None:
        await self.manager.resign(self.table, message.seat, self.connection)

    async def reclaim(self, message: protocol.Reclaim) -> None:
        await self.manager.reclaim(self.table, message.seat, self.connection)

    async def rematch(self, message: protocol.Rematch) -> None:
        await self.manager.rematch(self.table, self.connection)

    async def query(self, message: protocol.Query) -> None:
        result = await self.table.referee.query(message.name, message.args)
        self.connection.send(outbound.answer(message.name, message.id, result))

    # The pages' older words for two games' queries, kept on the wire (and their answers').
    async def predict(self, message: protocol.Predict) -> None:
        result = await self.table.referee.query("predict", {"shot": message.shot})
        self.connection.send({"type": "prediction", **result})

    async def preview(self, message: protocol.Preview) -> None:
        result = await self.table.referee.query("preview", {"rotation": message.rotation})
        self.connection.send({"type": "preview", **result})

    async def chat(self, message: protocol.Chat) -> None:
        with self.gate.chatting(self.ticket, side_of(self.connection)):
            self.manager.say(self.table, self.connection, message)

    async def hint(self, message: protocol.Hint) -> None:
        bots = self.manager.bots
        answer = await hints.ask(self.table, bots, self.connection, message.seat, message.level)
        self.connection.send(answer)

    async def ping(self, message: protocol.Ping) -> None:
        self.connection.send(outbound.pong())
