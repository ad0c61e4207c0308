"""Live tables: each game being played, with its referee, its room of pages and its bot.

The table manager puts the pieces together: the referee decides and stores (web.referee),
the seat book says who holds which seat (web.seats), the room tells the pages
(web.room), and the bot runner thinks for the bots (web.bots). Every client is sent only
its own seat's view. Other server processes hear of changes through the events interface
(web.relay implements it for Redis; a single server needs none).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Executor
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from gamenight.web.bots import BotRunner
from gamenight.web.chat import TableChat, clean, visible
from gamenight.web.games import SeatSpec, get_game, new_seed
from gamenight.web.privacy import may_watch
from gamenight.web.protocol import Chat, TableIn, error
from gamenight.web.quotas import Limits
from gamenight.web.referee import Accepted, Referee
from gamenight.web.refusals import Code, RefusedError
from gamenight.web.room import Connection, Room
from gamenight.web.seats import Opened, Seat, SeatBook, hash_token, new_token
from gamenight.web.storage import Store

log = logging.getLogger("gamenight.web")
RESUMED = 1000  # the most bot tables a server resumes at start-up (the latest played first)


class TableEvents(Protocol):
    """What other server processes are told, and asked (web.relay, when scaled out)."""

    async def changed(self, table_id: str, revision: int) -> None:
        """A table changed here (an action, an undo, a seat)."""

    def held(self, table: LiveTable) -> None:
        """The seats this server's pages hold at ``table`` may have changed."""

    async def first_page(self, table: LiveTable) -> None:
        """``table`` is about to get its first page here: bring it, and who is online
        through other servers, up to date (never raises)."""

    def thinking(self, table_id: str, revision: int) -> AbstractAsyncContextManager[bool]:
        """Whether this server is the one to think for the bot at ``table_id`` at
        ``revision`` (the answer holds while the block runs; never raises)."""

    def chat(self, table_id: str, side: str, line: dict[str, Any]) -> None:
        """A chat line was said here at ``table_id``: the pages of ``side`` on the other
        servers hear it (web.chat; never raises, never waits)."""


def unlisted() -> RefusedError:
    return RefusedError(
        "this table is unlisted: watching it needs its spectator link", Code.UNLISTED
    )


class NoEvents:
    """A single server: nobody else to tell."""

    async def changed(self, table_id: str, revision: int) -> None:
        return None

    def held(self, table: LiveTable) -> None:
        return None

    async def first_page(self, table: LiveTable) -> None:
        return None

    @asynccontextmanager
    async def thinking(self, table_id: str, revision: int) -> AsyncIterator[bool]:
        yield True

    def chat(self, table_id: str, side: str, line: dict[str, Any]) -> None:
        return None


@dataclass
class LiveTable:
    referee: Referee
    room: Room = field(default_factory=Room)
    chat: TableChat = field(default_factory=TableChat)

    @property
    def id(self) -> str:
        return self.referee.id

    @property
    def game(self) -> Any:
        return self.referee.game

    @property
    def state(self) -> Any:
        return self.referee.state

    @property
    def lock(self) -> asyncio.Lock:
        return self.referee.lock

    @property
    def connections(self) -> list[Connection]:
        return self.room.connections


