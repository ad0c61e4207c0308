"""Live tables: each game being played, with its referee, its room of pages and its bot.

The table manager puts the pieces together: the referee decides and stores (web.referee),
the seat book says who holds which seat (web.seats), the room tells the pages
(web.room), and the bot runner thinks for the bots (web.bots). Every client is sent only
its own seat's view. Other server processes hear of changes through the events interface
(web.relay implements it for Redis; a single server needs none).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Executor
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Protocol

from gamenight.core.endings import ABANDONED, OUT_OF_TIME, RESIGNED
from gamenight.web.bots import BotRunner
from gamenight.web.chat import TableChat, clean, visible
from gamenight.web.games import Payload, SeatSpec, get_game, new_seed
from gamenight.web.privacy import may_watch
from gamenight.web.protocol import Chat, ClockIn, SeatIn, TableIn, error
from gamenight.web.protocol import accepted as accepted_message
from gamenight.web.quotas import Limits
from gamenight.web.referee import Accepted, ClockSettings, Referee, moment, wall_ms
from gamenight.web.refusals import Code, RefusedError, no_table, unlisted
from gamenight.web.room import Connection, Room
from gamenight.web.seats import Opened, Seat, SeatBook, hash_token, new_token
from gamenight.web.store import NewTable, StoredTable, TableStore

log = logging.getLogger("gamenight.web")
RESUMED = 1000  # the most bot tables a server resumes at start-up (the latest played first)
RELOAD = "reload"


@dataclass(frozen=True)
class Change:
    """A change made at a table, as the other servers follow it (web.relay): an ``act`` (its
    action ``number``, its ``payload`` as stored, the ``clock`` stored with it) or an
    ``undo`` (the ``number`` of the action taken back), with the table's ``revision`` and
    ``status`` after it. Anything else (seats, an ending, a rematch, a deletion) is a
    ``reload``: the other servers read the table from the store."""

    revision: int
    kind: str = RELOAD  # "act", "undo" or "reload"
    number: int = -1
    payload: Payload | None = None
    clock: dict[str, Any] | None = None
    status: str | None = None


class TableEvents(Protocol):
    """What other server processes are told, and asked (web.relay, when scaled out)."""

    async def changed(self, table_id: str, change: Change) -> None:
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


class NoEvents:
    """A single server: nobody else to tell."""

    async def changed(self, table_id: str, change: Change) -> None:
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
        store: TableStore,
        bot_workers: int = 1,
        executor: Executor | None = None,
        limits: Limits | None = None,
        *,
        bot_seconds: float = 20.0,
        bot_think_seconds: float | None = None,
    ):
        self.store = store
        self.tables: dict[str, LiveTable] = {}
        self.bots = BotRunner(
            bot_workers, executor, seconds=bot_seconds, think_seconds=bot_think_seconds
        )
        self.events: TableEvents = NoEvents()
        self._resuming: asyncio.Task[None] | None = None
        self.limits = limits or Limits()
        # Memory (issue 14, finding 8): when each live table was last used, oldest first,
        # and whether a socket is open at a table (before its hello, too: the app's gate).
        self.clock: Callable[[], float] = time.monotonic
        self.used: dict[str, float] = {}
        self.in_use: Callable[[str], bool] = lambda _: False
        # The tables' clocks run on the server's wall time (tests give a clock of their own),
        # each live table with a timer for its next deadline (web.referee: Referee.due).
        self.now: Callable[[], int] = wall_ms
        self._timers: dict[str, asyncio.TimerHandle] = {}
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
        # Weakly: the room keeps this, and a table in a cycle with its room would wait for
        # the cycle collector to leave memory (with its game), not go when it is dropped.
        ref = weakref.ref(table)

        def held() -> None:
            table = ref()
            if table is not None:
                self.events.held(table)
                self.presence(table)

        table.room.on_held = held
        self.tables[referee.id] = table
        self.touch(referee.id)
        self.arm(table)
        return table

    # ---------------------------------------------------------------- memory

    def touch(self, table_id: str) -> None:
        """``table_id`` was used now: it is the last to leave memory."""
        self.used.pop(table_id, None)
        self.used[table_id] = self.clock()

    def idle(self, table: LiveTable) -> bool:
        """Nobody needs the table in memory: no page, no socket, no bot to play."""
        return (
            not table.room
            and not self.in_use(table.id)
            and not table.referee.bot_to_play
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

    def closed(self, table_id: str) -> None:
        """A socket at ``table_id`` has closed: a game that is over and that nobody is at
        leaves memory now rather than after ``idle_seconds`` (the store has it; it comes
        back on demand), since nothing will change it."""
        table = self.tables.get(table_id)
        if table is not None and table.referee.finished and self.idle(table):
            self._drop(table_id)

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
        timer = self._timers.pop(table_id, None)
        if timer is not None:
            timer.cancel()  # (its deadline is stored: the sweep's ``wake_due`` finds it)

    # ---------------------------------------------------------------- set-up

    async def create(
        self,
        body: TableIn,
        privacy: dict[str, str] | None = None,
        host_hash: str | None = None,
        *,
        keep: list[Seat] | None = None,
    ) -> tuple[LiveTable, list[dict[str, Any]]]:
        """A new table; ``privacy`` (web.privacy) is kept in its stored set-up, ``host_hash``
        (web.yours) names its host. ``keep``: the seats of the table this one is a rematch
        of, whose tokens open its seats too (so each page follows with the tokens it holds,
        on whichever server it is)."""
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
        settings = ClockSettings.checked(body.clock)
        seed = body.seed if body.seed is not None else new_seed()
        self._make_room()
        state, setup = game.new(specs, body.first, body.rules, seed)
        tokens: list[str | None] = []
        renew_keys: list[str | None] = []
        seats: list[Seat] = []
        for spec, seat_in in zip(specs, body.seats, strict=True):
            old = keep[len(seats)] if keep is not None else None
            kept = old is not None and spec.kind == "human"
            token = new_token() if spec.kind == "human" and not kept else None
            # An invited seat's maker keeps a key to make a new link for it.
            renew = new_token() if seat_in.kind == "invite" and not kept else None
            tokens.append(token)
            renew_keys.append(renew)
            made = Seat(
                name=spec.name,
                kind=spec.kind,
                invite=seat_in.kind == "invite",
                level=spec.level,
                role=game.role(state, len(seats)),
                skill=spec.skill,
                token_hash=hash_token(token) if token else None,
                renew_hash=hash_token(renew) if renew else None,
            )
            if kept and old is not None:
                made = replace(
                    made,
                    token_hash=old.token_hash,
                    renew_hash=old.renew_hash,
                    invite_hash=old.invite_hash,
                    claimed=old.claimed,
                )
            seats.append(made)
        # The referee of the table as it will be stored: its clock, and when the table must
        # next act by itself, are written with it, in one transaction.
        created = datetime.now(UTC)
        draft = StoredTable(
            id="",  # (the store names it)
            game=body.game,
            rules=game.rules_of(state),
            seed=seed,
            setup={**setup, **(privacy or {}), "clock": settings.to_dict()},
            seats=SeatBook(seats).to_dicts(),
            status="playing",
            outcome=None,
            created=created,
            updated=created,
            host_hash=host_hash,
        )
        referee = Referee(self.store, draft, state, self.now)
        referee.stored = await self.store.create(
            NewTable(
                draft.game,
                draft.rules,
                seed,
                draft.setup,
                draft.seats,
                host_hash,
                timing=referee.timing([]),
            )
        )
        table = self._live(referee)
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
        table = await self._load(table_id)
        assert table is not None  # (every table is wanted)
        return table

    async def _load(
        self, table_id: str, wanted: Callable[[Referee], bool] = lambda _: True
    ) -> LiveTable | None:
        """Bring the stored table into memory, within the live-table limit, its bot set to
        play (None: loaded, but not ``wanted`` in memory). Refused if there is no such table,
        or its host deleted it while it loaded."""
        self._make_room()
        self.loading[table_id] = self.loading.get(table_id, 0) + 1
        try:
            referee = await Referee.load(self.store, table_id, self.now)
        finally:
            self.loading[table_id] -= 1
            deleted = table_id in self.deleted_loading
            if not self.loading[table_id]:
                del self.loading[table_id]
                self.deleted_loading.discard(table_id)
        if referee is None or deleted:
            raise no_table(table_id)
        table = self.tables.get(table_id)  # loaded meanwhile by another request
        if table is None:
            if not wanted(referee):
                return None
            table = self._live(referee)
            self.schedule_bot(table)
        return table

    async def refresh(self, table_id: str, change: Change | None = None) -> LiveTable | None:
        """Bring up to date a table another server process has changed: an act or an undo
        is followed alone, in order; anything else, or a change that cannot be followed (a
        revision missing, a change in doubt), reloads the table from the store. The table
        (None: not live here, or gone), whose pages are to hear of it: even when it had the
        change already, since the referee may have read the store of itself (an ending that
        found the table moved on) without telling them."""
        table = self.tables.get(table_id)
        if table is None:
            return None
        if change is not None and change.kind != RELOAD:
            followed = await table.referee.follow(
                change.kind,
                change.number,
                change.revision,
                change.payload,
                change.clock,
                change.status,
            )
            if followed is not False:  # (an act or an undo changes no seat: none to revoke)
                self.arm(table)  # (its clock as the other server left it)
                return table
        if not await table.referee.reload():
            self.gone(table)  # deleted by its host through another server
            return None
        # An invite renewed on another server: the pages here that used its old token lose
        # the seat now, as they would there.
        self._revoke(table)
        self.arm(table)  # (its clock as the other server left it)
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
                connection.send_state(self.state_message(table, connection.seats))
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
        admit: Callable[[list[int]], None] = lambda seats: None,
    ) -> None:
        """Give ``connection`` the seats ``tokens`` open, welcome it and send it the state;
        from then on it hears of every change. Under the table's lock, so that a claim, a
        renewal and the pages' seats change one at a time. At an unlisted table a page that
        opens no seat needs the spectator link's token, ``watch`` (web.privacy). ``admit``
        is told the seats the page opens before it joins, and may refuse it (a spectator
        over the limits: web.quotas)."""
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
            admit(opened.seats)
            connection.keys = {seat: hash_token(token) for seat, token in opened.tokens.items()}
            connection.welcomed = True
            table.room.join(connection)
            connection.send(welcome)
            connection.send_state(self.state_message(table, connection.seats), whole=True)
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
        await self.events.changed(table.id, Change(table.referee.revision))  # others revoke
        return token

    # ---------------------------------------------------------------- chat (web.chat)

    def say(self, table: LiveTable, connection: Connection, message: Chat) -> None:
        side, line = table.chat.say(table.room, connection, message, table.referee.actor)
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
            return await self.store.delete(table_id)
        async with table.lock:
            deleted = await self.store.delete(table_id)
            self.gone(table)
        await self.events.changed(table_id, Change(table.referee.revision))  # others let go
        return deleted

    def gone(self, table: LiveTable) -> None:
        """The table is no longer in the store: every page hears so, and it leaves memory."""
        refusal = error(no_table(table.id))
        for connection in list(table.connections):
            connection.end(refusal, 4404)
        if self.tables.get(table.id) is table:
            self._drop(table.id)

    async def archive(self, table_id: str, archived: bool) -> bool:
        """Archive the table, or bring it back (False: there is no such table)."""
        done = await self.store.archive(table_id, archived)
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
        call = table.referee.act(
            seat, text, key=key, seen=seen, message_id=message_id, online=table.room.online()
        )
        try:
            return await self._referee_call(table, call, page)
        except RefusedError as exc:
            if exc.code == Code.OUT_OF_TIME:
                await self.tick(table)  # the timer has not fired yet: a stand-in takes over
            raise

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
            table, table.referee.undo(seat, key=key, seen=seen, message_id=message_id), page
        )

    async def _referee_call(
        self, table: LiveTable, call: Awaitable[Accepted], page: Connection | None
    ) -> Accepted:
        """The referee's answer to an act or undo; everyone hears of a change it made, and
        ``page`` (None: a bot's) that it is stored: in the change it hears (one message a
        move), or in an ``accepted`` of its own where it hears none (a resent message's
        answer, from the referee's memory)."""
        revision, seats = table.referee.revision, table.referee.seats
        try:
            accepted = await call
        except RefusedError as exc:
            if table.referee.seats is not seats:
                # The referee read the seats from the store (another server renewed an
                # invite, and this one had not heard): the pages whose token no longer opens
                # their seat are told now, not whenever the news comes (issue 31).
                self._revoke(table)
            if exc.code == Code.MOVED_ON and table.referee.revision != revision:
                self.broadcast(table)  # the referee found the table changed elsewhere
            raise
        # Told only now: the referee's answer comes once the action is durable.
        answer = None if page is None else (page, {"accepted": accepted.message_id})
        told = False
        if table.referee.revision != revision:  # (a resent message changes nothing)
            news = self._news(table.referee, accepted, revision)
            told = await self.changed(table, news, answer)
        if page is not None and not told:
            page.send(accepted_message(accepted.message_id, accepted.revision))
        return accepted

    @staticmethod
    def _news(referee: Referee, accepted: Accepted, before: int) -> Change:
        """What the other servers are told of the act or undo ``accepted`` just stored (at
        ``before``): itself, to follow; a reload if the referee read the store meanwhile
        (its table moved on by more than that action)."""
        revision = referee.revision
        if accepted.revision != revision or revision != before + 1:
            return Change(revision)
        status = referee.status()[0]
        if accepted.kind == "act" and accepted.number == referee.version - 1:
            clock = None if referee.clock is None else referee.clock.to_dict()
            payload = referee.actions[accepted.number]
            return Change(revision, "act", accepted.number, payload, clock, status)
        if accepted.kind == "undo" and accepted.number == referee.version:
            return Change(revision, "undo", accepted.number, status=status)
        return Change(revision)

    async def changed(
        self,
        table: LiveTable,
        change: Change | None = None,
        answer: tuple[Connection, dict[str, Any]] | None = None,
    ) -> bool:
        """Tell every page, and the other servers (``change``: what they follow; by default
        they reload the table), and let the bot play. ``answer``: as Room.broadcast's (True:
        that page was sent it)."""
        told = self.broadcast(table, answer)
        await self.events.changed(table.id, change or Change(table.referee.revision))
        self.schedule_bot(table)
        self.arm(table)
        return told

    # ---------------------------------------------------------------- clocks, stand-ins, endings

    def arm(self, table: LiveTable) -> None:
        """Set the table's timer for its next deadline (web.referee: Referee.due)."""
        old = self._timers.pop(table.id, None)
        if old is not None:
            old.cancel()
        if self.tables.get(table.id) is not table:
            return
        due = table.referee.due(table.room.online())
        if due is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # (set up outside the event loop: armed when the table is next used)
        delay = max(0.0, (due - self.now()) / 1000)
        self._timers[table.id] = loop.call_later(delay, lambda: loop.create_task(self.tick(table)))

    def presence(self, table: LiveTable) -> None:
        """Who is online changed: note when each seat was last seen, store the deadline
        (abandonment and grace count from here) and set the timer again."""
        referee = table.referee
        now = self.now()
        online = table.room.online()
        for seat in range(len(referee.seats)):
            if seat in online or seat not in referee.seen:
                referee.seen[seat] = now
        if referee.clock is not None and referee.outcome is None:
            referee.clock = referee.clock.touched(now)
            write = referee.store_timing(online)  # (the picture is taken now)
            try:
                asyncio.get_running_loop().create_task(write)
            except RuntimeError:
                write.close()
        self.arm(table)

    async def tick(self, table: LiveTable) -> None:
        """Do what is due at the table now (docs/rules/table.md): end an abandoned game (T3),
        let a bot stand in for a seat out of time or away (T8), or end the game on a flag
        where the host said a flag loses (T2). Safe to run on several servers at once."""
        changed = False
        async with table.lock:
            referee = table.referee
            online = table.room.online()
            clock = referee.clock
            if clock is None or referee.finished:
                return
            now = self.now()
            for seat in online:
                referee.seen[seat] = now
            actor = referee.actor
            if not online and now >= clock.active + clock.settings.abandon_ms:
                changed = await referee.end(ABANDONED, (), online)
            elif actor is not None and referee.flagged(actor):
                if clock.settings.on_timeout == "lose" and len(referee.seats) == 2:
                    changed = await referee.end(OUT_OF_TIME, (actor,), online)
                else:
                    changed = await self._stand_in(table, actor)
            elif actor is not None and (due := referee.due(online)) is not None and now >= due:
                changed = await self._stand_in(table, actor)  # its page away past the grace
        if changed:
            await self.changed(table)
        else:
            self.arm(table)

    async def _stand_in(self, table: LiveTable, seat: int, *, resigned: bool = False) -> bool:
        """A bot of the host's level plays ``seat`` from now on; the caller holds the lock."""
        referee = table.referee
        settings = referee.clock.settings if referee.clock is not None else ClockSettings()
        level = settings.bot_level
        changed = await referee.change_seats(
            lambda book: book.stand_in(seat, level, resigned=resigned)
        )
        if referee.clock is not None:
            referee.clock = referee.clock.refilled(seat, self.now())
            await referee.store_timing(table.room.online())
        return changed

    def _held(self, table: LiveTable, seat: int, page: Connection) -> None:
        if not table.referee.seats.opens(seat, page.keys.get(seat)):
            raise RefusedError(
                f"you do not hold seat {seat}'s token", Code.NOT_YOUR_SEAT, seat=seat
            )

    async def resign(self, table: LiveTable, seat: int, page: Connection) -> None:
        """``seat`` gives the game up (T1): a two-seat game ends with the other seat
        winning; at a larger table a bot plays the seat for good."""
        async with table.lock:
            self._held(table, seat, page)
            referee = table.referee
            if referee.finished:
                raise RefusedError("the game is over", Code.GAME_OVER)
            if len(referee.seats) == 2:
                changed = await referee.end(RESIGNED, (seat,), table.room.online())
            else:
                changed = await self._stand_in(table, seat, resigned=True)
        if changed:
            await self.changed(table)

    async def reclaim(self, table: LiveTable, seat: int, page: Connection) -> None:
        """The seat's owner takes it back from its stand-in bot (T9)."""
        async with table.lock:
            self._held(table, seat, page)
            referee = table.referee
            if referee.seats[seat].resigned:
                raise RefusedError(
                    f"seat {seat} resigned: a bot plays it to the end",
                    Code.RESIGNED_FOR_GOOD,
                    seat=seat,
                )
            if referee.seats[seat].stand_in is None:
                raise RefusedError(
                    f"seat {seat} is not played by a bot", Code.NOT_STOOD_IN, seat=seat
                )
            await referee.change_seats(lambda book: book.stand_in(seat, None))
            referee.seen[seat] = self.now()
            if referee.clock is not None:
                referee.clock = referee.clock.refilled(seat, self.now())
                await referee.store_timing(table.room.online())
        await self.changed(table)

    async def rematch(self, table: LiveTable, page: Connection) -> None:
        """The page's seats ask for a rematch (T10). The acceptances are the store's (pages
        on other servers count); the server whose acceptance completes them makes the new
        table, with the same seats' tokens, and every page hears of it in its state
        (``seating.next``) and goes there."""
        async with table.lock:
            referee = table.referee
            if not referee.finished:
                raise RefusedError("a rematch is for a game that is over", Code.REMATCH_IN_PLAY)
            if "rematch" not in referee.stored.setup:
                seats = page.seats
                if await referee.change_seats(lambda book: book.accept_rematch(seats)):
                    # The same host: the rematch is the host's to archive or delete too.
                    made, _ = await self.create(
                        self._rematch_of(table),
                        self._privacy_of(table),
                        referee.stored.host_hash,
                        keep=list(referee.seats),
                    )
                    await self.store.set_rematch(table.id, made.id)
                    referee.stored.setup = {**referee.stored.setup, "rematch": made.id}
        await self.changed(table)

    def _rematch_of(self, table: LiveTable) -> TableIn:
        """The same seats, rules and clock; the first seat moved on by one; a fresh seed.
        A seat a bot played at the end is a bot of that level in the rematch."""
        referee = table.referee
        stored = referee.stored
        start = referee.game.replay(stored.rules, stored.seed, stored.setup, stored.seats, [])
        first = (referee.game.actor(start) or 0) + 1
        seats = [
            SeatIn(
                kind="bot" if seat.played_by_bot else ("invite" if seat.invite else "device"),
                name=seat.name,
                level=seat.bot_level,
                role=seat.role,
                skill=seat.skill,
            )
            for seat in referee.seats
        ]
        settings = referee.clock.settings if referee.clock is not None else ClockSettings()
        return TableIn(
            game=referee.game.name,
            seats=seats,
            first=first % len(seats),
            rules=stored.rules,
            clock=ClockIn(
                kind=settings.kind,
                bank_seconds=settings.bank_ms / 1000,
                increment_seconds=settings.increment_ms / 1000,
                turn_hours=settings.turn_ms / 3_600_000,
                grace_seconds=settings.grace_ms / 1000,
                bot_level=settings.bot_level,
                on_timeout=settings.on_timeout,
                abandon_hours=settings.abandon_ms / 3_600_000,
            ),
        )

    @staticmethod
    def _privacy_of(table: LiveTable) -> dict[str, str]:
        """The old table's privacy: its spectator link watches the rematch too."""
        setup = table.referee.stored.setup
        return {k: setup[k] for k in ("visibility", "watch_hash") if k in setup}

    async def wake_due(self) -> None:
        """Do what is due at every table whose stored deadline has come, live here or not
        (after a restart, or a table that left memory): the sweep runs it."""
        due = await self.store.due(moment(self.now()))
        for table_id in due:
            try:
                table = await self.get(table_id)
                await self.tick(table)
            except Exception:
                log.exception("table %s could not be woken for its deadline", table_id)

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

    def start(self) -> asyncio.Task[None]:
        """At start-up: the tables in play whose next actor is a bot resume by themselves
        (nobody needs to open them), and those whose clock is due act, in the background
        (the task doing it)."""
        self._resuming = asyncio.create_task(self._resume())
        return self._resuming

    async def _resume(self) -> None:
        await self._resume_bots()
        await self.wake_due()

    async def _resume_bots(self) -> None:
        stored = await self.store.recent(RESUMED, playing=True)
        for table in stored:
            if table.id in self.tables or not any(
                s.get("kind") == "bot" or s.get("stand_in") is not None for s in table.seats
            ):
                continue
            try:
                await self._load(table.id, lambda referee: referee.bot_to_play)
            except RefusedError as exc:
                if exc.code == Code.SERVER_FULL:
                    log.warning("the server is full: no more bot tables resume")
                    return
                # NO_TABLE: deleted since it was listed
            except Exception:
                log.exception("table %s could not be loaded to resume its bot", table.id)

    # ---------------------------------------------------------------- clients

    def leave(self, table: LiveTable, connection: Connection) -> None:
        table.room.leave(connection)
        if table.id in self.used:
            self.touch(table.id)

    def set_elsewhere(self, table: LiveTable, seats: frozenset[int]) -> None:
        before = table.room.online()
        table.room.set_elsewhere(seats)
        if table.room.online() != before:
            self.presence(table)

    def broadcast(
        self, table: LiveTable, answer: tuple[Connection, dict[str, Any]] | None = None
    ) -> bool:
        """Send every page the table's state as its seats see it (``answer``: as
        Room.broadcast's)."""
        return table.room.broadcast(lambda seats: self.state_message(table, seats), answer)

    def state_message(self, table: LiveTable, seats: list[int]) -> dict[str, Any]:
        referee = table.referee
        actor = referee.actor
        active = actor if actor in seats else (seats[0] if seats else None)
        view = referee.game.view(referee.state, active)
        if referee.ending is not None:  # the table ended it, not the game's rules
            view = {**view, "outcome": referee.ending.to_dict(), "status": referee.ending.reason}
        clock = referee.clock
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
            and actor is not None
            and not referee.seats[active].played_by_bot
            and referee.game.can_undo(referee.state, active),
            # The clock (docs/rules/table.md): each seat's time left at the server's ``at``.
            "clock": None
            if clock is None or not clock.settings.timed
            else clock.message(self.now()),
            "seating": {
                "stand_ins": [i for i, s in enumerate(referee.seats) if s.stand_in is not None],
                "resigned": [i for i, s in enumerate(referee.seats) if s.resigned],
                "rematch": [i for i, s in enumerate(referee.seats) if s.rematch],
                "next": referee.stored.setup.get("rematch"),
            },
        }
