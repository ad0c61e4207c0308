"""Tables at the web: set-up bounds (issue 14, finding 4) and the last Color City shot's
trajectory after a restart (finding 12)."""

from __future__ import annotations

import json
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gamenight.colorcity import DEFAULT_TABLE, Gang, Shot, predict
from gamenight.colorcity.table import D19_PHYSICS
from gamenight.web.app import create_app
from gamenight.web.settings import Settings

from .bodies import COLORCITY
from .hosts import TEST_HOSTS
from .test_api import act, create, receive

# Every table here outlives its server, or is written as an older version stored it.
pytestmark = pytest.mark.sqlite

HOSTILE = {"frame_rate": 0.01, "rest_speed": 0, "rest_spin": 0, "max_flick_s": 1e9}
NEW_IN_D24 = ("integrator", "start_lead", "warmstart")


def server(database: str) -> TestClient:
    return TestClient(
        create_app(Settings(database, allowed_hosts=TEST_HOSTS), bot_executor=ThreadPoolExecutor(1))
    )


def pitch(client: TestClient, made: dict[str, Any], shot: str) -> dict[str, Any]:
    """Green pitches ``shot``; the state message every page then receives."""
    with client.websocket_connect(f"/ws/tables/{made['id']}") as page:
        page.send_json({"type": "hello", "tokens": [s["token"] for s in made["seats"]]})
        receive(page, "state")
        act(page, 0, shot)
        return receive(page, "state")


def reopen(client: TestClient, made: dict[str, Any]) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/tables/{made['id']}") as page:
        page.send_json({"type": "hello", "tokens": [s["token"] for s in made["seats"]]})
        return receive(page, "state")


def test_a_hostile_table_is_refused_at_set_up_naming_the_field(client: TestClient) -> None:
    response = client.post("/api/tables", json={**COLORCITY, "rules": HOSTILE})
    assert response.status_code == 422
    assert "frame_rate must be from 10 to 240" in response.text
    assert client.get("/api/tables").json() == []  # nothing was made


def test_a_centrix_turn_cap_beyond_its_bound_is_refused(client: TestClient) -> None:
    body = {
        "game": "centrix",
        "seats": [{"kind": "device", "name": "Ann"}, {"kind": "device", "name": "Bo"}],
        "first": 0,
        "rules": {"max_turns": 10_001},
    }
    response = client.post("/api/tables", json=body)
    assert response.status_code == 422
    assert "max_turns must be none, or from 1 to 10000" in response.text


def test_a_stored_table_outside_todays_bounds_still_loads_and_replays(database: str) -> None:
    with server(database) as client:
        made = create(client, COLORCITY)
        live = pitch(client, made, "0 0 1.3 0")
    # As an older release stored it: out of today's bounds, and without the step cap.
    old = {k: v for k, v in DEFAULT_TABLE.to_dict().items() if k != "max_flick_steps"}
    with sqlite3.connect(database.removeprefix("sqlite:///")) as db:
        db.execute(
            "UPDATE tables SET rules = ? WHERE id = ?", (json.dumps({**old, **HOSTILE}), made["id"])
        )
    with server(database) as client:
        again = reopen(client, made)
        assert again["version"] == 1
        assert again["view"]["cells"] == live["view"]["cells"]
        replayed = client.get(f"/api/tables/{made['id']}/replay/1")
        assert replayed.status_code == 200
        assert replayed.json()["view"]["cells"] == live["view"]["cells"]


def test_a_table_stored_before_d24_plays_on_with_its_physics(database: str) -> None:
    """A game in progress when the server is upgraded past D24 keeps flicking as it did:
    its stored rules lack D24's fields, which must not take today's defaults."""
    with server(database) as client:
        made = create(client, COLORCITY)
    # As a release before D24 stored it: D19's physics, without the fields D24 added.
    old = DEFAULT_TABLE.with_(**D19_PHYSICS)
    stored = {k: v for k, v in old.to_dict().items() if k not in NEW_IN_D24}
    with sqlite3.connect(database.removeprefix("sqlite:///")) as db:
        db.execute("UPDATE tables SET rules = ? WHERE id = ?", (json.dumps(stored), made["id"]))
    with server(database) as client:
        pitch(client, made, "0 0 1.3 0")  # exact hands: the flick lands where predicted
    with sqlite3.connect(database.removeprefix("sqlite:///")) as db:
        (payload,) = db.execute("SELECT payload FROM actions").fetchone()
    pose = tuple(json.loads(payload)["pose"])
    assert pose == tuple(predict(old, Gang.GREEN, Shot(0.0, 0.0, 1.3, 0.0)).pose)
    assert pose != tuple(predict(DEFAULT_TABLE, Gang.GREEN, Shot(0.0, 0.0, 1.3, 0.0)).pose)


def test_the_last_shot_is_drawn_the_same_after_a_restart(database: str) -> None:
    with server(database) as client:
        made = create(client, COLORCITY)
        live = pitch(client, made, "5 -2 1.35 3")
    assert len(live["last"]["flight"]["poses"]) > 10
    with server(database) as client:
        again = reopen(client, made)
    assert again["version"] == live["version"] == 1
    assert again["last"] == live["last"]
    assert again["view"]["trail"] == live["view"]["trail"]  # the path drawn on the board too
