"""Playing from another device (issue 16): the address invite links use, the QR codes the
server draws for them, and what an invite link opens (web.links). No test sends anything to a
private address: the machine's addresses are made up and handed in."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from gamenight.cli import main
from gamenight.cli.serve import listening, register
from gamenight.core.errors import RulesError
from gamenight.web.app import create_app
from gamenight.web.links import choose_lan_address, lan_url, our_link, read_public_url
from gamenight.web.refusals import Code, RefusedError
from gamenight.web.settings import Settings
from tests.web.bodies import CENTRIX_2, CENTRIX_INVITE
from tests.web.hosts import TEST_HOSTS

# ------------------------------------------------------------------ the LAN address


@pytest.mark.parametrize(
    ("candidates", "chosen"),
    [
        # The address the route leaves from comes first, and is taken.
        (["192.168.1.20", "10.0.0.5"], "192.168.1.20"),
        (["10.0.0.5", "192.168.122.1"], "10.0.0.5"),
        # Loopback (the host's name often resolves to 127.0.1.1) and link-local are no use to
        # another device.
        (["127.0.1.1", "169.254.3.4", "172.20.1.9"], "172.20.1.9"),
        # A private address wins over a public one found first.
        (["203.0.113.7", "192.168.0.3"], "192.168.0.3"),
        # No private address: the first that another device might still reach.
        (["127.0.0.1", "203.0.113.7"], "203.0.113.7"),
        # Nothing usable: no LAN address (the links use the page's own address).
        (["127.0.0.1", "0.0.0.0", "169.254.1.1", "fe80::1", "not an address"], None),
        ([], None),
    ],
)
def test_the_lan_address_is_the_first_private_one(
    candidates: list[str], chosen: str | None
) -> None:
    assert choose_lan_address(candidates) == chosen


def test_the_lan_url_names_the_port() -> None:
    assert lan_url(8000, ["127.0.1.1", "192.168.1.20"]) == "http://192.168.1.20:8000"
    assert lan_url(8000, ["127.0.0.1"]) is None


def serve_args(*argv: str) -> argparse.Namespace:
    """``gamenight serve``'s options as its parser reads ``argv``."""
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    return parser.parse_args(["serve", *argv])


def test_serve_lan_listens_on_the_network_and_links_use_the_lan_address() -> None:
    host, settings, lines = listening(serve_args("--lan"), Settings("sqlite://"), ["192.168.1.20"])
    assert host == "0.0.0.0"
    assert settings.public_url == "http://192.168.1.20:8000"
    assert (
        lines[-1] == "friends join at http://192.168.1.20:8000/ (invite links and QR codes use it)"
    )


def test_serve_without_lan_stays_on_this_machine() -> None:
    host, settings, lines = listening(serve_args(), Settings("sqlite://"), ["192.168.1.20"])
    assert (host, settings.public_url) == ("127.0.0.1", None)
    assert lines == ["gamenight is at http://127.0.0.1:8000/  (Ctrl+C stops it)"]


def test_a_public_url_wins_over_the_lan_address() -> None:
    behind = Settings("sqlite://", public_url="https://games.example.org")
    host, settings, _ = listening(serve_args("--lan"), behind, ["192.168.1.20"])
    assert (host, settings.public_url) == ("0.0.0.0", "https://games.example.org")


def test_serve_lan_without_a_network_says_so() -> None:
    host, settings, lines = listening(serve_args("--lan"), Settings("sqlite://"), ["127.0.0.1"])
    assert (host, settings.public_url) == ("0.0.0.0", None)
    assert any("no address on a local network was found" in line for line in lines)


def test_serve_lan_needs_a_port_it_can_name() -> None:
    ns = serve_args("--lan")
    ns.port = 0
    with pytest.raises(RulesError, match="--lan needs a port other than 0"):
        listening(ns, Settings("sqlite://"), ["192.168.1.20"])


# ------------------------------------------------------------------ GAMENIGHT_PUBLIC_URL


