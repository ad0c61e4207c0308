"""Finishing every game (docs/rules/table.md): clocks, stand-in bots, resigning,
abandonment and rematches, through the table manager with a clock of the test's own (no
test waits for real time to pass), and the store's clock columns on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import gamenight.web.bots
from gamenight.centrix import CentrixState
from gamenight.web.app import create_app
from gamenight.web.bots import think
from gamenight.web.protocol import TableIn, patch
from gamenight.web.referee import REFILL_MS
from gamenight.web.refusals import RefusedError
from gamenight.web.room import Connection
from gamenight.web.settings import Settings
from gamenight.web.store.sql import SqlStore
from gamenight.web.tables import LiveTable, TableManager
from tests.web.bodies import CENTRIX_2
from tests.web.postgres import postgres_database
from tests.web.test_api import create, receive
from tests.web.test_room import Socket, run_alone
from tests.web.test_scale_out import REDIS

from .hosts import TEST_HOSTS

START = 1_800_000_000_000  # the fake clock's start, in ms since 1970


class Clock:
    def __init__(self) -> None:
        self.ms = START

    def __call__(self) -> int:
        return self.ms

    def advance(self, seconds: float) -> None:
        self.ms += round(seconds * 1000)


def body(rules: dict[str, Any] | None = None, **clock: Any) -> TableIn:
    return TableIn.model_validate({**CENTRIX_2, "rules": rules or {}, "clock": clock})


def three(**clock: Any) -> TableIn:
    seats = [{"kind": "device", "name": n} for n in ("Ann", "Bo", "Cy")]
    return TableIn.model_validate({**CENTRIX_2, "seats": seats, "clock": clock})


def sent(socket: Socket, kind: str) -> list[dict[str, Any]]:
    """The messages of ``kind`` the page was sent; for ``"state"``, every state the page had:
    the whole ones and each ``change`` applied to the state before it (web.protocol)."""
    messages = list(map(json.loads, socket.sent))
    if kind != "state":
        return [m for m in messages if m["type"] == kind]
    states: list[dict[str, Any]] = []
    for message in messages:
        if message["type"] == "state":
            states.append(message)
        elif message["type"] == "change":
            states.append(patch(states[-1], message["diff"]))
    return states


class Harness:
    """A table manager on a store of its own, a fake clock, and pages to open seats with."""

    def __init__(self, store: SqlStore, clock: Clock) -> None:
        self.clock = clock
        self.threads = ThreadPoolExecutor(2)
        self.manager = TableManager(store, executor=self.threads, now=clock)

    async def page(self, table: LiveTable, *tokens: str) -> tuple[Connection, Socket]:
        socket = Socket()
        connection = Connection(socket)  # type: ignore[arg-type]
        await self.manager.hello(table, connection, list(tokens))
        return connection, socket

    async def play(self, table: LiveTable, page: Connection, seat: int) -> None:
        """One play of ``seat``'s, the first legal one."""
        play = str(table.state.legal_plays()[0])
        await self.manager.act(table, seat, play, page, seen=table.referee.revision)

    async def turn(self, table: LiveTable, page: Connection) -> None:
        """Plays of the actor until another seat acts."""
        seat = table.referee.actor
        assert seat is not None
        while table.referee.actor == seat:
            await self.play(table, page, seat)


def run(test: Callable[[Harness], Awaitable[None]], store: SqlStore) -> None:
    async def go() -> None:
        harness = Harness(store, Clock())
        try:
            await test(harness)
        finally:
            harness.manager.close()
            harness.threads.shutdown(wait=False, cancel_futures=True)

    run_alone(go())


async def until(check: Callable[[], bool], rounds: int = 6000) -> None:
    """Let the event loop (and the bots' threads) run until ``check`` holds."""
    for _ in range(rounds):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the table never got there")


@pytest.fixture
def store(tmp_path: Path) -> SqlStore:
    return SqlStore(f"sqlite:///{tmp_path / 'g.sqlite3'}")


# ---------------------------------------------------------------- clocks


