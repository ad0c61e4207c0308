"""The referee of one table: every action goes through the engine and into the store.

The referee holds a table's game and its seats, and changes them only through the store: an
action is applied to the engine, written in one transaction that checks it is still the
table's next action (the action count and the revision the writer read, the seat's token),
and only then is it the table's. Anything else is refused with the table left as it was.
It knows nothing of sockets; the table manager tells the pages.

Every act and undo carries the revision the page saw: a page that has not seen the latest
change is refused as "moved on" and sent the table as it now is, so a stale page, a second
page of one seat or a bot that thought about an older position never gets a play through.
A message id makes a resent message harmless: it is answered as the original was.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, TypeVar

from gamenight.core.bounds import Bound
from gamenight.core.endings import TABLE_REASONS, table_outcome
from gamenight.core.game import GameState
from gamenight.core.outcome import Outcome
from gamenight.core.record import GameRecord
from gamenight.web.games import Parts, WebGame, get_game
from gamenight.web.protocol import ClockIn
from gamenight.web.refusals import Code, RefusedError, no_table
from gamenight.web.seats import SeatBook
from gamenight.web.store import (
    DuplicateError,
    LeaseLostError,
    MovedOnError,
    NewTable,
    Receipt,
    SeatLostError,
    StoredTable,
    TableStore,
    Timing,
)

log = logging.getLogger("gamenight.web")
T = TypeVar("T")
# Message ids a live table remembers, to answer a resent message at once. A page resends
# only what it has not heard answered, the messages of just now; an older one is answered
# from the store's receipts (its receipts_kept revisions), as on another server. Held for
# every live table, at some 0.3 KB a message id.
RECEIPTS_KEPT = 16


@dataclass(frozen=True, slots=True)
class Accepted:
    """An action the store has: the message that brought it, and the revision after it."""

    message_id: str | None
    kind: str  # "act" or "undo"
    number: int
    revision: int


# ---------------------------------------------------------------- clocks (table.md T6–T9)

NONE, REALTIME, TURN = "none", "realtime", "turn"
HOUR_MS = 3_600_000
REFILL_MS = 30_000  # the least a seat has once a stand-in took it or its owner took it back

# Held at set-up only, as rules are (core.bounds): a stored clock loads whatever it holds.
CLOCK_BOUNDS: dict[str, Bound] = {
    "kind": Bound(
        "none, lichess's real-time or Board Game Arena's turn-based", choices=(NONE, REALTIME, TURN)
    ),
    "bank_seconds": Bound("a quarter of a minute (lichess's least) to two hours a seat", 15, 7200),
    "increment_seconds": Bound("lichess's range", 0, 180),
    "turn_hours": Bound("three minutes to two weeks a turn", 0.05, 336),
    "grace_seconds": Bound("long enough to reload, short enough to keep a game going", 10, 86400),
    "bot_level": Bound("the bots' levels", 1, 5),
    "on_timeout": Bound("a stand-in bot, or the flag loses", choices=("bot", "lose")),
    "abandon_hours": Bound("three minutes to a month", 0.05, 720),
}


def wall_ms() -> int:
    """The server's time in ms since 1970: what every server of a table agrees on."""
    return int(time.time() * 1000)


def moment(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, UTC)


def _allowed(bound: Bound) -> str:
    """A bound as a page shows it in any language: ``15–7200`` or ``bot, lose``."""
    if bound.choices:
        return ", ".join(bound.choices)
    return f"{bound.low:g}–{bound.high:g}"


