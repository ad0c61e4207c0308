"""A stranger cannot lock players out of their table (issue 31, finding 1): a seat's page
always gets in, spectators have a cap of their own (per table and per address), and a socket
that says no hello is let go within a few seconds."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gamenight.web.app import create_app
from gamenight.web.quotas import Gate, Limits
from gamenight.web.refusals import RefusedError
from gamenight.web.settings import Settings

from .bodies import CENTRIX_2, CENTRIX_INVITE
from .hosts import TEST_HOSTS
from .test_api import create, receive


def server(database: str, **limits: Any) -> TestClient:
    settings = Settings(database, limits=Limits(**limits), allowed_hosts=TEST_HOSTS)
    return TestClient(create_app(settings, bot_executor=ThreadPoolExecutor(1)))


def hello(ws: Any, *tokens: str, watch: str | None = None) -> dict[str, Any]:
    """Say hello; the first answer (``welcome``, or the refusal)."""
    ws.send_json({"type": "hello", "tokens": list(tokens), "watch": watch})
    answer: dict[str, Any] = ws.receive_json()
    return answer


def closed_with(ws: Any) -> int:
    """The code the socket is closed with, after whatever messages come first."""
    for _ in range(50):
        try:
            ws.receive_json()
        except WebSocketDisconnect as closed:
            return int(closed.code)
    raise AssertionError("the socket was not closed")


REALTIME = {**CENTRIX_2, "clock": {"kind": "realtime", "bank_seconds": 15, "on_timeout": "lose"}}


def test_spectators_at_their_cap_never_keep_a_seat_s_page_out(database: str) -> None:
    # The probe's case: a public real-time table, its spectator slots all taken by strangers;
    # seat 0's page reconnects again and again, and every time it gets in.
    with server(database, spectators_per_table=3) as client, ExitStack() as stack:
        made = create(client, REALTIME)
        url = f"/ws/tables/{made['id']}"
        strangers = [stack.enter_context(client.websocket_connect(url)) for _ in range(3)]
        for ws in strangers:
            assert hello(ws)["type"] == "welcome"
        # The next stranger is refused: spectators have their own cap...
        with client.websocket_connect(url) as late:
            refused = hello(late)
            assert refused["code"] == "too_many_spectators"
            assert closed_with(late) == 1008
        # ...and it is theirs alone: the players' pages come and go as they please.
        ann, bo = (seat["token"] for seat in made["seats"])
        for _ in range(5):
            with client.websocket_connect(url) as page:
                assert hello(page, ann)["seats"] == [0]
                assert receive(page, "state")["seats"] == [0]
        with client.websocket_connect(url) as page:
            assert hello(page, bo)["seats"] == [1]


def test_sockets_that_say_no_hello_keep_nobody_out_and_are_let_go(database: str) -> None:
    # The probe's other case: an unlisted table, and sockets that never say hello.
    with (
        server(database, spectators_per_table=2, hello_seconds=1) as client,
        ExitStack() as stack,
    ):
        made = create(client, CENTRIX_INVITE)
        url = f"/ws/tables/{made['id']}"
        silent = [stack.enter_context(client.websocket_connect(url)) for _ in range(6)]
        host, invite = (seat["token"] for seat in made["seats"])
        with client.websocket_connect(url) as page:
            assert hello(page, host)["seats"] == [0]
        with client.websocket_connect(url) as guest:
            assert hello(guest, invite)["seats"] == [1]
        # A socket that has not said hello within hello_seconds is closed, told why.
        started = time.monotonic()
        refused = silent[0].receive_json()
        assert refused["code"] == "no_hello"
        assert refused["params"] == {"seconds": 1}
        assert closed_with(silent[0]) == 1008
        assert time.monotonic() - started < 5
        for ws in silent[1:]:
            assert ws.receive_json()["code"] == "no_hello"


def test_a_spectator_who_sits_down_gives_back_the_spectator_slot(database: str) -> None:
    with server(database, spectators_per_table=1) as client:
        made = create(client, CENTRIX_2)
        url = f"/ws/tables/{made['id']}"
        with client.websocket_connect(url) as page:
            assert hello(page)["type"] == "welcome"  # watching: the one slot
            receive(page, "state")
            assert hello(page, made["seats"][0]["token"])["seats"] == [0]  # now a player
            with client.websocket_connect(url) as watcher:
                assert hello(watcher)["type"] == "welcome"


def test_the_gate_counts_spectators_per_table_and_per_address() -> None:
    gate = Gate(Limits(spectators_per_table=3, spectators_per_address=2))
    one = [gate.open_socket("t1", "1.1.1.1") for _ in range(3)]
    gate.watch(one[0])
    gate.watch(one[1])
    with pytest.raises(RefusedError) as refused:
        gate.watch(one[2])  # a third spectator from one address
    assert refused.value.code == "too_many_spectators"
    other = gate.open_socket("t1", "2.2.2.2")
    gate.watch(other)  # the table's third
    with pytest.raises(RefusedError):
        gate.watch(gate.open_socket("t1", "3.3.3.3"))  # the table is full of spectators
    gate.sit(one[0])  # a spectator takes a seat: the slots it held are free again
    gate.watch(gate.open_socket("t1", "3.3.3.3"))
    gate.close_socket(one[1])
    gate.watch(one[2])
    assert gate.spectators("t1") == 3
