from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from gamenight.web.app import create_app
from gamenight.web.settings import Settings
from gamenight.web.store import MEMORY

from .hosts import TEST_HOSTS
from .postgres import postgres_database


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database, on each backend (a PostgreSQL one named after the test's file)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'gamenight.sqlite3'}"
    else:
        with postgres_database(f"gn_{request.module.__name__.rsplit('.', 1)[-1]}_") as database:
            yield database


@pytest.fixture
def sqlite_database(tmp_path: Path) -> str:
    """A database on the disk, for a test whose tables outlive an app (a restart, two
    servers, a look at what is stored from outside)."""
    return f"sqlite:///{tmp_path / 'gamenight.sqlite3'}"


@pytest.fixture
def database(request: pytest.FixtureRequest) -> str:
    """The store of a test that is not about storage: in memory (web.store.memory); a test
    marked ``sqlite`` (its tables outlive the app, or it writes rows as an older version
    did) gets a database on the disk."""
    if request.node.get_closest_marker("sqlite"):
        return str(request.getfixturevalue("sqlite_database"))
    return MEMORY


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    with (
        ThreadPoolExecutor(2) as bots,
        TestClient(
            create_app(Settings(database, allowed_hosts=TEST_HOSTS), bot_executor=bots)
        ) as client,
    ):
        yield client


@pytest.fixture
def join(client: TestClient) -> Iterator[Callable[..., WebSocketTestSession]]:
    """Connect to a table with some seat tokens (none: a spectator; at an unlisted table,
    with the spectator link's ``watch`` token); closed at the end."""
    with ExitStack() as stack:

        def connect(
            table: str, *tokens: str | None, watch: str | None = None
        ) -> WebSocketTestSession:
            ws = stack.enter_context(client.websocket_connect(f"/ws/tables/{table}"))
            ws.send_json({"type": "hello", "tokens": [t for t in tokens if t], "watch": watch})
            assert ws.receive_json()["type"] == "welcome"
            return ws

        yield connect
