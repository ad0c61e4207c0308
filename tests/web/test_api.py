"""The JSON API and the table WebSocket: every message type, good and bad."""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from gamenight.centrix import CentrixState
from gamenight.colorcity import replay as colorcity_replay
from gamenight.web.app import create_app
from gamenight.web.outbound import OUTBOUND
from gamenight.web.protocol import patch
from gamenight.web.settings import Settings
from gamenight.web.views.centrix import notations

from .bodies import CENTRIX_2, CENTRIX_BOTS, CENTRIX_INVITE, COLORCITY, COLORCITY_VS_BOT
from .hosts import TEST_HOSTS

Join = Callable[..., WebSocketTestSession]


def create(client: TestClient, body: dict[str, Any] = CENTRIX_2) -> dict[str, Any]:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 200, response.text
    return response.json()


# The state each page holds, rebuilt from its changes as the page does (web.protocol).
SHOWN: weakref.WeakKeyDictionary[WebSocketTestSession, dict[str, Any]] = weakref.WeakKeyDictionary()


def read(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next message to ``ws``, checked against its type (web.outbound); a ``change`` as
    the whole ``state`` it makes."""
    message = ws.receive_json()
    OUTBOUND.validate_python(message)
    whole = rebuilt(ws, message)
    if message["type"] == "change":
        OUTBOUND.validate_python(whole)  # the state it makes is a state
    return whole


def rebuilt(ws: WebSocketTestSession, message: dict[str, Any]) -> dict[str, Any]:
    """``message``, a ``change`` to ``ws`` as the whole ``state`` it makes (with the id of
    the page's act it accepts, if it does)."""
    if message["type"] not in ("state", "change"):
        return message
    accepts = {"accepted": message.pop("accepted")} if "accepted" in message else {}
    if message["type"] == "state":
        SHOWN[ws] = message
    else:
        message = SHOWN[ws] = patch(SHOWN[ws], message["diff"])
    return {**message, **accepts}


def receipt(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next answer that an act or undo of ``ws`` is stored, as an ``accepted`` message:
    the change it made (which says so for the page that sent it) or, where that page hears
    no change for it, an ``accepted`` of its own."""
    for _ in range(20):
        message = read(ws)
        if message["type"] == "accepted":
            return message
        if "accepted" in message:
            return {"type": "accepted", "id": message["accepted"], "revision": message["revision"]}
    raise AssertionError("no answer that an act is stored")


def act(ws: WebSocketTestSession, seat: int, action: str, **more: Any) -> None:
    """Send ``seat``'s ``action`` on the table as ``ws`` last saw it (its revision)."""
    message = {"type": "act", "seat": seat, "action": action, "revision": seen(ws), **more}
    ws.send_json(message)


def undo(ws: WebSocketTestSession, seat: int, **more: Any) -> None:
    """Take back ``seat``'s latest play, on the table as ``ws`` last saw it."""
    ws.send_json({"type": "undo", "seat": seat, "revision": seen(ws), **more})


def seen(ws: WebSocketTestSession) -> int:
    """The revision of the latest state ``ws`` was sent (as read through ``read``)."""
    revision: int = SHOWN[ws]["revision"]
    return revision


def receive(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    for _ in range(20):
        message = read(ws)
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


def until_pong(ws: WebSocketTestSession) -> list[dict[str, Any]]:
    """Every message the page is sent before the answer to a ping it sends now (a page's
    messages are answered in order, so all that its earlier ones made come first)."""
    ws.send_json({"type": "ping"})
    heard = []
    while (message := ws.receive_json())["type"] != "pong":
        heard.append(message)
    return heard


def test_create_list_and_inspect_tables(client: TestClient) -> None:
    made = create(client)
    assert [s["kind"] for s in made["seats"]] == ["human", "human"]
    assert all(len(s["token"]) > 20 for s in made["seats"])
    listed = client.get("/api/tables").json()
    assert listed[0]["id"] == made["id"]
    assert listed[0]["seats"][0] == {"name": "Ann", "kind": "human", "role": "red"}
    info = client.get(f"/api/tables/{made['id']}").json()
    assert info["version"] == 0
    assert "token" not in json.dumps(info)
    assert client.get("/api/tables/nope").status_code == 404


def test_seats_left_unnamed_are_named_by_seat(client: TestClient) -> None:
    body = {
        "game": "centrix",
        "seats": [{"kind": "device"}, *[{"kind": "bot", "level": 2, "name": " "}] * 3],
    }
    made = create(client, body)
    assert [s["name"] for s in made["seats"]] == ["Player 1", "Bot 2", "Bot 3", "Bot 4"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"game": "chess", "seats": []}, "game"),
        ({"game": "centrix", "seats": [{"kind": "device"}]}, "at least 2"),
        ({"game": "centrix", "seats": [{"kind": "bot"}, {"kind": "device"}]}, "level"),
        ({"game": "centrix", "seats": [{"kind": "robot"}] * 2}, "kind"),
        (
            {"game": "centrix", "seats": [{"kind": "device", "role": "pink"}] * 2},
            "not a colour",
        ),
        ({**CENTRIX_2, "rules": {"bottom": "lava"}}, "bottom must be one of"),
        ({**CENTRIX_2, "rules": {"layout": [[1]]}}, "each ring is a string of letters"),
        ({**CENTRIX_INVITE, "seed": 11}, "a table with invited players is shuffled by the server"),
        ({**CENTRIX_2, "surprise": 1}, "Extra inputs"),
        ({"game": "centrix", "seats": [{"kind": "device"}] * 7}, "2–6 seats"),
        ({**COLORCITY, "first": 5}, "first must be a seat from 0 to 1, not 5"),
        ({**COLORCITY, "first": 2**70}, "first must be a seat from 0 to 1"),
        ({**CENTRIX_2, "first": True}, "first.int: Input should be a valid integer"),
        (
            {"game": "centrix", "seats": [{"kind": "device"}, {"kind": "bot", "level": True}]},
            "seats.1.level: Input should be a valid integer",
        ),
    ],
)
def test_bad_set_ups_are_refused_with_a_reason(
    client: TestClient, body: dict[str, Any], message: str
) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 422
    assert message in response.json()["detail"]


def test_a_seat_sees_its_own_hand_and_a_spectator_none(client: TestClient, join: Join) -> None:
    made = create(client)
    ann = join(made["id"], made["seats"][0]["token"])
    state = receive(ann, "state")
    expected = CentrixState.new(["red", "orange"], seed=11, first=0)
    assert state["seats"] == [0]
    assert state["view"]["hand"] == [str(c) for c in expected.hands[0]]
    assert set(notations(state["view"]["legal"])) == {str(p) for p in expected.legal_plays()}
    assert "svg" not in state["view"]  # the board is data: the page draws it
    watcher = join(made["id"])
    spectator = receive(watcher, "state")
    assert spectator["seats"] == []
    assert spectator["view"]["hand"] is None
    assert spectator["view"]["legal"] is None
    # Nothing in a spectator's message names a card still in a hand or the draw pile (a
    # card is a JSON string there).
    hidden = {str(c) for h in expected.hands for c in h} | {str(c) for c in expected.draw}
    assert not any(f'"{card}"' in json.dumps(spectator) for card in hidden)


def test_who_is_online_is_told_to_everyone_at_the_table(client: TestClient) -> None:
    made = create(client)
    table = f"/ws/tables/{made['id']}"
    with client.websocket_connect(table) as ann:
        ann.send_json({"type": "hello", "tokens": [made["seats"][0]["token"]]})
        assert receive(ann, "state")["online"] == [0]
        assert receive(ann, "presence")["online"] == [0]  # as everyone at the table hears
        with client.websocket_connect(table) as bo:
            bo.send_json({"type": "hello", "tokens": [made["seats"][1]["token"]]})
            assert receive(bo, "state")["online"] == [0, 1]
            assert receive(ann, "presence")["online"] == [0, 1]
            with client.websocket_connect(table) as watcher:  # holds no seat: no news
                watcher.send_json({"type": "hello", "tokens": []})
                receive(watcher, "state")
        assert receive(ann, "presence")["online"] == [0]  # Bo closed his page
        ann.send_json({"type": "hello", "tokens": []})  # the same page gives up its seat
        assert receive(ann, "presence")["online"] == []


def test_plays_are_refereed_and_broadcast(client: TestClient, join: Join) -> None:
    made = create(client)
    ann = join(made["id"], made["seats"][0]["token"])
    bo = join(made["id"], made["seats"][1]["token"])
    first = receive(ann, "state")
    receive(bo, "state")
    play = notations(first["view"]["legal"])[0]
    act(ann, 0, play)
    after = receive(ann, "state")
    assert after["version"] == 1
    assert after["last"]["notation"] == play
    assert [entry["notation"] for entry in after["view"]["log"]] == [play]
    seen_by_bo = receive(bo, "state")
    assert seen_by_bo["version"] == 1
    assert seen_by_bo["view"]["seat"] == 1
    expected = CentrixState.new(["red", "orange"], seed=11, first=0)
    assert seen_by_bo["view"]["hand"] == [str(c) for c in expected.hands[1]]


@pytest.mark.parametrize(
    ("message", "error"),
    [
        ("not json", "bad message"),
        (json.dumps({"type": "dance"}), "bad message"),
        (json.dumps({"type": "act", "seat": 0, "revision": 0}), "action"),
        (json.dumps({"type": "act", "seat": 0, "action": "R9 q1-q2", "revision": 0}), "not a card"),
        (json.dumps({"type": "act", "seat": 0, "action": "B1 a5-a6", "revision": 0}), "B1 a5-a6"),
        (json.dumps({"type": "act", "seat": 1, "action": "A off-a1", "revision": 0}), "token"),
        (
            json.dumps({"type": "act", "seat": 0, "action": "A off-a1", "revision": 0, "x": 1}),
            "Extra",
        ),
        (json.dumps({"type": "act", "seat": False, "action": "A off-a1"}), "seat"),
        (json.dumps({"type": "undo", "seat": 0, "revision": 0}), "taken back"),
        # (issue 31, finding 4) A play must say which table it was made on.
        (json.dumps({"type": "act", "seat": 0, "action": "A off-a1"}), "revision: Field required"),
        (json.dumps({"type": "undo", "seat": 0}), "revision: Field required"),
        (
            json.dumps({"type": "predict", "shot": "0 0 1 0"}),
            "Centrix answers no query 'predict' (its queries: preview)",
        ),
        (json.dumps({"type": "preview", "rotation": "9+9"}), "ring"),
        # (issue 30) One query call for every game's questions.
        (json.dumps({"type": "query", "name": "preview", "args": {}}), "takes 'rotation'"),
        (
            json.dumps({"type": "query", "name": "preview", "args": {"rotation": 3}}),
            "takes 'rotation', as text",
        ),
        (json.dumps({"type": "query", "name": "Preview!"}), "name: String should match"),
        (json.dumps({"type": "query", "args": {}}), "name: Field required"),
    ],
)
def test_bad_messages_get_an_error_and_change_nothing(
    client: TestClient, join: Join, message: str, error: str
) -> None:
    made = create(client)
    ann = join(made["id"], made["seats"][0]["token"])
    before = receive(ann, "state")
    ann.send_text(message)
    reply = receive(ann, "error")
    assert error in reply["message"]
    ann.send_json({"type": "ping"})
    assert receive(ann, "pong")["type"] == "pong"
    ann.send_json({"type": "hello", "tokens": [made["seats"][0]["token"]]})
    again = receive(ann, "state")
    assert again["version"] == before["version"]
    assert again["view"]["hand"] == before["view"]["hand"]


def test_not_your_turn(client: TestClient, join: Join) -> None:
    made = create(client)
    bo = join(made["id"], made["seats"][1]["token"])
    receive(bo, "state")
    act(bo, 1, "A off-a1")
    assert "not seat 1's turn" in receive(bo, "error")["message"]


def test_undo_within_the_turn_only(client: TestClient, join: Join) -> None:
    made = create(client)
    ann = join(made["id"], made["seats"][0]["token"])
    state = receive(ann, "state")
    assert state["can_undo"] is False
    act(ann, 0, notations(state["view"]["legal"])[0])
    state = receive(ann, "state")
    assert state["can_undo"] is True
    undo(ann, 0)
    state = receive(ann, "state")
    assert state["version"] == 0
    assert state["can_undo"] is False
    # Play the whole turn: once it is over nothing can be taken back.
    while state["actor"] == 0:
        act(ann, 0, notations(state["view"]["legal"])[0])
        state = receive(ann, "state")
    undo(ann, 0)
    assert "taken back" in receive(ann, "error")["message"]


def test_preview_shows_a_turned_ring(client: TestClient, join: Join) -> None:
    made = create(client)
    ann = join(made["id"], made["seats"][0]["token"])
    receive(ann, "state")
    ann.send_json({"type": "preview", "rotation": "2+3"})
    preview = receive(ann, "preview")
    assert preview["rotation"] == "2+3"
    assert preview["offsets"][1] == 3  # the board as data, ring 2 turned
    assert preview["colours"][1] == "GBWROYGBWROY"  # slot a shows what slot j did


def test_a_query_is_answered_by_name_with_the_pages_id(client: TestClient, join: Join) -> None:
    made = create(client)
    ann = join(made["id"], made["seats"][0]["token"])
    receive(ann, "state")
    query = {"type": "query", "name": "preview", "args": {"rotation": "2+3"}, "id": "q1"}
    ann.send_json(query)
    answer = receive(ann, "answer")
    assert (answer["name"], answer["id"]) == ("preview", "q1")
    ann.send_json({"type": "preview", "rotation": "2+3"})  # the page's older words for it
    assert answer["answer"] == {k: v for k, v in receive(ann, "preview").items() if k != "type"}
    assert answer["answer"]["offsets"][1] == 3


def test_an_unknown_query_is_refused_by_name_and_changes_nothing(
    client: TestClient, join: Join
) -> None:
    made = create(client)
    ann = join(made["id"], made["seats"][0]["token"])
    before = receive(ann, "state")
    ann.send_json({"type": "query", "name": "teleport", "args": {"to": "top"}, "id": "q2"})
    reply = receive(ann, "error")
    assert reply["message"] == "Centrix answers no query 'teleport' (its queries: preview)"
    assert reply["code"] == "invalid"
    assert reply["params"] == {"detail": reply["message"]}
    ann.send_json({"type": "hello", "tokens": [made["seats"][0]["token"]]})
    again = receive(ann, "state")
    assert (again["version"], again["revision"]) == (before["version"], before["revision"])
    assert again["view"] == before["view"]
    assert again["last"] == before["last"]


def test_previewing_a_move_is_refused_by_name_and_changes_nothing(
    client: TestClient, join: Join
) -> None:
    made = create(client)
    ann = join(made["id"], made["seats"][0]["token"])
    before = receive(ann, "state")
    ann.send_json({"type": "preview", "rotation": "a1-b1"})
    reply = receive(ann, "error")
    assert "'a1-b1' is not a rotation" in reply["message"]
    assert "S " not in reply["message"]  # no made-up play in the text
    assert "could not handle" not in reply["message"]
    ann.send_json({"type": "hello", "tokens": [made["seats"][0]["token"]]})
    again = receive(ann, "state")
    assert again["version"] == before["version"] == 0
    assert again["view"] == before["view"]
    assert client.get(f"/api/tables/{made['id']}").json()["version"] == 0


def test_bots_play_their_seats(client: TestClient, join: Join) -> None:
    made = create(client, CENTRIX_BOTS)
    watcher = join(made["id"])
    state = receive(watcher, "state")
    for _ in range(400):
        if state["view"]["status"] != "playing":
            break
        state = receive(watcher, "state")
    assert state["view"]["status"] == "finished"
    record = client.get(f"/api/tables/{made['id']}/record")
    assert record.status_code == 200
    assert record.headers["content-disposition"].startswith("attachment")
    replayed = CentrixState.replay(record.text)
    assert replayed.outcome is not None
    assert replayed.outcome.to_dict() == state["view"]["outcome"]


def welcome(client: TestClient, table: str, *tokens: str) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "tokens": list(tokens)})
        return receive(ws, "welcome")


