"""What a live table holds as its game goes on (issue 20): only what undo and reconnection
need. Undo is of the seat's own plays within its turn, so once a turn is over the engine
forgets its plays; a page that comes late still gets the whole log, the same as a table
replayed from the store shows, and the finished game's record still replays it."""

from __future__ import annotations

import asyncio
import gc
import json
import weakref
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest

from gamenight.bots.registry import game_bots
from gamenight.centrix import native
from gamenight.centrix.state import PLAYS_PER_TURN
from gamenight.core.game import registry
from gamenight.web.protocol import TableIn
from gamenight.web.referee import Accepted, Referee
from gamenight.web.room import Connection
from gamenight.web.store.sql import SqlStore
from gamenight.web.tables import LiveTable, TableManager

from .test_room import Socket, run_alone

PATHS = ["compiled", "pure"]


@pytest.fixture(params=PATHS)
def path(request: pytest.FixtureRequest) -> Iterator[str]:
    """The Centrix engine's compiled core, and its Python reference (GAMENIGHT_PURE=1)."""
    if request.param == "compiled" and not native.COMPILED:
        pytest.skip("the compiled core is not built here")
    with native.pure() if request.param == "pure" else nullcontext():
        yield request.param


class Game:
    """A table whose every seat is a device page; a level-1 bot chooses each page's play."""

    def __init__(self, tmp_path: Path, game: str, players: int, seed: int, rules: Any) -> None:
        self.store = SqlStore(f"sqlite:///{tmp_path / 'memory.sqlite3'}")
        self.manager = TableManager(self.store)
        body = TableIn.model_validate(
            {"game": game, "seats": [{"kind": "device"}] * players, "seed": seed, "rules": rules}
        )
        self.table, self.seats = asyncio.run(self.manager.create(body))
        self.bot = game_bots(game).bot("level1", seed)
        self.pages: dict[int, Connection] = {}

    async def open(self) -> None:
        for seat, made in enumerate(self.seats):
            self.pages[seat] = Connection(Socket())  # type: ignore[arg-type]
            await self.manager.hello(self.table, self.pages[seat], [made["token"]])

    @property
    def referee(self) -> Referee:
        return self.table.referee

    async def play(self, message_id: str | None = None) -> Accepted:
        actor = self.referee.actor
        assert actor is not None
        action = str(self.bot.choose(self.table.state.view(actor)))
        return await self.manager.act(
            self.table,
            actor,
            action,
            self.pages[actor],
            seen=self.referee.revision,
            message_id=message_id,
        )

    async def late_page(self) -> dict[str, Any]:
        """The whole state a page that opens now is sent."""
        socket = Socket()
        await self.manager.hello(self.table, Connection(socket), [])  # type: ignore[arg-type]
        await asyncio.sleep(0.01)
        states = [json.loads(text) for text in socket.sent if text.startswith('{"type":"state"')]
        return dict(states[0])

    def replayed(self) -> LiveTable:
        """The table as a server that loads it from the store has it."""
        referee = run_alone(Referee.load(self.store, self.table.id))
        assert referee is not None
        return LiveTable(referee)


def test_a_centrix_table_keeps_the_plays_of_the_turn_alone(tmp_path: Path, path: str) -> None:
    game = Game(tmp_path, "centrix", 3, 11, {"max_turns": 24})
    held = []

    async def whole_game() -> dict[str, Any]:
        await game.open()
        while game.referee.actor is not None:
            await game.play()
            state = game.table.state
            # What undo can still take back: the plays of the turn in progress, no more.
            held.append(len(state.actions))
            assert len(state.actions) == (0 if state.is_over else state.plays_done)
        return await game.late_page()

    late = run_alone(whole_game())
    assert max(held) <= PLAYS_PER_TURN
    assert game.referee.version == len(held) > 3 * PLAYS_PER_TURN
    # A page that comes at the end sees the whole game, as a reloaded table shows it.
    again = game.replayed()
    assert late["view"] == again.game.view(again.state, None)
    assert late["last"] == again.referee.last
    assert len(late["view"]["log"]) == len(held)
    # And the finished game's record replays it to the same end.
    record = game.referee.record()
    assert len(record.actions) == len(held)
    replayed = registry["centrix"].replay(record)
    assert replayed.position() == game.table.state.position()
    game.manager.close()


