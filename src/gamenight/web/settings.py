"""Where the web app keeps its data and how it is reached, from the environment."""

from __future__ import annotations

import ipaddress
import math
import os
import re
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from gamenight.core.errors import RulesError
from gamenight.core.numbers import read_decimal, read_whole_number
from gamenight.web.links import read_public_url
from gamenight.web.quotas import Limits
from gamenight.web.store import MEMORY
from gamenight.web.store.sql import SYNCHRONOUS

# The names a request to this machine's own loopback may give as its Host.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")
THINK_SECONDS = 3.0  # a bot decision's think time, unless the host sets it
# A host name, an IPv4 address, or a wildcard over a domain's names (``*.example.org``).
HOST_NAME = re.compile(r"^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$")


def as_host(name: str) -> str:
    """``name`` as a Host header gives it: an IPv6 address in brackets."""
    return f"[{name}]" if ":" in name and not name.startswith("[") else name.lower()


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "gamenight"


@dataclass(frozen=True)
class Settings:
    database_url: str
    redis_url: str | None = None
    # The processes that think for bots: one per core.
    bot_workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    # Scale-out: how long a server's players count as online after it was last heard of
    # (a server that crashed or hangs); it renews its presence three times as often.
    presence_ttl: float = 15.0
    # How long a bot may think about one decision before it is abandoned and its seat plays
    # a level-1 bot's choice (web.bots).
    bot_seconds: float = 20.0
    limits: Limits = field(default_factory=Limits)
    # Pages of other origins whose scripts may open the table's socket (besides the server's own).
    allowed_origins: tuple[str, ...] = ()
    # The base of the invite and spectator links (web.links): a proxy's address, or the
    # machine's on the local network (``serve --lan``); None: the page's own address.
    public_url: str | None = None
    # SQLite's PRAGMA synchronous: FULL (every commit on the disk before it is answered) or
    # NORMAL (faster; the last commits may be lost to a power cut: docs/reliability.md).
    sqlite_synchronous: str = "FULL"
    # The reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (their
    # addresses or networks): the limits per address count the client they name. None by
    # default: any client could name itself a new address on every request.
    trusted_proxies: tuple[str, ...] = ()
    # Host names a request may name besides the loopback ones and the public URL's
    # (``served_hosts``): a request for any other is refused, so that a page of another site
    # whose name was pointed at this machine (DNS rebinding) cannot reach it.
    allowed_hosts: tuple[str, ...] = ()
    # The most a bot thinks about one decision (its budget, which every bot keeps to): a
    # table whose rules make the physics as slow as they may be takes no more of a worker
    # than any other (issue 31, finding 6). None: THINK_SECONDS, or half of ``bot_seconds``
    # if that is less; given, it must be under ``bot_seconds``.
    bot_think_seconds: float | None = None
    # Scale-out: how long a table's home keeps its lease after it was last renewed (a home
    # that crashed: another process takes its tables within about this: web.homes).
    home_ttl: float = 2.0

    def __post_init__(self) -> None:
        if self.database_url == MEMORY and self.redis_url:
            # Each process would keep tables of its own, and its relay would tell the others
            # of tables they can never load.
            raise RulesError(
                f"GAMENIGHT_DATABASE_URL={MEMORY} keeps the tables in this process alone: it"
                " cannot be shared with other servers through GAMENIGHT_REDIS_URL (use"
                " PostgreSQL or SQLite)"
            )
        if self.bot_think_seconds is not None and not self.bot_think_seconds < self.bot_seconds:
            raise RulesError(
                f"GAMENIGHT_BOT_THINK_SECONDS ({self.bot_think_seconds:g}) must be under"
                f" GAMENIGHT_BOT_SECONDS ({self.bot_seconds:g}): a bot that thinks for as long"
                " as it may is abandoned"
            )

    @property
    def think_seconds(self) -> float:
        """The time each bot decision is thought within."""
        if self.bot_think_seconds is not None:
            return self.bot_think_seconds
        return min(THINK_SECONDS, self.bot_seconds / 2)

    def served_hosts(self) -> tuple[str, ...]:
        """Every host name the server answers to: loopback, the public URL's (the ``--lan``
        address, or a proxy's name) and ``allowed_hosts``."""
        public = (urlsplit(self.public_url).hostname or "",) if self.public_url else ()
        hosts = (*LOOPBACK_HOSTS, *map(as_host, (*public, *self.allowed_hosts)))
        return tuple(dict.fromkeys(hosts))

    @classmethod
    def from_env(cls, data_dir: Path | None = None) -> Settings:
        """``GAMENIGHT_DATABASE_URL`` picks the database (default: SQLite in the data
        directory, ``GAMENIGHT_DATA_DIR`` or ~/.local/share/gamenight); ``GAMENIGHT_REDIS_URL``
        lets several server processes share live tables, and ``GAMENIGHT_PRESENCE_TTL`` how
        many seconds a silent server's players still count as online; ``GAMENIGHT_BOT_WORKERS``
        sets how many processes think for bots, ``GAMENIGHT_BOT_SECONDS`` how many seconds
        (0.1 to 3600, default 20) a bot may think about one decision; ``GAMENIGHT_<LIMIT>``
        sets each of the limits (web.quotas.Limits, docs/reliability.md),
        ``GAMENIGHT_ALLOWED_ORIGINS`` the other sites whose pages may open a table's socket and
        ``GAMENIGHT_PUBLIC_URL`` the address invite links use (behind a proxy: web.links),
        ``GAMENIGHT_SQLITE_SYNCHRONOUS`` SQLite's ``synchronous`` (FULL or NORMAL),
        ``GAMENIGHT_TRUSTED_PROXIES`` the proxies whose forwarding headers are believed,
        ``GAMENIGHT_ALLOWED_HOSTS`` the host names it answers to besides its own."""
        url = os.environ.get("GAMENIGHT_DATABASE_URL")
        if not url:
            folder = data_dir or Path(os.environ.get("GAMENIGHT_DATA_DIR") or default_data_dir())
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise RulesError(f"cannot use {folder} for the data: {exc.strerror}") from exc
            url = f"sqlite:///{folder / 'gamenight.sqlite3'}"
        text = os.environ.get("GAMENIGHT_BOT_WORKERS") or str(os.cpu_count() or 1)
        try:
            workers = read_whole_number(text.strip(), "GAMENIGHT_BOT_WORKERS", RulesError)
        except RulesError:
            workers = 0  # refused below, with the rule it breaks
        if workers < 1:
            raise RulesError(f"GAMENIGHT_BOT_WORKERS must be a whole number ≥ 1, not {text!r}")
        return cls(
            url,
            os.environ.get("GAMENIGHT_REDIS_URL") or None,
            workers,
            float(_number("GAMENIGHT_PRESENCE_TTL", cls.presence_ttl, 1, 3600)),
            float(_number("GAMENIGHT_BOT_SECONDS", cls.bot_seconds, 0.1, 3600)),
            limits_from_env(),
            _origins(os.environ.get("GAMENIGHT_ALLOWED_ORIGINS") or ""),
            public_url=read_public_url(public)
            if (public := os.environ.get("GAMENIGHT_PUBLIC_URL"))
            else None,
            sqlite_synchronous=_synchronous(
                os.environ.get("GAMENIGHT_SQLITE_SYNCHRONOUS") or "FULL"
            ),
            trusted_proxies=_proxies(os.environ.get("GAMENIGHT_TRUSTED_PROXIES") or ""),
            allowed_hosts=_hosts(os.environ.get("GAMENIGHT_ALLOWED_HOSTS") or ""),
            bot_think_seconds=float(
                _number("GAMENIGHT_BOT_THINK_SECONDS", THINK_SECONDS, 0.05, 3600)
            )
            if os.environ.get("GAMENIGHT_BOT_THINK_SECONDS")
            else None,
            home_ttl=float(_number("GAMENIGHT_HOME_TTL", cls.home_ttl, 0.3, 60)),
        )