def test_an_invite_link_opens_its_seat_once(client: TestClient) -> None:
    made = create(client, CENTRIX_INVITE)
    invite = made["seats"][1]["token"]
    assert made["seats"][1]["renew"]
    assert made["seats"][0]["renew"] is None
    first = welcome(client, made["id"], invite)
    assert first["seats"] == [1]
    device = first["tokens"]["1"]  # the device that used the link gets a token of its own
    assert device != invite
    assert first["taken"] == []
    # The link again, from another device: it is a spectator, told the seat is taken.
    second = welcome(client, made["id"], invite)
    assert (second["seats"], second["tokens"], second["taken"]) == ([], {}, [1])
    # The first device comes back with its own token (and the link, say, clicked again).
    again = welcome(client, made["id"], device, invite)
    assert (again["seats"], again["tokens"], again["taken"]) == ([1], {"1": device}, [])
    # A seat made on the device itself is no invite: its token keeps opening it.
    ann = made["seats"][0]["token"]
    assert [welcome(client, made["id"], ann)["seats"] for _ in range(2)] == [[0], [0]]


def test_two_devices_opening_one_invite_at_once_get_one_seat_between_them(
    client: TestClient,
) -> None:
    for _ in range(5):
        made = create(client, CENTRIX_INVITE)
        invite = made["seats"][1]["token"]
        table = f"/ws/tables/{made['id']}"
        with client.websocket_connect(table) as one, client.websocket_connect(table) as two:
            for ws in (one, two):  # both hellos are on their way before either is answered
                ws.send_json({"type": "hello", "tokens": [invite]})
            answers = sorted((receive(ws, "welcome") for ws in (one, two)), key=str)
        assert sorted(a["seats"] for a in answers) == [[], [1]]
        assert [a["taken"] for a in answers if not a["seats"]] == [[1]]


