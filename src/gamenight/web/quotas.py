"""Limits a host can set, and the meters that enforce them (issue 14, findings 7 and 8).

Every limit is a field of ``Limits``, read from a ``GAMENIGHT_*`` variable (web.settings);
docs/reliability.md lists them. The defaults are far above what ordinary play needs — a
Color City page aiming sends a ``predict`` every 120 ms, a replay autoplays a few steps a
second, a game's acts are rare — so only a client that floods ever meets one.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass

from limits import RateLimitItemPerMinute, RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from gamenight.web.refusals import Code, RefusedError


@dataclass(frozen=True)
class Limits:
    tables_per_minute: int = 240  # tables one address may create in any minute
    live_tables: int = 2000  # tables one server keeps in memory
    sockets_per_table: int = 100  # pages (players and spectators) open at one table
    sockets_per_address: int = 200  # sockets open from one address (a whole LAN party)
    body_bytes: int = 256 * 1024  # an HTTP request's body
    message_bytes: int = 16 * 1024  # one WebSocket message
    messages_per_second: int = 25  # one socket's messages in any second
    address_messages_per_second: int = 250  # the messages of all one address's sockets
    requests_per_second: int = 50  # one address's API requests in any second
    idle_seconds: float = 900.0  # a table with no page and no bot thinking leaves memory
    chat_per_minute: int = 12  # one page's lines of table chat in any minute


class FloodingError(RefusedError):
    """A socket that goes on sending at twice its limit: refused, and the socket closed."""


class Gate:
    """The meters for one server: moving windows (the ``limits`` library) for the rates, and
    the sockets open, counted by table and by address. Every check raises a RefusedError
    with its code, and counts nothing it refused."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._meter = MovingWindowRateLimiter(MemoryStorage())
        self._message = RateLimitItemPerSecond(limits.messages_per_second)
        self._address = RateLimitItemPerSecond(limits.address_messages_per_second)
        self._request = RateLimitItemPerSecond(limits.requests_per_second)
        self._tables = RateLimitItemPerMinute(limits.tables_per_minute)
        self._tickets = itertools.count()
        self.by_table: Counter[str] = Counter()
        self.by_address: Counter[str] = Counter()

    # ---------------------------------------------------------------- sockets

    def open_socket(self, table_id: str, address: str) -> Ticket:
        """Count a socket in, or refuse it (too many at the table, or from the address)."""
        if (
            self.by_table[table_id] >= self.limits.sockets_per_table
            or self.by_address[address] >= self.limits.sockets_per_address
        ):
            raise RefusedError(
                "too many pages are open at this table, or from this address",
                Code.TOO_MANY_SOCKETS,
            )
        self.by_table[table_id] += 1
        self.by_address[address] += 1
        return Ticket(f"socket-{next(self._tickets)}", table_id, address)

    def close_socket(self, ticket: Ticket) -> None:
        for counter, key in ((self.by_table, ticket.table_id), (self.by_address, ticket.address)):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]

    def sockets(self, table_id: str) -> int:
        return self.by_table.get(table_id, 0)

    def message(self, ticket: Ticket, size: int) -> None:
        """Let one message of ``size`` bytes through, or refuse it: too big (FloodingError: the
        socket is closed), or over the socket's or the address's rate."""
        limit = self.limits.message_bytes
        if size > limit:
            raise FloodingError(
                f"a message may be at most {limit} bytes", Code.TOO_BIG, limit=limit
            )
        if self._meter.hit(self._message, ticket.name) and self._meter.hit(
            self._address, "address", ticket.address
        ):
            return
        # The refusals are metered too: a socket sending at twice its limit is let go.
        if not self._meter.hit(self._message, ticket.name, "refused"):
            raise FloodingError("too many messages: this socket is closed", Code.RATE_LIMITED)
        raise RefusedError("too many messages at once; wait a moment", Code.RATE_LIMITED)

    # ---------------------------------------------------------------- HTTP

    def request(self, address: str) -> None:
        """One API request from ``address``."""
        if not self._meter.hit(self._request, "request", address):
            raise RefusedError("too many requests at once; wait a moment", Code.RATE_LIMITED)

    def new_table(self, address: str) -> None:
        """One table made from ``address``."""
        limit = self.limits.tables_per_minute
        if not self._meter.hit(self._tables, "table", address):
            raise RefusedError(
                f"at most {limit} tables a minute may be made from one address",
                Code.TOO_MANY_TABLES,
                limit=limit,
            )


@dataclass(frozen=True)
class Ticket:
    """One open socket, as the gate counted it in."""

    name: str
    table_id: str
    address: str