@dataclass(frozen=True)
class ClockSettings:
    """A table's clock as set up (kept in its stored ``setup`` as ``clock``)."""

    kind: str = NONE
    bank_ms: int = 300_000
    increment_ms: int = 5_000
    turn_ms: int = 24 * HOUR_MS
    grace_ms: int = 120_000
    bot_level: int = 2
    on_timeout: str = "bot"
    abandon_ms: int = 72 * HOUR_MS

    @classmethod
    def checked(cls, given: ClockIn) -> ClockSettings:
        """The settings a host gave, held to CLOCK_BOUNDS (T7): a coded refusal naming the
        first field outside its bound."""
        values = given.model_dump()
        for name, bound in CLOCK_BOUNDS.items():
            if not bound.allows(values[name]):
                raise RefusedError(
                    f"clock.{name} must be {bound.text()} ({bound.reason}), not {values[name]!r}",
                    Code.CLOCK_BOUNDS,
                    field=name,
                    allowed=_allowed(bound),
                )
        return cls(
            kind=given.kind,
            bank_ms=round(given.bank_seconds * 1000),
            increment_ms=round(given.increment_seconds * 1000),
            turn_ms=round(given.turn_hours * HOUR_MS),
            grace_ms=round(given.grace_seconds * 1000),
            bot_level=int(given.bot_level),
            on_timeout=given.on_timeout,
            abandon_ms=round(given.abandon_hours * HOUR_MS),
        )

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ClockSettings:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)

    @property
    def timed(self) -> bool:
        return self.kind != NONE

    def full(self) -> int:
        """The time a seat starts with (real-time: its bank; turn-based: one turn)."""
        return self.bank_ms if self.kind == REALTIME else self.turn_ms


@dataclass(frozen=True)
class Clock:
    """Where a table's clock stands: each seat's time ``left`` (ms) as of ``since`` for the
    seat acting then (``actor``; the others' does not run), and ``active``, the last moment
    something happened there (an action, a page there): abandonment counts from it."""

    settings: ClockSettings
    left: tuple[int, ...]
    actor: int | None
    since: int
    active: int

    @classmethod
    def start(cls, settings: ClockSettings, seats: int, actor: int | None, now: int) -> Clock:
        return cls(settings, (settings.full(),) * seats, actor, now, now)

    def to_dict(self) -> dict[str, Any]:
        return {
            "left": list(self.left),
            "actor": self.actor,
            "since": self.since,
            "active": self.active,
        }

    @classmethod
    def from_dict(cls, settings: ClockSettings, data: dict[str, Any]) -> Clock:
        return cls(settings, tuple(data["left"]), data["actor"], data["since"], data["active"])

    def remaining(self, seat: int, now: int) -> int:
        """``seat``'s time left at ``now`` (negative once it ran out)."""
        spent = now - self.since if seat == self.actor and self.settings.timed else 0
        return self.left[seat] - spent

    def passed(self, actor: int | None, now: int) -> Clock:
        """The clock once an action made ``actor`` the seat to act (T6): the seat that
        acted is charged for its time; if its turn is over, a real-time seat gains the
        increment and a turn-based seat's next turn starts full."""
        left = list(self.left)
        if self.actor is not None and self.settings.timed:
            left[self.actor] = max(0, self.remaining(self.actor, now))
            if actor != self.actor:
                if self.settings.kind == REALTIME:
                    left[self.actor] += self.settings.increment_ms
                else:
                    left[self.actor] = self.settings.turn_ms
        return replace(self, left=tuple(left), actor=actor, since=now, active=now)

    def refilled(self, seat: int, now: int) -> Clock:
        """``seat`` has at least REFILL_MS (a stand-in took it, or its owner took it back)."""
        left = list(self.left)
        left[seat] = max(self.remaining(seat, now), REFILL_MS)
        if seat == self.actor:
            return replace(self, left=tuple(left), since=now)
        return replace(self, left=tuple(left))

    def touched(self, now: int) -> Clock:
        return replace(self, active=now)