def test_the_maker_of_an_invite_can_renew_it(client: TestClient, join: Join) -> None:
    # Public: the device that loses its seat watches on (at an unlisted table it is let go:
    # tests/web/test_privacy.py).
    made = create(client, {**CENTRIX_INVITE, "visibility": "public"})
    invite, key = made["seats"][1]["token"], made["seats"][1]["renew"]
    device = welcome(client, made["id"], invite)["tokens"]["1"]
    bo = join(made["id"], device)
    receive(bo, "state")
    watcher = join(made["id"])
    receive(watcher, "state")
    invites = f"/api/tables/{made['id']}/invites"
    url = f"{invites}/1"
    # A seat with no link is refused as a wrong key is: asking tells nobody which seats
    # were invited.
    for seat, body, status, message, code in [
        (
            1,
            {"renew": "guess"},
            403,
            "that key does not renew an invite link for seat 1",
            "no_renew",
        ),
        (1, {"renew": made["seats"][0]["token"]}, 403, "does not renew", "no_renew"),
        (0, {"renew": key}, 403, "that key does not renew an invite link for seat 0", "no_renew"),
        (
            0,
            {"renew": "guess"},
            403,
            "that key does not renew an invite link for seat 0",
            "no_renew",
        ),
        (7, {"renew": key}, 403, "that key does not renew an invite link for seat 7", "no_renew"),
        (1, {}, 422, "renew: Field required", "invalid"),
    ]:
        answer = client.post(f"{invites}/{seat}", json=body)
        assert answer.status_code == status
        assert message in answer.json()["detail"]
        assert answer.json()["code"] == code
    assert welcome(client, made["id"], device)["seats"] == [1]  # nothing changed

    renewed = client.post(url, json={"renew": key})
    assert renewed.status_code == 200
    link = renewed.json()["token"]
    # The device that held the seat is told at once, and watches from now on.
    told = receive(bo, "revoked")
    assert (told["seat"], told["seats"]) == (1, [])
    assert receive(watcher, "presence")["online"] == []  # seat 1 has nobody now
    assert receive(bo, "state")["view"]["hand"] is None
    act(bo, 1, "pass")
    assert "you do not hold seat 1" in receive(bo, "error")["message"]
    # Back later, the device (and the old link) are told the seat was given a new link.
    back = welcome(client, made["id"], device, invite)
    assert (back["seats"], back["taken"], back["revoked"]) == ([], [], [1])
    fresh = welcome(client, made["id"], link)
    assert fresh["seats"] == [1]
    assert fresh["tokens"]["1"] != link


