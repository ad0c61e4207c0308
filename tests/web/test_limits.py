"""Limits a host can set, and fairness between clients (issue 14, findings 7 and 8): a
flooding client is refused with a coded refusal while others are answered, ordinary play
never meets a limit, big bodies are refused before they are read, idle tables leave memory."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gamenight.core.errors import RulesError
from gamenight.web import quotas
from gamenight.web.app import create_app
from gamenight.web.games import WebGame, get_game
from gamenight.web.quotas import Limits
from gamenight.web.settings import Settings
from gamenight.web.views.centrix import notations

from .bodies import CENTRIX_2, COLORCITY
from .hosts import TEST_HOSTS
from .stores import stored
from .test_api import act, create, read, receipt, receive, until_pong


class Clock:
    """The rate limiter's clock, moved by hand: paces and floods without waiting."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def monotonic(self) -> float:
        return self.now

    def tick(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(quotas, "time", SimpleNamespace(monotonic=clock.monotonic))
    return clock


def server(database: str, **limits: Any) -> TestClient:
    settings = Settings(database, limits=Limits(**limits), allowed_hosts=TEST_HOSTS)
    return TestClient(create_app(settings, bot_executor=ThreadPoolExecutor(1)))


def hello(ws: Any, *tokens: str) -> dict[str, Any]:
    """Say hello with ``tokens``; the state the page is sent."""
    ws.send_json({"type": "hello", "tokens": list(tokens)})
    assert ws.receive_json()["type"] == "welcome"
    return receive(ws, "state")


def answers(ws: Any, count: int) -> list[dict[str, Any]]:
    """The next ``count`` answers (who is online, and the chat told after a hello, aside)."""
    got: list[dict[str, Any]] = []
    while len(got) < count:
        message = read(ws)
        if message["type"] != "presence" and not message.get("history"):
            got.append(message)
    return got


# ---------------------------------------------------------------- sockets


def test_a_flooding_spectator_is_refused_while_a_bystander_is_answered(
    database: str, clock: Clock
) -> None:
    with server(database, messages_per_second=5, address_messages_per_second=1000) as client:
        made = create(client, CENTRIX_2)
        url = f"/ws/tables/{made['id']}"
        with client.websocket_connect(url) as flood, client.websocket_connect(url) as ann:
            hello(flood)
            hello(ann, made["seats"][0]["token"])
            clock.tick(1.5)
            for _ in range(8):  # the clock stands still: all in one second
                flood.send_json({"type": "preview", "rotation": "2+3"})
            got = answers(flood, 8)
            assert [m["type"] for m in got] == ["preview"] * 5 + ["error"] * 3
            assert {m["code"] for m in got[5:]} == {"rate_limited"}
            # Ann's own messages are hers: every one answered, in order.
            for rotation in ("1+1", "2+1", "3+1", "4+1", "5+1"):
                ann.send_json({"type": "preview", "rotation": rotation})
            assert [m["rotation"] for m in answers(ann, 5)] == ["1+1", "2+1", "3+1", "4+1", "5+1"]
            clock.tick(1.01)  # a second later the spectator is answered again
            flood.send_json({"type": "ping"})
            assert flood.receive_json()["type"] == "pong"


def test_a_socket_that_keeps_flooding_is_closed_with_1008(database: str, clock: Clock) -> None:
    with server(database, messages_per_second=3) as client:
        made = create(client, CENTRIX_2)
        with client.websocket_connect(f"/ws/tables/{made['id']}") as flood:
            hello(flood)
            clock.tick(1.5)
            for _ in range(7):
                flood.send_json({"type": "ping"})
            kinds = [m.get("code", m["type"]) for m in answers(flood, 7)]
            # Three answered, three refused; the seventh (twice the limit) ends the socket.
            assert kinds == ["pong"] * 3 + ["rate_limited"] * 4
            with pytest.raises(WebSocketDisconnect) as closed:
                flood.receive_json()
            assert closed.value.code == 1008


def test_messages_are_limited_per_address_too(database: str, clock: Clock) -> None:
    with server(database, messages_per_second=10, address_messages_per_second=6) as client:
        made = create(client, CENTRIX_2)
        url = f"/ws/tables/{made['id']}"
        with client.websocket_connect(url) as one, client.websocket_connect(url) as two:
            hello(one)
            hello(two)
            clock.tick(1.5)
            for _ in range(4):
                one.send_json({"type": "ping"})
            assert [m["type"] for m in answers(one, 4)] == ["pong"] * 4
            for _ in range(4):
                two.send_json({"type": "ping"})
            got = [m.get("code", m["type"]) for m in answers(two, 4)]
            assert got == ["pong", "pong", "rate_limited", "rate_limited"]


def test_ordinary_paces_pass_the_default_limits(database: str, clock: Clock) -> None:
    with server(database) as client:
        made = create(client, COLORCITY)
        with client.websocket_connect(f"/ws/tables/{made['id']}") as page:
            hello(page, *(s["token"] for s in made["seats"]))
            # A page aiming: a predict every 120 ms for half a minute.
            for _ in range(250):
                page.send_json({"type": "predict", "shot": "0 0 1.3 0"})
                assert answers(page, 1)[0]["type"] == "prediction"
                clock.tick(0.12)
            act(page, 0, "0 0 1.3 0", id="a1")
            assert receipt(page)["id"] == "a1"
        # A replay autoplaying, ten steps a second, and watched twice over.
        for _ in range(2):
            for step in range(100):
                answer = client.get(f"/api/tables/{made['id']}/replay/{min(step, 1)}")
                assert answer.status_code == 200, answer.text
                clock.tick(0.1)


def test_a_big_message_is_refused_and_the_socket_closed(database: str) -> None:
    with server(database, message_bytes=1000) as client:
        made = create(client, CENTRIX_2)
        with client.websocket_connect(f"/ws/tables/{made['id']}") as page:
            hello(page)
            page.send_json({"type": "ping", "padding": "x" * 999})
            refused = page.receive_json()
            assert (refused["code"], refused["params"]) == ("too_big", {"limit": 1000})
            with pytest.raises(WebSocketDisconnect) as closed:
                page.receive_json()
            assert closed.value.code == 1008


def test_sockets_per_address(database: str) -> None:
    with server(database, sockets_per_address=3) as client:
        one, two = create(client, CENTRIX_2), create(client, CENTRIX_2)
        first = f"/ws/tables/{one['id']}"
        with client.websocket_connect(first) as a, client.websocket_connect(first) as b:
            hello(a)
            hello(b)
            second = f"/ws/tables/{two['id']}"
            with client.websocket_connect(second) as d:
                hello(d)  # a third socket from this address
                with client.websocket_connect(second) as e:
                    refused = e.receive_json()  # a fourth
                    assert refused["code"] == "too_many_sockets"
                    with pytest.raises(WebSocketDisconnect) as closed:
                        e.receive_json()
                    assert closed.value.code == 1008
        # The sockets that closed are counted out.
        with client.websocket_connect(first) as again:
            hello(again)


# ---------------------------------------------------------------- HTTP


def test_tables_created_per_address_per_minute(database: str, clock: Clock) -> None:
    with server(database, tables_per_minute=3) as client:
        for _ in range(3):
            create(client, CENTRIX_2)
        refused = client.post("/api/tables", json=CENTRIX_2)
        assert refused.status_code == 429
        assert refused.json()["code"] == "too_many_tables"
        assert refused.json()["params"] == {"limit": 3}
        clock.tick(61)
        create(client, CENTRIX_2)


def test_api_requests_per_address_per_second(database: str, clock: Clock) -> None:
    with server(database, requests_per_second=4) as client:
        made = create(client, CENTRIX_2)
        clock.tick(1.5)
        codes = [client.get(f"/api/tables/{made['id']}/replay/0").status_code for _ in range(6)]
        assert codes == [200] * 4 + [429] * 2
        assert client.get(f"/api/tables/{made['id']}").json()["code"] == "rate_limited"
        assert client.get("/").status_code == 200  # the pages and their files are not counted
        clock.tick(1.01)
        assert client.get(f"/api/tables/{made['id']}/replay/0").status_code == 200


def call(app: Any, headers: dict[str, str], chunks: Iterator[bytes]) -> tuple[int, Any, int]:
    """POST /api/tables straight through ASGI; the status, the body and how many chunks of
    the request body the server read."""
    read = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal read
        chunk = next(chunks, None)
        if chunk is None:
            return {"type": "http.request", "body": b"", "more_body": False}
        read += 1
        return {"type": "http.request", "body": chunk, "more_body": True}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "path": "/api/tables",
        "raw_path": b"/api/tables",
        "query_string": b"",
        "root_path": "",
        "scheme": "http",
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 5000),
        "headers": [
            (b"host", b"testserver"),
            *((k.lower().encode(), v.encode()) for k, v in headers.items()),
        ],
    }
    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], json.loads(body), read


