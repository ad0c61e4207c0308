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
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from gamenight.core.game import GameState
from gamenight.web.games import WebGame, get_game
from gamenight.web.refusals import Code, RefusedError
from gamenight.web.seats import SeatBook
from gamenight.web.storage import (
    DuplicateError,
    MovedOnError,
    Receipt,
    SeatLostError,
    Store,
    StoredTable,
)

log = logging.getLogger("gamenight.web")
T = TypeVar("T")
RECEIPTS_KEPT = 256  # message ids remembered per table, to answer a resent message


@dataclass(frozen=True)
class Accepted:
    """An action the store has: the message that brought it, and the revision after it."""

    message_id: str | None
    kind: str  # "act" or "undo"
    number: int
    revision: int


def _accepted(receipt: Receipt) -> Accepted:
    return Accepted(receipt.message_id, receipt.kind, receipt.number, receipt.revision)


def replay(game: WebGame[GameState], stored: StoredTable) -> Any:
    """The table's state, rebuilt from its stored actions by the game's own replay."""
    return game.replay(stored.rules, stored.seed, stored.setup, stored.seats, stored.actions)


class Referee:
    def __init__(self, store: Store, stored: StoredTable, state: Any) -> None:
        self.store = store
        self.stored = stored
        self.game = get_game(stored.game)
        self.state = state
        self.seats = SeatBook.from_dicts(stored.seats)
        self.actions: list[Any] = list(stored.actions)
        self.revision = stored.revision
        # The latest action, as the pages animate and draw it: derived from the state (so a
        # reloaded table shows it as the live one did), once per change.
        self.last: dict[str, Any] | None = self.game.last(state)
        self.lock = asyncio.Lock()
        self._accepted: OrderedDict[str, Accepted] = OrderedDict()

    @classmethod
    async def load(cls, store: Store, table_id: str) -> Referee | None:
        """The table as stored (None: no such table); the replay runs off the event loop."""
        stored = await asyncio.to_thread(store.load, table_id)
        if stored is None:
            return None
        return cls(store, stored, await asyncio.to_thread(replay, get_game(stored.game), stored))

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def version(self) -> int:
        """How many actions the table has."""
        return len(self.actions)

    @property
    def actor(self) -> int | None:
        return self.game.actor(self.state)

    @property
    def finished(self) -> bool:
        return self.state.outcome is not None

    def status(self) -> tuple[str, dict[str, Any] | None]:
        outcome = self.state.outcome
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
    ) -> Accepted:
        """Apply one action for ``seat``. ``key`` is the hash of the token the page opened
        the seat with (None: the seat's bot); ``seen``, the revision the page or the bot
        acted on. Raises RefusedError or a GamenightError naming the problem, leaving the
        table as it was."""
        async with self.lock:
            known = self._known(message_id) or await self._check(seat, key, seen, message_id)
            if known is not None:
                return known
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
            if self.game.simulates:  # physics never runs in the event loop
                payload, last = await asyncio.to_thread(self.game.act, self.state, text)
            else:
                payload, last = self.game.act(self.state, text)
            status, outcome = self.status()
            number = self.version
            try:
                # The seat's token is checked again in the store's transaction: its invite
                # may have been renewed on another server that this one has not heard from.
                self.revision = await asyncio.to_thread(
                    functools.partial(
                        self.store.append,
                        self.id,
                        number=number,
                        revision=self.revision,
                        payload=payload,
                        status=status,
                        outcome=outcome,
                        seat=None if key is None else seat,
                        token_hash=key,
                        message_id=message_id,
                    )
                )
            except BaseException as exc:
                self.state.pop()
                return await self._refused(exc, seat)
            self.actions.append(payload)
            self.last = last
            return self._remember(Accepted(message_id, "act", number, self.revision))

    async def undo(
        self, seat: int, *, key: str | None, seen: int | None = None, message_id: str | None = None
    ) -> Accepted:
        """Take back ``seat``'s latest play, within its own turn."""
        async with self.lock:
            known = self._known(message_id) or await self._check(seat, key, seen, message_id)
            if known is not None:
                return known
            if self.seats[seat].is_bot or not self.game.can_undo(self.state, seat):
                raise RefusedError(
                    "only your own plays of this turn can be taken back", Code.UNDO_OWN
                )
            number = self.version - 1
            try:
                self.revision = await asyncio.to_thread(
                    functools.partial(
                        self.store.undo,
                        self.id,
                        number=number,
                        revision=self.revision,
                        seat=seat,
                        token_hash=key,
                        message_id=message_id,
                    )
                )
            except BaseException as exc:
                return await self._refused(exc, seat)
            self.state.pop()
            self.actions.pop()
            self.last = self.game.last(self.state)
            return self._remember(Accepted(message_id, "undo", number, self.revision))

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
        holds = self.seats[seat].is_bot if key is None else self.seats.opens(seat, key)
        if not holds:
            raise RefusedError(
                f"you do not hold seat {seat}'s token", Code.NOT_YOUR_SEAT, seat=seat
            )
        if seen is None or seen == self.revision:
            return None
        if message_id is not None:
            receipt = await asyncio.to_thread(self.store.receipt, self.id, message_id)
            if receipt is not None:
                await self._reload()
                return self._remember(_accepted(receipt))
        raise RefusedError("the table moved on meanwhile; look again", Code.MOVED_ON)

    async def _refused(self, exc: BaseException, seat: int) -> Accepted:
        """After the store refused a write (the state as it was before it): the original
        answer for a message it has already; else the table as stored, and the refusal."""
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

    # ---------------------------------------------------------------- the store

    async def reload(self) -> bool:
        """Bring the table up to the store in place; False if the store has no such table."""
        async with self.lock:
            return await self._reload()

    async def _reload(self) -> bool:
        stored = await asyncio.to_thread(self.store.load, self.id)
        if stored is None:
            return False
        if stored.revision != self.revision or len(stored.actions) != self.version:
            state = await asyncio.to_thread(replay, self.game, stored)
            self.state, self.actions = state, list(stored.actions)
            self.last = self.game.last(state)
        self.stored, self.revision = stored, stored.revision
        self.seats = SeatBook.from_dicts(stored.seats)
        return True

    async def change_seats(self, change: Callable[[SeatBook], T]) -> T:
        """Let ``change`` edit the seats, in the store's transaction (where they are current:
        another server may have changed them); the caller holds the lock."""

        def edit(seats: list[dict[str, Any]]) -> T:
            book = SeatBook.from_dicts(seats)
            result = change(book)
            seats[:] = book.to_dicts()
            return result

        try:
            result, stored = await asyncio.to_thread(self.store.change_seats, self.id, edit)
        except KeyError:
            raise RefusedError(
                f"there is no table {self.id!r}", Code.NO_TABLE, table=self.id
            ) from None
        self.stored.seats = stored
        self.seats = SeatBook.from_dicts(stored)
        return result