def test_t6_a_realtime_clock_runs_only_for_the_actor_and_adds_the_increment(
    store: SqlStore,
) -> None:
    async def test(h: Harness) -> None:
        table, seats = await h.manager.create(body(kind="realtime", bank_seconds=60))
        ann, _ = await h.page(table, seats[0]["token"], seats[1]["token"])
        h.clock.advance(10)
        message = h.manager.state_message(table, [0, 1])
        assert message["clock"] == {
            "kind": "realtime",
            "left": [50_000, 60_000],
            "at": h.clock.ms,
            "actor": 0,
        }
        await h.turn(table, ann)
        h.clock.advance(4)
        left = h.manager.state_message(table, [0, 1])["clock"]["left"]
        assert left == [55_000, 56_000]  # 60 - 10 + the increment of 5; Bo's 4 s run
        # The clock is stored with the play: another server (a restart) reads it back.
        again = TableManager(store, now=h.clock)
        reloaded = await again.get(table.id)
        assert again.state_message(reloaded, [])["clock"]["left"] == [55_000, 56_000]

    run(test, store)


def test_t6_a_turn_based_clock_starts_each_turn_full(store: SqlStore) -> None:
    async def test(h: Harness) -> None:
        table, seats = await h.manager.create(body(kind="turn", turn_hours=2))
        ann, _ = await h.page(table, seats[0]["token"], seats[1]["token"])
        h.clock.advance(3600)
        await h.turn(table, ann)
        left = h.manager.state_message(table, [])["clock"]["left"]
        assert left == [7_200_000, 7_200_000]

    run(test, store)


@pytest.mark.parametrize(
    ("clock", "field"),
    [
        ({"kind": "blitz"}, "kind"),
        ({"kind": "realtime", "bank_seconds": 5}, "bank_seconds"),
        ({"kind": "turn", "turn_hours": 1000}, "turn_hours"),
        ({"bot_level": 9}, "bot_level"),
        ({"on_timeout": "shrug"}, "on_timeout"),
        ({"abandon_hours": 0}, "abandon_hours"),
        ({"grace_seconds": float("nan")}, "grace_seconds"),
    ],
)
def test_t7_clock_values_out_of_bounds_are_refused_with_a_code(
    store: SqlStore, clock: dict[str, Any], field: str
) -> None:
    manager = TableManager(store)
    with pytest.raises(RefusedError) as refused:
        asyncio.run(manager.create(body(**clock)))
    assert refused.value.code == "clock_bounds"
    assert refused.value.params["field"] == field
    manager.close()


def test_t7_the_api_refuses_a_clock_out_of_bounds(tmp_path: Path) -> None:
    settings = Settings(f"sqlite:///{tmp_path / 'g.sqlite3'}", allowed_hosts=TEST_HOSTS)
    with ThreadPoolExecutor(1) as bots, TestClient(create_app(settings, bots)) as client:
        answer = client.post(
            "/api/tables", json={**CENTRIX_2, "clock": {"kind": "realtime", "bank_seconds": 1}}
        )
        assert answer.status_code == 422
        assert answer.json()["code"] == "clock_bounds"
        assert answer.json()["params"] == {"field": "bank_seconds", "allowed": "15–7200"}


# ---------------------------------------------------------------- stand-ins


def test_t8_a_seat_out_of_time_is_played_by_a_bot_until_it_returns(store: SqlStore) -> None:
    async def test(h: Harness) -> None:
        table, seats = await h.manager.create(body(kind="realtime", bank_seconds=30, bot_level=1))
        ann, _ = await h.page(table, seats[0]["token"])
        h.clock.advance(31)
        # A play after the flag is refused, and the stand-in takes the seat at once.
        with pytest.raises(RefusedError) as late:
            await h.play(table, ann, 0)
        assert late.value.code == "out_of_time"
        assert table.referee.seats[0].stand_in == 1
        assert h.manager.state_message(table, [0])["seating"]["stand_ins"] == [0]
        await until(lambda: table.referee.actor == 1)  # the bot played Ann's turn
        # While the bot plays for her, Ann cannot play; she takes her seat back.
        h.clock.advance(2)
        await h.manager.reclaim(table, 0, ann)
        assert table.referee.seats[0].stand_in is None
        assert table.referee.clock is not None
        assert table.referee.clock.left[0] >= REFILL_MS
        assert table.referee.seen[0] == h.clock()  # (her grace counts from now)
        stored = store.sync.load(table.id)  # the refill is stored, for another server
        assert stored is not None
        assert stored.clock is not None
        assert stored.clock["left"][0] >= REFILL_MS
        with pytest.raises(RefusedError) as twice:
            await h.manager.reclaim(table, 0, ann)
        assert twice.value.code == "not_stood_in"

    run(test, store)


