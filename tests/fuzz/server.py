"""Server targets: every WebSocket message type and every REST endpoint of the web app.

The app runs in this process on a SQLite file of its own, driven through ASGI (tests.fuzz.
asgi). The tables under fuzz have no bots, so nothing but the fuzz's own input changes
them: before and after each input the stored table and the live state are taken down, and
input the server refused (answered with an ``error``, or any status but 200) must leave
both exactly as they were. Now and then the fuzz makes a legal move, so that inputs meet
tables mid-turn, mid-game and finished.

Bots are seated only by the random set-ups of ``POST /api/tables``; their executor never
runs them (a bot's thinking is not under fuzz here, and a set-up that freezes the physics,
issue 14 finding 4, would otherwise freeze the run).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random
from collections import Counter
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from pydantic import ValidationError

from gamenight.web import protocol
from gamenight.web.app import create_app
from gamenight.web.outbound import OUTBOUND
from gamenight.web.protocol import patch
from gamenight.web.settings import Settings
from gamenight.web.store import MEMORY
from gamenight.web.views.centrix import notations
from tests.web.hosts import TEST_HOSTS

from . import generators as gen
from .asgi import ClosedError, Socket, request
from .harness import Probe

AsyncTarget = Callable[[random.Random, Probe], Coroutine[Any, Any, None]]

# The tables under fuzz, by name. Seeded where the server allows it;
# a table with an invited seat is shuffled by the server (so its deal is not reproducible).
SETUPS: dict[str, dict[str, Any]] = {
    "centrix-2": {
        "game": "centrix",
        "seats": [{"kind": "device", "name": "Ann"}, {"kind": "device", "name": "Bo"}],
        "first": 0,
        "seed": 11,
    },
    "centrix-4": {
        "game": "centrix",
        "seats": [{"kind": "device"}] * 4,
        "first": 2,
        "seed": 12,
        "rules": {"max_turns": 12},
    },
    "centrix-invite": {
        "game": "centrix",
        "seats": [{"kind": "device", "name": "Ann"}, {"kind": "invite", "name": "Bo"}],
        "first": 1,
    },
    "colorcity-2": {
        "game": "colorcity",
        "seats": [
            {"kind": "device", "role": "green", "skill": "exact"},
            {"kind": "device", "role": "purple", "skill": "exact"},
        ],
        "first": "green",
        "seed": 5,
        "rules": {"max_turns": 8},
    },
    # A clock (issue 31: the fuzz covers clocks, resigning and rematches too).
    "centrix-clock": {
        "game": "centrix",
        "seats": [{"kind": "device"}, {"kind": "device"}],
        "first": 0,
        "seed": 13,
        "clock": {"kind": "realtime", "bank_seconds": 60, "on_timeout": "lose"},
        "rules": {"max_turns": 6},
    },
    # Unlisted: a page with no seat needs the spectator link's token.
    "centrix-unlisted": {
        "game": "centrix",
        "seats": [{"kind": "device"}, {"kind": "invite"}],
        "first": 0,
        "visibility": "unlisted",
    },
    "colorcity-4": {
        "game": "colorcity",
        "seats": [
            {"kind": "device", "role": "green", "skill": "normal"},
            {"kind": "device", "role": "purple", "skill": "shaky"},
            {"kind": "device", "role": "green", "skill": "exact"},
            {"kind": "device", "role": "purple", "skill": "normal"},
        ],
        "first": 1,
        "seed": 6,
        "rules": {"max_turns": 10},
    },
}
ROLES = ("none", "spectator", "seat0", "all")  # no hello at all, no tokens, one seat, every seat
PING = '{"type":"ping"}'


class IdleBots(Executor):
    """A bot executor that never runs anything: the bots' seats simply never move."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return Future()


@dataclass
class Seated:
    """A table under fuzz and the keys to it."""

    kind: str
    id: str
    tokens: list[str | None]  # what each seat's page holds now
    renew: list[str | None]
    invites: list[str | None]  # unused invite links
    retired: list[str] = field(default_factory=list)  # tokens that opened a seat once
    watch: str | None = None  # an unlisted table's spectator link token
    sockets: dict[str, Socket] = field(default_factory=dict)
    last: dict[str, Any] | None = None  # the latest state the "all" page was sent


def parsed(frame: str | bytes) -> object | None:
    """What the server will read ``frame`` as (None: refused as no message)."""
    try:
        return protocol.parse_client(frame)
    except Exception:
        return None


