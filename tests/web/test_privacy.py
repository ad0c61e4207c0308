"""Who may see a table (issue 14, finding 9): unlisted tables, the spectator link, the
socket's Origin, and the headers every answer carries."""

from __future__ import annotations

import re
from importlib import resources

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gamenight.web.app import create_app
from gamenight.web.settings import Settings

from .bodies import CENTRIX_2, CENTRIX_INVITE
from .hosts import TEST_HOSTS
from .test_api import create, receive


def listed(client: TestClient) -> set[str]:
    return {t["id"] for t in client.get("/api/tables").json()}


def test_a_table_with_an_invited_seat_is_unlisted_unless_its_host_says_otherwise(
    client: TestClient,
) -> None:
    invited = create(client, CENTRIX_INVITE)
    own = create(client, CENTRIX_2)
    public_invite = create(client, {**CENTRIX_INVITE, "visibility": "public"})
    unlisted_own = create(client, {**CENTRIX_2, "visibility": "unlisted"})
    assert [t["visibility"] for t in (invited, own, public_invite, unlisted_own)] == [
        "unlisted",
        "public",
        "public",
        "unlisted",
    ]
    # The spectator link's token is the host's, for an unlisted table only.
    assert len(invited["watch"]) > 20
    assert own["watch"] is None
    assert listed(client) == {own["id"], public_invite["id"]}
    bad = client.post("/api/tables", json={**CENTRIX_2, "visibility": "secret"})
    assert bad.status_code == 422
    assert "visibility" in bad.json()["detail"]


def test_watching_an_unlisted_table_needs_its_spectator_link(client: TestClient) -> None:
    made = create(client, CENTRIX_INVITE)
    url = f"/ws/tables/{made['id']}"
    for hello in (
        {"type": "hello", "tokens": []},
        {"type": "hello", "tokens": ["guess"], "watch": "guess"},
    ):
        with client.websocket_connect(url) as page:
            page.send_json(hello)
            refused = page.receive_json()
            assert (refused["type"], refused["code"]) == ("error", "unlisted")
            with pytest.raises(WebSocketDisconnect) as closed:
                page.receive_json()
            assert closed.value.code == 1008
    with client.websocket_connect(url) as page:
        page.send_json({"type": "hello", "tokens": [], "watch": made["watch"]})
        assert receive(page, "welcome")["seats"] == []
        assert receive(page, "state")["seats"] == []
    with client.websocket_connect(url) as page:  # a seat's own token opens it, as ever
        page.send_json({"type": "hello", "tokens": [made["seats"][0]["token"]]})
        assert receive(page, "welcome")["seats"] == [0]


def test_an_unlisted_tables_info_replay_and_record_need_a_key(client: TestClient) -> None:
    made = create(client, CENTRIX_INVITE)
    base = f"/api/tables/{made['id']}"
    for path in (base, f"{base}/replay/0", f"{base}/record"):
        for params in ({}, {"key": "guess"}):
            refused = client.get(path, params=params)
            assert (refused.status_code, refused.json()["code"]) == (403, "unlisted"), path
        assert client.get(path, params={"key": made["watch"]}).status_code in (200, 409)
        # A page sends every token it holds: one that opens the table is enough.
        keys = {"key": ["guess", made["watch"]]}
        assert client.get(path, params=keys).status_code in (200, 409)
        assert client.get(path, params={"key": made["seats"][0]["token"]}).status_code in (
            200,
            409,  # the record, before the game is over
        )
    public = create(client, CENTRIX_2)
    assert client.get(f"/api/tables/{public['id']}/replay/0").status_code == 200


def test_a_socket_from_another_sites_page_is_refused(database: str) -> None:
    settings = Settings(
        database, allowed_origins=("https://friends.example",), allowed_hosts=TEST_HOSTS
    )
    with TestClient(create_app(settings)) as client:
        made = create(client, CENTRIX_2)
        url = f"/ws/tables/{made['id']}"
        for origin in ("https://evil.example", "http://testserver.evil.example", "null"):
            with (
                pytest.raises(WebSocketDisconnect) as refused,
                client.websocket_connect(url, headers={"origin": origin}),
            ):
                pass
            assert refused.value.code == 1008
        for headers in (
            {"origin": "http://testserver"},  # the server's own pages
            {"origin": "https://friends.example"},
            {},  # a program, not a page
        ):
            with client.websocket_connect(url, headers=headers) as page:
                page.send_json({"type": "hello", "tokens": []})
                assert receive(page, "welcome")["seats"] == []


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    made = create(client, CENTRIX_2)
    for path in ("/", f"/table/{made['id']}", "/static/js/core/i18n.js", "/api/tables", "/nope"):
        headers = client.get(path).headers
        csp = headers["content-security-policy"]
        assert "script-src 'self'" in csp
        assert "unsafe-inline" not in csp
        assert "frame-ancestors 'none'" in csp
        assert headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"


def test_the_pages_have_no_inline_script_or_style() -> None:
    # The policy forbids them: an inline one would simply not run.
    static = resources.files("gamenight.web") / "static"
    for page in sorted(f for f in static.iterdir() if f.name.endswith(".html")):
        html = page.read_text(encoding="utf-8")
        for script in re.findall(r"<script\b[^>]*>(.*?)</script>", html, re.S):
            assert not script.strip(), page.name
        assert not re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html), page.name
        assert "<style" not in html, page.name
        assert not re.findall(r"\s(on\w+|style)\s*=", html), page.name


def test_a_device_whose_invite_is_renewed_at_an_unlisted_table_stops_watching(
    client: TestClient,
) -> None:
    made = create(client, CENTRIX_INVITE)
    invite, key = made["seats"][1]["token"], made["seats"][1]["renew"]
    url = f"/ws/tables/{made['id']}"
    with client.websocket_connect(url) as bo, client.websocket_connect(url) as watcher:
        bo.send_json({"type": "hello", "tokens": [invite]})
        assert receive(bo, "welcome")["seats"] == [1]
        watcher.send_json({"type": "hello", "tokens": [], "watch": made["watch"]})
        receive(watcher, "state")
        renewed = client.post(f"/api/tables/{made['id']}/invites/1", json={"renew": key})
        assert renewed.status_code == 200
        assert receive(bo, "revoked")["seat"] == 1
        assert receive(bo, "error")["code"] == "unlisted"
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(bo, "state")
        assert closed.value.code == 1008
        watcher.send_json({"type": "ping"})  # the spectator link's page watches on
        assert receive(watcher, "pong")["type"] == "pong"