def test_a_big_body_is_refused_before_it_is_read(database: str) -> None:
    app = create_app(
        Settings(database, limits=Limits(body_bytes=100_000), allowed_hosts=TEST_HOSTS)
    )
    mb = b"x" * 1_000_000

    def hundred_megabytes() -> Iterator[bytes]:
        return iter([mb] * 100)

    # Announced: refused before a byte of it is read.
    status, body, read = call(
        app,
        {"content-type": "application/json", "content-length": "100000000"},
        hundred_megabytes(),
    )
    assert (status, body["code"], body["params"], read) == (413, "too_big", {"limit": 100_000}, 0)
    # Streamed with no length: refused at the first chunk past the limit.
    status, body, read = call(app, {"content-type": "application/json"}, hundred_megabytes())
    assert (status, body["code"], read) == (413, "too_big", 1)
    # A body under the limit is read as ever.
    small = json.dumps(CENTRIX_2).encode()
    status, body, _ = call(app, {"content-type": "application/json"}, iter([small[:9], small[9:]]))
    assert status == 200, body


# ---------------------------------------------------------------- tables in memory


def test_idle_tables_leave_memory_and_come_back_on_demand(database: str) -> None:
    with server(database, idle_seconds=60) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        made = create(client, CENTRIX_2)
        watched = create(client, CENTRIX_2)
        with client.websocket_connect(f"/ws/tables/{watched['id']}") as page:
            hello(page)
            assert manager.evict(now=manager.clock() + 30) == []  # not idle long enough
            # The table with a page stays; the idle one goes.
            assert manager.evict(now=manager.clock() + 61) == [made["id"]]
            assert set(manager.tables) == {watched["id"]}
        info = client.get(f"/api/tables/{made['id']}")
        assert info.status_code == 200
        assert made["id"] in manager.tables  # loaded again from the store


