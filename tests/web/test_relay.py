"""Relayed changes (issue 20): a server follows an act or an undo made on another server by
applying it alone, in order, on its live table, and reads the store again only when a
revision is missing (a gap, news out of order, a change that does not apply).

On the PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) of the development machine,
as tests/web/test_scale_out.py. Where a test plays "another server" itself, it writes the
store as a server does and publishes the news a server publishes."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

import gamenight.web.referee as referee_module
from gamenight.web.games import get_game
from gamenight.web.referee import replay
from gamenight.web.store.sql import SqlStore
from gamenight.web.views.centrix import notations

from .bodies import CENTRIX_2
from .postgres import postgres_database
from .test_api import create, receive
from .test_scale_out import REDIS, ann_and_bo, hears_of, hello, next_message, two_servers

CHANNEL = "gamenight:tables"


@pytest.fixture
def postgres() -> Iterator[str]:
    with postgres_database("gamenight_relay_") as database:
        yield database


@pytest.fixture
def quiet_servers(postgres: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Two servers whose heartbeats are minutes apart: nothing a test sees comes from one."""
    with two_servers(postgres, 180.0) as both:
        yield both


def counted(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[Any]:
    """Count the calls to ``owner.name`` from now on (the list of their first arguments)."""
    calls: list[Any] = []
    original: Callable[..., Any] = getattr(owner, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[0] if args else None)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counting)
    return calls


def manager(client: TestClient) -> Any:
    return client.app.state.manager  # type: ignore[attr-defined]


def subscribed() -> None:
    """Wait until every server's relay listens (a news published before is not heard)."""
    with redis.Redis.from_url(REDIS) as db:
        deadline = time.monotonic() + 10
        while db.pubsub_numsub(CHANNEL)[0][1] < 2:
            assert time.monotonic() < deadline, "the relays did not subscribe"
            time.sleep(0.02)


def state_message(ws: WebSocketTestSession, seconds: float = 10) -> dict[str, Any]:
    """The page's next state (a ``change`` rebuilt as the whole state it makes)."""
    deadline = time.monotonic() + seconds
    while (message := next_message(ws, deadline - time.monotonic())) is not None:
        if message["type"] == "state":
            return message
    raise AssertionError("no state came")


