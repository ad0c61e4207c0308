"""Forwarding headers are trusted only from the proxies the host names (issue 31, finding
2): uvicorn believes X-Forwarded-For from 127.0.0.1 by default, so any local client could
name itself any address and start every per-address limit afresh."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

import pytest
from websockets.sync.client import connect

from gamenight.core.errors import RulesError
from gamenight.web.app import create_app, serving_options
from gamenight.web.quotas import Limits
from gamenight.web.settings import Settings

from .hosts import TEST_HOSTS
from .test_reading import served


def gets(base: str, count: int, forwarded: bool) -> list[int]:
    """The statuses of ``count`` API requests, each naming another client address in
    X-Forwarded-For when ``forwarded``."""
    statuses = []
    for i in range(count):
        headers = forwarded_for(i) if forwarded else {}
        request = urllib.request.Request(f"{base}/api/links", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                statuses.append(answer.status)
        except urllib.error.HTTPError as refused:
            statuses.append(refused.code)
    return statuses


def settings(tmp_path: Path, proxies: tuple[str, ...]) -> Settings:
    return Settings(
        f"sqlite:///{tmp_path / 'g.sqlite3'}",
        limits=Limits(requests_per_second=5, sockets_per_address=3),
        trusted_proxies=proxies,
        allowed_hosts=TEST_HOSTS,
    )


def test_a_client_cannot_name_its_own_address(tmp_path: Path) -> None:
    given = settings(tmp_path, ())
    assert serving_options(given)["proxy_headers"] is False
    with (
        ThreadPoolExecutor(1) as bots,
        served(create_app(given, bot_executor=bots), settings=given) as url,
    ):
        base = url.replace("ws://", "http://").rstrip("/")
        table = new_table(base)
        # Twenty requests in well under a second, each claiming another address: they are
        # all one client's, and meet its limit.
        statuses = gets(base, 20, forwarded=True)
        assert statuses[:4] == [200] * 4  # (the table made above was the first)
        assert statuses.count(429) >= 10
        # The same with sockets: the address the limit counts is the connection's.
        with ExitStack() as pages:
            for i in range(3):
                pages.enter_context(
                    connect(f"{url}ws/tables/{table}", additional_headers=forwarded_for(i))
                )
            fourth = pages.enter_context(
                connect(f"{url}ws/tables/{table}", additional_headers=forwarded_for(3))
            )
            assert json.loads(fourth.recv(timeout=10))["code"] == "too_many_sockets"


def forwarded_for(i: int) -> dict[str, str]:
    return {"X-Forwarded-For": f"198.51.100.{i + 1}"}


def new_table(base: str) -> str:
    body = {"game": "centrix", "seats": [{"kind": "device"}, {"kind": "device"}]}
    request = urllib.request.Request(
        f"{base}/api/tables",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        made: dict[str, str] = json.loads(answer.read())
    return made["id"]


def test_a_named_proxy_s_forwarded_address_is_the_client_s(tmp_path: Path) -> None:
    given = settings(tmp_path, ("127.0.0.1",))
    options = serving_options(given)
    assert (options["proxy_headers"], options["forwarded_allow_ips"]) == (True, "127.0.0.1")
    with (
        ThreadPoolExecutor(1) as bots,
        served(create_app(given, bot_executor=bots), settings=given) as url,
    ):
        base = url.replace("ws://", "http://").rstrip("/")
        assert gets(base, 20, forwarded=True) == [200] * 20  # twenty clients, one request each
        assert gets(base, 8, forwarded=False).count(429) >= 3  # the proxy's own requests


def test_trusted_proxies_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMENIGHT_DATABASE_URL", "sqlite://")
    assert Settings.from_env().trusted_proxies == ()
    monkeypatch.setenv("GAMENIGHT_TRUSTED_PROXIES", "10.0.0.2, 172.16.0.0/12,::1")
    assert Settings.from_env().trusted_proxies == ("10.0.0.2", "172.16.0.0/12", "::1")
    for wrong in ("proxy.example", "*", "10.0.0.300"):
        monkeypatch.setenv("GAMENIGHT_TRUSTED_PROXIES", wrong)
        with pytest.raises(RulesError, match=r"GAMENIGHT_TRUSTED_PROXIES: .* is not an IP"):
            Settings.from_env()
