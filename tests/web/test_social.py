"""Issue 16, social: a browser's own tables (web.yours), the host's archive and delete, and
the table chat (web.chat)."""

from __future__ import annotations

import time
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDisconnect, WebSocketTestSession

from gamenight.web import sounds
from gamenight.web.chat import KEPT, clean
from gamenight.web.store.sql import MIGRATIONS, SqlStore, TableRow, upgrade
from gamenight.web.yours import MINE

from .bodies import CENTRIX_2, CENTRIX_BOTS, CENTRIX_INVITE
from .postgres import postgres_database
from .stores import stored
from .test_api import create, receive, until_pong
from .test_scale_out import two_servers

Join = Callable[..., WebSocketTestSession]


def mine(client: TestClient, tables: dict[str, list[str]]) -> dict[str, Any]:
    answer = client.post("/api/tables/mine", json={"tables": tables})
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def keys_of(made: dict[str, Any]) -> list[str]:
    """The keys the browser that made the table sends for it (home.js): the host's, the
    spectator link's, its own seats' tokens and its invites' renewal keys (an invite's link
    is for someone else: it opens no seat of this browser's)."""
    keys = [made["host"], made.get("watch")]
    for seat in made["seats"]:
        keys += [seat["renew"]] if seat["invite"] else [seat["token"]]
    return [k for k in keys if k]


# ---------------------------------------------------------------- your tables


def test_the_maker_is_given_a_host_token_and_the_table_keeps_only_its_hash(
    client: TestClient,
) -> None:
    made = create(client, CENTRIX_2)
    assert len(made["host"]) > 20
    record = stored(client, made["id"])
    assert record is not None
    assert record.host_hash
    assert made["host"] not in str(record)


def test_my_tables_are_the_ones_my_keys_open_in_their_groups(client: TestClient) -> None:
    ann_first = create(client, CENTRIX_2)  # Ann (seat 0) to play
    unlisted = create(client, CENTRIX_INVITE)  # the host's own unlisted table
    bots = create(client, CENTRIX_BOTS)
    answer = mine(
        client,
        {
            ann_first["id"]: [ann_first["seats"][1]["token"]],  # Bo's device: waiting
            unlisted["id"]: keys_of(unlisted),
            bots["id"]: [bots["host"]],
            "nosuchtable": ["guess"],
            create(client, CENTRIX_2)["id"]: ["a key that opens nothing"],
        },
    )
    by_id = {t["id"]: t for t in answer["tables"]}
    assert set(by_id) == {ann_first["id"], unlisted["id"], bots["id"]}
    assert len(answer["unknown"]) == 2  # a table that does not exist and one not mine, alike
    bo = by_id[ann_first["id"]]
    assert (bo["held"], bo["actor"], bo["your_turn"], bo["host"]) == ([1], 0, False, False)
    host = by_id[unlisted["id"]]
    assert (host["held"], host["your_turn"], host["host"]) == ([0], True, True)
    assert host["seats"][1] == {"name": "Bo", "kind": "human", "role": "orange"}
    assert "token" not in str(answer)
    assert "hash" not in str(answer)
    # The host's unlisted table is listed for it, never in the public list.
    assert unlisted["id"] not in {t["id"] for t in client.get("/api/tables").json()}


@pytest.mark.sqlite
def test_my_tables_read_whose_turn_it_is_from_the_stored_clock(client: TestClient) -> None:
    manager = client.app.state.manager  # type: ignore[attr-defined]
    made = create(client, {**CENTRIX_2, "first": 1})  # Bo to play
    bo = {made["id"]: [made["seats"][1]["token"]]}
    assert manager.evict(now=manager.clock() + 10**6) == [made["id"]]
    seen = mine(client, bo)["tables"][0]
    assert (seen["actor"], seen["your_turn"]) == (1, True)
    assert made["id"] not in manager.tables  # the clock said it: the game was not replayed
    # A table stored before there were clocks is loaded to know.
    with manager.store.writing() as session:
        session.execute(sa.update(TableRow).values(clock=None))
    seen = mine(client, bo)["tables"][0]
    assert (seen["actor"], seen["your_turn"]) == (1, True)
    assert made["id"] in manager.tables