def test_t8_an_online_game_never_stalls_both_seats_out_of_time_finish_by_bots(
    store: SqlStore,
) -> None:
    async def test(h: Harness) -> None:
        short = {"max_turns": 12}  # (a short game: the bots play it to its end)
        table, seats = await h.manager.create(
            body(short, kind="realtime", bank_seconds=30, bot_level=1)
        )
        await h.page(table, seats[0]["token"])
        h.clock.advance(31)
        await h.manager.tick(table)  # Ann's flag falls
        await until(lambda: table.referee.actor == 1)
        h.clock.advance(31)
        await h.manager.tick(table)  # and Bo's
        assert [s.stand_in for s in table.referee.seats] == [1, 1]
        await until(lambda: table.referee.finished)
        assert table.referee.outcome is not None
        assert table.referee.outcome.reason == "turn_cap"

    run(test, store)


def test_t8_an_invited_seat_away_past_the_grace_is_stood_in_for(store: SqlStore) -> None:
    async def test(h: Harness) -> None:
        invite = TableIn.model_validate(
            {
                "game": "centrix",
                "seats": [{"kind": "device", "name": "Ann"}, {"kind": "invite", "name": "Bo"}],
                "first": 1,
                "clock": {"grace_seconds": 60},
            }
        )
        table, seats = await h.manager.create(invite)
        await h.page(table, seats[0]["token"])
        h.clock.advance(600)
        await h.manager.tick(table)
        assert table.referee.seats[1].stand_in is None  # nobody has come to the invite yet
        bo, _ = await h.page(table, seats[1]["token"])  # Bo comes, and goes away again
        h.manager.leave(table, bo)
        h.clock.advance(59)
        await h.manager.tick(table)
        assert table.referee.seats[1].stand_in is None  # within the grace
        h.clock.advance(2)
        await h.manager.tick(table)
        assert table.referee.seats[1].stand_in == 2

    run(test, store)


# ---------------------------------------------------------------- endings


def test_t1_resigning_a_two_seat_game_ends_it_and_the_record_replays(store: SqlStore) -> None:
    async def test(h: Harness) -> None:
        table, seats = await h.manager.create(body())
        ann, _ = await h.page(table, seats[0]["token"], seats[1]["token"])
        await h.turn(table, ann)
        await h.manager.resign(table, 1, ann)
        outcome = table.referee.outcome
        assert outcome is not None
        assert (outcome.places, outcome.reason, outcome.seats) == ((1, 2), "resigned", (1,))
        assert table.referee.actor is None
        view = h.manager.state_message(table, [0, 1])["view"]
        assert view["outcome"] == {"places": [1, 2], "reason": "resigned", "seats": [1]}
        with pytest.raises(RefusedError) as over:
            await h.play(table, ann, 0)
        assert over.value.code == "game_over"
        # The table as stored says so too, and its record replays to the ending.
        stored = store.sync.load(table.id)
        assert stored is not None
        assert (stored.status, stored.deadline) == ("resigned", None)
        record = table.referee.record()
        record.outcome = outcome
        assert CentrixState.replay(record.to_json()).outcome is None

    run(test, store)


