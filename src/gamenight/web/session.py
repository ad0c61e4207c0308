"""One page's socket at a table: the hello deadline, the message limits, and each message
handed to the table's owner of its kind (web.tables), by its type."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from gamenight.core.errors import GamenightError
from gamenight.web import outbound, protocol
from gamenight.web.chat import side_of
from gamenight.web.live import LiveTable
from gamenight.web.protocol import parse_client
from gamenight.web.quotas import FloodingError, Gate, Ticket
from gamenight.web.refusals import Code, RefusedError, no_hello
from gamenight.web.room import Connection
from gamenight.web.settings import Settings
from gamenight.web.tables import TableManager

log = logging.getLogger("gamenight.web")


async def table_socket(
    socket: WebSocket, table_id: str, manager: TableManager, gate: Gate, settings: Settings
) -> None:
    """Serve the page's socket at ``table_id`` until it closes."""
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
        await visit(socket, table_id, ticket, manager, gate, settings)
    finally:
        gate.close_socket(ticket)
        manager.closed(table_id)


async def visit(
    socket: WebSocket,
    table_id: str,
    ticket: Ticket,
    manager: TableManager,
    gate: Gate,
    settings: Settings,
) -> None:
    try:
        table = await manager.get(table_id)
    except GamenightError as exc:
        await socket.send_json(protocol.error(exc))
        full = isinstance(exc, RefusedError) and exc.code == Code.SERVER_FULL
        await socket.close(code=1013 if full else 4404)
        return
    connection = Connection(socket, ticket.address)
    await Session(manager, gate, settings, table, socket, connection, ticket).run()


class Session:
    def __init__(
        self,
        manager: TableManager,
        gate: Gate,
        settings: Settings,
        table: LiveTable,
        socket: WebSocket,
        connection: Connection,
        ticket: Ticket,
    ) -> None:
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

    async def ping(self, message: protocol.Ping) -> None:
        self.connection.send(outbound.pong())