def test_my_tables_asks_about_at_most_so_many_tables_and_keys(client: TestClient) -> None:
    too_many = {f"t{i}": ["k"] for i in range(MINE + 1)}
    for body in (
        {"tables": too_many},
        {"tables": {"t": ["k"] * 100}},
        {"tables": {"t": ["k" * 201]}},
        {"tables": {"t": "k"}},
        {"tables": []},
        {},
    ):
        refused = client.post("/api/tables/mine", json=body)
        assert (refused.status_code, refused.json()["code"]) == (422, "invalid"), body


def test_only_the_host_archives_and_an_archived_table_leaves_the_public_list(
    client: TestClient,
) -> None:
    made = create(client, CENTRIX_2)
    url = f"/api/tables/{made['id']}/archive"
    for keys in ([made["seats"][1]["token"]], ["guess"]):
        # (Bo's token is a seat's of the maker's device, but this table records its host.)
        refused = client.post(url, json={"keys": keys})
        assert (refused.status_code, refused.json()["code"]) == (403, "not_host")
    assert made["id"] in {t["id"] for t in client.get("/api/tables").json()}
    assert client.post(url, json={"keys": ["guess", made["host"]]}).status_code == 200
    assert made["id"] not in {t["id"] for t in client.get("/api/tables").json()}
    assert mine(client, {made["id"]: [made["host"]]})["tables"][0]["archived"] is True
    assert client.post(url, json={"keys": [made["host"]], "archived": False}).status_code == 200
    assert mine(client, {made["id"]: [made["host"]]})["tables"][0]["archived"] is False
    assert client.post("/api/tables/nope/archive", json={"keys": ["k"]}).status_code == 404


def test_only_the_host_deletes_and_the_pages_open_at_it_are_told(
    client: TestClient, join: Join
) -> None:
    made = create(client, CENTRIX_2)
    url = f"/api/tables/{made['id']}/delete"
    bo = join(made["id"], made["seats"][1]["token"])
    receive(bo, "state")
    refused = client.post(url, json={"keys": [made["seats"][1]["token"]]})
    assert (refused.status_code, refused.json()["code"]) == (403, "not_host")
    assert client.post(url, json={}).status_code == 422
    assert client.get(f"/api/tables/{made['id']}").status_code == 200  # untouched
    assert client.post(url, json={"keys": [made["host"]]}).json() == {
        "id": made["id"],
        "deleted": True,
    }
    told = receive(bo, "error")
    assert (told["code"], told["params"]) == ("no_table", {"table": made["id"]})
    with pytest.raises(WebSocketDisconnect) as closed:
        bo.receive_json()
    assert closed.value.code == 4404
    assert client.get(f"/api/tables/{made['id']}").status_code == 404
    assert mine(client, {made["id"]: [made["host"]]}) == {"tables": [], "unknown": [made["id"]]}
    assert client.post(url, json={"keys": [made["host"]]}).status_code == 404


@pytest.mark.sqlite
def test_a_table_stored_before_there_were_hosts_is_its_makers(client: TestClient) -> None:
    made = create(client, CENTRIX_INVITE)
    store: SqlStore = client.app.state.manager.store  # type: ignore[attr-defined]
    with store.writing() as session:
        session.execute(sa.update(TableRow).values(host_hash=None))
    url = f"/api/tables/{made['id']}/archive"
    invite = made["seats"][1]["token"]  # the guest's link: not the maker's
    assert client.post(url, json={"keys": [invite]}).status_code == 403
    assert mine(client, {made["id"]: [made["watch"]]})["tables"][0]["host"] is True
    for maker in (made["seats"][0]["token"], made["seats"][1]["renew"], made["watch"]):
        assert client.post(url, json={"keys": [maker]}).status_code == 200