@pytest.mark.parametrize(
    ("text", "base"),
    [
        ("https://games.example.org", "https://games.example.org"),
        ("https://games.example.org/", "https://games.example.org"),
        (" http://127.0.0.2:8123 ", "http://127.0.0.2:8123"),
    ],
)
def test_a_public_url_is_read_as_the_links_base(text: str, base: str) -> None:
    assert read_public_url(text) == base


@pytest.mark.parametrize(
    "text",
    [
        "games.example.org",
        "ftp://games.example.org",
        "https://games.example.org/gamenight",
        "https://games.example.org?x=1",
        "https://user:pw@games.example.org",
        "http://host:99999",
        "https://",
    ],
)
def test_serve_refuses_a_bad_public_url(
    text: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GAMENIGHT_PUBLIC_URL", text)
    monkeypatch.setenv("GAMENIGHT_DATABASE_URL", "sqlite://")
    assert main(["serve"]) == 2
    assert "GAMENIGHT_PUBLIC_URL must be an address like" in capsys.readouterr().err


def test_the_public_url_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMENIGHT_DATABASE_URL", "sqlite://")
    monkeypatch.setenv("GAMENIGHT_PUBLIC_URL", "https://games.example.org/")
    assert Settings.from_env().public_url == "https://games.example.org"
    monkeypatch.delenv("GAMENIGHT_PUBLIC_URL")
    assert Settings.from_env().public_url is None


# ------------------------------------------------------------------ the app


def app_client(
    database: str, public_url: str | None, hosts: tuple[str, ...] = ()
) -> Iterator[TestClient]:
    with (
        ThreadPoolExecutor(2) as bots,
        TestClient(
            create_app(
                Settings(database, public_url=public_url, allowed_hosts=(*TEST_HOSTS, *hosts)),
                bot_executor=bots,
            )
        ) as client,
    ):
        yield client


@pytest.fixture
def behind_proxy(tmp_path: Path) -> Iterator[TestClient]:
    # (A proxy that passes requests on with its own upstream's host name: the host allows it.)
    url = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    yield from app_client(url, "https://games.example.org", ("10.0.0.9",))


def test_the_page_is_told_the_links_base(client: TestClient, behind_proxy: TestClient) -> None:
    assert client.get("/api/links").json() == {"public_url": None}
    assert behind_proxy.get("/api/links").json() == {"public_url": "https://games.example.org"}


def test_a_page_at_the_public_address_may_open_a_tables_socket(behind_proxy: TestClient) -> None:
    made = behind_proxy.post("/api/tables", json=CENTRIX_2).json()
    # A proxy may pass the socket on with its own host: the page's origin is the public one.
    headers = {"origin": "https://games.example.org", "host": "10.0.0.9:8000"}
    with behind_proxy.websocket_connect(f"/ws/tables/{made['id']}", headers=headers) as ws:
        ws.send_json({"type": "hello", "tokens": []})
        assert ws.receive_json()["type"] == "welcome"


LINK = "{base}/table/{table}#token=AbC-_123"


def qr(client: TestClient, text: str) -> Any:
    return client.get(f"/api/qr?text={quote(text, safe='')}")


@pytest.mark.parametrize(
    "text",
    [
        "http://testserver/table/abc123#token=AbC-_123",
        "http://testserver/table/abc123#watch=AbC-_123",
        "https://games.example.org/table/abc123#token=AbC-_123",
    ],
)
def test_a_qr_code_is_drawn_for_our_links(behind_proxy: TestClient, text: str) -> None:
    answer = qr(behind_proxy, text)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "image/svg+xml"
    assert answer.headers["cache-control"] == "no-store"
    svg = answer.text
    assert svg.startswith("<svg")
    assert 'viewBox="0 0 ' in svg
    assert re.search(r'<path [^>]*stroke="#1b1b1b"', svg), "no dark modules"
    # A longer link, a larger code: the text itself is encoded (not one fixed picture).
    longer = qr(behind_proxy, text.replace("AbC-_123", "AbC-_123" * 9)).text
    assert longer != svg


@pytest.mark.parametrize(
    "text",
    [
        "https://evil.example.com/table/abc123#token=AbC",  # another site
        "http://testserver.evil.com/table/abc123#token=AbC",
        "http://testserver/table/abc123",  # no token
        "http://testserver/table/abc123#token=",
        "http://testserver/table/abc123#token=AbC&x=<script>",
        "http://testserver/table/abc123?next=https://evil#token=AbC",
        "http://testserver/replay/abc123#token=AbC",  # not a table's link
        "http://testserver/table/../api#token=AbC",
        "javascript:alert(1)",
        "Hello, world",
        "",
        "http://testserver/table/abc123#token=" + "A" * 500,
    ],
)
def test_a_qr_code_is_refused_for_anything_else(behind_proxy: TestClient, text: str) -> None:
    answer = qr(behind_proxy, text)
    assert answer.status_code == 422
    body = answer.json()
    assert body["code"] == "not_our_link"
    assert body["detail"] == "a QR code is drawn only for this server's invite and spectator links"


def test_a_qr_code_without_text_is_a_coded_refusal(client: TestClient) -> None:
    answer = client.get("/api/qr")
    assert answer.status_code == 422
    assert answer.json()["code"] == "invalid"


def test_our_link_takes_only_the_bases_given() -> None:
    link = LINK.format(base="http://192.168.1.20:8000", table="t1")
    assert our_link(link, ["http://192.168.1.20:8000/"]) == link
    with pytest.raises(RefusedError) as refused:
        our_link(link, ["http://192.168.1.20:8001"])
    assert refused.value.code == Code.NOT_OUR_LINK


# ------------------------------------------------------------------ what an invite link opens


def check(client: TestClient, table: str, token: str, *keys: str) -> Any:
    return client.post(
        f"/api/tables/{table}/check-invite", json={"token": token, "keys": list(keys)}
    )


def hello(client: TestClient, table: str, *tokens: str) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "tokens": list(tokens)})
        while True:
            message: dict[str, Any] = ws.receive_json()
            if message["type"] in ("welcome", "error"):
                return message