class World:
    """The app, its tables under fuzz, and a page per role at each."""

    def __init__(self) -> None:
        # In memory: the fuzz is about the server's answers, not about storage.
        self.settings = Settings(MEMORY, allowed_hosts=TEST_HOSTS)
        self.app = create_app(self.settings, IdleBots())
        self.manager = self.app.state.manager
        self.store = self.manager.store
        self.tables: dict[str, Seated] = {}
        self.message_ids = 0
        self.clients = 0
        self.answers: Counter[str] = Counter()  # the server's answers by type and code

    # ---------------------------------------------------------------- tables

    def client(self) -> str:
        """The next of many loopback addresses: the fuzz is many clients, so that limits a
        host sets per address (issue 14 finding 8) leave its input to the code behind them."""
        self.clients += 1
        return f"127.0.{self.clients // 250 % 250}.{self.clients % 250 + 1}"

    async def seat(self, kind: str) -> Seated:
        body = json.dumps(SETUPS[kind]).encode()
        response = await request(self.app, "POST", "/api/tables", body, client=self.client())
        if response.status != 200:
            raise RuntimeError(f"cannot set up {kind}: {response.status} {response.body[:200]!r}")
        made = response.json()
        seats = made["seats"]
        table = Seated(
            kind,
            made["id"],
            [None if s["invite"] else s["token"] for s in seats],
            [s["renew"] for s in seats],
            [s["token"] if s["invite"] else None for s in seats],
            watch=made.get("watch"),
        )
        old = self.tables.get(kind)
        if old is not None:
            for socket in old.sockets.values():
                await socket.close()
        self.tables[kind] = table
        return table

    async def table(self, rng: random.Random) -> Seated:
        kind = rng.choice(list(SETUPS))
        return self.tables.get(kind) or await self.seat(kind)

    async def snapshot(self, table: Seated | str) -> tuple[str, str, str, str]:
        """(the table as stored but its seats, its stored seats, the live table but its
        seats, its live seats), each as text to compare."""
        table_id = table if isinstance(table, str) else table.id
        stored = await self.store.load(table_id)
        live = self.manager.tables.get(table_id)
        stored_rest: dict[str, Any] = {} if stored is None else dataclasses.asdict(stored)
        stored_seats = stored_rest.pop("seats", None)
        # The table's timing follows who is online (docs/rules/table.md: abandonment and grace
        # count from the last page seen), so a probe's page coming and going moves it.
        stored_rest.pop("clock", None)
        stored_rest.pop("deadline", None)
        live_rest: dict[str, Any] = {}
        live_seats = None
        if live is not None:
            referee = live.referee  # the one piece that changes a table (issue 14)
            live_rest = {
                "position": referee.state.position(),
                "actions": referee.actions,
                "version": referee.version,
                "revision": referee.revision,
                "last": referee.last,
                "status": referee.status(),
            }
            live_seats = referee.seats.to_dicts()
        rest, seats, live_text, live_seat_text = (
            json.dumps(part, sort_keys=True, default=str)
            for part in (stored_rest, stored_seats, live_rest, live_seats)
        )
        return rest, seats, live_text, live_seat_text

    async def close(self) -> None:
        for table in self.tables.values():
            for socket in table.sockets.values():
                await socket.close()

    # ---------------------------------------------------------------- pages

    def tokens_for(self, table: Seated, role: str) -> list[str] | None:
        if role == "none":
            return None
        if role == "spectator":
            return []
        if role == "seat0":
            return [t for t in table.tokens[:1] if t]
        held = [t for t in table.tokens if t]
        return held + [t for t in table.invites if t]

    async def socket(self, table: Seated, role: str, frames: int = 0) -> Socket:
        """``role``'s page at ``table``, ready to send ``frames`` more frames. A page is used
        only while all it ever sent stays within a socket's rate (then a fresh page takes
        its place), so that the rate refuses nothing but a flood, whatever the timing."""
        socket = table.sockets.get(role)
        if socket is not None and socket.alive:
            self.read(table, role, socket.pending())
            if socket.sent + frames <= self.settings.limits.messages_per_second:
                return socket
        if socket is not None:
            await socket.close()  # (a page the server let go, too: its task must end)
        socket = await Socket(self.app, f"/ws/tables/{table.id}", self.client()).open()
        table.sockets[role] = socket
        tokens = self.tokens_for(table, role)
        if tokens is not None:
            socket.send(json.dumps({"type": "hello", "tokens": tokens, "watch": table.watch}))
            socket.send(PING)
            self.read(table, role, await socket.until_pongs(1))
        return socket

    def read(self, table: Seated, role: str, messages: list[dict[str, Any]]) -> None:
        """Learn from what a page was sent: the tokens a claimed invite gave, the state."""
        for message in messages:
            if message.get("type") == "welcome" and role == "all":
                for seat, token in message.get("tokens", {}).items():
                    s = int(seat)
                    invite = table.invites[s]
                    if invite is not None:
                        table.retired.append(invite)
                        table.invites[s] = None
                    table.tokens[s] = token
            if message.get("type") == "state" and role == "all":
                table.last = message
            elif message.get("type") == "change" and role == "all" and table.last is not None:
                with contextlib.suppress(KeyError, TypeError, ValueError):
                    table.last = patch(table.last, message["diff"])

    async def exchange(
        self,
        table: Seated,
        role: str,
        frames: list[str | bytes],
        probe: Probe,
        *,
        may_change: bool | None = None,
    ) -> list[dict[str, Any]]:
        """Send ``frames`` from ``role``'s page, then a ping, and read every answer up to
        its pong. Refused input must leave the table untouched; ``may_change`` (default:
        the frames are acts or undos the server took, or hellos, which may claim a seat)."""
        try:
            socket = await self.socket(table, role, len(frames) + 1)  # the frames, a ping
        except ClosedError:
            return []  # the server does not let this page in (say, a watcher of an unlisted table)
        before = await self.snapshot(table)
        for frame in frames:
            socket.send(frame)
        socket.send(PING)
        messages = [parsed(frame) for frame in frames]
        first = frames[0] if frames else "(a ping alone)"
        pongs = 1 + sum(isinstance(m, protocol.Ping) for m in messages)
        replies: list[dict[str, Any]] = []
        try:
            replies = await socket.until_pongs(pongs)
        except ClosedError as exc:
            if socket.unsendable:
                probe.unhandled(f"{first!r:.120}: {exc}")
            # Otherwise the server let the page go (a flood, an abusive frame): allowed.
        except TimeoutError:
            probe.unhandled(f"{first!r:.120}: no answer within the time limit")
        if socket.escaped is not None:
            probe.unhandled(
                f"escaped the socket: {type(socket.escaped).__name__}: {socket.escaped}"
            )
        self.read(table, role, replies)
        for reply in replies:
            if reply.get("type") == "error" and reply.get("code") == "server_failed":
                probe.unhandled(f"{first!r:.120}: server_failed: {reply.get('message')}")
            try:
                OUTBOUND.validate_python(reply)  # what the page's types say it may be sent
            except ValidationError as exc:
                probe.unhandled(f"{first!r:.120}: a reply off its type: {exc}")
        errors = [r for r in replies if r.get("type") == "error"]
        self.answers.update(
            f"{r.get('type')}:{r.get('code', '')}" for r in replies if r.get("type") != "pong"
        )
        after = await self.snapshot(table)
        if may_change is None:
            # (A resignation, a seat taken back or a rematch the server took changes the
            # table as an act does.)
            acting = bool(messages) and all(
                isinstance(
                    m,
                    protocol.Act
                    | protocol.Undo
                    | protocol.Resign
                    | protocol.Reclaim
                    | protocol.Rematch,
                )
                for m in messages
            )
            may_change = acting and not errors
        hello = bool(messages) and all(isinstance(m, protocol.Hello) for m in messages)
        compare = (0, 2) if hello and not errors else (0, 1, 2, 3)
        if not may_change and any(before[i] != after[i] for i in compare):
            which = [
                ("stored", "stored seats", "live", "live seats")[i]
                for i in compare
                if before[i] != after[i]
            ]
            probe.state_changed(
                f"{first!r:.120} ({role}) changed {', '.join(which)}: {errors[:1]!r:.200}"
            )
        return replies

    def message_id(self) -> str:
        self.message_ids += 1
        return f"fz-{self.message_ids:08d}"

    def legal_act(self, table: Seated, rng: random.Random) -> dict[str, Any] | None:
        """A legal act for the seat to move, from the state its page was last sent."""
        state = table.last
        if state is None or state.get("actor") is None:
            return None
        view = state["view"]
        action: str | None
        if view["game"] == "centrix":
            legal = notations(view.get("legal"))
            action = rng.choice(legal) if legal else None
        elif view.get("expects") == "decision":
            action = rng.choice(view["decisions"])
        else:
            t = view["table"]
            speed = rng.uniform(max(t["min_speed"], 0.6), min(t["max_speed"], 1.8))
            action = f"{rng.uniform(-30, 30):.1f} {rng.uniform(-15, 15):.1f} {speed:.2f} 0"
        if action is None:
            return None
        message: dict[str, Any] = {"type": "act", "seat": state["actor"], "action": action}
        if "revision" in state:  # the protocol of issue 14: the revision seen, an id
            message.update(revision=state["revision"], id=self.message_id())
        return message