def test_the_host_and_archive_migration_goes_up_and_down(url: str) -> None:
    engine = sa.create_engine(url)
    try:
        upgrade(engine, "0002")
        with engine.begin() as connection:
            connection.execute(
                sa.text(
                    "INSERT INTO tables (id, game, rules, seed, setup, seats, status, created,"
                    " updated, revision) VALUES ('old', 'centrix', '{}', 1, '{}', '[]',"
                    " 'playing', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 0)"
                )
            )
        upgrade(engine, "0004")
        with engine.connect() as connection:
            row = connection.execute(sa.text("SELECT host_hash, archived FROM tables")).one()
        assert (row[0], bool(row[1])) == (None, False)
        store = SqlStore(url)  # (at head)
        try:
            assert store.sync.archive("old", True)
            assert store.sync.some(["old", "gone"])[0].archived is True
            assert store.sync.delete("old")
            assert not store.sync.delete("old")
        finally:
            store.engine.dispose()
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0002")
        with engine.connect() as connection:
            columns = {c["name"] for c in sa.inspect(connection).get_columns("tables")}
        assert {"host_hash", "archived"} & columns == set()
        assert "revision" in columns
    finally:
        engine.dispose()


# ---------------------------------------------------------------- chat


def test_players_and_spectators_chat_apart(client: TestClient, join: Join) -> None:
    made = create(client, CENTRIX_2)
    ann = join(made["id"], made["seats"][0]["token"])
    bo = join(made["id"], made["seats"][1]["token"])
    eve, sam = join(made["id"]), join(made["id"])
    for page in (ann, bo, eve, sam):
        until_pong(page)
    ann.send_json({"type": "chat", "text": "good luck, Bo"})
    heard = receive(bo, "chat")["messages"]
    assert [{k: v for k, v in m.items() if k != "n"} for m in heard] == [
        {"seat": 0, "text": "good luck, Bo"}
    ]
    eve.send_json({"type": "chat", "phrase": "nice_move"})
    line = receive(sam, "chat")["messages"][0]
    assert (line["spectator"], line["phrase"], "seat" in line) == (1, "nice_move", False)
    assert [m["type"] for m in until_pong(ann)] == ["chat"]  # its own line, not Eve's
    assert [m["type"] for m in until_pong(bo)] == []
    assert [m["type"] for m in until_pong(eve)] == ["chat"]  # its own, not Ann's
    assert [m for m in until_pong(sam) if m["type"] == "chat"] == []
    # A page coming later hears its own side's latest lines after its state.
    late = join(made["id"])
    assert receive(late, "state")
    history = late.receive_json()
    assert (history["type"], history["history"]) == ("chat", True)
    assert [m.get("phrase") for m in history["messages"]] == ["nice_move"]


def test_chat_lines_are_short_plain_text_at_a_limited_rate(client: TestClient, join: Join) -> None:
    made = create(client, CENTRIX_2)
    ann = join(made["id"], made["seats"][0]["token"])
    until_pong(ann)
    for bad in (
        {"type": "chat", "text": "x" * 201},
        {"type": "chat", "text": ""},
        {"type": "chat"},
        {"type": "chat", "text": "hi", "phrase": "hello"},
        {"type": "chat", "phrase": "<b>gg</b>"},
        {"type": "chat", "text": "hi", "html": "<b>hi</b>"},
    ):
        ann.send_json(bad)
        assert receive(ann, "error")["code"] == "bad_message", bad
    ann.send_json({"type": "chat", "text": " \u202e\x00\n\t "})
    assert receive(ann, "error")["code"] == "bad_message"
    ann.send_json({"type": "chat", "text": "<img src=x onerror=alert(1)>\n  hi\u202e"})
    assert receive(ann, "chat")["messages"][0]["text"] == "<img src=x onerror=alert(1)> hi"
    limit = client.app.state.manager.limits.chat_per_minute  # type: ignore[attr-defined]
    for n in range(limit - 1):  # (the line above was the first)
        ann.send_json({"type": "chat", "text": f"line {n}"})
        assert receive(ann, "chat")
    ann.send_json({"type": "chat", "phrase": "oops"})
    assert receive(ann, "error")["code"] == "rate_limited"
    ann.send_json({"type": "ping"})
    assert receive(ann, "pong")  # the page is refused a line, not let go


