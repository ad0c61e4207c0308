"""Who sits where at a live table: a page's hello opens the seats its tokens open (claiming
an invite), an invite's maker renews its link, a seat's owner takes it back from its
stand-in, and a page whose token no longer opens its seat loses it."""

from __future__ import annotations

from collections.abc import Callable

from gamenight.web import outbound
from gamenight.web.after_change import AfterChange
from gamenight.web.live import Change, LiveTable, TableEvents
from gamenight.web.privacy import may_watch
from gamenight.web.protocol import error
from gamenight.web.refusals import Code, RefusedError, unlisted
from gamenight.web.room import Connection
from gamenight.web.seats import Opened, hash_token


class Seating:
    def __init__(self, events: TableEvents, after: AfterChange) -> None:
        self.events = events
        self.after = after

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
            opened = await self.open(table, tokens)
            welcome = outbound.welcome(opened)
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
            connection.send_state(self.after.state(table, connection.seats), whole=True)
            table.chat.welcome(connection)
            table.room.held_changed(before)

    @staticmethod
    async def open(table: LiveTable, tokens: list[str]) -> Opened:
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
            self.revoke(table)
        await self.events.changed(table.id, Change(table.referee.revision))  # others
        return token

    async def reclaim(self, table: LiveTable, seat: int, page: Connection) -> None:
        """The seat's owner takes it back from its stand-in bot (T9)."""
        async with table.lock:
            held(table, seat, page)
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
            await referee.stand_in(seat, None, table.room.online())
        await self.after.local(table)

    def revoke(self, table: LiveTable) -> None:
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
                connection.send(outbound.revoked(seat, connection.seats))
            if lost and not connection.seats and not connection.may_watch:
                connection.end(error(unlisted()))  # an unlisted table: no seat, no view
                revoked = True
            elif lost:
                connection.send_state(self.after.state(table, connection.seats))
                revoked = True
        if revoked:  # (run on every change relayed from another server: mostly nothing)
            table.room.held_changed(before)


def held(table: LiveTable, seat: int, page: Connection) -> None:
    """Refuse unless ``page`` holds ``seat``'s token."""
    if not table.referee.seats.opens(seat, page.keys.get(seat)):
        raise RefusedError(f"you do not hold seat {seat}'s token", Code.NOT_YOUR_SEAT, seat=seat)