# ---------------------------------------------------------------- message generators


def _seat(rng: random.Random, table: Seated) -> Any:
    roll = rng.random()
    actor = (table.last or {}).get("actor")
    if roll < 0.5 and actor is not None:
        return actor
    if roll < 0.75:
        return rng.randrange(len(table.tokens))
    if roll < 0.85:
        return rng.choice((-1, len(table.tokens), 15, 16, 2**31, 2**63))
    return gen.value(rng)


def _extra(rng: random.Random, message: dict[str, Any], table: Seated) -> dict[str, Any]:
    """Sometimes the fields of issue 14's protocol, right or wrong."""
    if rng.random() < 0.9:  # (required since issue 31: without it, refused at once)
        revision = (table.last or {}).get("revision", 0)
        message["revision"] = rng.choice(
            (revision,) * 6 + (revision - 1, revision + 1, -1, 0, gen.value(rng))
        )
    if rng.random() < 0.2:
        message["id"] = rng.choice(
            ("p7-000042", "x" * 64, "x" * 65, "", "a b", "é", gen.value(rng))
        )
    return message


def _frame(rng: random.Random, message: Any) -> str | bytes:
    """A message as the frame a client sends: JSON text (sometimes with \\u escapes), now
    and then as a binary frame."""
    text = gen.write(message, rng)
    if rng.random() < 0.1:
        return text.encode("utf-8", "surrogatepass")
    return text


