"""A server process of ``gamenight bench server``: the web app exactly as ``gamenight serve``
runs it (uvicorn, the same options), plus a WebSocket echo at ``/ws/bench/echo`` that the
benchmark drives to measure the stack's own ceiling.

The echo lives here and nowhere else: a normal server (``gamenight serve``, ``create_app``)
has no such endpoint; nor ``POST /bench/commits``, the store's group-commit figures
(web.commits) that the benchmark reads for its measured play. Run as
``python -m gamenight.bench.serving --port P [--profile FILE]``, with the settings in
``GAMENIGHT_*`` variables (web.settings), or ``--fd N`` instead of ``--port``: on a listening
socket bound by the benchmark and shared with other such processes, as the workers of
``gamenight serve --workers N`` share theirs (web.pool: the kernel hands each connection to
one of them). Each process says which it is, its id among the processes (web.homes' origin,
the id a table's home is named by in Redis), on the first line of its output
(``ORIGIN_LINE``) and in a header of every socket it accepts (``PROCESS_HEADER``), so that
the benchmark knows where each page's socket landed; with ``--profile`` the event loop's thread runs
under cProfile from SIGUSR1 to SIGUSR2 (the benchmark's measured play), and the statistics
are written to FILE at SIGUSR2 (``--profile-clock cpu``: timed by the thread's CPU clock, so
that the waits for the GIL, which the wall's clock counts in the call that waited, are left
out).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import signal
import socket
import time
from types import FrameType

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gamenight.web.app import create_app, serve, serving_options
from gamenight.web.settings import Settings

ECHO_PATH = "/ws/bench/echo"
PROCESS_HEADER = "x-gamenight-bench-process"  # in a socket's handshake: the process's origin
ORIGIN_LINE = "bench process "  # + the origin: the first line the process prints
COMMITS_PATH = "/bench/commits"  # POST: the store's group commits so far (then reset)
PROFILE_ON = signal.SIGUSR1
PROFILE_OFF = signal.SIGUSR2
# The clocks a profile may run on (cProfile's default is the wall's).
CLOCKS = {"wall": time.perf_counter, "cpu": time.thread_time}


def bench_app(settings: Settings) -> FastAPI:
    """The web app with the echo endpoint: every message is sent straight back."""
    app = create_app(settings)

    async def echo(socket: WebSocket) -> None:
        await socket.accept()
        try:
            while True:
                await socket.send_text(await socket.receive_text())
        except WebSocketDisconnect:
            pass

    async def commits() -> dict[str, int | float | str]:
        """web.commits.Committer.figures, reset: the benchmark asks as its play begins and
        again as it ends; and the event loop's library (uvloop, or asyncio without it)."""
        figures: dict[str, int | float] = app.state.manager.store.commits.figures(reset=True)
        loop = type(asyncio.get_running_loop()).__module__.partition(".")[0]
        return {**figures, "event_loop": loop}

    app.add_api_websocket_route(ECHO_PATH, echo)
    app.add_api_route(COMMITS_PATH, commits, methods=["POST"])
    app.add_middleware(SaysWhere, origin=app.state.manager.homes.origin)
    return app


class SaysWhere:
    """ASGI middleware: every socket this process accepts carries its origin in a header."""

    def __init__(self, app: ASGIApp, origin: str) -> None:
        self.app = app
        self.header = (PROCESS_HEADER.encode(), origin.encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return

        async def said(message: Message) -> None:
            if message["type"] == "websocket.accept":
                message = {**message, "headers": [*message.get("headers", []), self.header]}
            await send(message)

        await self.app(scope, receive, said)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m gamenight.bench.serving")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--port", type=int)
    where.add_argument("--fd", type=int, help="serve on this inherited listening socket")
    parser.add_argument("--profile", help="write cProfile statistics here (at SIGUSR2)")
    parser.add_argument(
        "--profile-clock",
        choices=CLOCKS,
        default="wall",
        help="the profile's clock: wall (a call that gave up the GIL counts its wait to take"
        " it back) or cpu (the loop thread's own CPU time alone)",
    )
    ns = parser.parse_args()
    settings = Settings.from_env()
    profile = cProfile.Profile(CLOCKS[ns.profile_clock]) if ns.profile else None

    def stop(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    # SIGTERM stops the server as Ctrl+C does.
    signal.signal(signal.SIGTERM, stop)
    if profile is not None:
        recorder = profile
        where = ns.profile

        def on(signum: int, frame: FrameType | None) -> None:
            recorder.enable()

        def off(signum: int, frame: FrameType | None) -> None:
            recorder.disable()
            recorder.dump_stats(where)

        signal.signal(PROFILE_ON, on)
        signal.signal(PROFILE_OFF, off)
    app = bench_app(settings)
    print(ORIGIN_LINE + app.state.manager.homes.origin, flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        if ns.fd is None:
            # As ``gamenight serve`` runs it (cli.serve): the same stack, the same options.
            serve(app, settings, "127.0.0.1", ns.port)
        else:
            shared(app, settings, socket.socket(fileno=ns.fd))


def shared(app: FastAPI, settings: Settings, sock: socket.socket) -> None:
    """Serve ``app`` on a listening socket other processes share, as a worker of ``gamenight
    serve --workers N`` does (web.pool.worker: uvicorn on the socket, the same options)."""
    import uvicorn

    from gamenight.web import collector

    collector.settle()
    config = uvicorn.Config(app, log_level="warning", **serving_options(settings))
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main()
