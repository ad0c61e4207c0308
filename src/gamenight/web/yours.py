"""A browser's own tables (issue 16): the home page lists the tables whose keys it holds, and
the host archives or deletes a table.

Nobody signs in: what a browser holds for a table is what it was given there — a seat's
token, an unlisted table's spectator token, the invite links it made with their renewal
keys, and, for the browser that made the table, the host's token. ``POST /api/tables/mine``
takes every key a browser holds, for up to ``MINE`` tables at once, and answers a summary of
each table one of its keys opens: a table that does not exist (deleted) and one no key
opens are named alike, so that a browser may forget their keys and nobody learns by asking
which tables exist.

The host is recorded from this issue on: ``POST /api/tables`` answers ``host``, a token
whose hash the table keeps (``host_hash``). A table stored before has none; its maker is the
one holding a key only the maker was given (a renewal key, the spectator token, or the
token of a seat that was not an invite): that holder may archive and delete it.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from gamenight.web.seats import hash_keys
from gamenight.web.store import StoredTable

MINE = 50  # tables one request asks about
KEYS = 24  # keys for one table: a seat's token and an invite's renewal key for 8 seats, …

Key = Annotated[str, Field(min_length=1, max_length=200)]
TableId = Annotated[str, Field(min_length=1, max_length=32)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MineIn(_Body):
    """``POST /api/tables/mine``: for each table id, every key the browser holds for it."""

    tables: dict[TableId, Annotated[list[Key], Field(max_length=KEYS)]] = Field(max_length=MINE)


class HostIn(_Body):
    """``POST /api/tables/{id}/delete``: the keys the browser holds for the table (one of
    them shows it is the host's)."""

    keys: list[Key] = Field(min_length=1, max_length=KEYS)


class ArchiveIn(HostIn):
    """``POST /api/tables/{id}/archive``: archive (``true``) or bring back (``false``)."""

    archived: bool = True


def is_host(stored: StoredTable, keys: list[str]) -> bool:
    """Whether ``keys`` include the host's: its token, or for a table stored before there
    was one, a key only its maker was given."""
    hashes = hash_keys(keys)
    if stored.host_hash is not None:
        return stored.host_hash in hashes
    makers = {stored.setup.get("watch_hash")}
    for seat in stored.seats:
        makers.add(seat.get("renew_hash"))
        if seat.get("kind") == "human" and not seat.get("invite"):
            makers.add(seat.get("token_hash"))
    return bool(hashes & (makers - {None}))


def held_seats(stored: StoredTable, hashes: set[str]) -> list[int]:
    """The seats whose tokens hash to one of ``hashes`` (web.seats: hash_keys)."""
    return [i for i, seat in enumerate(stored.seats) if seat.get("token_hash") in hashes]


def summary(stored: StoredTable, keys: list[str], actor: int | None) -> dict[str, Any] | None:
    """What the home page shows of ``stored`` to the browser holding ``keys`` (None: no key
    opens it). ``actor``: the seat to act now (None: the game is over, or not known)."""
    hashes = hash_keys(keys)
    held = held_seats(stored, hashes)
    host = is_host(stored, keys)
    watching = stored.setup.get("watch_hash") in hashes
    if not (held or host or watching):
        return None
    playing = stored.status == "playing"
    return {
        "id": stored.id,
        "game": stored.game,
        "status": stored.status,
        "outcome": stored.outcome,
        "archived": stored.archived,
        "seats": [
            {"name": s.get("name", ""), "kind": s.get("kind", ""), "role": s.get("role", "")}
            for s in stored.seats
        ],
        "held": held,
        "host": host,
        "actor": actor if playing else None,
        # A seat of this browser's to act: the group "waiting for you".
        "your_turn": playing and actor is not None and actor in held,
        "updated": stored.updated.isoformat(),
    }