def _act_text(rng: random.Random, table: Seated) -> Any:
    legal = []
    if table.last is not None:
        view = table.last["view"]
        legal = notations(view.get("legal")) or list(view.get("decisions", []))
    base = (
        rng.choice(legal)
        if legal
        else rng.choice(("R2 3+2 c3-d3", "0 0 1.3 0", "pass", "lucky-day"))
    )
    roll = rng.random()
    if roll < 0.6:
        return gen.mutate_text(base, rng, "RBGOYWAS0123456789+-abcdefghijkl .,")
    if roll < 0.8:
        return base  # legal for the seat to move, perhaps sent for another
    if roll < 0.85:
        return gen.huge_string(rng)
    if roll < 0.9:
        return gen.text(rng)
    return gen.value(rng)


def act_message(rng: random.Random, table: Seated) -> Any:
    message: dict[str, Any] = {
        "type": "act",
        "seat": _seat(rng, table),
        "action": _act_text(rng, table),
    }
    message = _extra(rng, message, table)
    return gen.mutate_dict(message, rng) if rng.random() < 0.2 else message


def undo_message(rng: random.Random, table: Seated) -> Any:
    message = _extra(rng, {"type": "undo", "seat": _seat(rng, table)}, table)
    return gen.mutate_dict(message, rng) if rng.random() < 0.2 else message


def hello_message(rng: random.Random, table: Seated) -> Any:
    known = [t for t in (*table.tokens, *table.invites, *table.renew, *table.retired) if t]
    tokens: Any = [
        rng.choice(known) if known and rng.random() < 0.5 else gen.text(rng)
        for _ in range(rng.randrange(4))
    ]
    roll = rng.random()
    if roll < 0.1:
        tokens = [gen.text(rng) for _ in range(rng.choice((9, 50, 1000)))]
    elif roll < 0.2:
        tokens = gen.value(rng)
    elif roll < 0.25:
        tokens = [gen.huge_string(rng)]
    message: dict[str, Any] = {"type": "hello", "tokens": tokens}
    if rng.random() < 0.3:  # a spectator link's token, the table's own or not
        message["watch"] = table.watch if table.watch and rng.random() < 0.5 else gen.value(rng)
    return gen.mutate_dict(message, rng) if rng.random() < 0.2 else message


def predict_message(rng: random.Random, table: Seated) -> Any:
    roll = rng.random()
    if roll < 0.3:
        # Around the table's limits (position ±60 mm, direction ±60°, speed, spin ±40).
        ranges = ((-80, 80), (-70, 70), (-0.5, 4), (-50, 50))
        shot: Any = " ".join(f"{rng.uniform(low, high):.2f}" for low, high in ranges)
    elif roll < 0.8:
        shot = gen.mutate_text(
            rng.choice(("0 0 1.3 0", "10,-5,0.9,3", "-60 60 3 40")), rng, "0123456789.,- e"
        )
    else:
        shot = gen.value(rng)
    message = {"type": "predict", "shot": shot}
    return gen.mutate_dict(message, rng) if rng.random() < 0.2 else message


def preview_message(rng: random.Random, table: Seated) -> Any:
    base = rng.choice(("3+2", "1-1", "6+5", "2+1", "4-3"))
    roll = rng.random()
    rotation: Any = base  # a good rotation: previewed in a Centrix game in play
    if roll < 0.6:
        rotation = gen.mutate_text(base, rng, "0123456789+-")
    elif roll < 0.75:
        rotation = gen.value(rng)
    message = {"type": "preview", "rotation": rotation}
    return gen.mutate_dict(message, rng) if rng.random() < 0.2 else message


def chat_message(rng: random.Random, table: Seated) -> Any:
    roll = rng.random()
    if roll < 0.3:
        message: dict[str, Any] = {"type": "chat", "text": gen.text(rng)}
    elif roll < 0.5:
        message = {"type": "chat", "phrase": rng.choice(("hello", "oops", "gg", "", "HELLO"))}
    elif roll < 0.6:
        message = {"type": "chat", "text": gen.huge_string(rng)}
    else:
        message = {"type": "chat", rng.choice(("text", "phrase")): gen.value(rng)}
    return gen.mutate_dict(message, rng) if rng.random() < 0.2 else message


def seat_message(kind: str) -> Callable[[random.Random, Seated], Any]:
    """A ``resign`` or ``reclaim`` for a seat, right or wrong."""

    def make(rng: random.Random, table: Seated) -> Any:
        message = {"type": kind, "seat": _seat(rng, table)}
        return gen.mutate_dict(message, rng) if rng.random() < 0.3 else message

    return make


def rematch_message(rng: random.Random, table: Seated) -> Any:
    message = {"type": "rematch"}
    return gen.mutate_dict(message, rng) if rng.random() < 0.3 else message


def ping_message(rng: random.Random, table: Seated) -> Any:
    return gen.mutate_dict({"type": "ping"}, rng) if rng.random() < 0.7 else {"type": "ping"}