def test_the_live_table_limit_lets_the_least_recently_used_go(database: str) -> None:
    with server(database, live_tables=2) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        first, second = create(client, CENTRIX_2), create(client, CENTRIX_2)
        with client.websocket_connect(f"/ws/tables/{first['id']}") as page:
            hello(page)
            third = create(client, CENTRIX_2)  # second is the only one without a page
            assert set(manager.tables) == {first["id"], third["id"]}
            with client.websocket_connect(f"/ws/tables/{third['id']}") as other:
                hello(other)
                # Every live table has a page: nothing can go, so no new one comes.
                refused = client.post("/api/tables", json=CENTRIX_2)
                assert (refused.status_code, refused.json()["code"]) == (429, "server_full")
                assert client.get(f"/api/tables/{second['id']}").json()["code"] == "server_full"
        assert client.get(f"/api/tables/{second['id']}").status_code == 200


def test_a_socket_the_server_cannot_serve_is_told_why_and_closed_with_its_code(
    database: str,
) -> None:
    with server(database, live_tables=1) as client:
        first, second = create(client, CENTRIX_2), create(client, CENTRIX_2)
        with client.websocket_connect(f"/ws/tables/{second['id']}") as page:
            hello(page)  # the one live table is in use: the first cannot come back
            with client.websocket_connect(f"/ws/tables/{first['id']}") as full:
                assert read(full)["code"] == "server_full"
                with pytest.raises(WebSocketDisconnect) as later:
                    full.receive_json()
                assert later.value.code == 1013  # try again later
        with client.websocket_connect("/ws/tables/nosuchtable") as none:
            assert read(none)["code"] == "no_table"
            with pytest.raises(WebSocketDisconnect) as gone:
                none.receive_json()
            assert gone.value.code == 4404


# ---------------------------------------------------------------- replays


def assert_full_replays(client: TestClient, table_id: str, views: list[dict[str, Any]]) -> None:
    """Each of ``views`` (the answers for steps 0, 1, …) shows what replaying the table's
    record (as ``client``'s app stored it) to that step shows."""
    record = stored(client, table_id)
    assert record is not None
    game = get_game(record.game)
    for k, answer in enumerate(views):
        state = game.replay(
            record.rules, record.seed, record.setup, record.seats, record.actions[:k]
        )
        assert answer["view"] == json.loads(json.dumps(game.view(state, None))), k