def test_a_chat_before_hello_is_refused(client: TestClient) -> None:
    made = create(client, CENTRIX_INVITE)
    with client.websocket_connect(f"/ws/tables/{made['id']}") as page:
        page.send_json({"type": "chat", "text": "let me in"})
        assert receive(page, "error")["code"] == "bad_message"


def test_a_chat_keeps_its_latest_lines_and_cleans_text() -> None:
    assert clean("a\u2066b\u200f c\r\n\x07d") == "ab c d"
    assert clean("한국어 😀 👨‍👩‍👧") == "한국어 😀 👨‍👩‍👧"
    assert KEPT >= 20


def test_a_spectator_is_told_which_invited_seats_are_still_free(
    client: TestClient, join: Join
) -> None:
    made = create(client, {**CENTRIX_INVITE, "visibility": "public"})
    info = f"/api/tables/{made['id']}"
    assert client.get(info).json()["free"] == [1]
    join(made["id"], made["seats"][1]["token"])  # Bo opens his link: the seat is his
    assert client.get(info).json()["free"] == []


# ---------------------------------------------------------------- sounds


def test_the_sounds_shipped_are_the_ones_the_script_makes() -> None:
    shipped = resources.files("gamenight.web") / "static" / "sounds"
    for name, make in sounds.SOUNDS.items():
        data = (shipped / f"{name}.wav").read_bytes()
        assert data == sounds.wav(make()), f"{name}.wav: run python -m gamenight.web.sounds"
        assert data[:4] == b"RIFF"
        assert len(data) < 40_000
    assert set(sounds.SOUNDS) == {"turn", "bump", "cube", "top"}  # Contract B's four


def test_scaled_out_a_line_reaches_its_side_on_the_other_server() -> None:
    with postgres_database("gn_social_") as database, two_servers(database, 180.0) as (one, two):
        made = create(one, CENTRIX_2)
        url = f"/ws/tables/{made['id']}"
        with (
            one.websocket_connect(url) as ann,
            two.websocket_connect(url) as bo,
            two.websocket_connect(url) as eve,
        ):
            for page, tokens in (
                (ann, [made["seats"][0]["token"]]),
                (bo, [made["seats"][1]["token"]]),
                (eve, []),
            ):
                page.send_json({"type": "hello", "tokens": tokens})
                receive(page, "state")
            time.sleep(0.3)  # (both relays subscribed, as in test_scale_out)
            ann.send_json({"type": "chat", "phrase": "hello"})
            assert receive(bo, "chat")["messages"][0] | {"n": 0} == {
                "n": 0,
                "seat": 0,
                "phrase": "hello",
            }
            eve.send_json({"type": "chat", "text": "hi all"})
            assert receive(eve, "chat")["messages"][0]["text"] == "hi all"
            ann.send_json({"type": "chat", "text": "after Eve"})
            assert receive(ann, "chat")["messages"][0]["phrase"] == "hello"  # its own first
            assert receive(bo, "chat")["messages"][0]["text"] == "after Eve"  # not Eve's
            assert [m for m in until_pong(eve) if m["type"] == "chat"] == []
            # A page coming to the other server later hears what was said on this one.
            with two.websocket_connect(url) as cy:
                cy.send_json({"type": "hello", "tokens": [made["seats"][1]["token"]]})
                receive(cy, "state")
                history = receive(cy, "chat")
                assert [m.get("text") or m.get("phrase") for m in history["messages"]] == [
                    "hello",
                    "after Eve",
                ]