def unknown_message(rng: random.Random, table: Seated) -> str | bytes:
    roll = rng.random()
    if roll < 0.25:
        kind = rng.choice(
            (
                "pong",
                "state",
                "welcome",
                "error",
                "accepted",
                "chat",
                "Act",
                "HELLO",
                "",
                " act",
                "act\x00",
            )
        )
        return _frame(
            rng,
            {
                "type": kind,
                **{rng.choice(gen.KEYS): gen.value(rng) for _ in range(rng.randrange(3))},
            },
        )
    if roll < 0.4:
        return _frame(rng, {"type": gen.value(rng)})
    if roll < 0.5:
        return _frame(rng, gen.value(rng))  # a JSON value of any kind, object or not
    if roll < 0.6:
        return _frame(rng, {"type": "act", "seat": 0, "action": gen.nested(10_000, rng)})
    if roll < 0.65:
        return gen.nested(10_000, rng).text
    if roll < 0.75:
        return gen.invalid_utf8(rng)
    if roll < 0.85:
        return gen.mutate_text('{"type": "ping"}', rng, '{}[]":,')  # JSON that does not parse
    if roll < 0.9:
        return rng.choice(("", b"", "null", "[]", "{}", '"ping"', "ping", "1e999", "NaN"))
    return json.dumps({"type": "ping", "pad": "x" * rng.choice((10_000, 1_000_000))})


MESSAGES = {
    "hello": hello_message,
    "act": act_message,
    "undo": undo_message,
    "predict": predict_message,
    "preview": preview_message,
    "chat": chat_message,
    "resign": seat_message("resign"),
    "reclaim": seat_message("reclaim"),
    "rematch": rematch_message,
    "ping": ping_message,
}


# ---------------------------------------------------------------- WebSocket targets


class Targets:
    """The server targets, sharing one world."""

    def __init__(self, world: World) -> None:
        self.world = world

    def all(self) -> dict[str, tuple[AsyncTarget, float]]:
        targets: dict[str, tuple[AsyncTarget, float]] = {
            f"ws {name}": (self._message(name), weight)
            for name, weight in (
                ("hello", 1),
                ("act", 3),
                ("undo", 1.5),
                ("predict", 1),
                ("preview", 1),
                ("chat", 1),
                ("resign", 0.3),
                ("reclaim", 0.5),
                ("rematch", 0.5),
                ("ping", 0.5),
            )
        }
        targets["ws unknown / raw frames"] = (self.unknown, 2)
        targets["ws flood"] = (self.flood, 0.1)
        targets["ws out of order"] = (self.out_of_order, 1)
        targets["ws legal play"] = (self.legal_play, 1.5)
        targets.update(RestTargets(self.world).all())
        return targets

    def _message(self, name: str) -> AsyncTarget:
        make = MESSAGES[name]

        async def target(rng: random.Random, probe: Probe) -> None:
            table = await self.world.table(rng)
            # A hello changes the seats its page holds: it gets a page of its own. Acts and
            # undos come mostly from the page holding every seat, to reach the engine.
            if name == "hello":
                role = "hello"
            elif name in ("act", "undo") and rng.random() < 0.6:
                role = "all"
            else:
                role = rng.choice(ROLES)
            await self.world.exchange(table, role, [_frame(rng, make(rng, table))], probe)

        return target

    async def unknown(self, rng: random.Random, probe: Probe) -> None:
        table = await self.world.table(rng)
        await self.world.exchange(table, rng.choice(ROLES), [unknown_message(rng, table)], probe)

    async def flood(self, rng: random.Random, probe: Probe) -> None:
        """Hundreds of messages back to back that change nothing: pings, predictions,
        previews, acts for a seat the page does not hold, junk."""
        table = await self.world.table(rng)
        frames: list[str | bytes] = []
        for _ in range(rng.choice((50, 100, 300))):
            kind = rng.choice(("ping", "predict", "preview", "junk", "act"))
            if kind == "junk":
                frames.append(unknown_message(rng, table))
            elif kind == "act":
                act = {"type": "act", "seat": _seat(rng, table), "action": _act_text(rng, table)}
                frames.append(gen.write(act))
            else:
                frames.append(_frame(rng, MESSAGES[kind](rng, table)))
        # The page watches, so every act is refused; a hello would give it seats to act for.
        frames = [f for f in frames if not isinstance(parsed(f), protocol.Hello)]
        await self.world.exchange(table, "spectator", frames, probe, may_change=False)

    async def legal_play(self, rng: random.Random, probe: Probe) -> None:
        """A legal move from the page holding every seat (so inputs meet the tables in every
        phase), now and then sent twice (a resent message must not be applied twice); a
        finished table is set up again now and then."""
        table = await self.world.table(rng)
        await self.world.exchange(table, "all", [], probe)  # the latest state, first
        message = self.world.legal_act(table, rng)
        if message is None:
            if rng.random() < 0.3:
                await self.world.seat(table.kind)
            return
        frame = json.dumps(message)
        replies = await self.world.exchange(table, "all", [frame], probe)
        if "id" in message and not any(r.get("type") == "error" for r in replies):
            await self.world.exchange(table, "all", [frame], probe, may_change=False)

    async def out_of_order(self, rng: random.Random, probe: Probe) -> None:
        """Messages that come at the wrong moment: an act before any hello, an undo when
        nothing was played, a legal play sent for another seat or after the game, an undo
        of another seat's play."""
        world = self.world
        roll = rng.random()
        if roll < 0.25:  # a fresh table: nothing to undo, and no hello yet
            table = await world.seat(rng.choice(list(SETUPS)))
            await world.exchange(table, "all", [], probe)
            seat = rng.randrange(len(table.tokens))
            frame = json.dumps({"type": "undo", "seat": seat})
            await world.exchange(table, "all", [frame], probe, may_change=False)
            message = world.legal_act(table, rng)
            if message is not None:
                await world.exchange(table, "none", [json.dumps(message)], probe, may_change=False)
            return
        table = await world.table(rng)
        await world.exchange(table, "all", [], probe)
        message = world.legal_act(table, rng)
        if message is None:
            message = {"type": "act", "seat": 0, "action": _act_text(rng, table)}
        if roll < 0.5:  # the seat to move's legal play, from a page that does not hold it
            role = rng.choice(("none", "spectator", "seat0"))
            if role == "seat0" and message["seat"] == 0:
                role = "spectator"
            await world.exchange(table, role, [gen.write(message)], probe, may_change=False)
        elif roll < 0.75:  # the legal play in another seat's name, from the page of every seat
            others = [s for s in range(len(table.tokens)) if s != message["seat"]]
            frame = gen.write({**message, "seat": rng.choice(others)})
            await world.exchange(table, "all", [frame], probe, may_change=False)
        else:  # an undo for a seat that is not the one to move
            others = [s for s in range(len(table.tokens)) if s != message["seat"]]
            frame = json.dumps({"type": "undo", "seat": rng.choice(others)})
            await world.exchange(table, "all", [frame], probe, may_change=False)