def test_an_invite_cannot_be_renewed_once_the_game_is_over(client: TestClient, join: Join) -> None:
    made = create(client, {**CENTRIX_INVITE, "rules": {"max_turns": 1}})
    ann = join(made["id"], made["seats"][0]["token"])
    state = receive(ann, "state")
    while state["view"]["status"] == "playing":  # Ann's one turn ends the game
        act(ann, 0, notations(state["view"]["legal"])[0])
        state = receive(ann, "state")
    answer = client.post(
        f"/api/tables/{made['id']}/invites/1", json={"renew": made["seats"][1]["renew"]}
    )
    assert answer.status_code == 422
    assert answer.json()["detail"] == "the game is over: there is no seat to invite anyone to"


@pytest.mark.sqlite
def test_a_restarted_server_has_every_game_where_it_was(database: str) -> None:
    def server() -> TestClient:
        return TestClient(
            create_app(
                Settings(database, allowed_hosts=TEST_HOSTS), bot_executor=ThreadPoolExecutor(1)
            )
        )

    with server() as client:
        made = create(client)
        with client.websocket_connect(f"/ws/tables/{made['id']}") as ann:
            ann.send_json({"type": "hello", "tokens": [made["seats"][0]["token"]]})
            state = receive(ann, "state")
            for _ in range(2):
                legal = notations(state["view"]["legal"])
                act(ann, 0, legal[-1])
                state = receive(ann, "state")
    with server() as client, client.websocket_connect(f"/ws/tables/{made['id']}") as ann:
        ann.send_json({"type": "hello", "tokens": [made["seats"][0]["token"]]})
        again = receive(ann, "state")
        assert again["version"] == 2
        assert again["view"]["log"] == state["view"]["log"]
        assert again["view"]["hand"] == state["view"]["hand"]
        assert again["view"]["cells"] == state["view"]["cells"]