def test_an_invite_link_says_what_it_opens(client: TestClient) -> None:
    made = client.post("/api/tables", json=CENTRIX_INVITE).json()
    table, invite = made["id"], made["seats"][1]["token"]
    ann = made["seats"][0]["token"]

    def state(token: str, *keys: str) -> str:
        answer = check(client, table, token, *keys)
        assert answer.status_code == 200, answer.text
        assert answer.json()["visibility"] == "unlisted"
        return str(answer.json()["invite"])

    assert state(invite) == "open"
    assert state(invite) == "open", "asking claims nothing"
    assert state("not-a-token-of-this-table") == "wrong"
    assert state(ann) == "yours"
    device = hello(client, table, invite)["tokens"]["1"]
    # The device that used it, coming back through the same link, still has the seat.
    assert state(invite, device) == "yours"
    assert state(invite) == "taken"
    renewed = client.post(
        f"/api/tables/{table}/invites/1", json={"renew": made["seats"][1]["renew"]}
    ).json()["token"]
    assert state(invite, device) == "renewed"
    assert state(renewed) == "open"


def test_a_wrong_invite_at_a_public_table_may_still_watch(client: TestClient) -> None:
    made = client.post("/api/tables", json={**CENTRIX_INVITE, "visibility": "public"}).json()
    answer = check(client, made["id"], "nope").json()
    assert answer == {"invite": "wrong", "visibility": "public"}


@pytest.mark.parametrize(
    "body",
    [{}, {"token": ""}, {"token": "x" * 201}, {"token": "x", "keys": "x"}, {"token": "x", "y": 1}],
)
def test_a_bad_invite_check_is_a_coded_refusal(client: TestClient, body: dict[str, Any]) -> None:
    made = client.post("/api/tables", json=CENTRIX_INVITE).json()
    answer = client.post(f"/api/tables/{made['id']}/check-invite", json=body)
    assert answer.status_code == 422
    assert answer.json()["code"] == "invalid"


def test_an_invite_to_no_table_says_there_is_none(client: TestClient) -> None:
    answer = check(client, "no-such-table", "x")
    assert answer.status_code == 404
    assert answer.json()["code"] == "no_table"
