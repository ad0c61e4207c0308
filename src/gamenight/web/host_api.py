"""A browser's own tables (web.yours): the ones its keys open, and the host's archive and
delete."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import ValidationError

from gamenight.core.errors import GamenightError
from gamenight.web.http import Body, HttpRefusal, refused
from gamenight.web.refusals import Code, RefusedError, no_table
from gamenight.web.seats import hash_keys
from gamenight.web.services import Services
from gamenight.web.store import StoredTable
from gamenight.web.yours import ArchiveIn, HostIn, MineIn, held_seats, is_host, summary


def host_router(services: Services) -> APIRouter:
    router = APIRouter()
    store, manager = services.store, services.manager

    @router.post("/api/tables/mine")
    async def my_tables(body: Body) -> dict[str, Any]:
        """The tables the keys a browser holds open (web.yours), and the ids none opens."""
        try:
            keys = MineIn.model_validate(body).tables
        except ValidationError as exc:
            raise refused(exc) from None
        found = {t.id: t for t in await store.some(list(keys))}
        tables = []
        for table_id, table_keys in keys.items():
            stored = found.get(table_id)
            if stored is None:
                continue
            # Whose turn it is matters to a browser holding a seat at a game in play.
            playing = stored.status == "playing" and bool(held_seats(stored, hash_keys(table_keys)))
            seen = summary(stored, table_keys, await actor_of(stored) if playing else None)
            if seen is not None:
                tables.append(seen)
        opened = {t["id"] for t in tables}
        return {"tables": tables, "unknown": [i for i in keys if i not in opened]}

    async def actor_of(stored: StoredTable) -> int | None:
        """Whose turn it is at a table in play: its clock, stored with its latest action, says
        so; a table from before there were clocks is loaded to know (None: not known now,
        the server being full)."""
        if stored.clock is not None and "actor" in stored.clock:
            actor: int | None = stored.clock["actor"]
            return actor
        try:
            return (await manager.read(stored.id)).referee.actor
        except GamenightError:
            return None

    async def hosted(table_id: str, keys: list[str]) -> None:
        """Refuse unless ``keys`` show the asker is the table's host (or it does not exist)."""
        found = await store.some([table_id])
        if not found:
            raise HttpRefusal(404, no_table(table_id))
        if not is_host(found[0], keys):
            raise HttpRefusal(
                403,
                RefusedError("only the table's host may archive or delete it", Code.NOT_HOST),
            )

    @router.post("/api/tables/{table_id}/archive")
    async def archive_table(table_id: str, body: Body) -> dict[str, Any]:
        """Archive the table (out of every list but its holders' archive), or bring it back."""
        try:
            asked = ArchiveIn.model_validate(body)
        except ValidationError as exc:
            raise refused(exc) from None
        await hosted(table_id, asked.keys)
        await manager.archive(table_id, asked.archived)
        return {"id": table_id, "archived": asked.archived}

    @router.post("/api/tables/{table_id}/delete")
    async def delete_table(table_id: str, body: Body) -> dict[str, Any]:
        """Delete the table and its record for good; pages open at it are let go."""
        try:
            asked = HostIn.model_validate(body)
        except ValidationError as exc:
            raise refused(exc) from None
        await hosted(table_id, asked.keys)
        await manager.delete(table_id)
        return {"id": table_id, "deleted": True}

    return router