def test_replay_steps_and_rules(client: TestClient, join: Join) -> None:
    made = create(client)
    ann = join(made["id"], made["seats"][0]["token"])
    state = receive(ann, "state")
    act(ann, 0, notations(state["view"]["legal"])[0])
    receive(ann, "state")
    step0 = client.get(f"/api/tables/{made['id']}/replay/0").json()
    step1 = client.get(f"/api/tables/{made['id']}/replay/1").json()
    assert step0["steps"] == 1
    assert step0["view"]["log"] == []
    assert len(step1["view"]["log"]) == 1
    assert step1["view"]["log"][0]["seat"] == 0  # Ann made the first play
    assert "svg" not in step1["view"]  # the replay page draws the board from the view
    assert step1["view"]["hand"] is None
    assert client.get(f"/api/tables/{made['id']}/replay/5").status_code == 404
    rules = client.get("/api/rules/centrix").json()["html"]
    assert "<h1>Centrix — how to play" in rules  # the players' guide
    assert "test_" not in rules
    full = client.get("/api/rules/centrix", params={"part": "full"}).json()["html"]
    assert "D14 — The bottom of the board" in full  # every decision, exactly
    assert client.get("/api/rules/centrix", params={"part": "all"}).status_code == 422
    assert client.get("/api/rules/chess").status_code == 404
    korean = client.get("/api/rules/centrix", params={"lang": "ko"}).json()
    assert korean["lang"] == "ko"
    assert korean["html"] != rules
    # Any other language, however long, is English (and not a file name to look up).
    for lang in ("fr", "a" * 300, "../centrix"):
        answer = client.get("/api/rules/centrix", params={"lang": lang})
        assert answer.status_code == 200
        assert answer.json() == {"html": rules, "lang": "en"}