def test_an_act_is_applied_once_on_its_home_and_reaches_a_page_on_another_server(
    quiet_servers: tuple[TestClient, TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28: Bo's page is on server two, the table's home is server one; server two
    forwards, and neither reads the table from the store nor replays nor applies a move."""
    one, two = quiet_servers
    with ann_and_bo(one, two) as (made, ann, bo):
        state = receive(ann, "state")
        assert receive(bo, "state")["version"] == 0
        subscribed()
        loads = counted(monkeypatch, manager(two).store, "load")
        replays = counted(monkeypatch, referee_module, "replay")
        live = manager(one).tables[made["id"]]
        assert made["id"] not in manager(two).tables
        play = notations(state["view"]["legal"])[0]
        ann.send_json({"type": "act", "seat": 0, "action": play, "revision": 0})
        state = receive(ann, "state")
        assert state["version"] == 1
        # The page on server two gets the change message, with the move in its log ...
        seen = state_message(bo)
        assert (seen["version"], seen["revision"]) == (1, 1)
        assert [entry["notation"] for entry in seen["view"]["log"]] == [play]
        # ... and server two neither read the table from the store nor replayed it.
        assert loads == []
        assert replays == []
        assert made["id"] not in manager(two).tables
        assert (live.referee.version, live.referee.revision) == (1, 1)
        # Ann's turn goes on; then Bo plays on server two from the state it followed.
        while state["actor"] == 0:
            play = notations(state["view"]["legal"])[0]
            ann.send_json({"type": "act", "seat": 0, "action": play, "revision": state["revision"]})
            state = receive(ann, "state")
        while (seen := state_message(bo))["revision"] < state["revision"]:
            pass  # (one change message for each of Ann's plays)
        assert (seen["revision"], seen["actor"]) == (state["revision"], 1)
        # Ann's turn is over: the home let go of its plays (issue 20, memory), since nobody
        # can take them back.
        assert live.referee.state.actions == []
        reply = notations(seen["view"]["legal"])[0]
        bo.send_json({"type": "act", "seat": 1, "action": reply, "revision": seen["revision"]})
        assert state_message(bo)["revision"] == seen["revision"] + 1
        hears_of(ann, seen["version"] + 1)
        assert loads == []
        assert replays == []


def test_an_undo_is_applied_on_its_home_alone(
    quiet_servers: tuple[TestClient, TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two = quiet_servers
    with ann_and_bo(one, two) as (made, ann, bo):
        state = receive(ann, "state")
        receive(bo, "state")
        subscribed()
        loads = counted(monkeypatch, manager(two).store, "load")
        play = notations(state["view"]["legal"])[0]
        ann.send_json({"type": "act", "seat": 0, "action": play, "revision": 0})
        after = receive(ann, "state")
        assert after["can_undo"], "Centrix's first play leaves the turn to its seat"
        assert state_message(bo)["version"] == 1
        ann.send_json({"type": "undo", "seat": 0, "revision": 1})
        assert receive(ann, "state")["version"] == 0
        undone = state_message(bo)
        assert (undone["version"], undone["revision"], undone["view"]["log"]) == (0, 2, [])
        assert loads == []
        assert made["id"] not in manager(two).tables
        live = manager(one).tables[made["id"]]
        assert (live.referee.version, live.referee.revision) == (0, 2)


class Elsewhere:
    """Another server, played by the test: it stores Ann's moves at a table and publishes
    the news of each as a server does (or withholds it)."""

    def __init__(self, database: str, table_id: str) -> None:
        self.store = SqlStore(database)
        self.table_id = table_id
        self.news: dict[int, str] = {}  # revision → the news of the change that made it

    def act(self) -> None:
        """Store a legal move for the seat to act, and keep its news."""
        stored = self.store.sync.load(self.table_id)
        assert stored is not None
        game = get_game(stored.game)
        state = replay(game, stored)
        payload, _ = game.act(state, str(state.legal_actions()[0]))
        status, outcome = ("playing", None) if state.outcome is None else ("over", None)
        revision = self.store.sync.append(
            self.table_id,
            number=len(stored.actions),
            revision=stored.revision,
            payload=payload,
            status=status,
            outcome=outcome,
        )
        self.news[revision] = json.dumps(
            {
                "table": self.table_id,
                "revision": revision,
                "origin": "elsewhere",
                "kind": "act",
                "number": len(stored.actions),
                "payload": payload,
                "status": status,
            }
        )

    def publish(self, *revisions: int) -> None:
        with redis.Redis.from_url(REDIS) as db:
            for revision in revisions:
                db.publish(CHANNEL, self.news[revision])

    def as_stored(self) -> Any:
        stored = self.store.sync.load(self.table_id)
        assert stored is not None
        return stored


@pytest.fixture
def table_on_two(
    quiet_servers: tuple[TestClient, TestClient], postgres: str
) -> Iterator[tuple[TestClient, WebSocketTestSession, Elsewhere]]:
    """A table live on server two with a page there (Bo's), and another server."""
    _, two = quiet_servers
    made = create(two, CENTRIX_2)
    with two.websocket_connect(f"/ws/tables/{made['id']}") as bo:
        hello(bo, made["seats"][1]["token"])
        assert receive(bo, "state")["version"] == 0
        subscribed()
        yield two, bo, Elsewhere(postgres, made["id"])


def same_as_stored(live: Any, elsewhere: Elsewhere) -> None:
    stored = elsewhere.as_stored()
    referee = live.referee
    assert (referee.revision, referee.actions) == (stored.revision, stored.actions)
    assert referee.state.position() == replay(referee.game, stored).position()


def test_a_gap_in_the_news_reloads_the_table_once_and_follows_on(
    table_on_two: tuple[TestClient, WebSocketTestSession, Elsewhere],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    two, bo, elsewhere = table_on_two
    live = manager(two).tables[elsewhere.table_id]
    loads = counted(monkeypatch, manager(two).store, "load")
    for _ in range(4):
        elsewhere.act()
    elsewhere.publish(1)  # the next revision: followed
    assert state_message(bo)["revision"] == 1
    assert loads == []
    elsewhere.publish(3)  # revision 2's news never came: server two reads the store
    assert state_message(bo)["revision"] == 4  # (the store has revision 4 already)
    assert len(loads) == 1
    elsewhere.publish(4)  # a revision it has: nothing to do
    elsewhere.act()
    elsewhere.publish(5)
    assert state_message(bo)["revision"] == 5  # the page heard nothing of revision 4's news
    assert len(loads) == 1
    same_as_stored(live, elsewhere)


def test_news_out_of_order_reload_once_and_the_late_one_is_ignored(
    table_on_two: tuple[TestClient, WebSocketTestSession, Elsewhere],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    two, bo, elsewhere = table_on_two
    live = manager(two).tables[elsewhere.table_id]
    loads = counted(monkeypatch, manager(two).store, "load")
    replays = counted(monkeypatch, referee_module, "replay")
    elsewhere.act()
    elsewhere.act()
    # Two servers publish independently: revision 2's news comes before revision 1's.
    elsewhere.publish(2, 1)
    # (heard before the next act: a reload that came after it would read revision 3)
    assert state_message(bo)["revision"] == 2
    elsewhere.act()
    elsewhere.publish(3)
    assert state_message(bo)["revision"] == 3  # nothing between: revision 1's news was old
    assert (len(loads), len(replays)) == (1, 1)
    same_as_stored(live, elsewhere)


def test_news_that_does_not_apply_reloads_the_table(
    table_on_two: tuple[TestClient, WebSocketTestSession, Elsewhere],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    two, bo, elsewhere = table_on_two
    live = manager(two).tables[elsewhere.table_id]
    loads = counted(monkeypatch, manager(two).store, "load")
    elsewhere.act()
    news = json.loads(elsewhere.news[1])
    elsewhere.news[1] = json.dumps({**news, "payload": "not a play"})  # in doubt: the store
    elsewhere.publish(1)
    assert state_message(bo)["revision"] == 1
    assert len(loads) == 1
    same_as_stored(live, elsewhere)