class TableManager:
    def __init__(
        self,
        store: Store,
        bot_workers: int = 1,
        executor: Executor | None = None,
        limits: Limits | None = None,
        *,
        bot_seconds: float = 20.0,
    ):
        self.store = store
        self.tables: dict[str, LiveTable] = {}
        self.bots = BotRunner(bot_workers, executor, seconds=bot_seconds)
        self.events: TableEvents = NoEvents()
        self._resuming: asyncio.Task[None] | None = None
        self.limits = limits or Limits()
        # Memory (issue 14, finding 8): when each live table was last used, oldest first,
        # and whether a socket is open at a table (before its hello, too: the app's gate).
        self.clock: Callable[[], float] = time.monotonic
        self.used: dict[str, float] = {}
        self.in_use: Callable[[str], bool] = lambda _: False
        # Tables being loaded (how many loads each), and those of them deleted meanwhile: a
        # load that read the table before its host deleted it must not bring it back.
        self.loading: dict[str, int] = {}
        self.deleted_loading: set[str] = set()

    def close(self) -> None:
        if self._resuming is not None:
            self._resuming.cancel()
        self.bots.close()

    def _live(self, referee: Referee) -> LiveTable:
        table = LiveTable(referee)
        table.room.on_held = lambda: self.events.held(table)
        self.tables[referee.id] = table
        self.touch(referee.id)
        return table

    # ---------------------------------------------------------------- memory

    def touch(self, table_id: str) -> None:
        """``table_id`` was used now: it is the last to leave memory."""
        self.used.pop(table_id, None)
        self.used[table_id] = self.clock()

    def idle(self, table: LiveTable) -> bool:
        """Nobody needs the table in memory: no page, no socket, no bot to play."""
        referee = table.referee
        bot_to_play = referee.actor is not None and referee.seats[referee.actor].is_bot
        return (
            not table.room
            and not self.in_use(table.id)
            and not bot_to_play
            and not self.bots.busy(table.id)
        )

    def evict(self, now: float | None = None) -> list[str]:
        """Let go of the tables idle for ``idle_seconds`` (they reload from the store when
        next asked for); their ids, least recently used first."""
        horizon = (self.clock() if now is None else now) - self.limits.idle_seconds
        gone = [
            table_id
            for table_id, used in self.used.items()
            if used <= horizon and self.idle(self.tables[table_id])
        ]
        for table_id in gone:
            self._drop(table_id)
        return gone

    def _make_room(self) -> None:
        """Before another table comes into memory: at the live-table limit, the least
        recently used idle table goes; if every one is in use, refuse."""
        if len(self.tables) < self.limits.live_tables:
            return
        for table_id in self.used:
            if self.idle(self.tables[table_id]):
                self._drop(table_id)
                return
        raise RefusedError(
            "the server has as many tables open as it can hold; try again later",
            Code.SERVER_FULL,
        )

    def _drop(self, table_id: str) -> None:
        del self.used[table_id]
        self.tables.pop(table_id)
        self.bots.stop(table_id)

    # ---------------------------------------------------------------- set-up

    def create(
        self,
        body: TableIn,
        privacy: dict[str, str] | None = None,
        host_hash: str | None = None,
    ) -> tuple[LiveTable, list[dict[str, Any]]]:
        """A new table; ``privacy`` (web.privacy) is kept in its stored set-up, ``host_hash``
        (web.yours) names its host."""
        game = get_game(body.game)
        if not game.min_seats <= len(body.seats) <= game.max_seats:
            raise RefusedError(
                f"{body.game} takes {game.min_seats}–{game.max_seats} seats",
                Code.SEAT_COUNT,
                game=body.game,
                low=game.min_seats,
                high=game.max_seats,
            )
        specs = []
        for i, seat in enumerate(body.seats):
            if seat.kind == "bot" and seat.level is None:
                raise RefusedError(
                    f"seat {i} is a bot: give it a level from 1 to 5", Code.BOT_LEVEL, seat=i
                )
            # Numbered by seat, so that two bots of one level are told apart.
            default = f"Bot {i + 1}" if seat.kind == "bot" else f"Player {i + 1}"
            # Shown in everyone's log and chat: cleaned as a chat line is.
            name = clean(seat.name)
            specs.append(
                SeatSpec(
                    "bot" if seat.kind == "bot" else "human",
                    name if visible(name) else default,
                    seat.level,
                    seat.role,
                    seat.skill,
                )
            )
        if body.seed is not None and any(seat.kind == "invite" for seat in body.seats):
            # Whoever knows the seed knows every hand and every draw to come.
            raise RefusedError(
                "seed: a table with invited players is shuffled by the server, so that nobody"
                " at it can know the deal",
                Code.SEED_WITH_INVITES,
            )
        seed = body.seed if body.seed is not None else new_seed()
        self._make_room()
        state, setup = game.new(specs, body.first, body.rules, seed)
        tokens: list[str | None] = []
        renew_keys: list[str | None] = []
        seats: list[Seat] = []
        for spec, seat_in in zip(specs, body.seats, strict=True):
            token = new_token() if spec.kind == "human" else None
            # An invited seat's maker keeps a key to make a new link for it.
            renew = new_token() if seat_in.kind == "invite" else None
            tokens.append(token)
            renew_keys.append(renew)
            seats.append(
                Seat(
                    name=spec.name,
                    kind=spec.kind,
                    invite=seat_in.kind == "invite",
                    level=spec.level,
                    role=game.role(state, len(seats)),
                    skill=spec.skill,
                    token_hash=hash_token(token) if token else None,
                    renew_hash=hash_token(renew) if renew else None,
                )
            )
        stored = self.store.create(
            body.game,
            game.rules_of(state),
            seed,
            {**setup, **(privacy or {})},
            SeatBook(seats).to_dicts(),
            host_hash,
        )
        table = self._live(Referee(self.store, stored, state))
        seats_out = [
            {
                "seat": i,
                "name": s.name,
                "kind": s.kind,
                "invite": s.invite,
                "token": tokens[i],
                "renew": renew_keys[i],
            }
            for i, s in enumerate(seats)
        ]
        self.schedule_bot(table)
        return table, seats_out

    async def get(self, table_id: str) -> LiveTable:
        """The live table ``table_id``, loaded from the store if it is not live here."""
        table = self.tables.get(table_id)
        if table is not None:
            self.touch(table_id)
            return table
        self._make_room()
        self.loading[table_id] = self.loading.get(table_id, 0) + 1
        try:
            referee = await Referee.load(self.store, table_id)
        finally:
            self.loading[table_id] -= 1
            deleted = table_id in self.deleted_loading
            if not self.loading[table_id]:
                del self.loading[table_id]
                self.deleted_loading.discard(table_id)
        if referee is None or deleted:
            raise RefusedError(f"there is no table {table_id!r}", Code.NO_TABLE, table=table_id)
        table = self.tables.get(table_id)  # loaded meanwhile by another request
        if table is None:
            table = self._live(referee)
            self.schedule_bot(table)
        return table

    async def refresh(self, table_id: str) -> LiveTable | None:
        """Reload a table another server process has changed (None: not live here, or gone)."""
        table = self.tables.get(table_id)
        if table is None:
            return None
        if not await table.referee.reload():
            self.gone(table)  # deleted by its host through another server
            return None
        # An invite renewed on another server: the pages here that used its old token lose
        # the seat now, as they would there.
        self._revoke(table)
        return table

    def _revoke(self, table: LiveTable) -> None:
        """Take a seat from each page whose token no longer opens it (its invite was
        renewed), and tell the page."""
        before = table.room.online()
        revoked = False
        for connection in table.connections:
            lost = [
                s for s, key in connection.keys.items() if not table.referee.seats.opens(s, key)
            ]
            for seat in lost:
                del connection.keys[seat]
                connection.send({"type": "revoked", "seat": seat, "seats": connection.seats})
            if lost and not connection.seats and not connection.may_watch:
                connection.end(error(unlisted()))  # an unlisted table: no seat, no view
                revoked = True
            elif lost:
                connection.send(self.state_message(table, connection.seats))
                revoked = True
        if revoked:  # (run on every change relayed from another server: mostly nothing)
            table.room.held_changed(before)

    # ---------------------------------------------------------------- seats and invites

    async def hello(
        self,
        table: LiveTable,
        connection: Connection,
        tokens: list[str],
        watch: str | None = None,
    ) -> None:
        """Give ``connection`` the seats ``tokens`` open, welcome it and send it the state;
        from then on it hears of every change. Under the table's lock, so that a claim, a
        renewal and the pages' seats change one at a time. At an unlisted table a page that
        opens no seat needs the spectator link's token, ``watch`` (web.privacy)."""
        if not table.connections:
            await self.events.first_page(table)
        async with table.lock:
            before = table.room.online()
            opened = await self._open(table, tokens)
            welcome = {
                "type": "welcome",
                "seats": opened.seats,
                "tokens": opened.tokens,
                "taken": opened.taken,
                "revoked": opened.revoked,
            }
            stored = table.referee.stored
            connection.may_watch = may_watch(stored.setup, stored.seats, [watch or ""])
            if not opened.seats and not connection.may_watch:
                if opened.taken or opened.revoked:
                    connection.send(welcome)  # what became of its seat, and no more
                raise unlisted()
            connection.keys = {seat: hash_token(token) for seat, token in opened.tokens.items()}
            table.room.join(connection)
            connection.send(welcome)
            connection.send(self.state_message(table, connection.seats))
            table.chat.welcome(connection)
            table.room.held_changed(before)

    async def _open(self, table: LiveTable, tokens: list[str]) -> Opened:
        """The seats ``tokens`` open. A token that may be an invite to claim (perhaps one made
        on another server) is checked in the store, where the seats are current; a device's
        own token needs no write."""
        referee = table.referee
        hashes = {hash_token(t) for t in tokens}
        own = {s.token_hash for s in referee.seats if not s.open_invite}
        claimed: dict[int, str] = {}
        if hashes - own:
            claimed = await referee.change_seats(lambda book: book.claim(hashes))
        return referee.seats.opened(tokens, claimed)

    async def renew_invite(self, table: LiveTable, seat: int, key: str) -> str:
        """A new invite link's token for ``seat``, given the key its maker holds. The old link
        and the device that used it lose the seat (that device is told at once)."""
        async with table.lock:
            if table.referee.finished:
                raise RefusedError(
                    "the game is over: there is no seat to invite anyone to",
                    Code.RENEW_AFTER_GAME,
                )
            token = await table.referee.change_seats(lambda book: book.renew(seat, key))
            self._revoke(table)
        await self.events.changed(table.id, table.referee.revision)  # others revoke their pages
        return token

    # ---------------------------------------------------------------- chat (web.chat)

    def say(self, table: LiveTable, connection: Connection, message: Chat) -> None:
        side, line = table.chat.say(
            table.room, connection, message, table.referee.actor, self.limits.chat_per_minute
        )
        self.events.chat(table.id, side, line)

    def heard(self, table_id: str, side: str, line: dict[str, Any]) -> None:
        """A chat line said at ``table_id`` on another server (the relay's news)."""
        table = self.tables.get(table_id)
        if table is not None:
            table.chat.hear(table.room, side, line)

    # ---------------------------------------------------------------- the host's (web.yours)

    async def delete(self, table_id: str) -> bool:
        """Delete the table from the store and from memory; its pages are told and let go
        (False: there was no such table)."""
        if table_id in self.loading:
            self.deleted_loading.add(table_id)
        table = self.tables.get(table_id)
        if table is None:
            return await asyncio.to_thread(self.store.delete, table_id)
        async with table.lock:
            deleted = await asyncio.to_thread(self.store.delete, table_id)
            self.gone(table)
        await self.events.changed(table_id, table.referee.revision)  # others let theirs go
        return deleted

    def gone(self, table: LiveTable) -> None:
        """The table is no longer in the store: every page hears so, and it leaves memory."""
        refusal = error(
            RefusedError(f"there is no table {table.id!r}", Code.NO_TABLE, table=table.id)
        )
        for connection in list(table.connections):
            connection.end(refusal, 4404)
        if self.tables.get(table.id) is table:
            self._drop(table.id)

    async def archive(self, table_id: str, archived: bool) -> bool:
        """Archive the table, or bring it back (False: there is no such table)."""
        done = await asyncio.to_thread(self.store.set_archived, table_id, archived)
        table = self.tables.get(table_id)
        if done and table is not None:
            table.referee.stored.archived = archived
        return done

    # ---------------------------------------------------------------- actions

    async def act(
        self,
        table: LiveTable,
        seat: int,
        text: str,
        page: Connection | None = None,
        *,
        seen: int | None = None,
        message_id: str | None = None,
    ) -> Accepted:
        """Apply one action for ``seat`` sent by ``page`` (None: the seat's bot)."""
        key = None if page is None else page.keys.get(seat, "")
        return await self._referee_call(
            table, table.referee.act(seat, text, key=key, seen=seen, message_id=message_id)
        )

    async def undo(
        self,
        table: LiveTable,
        seat: int,
        page: Connection,
        *,
        seen: int | None = None,
        message_id: str | None = None,
    ) -> Accepted:
        key = page.keys.get(seat, "")
        return await self._referee_call(
            table, table.referee.undo(seat, key=key, seen=seen, message_id=message_id)
        )

    async def _referee_call(self, table: LiveTable, call: Awaitable[Accepted]) -> Accepted:
        """The referee's answer to an act or undo; everyone hears of a change it made."""
        revision = table.referee.revision
        try:
            accepted = await call
        except RefusedError as exc:
            if exc.code == Code.MOVED_ON and table.referee.revision != revision:
                self.broadcast(table)  # the referee found the table changed elsewhere
            raise
        if table.referee.revision != revision:  # (a resent message changes nothing)
            await self.changed(table)
        return accepted

    async def changed(self, table: LiveTable) -> None:
        self.broadcast(table)
        await self.events.changed(table.id, table.referee.revision)
        self.schedule_bot(table)

    # ---------------------------------------------------------------- bots

    def schedule_bot(self, table: LiveTable) -> None:
        """Let the table's bot play if it is its turn (web.bots: one task per table). Only
        the table object live here plays: one that has left memory (and perhaps been loaded
        again since) is not let back in by a late call."""
        if self.tables.get(table.id) is table:
            self.bots.schedule(table, self.bot_play, self._thinking)

    def _thinking(self, table_id: str, revision: int) -> AbstractAsyncContextManager[bool]:
        return self.events.thinking(table_id, revision)  # (the relay comes after set-up)

    async def bot_play(self, table: LiveTable, seat: int, action: str, revision: int) -> None:
        """Play the bot's ``action``, chosen at ``revision``: refused as moved on if the table
        has changed since (the message id makes a second copy harmless)."""
        await self.act(table, seat, action, seen=revision, message_id=f"bot-{revision}")

    def start(self) -> None:
        """At start-up: the tables in play whose next actor is a bot resume by themselves
        (nobody needs to open them), in the background."""
        self._resuming = asyncio.create_task(self._resume())

    async def _resume(self) -> None:
        stored = await asyncio.to_thread(
            functools.partial(self.store.recent, RESUMED, playing=True)
        )
        for table in stored:
            if table.id in self.tables or not any(s.get("kind") == "bot" for s in table.seats):
                continue
            try:
                referee = await Referee.load(self.store, table.id)
            except Exception:
                log.exception("table %s could not be loaded to resume its bot", table.id)
                continue
            if referee is None or table.id in self.tables:
                continue
            actor = referee.actor
            if actor is not None and referee.seats[actor].is_bot:
                self.schedule_bot(self._live(referee))

    # ---------------------------------------------------------------- clients

    def leave(self, table: LiveTable, connection: Connection) -> None:
        table.room.leave(connection)
        if table.id in self.used:
            self.touch(table.id)

    def set_elsewhere(self, table: LiveTable, seats: frozenset[int]) -> None:
        table.room.set_elsewhere(seats)

    def broadcast(self, table: LiveTable) -> None:
        """Send every page the table's state as its seats see it."""
        table.room.broadcast(lambda seats: self.state_message(table, seats))

    def state_message(self, table: LiveTable, seats: list[int]) -> dict[str, Any]:
        referee = table.referee
        actor = referee.actor
        active = actor if actor in seats else (seats[0] if seats else None)
        view = referee.game.view(referee.state, active)
        return {
            "type": "state",
            "table": table.id,
            "version": referee.version,
            "revision": referee.revision,
            "seats": seats,
            "active": active,
            "actor": actor,
            "names": referee.seats.names,
            "kinds": referee.seats.kinds,
            "online": table.room.online(),
            "view": view,
            "last": referee.last,
            "can_undo": active is not None
            and not referee.seats[active].is_bot
            and referee.game.can_undo(referee.state, active),
        }
