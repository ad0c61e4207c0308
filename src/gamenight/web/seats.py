"""The seats of a table: who sits where, and which secret token opens each seat.

A seat is typed (``Seat``) rather than a dict of loose keys. The store keeps the seats as a
JSON list of ``Seat.to_dict()``; a ``SeatBook`` is that list with the rules of tokens and
invites: a device's own token opens its seat; an invite link opens its seat once (the first
device to bring it gets a token of its own, and the link opens nothing after); the seat's
maker can renew an invite link with a key of its own, and the old link and the device that
used it lose the seat. Only hashes of tokens are kept.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from gamenight.web.refusals import Code, RefusedError

# What an invite link opens now (SeatBook.link_state).
LinkState = Literal["open", "yours", "taken", "renewed", "wrong"]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hash_keys(keys: list[str]) -> set[str]:
    """The hashes of the keys a client brought (an empty one opens nothing)."""
    return {hash_token(key) for key in keys if key}


def new_token() -> str:
    return secrets.token_urlsafe(18)


class SeatKeyError(RefusedError):
    """A key that does not open what it was brought for."""


@dataclass(frozen=True)
class Seat:
    name: str
    kind: str  # "human" (a device of the maker's, or an invite) or "bot"
    level: int | None = None  # a bot's level, 1–5
    role: str = ""  # Centrix: pawn colour; Color City: gang
    skill: str = "normal"  # Color City: the seat's hand
    invite: bool = False  # set up as an invite link
    token_hash: str | None = None  # what opens the seat now (a bot's: none)
    renew_hash: str | None = None  # an invited seat's maker's key, to make a new link
    invite_hash: str | None = None  # the link a device used to claim the seat
    claimed: bool = False  # an invite link a device has used
    # Tokens that opened the seat once (before a renewal): kept to tell a device that comes
    # back with one what became of its seat.
    retired: tuple[str, ...] = field(default=())
    # A bot of this level plays the seat for its owner (docs/rules/table.md, T8): its time
    # ran out, its page was away, or (``resigned``) it gave up at a table of more seats.
    stand_in: int | None = None
    resigned: bool = False
    rematch: bool = False  # the seat's owner asked for a rematch (T10)

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"

    @property
    def played_by_bot(self) -> bool:
        """Whether the bot runner plays this seat's turns: a bot's, or a stand-in's."""
        return self.is_bot or self.stand_in is not None

    @property
    def bot_level(self) -> int | None:
        """The level of the bot that plays the seat (None: its owner plays)."""
        return self.level if self.is_bot else self.stand_in

    @property
    def open_invite(self) -> bool:
        """An invited seat whose link no device has used yet."""
        return self.invite and not self.claimed

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["retired"] = list(self.retired)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        known["retired"] = tuple(data.get("retired") or ())
        return cls(**known)


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


