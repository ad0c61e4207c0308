"""Issue 16, adversarial review: what a hostile client tried, held as tests.

Each test here failed on the code as merged (the server answered 500, or let text through
that hides or reorders what other people read) and holds the fix."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gamenight.web.chat import clean, visible
from gamenight.web.protocol import TableIn
from gamenight.web.refusals import RefusedError
from gamenight.web.store import StoredTable
from gamenight.web.store.sql import SqlStore
from gamenight.web.tables import TableManager

from .bodies import CENTRIX_2
from .test_api import create
from .test_social import Join, until_pong

JSON = {"content-type": "application/json"}


def test_a_body_with_a_lone_surrogate_is_refused_not_a_server_error(client: TestClient) -> None:
    # Python's JSON reader takes "\ud800"; the text cannot be written back as UTF-8, so an
    # answer quoting it (an unknown rule's name) failed with 500 instead of refusing it.
    made = create(client, CENTRIX_2)
    seats = '[{"kind": "device", "name": "A"}, {"kind": "device", "name": "B"}]'
    for path, raw in (
        ("/api/tables", f'{{"game": "centrix", "seats": {seats}, "rules": {{"\\ud800": 1}}}}'),
        ("/api/tables", f'{{"game": "centrix", "seats": {seats}, "rules": {{"x": "\\udfff"}}}}'),
        ("/api/tables/mine", '{"tables": {"\\ud800": ["k"]}}'),
        (f"/api/tables/{made['id']}/check-invite", '{"token": "\\ud800"}'),
        (f"/api/tables/{made['id']}/delete", '{"keys": ["\\ud800"]}'),
    ):
        answer = client.post(path, content=raw, headers=JSON)
        assert (answer.status_code, answer.json()["code"]) == (422, "invalid"), (path, raw)
    assert client.get(f"/api/tables/{made['id']}").status_code == 200  # nothing changed
    # Nor is a body sent as anything but JSON read (a form of another site may send
    # text/plain without asking first).
    answer = client.post("/api/tables", json=CENTRIX_2, headers={"content-type": "text/plain"})
    assert (answer.status_code, answer.json()["code"]) == (422, "invalid")
    # A body that is no JSON object at all is refused the same way.
    for raw in ("[1, 2]", "not json", ""):
        answer = client.post("/api/tables/mine", content=raw, headers=JSON)
        assert (answer.status_code, answer.json()["code"]) == (422, "invalid"), raw


def test_a_seat_name_is_cleaned_as_a_chat_line_is(client: TestClient) -> None:
    # A name is shown in every other player's log and chat: a right-to-left override in it
    # reversed the text after it there, and an invisible name left a seat with no name.
    names = ["Ann\u202e evil", "\u200b\u2060", "Bo\x00\n  Kim", "<b>Cy</b>"]
    body = {"game": "centrix", "seats": [{"kind": "device", "name": n} for n in names]}
    made = create(client, body)
    assert [s["name"] for s in made["seats"]] == ["Ann evil", "Player 2", "Bo Kim", "<b>Cy</b>"]
    info = client.get(f"/api/tables/{made['id']}").json()
    assert [s["name"] for s in info["seats"]] == ["Ann evil", "Player 2", "Bo Kim", "<b>Cy</b>"]


def test_a_chat_line_says_something_visible_and_stays_one_line_high(
    client: TestClient, join: Join
) -> None:
    made = create(client, CENTRIX_2)
    ann = join(made["id"], made["seats"][0]["token"])
    until_pong(ann)
    # Only invisible characters: a blank line from nobody-knows-what, refused.
    for invisible in ("\u200b\u200b", "\ufeff\u2060\u00ad", "\u0301\u0301", "\U000e0041"):
        ann.send_json({"type": "chat", "text": invisible})
        heard = [(m["type"], m.get("code")) for m in until_pong(ann)]
        assert heard == [("error", "bad_message")], ascii(invisible)
    # 199 accents on one letter drew a tower over the chat above it: a few are kept.
    ann.send_json({"type": "chat", "text": "a" + "\u0301" * 199})
    (line,) = until_pong(ann)
    assert line["messages"][0]["text"] == "a" + "\u0301" * 3


def test_cleaning_keeps_every_script_and_emoji() -> None:
    for text in (
        "한국어",
        "👨‍👩‍👧",
        "👍🏽",
        "❤️",
        "क्षि",
        "میخواهم",
        "Ελλάδα",
        "x\u0301\u0302",
        "Tiếng Việt",
    ):
        assert clean(text) == text, ascii(text)
        assert visible(text)
    assert clean("a\u200bb\ufeffc\u2060d") == "abcd"
    assert not visible(clean("\u200d\u200c"))


class HeldStore(SqlStore):
    """A store whose ``load`` waits, once it has read the table, until it is let go."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.read, self.go = threading.Event(), threading.Event()

    async def load(self, table_id: str) -> StoredTable | None:
        # (Async, as the store's own: a plain method here blocked the event loop for the
        # whole wait, and held nothing.)
        stored = await super().load(table_id)
        self.read.set()
        await asyncio.to_thread(self.go.wait, 10)
        return stored


def test_a_table_deleted_while_it_is_being_loaded_stays_deleted(tmp_path: Path) -> None:
    # The host deleted a table that was not in memory while a page's request was loading
    # it: the load, having read it before the delete, brought it back to life in memory
    # (its info, record and replay answered 200 after "deleted": true).
    store = HeldStore(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    manager = TableManager(store)

    async def race() -> None:
        table, _ = await manager.create(TableIn.model_validate(CENTRIX_2))
        assert manager.evict(now=manager.clock() + 10**9) == [table.id]  # left memory
        loading = asyncio.create_task(manager.get(table.id))
        await asyncio.to_thread(store.read.wait, 10)
        assert await manager.delete(table.id)
        store.go.set()
        with pytest.raises(RefusedError) as refused:
            await loading
        assert refused.value.code == "no_table"
        assert table.id not in manager.tables
        with pytest.raises(RefusedError):
            await manager.get(table.id)

    asyncio.run(race())