# ---------------------------------------------------------------- REST targets


class RestTargets:
    def __init__(self, world: World) -> None:
        self.world = world
        self.created: list[str] = []  # tables the fuzz's set-ups made (odd rules and all)

    def all(self) -> dict[str, tuple[AsyncTarget, float]]:
        return {
            "POST /api/tables": (self.create, 2),
            "POST /api/tables/{id}/invites/{seat}": (self.renew, 1),
            "GET /api/tables[/{id}]": (self.info, 1),
            "GET /api/tables/{id}/record": (self.record, 0.5),
            "GET /api/tables/{id}/replay/{step}": (self.replay, 1),
            "GET /api/rules/{game}": (self.rules, 0.5),
            "POST mine, check-invite, archive, delete": (self.yours, 1),
            "GET /api/qr, /api/links": (self.qr, 0.5),
            "pages and static files": (self.pages, 0.5),
            "any method, any path": (self.anything, 0.5),
            "Host and forwarding headers": (self.headers, 0.5),
            "oversized bodies": (self.oversized_body, 0.02),
        }

    async def call(
        self,
        probe: Probe,
        method: str,
        path: str,
        body: bytes | Any = b"",
        *,
        table: Seated | str | None = None,
        query: bytes = b"",
        may_change: bool = False,
        **options: Any,
    ) -> Any:
        """One request: no 5xx, nothing escaping, and a refused one (or one that only
        reads) leaves ``table`` as it was."""
        before = await self.world.snapshot(table) if table is not None else None
        response = await request(
            self.world.app, method, path, body, query=query, client=self.world.client(), **options
        )
        self.world.answers[f"http {response.status}"] += 1
        what = f"{method} {path!r:.80} {body[:80] if isinstance(body, bytes) else '<chunks>'!r}"
        if response.status >= 500 or response.status == 0:
            probe.server_error(f"{what}: {response.status} {response.body[:160]!r}")
        if response.escaped is not None:
            exc = response.escaped
            probe.unhandled(f"{what}: {type(exc).__name__}: {str(exc)[:160]}")
        if table is not None and before is not None:
            after = await self.world.snapshot(table)
            if after != before and not (may_change and response.status == 200):
                probe.state_changed(f"{what}: {response.status}, table changed")
        return response

    async def create(self, rng: random.Random, probe: Probe) -> None:
        roll = rng.random()
        if roll < 0.6:
            body = gen.write(gen.mutate_dict(rng.choice(list(SETUPS.values())), rng), rng).encode(
                "utf-8", "surrogatepass"
            )
        elif roll < 0.75:
            base = dict(rng.choice(list(SETUPS.values())))
            seats = [gen.mutate_dict(s, rng) if rng.random() < 0.5 else s for s in base["seats"]]
            body = gen.write(
                {**base, "seats": seats, "rules": gen.mutate_dict(base.get("rules", {}), rng)}, rng
            ).encode("utf-8", "surrogatepass")
        elif roll < 0.85:
            body = gen.write(gen.value(rng), rng).encode("utf-8", "surrogatepass")
        elif roll < 0.9:
            body = gen.nested(rng.choice((1000, 10_000)), rng).text.encode()
        elif roll < 0.95:
            body = gen.invalid_utf8(rng)
        else:
            body = gen.mutate_text(json.dumps(SETUPS["centrix-2"]), rng, '{}[]":,').encode(
                "utf-8", "surrogatepass"
            )
        headers = (
            {
                "content-type": rng.choice(
                    ("application/json", "text/plain", "application/x-www-form-urlencoded", "")
                )
            }
            if rng.random() < 0.1
            else None
        )
        # (By id: the newest table's timing may move meanwhile, as its pages come and go.)
        newest = [table.id for table in await self.world.store.recent(1)]
        response = await self.call(probe, "POST", "/api/tables", body, headers=headers)
        made = response.json() if response.status == 200 else None
        # A bot's seat may move by itself (a fallback play once its thinking overruns): only
        # tables without bots hold still between two looks.
        if made is not None and all(seat["kind"] != "bot" for seat in made["seats"]):
            self.created = [*self.created[-49:], made["id"]]
        if response.status != 200 and [t.id for t in await self.world.store.recent(1)] != newest:
            probe.state_changed(
                f"POST /api/tables {body[:80]!r}: {response.status}, yet a table was stored"
            )

    async def renew(self, rng: random.Random, probe: Probe) -> None:
        world = self.world
        table = world.tables.get("centrix-invite") or await world.seat("centrix-invite")
        seat: Any = rng.choice((1, 1, 0, -1, 2, "1", "x", "1e3", "²", "9" * 5000))
        key: Any = (
            table.renew[1]
            if rng.random() < 0.05
            else rng.choice((table.renew[1] or "", *table.tokens, gen.text(rng), gen.value(rng)))
        )
        message: Any = {"renew": key}
        if rng.random() < 0.4:
            message = gen.mutate_dict(message, rng)
        path = f"/api/tables/{table.id if rng.random() < 0.9 else gen.text(rng)}/invites/{seat}"
        response = await self.call(
            probe,
            "POST",
            path,
            gen.write(message, rng).encode("utf-8", "surrogatepass"),
            table=table,
            may_change=True,
        )
        if response.status == 200:
            # The link was renewed: the seat's old holder lost it; a new link is there to use.
            table.retired.extend(t for t in (table.tokens[1], table.invites[1]) if t)
            table.tokens[1], table.invites[1] = None, response.json()["token"]
            socket = table.sockets.pop("all", None)
            if socket is not None:
                await socket.close()

    def _id(self, rng: random.Random) -> tuple[str, str | None]:
        """A table's id, and the id again if the table exists (to compare it before and
        after): a table under fuzz, one the fuzz's set-ups made, or no table at all."""
        roll = rng.random()
        if self.world.tables and roll < 0.6:
            table = rng.choice(list(self.world.tables.values()))
            return table.id, table.id
        if self.created and roll < 0.75:
            table_id = rng.choice(self.created)
            return table_id, table_id
        return rng.choice(
            ("nope", "", " ", "..", "%2e%2e", "a/b", "x" * 10_000, gen.text(rng))
        ), None

    async def info(self, rng: random.Random, probe: Probe) -> None:
        if rng.random() < 0.3:
            query = rng.choice((b"", b"limit=10", b"limit=" + b"9" * 5000, b"\xff", b"a=%ff&&="))
            await self.call(probe, "GET", "/api/tables", query=query)
            return
        table_id, table = self._id(rng)
        await self.call(probe, "GET", f"/api/tables/{table_id}", table=table)

    async def record(self, rng: random.Random, probe: Probe) -> None:
        table_id, table = self._id(rng)
        await self.call(probe, "GET", f"/api/tables/{table_id}/record", table=table)

    async def replay(self, rng: random.Random, probe: Probe) -> None:
        table_id, table = self._id(rng)
        live = self.world.manager.tables.get(table_id)
        version = live.referee.version if live is not None else 3
        step = rng.choice(
            (
                0,
                version,
                version + 1,
                -1,
                rng.randint(0, max(version, 0)),
                "1.5",
                "1e3",
                "²",
                "٣",
                "0x1",
                " 1",
                "9" * 5000,
                "-0",
                "NaN",
                gen.text(rng),
            )
        )
        await self.call(probe, "GET", f"/api/tables/{table_id}/replay/{step}", table=table)

    def _keys(self, rng: random.Random) -> list[Any]:
        """Keys a browser might send: the tables' own tokens, used ones, and anything."""
        held = [k for t in self.world.tables.values() for k in (*t.tokens, *t.renew, *t.retired)]
        pool: list[Any] = [k for k in held if k] or ["k"]
        return [
            rng.choice(pool) if rng.random() < 0.5 else rng.choice((gen.text(rng), gen.value(rng)))
            for _ in range(rng.choice((0, 1, 2, 30)))
        ]

    async def yours(self, rng: random.Random, probe: Probe) -> None:
        """Issue 16: a browser's own tables, an invite's check, the host's archive and
        delete, all with keys that are not the host's: nothing may change."""
        table_id, table = self._id(rng)
        roll = rng.random()
        if roll < 0.4:
            path = "/api/tables/mine"
            body: Any = {"tables": {table_id: self._keys(rng), gen.text(rng): self._keys(rng)}}
        elif roll < 0.7:
            path = f"/api/tables/{table_id}/check-invite"
            body = {"token": rng.choice((*self._keys(rng), gen.text(rng))), "keys": self._keys(rng)}
        else:
            path = f"/api/tables/{table_id}/{rng.choice(('archive', 'delete'))}"
            body = {"keys": self._keys(rng), "archived": rng.choice((True, False, "x"))}
        if rng.random() < 0.4:
            body = gen.mutate_dict(body, rng)
        raw = gen.write(body, rng).encode("utf-8", "surrogatepass")
        await self.call(probe, "POST", path, raw, table=table)

    async def qr(self, rng: random.Random, probe: Probe) -> None:
        if rng.random() < 0.2:
            await self.call(probe, "GET", "/api/links")
            return
        table_id, _ = self._id(rng)
        text = rng.choice(
            (
                f"http://testserver/table/{table_id}#token={gen.text(rng)}",
                f"http://testserver/table/{table_id}#watch=abc",
                gen.text(rng),
                "x" * 5000,
            )
        )
        await self.call(
            probe,
            "GET",
            "/api/qr",
            query=b"text=" + quote(text.encode("utf-8", "surrogatepass"), safe="").encode(),
        )

    async def rules(self, rng: random.Random, probe: Probe) -> None:
        game = rng.choice(("centrix", "colorcity", "chess", "", "..", gen.text(rng)))
        lang = rng.choice(("en", "ko", "xx", "", "../../etc", gen.text(rng)))
        part = rng.choice(("guide", "full", "", "other", gen.text(rng)))
        query = (
            f"lang={lang}&part={part}".encode("utf-8", "surrogatepass")
            if rng.random() < 0.9
            else b"lang&part&lang=en"
        )
        await self.call(probe, "GET", f"/api/rules/{game}", query=query)

    async def pages(self, rng: random.Random, probe: Probe) -> None:
        table_id, table = self._id(rng)
        path = rng.choice(
            (
                "/",
                f"/table/{table_id}",
                f"/replay/{table_id}",
                f"/rules/{gen.text(rng)}",
                "/static/app.js",
                "/static/../../../etc/passwd",
                "/static/%2e%2e/%2e%2e/etc/passwd",
                f"/static/{gen.text(rng)}",
            )
        )
        await self.call(probe, rng.choice(("GET", "HEAD")), path, table=table)

    async def anything(self, rng: random.Random, probe: Probe) -> None:
        method = rng.choice(
            ("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "BREW")
        )
        table_id, table = self._id(rng)
        path = rng.choice(
            (
                f"/api/tables/{table_id}",
                f"/api/tables/{table_id}/invites/0",
                "/api/tables",
                f"/ws/tables/{table_id}",
                "/api",
                "/" + gen.text(rng),
                "//",
                "/api/rules/centrix",
            )
        )
        body = (
            gen.write(gen.value(rng), rng).encode("utf-8", "surrogatepass")
            if rng.random() < 0.5
            else b""
        )
        await self.call(probe, method, path, body, table=table)

    async def headers(self, rng: random.Random, probe: Probe) -> None:
        """Requests naming any host, and forwarding headers claiming any client (issue 31:
        another site's name pointed at the server; a client naming itself a new address):
        refused or answered, never a server error."""
        table_id, table = self._id(rng)
        path = rng.choice(("/api/tables", f"/api/tables/{table_id}", "/", "/api/links"))
        headers: dict[str, str] = {}
        if rng.random() < 0.6:
            headers["host"] = rng.choice(
                (
                    "evil.example",
                    "testserver.evil.example",
                    "[::1]:8000",
                    "127.0.0.1:99999",
                    "",
                    ":",
                    "[",
                    "a" * 300,
                    gen.text(rng),
                )
            )
        for name in ("x-forwarded-for", "x-forwarded-proto", "forwarded", "x-real-ip"):
            if rng.random() < 0.4:
                headers[name] = rng.choice(
                    ("198.51.100.7", "1.1.1.1, 2.2.2.2", "unknown", "", "::1", gen.text(rng))
                )
        await self.call(
            probe, rng.choice(("GET", "POST")), path, b"{}", table=table, headers=headers
        )

    async def oversized_body(self, rng: random.Random, probe: Probe) -> None:
        """A 16 MiB set-up (its length declared, or streamed without one): the server must
        stop reading long before the end (issue 14 finding 8: a host sets a body limit)."""
        size = 16 * 2**20
        head = b'{"game": "centrix", "seats": [{"kind": "device", "name": "'
        tail = b'"}, {"kind": "device"}]}'
        filler = size - len(head) - len(tail)
        chunk = 2**16
        declared = rng.random() < 0.5

        def chunks() -> Any:
            yield head
            for _ in range(filler // chunk):
                yield b"a" * chunk
            yield b"a" * (filler % chunk) + tail

        body: Any = b"".join(chunks()) if declared else chunks()
        response = await self.call(probe, "POST", "/api/tables", body, length=declared)
        if response.read >= size:
            how = "with its length declared" if declared else "streamed"
            probe.unlimited(
                f"a {size // 2**20} MiB body {how} was read to the end ({response.status})"
            )