class SeatBook:
    """The seats of one table, as stored."""

    def __init__(self, seats: Iterable[Seat]) -> None:
        self.seats = list(seats)

    @classmethod
    def from_dicts(cls, data: Iterable[dict[str, Any]]) -> SeatBook:
        return cls(Seat.from_dict(d) for d in data)

    def to_dicts(self) -> list[dict[str, Any]]:
        return [seat.to_dict() for seat in self.seats]

    def __len__(self) -> int:
        return len(self.seats)

    def __iter__(self) -> Iterator[Seat]:
        return iter(self.seats)

    def __getitem__(self, seat: int) -> Seat:
        return self.seats[seat]

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def kinds(self) -> list[str]:
        return [seat.kind for seat in self.seats]

    def would_claim(self, hashes: set[str]) -> bool:
        """Whether some of ``hashes`` are open invites (a claim must then be written)."""
        return any(s.open_invite and s.token_hash in hashes for s in self.seats)

    def claim(self, hashes: set[str]) -> dict[int, str]:
        """Let the open invites among ``hashes`` be used: each such seat gets a new token of
        the device's own (returned by seat), and its link opens nothing any more."""
        claimed: dict[int, str] = {}
        for i, seat in enumerate(self.seats):
            if seat.open_invite and seat.token_hash in hashes:
                claimed[i] = new_token()
                self.seats[i] = replace(
                    seat,
                    invite_hash=seat.token_hash,
                    token_hash=hash_token(claimed[i]),
                    claimed=True,
                )
        return claimed

    def opened(self, tokens: Iterable[str], claimed: dict[int, str]) -> Opened:
        """The seats ``tokens`` open (``claimed``: the invites they used just now)."""
        by_hash = {hash_token(t): t for t in tokens}
        held = {
            i: by_hash[s.token_hash]
            for i, s in enumerate(self.seats)
            if s.token_hash is not None and s.token_hash in by_hash
        }
        held.update(claimed)
        taken = [i for i, s in enumerate(self.seats) if s.invite_hash in by_hash and i not in held]
        revoked = [
            i for i, s in enumerate(self.seats) if by_hash.keys() & set(s.retired) and i not in held
        ]
        return Opened(held, taken, revoked)

    def link_state(self, token: str, keys: Iterable[str] = ()) -> LinkState:
        """What an invite link's ``token`` opens, changing nothing: ``open`` (a seat no device
        has taken yet), ``yours`` (a seat it, or one of the asking device's ``keys``, opens
        now), ``taken`` (another device used the link first), ``renewed`` (its maker gave the
        seat a new link since) or ``wrong`` (it never opened a seat here)."""
        mine = {hash_token(k) for k in keys} | {hash_token(token)}
        wanted = hash_token(token)
        for seat in self.seats:
            if seat.token_hash == wanted:
                return "open" if seat.open_invite else "yours"
        for seat in self.seats:
            if seat.invite_hash == wanted:
                return "yours" if seat.token_hash in mine else "taken"
        if any(wanted in seat.retired for seat in self.seats):
            return "renewed"
        return "wrong"

    def renew(self, seat: int, key: str) -> str:
        """A new invite link's token for ``seat``, given its maker's key; the old link and
        the device that used it open nothing now."""
        # One answer whether the seat has no link or the key is wrong, so that nobody learns
        # which seats were invited by asking.
        if not 0 <= seat < len(self.seats) or self.seats[seat].renew_hash != hash_token(key):
            raise SeatKeyError(
                f"that key does not renew an invite link for seat {seat}",
                Code.NO_RENEW,
                seat=seat,
            )
        old = self.seats[seat]
        token = new_token()
        retired = [*old.retired, old.token_hash, old.invite_hash]
        self.seats[seat] = replace(
            old,
            token_hash=hash_token(token),
            claimed=False,
            invite_hash=None,
            retired=tuple(h for h in retired if h),
        )
        return token

    def stand_in(self, seat: int, level: int | None, *, resigned: bool = False) -> bool:
        """Let a bot of ``level`` play ``seat`` for its owner (None: the owner plays it
        again); whether anything changed."""
        old = self.seats[seat]
        new = replace(old, stand_in=level, resigned=old.resigned or resigned)
        self.seats[seat] = new
        return new != old

    def accept_rematch(self, seats: Iterable[int]) -> bool:
        """``seats`` ask for a rematch; whether that made every seat accept (bots, and seats
        a bot plays, accept at once): True for exactly one call, the one that completes."""

        def complete() -> bool:
            return all(seat.rematch or seat.played_by_bot for seat in self.seats)

        before = complete()
        for i in seats:
            self.seats[i] = replace(self.seats[i], rematch=True)
        return complete() and not before

    def opens(self, seat: int, key: str | None) -> bool:
        """Whether the token hash ``key`` still opens ``seat``."""
        return (
            0 <= seat < len(self.seats) and key is not None and self.seats[seat].token_hash == key
        )