def test_undo_within_the_turn_still_works_once_earlier_turns_are_forgotten(
    tmp_path: Path, path: str
) -> None:
    game = Game(tmp_path, "centrix", 2, 5, {})

    async def check() -> None:
        await game.open()
        for _ in range(4 * PLAYS_PER_TURN):  # a few turns, whose plays are forgotten
            await game.play()
        while game.table.state.plays_done:  # to the start of a turn
            await game.play()
        # Two plays of the turn, then each taken back in turn: every state as it was before
        # it, the last play of the turn before (whose undo record is gone) included.
        seat = game.referee.actor
        assert seat is not None
        shown = []
        for _ in range(2):
            shown.append(game.manager.state_message(game.table, [seat]))
            await game.play()
            assert game.referee.actor == seat  # (the seed gives a turn of three plays)
        assert len(game.table.state.actions) == 2
        while shown:
            await game.manager.undo(game.table, seat, game.pages[seat], seen=game.referee.revision)
            now = game.manager.state_message(game.table, [seat])
            assert {**now, "revision": 0} == {**shown.pop(), "revision": 0}
        assert game.manager.state_message(game.table, [seat])["can_undo"] is False
        # The turn played to its end: nothing of it can be taken back any more.
        while game.referee.actor == seat:
            await game.play()
        assert not game.table.state.actions

    run_alone(check())
    game.manager.close()


def test_a_color_city_table_keeps_no_history(tmp_path: Path) -> None:
    # Color City's pages take nothing back: each action is forgotten once it is stored.
    game = Game(tmp_path, "colorcity", 2, 3, {"max_turns": 3})
    held = []

    async def whole_game() -> dict[str, Any]:
        await game.open()
        while game.referee.actor is not None:
            await game.play()
            held.append(len(game.table.state.actions))
        return await game.late_page()

    late = run_alone(whole_game())
    assert held
    assert max(held) == 0
    again = game.replayed()
    assert late["view"] == again.game.view(again.state, None)
    assert late["last"] == again.referee.last
    assert len(late["view"]["log"]) == game.referee.version
    record = game.referee.record()
    assert registry["colorcity"].replay(record).position() == game.table.state.position()
    game.manager.close()


def accepted_alive() -> int:
    # (type, not isinstance: isinstance of a dead weak proxy raises ReferenceError)
    return sum(1 for o in gc.get_objects() if type(o) is Accepted)


def test_a_table_remembers_its_latest_messages_alone_and_the_store_answers_older_ones(
    tmp_path: Path,
) -> None:
    # A page resends only what it has not heard answered: the messages of just now. The
    # live table remembers the latest few for a resend's answer; the store's receipts (of
    # its latest receipts_kept revisions) answer an older one, as they do on another server.
    game = Game(tmp_path, "centrix", 2, 5, {})

    async def check() -> None:
        await game.open()
        before = accepted_alive()  # (other tests' tables may still hold theirs)
        first = await game.play(message_id="m0")
        for n in range(1, 120):
            await game.play(message_id=f"m{n}")
        # A bound on what a table holds whatever its length (the referee keeps 16); + 1: the
        # first answer, held here.
        remembered = accepted_alive() - before
        assert remembered <= 32 + 1, f"{remembered} acceptances kept in memory after 120 acts"
        # The first message sent again, as a page that reconnects late would: the same
        # answer, and the table untouched.
        revision = game.referee.revision
        again = await game.manager.act(
            game.table, 0, "anything", game.pages[0], seen=1, message_id="m0"
        )
        assert (again.kind, again.number, again.revision) == (
            first.kind,
            first.number,
            first.revision,
        )
        assert game.referee.revision == revision

    run_alone(check())
    game.manager.close()


@pytest.mark.parametrize("name", ["centrix", "colorcity"])
def test_a_dropped_table_and_its_closed_pages_leave_memory_at_once(
    tmp_path: Path, name: str
) -> None:
    # Without the cycle collector: a table or a page in a reference cycle would stay (with
    # its game) until a collection found it, and those of a busy server's finished games
    # piled up between collections, each of them longer for the pile.
    game = Game(tmp_path, name, 2, 5, {})

    async def check() -> tuple[weakref.ref[LiveTable], list[weakref.ref[Connection]]]:
        await game.open()
        for _ in range(6):
            await game.play()
        table, pages = weakref.ref(game.table), [weakref.ref(p) for p in game.pages.values()]
        for page in game.pages.values():
            game.manager.leave(game.table, page)
            page.stop()
        game.pages.clear()
        await asyncio.sleep(0.05)  # (the pages' writers end)
        game.manager.evict(now=float("inf"))
        del game.table
        return table, pages

    gc.collect()
    gc.disable()
    try:
        table, pages = run_alone(check())
        assert table() is None, "the dropped table is still in memory"
        assert [page() for page in pages] == [None, None], "a closed page is still in memory"
    finally:
        gc.enable()
        game.manager.close()
