"""Nothing a client receives, over whole games, gives away what its seats may not know.

Every WebSocket frame and HTTP response each seat's page, a spectator and an anonymous
client (the REST API only) receive is kept, from the table's set-up to the end of its game
(scripted humans and bots playing it out). Then every one of them is checked:

- structurally: a Centrix view holds a ``hand`` only for the page's own seat (the same cards
  the full state gives that seat at that moment), other seats' hands as counts only, and no
  key anywhere in a message names a hand, the draw pile, a seed, a generator key or a token;
- hints (issue 32): each page asks for one now and then before its move, and its answer is
  searched like every other message; the analysis is asked for too, and refused until the
  game is over;
- by search of the text: no other seat's token (tokens handed out at set-up, the tokens
  claimed invites gave, renew keys, or their hashes), no seed in decimal or hex, no
  generator key, no other seat's hand and no stretch of the draw pile, in the order the
  full state holds them at the moment of the message.

The full state at each moment is rebuilt from the game's record (downloaded once the game is
over: until then it is refused) and the plays the message itself shows.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from gamenight.centrix import CentrixState, Rules
from gamenight.colorcity import replay as colorcity_replay
from gamenight.core.record import GameRecord
from gamenight.web.app import create_app
from gamenight.web.protocol import patch
from gamenight.web.quotas import Limits
from gamenight.web.settings import Settings
from gamenight.web.views.centrix import notations

from .hosts import TEST_HOSTS

# Words for what no message may carry, under any key.
SECRET_KEYS = {
    "hands",
    "draw",
    "deck",
    "draw_pile",
    "seed",
    "key",
    "rng",
    "token_hash",
    "renew",
    "renew_hash",
    "invite_hash",
    "retired",
    "position",
    "noise_key",
    "generator",
}
HINTS = 0.2  # how often a page asks for a hint before its move
DRAW_STRETCH = 5  # this many cards of the draw pile, in order, count as the draw order


@dataclass
class Received:
    """What one client got: each frame or response body as text, with what it parsed to."""

    name: str
    seat: int | None  # the seat its page holds (None: spectator or anonymous)
    texts: list[tuple[str, Any]] = field(default_factory=list)
    shown: dict[str, Any] = field(default_factory=dict)  # the last state, rebuilt

    def keep(self, text: str) -> Any:
        data = json.loads(text)
        if isinstance(data, dict) and data.get("type") == "state":
            self.shown = data
        elif isinstance(data, dict) and data.get("type") == "change":
            # What the page holds after it: the whole state the change makes (web.protocol).
            data = self.shown = patch(self.shown, data["diff"])
        self.texts.append((text, data))
        return data


# Scripted players act at the machine's speed, far above any person's: the rate limits are
# lifted for them (test_limits.py holds the limits).
SCRIPTED = Limits(
    messages_per_second=10**6,
    address_messages_per_second=10**6,
    requests_per_second=10**6,
    chat_per_minute=10**6,
    table_chat_per_minute=10**6,
    address_chat_per_minute=10**6,
)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with (
        ThreadPoolExecutor(2) as bots,
        TestClient(
            create_app(
                Settings(
                    f"sqlite:///{tmp_path / 'secrets.sqlite3'}",
                    limits=SCRIPTED,
                    allowed_hosts=TEST_HOSTS,
                ),
                bot_executor=bots,
            )
        ) as client,
    ):
        yield client


class Table:
    """A table played to its end by scripted humans (one page per human seat), watched by a
    spectator and polled by an anonymous client."""

    def __init__(
        self, client: TestClient, body: dict[str, Any], rng: random.Random, *, chat: float = 0.0
    ) -> None:
        self.client = client
        self.rng = rng
        self.chat = chat  # how often a page says something at each round
        # Hints asked for now and then (issue 32), at online tables too: the host allows them.
        body = {**body, "hints": True}
        made = client.post("/api/tables", json=body)
        assert made.status_code == 200, made.text
        self.made = made.json()
        self.id: str = self.made["id"]
        self.game: str = body["game"]
        seats = self.made["seats"]
        # Every secret handed out, and the seat it belongs to (the creator's device holds the
        # renew keys, but no page is ever sent one).
        self.secrets: dict[str, int | None] = {}
        for seat in seats:
            if seat["token"]:
                self.secrets[seat["token"]] = seat["seat"]
            if seat["renew"]:
                self.secrets[seat["renew"]] = None
        # The spectator link of an unlisted table: the host hands it out, no page is sent it.
        self.watch: str | None = self.made.get("watch")
        if self.watch:
            self.secrets[self.watch] = None
        self.humans = [s["seat"] for s in seats if s["kind"] == "human"]
        self.received = {
            **{f"seat {s}": Received(f"seat {s}", s) for s in self.humans},
            "spectator": Received("spectator", None),
            "anonymous": Received("anonymous", None),
        }
        self.sockets: dict[str, WebSocketTestSession] = {}
        self.latest: dict[str, dict[str, Any]] = {}
        self.over = False
        self.message_ids = 0
        self.held: dict[int, str] = {}  # the token each seat's page holds now

    @classmethod
    def following(cls, old: Table, table_id: str) -> Table:
        """The rematch of ``old`` (its seats open with the same tokens, its spectator link
        watches it too), read by the same pages."""
        new = cls.__new__(cls)
        new.__dict__.update(old.__dict__)
        new.id = table_id
        new.made = {
            **old.made,
            "id": table_id,
            # Each page comes with the token it holds now (an invite's device token).
            "seats": [
                {**s, "token": old.held.get(s["seat"], s["token"])} for s in old.made["seats"]
            ],
        }
        new.received = {name: Received(name, r.seat) for name, r in old.received.items()}
        new.sockets, new.latest, new.over = {}, {}, False
        return new

    def open(self, stack: ExitStack) -> None:
        for seat in self.humans:
            self._open(stack, f"seat {seat}", [self.made["seats"][seat]["token"]])
        self._open(stack, "spectator", [], self.watch)

    def _open(
        self, stack: ExitStack, name: str, tokens: list[str], watch: str | None = None
    ) -> None:
        ws = stack.enter_context(self.client.websocket_connect(f"/ws/tables/{self.id}"))
        self.sockets[name] = ws
        ws.send_json({"type": "hello", "tokens": tokens, **({"watch": watch} if watch else {})})
        self.pump(name)

    def pump(self, name: str) -> None:
        """Read everything the page has been sent, up to the answer to a ping."""
        ws = self.sockets[name]
        ws.send_json({"type": "ping"})
        while True:
            message = self.received[name].keep(ws.receive_text())
            if message["type"] == "welcome":
                for seat, token in message["tokens"].items():
                    self.secrets.setdefault(token, int(seat))  # a claimed invite's own token
                    self.held[int(seat)] = token
            elif message["type"] == "state":
                self.latest[name] = message
                self.over = self.over or message["view"]["outcome"] is not None
            elif message["type"] == "error":
                raise AssertionError(f"{name} was refused: {message}")
            elif message["type"] == "pong":
                return

    def poll(self) -> None:
        """The anonymous client: the list, the table, its replay so far, and its record,
        which must be refused while the game is on. At an unlisted table it is refused
        the table altogether, and then asks with the spectator link as a key."""
        anonymous = self.received["anonymous"]
        listed = self.client.get("/api/tables")
        anonymous.keep(listed.text)
        # (Forwarding headers, which this server believes from nobody: issue 31.)
        forwarded = {"X-Forwarded-For": f"198.51.100.{self.rng.randrange(1, 250)}"}
        info = self.client.get(f"/api/tables/{self.id}", headers=forwarded)
        key = ""
        if self.watch:
            assert anonymous.keep(info.text)["code"] == "unlisted"
            key = f"?key={self.watch}"
            info = self.client.get(f"/api/tables/{self.id}{key}")
        version = anonymous.keep(info.text)["version"]
        step = self.rng.randint(0, version)
        replayed = self.client.get(f"/api/tables/{self.id}/replay/{step}{key}")
        if replayed.json().get("finished") is True:
            # Once the game is over its replay reveals every hand, as its record gives the
            # seed: the game's end, not a leak (kept out of what is searched, as the record).
            assert "hands" in replayed.json() or self.game == "colorcity"
        else:
            anonymous.keep(replayed.text)
        if not self.over:  # (once over, asking would have the game analysed meanwhile)
            self.ask_analysis(key)
        record = self.client.get(f"/api/tables/{self.id}/record{key}")
        if record.status_code == 200:
            # The game may have ended since the table was read (the bots play on): it must
            # be over by now.
            after = self.client.get(f"/api/tables/{self.id}{key}").json()
            assert after["status"] != "playing", "the record was handed out during the game"
        else:
            assert record.status_code == 409
            assert record.json()["code"] == "record_after_game"
            anonymous.keep(record.text)

    def ask_analysis(self, key: str) -> None:
        """The analysis sees every hand (issue 32): like the record, it is for games that are
        over, and refused until then."""
        analysis = self.client.get(f"/api/tables/{self.id}/analysis{key}")
        if analysis.status_code == 200:
            after = self.client.get(f"/api/tables/{self.id}{key}").json()
            assert after["status"] != "playing", "the analysis was handed out during the game"
        else:
            assert analysis.status_code == 409
            assert analysis.json()["code"] == "analysis_after_game"
            self.received["anonymous"].keep(analysis.text)

    def move(self, name: str, seat: int) -> bool:
        """Seat ``seat``'s page makes a move if it is its turn (now and then, in Centrix,
        taking its play back and making another); True if it did."""
        state = self.latest.get(name)
        if state is None or state["actor"] != seat or state["active"] != seat:
            return False
        view = state["view"]
        if self.rng.random() < HINTS:
            # A hint from the seat's own view: its answer is searched like every other.
            self.sockets[name].send_json(
                {"type": "hint", "seat": seat, "level": self.rng.choice((1, 2, 3))}
            )
            self.pump(name)
            assert any(d.get("type") == "hint" for _, d in self.received[name].texts[-8:])
        if self.game == "centrix":
            if state["can_undo"] and self.rng.random() < 0.15:
                self.send(name, {"type": "undo", "seat": seat}, state)
                return True
            action = self.rng.choice(notations(view["legal"]))
        elif view["expects"] == "decision":
            action = self.rng.choice(view["decisions"])
        else:
            speed = self.rng.uniform(0.9, 1.6)
            action = (
                f"{self.rng.uniform(-20, 20):.1f} {self.rng.uniform(-10, 10):.1f} {speed:.2f} 0"
            )
        self.send(name, {"type": "act", "seat": seat, "action": action}, state)
        return True

    def send(self, name: str, message: dict[str, Any], state: dict[str, Any]) -> None:
        if "revision" in state:  # the protocol of issue 14: the revision seen, a message id
            self.message_ids += 1
            message = {**message, "revision": state["revision"], "id": f"s-{self.message_ids}"}
        self.sockets[name].send_json(message)
        self.pump(name)

    def play_out(self, rounds: int = 20_000) -> None:
        for _ in range(rounds):
            if self.over:
                break
            moved = False
            for seat in self.humans:
                name = f"seat {seat}"
                self.pump(name)
                moved = self.move(name, seat) or moved
            self.pump("spectator")
            if self.rng.random() < self.chat:
                name = self.rng.choice(list(self.sockets))
                said = self.rng.choice(({"text": "nice one"}, {"phrase": "good_luck"}))
                self.sockets[name].send_json({"type": "chat", **said})
                self.pump(name)
            self.poll()
            if not moved:
                time.sleep(0.01)  # a bot is thinking
        assert self.over, "the game did not end"
        for name in self.sockets:
            self.pump(name)
        self.poll()

    def record(self) -> tuple[str, GameRecord]:
        key = f"?key={self.watch}" if self.watch else ""
        response = self.client.get(f"/api/tables/{self.id}/record{key}")
        assert response.status_code == 200
        return response.text, GameRecord.from_json(response.text)


# ---------------------------------------------------------------- checks


def walk_keys(data: Any) -> Iterator[str]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield str(key)
            yield from walk_keys(value)
    elif isinstance(data, list):
        for value in data:
            yield from walk_keys(value)


def texts_of(text: str, data: Any) -> tuple[str, str]:
    """The text as sent and re-written compactly (so that a search does not miss a list
    for its spacing)."""
    return text, json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def assert_absent(needle: str, text: str, data: Any, what: str, where: str) -> None:
    for haystack in texts_of(text, data):
        assert needle not in haystack, f"{where} received {what} ({needle!r})"


def check_tokens(table: Table, received: Received) -> None:
    for text, data in received.texts:
        for secret, owner in table.secrets.items():
            digest = hashlib.sha256(secret.encode()).hexdigest()
            assert_absent(digest, text, data, "a token's hash", received.name)
            if owner is None or owner != received.seat:
                assert_absent(secret, text, data, "a token not its own", received.name)


def check_keys(received: Received) -> None:
    for _, data in received.texts:
        named = set(walk_keys(data)) & SECRET_KEYS
        assert not named, f"{received.name} received fields {named}: {data!r:.300}"


def seed_texts(seed: int) -> list[str]:
    return [str(seed), f"{seed:x}", f"{seed:016x}"]


def centrix_states(record: GameRecord) -> dict[tuple[str, ...], CentrixState]:
    """A memo of the full state after each line of plays, from the record's set-up."""
    colours = [seat["colour"] for seat in record.seats]
    first = record.setup.get("first", 0)
    start = CentrixState.new(
        colours, seed=record.seed, first=first, rules=Rules.from_dict(record.rules)
    )
    return {(): start}