def test_t1_resigning_at_a_larger_table_gives_the_seat_to_a_bot_for_good(store: SqlStore) -> None:
    async def test(h: Harness) -> None:
        table, seats = await h.manager.create(three(bot_level=1))
        cy, _ = await h.page(table, seats[2]["token"])
        await h.manager.resign(table, 2, cy)
        assert not table.referee.finished
        assert (table.referee.seats[2].stand_in, table.referee.seats[2].resigned) == (1, True)
        with pytest.raises(RefusedError) as refused:
            await h.manager.reclaim(table, 2, cy)
        assert refused.value.code == "resigned_for_good"
        bo = Connection(Socket())  # type: ignore[arg-type]
        with pytest.raises(RefusedError) as not_hers:
            await h.manager.resign(table, 1, bo)
        assert not_hers.value.code == "not_your_seat"

    run(test, store)


def test_t1_a_seat_resigned_at_a_larger_table_has_its_time_refilled_and_its_bot_plays(
    store: SqlStore,
) -> None:
    async def test(h: Harness) -> None:
        table, seats = await h.manager.create(three(kind="realtime", bank_seconds=20, bot_level=1))
        both, _ = await h.page(table, seats[0]["token"], seats[1]["token"])
        cy, _ = await h.page(table, seats[2]["token"])
        h.clock.advance(5)
        await h.manager.resign(table, 2, cy)
        # The bot gets the seat's refill (T8), stored with the seats for another server.
        assert table.referee.clock is not None
        assert table.referee.clock.left[2] >= REFILL_MS
        stored = store.sync.load(table.id)
        assert stored is not None
        assert stored.clock is not None
        assert stored.clock["left"][2] >= REFILL_MS
        while table.referee.actor != 2:
            await h.turn(table, both)
        await until(lambda: table.referee.actor != 2)  # the bot played the resigned seat

    run(test, store)


def test_t2_a_flag_loses_when_the_host_said_so(store: SqlStore) -> None:
    async def test(h: Harness) -> None:
        table, seats = await h.manager.create(
            body(kind="realtime", bank_seconds=30, on_timeout="lose")
        )
        await h.page(table, seats[0]["token"])
        h.clock.advance(30)
        await h.manager.tick(table)
        outcome = table.referee.outcome
        assert outcome is not None
        assert (outcome.places, outcome.reason, outcome.seats) == ((2, 1), "out_of_time", (0,))

    run(test, store)


def test_t3_an_abandoned_table_ends_after_the_hosts_limit_even_after_a_restart(
    store: SqlStore,
) -> None:
    async def test(h: Harness) -> None:
        table, seats = await h.manager.create(body(abandon_hours=1))
        ann, _ = await h.page(table, seats[0]["token"])
        h.clock.advance(7200)
        await h.manager.tick(table)
        assert not table.referee.finished  # Ann's page is open
        h.manager.leave(table, ann)
        left_at = h.clock.ms

        def stored_active() -> int | None:
            stored = store.sync.load(table.id)
            return None if stored is None or stored.clock is None else stored.clock["active"]

        await until(lambda: stored_active() == left_at)  # abandonment counts from here
        # Another server starts (this one's table in memory plays no part): when the limit
        # has passed, it finds the table due in the store and ends it.
        later = TableManager(store, now=h.clock)
        h.clock.advance(3599)
        await later.wake_due()
        assert store.sync.load(table.id).status == "playing"  # type: ignore[union-attr]
        h.clock.advance(2)
        await later.wake_due()
        stored = store.sync.load(table.id)
        assert stored is not None
        assert stored.status == "abandoned"
        assert stored.outcome == {"places": [1, 1], "reason": "abandoned"}
        later.close()

    run(test, store)


def test_a_new_table_is_stored_with_its_clock_and_deadline(store: SqlStore) -> None:
    async def test(h: Harness) -> None:
        table, _ = await h.manager.create(body(abandon_hours=1))
        stored = store.sync.load(table.id)
        assert stored is not None
        assert table.referee.clock is not None
        assert stored.clock == table.referee.clock.to_dict()
        assert stored.deadline == datetime.fromtimestamp(h.clock.ms / 1000 + 3600, UTC)
        assert table.referee.stored.id == table.id == stored.id

    run(test, store)


# ---------------------------------------------------------------- rematch