# The range each limit may be set to: low enough to test with, high enough to mean "none".
_RANGES: dict[str, tuple[float, float]] = {
    "body_bytes": (1000, 2**31),
    "message_bytes": (1000, 2**24),
    "idle_seconds": (10, 7 * 24 * 3600),
    "hello_seconds": (1, 60),
    "silence_seconds": (1, 300),
}
# Variables of earlier releases that no longer mean anything: a host who set one is told what
# to set instead, rather than have it quietly ignored.
_GONE = {
    "GAMENIGHT_SOCKETS_PER_TABLE": "a player's page is never counted now (issue 31): set"
    " GAMENIGHT_SPECTATORS_PER_TABLE for the cap on the pages that watch a table",
}


def limits_from_env() -> Limits:
    """Every field of ``Limits`` from ``GAMENIGHT_<FIELD>`` (upper case), where set."""
    for name, why in _GONE.items():
        if name in os.environ:
            raise RulesError(f"{name} is no longer read: {why}")
    values: dict[str, Any] = {}
    for spec in fields(Limits):
        low, high = _RANGES.get(spec.name, (1, 10**6))
        values[spec.name] = _number(f"GAMENIGHT_{spec.name.upper()}", spec.default, low, high)
    return Limits(**values)


def _number(name: str, default: Any, low: float, high: float) -> int | float:
    """The number in the variable ``name`` (``default`` when unset), of ``default``'s kind,
    from ``low`` to ``high``; a RulesError naming the variable otherwise."""
    text = os.environ.get(name) or str(default)
    whole = isinstance(default, int)
    try:
        value: float = (read_whole_number if whole else read_decimal)(
            text.strip(), name, RulesError
        )
    except RulesError:
        value = math.nan
    if not low <= value <= high:
        kind = "a whole number" if whole else "a number of seconds"
        raise RulesError(f"{name} must be {kind} from {low:.15g} to {high:.15g}, not {text!r}")
    return value


