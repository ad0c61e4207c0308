"""Live tables: the state of each game being played, who is connected, and the bots.

The server is the referee. Every action goes through the engine and is committed to the
store before anyone hears of it; every client is sent only its own seat's view. Bots think
in worker processes, so one table's bot never holds up another table.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import multiprocessing
import secrets
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket

from gamenight.web.games import SeatSpec, WebGame, get_game, new_seed
from gamenight.web.protocol import TableIn
from gamenight.web.refusals import Code, RefusedError
from gamenight.web.storage import ConflictError, Store, StoredTable, hash_token

log = logging.getLogger("gamenight.web")


class SeatKeyError(RefusedError):
    """A key that does not open what it was brought for."""


def _json(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def _check_holds(page: Connection | None, seat: int) -> None:
    # Under the table's lock: a renewal may have taken the seat from the page meanwhile.
    if page is not None and seat not in page.seats:
        raise RefusedError(f"you do not hold seat {seat}'s token", Code.NOT_YOUR_SEAT, seat=seat)


def new_token() -> str:
    return secrets.token_urlsafe(18)


def is_open_invite(seat: dict[str, Any]) -> bool:
    """An invited seat whose link no device has used yet."""
    return bool(seat.get("invite")) and not seat.get("claimed")


@dataclass
class Opened:
    """What a hello's tokens open: for each seat held, the token the device keeps for it
    (for an invite used just now, a new token of the device's own), the seats whose invite
    another device has used, and those whose link its maker renewed since."""

    tokens: dict[int, str]
    taken: list[int]
    revoked: list[int]

    @property
    def seats(self) -> list[int]:
        return sorted(self.tokens)


OUTBOX_LIMIT = 64  # messages waiting for one client before it is let go


class Connection:
    """One open page: the seats it holds and its outbox. Messages to a page go through the
    outbox, in order, written by a task of the page's own; a page that stops reading is let
    go when its outbox fills (it reconnects and gets a fresh state), so it never holds up
    the table or the other pages."""

    def __init__(self, socket: WebSocket) -> None:
        self.socket = socket
        self.keys: dict[int, str] = {}  # each seat held: the hash of the token that opened it
        self.gone = False
        self._outbox: asyncio.Queue[str] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write())

    @property
    def seats(self) -> list[int]:
        return sorted(self.keys)

    def send(self, message: dict[str, Any] | str) -> None:
        if self.gone:
            return
        if self._outbox.qsize() >= OUTBOX_LIMIT:
            log.warning("a page stopped reading; letting it go")
            self.close()
            return
        self._outbox.put_nowait(message if isinstance(message, str) else _json(message))

    async def _write(self) -> None:
        try:
            while True:
                await self.socket.send_text(await self._outbox.get())
        except asyncio.CancelledError:
            raise
        except Exception:
            self.gone = True  # the page went away; the socket's own loop ends it

    def close(self) -> None:
        """Stop writing and close the socket (without waiting on a page that does not read)."""
        self.stop()
        task = asyncio.create_task(asyncio.wait_for(self.socket.close(code=1013), 5))
        task.add_done_callback(lambda t: t.cancelled() or t.exception())

    def stop(self) -> None:
        self.gone = True
        self._writer.cancel()


@dataclass
class LiveTable:
    stored: StoredTable
    game: WebGame
    state: Any
    actions: list[Any]
    last: dict[str, Any] | None = None
    connections: list[Connection] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    # Scale-out: the seats pages on other servers hold, as the relay last heard (None: not
    # looked up since this server had a page at the table).
    elsewhere: frozenset[int] | None = None
    # The store's revision of the table as this server holds it (see Store.append).
    revision: int = 0

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def version(self) -> int:
        return len(self.actions)

    def seat_kind(self, seat: int) -> str:
        return str(self.stored.seats[seat]["kind"])

    def status(self) -> tuple[str, dict[str, Any] | None]:
        outcome = self.state.outcome
        return ("playing", None) if outcome is None else (outcome.reason, outcome.to_dict())


def _replay(game: WebGame, stored: StoredTable) -> Any:
    """The table's state, rebuilt from its stored actions by the game's own replay."""
    return game.replay(stored.rules, stored.seed, stored.setup, stored.seats, stored.actions)


def _bot_worker(game: str, view: Any, level: int, seed: int) -> str:
    return get_game(game).bot_action(view, level, seed)


class TableManager:
    def __init__(self, store: Store, bot_workers: int = 1, executor: Executor | None = None):
        self.store = store
        self.tables: dict[str, LiveTable] = {}
        self._executor = executor
        self._bot_workers = bot_workers
        self.on_change: Callable[[str, int], Awaitable[None]] | None = None
        # Scale-out (set by the relay): told when the seats this server's pages hold at a
        # table may have changed; awaited before a table's first page here is welcomed, to
        # bring the table (a change may never have been relayed) and who is online through
        # other servers up to date (it never raises).
        self.on_presence: Callable[[LiveTable], None] | None = None
        self.on_first_page: Callable[[LiveTable], Awaitable[None]] | None = None

    @property
    def executor(self) -> Executor:
        if self._executor is None:
            # Bots are CPU-bound: separate processes keep the event loop (and other tables)
            # responsive; "spawn" because the server runs threads.
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(self._bot_workers, mp_context=context)
        return self._executor

    def close(self) -> None:
        for table in self.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

    # ---------------------------------------------------------------- set-up

    def create(self, body: TableIn) -> tuple[LiveTable, list[dict[str, Any]]]:
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
            specs.append(
                SeatSpec(
                    "bot" if seat.kind == "bot" else "human",
                    seat.name.strip() or default,
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
        state, setup = game.new(specs, body.first, body.rules, seed)
        tokens: list[str | None] = []
        renew_keys: list[str | None] = []
        stored_seats: list[dict[str, Any]] = []
        for spec, seat_in in zip(specs, body.seats, strict=True):
            token = new_token() if spec.kind == "human" else None
            # An invited seat's maker keeps a key to make a new link for it.
            renew = new_token() if seat_in.kind == "invite" else None
            tokens.append(token)
            renew_keys.append(renew)
            stored_seats.append(
                {
                    "name": spec.name,
                    "kind": spec.kind,
                    "invite": seat_in.kind == "invite",
                    "level": spec.level,
                    "role": game.role(state, len(stored_seats)),
                    "skill": spec.skill,
                    "token_hash": hash_token(token) if token else None,
                    "renew_hash": hash_token(renew) if renew else None,
                }
            )
        stored = self.store.create(body.game, game.rules_of(state), seed, setup, stored_seats)
        table = LiveTable(stored, game, state, [])
        self.tables[stored.id] = table
        seats_out = [
            {
                "seat": i,
                "name": s["name"],
                "kind": s["kind"],
                "invite": s["invite"],
                "token": tokens[i],
                "renew": renew_keys[i],
            }
            for i, s in enumerate(stored_seats)
        ]
        self.schedule_bot(table)
        return table, seats_out

    def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        stored = self.store.load(table_id)
        if stored is None:
            raise RefusedError(f"there is no table {table_id!r}", Code.NO_TABLE, table=table_id)
        table = self._rebuild(stored)
        self.tables[table_id] = table
        self.schedule_bot(table)
        return table

    def _rebuild(self, stored: StoredTable) -> LiveTable:
        game = get_game(stored.game)
        return LiveTable(
            stored, game, _replay(game, stored), list(stored.actions), revision=stored.revision
        )

    async def refresh(self, table_id: str) -> LiveTable | None:
        """Reload a table another server process has changed (None: not live here, or gone)."""
        table = self.tables.get(table_id)
        if table is None:
            return None
        async with table.lock:
            return table if await self._reload(table) else None

    async def _reload(self, table: LiveTable) -> bool:
        """Bring ``table`` up to the store in place, keeping its connections and its bot's
        task; the caller holds its lock. False if the store has no such table."""
        stored = await asyncio.to_thread(self.store.load, table.id)
        if stored is None:
            return False
        # The revision, not the count: an undo and a play elsewhere leave the count as it was.
        if stored.revision != table.revision or len(stored.actions) != table.version:
            state = await asyncio.to_thread(_replay, table.game, stored)
            table.stored, table.state, table.actions = stored, state, list(stored.actions)
            table.revision = stored.revision
            table.last = None  # the action that moved it was made elsewhere: nothing to animate
        else:
            table.stored.seats = stored.seats
        # An invite renewed on another server: the pages here that used its old token lose
        # the seat now, as they would there.
        self._revoke(table)
        return True

    def _revoke(self, table: LiveTable) -> None:
        """Take a seat from each page whose token no longer opens it (its invite was
        renewed), and tell the page."""
        before = self.online(table)
        revoked = False
        for connection in table.connections:
            seats = table.stored.seats
            lost = [s for s, key in connection.keys.items() if seats[s]["token_hash"] != key]
            for seat in lost:
                del connection.keys[seat]
                connection.send({"type": "revoked", "seat": seat, "seats": connection.seats})
            if lost:
                connection.send(self.state_message(table, connection.seats))
                revoked = True
        if revoked:  # (run on every change relayed from another server: mostly nothing)
            self._presence(table, before)

    # ---------------------------------------------------------------- seats and invites

    async def hello(self, table: LiveTable, connection: Connection, tokens: list[str]) -> None:
        """Give ``connection`` the seats ``tokens`` open, welcome it and send it the state;
        from then on it hears of every change. Under the table's lock, so that a claim, a
        renewal and the pages' seats change one at a time."""
        if self.on_first_page is not None and not table.connections:
            await self.on_first_page(table)
        async with table.lock:
            before = self.online(table)
            opened = await self._open(table, tokens)
            connection.keys = {seat: hash_token(token) for seat, token in opened.tokens.items()}
            if connection not in table.connections:
                table.connections.append(connection)
            connection.send(
                {
                    "type": "welcome",
                    "seats": opened.seats,
                    "tokens": opened.tokens,
                    "taken": opened.taken,
                    "revoked": opened.revoked,
                }
            )
            connection.send(self.state_message(table, connection.seats))
            self._presence(table, before)

    async def _open(self, table: LiveTable, tokens: list[str]) -> Opened:
        """The seats ``tokens`` open. An invite link opens its seat once: the first device
        to bring it gets a token of its own for the seat, and the link opens nothing after."""
        by_hash = {hash_token(t): t for t in tokens}
        hashes = set(by_hash)
        claimed: dict[int, str] = {}
        # A token that is not a device's own may be an invite to claim (perhaps one made on
        # another server): the seats are then read and changed in the store, where they are
        # current. A device's own token needs no write.
        own = {s["token_hash"] for s in table.stored.seats if not is_open_invite(s)}
        if hashes - own:

            def claim(seats: list[dict[str, Any]]) -> None:
                for i, seat in enumerate(seats):
                    if is_open_invite(seat) and seat["token_hash"] in hashes:
                        claimed[i] = new_token()
                        seat["invite_hash"] = seat["token_hash"]
                        seat["token_hash"] = hash_token(claimed[i])
                        seat["claimed"] = True

            table.stored.seats = await self._change_seats(table, claim)
        seats = table.stored.seats
        held = {
            i: by_hash[s["token_hash"]] for i, s in enumerate(seats) if s["token_hash"] in hashes
        }
        held.update(claimed)
        taken = [i for i, s in enumerate(seats) if s.get("invite_hash") in hashes and i not in held]
        revoked = [
            i for i, s in enumerate(seats) if hashes & set(s.get("retired", [])) and i not in held
        ]
        return Opened(held, taken, revoked)

    async def renew_invite(self, table: LiveTable, seat: int, key: str) -> str:
        """A new invite link's token for ``seat``, given the key its maker holds. The old link
        and the device that used it lose the seat (that device is told at once)."""
        token = new_token()

        def renew(seats: list[dict[str, Any]]) -> None:
            # One answer whether the seat has no link or the key is wrong, so that nobody
            # learns which seats were invited by asking.
            if not 0 <= seat < len(seats) or seats[seat].get("renew_hash") != hash_token(key):
                raise SeatKeyError(
                    f"that key does not renew an invite link for seat {seat}",
                    Code.NO_RENEW,
                    seat=seat,
                )
            old = seats[seat]
            # The old link and the device that used it open nothing now; they are kept to
            # tell such a device, when it comes back, what became of its seat.
            retired = [*old.get("retired", []), old["token_hash"], old.get("invite_hash")]
            old.update(
                token_hash=hash_token(token),
                claimed=False,
                invite_hash=None,
                retired=[h for h in retired if h],
            )

        async with table.lock:
            if table.state.outcome is not None:
                raise RefusedError(
                    "the game is over: there is no seat to invite anyone to",
                    Code.RENEW_AFTER_GAME,
                )
            table.stored.seats = await self._change_seats(table, renew)
            self._revoke(table)
        if self.on_change is not None:
            await self.on_change(table.id, table.version)  # other servers revoke their pages
        return token

    async def _change_seats(
        self, table: LiveTable, change: Callable[[list[dict[str, Any]]], None]
    ) -> list[dict[str, Any]]:
        try:
            _, seats = await asyncio.to_thread(self.store.change_seats, table.id, change)
        except KeyError:
            raise RefusedError(
                f"there is no table {table.id!r}", Code.NO_TABLE, table=table.id
            ) from None
        return seats

    # ---------------------------------------------------------------- actions

    async def act(
        self, table: LiveTable, seat: int, text: str, page: Connection | None = None
    ) -> None:
        """Apply one action for ``seat`` (sent by ``page``; None: the seat's bot); raises
        RefusedError or a GamenightError naming the problem, leaving the table as it was."""
        async with table.lock:
            _check_holds(page, seat)
            actor = table.game.actor(table.state)
            if actor is None:
                raise RefusedError("the game is over", Code.GAME_OVER)
            if seat != actor:
                raise RefusedError(
                    f"it is not seat {seat}'s turn (seat {actor} acts now)",
                    Code.NOT_YOUR_TURN,
                    seat=seat,
                    actor=actor,
                )
            payload, last = table.game.act(table.state, text)
            status, outcome = table.status()
            try:
                revision = await asyncio.to_thread(
                    self.store.append,
                    table.id,
                    number=table.version,
                    revision=table.revision,
                    payload=payload,
                    status=status,
                    outcome=outcome,
                )
            except ConflictError:
                table.state.pop()
                raise await self._moved_on(table) from None
            except Exception:
                table.state.pop()
                log.exception("storing an action failed")
                raise RefusedError(
                    "the action could not be saved; nothing changed", Code.NOT_SAVED
                ) from None
            table.actions.append(payload)
            table.revision = revision
            table.last = last
        await self.changed(table)

    async def undo(self, table: LiveTable, seat: int, page: Connection) -> None:
        async with table.lock:
            _check_holds(page, seat)
            if table.seat_kind(seat) != "human" or not table.game.can_undo(table.state, seat):
                raise RefusedError(
                    "only your own plays of this turn can be taken back", Code.UNDO_OWN
                )
            try:
                revision = await asyncio.to_thread(
                    self.store.undo, table.id, number=table.version - 1, revision=table.revision
                )
            except ConflictError:
                raise await self._moved_on(table) from None
            except Exception:
                log.exception("storing an undo failed")
                raise RefusedError(
                    "the action could not be saved; nothing changed", Code.NOT_SAVED
                ) from None
            table.state.pop()
            table.actions.pop()
            table.revision = revision
            table.last = {"seat": seat, "undo": True}
        await self.changed(table)

    async def _moved_on(self, table: LiveTable) -> RefusedError:
        """The refusal of a write the store found stale, once the table is as stored."""
        await self._reload(table)
        self.broadcast(table)  # "have another look": at the table as it now is
        return RefusedError("the table moved on meanwhile; look again", Code.MOVED_ON)

    async def changed(self, table: LiveTable) -> None:
        self.broadcast(table)
        if self.on_change is not None:
            await self.on_change(table.id, table.version)
        self.schedule_bot(table)

    # ---------------------------------------------------------------- bots

    def schedule_bot(self, table: LiveTable) -> None:
        actor = table.game.actor(table.state)
        if actor is None or table.seat_kind(actor) != "bot":
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        # Every caller runs in the event loop (API handlers, the socket, the relay, bots).
        table.bot_task = asyncio.create_task(self._bot_turn(table, actor, table.version))

    async def _bot_turn(self, table: LiveTable, seat: int, version: int) -> None:
        level = int(table.stored.seats[seat]["level"] or 1)
        seed = int.from_bytes(
            hashlib.sha256(f"{table.stored.seed}:{version}".encode()).digest()[:6], "big"
        )
        loop = asyncio.get_running_loop()
        for attempt in range(3):
            try:
                action = await loop.run_in_executor(
                    self.executor, _bot_worker, table.game.name, table.state.view(seat), level, seed
                )
                table.bot_task = None
                if table.version != version or table.game.actor(table.state) != seat:
                    self.schedule_bot(table)  # the table moved on meanwhile: think again
                    return
                await self.act(table, seat, action)
                return
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception(
                    "the bot at table %s, seat %s failed (try %s)", table.id, seat, attempt
                )
                await asyncio.sleep(0.2 * (attempt + 1))
        table.bot_task = None

    # ---------------------------------------------------------------- clients

    @staticmethod
    def here(table: LiveTable) -> list[int]:
        """The seats a page open on this server holds."""
        return sorted({seat for c in table.connections if not c.gone for seat in c.seats})

    @staticmethod
    def online(table: LiveTable) -> list[int]:
        """The seats someone holds an open page for, on this server or (scaled out) another."""
        return sorted({*TableManager.here(table), *(table.elsewhere or ())})

    def leave(self, table: LiveTable, connection: Connection) -> None:
        """``connection``'s page is closed: it hears no more, and the others hear if a seat
        went offline."""
        # The gone included: they have not been told away yet.
        before = sorted(
            {*(s for c in table.connections for s in c.seats), *(table.elsewhere or ())}
        )
        connection.stop()
        with contextlib.suppress(ValueError):
            table.connections.remove(connection)
        self._presence(table, before)
        if not table.connections:
            table.elsewhere = None  # nobody here to keep it for: looked up again for a page

    def set_elsewhere(self, table: LiveTable, seats: frozenset[int]) -> None:
        """The seats pages on other servers hold (from the relay); the pages here hear if
        that changes who is online."""
        before = self.online(table)
        table.elsewhere = seats
        self._tell_online(table, before)

    def _presence(self, table: LiveTable, before: list[int]) -> None:
        """The seats this server's pages hold may have changed: tell the pages if who is
        online did, and the relay."""
        self._tell_online(table, before)
        if self.on_presence is not None:
            self.on_presence(table)

    def _tell_online(self, table: LiveTable, before: list[int]) -> None:
        online = self.online(table)
        if online != before:
            text = _json({"type": "presence", "online": online})
            for connection in list(table.connections):
                connection.send(text)

    def broadcast(self, table: LiveTable) -> None:
        """Send every page the table's state as its seats see it; pages that are gone are
        dropped."""
        # Pages holding the same seats (spectators, above all) see the same view: build and
        # serialise it once.
        texts: dict[tuple[int, ...], str] = {}
        for connection in [c for c in table.connections if c.gone]:
            self.leave(table, connection)
        for connection in list(table.connections):
            key = tuple(connection.seats)
            if key not in texts:
                texts[key] = _json(self.state_message(table, connection.seats))
            connection.send(texts[key])

    def state_message(self, table: LiveTable, seats: list[int]) -> dict[str, Any]:
        actor = table.game.actor(table.state)
        active = actor if actor in seats else (seats[0] if seats else None)
        view = table.game.view(table.state, active)
        return {
            "type": "state",
            "table": table.id,
            "version": table.version,
            "seats": seats,
            "active": active,
            "actor": actor,
            "names": [s["name"] for s in table.stored.seats],
            "kinds": [s["kind"] for s in table.stored.seats],
            "online": self.online(table),
            "view": view,
            "last": table.last,
            "can_undo": active is not None
            and table.seat_kind(active) == "human"
            and table.game.can_undo(table.state, active),
        }