def test_t10_a_rematch_moves_the_first_seat_on_once_every_seat_accepts(store: SqlStore) -> None:
    async def test(h: Harness) -> None:
        made = TableIn.model_validate(
            {
                **CENTRIX_2,
                "seed": None,
                "seats": [{"kind": "device", "name": "Ann"}, {"kind": "bot", "level": 1}],
                "clock": {"kind": "turn", "turn_hours": 12},
            }
        )
        table, seats = await h.manager.create(made)
        ann, socket = await h.page(table, seats[0]["token"])
        with pytest.raises(RefusedError) as early:
            await h.manager.rematch(table, ann)
        assert early.value.code == "rematch_in_play"
        await h.manager.resign(table, 0, ann)
        await h.manager.rematch(table, ann)  # the bot accepts at once
        await asyncio.sleep(0.05)
        # Ann's page hears of the new table in its state (and so would a page elsewhere).
        told = sent(socket, "state")[-1]["seating"]
        assert told["rematch"] == [0]
        new = await h.manager.get(told["next"])
        assert new.id != table.id
        # Ann started the first game: the bot starts this one (and may have played already).
        assert new.referee.stored.setup["first"] == 1
        assert new.referee.stored.seed != table.referee.stored.seed
        assert new.referee.clock is not None
        assert new.referee.clock.settings == table.referee.clock.settings  # type: ignore[union-attr]
        assert [s.kind for s in new.referee.seats] == ["human", "bot"]
        # Ann's token opens her seat there too; asking again changes nothing.
        page, _ = await h.page(new, seats[0]["token"])
        assert page.seats == [0]
        await h.manager.rematch(table, ann)
        assert h.manager.state_message(table, [0])["seating"]["next"] == new.id

    run(test, store)


def test_t10_a_rematch_has_its_tables_host(store: SqlStore) -> None:
    # The host archives and deletes the rematch too (web.yours: the host's token's hash).
    async def test(h: Harness) -> None:
        made = TableIn.model_validate(
            {
                **CENTRIX_2,
                "seats": [{"kind": "device", "name": "Ann"}, {"kind": "bot", "level": 1}],
            }
        )
        table, seats = await h.manager.create(made, None, "the-hosts-hash")
        ann, socket = await h.page(table, seats[0]["token"])
        await h.manager.resign(table, 0, ann)
        await h.manager.rematch(table, ann)  # the bot accepts at once
        await asyncio.sleep(0.05)
        new = await h.manager.get(sent(socket, "state")[-1]["seating"]["next"])
        assert new.referee.stored.host_hash == "the-hosts-hash"

    run(test, store)


def test_t10_a_rematch_waits_for_every_human_seat(store: SqlStore) -> None:
    async def test(h: Harness) -> None:
        table, seats = await h.manager.create(body())
        ann, ann_socket = await h.page(table, seats[0]["token"])
        bo, bo_socket = await h.page(table, seats[1]["token"])
        await h.manager.resign(table, 0, ann)
        await h.manager.rematch(table, ann)
        assert h.manager.state_message(table, [0])["seating"]["rematch"] == [0]
        assert h.manager.state_message(table, [0])["seating"]["next"] is None
        await h.manager.rematch(table, bo)
        await asyncio.sleep(0.05)
        to_ann = sent(ann_socket, "state")[-1]["seating"]
        to_bo = sent(bo_socket, "state")[-1]["seating"]
        assert to_ann == to_bo
        assert to_ann["rematch"] == [0, 1]
        new = await h.manager.get(to_ann["next"])
        assert new.referee.actor == 1
        # The acceptances are the store's: another server counts them too.
        stored = store.sync.load(table.id)
        assert stored is not None
        assert [seat["rematch"] for seat in stored.seats] == [True, True]
        assert stored.setup["rematch"] == new.id
        for seat, token in enumerate(s["token"] for s in seats):
            page, _ = await h.page(new, token)
            assert page.seats == [seat]

    run(test, store)


# ---------------------------------------------------------------- through the app


