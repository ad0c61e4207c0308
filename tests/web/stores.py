"""The stores the web tests run on: ``Blocking`` calls a TableStore's operations from a
test's own thread (on an event loop of its own thread), and ``store_factory`` opens one on
each backend as the contract suite and the tests about storage need."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from gamenight.web.store import MemoryStore, StoredTable, TableStore
from gamenight.web.store.sql import SqlStore

from .postgres import postgres_database


class Blocking:
    """``store``'s operations, each run to its end on ``loop`` (another thread's)."""

    def __init__(self, store: TableStore, loop: asyncio.AbstractEventLoop) -> None:
        self.store, self.loop = store, loop

    def __getattr__(self, name: str) -> Callable[..., Any]:
        operation = getattr(self.store, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            return asyncio.run_coroutine_threadsafe(operation(*args, **kwargs), self.loop).result()

        return call


@contextmanager
def looping() -> Iterator[asyncio.AbstractEventLoop]:
    """An event loop running in a thread of its own until the block ends."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield loop
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


@contextmanager
def store_factory(backend: str, folder: Any, prefix: str) -> Iterator[Callable[..., Blocking]]:
    """Open stores on ``backend`` (memory, sqlite or postgresql), as servers would: on SQL,
    each a store of its own on one database; in memory, the one store every server shares.
    Each opened store is closed at the end."""
    opened: list[TableStore] = []
    with looping() as loop, contextmanager(_url)(backend, folder, prefix) as url:
        shared = MemoryStore() if url is None else None

        def open_store(**options: Any) -> Blocking:
            if shared is not None:
                if "receipts_kept" in options:
                    shared.receipts_kept = options["receipts_kept"]
                return Blocking(shared, loop)
            opened.append(SqlStore(url, **options))
            return Blocking(opened[-1], loop)

        try:
            yield open_store
        finally:
            for store in opened:
                asyncio.run_coroutine_threadsafe(store.close(), loop).result(30)


def _url(backend: str, folder: Any, prefix: str) -> Iterator[str | None]:
    if backend == "memory":
        yield None
    elif backend == "sqlite":
        yield f"sqlite:///{folder / 'gamenight.sqlite3'}"
    else:
        with postgres_database(prefix) as url:
            yield url


def stored(client: Any, table_id: str) -> StoredTable | None:
    """What the app behind ``client`` (a started TestClient) has stored for ``table_id``, read
    through its own store on its own loop, whichever backend it runs on."""
    store: TableStore = client.app.state.manager.store
    return client.portal.call(store.load, table_id)  # type: ignore[no-any-return]