def test_a_binary_frame_is_read_as_the_same_json(client: TestClient, join: Join) -> None:
    made = create(client)
    ann = join(made["id"], made["seats"][0]["token"])
    receive(ann, "state")
    ann.send_bytes(b'{"type": "ping"}')
    assert receive(ann, "pong")["type"] == "pong"
    ann.send_bytes(b"\xff\xfe not json")
    assert "bad message" in receive(ann, "error")["message"]
    ann.send_json({"type": "ping"})  # the socket is still open
    assert receive(ann, "pong")["type"] == "pong"


def test_colorcity_predict_pitch_and_decide(client: TestClient, join: Join) -> None:
    made = create(client, COLORCITY)
    tokens = [s["token"] for s in made["seats"]]
    both = join(made["id"], *tokens)
    state = receive(both, "state")
    assert state["seats"] == [0, 1]
    assert state["view"]["expects"] == "shot"
    # The drag spends most of its pull between the speeds that reach the city's two edges.
    near, far = state["view"]["table"]["city_speeds"]
    assert (
        state["view"]["table"]["min_speed"] < near < 1.3 < far < state["view"]["table"]["max_speed"]
    )
    both.send_json({"type": "predict", "shot": f"0 0 {near - 0.1} 0"})
    assert receive(both, "prediction")["covered"] == []  # short of the city
    both.send_json({"type": "predict", "shot": "0 0 1.3 0"})
    prediction = receive(both, "prediction")
    both.send_json({"type": "query", "name": "predict", "args": {"shot": "0 0 1.3 0"}})
    answer = receive(both, "answer")
    assert answer["answer"] == {k: v for k, v in prediction.items() if k != "type"}
    both.send_json({"type": "query", "name": "preview", "args": {"rotation": "2+3"}})
    refused = receive(both, "error")["message"]
    assert refused == "Color City answers no query 'preview' (its queries: predict)"
    assert prediction["on_table"] is True
    assert prediction["covered"]
    both.send_json({"type": "predict", "shot": "0 0 9 0"})
    assert "speed" in receive(both, "error")["message"]
    act(both, 0, "0 0 1.3 0")
    state = receive(both, "state")
    flight = state["last"]["flight"]
    assert flight["dt"] > 0
    assert len(flight["poses"]) > 10
    assert flight["poses"][-1] == state["view"]["stop"]
    # Exact skill: the pitch lands where the prediction said.
    assert state["view"]["covered"] == prediction["covered"]
    assert state["view"]["expects"] == "decision"
    assert "lucky-day" in state["view"]["decisions"]
    act(both, 0, "pass")
    state = receive(both, "state")
    assert state["actor"] == 1
    # The record holds the seed, and so the hands' next wobbles: not while the game is on.
    refused = client.get(f"/api/tables/{made['id']}/record")
    assert refused.status_code == 409
    assert refused.json()["detail"] == "the record can be downloaded once the game is over"

    # Once the game is over, the record replays it.
    short = create(client, {**COLORCITY, "rules": {"max_turns": 1}})
    both = join(short["id"], *(s["token"] for s in short["seats"]))
    receive(both, "state")
    for action in ("0 0 1.3 0", "pass"):
        act(both, 0, action)
        state = receive(both, "state")
    assert state["view"]["status"] == "turn_cap"
    record = client.get(f"/api/tables/{short['id']}/record").text
    assert colorcity_replay(record).turn == 1


def test_colorcity_bots_play_their_gang(client: TestClient, join: Join) -> None:
    made = create(client, COLORCITY_VS_BOT)
    me = join(made["id"], made["seats"][0]["token"])
    state = receive(me, "state")
    act(me, 0, "0 0 1.3 0")
    state = receive(me, "state")
    act(me, 0, "pass")
    for _ in range(10):  # the bot pitches (and decides on its power) by itself
        state = receive(me, "state")
        if state["actor"] == 0:
            break
    assert state["actor"] == 0
    assert state["view"]["turn"] == 2
    assert len(state["view"]["log"]) >= 3