class HomeLostError(RefusedError):
    """This process is no longer the table's home (another took it: web.homes): nothing was
    written, the table has left memory here and its pages reconnect to the new home."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id} moved to another process", Code.NOT_SAVED)


def _accepted(receipt: Receipt) -> Accepted:
    return Accepted(receipt.message_id, receipt.kind, receipt.number, receipt.revision)


def replay(game: WebGame[GameState], stored: StoredTable) -> Any:
    """The table's state, rebuilt from its stored actions by the game's own replay."""
    return game.replay(stored.rules, stored.seed, stored.setup, stored.seats, stored.actions)


class Referee:
    def __init__(
        self,
        store: TableStore,
        stored: StoredTable,
        state: Any,
        now: Callable[[], int] = wall_ms,
        *,
        epoch: int | None = None,
        lost: Callable[[str], None] = lambda _: None,
    ) -> None:
        """``epoch``: the home's fencing token (web.homes), named by every write; ``lost``
        is told, once, when the store refused one for it (another process took the table)."""
        self.store = store
        self.epoch = epoch
        self._lost = lost
        self.stored = stored
        self.game = get_game(stored.game)
        self.state = state
        self.seats = SeatBook.from_dicts(stored.seats)
        self.actions: list[Any] = list(stored.actions)
        self.revision = stored.revision
        self.now = now
        self.ending = self._ending(stored)
        self.clock = self._clock(stored)
        # When each seat's pages were last seen (in memory: a page away from a restarted
        # server counts from the restart).
        self.seen: dict[int, int] = {}
        self._timing_lock = asyncio.Lock()
        self._timings = self._written = 0  # pictures of the clock taken, and the latest stored
        # The latest action, as the pages animate and draw it: derived from the state (so a
        # reloaded table shows it as the live one did), once per change.
        self.last: dict[str, Any] | None = self.game.last(state)
        # The views' parts no seat changes, once per change of the state (web.games.Parts).
        self.parts = Parts()
        # A replayed state holds every play: it keeps only those undo may take back.
        self.game.settle(state)
        self.lock = asyncio.Lock()
        self._accepted: OrderedDict[str, Accepted] = OrderedDict()

    @classmethod
    async def load(
        cls,
        store: TableStore,
        table_id: str,
        now: Callable[[], int] = wall_ms,
        *,
        epoch: int | None = None,
        lost: Callable[[str], None] = lambda _: None,
    ) -> Referee | None:
        """The table as stored (None: no such table); the replay runs off the event loop."""
        stored = await store.load(table_id)
        if stored is None:
            return None
        state = await asyncio.to_thread(replay, get_game(stored.game), stored)
        return cls(store, stored, state, now, epoch=epoch, lost=lost)

    def lose(self) -> HomeLostError:
        """The store refused a write for this home's epoch: tell ``lost`` (once), and the
        refusal to raise."""
        lost, self._lost = self._lost, lambda _: None
        lost(self.id)
        return HomeLostError(self.id)

    def _clock(self, stored: StoredTable) -> Clock | None:
        settings = stored.setup.get("clock")
        if not isinstance(settings, dict):
            return None  # a table set up before there were clocks
        if stored.clock is None:
            return Clock.start(
                ClockSettings.from_dict(settings), len(self.seats), self.actor, self.now()
            )
        return Clock.from_dict(ClockSettings.from_dict(settings), stored.clock)

    @staticmethod
    def _ending(stored: StoredTable) -> Outcome | None:
        """How the table ended a game its rules had not (core.endings), if it did."""
        if stored.status in TABLE_REASONS and stored.outcome is not None:
            return Outcome.from_dict(stored.outcome)
        return None

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, by its rules or by the table; None while in play."""
        return self.ending or self.state.outcome

    def timing(self, online: list[int]) -> Timing | None:
        """The clock to store, with the next moment the table must act of itself."""
        if self.clock is None:
            return None
        due = self.due(online)
        return Timing(self.clock.to_dict(), None if due is None else moment(due))

    def due(self, online: list[int]) -> int | None:
        """The next moment (ms) the table must act of itself, given the seats ``online``:
        the actor's flag (T6), its grace running out (T8), the table abandoned (T3)."""
        clock = self.clock
        if clock is None or self.outcome is not None:
            return None
        moments = []
        if not online:
            moments.append(clock.active + clock.settings.abandon_ms)
        actor = self.actor
        # An invited seat nobody has come to yet neither flags nor is stood in for: the
        # game waits for its guest (or is abandoned).
        if actor is not None:
            seat = self.seats[actor]
            if not seat.played_by_bot and not seat.open_invite:
                if clock.settings.timed:
                    moments.append(clock.since + clock.left[actor])
                if seat.invite and actor not in online:
                    away = max(self.seen.get(actor, clock.since), clock.since)
                    moments.append(away + clock.settings.grace_ms)
        return min(moments) if moments else None

    @property
    def clock_settings(self) -> ClockSettings:
        """The host's clock settings (a table from before there were clocks: the defaults)."""
        return self.clock.settings if self.clock is not None else ClockSettings()

    def check_turn(self, seat: int) -> None:
        """Refuse unless ``seat`` is to act now: the game is over, or another seat's turn."""
        actor = self.actor
        if actor is None:
            raise RefusedError("the game is over", Code.GAME_OVER)
        if seat != actor:
            raise RefusedError(
                f"it is not seat {seat}'s turn (seat {actor} acts now)",
                Code.NOT_YOUR_TURN,
                seat=seat,
                actor=actor,
            )

    def flagged(self, seat: int) -> bool:
        """Whether ``seat`` is the actor and its time has run out (a stand-in never is)."""
        clock = self.clock
        return (
            clock is not None
            and clock.settings.timed
            and seat == clock.actor
            and not self.seats[seat].played_by_bot
            and not self.seats[seat].open_invite
            and clock.remaining(seat, self.now()) <= 0
        )

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def version(self) -> int:
        """How many actions the table has."""
        return len(self.actions)

    @property
    def actor(self) -> int | None:
        return None if self.ending is not None else self.game.actor(self.state)

    @property
    def bot_to_play(self) -> bool:
        """Whether the seat to act is a bot's (its own or a stand-in)."""
        actor = self.actor
        return actor is not None and self.seats[actor].played_by_bot

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    def status(self) -> tuple[str, dict[str, Any] | None]:
        outcome = self.outcome
        return ("playing", None) if outcome is None else (outcome.reason, outcome.to_dict())

    # ---------------------------------------------------------------- actions

    async def act(
        self,
        seat: int,
        text: str,
        *,
        key: str | None,
        seen: int | None = None,
        message_id: str | None = None,
        online: list[int] | None = None,
    ) -> Accepted:
        """Apply one action for ``seat`` (``online``: the seats with a page open, for the
        clock's next deadline). ``key`` is the hash of the token the page opened
        the seat with (None: the seat's bot); ``seen``, the revision the page or the bot
        acted on. Raises RefusedError or a GamenightError naming the problem, leaving the
        table as it was."""
        async with self.lock:
            online = online or []
            known = self._known(message_id) or await self._check(seat, key, seen, message_id)
            if known is not None:
                return known
            self.check_turn(seat)
            if self.flagged(seat):
                raise RefusedError(f"seat {seat}'s time has run out", Code.OUT_OF_TIME, seat=seat)
            if self.game.simulates:  # physics never runs in the event loop
                payload, last = await asyncio.to_thread(self.game.act, self.state, text)
            else:
                payload, last = self.game.act(self.state, text)
            status, outcome = self.status()
            number = self.version
            before = self.clock
            if before is not None:
                self.clock = before.passed(self.actor, self.now())
            try:
                # The seat's token is checked again in the store's transaction: its invite
                # may have been renewed on another server that this one has not heard from.
                # (answered once the group commit that holds it has committed: web.commits)
                self.revision = await self.store.append(
                    self.id,
                    number=number,
                    revision=self.revision,
                    payload=payload,
                    status=status,
                    outcome=outcome,
                    seat=None if key is None else seat,
                    token_hash=key,
                    message_id=message_id,
                    timing=self.timing(online),
                    epoch=self.epoch,
                )
            except BaseException as exc:
                self.state.pop()
                self.clock = before
                return await self._refused(exc, seat)
            self._made(payload, last)
            return self._remember(Accepted(message_id, "act", number, self.revision))

    async def undo(
        self, seat: int, *, key: str | None, seen: int | None = None, message_id: str | None = None
    ) -> Accepted:
        """Take back ``seat``'s latest play, within its own turn."""
        async with self.lock:
            known = self._known(message_id) or await self._check(seat, key, seen, message_id)
            if known is not None:
                return known
            if self.seats[seat].played_by_bot or not self.game.can_undo(self.state, seat):
                raise RefusedError(
                    "only your own plays of this turn can be taken back", Code.UNDO_OWN
                )
            number = self.version - 1
            try:
                self.revision = await self.store.undo(
                    self.id,
                    number=number,
                    revision=self.revision,
                    seat=seat,
                    token_hash=key,
                    message_id=message_id,
                    epoch=self.epoch,
                )
            except BaseException as exc:
                return await self._refused(exc, seat)
            self._taken_back()
            return self._remember(Accepted(message_id, "undo", number, self.revision))

    def _made(self, payload: Any, last: dict[str, Any] | None) -> None:
        """An act the store has (here or, followed, elsewhere): the table's from now on, and
        what can no longer be taken back let go of."""
        self.actions.append(payload)
        self.last = last
        self.game.settle(self.state)

    def _taken_back(self) -> None:
        """An undo the store has: the latest play gone (IndexError, nothing changed, if the
        state no longer holds it)."""
        self.state.pop()
        self.actions.pop()
        self.last = self.game.last(self.state)

    def _known(self, message_id: str | None) -> Accepted | None:
        return None if message_id is None else self._accepted.get(message_id)

    def _remember(self, accepted: Accepted) -> Accepted:
        if accepted.message_id is not None:
            self._accepted[accepted.message_id] = accepted
            while len(self._accepted) > RECEIPTS_KEPT:
                self._accepted.popitem(last=False)
        return accepted

    async def _check(
        self, seat: int, key: str | None, seen: int | None, message_id: str | None
    ) -> Accepted | None:
        """Refuse an action from someone who does not hold ``seat`` or saw an older table,
        unless the store has the message already (applied perhaps by another server, the
        page having resent it there): that answer is returned."""
        if not 0 <= seat < len(self.seats):
            raise RefusedError(f"there is no seat {seat}", Code.NOT_YOUR_SEAT, seat=seat)
        holds = self.seats[seat].played_by_bot if key is None else self.seats.opens(seat, key)
        if not holds:
            raise RefusedError(
                f"you do not hold seat {seat}'s token", Code.NOT_YOUR_SEAT, seat=seat
            )
        if key is not None and self.seats[seat].played_by_bot:
            raise RefusedError(
                f"a bot plays seat {seat} now: take the seat back first", Code.STOOD_IN, seat=seat
            )
        if seen is None or seen == self.revision:
            return None
        if message_id is not None:
            receipt = await self.store.receipt(self.id, message_id)
            if receipt is not None:
                await self._reload()
                return self._remember(_accepted(receipt))
        raise RefusedError("the table moved on meanwhile; look again", Code.MOVED_ON)

    async def _refused(self, exc: BaseException, seat: int) -> Accepted:
        """After the store refused a write (the state as it was before it): the original
        answer for a message it has already; else the table as stored, and the refusal."""
        if isinstance(exc, LeaseLostError):
            raise self.lose() from None
        if isinstance(exc, DuplicateError):
            await self._reload()
            return self._remember(_accepted(exc.receipt))
        if isinstance(exc, SeatLostError):
            await self._reload()  # the seats as they now are
            raise RefusedError(
                f"you do not hold seat {seat}'s token", Code.NOT_YOUR_SEAT, seat=seat
            ) from None
        if isinstance(exc, MovedOnError):
            await self._reload()
            raise RefusedError("the table moved on meanwhile; look again", Code.MOVED_ON) from None
        if not isinstance(exc, Exception):
            raise exc  # a cancellation
        log.error("storing an action failed", exc_info=exc)
        raise RefusedError(
            "the action could not be saved; nothing changed", Code.NOT_SAVED
        ) from None

    def record(self) -> GameRecord:
        """The game's record: the stored actions, replaying to the state the table is in
        (whose engine has forgotten all but the turn's plays)."""
        stored = self.stored
        return self.game.record(
            self.state, stored.rules, stored.seed, stored.setup, self.seats.to_dicts(), self.actions
        )

    def history(self) -> Callable[[], Any]:
        """A call that rebuilds the table's state from its actions so far, every one on the
        engine's stack (the live state keeps only the turn's plays): for the replay's steps,
        to run off the event loop. The actions are read now."""
        stored, actions = self.stored, list(self.actions)
        return functools.partial(
            self.game.replay, stored.rules, stored.seed, stored.setup, stored.seats, actions
        )

    # ---------------------------------------------------------------- the store

    async def reload(self) -> bool:
        """Bring the table up to the store in place; False if the store has no such table."""
        async with self.lock:
            return await self._reload()

    async def _reload(self) -> bool:
        stored = await self.store.load(self.id)
        if stored is None:
            return False
        if stored.revision != self.revision or len(stored.actions) != self.version:
            state = await asyncio.to_thread(replay, self.game, stored)
            self.state, self.actions = state, list(stored.actions)
            self.last = self.game.last(state)
            self.game.settle(state)
        self.stored, self.revision = stored, stored.revision
        self.seats = SeatBook.from_dicts(stored.seats)
        self.ending = self._ending(stored)
        self.clock = self._clock(stored)
        return True

    async def follow(
        self,
        kind: str,
        number: int,
        revision: int,
        payload: Any = None,
        clock: dict[str, Any] | None = None,
        status: str | None = None,
    ) -> bool | None:
        """Follow an act or an undo another server stored (web.relay) by making it here alone,
        rather than reading the table from the store and replaying it: ``number`` is the
        action's, ``revision`` the table's after it, ``payload`` the act's as stored,
        ``clock`` the clock stored with it and ``status`` the table's after it there.

        True: followed. None: the table has that revision already (nothing to do). False: it
        cannot be followed — a revision before it is missing, or it does not apply here or
        does not end as it did there — and the table must be read from the store, which
        stays the truth."""
        async with self.lock:
            if revision <= self.revision:
                return None
            if revision != self.revision + 1 or self.ending is not None:
                return False
            if kind == "act" and number == self.version:
                try:
                    if self.game.simulates:  # (drawing a flick simulates it: off the loop)
                        last = await asyncio.to_thread(self._push_stored, payload)
                    else:
                        last = self._push_stored(payload)
                except Exception as exc:
                    log.warning("table %s: a relayed act does not apply (%r)", self.id, exc)
                    return False
                if status is not None and self.status()[0] != status:
                    self.state.pop()
                    return False
                self._made(payload, last)
            elif kind == "undo" and 0 <= number == self.version - 1:
                try:
                    self._taken_back()
                except IndexError:  # a play this table had let go of: the store knows
                    return False
            else:
                return False
            self.revision = revision
            if clock is not None and self.clock is not None:
                self.clock = Clock.from_dict(self.clock.settings, clock)
            return True

    def _push_stored(self, payload: Any) -> dict[str, Any] | None:
        """Make a stored action; what the pages draw of it (the state as it was if either
        fails)."""
        self.game.push_stored(self.state, payload)
        try:
            return self.game.last(self.state)
        except BaseException:
            self.state.pop()
            raise

    async def end(self, reason: str, losers: tuple[int, ...], online: list[int]) -> bool:
        """End the game for a reason of the table's (core.endings, T1–T3); False if it is
        over already (perhaps ended meanwhile on another server). The caller holds the
        lock."""
        if self.finished:
            return False
        outcome = table_outcome(reason, self.state.standing(), losers)
        try:
            self.revision = await self.store.finish(
                self.id,
                revision=self.revision,
                status=reason,
                outcome=outcome.to_dict(),
                timing=self.timing(online),
                epoch=self.epoch,
            )
        except LeaseLostError:
            raise self.lose() from None
        except MovedOnError:
            await self._reload()
            return False
        self.stored = replace(self.stored, status=reason, outcome=outcome.to_dict())
        self.ending = outcome
        return True

    def store_timing(self, online: list[int]) -> Coroutine[Any, Any, None]:
        """Store the clock and deadline as they are now, with who is ``online`` (never
        raises: the next write fixes it). The picture is taken at the call, and an older
        one never lands after a newer one, so it may be awaited later (in a task)."""
        timing = self.timing(online)
        self._timings += 1
        return self._write_timing(self._timings, timing)

    async def _write_timing(self, taken: int, timing: Timing | None) -> None:
        if timing is None:
            return
        async with self._timing_lock:
            if taken <= self._written:
                return
            try:
                await self.store.set_timing(self.id, timing, epoch=self.epoch)
            except LeaseLostError:
                self.lose()
            except Exception:
                log.exception("the clock of table %s could not be stored", self.id)
            self._written = taken

    async def query(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """The game's answer to the query ``name`` about the table as it is (web.games:
        Color City's ``predict``, Centrix's ``preview``), off the loop; under the lock, since
        an action may be changing the state in another thread."""
        async with self.lock:
            result: dict[str, Any] = await asyncio.to_thread(
                self.game.query, self.state, name, args
            )
        return result

    # ---------------------------------------------------------------- the clock's owners
    # (web.timekeeper, web.finisher and web.seating ask; only the referee writes its fields)

    def present(self, online: list[int]) -> Coroutine[Any, Any, None] | None:
        """Who is online changed: each seat online (or never seen) is seen now, and the
        clock notes the moment (abandonment and grace count from it). The write of the
        timing it takes, to await or run as a task (None: nothing to store)."""
        now = self.now()
        for seat in range(len(self.seats)):
            if seat in online or seat not in self.seen:
                self.seen[seat] = now
        if self.clock is None or self.outcome is not None:
            return None
        self.clock = self.clock.touched(now)
        return self.store_timing(online)

    def saw(self, seats: Iterable[int]) -> None:
        """``seats``' pages are here now."""
        now = self.now()
        for seat in seats:
            self.seen[seat] = now

    async def stand_in(
        self, seat: int, level: int | None, online: list[int], *, resigned: bool = False
    ) -> bool:
        """A bot of ``level`` plays ``seat`` from now on (None: the seat's owner takes it
        back, seen now), its time refilled (T8, T9); whether the seats changed. The caller
        holds the lock."""
        changed = await self.change_seats(
            lambda book: book.stand_in(seat, level, resigned=resigned)
        )
        if level is None:
            self.saw([seat])
        if self.clock is not None:
            self.clock = self.clock.refilled(seat, self.now())
            await self.store_timing(online)
        return changed

    async def store_new(
        self, host_hash: str | None, claim: Callable[[str], Awaitable[int]]
    ) -> None:
        """Store this table, new (the store names it): its clock, and when it must next
        act by itself, are written with it, in one transaction; then ``claim`` it (this
        process is its first home: web.homes), for the epoch its writes name."""
        draft = self.stored
        self.stored = await self.store.create(
            NewTable(
                draft.game,
                draft.rules,
                draft.seed,
                draft.setup,
                draft.seats,
                host_hash,
                timing=self.timing([]),
            )
        )
        self.epoch = await claim(self.stored.id)

    async def rematch_made(self, table_id: str) -> None:
        """The rematch of this table is ``table_id`` (every page is sent there)."""
        await self.store.set_rematch(self.id, table_id)
        self.stored.setup = {**self.stored.setup, "rematch": table_id}

    async def archive(self, archived: bool) -> bool:
        """Archive the table, or bring it back (False: the store has no such table)."""
        done = await self.store.archive(self.id, archived)
        if done:
            self.stored.archived = archived
        return done

    async def change_seats(self, change: Callable[[SeatBook], T]) -> T:
        """Let ``change`` edit the seats, in the store's transaction (where they are current:
        another server may have changed them); the caller holds the lock."""

        def edit(seats: list[dict[str, Any]]) -> T:
            book = SeatBook.from_dicts(seats)
            result = change(book)
            seats[:] = book.to_dicts()
            return result

        try:
            result, stored = await self.store.edit_seats(self.id, edit, epoch=self.epoch)
        except KeyError:
            raise no_table(self.id) from None
        except LeaseLostError:
            raise self.lose() from None
        self.stored.seats = stored
        self.seats = SeatBook.from_dicts(stored)
        return result