def test_a_resignation_over_the_socket_gives_a_record_that_replays_to_it(
    client: TestClient, join: Callable[..., Any]
) -> None:
    made = create(client, {**CENTRIX_2, "clock": {"kind": "realtime"}})
    page = join(made["id"], *(s["token"] for s in made["seats"]))
    assert receive(page, "state")["clock"]["kind"] == "realtime"
    page.send_json({"type": "reclaim", "seat": 0})
    assert receive(page, "error")["code"] == "not_stood_in"
    page.send_json({"type": "rematch"})
    assert receive(page, "error")["code"] == "rematch_in_play"
    page.send_json({"type": "resign", "seat": 0})
    state = receive(page, "state")
    assert state["view"]["outcome"] == {"places": [2, 1], "reason": "resigned", "seats": [0]}
    assert state["actor"] is None
    assert client.get(f"/api/tables/{made['id']}").json()["status"] == "resigned"
    record = client.get(f"/api/tables/{made['id']}/record")
    assert record.status_code == 200
    assert record.json()["outcome"] == state["view"]["outcome"]
    assert CentrixState.replay(record.text).outcome is None  # the table ended it, not the rules
    page.send_json({"type": "resign", "seat": 1})
    assert receive(page, "error")["code"] == "game_over"


def test_the_state_message_s_clock_and_seating_stay_small(store: SqlStore) -> None:
    """Prints the bytes the clock and the seating add to a state message (Contract A: each
    later message carries them only when they change)."""

    async def test(h: Harness) -> None:
        seats = [{"kind": "device", "name": f"P{i}"} for i in range(6)]
        made = {**CENTRIX_2, "seats": seats, "clock": {"kind": "realtime", "bank_seconds": 7200}}
        table, _ = await h.manager.create(TableIn.model_validate(made))
        message = h.manager.state_message(table, [])
        sizes = {
            key: len(json.dumps(message[key], separators=(",", ":")))
            for key in ("clock", "seating")
        }
        print(
            "\nstate message, 6 seats, real-time:"
            f" clock {sizes['clock']} B, seating {sizes['seating']} B"
        )
        assert sizes["clock"] + sizes["seating"] < 300

    run(test, store)


def test_on_two_servers_exactly_one_plays_for_a_seat_that_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A seat that leaves a three-seat game is played by a stand-in through the bot runner,
    so with two servers (Redis's lease) each of its decisions is thought once."""
    thoughts: list[int] = []
    counting = threading.Lock()

    def recorded(game: str, view: Any, level: int, seed: int, seconds: float | None) -> str:
        with counting:
            thoughts.append(level)
        return think(game, view, level, seed, seconds)

    monkeypatch.setattr(gamenight.web.bots, "think", recorded)
    three_seats = {
        "game": "centrix",
        "seats": [
            {"kind": "device", "name": "Ann"},
            {"kind": "bot", "level": 1},
            {"kind": "bot", "level": 1},
        ],
        "rules": {"max_turns": 6},
        "clock": {"bot_level": 3},
    }
    with postgres_database("gn_finish_") as url, ExitStack() as stack:
        settings = Settings(url, redis_url=REDIS, presence_ttl=2.0, allowed_hosts=TEST_HOSTS)
        one, two = (
            stack.enter_context(
                TestClient(create_app(settings, stack.enter_context(ThreadPoolExecutor(1))))
            )
            for _ in range(2)
        )
        made = create(one, three_seats)
        watcher = stack.enter_context(two.websocket_connect(f"/ws/tables/{made['id']}"))
        watcher.send_json({"type": "hello", "tokens": []})
        receive(watcher, "state")
        with one.websocket_connect(f"/ws/tables/{made['id']}") as ann:
            ann.send_json({"type": "hello", "tokens": [made["seats"][0]["token"]]})
            receive(ann, "state")
            ann.send_json({"type": "resign", "seat": 0})
            assert receive(ann, "state")["seating"]["stand_ins"] == [0]
        store = SqlStore(url)
        for _ in range(6000):
            stored = store.sync.load(made["id"])
            if stored is not None and stored.status != "playing":
                break
            time.sleep(0.01)
        assert stored is not None
        assert stored.status == "turn_cap"
        played = len(stored.actions)
        store.engine.dispose()
    assert len(thoughts) == played, "a decision was thought on twice"
    assert thoughts.count(3) >= 2  # the stand-in, at the host's level, played her 2 turns
