"""The FastAPI application: pages, the JSON API and each table's WebSocket."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import (
    Depends,
    FastAPI,
    HTTPException,
    Query,
    Request,
    WebSocket,
    WebSocketDisconnect,
)
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import TypeAdapter, ValidationError
from starlette.middleware.trustedhost import TrustedHostMiddleware

from gamenight import __version__
from gamenight.core.errors import GamenightError
from gamenight.web import collector, protocol
from gamenight.web.chat import side_of
from gamenight.web.guard import Guard
from gamenight.web.links import InviteCheckIn, our_link, qr_svg
from gamenight.web.live import TableEvents
from gamenight.web.privacy import may_watch, new_privacy, visibility_of
from gamenight.web.protocol import RenewIn, TableIn, parse_client
from gamenight.web.quotas import FloodingError, Gate, Ticket
from gamenight.web.reading import PilingProtocol
from gamenight.web.refusals import Code, RefusedError, no_hello, no_table, refusal, unlisted
from gamenight.web.replays import Replays
from gamenight.web.room import Connection
from gamenight.web.rules import Part, rules_html
from gamenight.web.seats import SeatKeyError, hash_keys, hash_token, new_token
from gamenight.web.settings import Settings
from gamenight.web.store import StoredTable, open_store
from gamenight.web.tables import LiveTable, TableManager
from gamenight.web.yours import ArchiveIn, HostIn, MineIn, held_seats, is_host, summary

log = logging.getLogger("gamenight.web")
STATIC = Path(str(resources.files("gamenight.web") / "static"))
LISTED = 100  # tables GET /api/tables lists
KEYS = 10  # keys looked at in one request (?key=…&key=…: a page sends every token it holds)
# ``?key=``, once or more: an unlisted table's spectator token or a seat's (web.privacy).
Keys = Annotated[list[str], Query()]


_OBJECT = TypeAdapter(dict[str, Any])


class HttpRefusal(HTTPException):
    """An HTTP refusal whose body carries, beside ``detail``, the refusal's ``code`` and
    ``params`` (gamenight.web.refusals), so that a page can say it in its own language."""

    def __init__(self, status: int, exc: Exception) -> None:
        body = refusal(exc)
        super().__init__(status, body["message"])
        self.code: str = body["code"]
        self.params: dict[str, Any] = body["params"]


async def json_body(request: Request) -> dict[str, Any]:
    """A request's JSON object, read as strictly as a socket's messages are: Python's own
    reader takes a lone surrogate (``"\\ud800"``), text that cannot be written back as UTF-8,
    so that an answer quoting it failed with 500."""
    kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if kind and kind != "application/json" and not kind.endswith("+json"):
        # (As FastAPI reads a body: a form of another site may post text/plain unasked.)
        detail = f"the body must be JSON (Content-Type: application/json), not {kind}"
        raise HttpRefusal(422, GamenightError(detail))
    try:
        return _OBJECT.validate_json(await request.body())
    except ValidationError as exc:
        raise HttpRefusal(422, exc) from None


# Every JSON body the API takes.
Body = Annotated[dict[str, Any], Depends(json_body)]


def serving_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's options for the app, as ``serve`` runs it."""
    return {
        # A frame over the message limit is refused by the protocol itself, before the
        # whole of it is held (the app refuses the rest with its own coded answer).
        "ws_max_size": settings.limits.message_bytes,
        # No permessage-deflate (issue 20, docs/benchmarks.md): each page's compressor and
        # decompressor cost the server some 46 KB for as long as the page is open (23 of
        # the 52 MB that 500 open pages took), and CPU on every message, to save a few
        # hundred bytes of ~1 KB changes.
        "ws_per_message_deflate": False,
        # uvicorn's protocol, taking a page's socket out of epoll only when its messages
        # pile up (web.reading).
        "ws": PilingProtocol,
        # uvloop, a dependency (but not on Windows, where uvicorn takes asyncio's loop): the
        # sockets' calls and the loop's own dispatch in C (docs/benchmarks.md).
        "loop": "auto",
        # Forwarding headers only from the proxies the host names (uvicorn believes any
        # from 127.0.0.1 by default, so a local client could be a new address each time).
        "proxy_headers": bool(settings.trusted_proxies),
        "forwarded_allow_ips": ",".join(settings.trusted_proxies) or None,
    }