def centrix_state_at(memo: dict[tuple[str, ...], CentrixState], log: list[str]) -> CentrixState:
    line = tuple(log)
    known = max(i for i in range(len(line) + 1) if line[:i] in memo)
    state = memo[line[:known]].copy()
    for i in range(known, len(line)):
        state.push(line[i])
        memo[line[: i + 1]] = state.copy()
    return state


def check_centrix(table: Table, record: GameRecord) -> int:
    """The structural and text checks for Centrix; the number of views checked."""
    memo = centrix_states(record)
    checked = 0
    for received in table.received.values():
        for text, data in received.texts:
            if not isinstance(data, dict) or not isinstance(data.get("view"), dict):
                continue  # no view (the list of tables, a welcome): tokens and keys only
            # A state is the page's seat's view; a replay step is the spectator's.
            seat = received.seat if data.get("type") == "state" else None
            view = data["view"]
            full = centrix_state_at(memo, [entry["notation"] for entry in view["log"]])
            checked += 1
            if seat is None:
                assert view["hand"] is None, f"{received.name} was sent a hand"
            else:
                assert sorted(view["hand"]) == sorted(str(c) for c in full.hands[seat])
            for s, player in enumerate(view["players"]):
                assert player["hand_size"] == len(full.hands[s])
            own = full.hands[seat] if seat is not None else None
            for s, hand in enumerate(full.hands):
                if s == seat or len(hand) < 3 or hand == own:
                    continue
                cards = [str(c) for c in sorted(hand)]
                assert_absent(
                    json.dumps(cards, separators=(",", ":")),
                    text,
                    data,
                    f"seat {s}'s hand",
                    received.name,
                )
                assert_absent("".join(cards), text, data, f"seat {s}'s hand", received.name)
            draw = [str(c) for c in full.draw]
            for i in range(len(draw) - DRAW_STRETCH + 1):
                stretch = draw[i : i + DRAW_STRETCH]
                needle = json.dumps(stretch, separators=(",", ":"))[1:-1]
                assert_absent(needle, text, data, "the draw order", received.name)
                assert_absent("".join(stretch), text, data, "the draw order", received.name)
            for secret in (*seed_texts(record.seed), f"{full.key:016x}", str(full.key)):
                assert_absent(secret, text, data, "the seed or the generator key", received.name)
    return checked