def _synchronous(text: str) -> str:
    """``GAMENIGHT_SQLITE_SYNCHRONOUS``: FULL or NORMAL (web.store.sql.SYNCHRONOUS)."""
    value = text.strip().upper()
    if value not in SYNCHRONOUS:
        raise RulesError(
            f"GAMENIGHT_SQLITE_SYNCHRONOUS must be {' or '.join(SYNCHRONOUS)}, not {text!r}"
        )
    return value


def _origins(text: str) -> tuple[str, ...]:
    """``GAMENIGHT_ALLOWED_ORIGINS``: origins (``https://host[:port]``), comma-separated."""
    origins = tuple(part.strip().rstrip("/") for part in text.split(",") if part.strip())
    for origin in origins:
        scheme, _, rest = origin.partition("://")
        if scheme not in ("http", "https") or not rest or "/" in rest:
            raise RulesError(
                f"GAMENIGHT_ALLOWED_ORIGINS: {origin!r} is not an origin"
                " (write it as https://host or https://host:port)"
            )
    return origins


def _proxies(text: str) -> tuple[str, ...]:
    """``GAMENIGHT_TRUSTED_PROXIES``: IP addresses or networks, comma-separated."""
    proxies = tuple(part.strip() for part in text.split(",") if part.strip())
    for proxy in proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise RulesError(
                f"GAMENIGHT_TRUSTED_PROXIES: {proxy!r} is not an IP address or network"
                " (write the proxy's address, e.g. 10.0.0.2, or a network, e.g. 10.0.0.0/24)"
            ) from None
    return proxies


def _hosts(text: str) -> tuple[str, ...]:
    """``GAMENIGHT_ALLOWED_HOSTS``: host names or IP addresses, comma-separated."""
    hosts = tuple(part.strip().lower() for part in text.split(",") if part.strip())
    for host in hosts:
        try:
            ipaddress.ip_address(host)
        except ValueError:
            if not HOST_NAME.match(host):
                raise RulesError(
                    f"GAMENIGHT_ALLOWED_HOSTS: {host!r} is not a host name or IP address"
                    " (write games.example.org, *.example.org or 192.168.1.20, without a"
                    " scheme or port)"
                ) from None
    return hosts
