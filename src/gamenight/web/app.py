"""The FastAPI application: the pieces of one server, made and wired once (web.services),
with the routes of each part (web.pages, web.tables_api, web.host_api, web.links_api) and
each table's socket (web.session)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.trustedhost import TrustedHostMiddleware

from gamenight import __version__
from gamenight.web import collector, redis_wait
from gamenight.web.analysis import Analyst, analysis_router
from gamenight.web.forward import CHANNEL, Forwarder, RemoteSocket
from gamenight.web.guard import Guard
from gamenight.web.homes import Homes, LocalHomes, RedisHomes
from gamenight.web.host_api import host_router
from gamenight.web.http import HttpRefusal
from gamenight.web.lessons import lessons_router
from gamenight.web.links_api import links_router
from gamenight.web.live import TableEvents
from gamenight.web.pages import STATIC, pages_router
from gamenight.web.quotas import Gate
from gamenight.web.reading import PilingProtocol
from gamenight.web.replays import Replays
from gamenight.web.services import Services
from gamenight.web.session import forwarded, table_socket
from gamenight.web.settings import Settings
from gamenight.web.store import TableStore, open_store
from gamenight.web.tables import TableManager
from gamenight.web.tables_api import tables_router

log = logging.getLogger("gamenight.web")


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
        # pile up, and asking a silent page whether it is there (web.reading).
        "ws": PilingProtocol,
        "ws_ping_interval": settings.limits.silence_seconds / 2,
        "ws_ping_timeout": settings.limits.silence_seconds / 2,
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
    homes, forwarder = homes_of(settings, store)
    manager = TableManager(
        store,
        settings.bot_workers,
        bot_executor,
        settings.limits,
        bot_seconds=settings.bot_seconds,
        bot_think_seconds=settings.think_seconds,
        in_use=lambda table_id: gate.sockets(table_id) > 0,
        events=relay_of(settings, homes.origin),
        homes=homes,
    )
    # The analyses of finished games, in a pool of their own (issue 32: web.analysis).
    analyst = Analyst(store, bot_executor)
    services = Services(settings, store, manager, gate, Replays(), analyst)
    app = FastAPI(title="gamenight", version=__version__, lifespan=lifespan_of(services, forwarder))
    app.state.manager = manager
    app.state.analyst = analyst
    app.state.forwarder = forwarder
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
    app.add_exception_handler(HttpRefusal, refusal_body)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, invalid_request)  # type: ignore[arg-type]
    for router in (
        pages_router(),
        tables_router(services),
        host_router(services),
        links_router(settings),
        analysis_router(services, analyst),
        lessons_router(),
    ):
        app.include_router(router)

    @app.websocket("/ws/tables/{table_id}")
    async def socket(socket: WebSocket, table_id: str) -> None:
        await table_socket(socket, table_id, manager, gate, settings, forwarder)

    return app


def homes_of(settings: Settings, store: TableStore) -> tuple[Homes, Forwarder | None]:
    """The leases of the tables this process is home of (web.homes), and what forwards the
    pages whose socket lands here to their table's home elsewhere (web.forward): a process
    alone is home of every table it loads, and forwards nothing."""
    if not settings.redis_url:
        return LocalHomes(store), None
    import redis.asyncio

    from gamenight.web.relay import process_id

    client = redis.asyncio.from_url(settings.redis_url)
    homes = RedisHomes(client, store, process_id(), settings.home_ttl, listens=CHANNEL)
    return homes, Forwarder(client, homes, settings.home_ttl)


def relay_of(settings: Settings, origin: str) -> Callable[[TableManager], TableEvents] | None:
    """What makes the server's relay to the others (web.relay), given its manager: none
    for a server alone."""
    if not settings.redis_url:
        return None
    from gamenight.web.relay import RedisRelay

    url, ttl = settings.redis_url, settings.presence_ttl

    def relay(manager: TableManager) -> TableEvents:
        return RedisRelay(url, manager, ttl, origin)

    return relay


def lifespan_of(services: Services, forwarder: Forwarder | None) -> Any:
    manager, settings = services.manager, services.settings

    async def sweep() -> None:
        """Let idle tables leave memory, every so often."""
        while True:
            await asyncio.sleep(min(60.0, settings.limits.idle_seconds / 4))
            manager.evict()
            await manager.wake_due()  # clocks of tables not in memory (docs/rules/table.md)

    async def adopt() -> None:
        """Take the bot tables of a home that died (web.homes), every lease's ttl: a lease
        expires within one, so they play on within two (the pages' tables are taken when
        they reconnect, sooner)."""
        while True:
            await asyncio.sleep(settings.home_ttl)
            try:
                await manager.adopt()
            except Exception as exc:  # Redis or the store out of reach: the next round
                log.warning("the tables of a home that died could not be looked for (%r)", exc)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await manager.events.start()
        await manager.homes.start(manager.lapsed)
        if forwarder is not None:
            gate = services.gate

            async def serve(table_id: str, socket: RemoteSocket, address: str) -> None:
                await forwarded(socket, table_id, address, manager, gate, settings)

            await forwarder.start(serve)
        app.state.relay = manager.events if settings.redis_url else None
        manager.start()  # (after the relay: two servers resuming a table think once)
        sweeper = asyncio.create_task(sweep())
        adopter = asyncio.create_task(adopt()) if forwarder is not None else None
        try:
            yield
        finally:
            sweeper.cancel()
            if adopter is not None:
                adopter.cancel()
            if forwarder is not None:
                await forwarder.stop()  # (its pages reconnect, to the tables' next homes)
            await manager.events.stop()
            await manager.homes.stop()  # (the others take this process's tables at once)
            if forwarder is not None:
                await redis_wait.close(forwarder.client)
            manager.close()
            services.analyst.close()
            # Every write still waiting is committed and answered (or refused), then the
            # store lets go: a daemon writer thread would die with the process, its writes
            # never answered.
            await services.store.close()

    return lifespan


async def refusal_body(_: Request, exc: HttpRefusal) -> JSONResponse:
    return JSONResponse(
        {"detail": exc.detail, "code": exc.code, "params": exc.params}, exc.status_code
    )


async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
    # A path or query that does not read (``/invites/abc``): refused like any bad input.
    return await refusal_body(request, HttpRefusal(422, exc))
