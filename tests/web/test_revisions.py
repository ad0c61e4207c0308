"""Every act and undo names the revision it was made on, and has an id: a stale page, a second
page of one seat or a bot that thought about an older position never gets a play through,
and a resent message is answered as the original was, never applied twice."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from gamenight.web.app import create_app
from gamenight.web.forward import MOVED
from gamenight.web.protocol import TableIn
from gamenight.web.referee import Referee
from gamenight.web.refusals import RefusedError
from gamenight.web.seats import hash_token
from gamenight.web.settings import Settings
from gamenight.web.store.sql import SqlStore
from gamenight.web.tables import TableManager
from gamenight.web.views.centrix import notations

from .bodies import CENTRIX_2, CENTRIX_INVITE
from .hosts import TEST_HOSTS
from .test_api import Join, create, read, receipt, receive, until_pong


def closed_with(ws: WebSocketTestSession) -> int:
    """The code the server closes the page's socket with (the messages before it read)."""
    while True:
        try:
            ws.receive_json()
        except WebSocketDisconnect as exc:
            return exc.code


def legal(state: dict[str, Any], index: int = 0) -> str:
    return str(notations(state["view"]["legal"])[index])


def act(page: WebSocketTestSession, play: str, revision: int, message_id: str) -> None:
    page.send_json(
        {"type": "act", "seat": 0, "action": play, "revision": revision, "id": message_id}
    )


def accepted(page: WebSocketTestSession) -> tuple[dict[str, Any], dict[str, Any]]:
    """The page's answer that its act is stored (as ``receipt``), and the latest state it
    was sent with or before it."""
    state: dict[str, Any] = {}
    for _ in range(20):
        message = read(page)
        if message["type"] == "state":
            state = message
        if message["type"] == "accepted":
            return message, state
        if "accepted" in message:  # the change that accepts it
            answer = {"type": "accepted", "id": message["accepted"], "revision": state["revision"]}
            return answer, state
    raise AssertionError("no accepted message")


def test_two_pages_of_one_seat_cannot_both_play_on_one_position(
    client: TestClient, join: Join
) -> None:
    made = create(client)
    ann = made["seats"][0]["token"]
    first, second = join(made["id"], ann), join(made["id"], ann)
    state = receive(first, "state")
    assert receive(second, "state")["revision"] == state["revision"] == 0
    # Both pages send a different play for the position they both show (the second before
    # it has read of the first's).
    act(first, legal(state, 0), 0, "one-1")
    assert receipt(first) == {"type": "accepted", "id": "one-1", "revision": 1}
    act(second, legal(state, 1), 0, "two-1")
    refused = receive(second, "error")
    assert refused["code"] == "moved_on"
    fresh = receive(second, "state")  # the table as it now is
    assert (fresh["revision"], [e["notation"] for e in fresh["view"]["log"]]) == (
        1,
        [legal(state, 0)],
    )
    info = client.get(f"/api/tables/{made['id']}").json()
    assert (info["version"], info["revision"]) == (1, 1)


def test_a_resent_message_is_answered_as_the_original_and_applied_once(
    client: TestClient, join: Join
) -> None:
    made = create(client)
    ann = made["seats"][0]["token"]
    page = join(made["id"], ann)
    state = receive(page, "state")
    play = legal(state)
    act(page, play, 0, "p-7")
    answer = receipt(page)
    # The page did not hear the answer (its connection dropped): it reconnects and resends.
    again = join(made["id"], ann)
    receive(again, "state")
    act(again, play, 0, "p-7")
    assert receipt(again) == answer
    info = client.get(f"/api/tables/{made['id']}").json()
    assert info["version"] == 1


def test_an_undo_on_a_stale_revision_is_refused(client: TestClient, join: Join) -> None:
    made = create(client)
    ann = made["seats"][0]["token"]
    page = join(made["id"], ann)
    state = receive(page, "state")
    act(page, legal(state), 0, "a-1")
    _, after = accepted(page)
    act(page, legal(after), 1, "a-2")
    accepted(page)
    # An undo made on the table as it was after the first play would take back the second.
    page.send_json({"type": "undo", "seat": 0, "revision": 1, "id": "a-3"})
    assert receive(page, "error")["code"] == "moved_on"
    page.send_json({"type": "undo", "seat": 0, "revision": 2, "id": "a-4"})
    assert accepted(page)[0]["revision"] == 3
    info = client.get(f"/api/tables/{made['id']}").json()
    assert (info["version"], info["revision"]) == (1, 3)