def check_colorcity(table: Table, record: GameRecord) -> int:
    keys = set()
    for number in range(len(record.actions) + 1):
        partial = GameRecord(
            game=record.game,
            rules=record.rules,
            seed=record.seed,
            seats=record.seats,
            actions=record.actions[:number],
            setup=record.setup,
        )
        keys.add(colorcity_replay(partial).key)
    checked = 0
    for received in table.received.values():
        for text, data in received.texts:
            checked += 1
            for key in keys:
                for secret in (f"{key:016x}", str(key)):
                    assert_absent(secret, text, data, "a generator key", received.name)
            for secret in seed_texts(record.seed):
                assert_absent(secret, text, data, "the seed", received.name)
    return checked


def check_table(table: Table) -> None:
    text, record = table.record()
    # The needles are what a leak would hold: the record itself (which is for the game's
    # end) holds the seed, as the search would find it.
    assert str(record.seed) in text
    for received in table.received.values():
        assert received.texts, f"{received.name} received nothing"
        check_keys(received)
        check_tokens(table, received)
    checked = (
        check_centrix(table, record) if table.game == "centrix" else check_colorcity(table, record)
    )
    assert checked > 0


# ---------------------------------------------------------------- whole games


def test_no_client_learns_a_secret_through_the_clock_chat_spectator_link_and_rematch(
    client: TestClient,
) -> None:
    """Issue 31: the surfaces added since issue 14 — a clock, the chat of both sides, an
    unlisted table's spectator link, forwarding headers, the rematch — over a whole game and
    into the rematch, whose first states are checked as well (tokens and keys: its deal is
    secret until it is played out, and nothing of it may be sent)."""
    seats = [
        {"kind": "device", "name": "Ann"},
        {"kind": "invite", "name": "Bo"},
        {"kind": "bot", "level": 1},
    ]
    body = {
        "game": "centrix",
        "seats": seats,
        "first": 0,
        "rules": {"max_turns": 40},
        "clock": {"kind": "realtime", "bank_seconds": 3600},
    }
    table = Table(client, body, random.Random(31), chat=0.3)
    assert table.watch is not None  # unlisted: its spectator watches through the link
    with ExitStack() as stack:
        table.open(stack)
        table.play_out()
        assert any(
            data.get("type") == "chat"
            for received in table.received.values()
            for _, data in received.texts
            if isinstance(data, dict)
        )
        for seat in table.humans:
            table.sockets[f"seat {seat}"].send_json({"type": "rematch"})
            table.pump(f"seat {seat}")
        for name in table.sockets:
            table.pump(name)
        following = table.latest[f"seat {table.humans[0]}"]["seating"]["next"]
        assert following, "the rematch was not made"
        # The same pages follow to the rematch with what they hold.
        rematch = Table.following(table, following)
        rematch.open(stack)
        for name in rematch.sockets:
            rematch.pump(name)
    check_table(table)
    for received in rematch.received.values():
        check_keys(received)
        check_tokens(rematch, received)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_client_learns_a_secret_over_a_whole_centrix_game(
    client: TestClient, players: int
) -> None:
    seats: list[dict[str, Any]] = [{"kind": "device", "name": "Ann"}]
    if players >= 3:
        seats.append({"kind": "invite", "name": "Bo"})
    seats += [{"kind": "bot", "level": 1}] * (players - len(seats))
    body = {"game": "centrix", "seats": seats, "first": 0, "rules": {"max_turns": 60}}
    if players == 2:
        # No invite: a seed may be given, and is then as secret as the server's own.
        body["seed"] = 2**61 + 12_345
    table = Table(client, body, random.Random(players))
    with ExitStack() as stack:
        table.open(stack)
        table.play_out()
    check_table(table)


def test_no_client_learns_a_secret_over_a_whole_colorcity_game(client: TestClient) -> None:
    body = {
        "game": "colorcity",
        "seats": [
            {"kind": "device", "role": "green", "skill": "normal"},
            {"kind": "invite", "role": "purple", "skill": "shaky"},
            {"kind": "bot", "level": 1, "role": "green"},
            {"kind": "bot", "level": 1, "role": "purple"},
        ],
        "first": "green",
        "rules": {"max_turns": 8},
    }
    table = Table(client, body, random.Random(7))
    with ExitStack() as stack:
        table.open(stack)
        table.play_out()
    check_table(table)