def serve(app: FastAPI, settings: Settings, host: str, port: int) -> None:
    """Serve ``app`` in this process until it is stopped: how ``gamenight serve`` and the
    server benchmark's processes run it, so that the benchmark measures what is served."""
    import uvicorn

    collector.settle()
    uvicorn.run(app, host=host, port=port, log_level="warning", **serving_options(settings))


def create_app(settings: Settings | None = None, bot_executor: Executor | None = None) -> FastAPI:
    """The app. ``bot_executor`` replaces the bots' process pool (tests use threads)."""
    settings = settings or Settings.from_env()
    store = open_store(settings.database_url, synchronous=settings.sqlite_synchronous)
    gate = Gate(settings.limits)
    relay: Callable[[TableManager], TableEvents] | None = None
    if settings.redis_url:
        from gamenight.web.relay import RedisRelay

        url, ttl = settings.redis_url, settings.presence_ttl

        def relay(manager: TableManager) -> TableEvents:
            return RedisRelay(url, manager, ttl)

    manager = TableManager(
        store,
        settings.bot_workers,
        bot_executor,
        settings.limits,
        bot_seconds=settings.bot_seconds,
        bot_think_seconds=settings.think_seconds,
        in_use=lambda table_id: gate.sockets(table_id) > 0,
        events=relay,
    )
    replays = Replays()

    async def sweep() -> None:
        """Let idle tables leave memory, every so often."""
        while True:
            await asyncio.sleep(min(60.0, settings.limits.idle_seconds / 4))
            manager.evict()
            await manager.wake_due()  # clocks of tables not in memory (docs/rules/table.md)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await manager.events.start()
        app.state.relay = manager.events if settings.redis_url else None
        manager.start()  # (after the relay: two servers resuming a table think once)
        sweeper = asyncio.create_task(sweep())
        try:
            yield
        finally:
            sweeper.cancel()
            await manager.events.stop()
            manager.close()
            # Every write still waiting is committed and answered (or refused), then the
            # store lets go: a daemon writer thread would die with the process, its writes
            # never answered.
            await store.close()

    app = FastAPI(title="gamenight", version=__version__, lifespan=lifespan)
    app.state.manager = manager
    # Outermost: a body too big, a flood of requests or a socket from another site's page
    # is refused before anything else runs; every answer gets the security headers.
    # A page opened at the public address (behind a proxy, which may rewrite the host) may
    # open a table's socket too.
    origins = settings.allowed_origins + ((settings.public_url,) if settings.public_url else ())
    app.add_middleware(Guard, gate=gate, allowed_origins=origins)
    # Outermost of all: a request that names a host this server does not serve is answered
    # 400 (a socket's, before it is accepted): DNS rebinding, issue 31.
    app.add_middleware(
        TrustedHostMiddleware, allowed_hosts=list(settings.served_hosts()), www_redirect=False
    )
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # ---------------------------------------------------------------- pages

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return page("index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return page("table.html")

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return page("replay.html")

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules_page(game: str) -> FileResponse:
        return page("rules.html")

    # ---------------------------------------------------------------- API

    @app.exception_handler(HttpRefusal)
    async def refusal_body(_: Request, exc: HttpRefusal) -> JSONResponse:
        return JSONResponse(
            {"detail": exc.detail, "code": exc.code, "params": exc.params}, exc.status_code
        )

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        # A path or query that does not read (``/invites/abc``): refused like any bad input.
        return await refusal_body(request, HttpRefusal(422, exc))

    def refused(exc: ValidationError | GamenightError) -> HttpRefusal:
        return HttpRefusal(403 if isinstance(exc, SeatKeyError) else 422, exc)

    async def live(table_id: str) -> LiveTable:
        try:
            return await manager.get(table_id)
        except RefusedError as exc:
            raise HttpRefusal(429 if exc.code == Code.SERVER_FULL else 404, exc) from None
        except GamenightError as exc:
            raise HttpRefusal(404, exc) from None

    async def watched(table_id: str, keys: list[str]) -> LiveTable:
        """The table, if one of ``keys`` lets its asker see it (web.privacy)."""
        table = await live(table_id)
        stored = table.referee.stored
        if not may_watch(stored.setup, stored.seats, keys[:KEYS]):
            raise HttpRefusal(403, unlisted())
        return table

    def address(request: Request) -> str:
        return request.client.host if request.client else ""

    @app.post("/api/tables")
    async def create_table(request: Request, body: Body) -> JSONResponse:
        try:
            table_in = TableIn.model_validate(body)
            gate.new_table(address(request))
            privacy, watch = new_privacy(table_in)
            host = new_token()  # (web.yours) archives and deletes the table
            table, seats = await manager.create(table_in, privacy, hash_token(host))
        except RefusedError as exc:
            status = 429 if exc.code in (Code.TOO_MANY_TABLES, Code.SERVER_FULL) else 422
            raise HttpRefusal(status, exc) from None
        except (ValidationError, GamenightError) as exc:
            raise refused(exc) from None
        return JSONResponse(
            {
                "id": table.id,
                "game": table.game.name,
                "seats": seats,
                "visibility": privacy["visibility"],
                "watch": watch,
                "host": host,
            }
        )

    @app.post("/api/tables/{table_id}/invites/{seat}")
    async def renew_invite(table_id: str, seat: int, body: Body) -> dict[str, str]:
        """A new invite link for ``seat``; the old one, and whoever used it, lose the seat."""
        table = await live(table_id)
        try:
            key = RenewIn.model_validate(body).renew
            return {"token": await manager.renew_invite(table, seat, key)}
        except (ValidationError, GamenightError) as exc:
            raise refused(exc) from None

    @app.post("/api/tables/{table_id}/check-invite")
    async def check_invite(table_id: str, body: Body) -> dict[str, str]:
        """What an invite link opens, before the page uses it (``invite``: open, yours,
        taken, renewed or wrong: web.seats.LinkState), and whether the table is public (a
        guest whose link opens nothing may still watch it). Changes nothing."""
        table = await live(table_id)
        try:
            asked = InviteCheckIn.model_validate(body)
        except ValidationError as exc:
            raise refused(exc) from None
        stored = table.referee.stored
        return {
            "invite": table.referee.seats.link_state(asked.token, asked.keys),
            "visibility": visibility_of(stored.setup, stored.seats),
        }

    @app.get("/api/links")
    async def links() -> dict[str, str | None]:
        """The base of invite and spectator links (None: the address the page was opened
        with): web.links."""
        return {"public_url": settings.public_url}

    @app.get("/api/qr")
    async def qr(request: Request, text: str) -> Response:
        """An invite or spectator link of this server as a QR code (SVG), for a phone's
        camera; any other text is refused (``not_our_link``)."""
        own = str(request.base_url).rstrip("/")
        try:
            link = our_link(text, [own, *([settings.public_url] if settings.public_url else [])])
        except RefusedError as exc:
            raise HttpRefusal(422, exc) from None
        return Response(
            qr_svg(link),
            media_type="image/svg+xml",
            # The link opens a seat: kept by no cache.
            headers={"Cache-Control": "no-store"},
        )

    @app.get("/api/tables")
    async def list_tables() -> list[dict[str, Any]]:
        """The latest public tables (an unlisted one is seen only through its links)."""
        recent = await store.recent(LISTED * 4)
        stored = [
            t for t in recent if visibility_of(t.setup, t.seats) == "public" and not t.archived
        ][:LISTED]
        return [
            {
                "id": t.id,
                "game": t.game,
                "status": t.status,
                "outcome": t.outcome,
                "seats": [
                    {"name": s["name"], "kind": s["kind"], "role": s["role"]} for s in t.seats
                ],
                "created": t.created.isoformat(),
                "updated": t.updated.isoformat(),
            }
            for t in stored
        ]

    @app.post("/api/tables/mine")
    async def my_tables(body: Body) -> dict[str, Any]:
        """The tables the keys a browser holds open (web.yours), and the ids none opens."""
        try:
            keys = MineIn.model_validate(body).tables
        except ValidationError as exc:
            raise refused(exc) from None
        found = {t.id: t for t in await store.some(list(keys))}
        tables = []
        for table_id, table_keys in keys.items():
            stored = found.get(table_id)
            if stored is None:
                continue
            # Whose turn it is matters to a browser holding a seat at a game in play.
            playing = stored.status == "playing" and bool(held_seats(stored, hash_keys(table_keys)))
            seen = summary(stored, table_keys, await actor_of(stored) if playing else None)
            if seen is not None:
                tables.append(seen)
        opened = {t["id"] for t in tables}
        return {"tables": tables, "unknown": [i for i in keys if i not in opened]}

    async def actor_of(stored: StoredTable) -> int | None:
        """Whose turn it is at a table in play: its clock, stored with its latest action, says
        so; a table from before there were clocks is loaded to know (None: not known now,
        the server being full)."""
        if stored.clock is not None and "actor" in stored.clock:
            actor: int | None = stored.clock["actor"]
            return actor
        try:
            return (await manager.get(stored.id)).referee.actor
        except GamenightError:
            return None

    async def hosted(table_id: str, keys: list[str]) -> None:
        """Refuse unless ``keys`` show the asker is the table's host (or it does not exist)."""
        found = await store.some([table_id])
        if not found:
            raise HttpRefusal(404, no_table(table_id))
        if not is_host(found[0], keys):
            raise HttpRefusal(
                403,
                RefusedError("only the table's host may archive or delete it", Code.NOT_HOST),
            )

    @app.post("/api/tables/{table_id}/archive")
    async def archive_table(table_id: str, body: Body) -> dict[str, Any]:
        """Archive the table (out of every list but its holders' archive), or bring it back."""
        try:
            asked = ArchiveIn.model_validate(body)
        except ValidationError as exc:
            raise refused(exc) from None
        await hosted(table_id, asked.keys)
        await manager.archive(table_id, asked.archived)
        return {"id": table_id, "archived": asked.archived}

    @app.post("/api/tables/{table_id}/delete")
    async def delete_table(table_id: str, body: Body) -> dict[str, Any]:
        """Delete the table and its record for good; pages open at it are let go."""
        try:
            asked = HostIn.model_validate(body)
        except ValidationError as exc:
            raise refused(exc) from None
        await hosted(table_id, asked.keys)
        await manager.delete(table_id)
        return {"id": table_id, "deleted": True}

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str, key: Keys = []) -> dict[str, Any]:  # noqa: B006
        table = await watched(table_id, key)
        referee = table.referee
        return {
            "id": table.id,
            "game": table.game.name,
            "seats": [
                {"name": s.name, "kind": s.kind, "role": s.role, "level": s.level}
                for s in referee.seats
            ],
            "version": referee.version,
            "revision": referee.revision,
            "status": referee.status()[0],
            "visibility": visibility_of(referee.stored.setup, referee.stored.seats),
            # Invited seats whose link nobody has used yet: a spectator is told how to sit.
            "free": [i for i, s in enumerate(referee.seats) if s.open_invite],
        }

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, key: Keys = []) -> Response:  # noqa: B006
        table = await watched(table_id, key)
        if not table.referee.finished:
            # A record holds the seed, so every hand and every future draw or wobble: it is
            # for games that are over.
            raise HttpRefusal(
                409,
                RefusedError(
                    "the record can be downloaded once the game is over", Code.RECORD_AFTER_GAME
                ),
            )
        async with table.lock:
            record = table.referee.record()
            # A game the table ended (resigned, out of time, abandoned): its outcome, which
            # the record replays to (core.endings).
            record.outcome = table.referee.outcome
        text = record.to_json()
        filename = f"{table.game.name}-{table.id}.json"
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @app.get("/api/tables/{table_id}/replay/{step}")
    async def replay_step(
        table_id: str,
        step: int,
        key: Keys = [],  # noqa: B006
    ) -> dict[str, Any]:
        table = await watched(table_id, key)
        referee = table.referee
        if not 0 <= step <= referee.version:
            raise HttpRefusal(
                404,
                RefusedError(
                    f"step {step} is not between 0 and {referee.version}",
                    Code.NO_STEP,
                    step=step,
                    steps=referee.version,
                ),
            )
        found = await replays.step(table, step)
        return {
            "step": step,
            "steps": referee.version,
            "names": referee.seats.names,
            **found,  # view, last, finished, hands (once the game is over)
        }

    @app.get("/api/rules/{game}")
    async def rules(game: str, lang: str = "en", part: Part = "guide") -> dict[str, str]:
        """The players' guide to ``game`` (``part=full``: every rule decision, exactly)."""
        try:
            html = rules_html(game, lang, part)
            # Which language came back, so the page can say when it fell back to English.
            served = lang if lang != "en" and html != rules_html(game, "en", part) else "en"
            return {"html": html, "lang": served}
        except KeyError:
            raise HttpRefusal(
                404, RefusedError(f"no rules for {game!r}", Code.NO_RULES, game=game)
            ) from None

    # ---------------------------------------------------------------- the table's socket

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(socket: WebSocket, table_id: str) -> None:
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
            await visit(socket, table_id, ticket)
        finally:
            gate.close_socket(ticket)
            manager.closed(table_id)

    async def visit(socket: WebSocket, table_id: str, ticket: Ticket) -> None:
        try:
            table = await manager.get(table_id)
        except GamenightError as exc:
            await socket.send_json(protocol.error(exc))
            full = isinstance(exc, RefusedError) and exc.code == Code.SERVER_FULL
            await socket.close(code=1013 if full else 4404)
            return
        connection = Connection(socket, ticket.address)
        manager.schedule_bot(table)
        # A socket that says no hello is let go soon: it holds a place at its address and in
        # memory, and nobody can tell yet whether it is a player's (web.quotas).
        hello_by = asyncio.get_running_loop().time() + settings.limits.hello_seconds
        try:
            while not connection.gone:
                try:
                    async with asyncio.timeout_at(None if connection.welcomed else hello_by):
                        frame = await socket.receive()
                except TimeoutError:
                    await connection.finish(protocol.error(no_hello(settings.limits)))
                    break
                if frame["type"] == "websocket.disconnect":
                    break
                # A binary frame is read as the same JSON (receive_text would fail on one).
                raw = frame.get("text") or frame.get("bytes") or ""
                try:
                    gate.message(ticket, len(raw.encode() if isinstance(raw, str) else raw))
                except FloodingError as exc:
                    await connection.finish(protocol.error(exc))
                    break
                except RefusedError as exc:
                    connection.send(protocol.error(exc))  # answered at once, at no cost
                    continue
                await handle(table, connection, ticket, raw)
        except WebSocketDisconnect:
            pass
        finally:
            manager.leave(table, connection)

    def admit(ticket: Ticket) -> Callable[[list[int]], None]:
        """What a hello of the socket ``ticket`` checks: a page that opens a seat always
        gets in; one that opens none is a spectator, within the spectators' limits."""
        return lambda seats: gate.sit(ticket) if seats else gate.watch(ticket)

    async def handle(
        table: LiveTable, connection: Connection, ticket: Ticket, raw: str | bytes
    ) -> None:
        try:
            message = parse_client(raw)
            if isinstance(message, protocol.Hello):
                try:
                    await manager.hello(
                        table, connection, message.tokens, message.watch, admit=admit(ticket)
                    )
                except RefusedError as exc:
                    if exc.code not in (Code.UNLISTED, Code.TOO_MANY_SPECTATORS):
                        raise
                    await connection.finish(protocol.error(exc))
            elif isinstance(message, protocol.Act):
                # The manager tells the page it is stored (in the change it hears).
                await manager.act(
                    table,
                    message.seat,
                    message.action,
                    connection,
                    seen=message.revision,
                    message_id=message.id,
                )
            elif isinstance(message, protocol.Undo):
                await manager.undo(
                    table, message.seat, connection, seen=message.revision, message_id=message.id
                )
            elif isinstance(message, protocol.Resign):
                await manager.resign(table, message.seat, connection)
            elif isinstance(message, protocol.Reclaim):
                await manager.reclaim(table, message.seat, connection)
            elif isinstance(message, protocol.Rematch):
                await manager.rematch(table, connection)
            elif isinstance(message, protocol.Predict):
                # Under the lock: an action may be changing the state in another thread.
                async with table.lock:
                    result = await asyncio.to_thread(table.game.predict, table.state, message.shot)
                connection.send({"type": "prediction", **result})
            elif isinstance(message, protocol.Preview):
                async with table.lock:
                    result = await asyncio.to_thread(
                        table.game.preview, table.state, message.rotation
                    )
                connection.send({"type": "preview", **result})
            elif isinstance(message, protocol.Chat):
                with gate.chatting(ticket, side_of(connection)):
                    manager.say(table, connection, message)
            else:
                connection.send({"type": "pong"})
        except GamenightError as exc:
            connection.send(protocol.error(exc))
            if isinstance(exc, RefusedError) and exc.code == Code.MOVED_ON:
                # "Have another look": the table as it now is.
                connection.send_state(manager.state_message(table, connection.seats), whole=True)
        except Exception as exc:
            log.exception("unexpected error handling %r", raw[:200])
            connection.send(protocol.error(exc))

    return app
