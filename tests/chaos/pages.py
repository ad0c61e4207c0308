"""Scripted players: asyncio WebSocket pages that play random legal actions, sometimes take a
play back or send a message twice, and record every action they were told was accepted.

A page speaks both forms of the table protocol: when the server's ``state`` messages carry a
``revision``, an ``act``/``undo`` carries it and a message id, and the acknowledgement is
the change (or state) that says ``accepted`` (the id) or, where there is none (a resent
message's answer), an ``accepted`` message; otherwise (the older protocol) acceptance is
read off the next state that shows the action in the table's log.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException
from websockets.typing import Origin

from gamenight.colorcity import parse_action
from gamenight.web.protocol import patch
from gamenight.web.views.centrix import notations
from gamenight.web.views.colorcity import shot_text

from .processes import HOST, Server

PENDING_S = 5.0  # an action with no answer by then is given up on (its outcome unknown)


@dataclass(frozen=True)
class Accepted:
    """An action a page was told was accepted: ``number`` is its place in the table's
    actions (an undo: the number of the play it took back)."""

    kind: str  # "act" or "undo"
    number: int
    text: str
    seat: int
    at: float  # time.monotonic() when the page learnt it
    base: int  # the table's action count in the state the page acted on
    page: str
    message_id: str | None


@dataclass
class Seen:
    at: float
    version: int
    log: list[str]


@dataclass
class TableRun:
    """One table of the run, as its pages saw it."""

    id: str
    kind: str
    game: str
    cluster: str
    seat_kinds: list[str]
    watched: bool
    accepted: list[Accepted] = field(default_factory=list)
    # Every undo sent: the number of the play it meant to take back, that play (as the
    # sender's page showed it) and when it was sent.
    undo_attempts: list[tuple[int, str, float]] = field(default_factory=list)
    doubled: int = 0  # messages applied twice (or acknowledged at two revisions)
    last_seen: Seen | None = None
    over_seen: bool = False
    trace: list[tuple[float, str, str]] = field(default_factory=list)  # for a post-mortem

    def note(self, page: str, what: str) -> None:
        self.trace.append((round(time.monotonic(), 3), page, what))

    def saw(self, message: dict[str, Any]) -> None:
        view = message["view"]
        now = time.monotonic()
        if self.last_seen is None or now >= self.last_seen.at:
            self.last_seen = Seen(now, int(message["version"]), notations_of(view))
        if view.get("outcome") is not None:
            self.over_seen = True


def notations_of(view: dict[str, Any]) -> list[str]:
    """The actions of a view's log in notation (a Centrix entry carries its effects too)."""
    return [e if isinstance(e, str) else e["notation"] for e in view["log"]]


def movers_of(view: dict[str, Any]) -> list[int]:
    """The seat that made each action of a view's log."""
    if "log_seats" in view:
        return list(view["log_seats"])
    return [int(e["seat"]) for e in view["log"]]


@dataclass
class Pending:
    kind: str
    text: str
    base: int
    seat: int
    message: dict[str, Any]
    sent: float
    message_id: str | None
    log: list[str]  # the table's log as the page saw it when it sent the message


class Switches:
    """What every page consults: whether to act at all, and whether to stop; how often
    it takes a play back and sends a message twice; and the run's counts."""

    def __init__(self, undo: float = 0.15, twice: float = 0.1) -> None:
        self.undo = undo
        self.twice = twice
        self.acting = True
        self.stopping = False
        self.sent = 0
        self.resent = 0
        self.reconnects = 0


