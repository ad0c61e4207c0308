"""The tables this server process holds, each a table actor: its referee decides and stores
(web.referee), and small owners do one job each around it, wired here at construction:

- the table cache (web.cache): load, let go when idle, the live-table limit;
- the timekeeper (web.timekeeper): each table's timer, presence, stand-ins;
- the finisher (web.finisher): resignations, flags, abandoned tables;
- seating (web.seating): hellos, invites claimed and renewed, seats taken back;
- the rematcher (web.rematcher);
- the bot runner (web.bots) thinks for the bots;
- one after-change path (web.after_change) for every change, made here or followed from
  another server (web.relay implements the events interface; a single server needs none).

Every client is sent only its own seat's view.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from gamenight.web import hints
from gamenight.web.after_change import AfterChange
from gamenight.web.bots import BotRunner
from gamenight.web.cache import TableCache
from gamenight.web.chat import clean, visible
from gamenight.web.finisher import Finisher
from gamenight.web.forward import MOVED
from gamenight.web.games import SeatSpec, get_game, new_seed
from gamenight.web.homes import ElsewhereError, Homes, LocalHomes
from gamenight.web.live import RELOAD, Change, LiveTable, NoEvents, TableEvents
from gamenight.web.outbound import ChatLine, StateOut
from gamenight.web.protocol import Chat, TableIn, error
from gamenight.web.protocol import accepted as accepted_message
from gamenight.web.quotas import Limits
from gamenight.web.referee import (
    Accepted,
    ClockSettings,
    HomeLostError,
    Referee,
    moment,
    wall_ms,
)
from gamenight.web.refusals import Code, RefusedError, no_table
from gamenight.web.rematcher import Rematcher
from gamenight.web.room import Connection
from gamenight.web.seating import Seating, held
from gamenight.web.seats import Seat, SeatBook, hash_token, new_token
from gamenight.web.store import StoredTable, TableStore
from gamenight.web.timekeeper import Timekeeper

log = logging.getLogger("gamenight.web")
RESUMED = 1000  # the most bot tables a server resumes at start-up (the latest played first)
__all__ = ["RELOAD", "Change", "LiveTable", "TableEvents", "TableManager"]


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
        in_use: Callable[[str], bool] = lambda _: False,
        now: Callable[[], int] = wall_ms,
        events: Callable[[TableManager], TableEvents] | None = None,
        homes: Homes | None = None,
    ):
        """``in_use``: whether a socket is open at a table (before its hello, too: the app's
        gate); ``now``: the wall time the tables' clocks run on (tests give their own);
        ``events``: makes what tells the other server processes (web.relay), given this;
        ``homes``: the leases of the tables this process is home of (web.homes; by default
        a process alone, home of every table it loads)."""
        self.store = store
        self.homes: Homes = homes or LocalHomes(store)
        self.limits = limits or Limits()
        self.now = now
        self.bots = BotRunner(
            bot_workers, executor, seconds=bot_seconds, think_seconds=bot_think_seconds
        )
        self.events: TableEvents = NoEvents() if events is None else events(self)
        self.cache = TableCache(
            store,
            self.limits,
            now,
            self.homes,
            lost=self.lapsed,
            opened=self.opened,
            busy=lambda table: in_use(table.id) or self.bots.busy(table.id),
            dropped=self.dropped,
        )
        self.finisher = Finisher()
        self.timekeeper = Timekeeper(now, self.cache.live, self.tick, self.finisher)
        self.after = AfterChange(self.events, now, self.schedule_bot, self.timekeeper.arm)
        self.seating = Seating(self.events, self.after)
        self.rematcher = Rematcher(self.create, self.after)
        self._resuming: asyncio.Task[None] | None = None

    def close(self) -> None:
        if self._resuming is not None:
            self._resuming.cancel()
        self.bots.close()

    # ---------------------------------------------------------------- the table cache's

    @property
    def tables(self) -> dict[str, LiveTable]:
        return self.cache.tables

    @property
    def clock(self) -> Callable[[], float]:
        return self.cache.clock

    def opened(self, referee: Referee) -> LiveTable:
        """The live table of ``referee``, now in memory here: its room tells of the seats
        its pages hold, its timer is set and its bot may play."""
        table = LiveTable(referee)
        # Weakly: the room keeps this, and a table in a cycle with its room would wait for
        # the cycle collector to leave memory (with its game), not go when it is dropped.
        ref = weakref.ref(table)

        def held_changed() -> None:
            table = ref()
            if table is not None:
                self.events.held(table)
                self.timekeeper.presence(table)

        table.room.on_held = held_changed
        self.cache.add(table)
        self.timekeeper.arm(table)
        self.schedule_bot(table)
        return table

    def lapsed(self, table_id: str) -> None:
        """Another process took ``table_id`` (its lease lapsed here: web.homes): the table
        leaves memory, and its pages reconnect (to its new home, through whichever process
        their sockets land on); a page's act not yet answered is sent again there."""
        table = self.cache.tables.get(table_id)
        if table is None:
            return
        log.warning(
            "table %s has a new home: its %d pages here reconnect", table_id, len(table.connections)
        )
        for connection in list(table.connections):
            connection.close(MOVED)
        self.cache.drop(table_id)

    async def view(self, table_id: str) -> LiveTable:
        """The table as stored, to read (an HTTP request at a table whose home is another
        process): not kept, no bot plays nor clock runs here, and a write it makes (a
        renewed invite) is the store's transaction alone, which the home follows."""
        table = self.cache.tables.get(table_id)
        if table is not None:
            return table
        referee = await Referee.load(self.store, table_id, self.now)
        if referee is None:
            raise no_table(table_id)
        return LiveTable(referee)

    async def read(self, table_id: str) -> LiveTable:
        """The live table if this process is (or can become) its home, else ``view``'s."""
        try:
            return await self.get(table_id)
        except ElsewhereError:
            return await self.view(table_id)

    def dropped(self, table_id: str) -> None:
        self.bots.stop(table_id)
        self.timekeeper.disarm(table_id)

    def live(self, table_id: str) -> LiveTable | None:
        return self.cache.tables.get(table_id)

    def live_tables(self) -> list[LiveTable]:
        return list(self.cache.tables.values())

    def evict(self, now: float | None = None) -> list[str]:
        return self.cache.evict(now)

    def closed(self, table_id: str) -> None:
        self.cache.closed(table_id)

    async def get(self, table_id: str) -> LiveTable:
        return await self.cache.get(table_id)

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
        self.cache.make_room()
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
            setup={
                **setup,
                **(privacy or {}),
                **hints.chosen(body.hints),  # issue 32 (web.hints)
                "clock": settings.to_dict(),
            },
            seats=SeatBook(seats).to_dicts(),
            status="playing",
            outcome=None,
            created=created,
            updated=created,
            host_hash=host_hash,
        )
        referee = Referee(self.store, draft, state, self.now, lost=self.lapsed)
        await referee.store_new(host_hash, self.homes.take)
        table = self.opened(referee)
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
        return table, seats_out

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
                self.timekeeper.arm(table)  # (its clock as the other server left it)
                return table
        if not await table.referee.reload():
            self.gone(table)  # deleted by its host through another server
            return None
        # An invite renewed on another server: the pages here that used its old token lose
        # the seat now, as they would there.
        self.seating.revoke(table)
        self.timekeeper.arm(table)  # (its clock as the other server left it)
        return table

    async def follow(self, table_id: str, change: Change | None = None) -> None:
        """Another server changed ``table_id``: if it is live here, bring it up to date and
        go the after-change path (web.after_change) as a change made here does."""
        table = await self.refresh(table_id, change)
        if table is not None:
            self.after.followed(table)

    # ---------------------------------------------------------------- seats (web.seating)

    async def hello(
        self,
        table: LiveTable,
        connection: Connection,
        tokens: list[str],
        watch: str | None = None,
        admit: Callable[[list[int]], None] = lambda seats: None,
    ) -> None:
        await self.seating.hello(table, connection, tokens, watch, admit)

    async def renew_invite(self, table: LiveTable, seat: int, key: str) -> str:
        try:
            return await self.seating.renew_invite(table, seat, key)
        except HomeLostError:
            # Another process took the table since it was read here: once more, at its home
            # now (or, where no home is known, here again: the store fences the other).
            return await self.seating.renew_invite(await self.read(table.id), seat, key)

    async def reclaim(self, table: LiveTable, seat: int, page: Connection) -> None:
        await self.seating.reclaim(table, seat, page)

    # ---------------------------------------------------------------- endings and rematches

    async def resign(self, table: LiveTable, seat: int, page: Connection) -> None:
        async with table.lock:
            held(table, seat, page)
            changed = await self.finisher.resigned(table, seat)
        if changed:
            await self.after.local(table)

    async def rematch(self, table: LiveTable, page: Connection) -> None:
        await self.rematcher.rematch(table, page)

    # ---------------------------------------------------------------- clocks (web.timekeeper)

    async def tick(self, table: LiveTable) -> None:
        """Do what is due at the table now (web.timekeeper), and tell everyone if it
        changed."""
        if await self.timekeeper.due(table):
            await self.after.local(table)
        else:
            self.timekeeper.arm(table)

    async def wake_due(self) -> None:
        """Do what is due at every table whose stored deadline has come, live here or not
        (after a restart, or a table that left memory): the sweep runs it."""
        due = await self.store.due(moment(self.now()))
        for table_id in due:
            try:
                table = await self.get(table_id)
                await self.tick(table)
            except ElsewhereError:
                pass  # its home does it
            except Exception:
                log.exception("table %s could not be woken for its deadline", table_id)

    # ---------------------------------------------------------------- chat (web.chat)

    def say(self, table: LiveTable, connection: Connection, message: Chat) -> None:
        side, line = table.chat.say(table.room, connection, message, table.referee.actor)
        self.events.chat(table.id, side, line)

    def heard(self, table_id: str, side: str, line: ChatLine) -> None:
        """A chat line said at ``table_id`` on another server (the relay's news)."""
        table = self.tables.get(table_id)
        if table is not None:
            table.chat.hear(table.room, side, line)

    # ---------------------------------------------------------------- the host's (web.yours)

    async def delete(self, table_id: str) -> bool:
        """Delete the table from the store and from memory; its pages are told and let go
        (False: there was no such table)."""
        self.cache.deleting(table_id)
        table = self.tables.get(table_id)
        if table is None:
            deleted = await self.store.delete(table_id)
            if deleted:  # its home, on another process, lets it go and tells its pages
                await self.events.changed(table_id, Change(0))
            return deleted
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
        if self.cache.live(table):
            self.cache.drop(table.id)

    async def archive(self, table_id: str, archived: bool) -> bool:
        """Archive the table, or bring it back (False: there is no such table)."""
        table = self.tables.get(table_id)
        if table is not None:
            return await table.referee.archive(archived)
        return await self.store.archive(table_id, archived)

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
                self.seating.revoke(table)
            if exc.code == Code.MOVED_ON and table.referee.revision != revision:
                self.after.broadcast(table)  # the referee found the table changed elsewhere
            raise
        # Told only now: the referee's answer comes once the action is durable.
        answer = None if page is None else (page, {"accepted": accepted.message_id})
        told = False
        if table.referee.revision != revision:  # (a resent message changes nothing)
            news = self._news(table.referee, accepted, revision)
            told = await self.after.local(table, news, answer)
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

    # ---------------------------------------------------------------- bots

    def schedule_bot(self, table: LiveTable) -> None:
        """Let the table's bot play if it is its turn (web.bots: one task per table). Only
        the table object live here plays: one that has left memory (and perhaps been loaded
        again since) is not let back in by a late call."""
        if self.cache.live(table):
            self.bots.schedule(table, self.bot_play, self.thinking)

    def thinking(self, table_id: str, revision: int) -> AbstractAsyncContextManager[bool]:
        return self.events.thinking(table_id, revision)

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

    async def adopt(self) -> None:
        """Take the bot tables in play that no process is home of (their home died, and its
        lease expired: web.homes), so that their bots play on; tables with pages are taken
        by the process the pages reconnect to, and those with a clock due by the sweep."""
        stored = await self.store.recent(RESUMED, playing=True)
        ids = [table.id for table in stored if table.id not in self.cache.tables and _bots(table)]
        homeless = set(await self.homes.homeless(ids))
        await self._resume_bots([table for table in stored if table.id in homeless])

    async def _resume_bots(self, stored: list[StoredTable] | None = None) -> None:
        if stored is None:
            stored = await self.store.recent(RESUMED, playing=True)
        for table in stored:
            if table.id in self.cache.tables or not _bots(table):
                continue
            try:
                await self.cache.load(table.id, lambda referee: referee.bot_to_play)
            except RefusedError as exc:
                if exc.code == Code.SERVER_FULL:
                    log.warning("the server is full: no more bot tables resume")
                    return
                # NO_TABLE: deleted since it was listed
            except ElsewhereError:
                pass  # another process is its home, and its bot plays there
            except Exception:
                log.exception("table %s could not be loaded to resume its bot", table.id)

    # ---------------------------------------------------------------- clients

    def leave(self, table: LiveTable, connection: Connection) -> None:
        table.room.leave(connection)
        if table.id in self.cache.used:
            self.cache.touch(table.id)

    def set_elsewhere(self, table: LiveTable, seats: frozenset[int]) -> None:
        before = table.room.online()
        table.room.set_elsewhere(seats)
        if table.room.online() != before:
            self.timekeeper.presence(table)

    def broadcast(
        self, table: LiveTable, answer: tuple[Connection, dict[str, Any]] | None = None
    ) -> bool:
        return self.after.broadcast(table, answer)

    def state_message(self, table: LiveTable, seats: list[int]) -> StateOut:
        return self.after.state(table, seats)


def _bots(table: StoredTable) -> bool:
    """Whether a bot plays a seat of the table (its own, or a stand-in)."""
    return any(s.get("kind") == "bot" or s.get("stand_in") is not None for s in table.seats)