def test_the_referee_refuses_a_bots_play_chosen_for_an_older_position(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    body = {
        **CENTRIX_2,
        "seats": [{"kind": "bot", "level": 1}, {"kind": "device", "name": "Bo"}],
    }
    manager = TableManager(store)

    async def play() -> str:
        table, seats = await manager.create(TableIn.model_validate(body))
        assert manager.bots.busy(table.id)
        manager.bots.close()  # this test plays for the bot itself
        referee: Referee = table.referee
        thought_on = referee.revision
        first = str(referee.state.legal_plays()[0])
        await referee.act(0, first, key=None, seen=thought_on)
        # A second bot task, started before the first play, brings a play for revision 0.
        stale = str(referee.state.legal_plays()[0])
        with pytest.raises(RefusedError) as moved_on:
            await referee.act(0, stale, key=None, seen=thought_on)
        assert moved_on.value.code == "moved_on"
        # Nor can a page's token act for the bot's seat, nor the bot for Bo's.
        bo = hash_token(seats[1]["token"])
        for seat, key in ((0, bo), (1, None)):
            with pytest.raises(RefusedError) as refused:
                await referee.act(seat, stale, key=key, seen=referee.revision)
            assert refused.value.code == "not_your_seat"
        return table.id

    stored = store.sync.load(asyncio.run(play()))
    assert stored is not None
    assert len(stored.actions) == 1


def test_a_renewed_invite_opens_nothing_on_a_server_that_has_not_heard(tmp_path: Path) -> None:
    # Two servers on one database and no relay between them: as during a Redis outage, or
    # for the relay's delay.
    settings = Settings(f"sqlite:///{tmp_path / 'g.sqlite3'}", allowed_hosts=TEST_HOSTS)
    with (
        ThreadPoolExecutor(1) as bots,
        TestClient(create_app(settings, bot_executor=bots)) as one,
        TestClient(create_app(settings, bot_executor=bots)) as two,
    ):
        made = create(one, {**CENTRIX_INVITE, "first": 1, "visibility": "public"})
        invite = made["seats"][1]
        with two.websocket_connect(f"/ws/tables/{made['id']}") as guest:
            guest.send_json({"type": "hello", "tokens": [invite["token"]]})
            assert receive(guest, "welcome")["seats"] == [1]
            state = receive(guest, "state")
            # The host gives Bo's seat a new link on server one; server two does not hear.
            renewed = one.post(
                f"/api/tables/{made['id']}/invites/1", json={"renew": invite["renew"]}
            )
            assert renewed.status_code == 200
            guest.send_json(
                {"type": "act", "seat": 1, "action": legal(state), "revision": 0, "id": "g-1"}
            )
            # Without Redis each server claims the table in the store as it needs it
            # (web.homes): server two's claim was overtaken by server one's renewal, so
            # its write is refused for the epoch, and the page is sent to reconnect.
            assert closed_with(guest) == MOVED
        with two.websocket_connect(f"/ws/tables/{made['id']}") as again:
            again.send_json({"type": "hello", "tokens": [invite["token"]]})
            assert receive(again, "welcome")["seats"] == []  # the old link opens nothing
        info = one.get(f"/api/tables/{made['id']}").json()
        assert info["version"] == 0  # the old guest's play was not stored


def test_the_mover_hears_one_message_for_its_act_the_change_that_accepts_it(
    client: TestClient, join: Join
) -> None:
    made = create(client)
    ann, bob = (s["token"] for s in made["seats"])
    page, twin, other = join(made["id"], ann), join(made["id"], ann), join(made["id"], bob)
    state = receive(page, "state")
    receive(twin, "state"), receive(other, "state")
    until_pong(page), until_pong(twin), until_pong(other)  # who is online
    act(page, legal(state), 0, "m-1")
    mine = until_pong(page)
    assert [(m["type"], m.get("accepted")) for m in mine] == [("change", "m-1")]
    assert mine[0]["diff"]["revision"] == ["=", 1]
    # The other pages, of the same seat and the other, hear the change, not that it
    # accepts anything (the same seat's is the same change, but not the same text).
    for someone in (twin, other):
        theirs = until_pong(someone)
        assert [m["type"] for m in theirs] == ["change"]
        assert "accepted" not in theirs[0]
