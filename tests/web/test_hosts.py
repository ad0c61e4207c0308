"""A server answers only to the host names it serves (issue 31, finding 5: DNS rebinding):
a page of another site whose name was pointed at 127.0.0.1 sends its own name as the Host,
and was answered — the API and a table's socket alike."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

from gamenight.cli.serve import listening
from gamenight.core.errors import RulesError
from gamenight.web.app import create_app
from gamenight.web.settings import Settings

from .bodies import CENTRIX_2
from .test_devices import serve_args


def test_a_request_for_another_host_is_refused(tmp_path: Path) -> None:
    settings = Settings(
        f"sqlite:///{tmp_path / 'g.sqlite3'}", public_url="http://192.168.1.20:8000"
    )
    with (
        ThreadPoolExecutor(1) as bots,
        TestClient(
            create_app(settings, bot_executor=bots), base_url="http://127.0.0.1:8000"
        ) as client,
    ):
        made = client.post("/api/tables", json=CENTRIX_2).json()
        for host in ("127.0.0.1:8000", "localhost", "[::1]:8000", "192.168.1.20:8000"):
            assert client.get("/api/tables", headers={"host": host}).status_code == 200, host
        for host in ("evil.example", "192.168.1.20.evil.example", "localhost.evil.example"):
            refused = client.get("/api/tables", headers={"host": host})
            assert (refused.status_code, refused.text) == (400, "Invalid host header"), host
        # A socket too, before it is accepted, whatever its Origin says.
        url = f"/ws/tables/{made['id']}"
        evil = {"host": "evil.example", "origin": "http://evil.example"}
        with (
            pytest.raises(WebSocketDenialResponse) as denied,
            client.websocket_connect(url, headers=evil),
        ):
            pass
        assert denied.value.status_code == 400
        with client.websocket_connect(f"ws://127.0.0.1:8000{url}") as page:  # its own name
            page.send_json({"type": "hello", "tokens": []})
            assert page.receive_json()["type"] == "welcome"


def test_the_hosts_served_come_from_the_settings_and_the_listening_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GAMENIGHT_DATABASE_URL", "sqlite://")
    assert Settings.from_env().served_hosts() == ("localhost", "127.0.0.1", "[::1]")
    monkeypatch.setenv("GAMENIGHT_ALLOWED_HOSTS", "Games.Example.org, *.party.example, fd00::1")
    monkeypatch.setenv("GAMENIGHT_PUBLIC_URL", "https://play.example.org")
    assert Settings.from_env().served_hosts() == (
        "localhost",
        "127.0.0.1",
        "[::1]",
        "play.example.org",
        "games.example.org",
        "*.party.example",
        "[fd00::1]",
    )
    for wrong in ("https://games.example.org", "games.example.org:8000", "*", "a b"):
        monkeypatch.setenv("GAMENIGHT_ALLOWED_HOSTS", wrong)
        with pytest.raises(RulesError, match=r"GAMENIGHT_ALLOWED_HOSTS: .* is not a host name"):
            Settings.from_env()
    # `serve --lan` serves its address on the network (the links' base); `--host` its own.
    _, lan, _ = listening(serve_args("--lan"), Settings("sqlite://"), ["192.168.1.20"])
    assert "192.168.1.20" in lan.served_hosts()
    _, one, _ = listening(serve_args("--host", "10.1.2.3"), Settings("sqlite://"), [])
    assert "10.1.2.3" in one.served_hosts()
    _, everywhere, lines = listening(serve_args("--host", "0.0.0.0"), Settings("sqlite://"), [])
    assert everywhere.served_hosts() == ("localhost", "127.0.0.1", "[::1]")
    assert "GAMENIGHT_ALLOWED_HOSTS" in lines[-1]
