"""``gamenight serve --workers N``: N server processes on one machine sharing one listening
socket (issue 28). The socket is bound here, once, and each worker is started with it
(multiprocessing's spawn passes it on); the kernel hands each new connection to one of
them. The workers are one pool with any other process on the same database and Redis:
each table lives on one of them (web.homes) and a page whose socket lands on another is
forwarded to it (web.forward). A worker that dies is started again; SIGINT or SIGTERM
stops them all cleanly (each finishes its writes and lets its tables go), and whatever
has not stopped within ``STOP_SECONDS`` is killed.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import socket
import time
from multiprocessing.process import BaseProcess
from typing import Any

from gamenight.core.errors import RulesError
from gamenight.web.settings import Settings
from gamenight.web.store import MEMORY

STOP_SECONDS = 15.0
RESTART_PAUSE = 1.0  # seconds between a worker's death and its restart (a crash loop waits)


def check_workers(settings: Settings, workers: int) -> None:
    """Refuse what several processes cannot share, with the reason (RulesError)."""
    if workers < 1:
        raise RulesError(f"--workers must be at least 1, not {workers}")
    if workers == 1:
        return
    if settings.database_url == MEMORY:
        raise RulesError(
            "--workers above 1 needs a database the processes share: memory:// keeps each"
            " process's tables to itself"
        )
    if not settings.redis_url:
        raise RulesError(
            "--workers above 1 needs GAMENIGHT_REDIS_URL (and the extra gamenight[scale]):"
            " the processes find each table's home, and forward its pages there, through"
            " Redis"
        )


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise RulesError(f"cannot listen on {host}:{port}: {exc.strerror}") from exc
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def worker(sock: socket.socket, settings: Settings) -> None:
    """One worker: the app on uvicorn, on the shared socket, until SIGINT or SIGTERM."""
    import uvicorn

    from gamenight.web import collector
    from gamenight.web.app import create_app, serving_options

    class Worker(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            # Ctrl+C reaches the whole group: the parent stops each worker with one SIGTERM
            # (a second signal would make uvicorn skip its clean stop).
            if sig != signal.SIGINT:
                super().handle_exit(sig, frame)

    collector.settle()
    config = uvicorn.Config(create_app(settings), log_level="warning", **serving_options(settings))
    Worker(config).run(sockets=[sock])


def serve_workers(settings: Settings, host: str, port: int, workers: int) -> None:
    """Serve with ``workers`` processes on ``host:port`` until SIGINT or SIGTERM."""
    check_workers(settings, workers)
    sock = bind(host, port)
    context = multiprocessing.get_context("spawn")
    stopping = False

    def stop(signum: int, frame: Any) -> None:
        nonlocal stopping
        stopping = True

    old = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}

    def start() -> BaseProcess:
        process = context.Process(target=worker, args=(sock, settings), daemon=False)
        process.start()
        return process

    pool = [start() for _ in range(workers)]
    try:
        while not stopping:
            time.sleep(0.2)
            for i, process in enumerate(pool):
                if not process.is_alive() and not stopping:
                    print(f"worker {process.pid} exited ({process.exitcode}); starting another")
                    time.sleep(RESTART_PAUSE)
                    pool[i] = start()
    finally:
        for process in pool:
            if process.is_alive() and process.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    process.terminate()  # SIGTERM: uvicorn's clean stop
        deadline = time.monotonic() + STOP_SECONDS
        for process in pool:
            process.join(max(0.0, deadline - time.monotonic()))
        for process in pool:
            if process.is_alive():
                process.kill()
                process.join()
        sock.close()
        for sig, handler in old.items():
            signal.signal(sig, handler)
