"""Limits a host can set, and the meters that enforce them (issue 14, findings 7 and 8).

Every limit is a field of ``Limits``, read from a ``GAMENIGHT_*`` variable (web.settings);
docs/reliability.md lists them. The defaults are far above what ordinary play needs — a
Color City page aiming sends a ``predict`` every 120 ms, a replay autoplays a few steps a
second, a game's acts are rare — so only a client that floods ever meets one.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter, deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from gamenight.web.refusals import Code, RefusedError


@dataclass(frozen=True)
class Limits:
    tables_per_minute: int = 240  # tables one address may create in any minute
    live_tables: int = 2000  # tables one server keeps in memory
    spectators_per_table: int = 100  # pages watching one table (a player's page never counts)
    spectators_per_address: int = 20  # pages watching, from one address, over all tables
    sockets_per_address: int = 200  # sockets open from one address (a whole LAN party)
    hello_seconds: float = 5.0  # how long a socket may stay open without its hello
    # How long a page may be heard from not at all (no message, no answer to the ping it is
    # sent halfway) before its socket is closed and its seats show away (web.reading).
    silence_seconds: float = 2.0
    body_bytes: int = 256 * 1024  # an HTTP request's body
    message_bytes: int = 16 * 1024  # one WebSocket message
    messages_per_second: int = 25  # one socket's messages in any second
    address_messages_per_second: int = 250  # the messages of all one address's sockets
    requests_per_second: int = 50  # one address's API requests in any second
    idle_seconds: float = 900.0  # a table with no page and no bot thinking leaves memory
    chat_per_minute: int = 12  # one page's lines of table chat in any minute
    table_chat_per_minute: int = 60  # the lines of one side (players, spectators) of a table
    address_chat_per_minute: int = 40  # the lines of one address's pages, over all tables


class FloodingError(RefusedError):
    """A socket that goes on sending at twice its limit: refused, and the socket closed."""


class MovingWindow:
    """At most ``limit`` hits for each key in any ``seconds``: each key's hits kept as their
    times, the oldest dropped once they leave the window. (The standard library does it:
    `limits`' memory storage, used before, started a thread every 10 ms while it held any
    count, to expire counts — a cost in CPU and in the GIL that grew with the sockets.)"""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit, self.seconds = limit, seconds
        self.hits: dict[str, deque[float]] = {}
        self._swept = 0.0

    def hit(self, key: str) -> bool:
        """Count one hit for ``key`` if it is within the limit; False (nothing counted) if
        not."""
        now = time.monotonic()
        if not self.has_room(key, now):
            return False
        self.hits[key].append(now)
        return True

    def has_room(self, key: str, now: float) -> bool:
        """Whether ``key`` may have one more hit at ``now`` (nothing counted)."""
        self._sweep(now)
        times = self.hits.setdefault(key, deque())
        while times and times[0] <= now - self.seconds:
            times.popleft()
        return len(times) < self.limit

    def _sweep(self, now: float) -> None:
        """Forget the keys with no hit in the window, once a window (a key whose socket has
        gone is never hit again)."""
        if now - self._swept < self.seconds:
            return
        self._swept = now
        self.hits = {k: t for k, t in self.hits.items() if t and t[-1] > now - self.seconds}


class Gate:
    """The meters for one server: moving windows for the rates, the sockets open, counted by
    table and by address, and the spectators among them. Every check raises a RefusedError
    with its code.

    A socket is counted in when it opens, against its address's limit only; whether it is
    a player's or a spectator's is known at its hello. A player's page is never refused for
    a count (issue 31): a stranger who knows a table's id could otherwise fill the table
    with sockets and keep its players out, and their clocks would run. Spectators have caps
    of their own, per table and per address, and a socket that never says hello is let go
    after ``hello_seconds`` (the app's socket loop)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._message = MovingWindow(limits.messages_per_second, 1)
        self._refused = MovingWindow(limits.messages_per_second, 1)
        self._address = MovingWindow(limits.address_messages_per_second, 1)
        self._request = MovingWindow(limits.requests_per_second, 1)
        self._tables = MovingWindow(limits.tables_per_minute, 60)
        self._chat = MovingWindow(limits.chat_per_minute, 60)
        self._table_chat = MovingWindow(limits.table_chat_per_minute, 60)
        self._address_chat = MovingWindow(limits.address_chat_per_minute, 60)
        self._tickets = itertools.count()
        self.by_table: Counter[str] = Counter()
        self.by_address: Counter[str] = Counter()
        self.watching: set[str] = set()  # the tickets of the sockets that watch
        self.spectators_by_table: Counter[str] = Counter()
        self.spectators_by_address: Counter[str] = Counter()

    # ---------------------------------------------------------------- sockets

    def open_socket(self, table_id: str, address: str) -> Ticket:
        """Count a socket in, or refuse it (too many from its address)."""
        if self.by_address[address] >= self.limits.sockets_per_address:
            raise RefusedError("too many pages are open from this address", Code.TOO_MANY_SOCKETS)
        self.by_table[table_id] += 1
        self.by_address[address] += 1
        return Ticket(f"socket-{next(self._tickets)}", table_id, address)

    def forwarded_socket(self, table_id: str, address: str) -> Ticket:
        """Count in a page whose socket is on another process, forwarded to this one, its
        table's home (web.forward): at its table, for its spectators and chat; its address's
        sockets and messages are counted where its socket is."""
        self.by_table[table_id] += 1
        return Ticket(f"socket-{next(self._tickets)}", table_id, address, forwarded=True)

    def watch(self, ticket: Ticket) -> None:
        """The socket's hello opened no seat: count it as a spectator, or refuse it (its
        table, or its address, has as many spectators as it may)."""
        if ticket.name in self.watching:
            return
        if (
            self.spectators_by_table[ticket.table_id] >= self.limits.spectators_per_table
            or self.spectators_by_address[ticket.address] >= self.limits.spectators_per_address
        ):
            raise RefusedError(
                "too many people are watching this table, or from this address",
                Code.TOO_MANY_SPECTATORS,
            )
        self.watching.add(ticket.name)
        self.spectators_by_table[ticket.table_id] += 1
        self.spectators_by_address[ticket.address] += 1

    def sit(self, ticket: Ticket) -> None:
        """The socket holds a seat now (or has gone): it no longer counts as a spectator."""
        if ticket.name not in self.watching:
            return
        self.watching.discard(ticket.name)
        _count_out(self.spectators_by_table, ticket.table_id)
        _count_out(self.spectators_by_address, ticket.address)

    def close_socket(self, ticket: Ticket) -> None:
        self.sit(ticket)
        _count_out(self.by_table, ticket.table_id)
        if not ticket.forwarded:
            _count_out(self.by_address, ticket.address)

    def spectators(self, table_id: str) -> int:
        return self.spectators_by_table.get(table_id, 0)

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
        if self._message.hit(ticket.name) and self._address.hit(ticket.address):
            return
        # The refusals are metered too: a socket sending at twice its limit is let go.
        if not self._refused.hit(ticket.name):
            raise FloodingError("too many messages: this socket is closed", Code.RATE_LIMITED)
        raise RefusedError("too many messages at once; wait a moment", Code.RATE_LIMITED)

    @contextmanager
    def chatting(self, ticket: Ticket, side: str) -> Iterator[None]:
        """One chat line from the socket ``ticket``, to ``side`` of its table: refused
        unless it is within the page's own rate, its table side's (a crowd of fresh sockets
        shares it, and one side's flood leaves the other side's alone) and its address's;
        counted once the block has said it (a line refused for what it says is not)."""
        meters = [
            (self._chat, ticket.name),
            (self._table_chat, f"{ticket.table_id}/{side}"),
            (self._address_chat, ticket.address),
        ]
        now = time.monotonic()
        if not all(meter.has_room(key, now) for meter, key in meters):
            raise RefusedError("too many chat messages at once; wait a moment", Code.RATE_LIMITED)
        yield
        for meter, key in meters:
            meter.hits[key].append(now)

    def meters_held(self) -> int:
        """How many keys the rate meters hold counts for (each forgotten a window after its
        last hit)."""
        meters = (
            self._message,
            self._refused,
            self._address,
            self._request,
            self._tables,
            self._chat,
            self._table_chat,
            self._address_chat,
        )
        return sum(len(meter.hits) for meter in meters)

    # ---------------------------------------------------------------- HTTP

    def request(self, address: str) -> None:
        """One API request from ``address``."""
        if not self._request.hit(address):
            raise RefusedError("too many requests at once; wait a moment", Code.RATE_LIMITED)

    def new_table(self, address: str) -> None:
        """One table made from ``address``."""
        limit = self.limits.tables_per_minute
        if not self._tables.hit(address):
            raise RefusedError(
                f"at most {limit} tables a minute may be made from one address",
                Code.TOO_MANY_TABLES,
                limit=limit,
            )


def _count_out(counter: Counter[str], key: str) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


@dataclass(frozen=True)
class Ticket:
    """One open socket, as the gate counted it in."""

    name: str
    table_id: str
    address: str
    forwarded: bool = False  # a page on another process (its address counted there)