class Page:
    def __init__(
        self,
        run: TableRun,
        seat: int | None,
        token: str | None,
        name: str,
        servers: list[Server],
        switches: Switches,
        rng: random.Random,
    ) -> None:
        self.run = run
        self.seat = seat
        self.token = token
        self.name = name
        self.servers = servers
        self.switches = switches
        self.rng = rng
        self.state: dict[str, Any] | None = None
        self.pending: Pending | None = None
        self.plan_at: float | None = None
        self.counter = 0
        self.acked: dict[str, int] = {}  # message id → the revision it was accepted at
        self.reconnected = False
        self.echo: Pending | None = None  # a message sent twice, watched for a while
        self.connected = False  # ever

    async def play(self) -> None:
        """Connect to one of the cluster's servers (any: a page reconnects to either) and
        play until the run stops, reconnecting after every drop."""
        while not self.switches.stopping:
            server = self.rng.choice(self.servers)
            url = f"ws://{HOST}:{server.port}/ws/tables/{self.run.id}"
            try:
                async with connect(
                    url,
                    origin=Origin(f"http://{HOST}:{server.port}"),
                    open_timeout=3,
                    close_timeout=1,
                    max_size=2**24,
                    ping_interval=None,
                ) as socket:
                    self.run.note(self.name, f"connected to {server.name}")
                    if self.connected and not self.switches.stopping:
                        self.switches.reconnects += 1
                    self.connected = True
                    await self.session(socket)
            except (OSError, TimeoutError, WebSocketException):
                pass
            self.state = None
            self.plan_at = None
            self.reconnected = True
            await asyncio.sleep(self.rng.uniform(0.05, 0.4))

    async def session(self, socket: ClientConnection) -> None:
        hello = {"type": "hello", "tokens": [self.token] if self.token else []}
        await socket.send(json.dumps(hello))
        while not self.switches.stopping:
            now = time.monotonic()
            if self.pending is not None and now - self.pending.sent > PENDING_S:
                self.pending = None  # no answer: its outcome stays unknown, and unclaimed
            if self.pending is None and self.plan_at is None and self.my_turn():
                self.plan_at = now + self.rng.uniform(0.05, 0.4)
            wait = 0.5 if self.plan_at is None else min(0.5, max(0.0, self.plan_at - now))
            try:
                raw = await asyncio.wait_for(socket.recv(), wait)
            except TimeoutError:
                if self.plan_at is not None and time.monotonic() >= self.plan_at:
                    self.plan_at = None
                    await self.act(socket)
                continue
            message = json.loads(raw)
            kind = message.get("type")
            # The change (or state) that this page's act made says it is stored.
            accepts = "accepted" in message and kind in ("state", "change")
            message_id = message.pop("accepted", None)
            if kind == "change" and self.state is not None:
                # Only what changed since the last (web.protocol): the whole state it makes.
                message, kind = patch(self.state, message["diff"]), "state"
            if kind == "state":
                await self.on_state(socket, message)
                if accepts:
                    self.on_accepted({"id": message_id, "revision": message.get("revision")})
            elif kind == "accepted":
                self.on_accepted(message)
            elif kind == "error":
                self.run.note(self.name, f"error {message.get('code')}")
                pending = self.pending
                if pending is not None and message.get("id") in (None, pending.message_id):
                    self.pending = None  # refused (a fresh state follows when it moved on)

    # ---------------------------------------------------------------- what comes in

    async def on_state(self, socket: ClientConnection, message: dict[str, Any]) -> None:
        self.state = message
        view = message["view"]
        legal = (
            len(notations(view.get("legal"))) if self.run.game == "centrix" else view.get("expects")
        )
        self.run.note(self.name, f"state {message['version']} actor {message['actor']} {legal}")
        self.run.saw(message)
        pending = self.pending
        if pending is not None:
            if "revision" in message:
                if self.reconnected:
                    # Its answer may have been lost with the connection: the same message
                    # again is answered as the first was, never applied twice.
                    self.reconnected = False
                    self.switches.resent += 1
                    await socket.send(json.dumps(pending.message))
            else:
                self.infer(pending, message)
                if self.reconnected and self.pending is not None:
                    # The connection it went by is gone, and the table (from the store)
                    # does not show it: it was not stored, and will not be.
                    self.pending = None
        if self.echo is not None and "revision" not in message:
            self.twice(self.echo, message)
        self.reconnected = False
        if self.pending is None and self.plan_at is None and self.my_turn():
            self.plan_at = time.monotonic() + self.rng.uniform(0.05, 0.4)

    def infer(self, pending: Pending, message: dict[str, Any]) -> None:
        """The older protocol: an action counts as accepted once a state shows it."""
        view = message["view"]
        log, movers = notations_of(view), movers_of(view)
        if pending.kind == "act":
            for number in range(pending.base, len(log)):
                if log[number] == pending.text and movers[number] == pending.seat:
                    self.accept(pending, number)
                    return
        else:
            last = message.get("last") or {}
            if (
                message["version"] == pending.base - 1
                and last.get("undo")
                and last.get("seat") == pending.seat
            ):
                self.accept(pending, pending.base - 1)

    def twice(self, echo: Pending, message: dict[str, Any]) -> None:
        """The older protocol: an undo sent twice that took back two plays (the second one
        a play nobody asked to take back). A doubled play shows in the stored record."""
        if echo is self.pending or time.monotonic() - echo.sent > 2.0:
            if echo is not self.pending:
                self.echo = None
            return
        last = message.get("last") or {}
        if (
            echo.kind == "undo"
            and message["version"] == echo.base - 2
            and last.get("undo")
            and last.get("seat") == echo.seat
        ):
            self.run.doubled += 1
            number = echo.base - 2
            self.run.undo_attempts.append((number, echo.log[number], time.monotonic()))
            self.run.note(self.name, f"the undo sent twice took back {echo.base - 2} too")
            self.echo = None

    def on_accepted(self, message: dict[str, Any]) -> None:
        message_id, revision = message.get("id"), message.get("revision")
        if message_id in self.acked:
            if self.acked[message_id] != revision:
                self.run.doubled += 1
                self.run.note(self.name, f"{message_id} accepted again at {revision}")
            return
        pending = self.pending
        if pending is not None and message_id == pending.message_id:
            self.acked[str(message_id)] = int(revision) if revision is not None else -1
            number = pending.base if pending.kind == "act" else pending.base - 1
            self.accept(pending, number)

    def accept(self, pending: Pending, number: int) -> None:
        self.run.note(self.name, f"accepted {pending.kind} {pending.text!r} as {number}")
        self.run.accepted.append(
            Accepted(
                pending.kind,
                number,
                pending.text,
                pending.seat,
                time.monotonic(),
                pending.base,
                self.name,
                pending.message_id,
            )
        )
        self.pending = None

    # ---------------------------------------------------------------- what goes out

    def my_turn(self) -> bool:
        state = self.state
        if state is None or self.seat is None or not self.switches.acting:
            return False
        if state.get("actor") != self.seat or state.get("active") != self.seat:
            return False
        view = state["view"]
        if self.run.game == "centrix":
            return bool(view.get("legal"))
        return view.get("expects") in ("shot", "decision")

    async def act(self, socket: ClientConnection) -> None:
        if not self.my_turn() or self.pending is not None:
            return
        state = self.state
        assert state is not None
        assert self.seat is not None
        view = state["view"]
        kind, text = "act", ""
        if self.run.game == "centrix":
            if state.get("can_undo") and self.rng.random() < self.switches.undo:
                kind = "undo"
            else:
                text = self.rng.choice(notations(view["legal"]))
        elif view["expects"] == "shot":
            text = self.shot(view["table"])
        else:
            text = self.rng.choice(view.get("decisions") or ["pass"])
        message: dict[str, Any] = {"type": kind, "seat": self.seat}
        if kind == "act":
            message["action"] = text
        message_id = None
        if "revision" in state:
            self.counter += 1
            message_id = f"{self.name}-{self.counter:06d}"
            message["revision"] = state["revision"]
            message["id"] = message_id
        base = int(state["version"])
        self.echo = None  # what comes now may be this message's doing
        log = notations_of(view)
        self.pending = Pending(
            kind, text, base, self.seat, message, time.monotonic(), message_id, log
        )
        if kind == "undo":
            self.run.undo_attempts.append((base - 1, log[base - 1], time.monotonic()))
        await socket.send(json.dumps(message))
        self.run.note(self.name, f"sent {kind} {text!r} at {base}")
        self.switches.sent += 1
        if self.rng.random() < self.switches.twice:  # a double click, a retry
            await asyncio.sleep(self.rng.uniform(0.0, 0.05))
            await socket.send(json.dumps(message))
            self.run.note(self.name, "sent it again")
            self.echo = self.pending
            self.switches.resent += 1

    def shot(self, table: dict[str, Any]) -> str:
        """A random shot within the table's limits, towards the city, in the notation the
        table's log writes it in."""
        near, far = table["city_speeds"]
        low = max(table["min_speed"], near * 0.9)
        high = min(table["max_speed"], far * 1.1)
        text = " ".join(
            f"{value:.{digits}f}"
            for value, digits in (
                (self.rng.uniform(-0.8, 0.8) * table["launch_half_width"], 1),
                (self.rng.uniform(-0.5, 0.5) * table["max_direction"], 1),
                (self.rng.uniform(low, high), 2),
                (self.rng.uniform(-0.3, 0.3) * table["max_spin"], 1),
            )
        )
        return shot_text(parse_action(text))  # (the log's own writing: a spin of 0, not -0)