def test_replay_steps_replay_the_game_once_not_once_a_step(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with server(database) as client:
        made = create(client, CENTRIX_2)
        with client.websocket_connect(f"/ws/tables/{made['id']}") as page:
            state = hello(page, *(s["token"] for s in made["seats"]))
            for n in range(24):
                play = notations(state["view"]["legal"])[0]
                act(page, state["actor"], play, id=f"m{n}")
                state = receive(page, "state")  # the table after it, which says it is stored
                assert (state["revision"], state["accepted"]) == (n + 1, f"m{n}")
        replays: list[int] = []
        original = WebGame.replay

        def counted(self: WebGame, *args: Any) -> Any:
            replays.append(len(args[-1]))
            return original(self, *args)

        monkeypatch.setattr(WebGame, "replay", counted)
        views = [client.get(f"/api/tables/{made['id']}/replay/{k}").json() for k in range(25)]
        again = client.get(f"/api/tables/{made['id']}/replay/7").json()
        # Once for every step: the live table keeps only the turn's plays (issue 20), so the
        # stored actions are replayed, and that state stepped back for each step.
        assert replays == [24]
        assert again == views[7]
        monkeypatch.undo()
        assert [(v["step"], v["steps"]) for v in views] == [(k, 24) for k in range(25)]
        assert_full_replays(client, made["id"], views)


# ---------------------------------------------------------------- settings


def test_limits_come_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GAMENIGHT_DATABASE_URL", "sqlite://")
    assert Settings.from_env().limits == Limits()
    monkeypatch.setenv("GAMENIGHT_SPECTATORS_PER_TABLE", "12")
    monkeypatch.setenv("GAMENIGHT_IDLE_SECONDS", "90.5")
    monkeypatch.setenv("GAMENIGHT_ALLOWED_ORIGINS", "https://a.example, https://b.example:8443")
    settings = Settings.from_env()
    assert settings.limits.spectators_per_table == 12
    assert settings.limits.idle_seconds == 90.5
    assert settings.allowed_origins == ("https://a.example", "https://b.example:8443")
    for name, value, message in [
        ("GAMENIGHT_SPECTATORS_PER_TABLE", "lots", "a whole number from 1 to"),
        ("GAMENIGHT_HELLO_SECONDS", "0.5", "a number of seconds from 1 to"),
        ("GAMENIGHT_MESSAGES_PER_SECOND", "0", "a whole number from 1 to"),
        ("GAMENIGHT_BODY_BYTES", "1e99", "a whole number from 1000 to"),
        ("GAMENIGHT_IDLE_SECONDS", "nan", "a number of seconds from 10 to"),
    ]:
        monkeypatch.setenv(name, value)
        with pytest.raises(RulesError, match=f"{name} must be {message}.*not {value!r}"):
            Settings.from_env()
        monkeypatch.delenv(name)
    monkeypatch.setenv("GAMENIGHT_SOCKETS_PER_TABLE", "100")  # an earlier release's
    with pytest.raises(RulesError, match=r"no longer read.*GAMENIGHT_SPECTATORS_PER_TABLE"):
        Settings.from_env()
    monkeypatch.delenv("GAMENIGHT_SOCKETS_PER_TABLE")
    monkeypatch.setenv("GAMENIGHT_ALLOWED_ORIGINS", "a.example")
    with pytest.raises(
        RulesError, match=r"GAMENIGHT_ALLOWED_ORIGINS: 'a\.example' is not an origin"
    ):
        Settings.from_env()


def test_color_city_replay_steps_match_a_full_replay(database: str) -> None:
    body = {
        "game": "colorcity",
        "seats": [{"kind": "bot", "level": 1, "role": "green"}, {"kind": "bot", "level": 1}],
        "seed": 4,
    }
    with server(database) as client:
        made = create(client, body)
        with client.websocket_connect(f"/ws/tables/{made['id']}") as watcher:
            state = hello(watcher)
            while state["view"]["status"] == "playing":
                state = receive(watcher, "state")
        steps = state["version"]
        views = [
            client.get(f"/api/tables/{made['id']}/replay/{k}").json() for k in range(steps + 1)
        ]
        assert_full_replays(client, made["id"], views)


def test_the_meters_start_no_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Metering a message is a few list operations on the event loop's thread: a meter that
    started a thread to expire its counts (as `limits`' memory storage does, every 10 ms
    while it holds any) cost every server CPU and the GIL in proportion to its sockets."""
    import threading

    from gamenight.web.quotas import Gate

    started: list[threading.Thread] = []
    start = threading.Thread.start

    def counted(thread: threading.Thread) -> None:
        started.append(thread)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", counted)
    gate = Gate(Limits())
    tickets = [gate.open_socket(f"t{n}", "127.0.0.1") for n in range(50)]
    for _ in range(4):
        for ticket in tickets:
            gate.message(ticket, 100)
        gate.request("127.0.0.1")
    assert started == []


def test_a_meter_forgets_the_sockets_it_no_longer_hears_from(clock: Clock) -> None:
    """A meter's counts for a socket go once their window has passed: a server's meters do
    not grow with every socket it ever had."""
    from gamenight.web.quotas import Gate

    gate = Gate(Limits())
    for n in range(300):
        gate.message(gate.open_socket(f"t{n}", f"127.0.0.{n % 7}"), 100)
    clock.tick(61)
    gate.message(gate.open_socket("last", "127.0.0.1"), 100)
    assert gate.meters_held() <= 3


def test_a_finished_game_leaves_memory_when_its_last_page_closes(database: str) -> None:
    """A game that is over and that nobody is at is dead weight in memory: it goes when its
    last socket closes, not an idle quarter of an hour later (the store has it, and it
    comes back on demand); a game in play stays for its idle time."""
    with server(database) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        over, playing = create(client, CENTRIX_2), create(client, CENTRIX_2)
        for made in (over, playing):
            tokens = [seat["token"] for seat in made["seats"]]
            with client.websocket_connect(f"/ws/tables/{made['id']}") as page:
                hello(page, *tokens)
                if made is over:
                    page.send_json({"type": "resign", "seat": 1})
                    while receive(page, "state")["view"].get("status") != "resigned":
                        pass
            assert made["id"] in manager.tables or made is over
        assert set(manager.tables) == {playing["id"]}
        info = client.get(f"/api/tables/{over['id']}")
        assert info.status_code == 200
        assert info.json()["status"] == "resigned"


# ---------------------------------------------------------------- chat (issue 31, finding 3)


def test_chat_is_limited_per_table_so_fresh_sockets_cannot_flood_it(
    database: str, clock: Clock
) -> None:
    # The probe sent 12 lines from each of 30 fresh spectator sockets, refused none, and the
    # spectator reading them was let go: a page's own limit is no limit for a crowd.
    limits = {"chat_per_minute": 12, "table_chat_per_minute": 10}
    with server(database, **limits) as client, ExitStack() as stack:
        made = create(client, CENTRIX_2)
        url = f"/ws/tables/{made['id']}"
        listener = stack.enter_context(client.websocket_connect(url))
        hello(listener)
        ann = stack.enter_context(client.websocket_connect(url))
        hello(ann, made["seats"][0]["token"])
        refused = 0
        for _ in range(5):
            with client.websocket_connect(url) as crowd:
                hello(crowd)
                for n in range(12):
                    crowd.send_json({"type": "chat", "text": f"line {n}"})
                for answer in answers(crowd, 12):
                    refused += answer["type"] == "error" and answer["code"] == "rate_limited"
        assert refused == 5 * 12 - 10
        heard = [m for m in until_pong(listener) if m["type"] == "chat"]
        assert len(heard) == 10  # the listener heard each line said, and is still here
        # The players' side has a limit of its own: the spectators' flood did not use it.
        ann.send_json({"type": "chat", "text": "gg"})
        assert receive(ann, "chat")["messages"][0]["text"] == "gg"
        clock.tick(61)
        with client.websocket_connect(url) as crowd:
            hello(crowd)
            crowd.send_json({"type": "chat", "text": "a minute later"})
            assert answers(crowd, 1)[0]["messages"][0]["text"] == "a minute later"


def test_chat_is_limited_per_address_over_every_table(database: str, clock: Clock) -> None:
    with server(database, address_chat_per_minute=4) as client, ExitStack() as stack:
        pages = []
        for _ in range(2):
            made = create(client, CENTRIX_2)
            pages.append(stack.enter_context(client.websocket_connect(f"/ws/tables/{made['id']}")))
            hello(pages[-1])
        kinds = []
        for n in range(6):
            page = pages[n % 2]
            page.send_json({"type": "chat", "text": f"line {n}"})
            kinds.append(answers(page, 1)[0].get("code", "chat"))
        assert kinds == ["chat"] * 4 + ["rate_limited"] * 2
