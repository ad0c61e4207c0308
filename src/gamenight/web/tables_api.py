"""The tables' JSON API: a new table, its invites, what it is and was (info, record,
replay steps), and the list of public tables."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError

from gamenight.core.errors import GamenightError
from gamenight.web import hints
from gamenight.web.http import Body, HttpRefusal, Keys, address, refused
from gamenight.web.links import InviteCheckIn
from gamenight.web.privacy import new_privacy, visibility_of
from gamenight.web.protocol import RenewIn, TableIn
from gamenight.web.refusals import Code, RefusedError
from gamenight.web.seats import hash_token, new_token
from gamenight.web.services import Services

LISTED = 100  # tables GET /api/tables lists


def tables_router(services: Services) -> APIRouter:
    router = APIRouter()
    store, manager, gate, replays = (
        services.store,
        services.manager,
        services.gate,
        services.replays,
    )
    live, watched = services.live, services.watched

    @router.post("/api/tables")
    async def create_table(request: Request, body: Body) -> JSONResponse:
        try:
            table_in = TableIn.model_validate(body)
            gate.new_table(address(request))
            privacy, watch = new_privacy(table_in)
            host = new_token()  # (web.yours) archives and deletes the table
            table, seats = await manager.create(table_in, privacy, hash_token(host))
        except RefusedError as exc:
            status = 429 if exc.code in (Code.TOO_MANY_TABLES, Code.SERVER_FULL) else 422
            raise HttpRefusal(status, exc) from None
        except (ValidationError, GamenightError) as exc:
            raise refused(exc) from None
        return JSONResponse(
            {
                "id": table.id,
                "game": table.game.name,
                "seats": seats,
                "visibility": privacy["visibility"],
                "watch": watch,
                "host": host,
            }
        )

    @router.post("/api/tables/{table_id}/invites/{seat}")
    async def renew_invite(table_id: str, seat: int, body: Body) -> dict[str, str]:
        """A new invite link for ``seat``; the old one, and whoever used it, lose the seat."""
        table = await live(table_id)
        try:
            key = RenewIn.model_validate(body).renew
            return {"token": await manager.renew_invite(table, seat, key)}
        except (ValidationError, GamenightError) as exc:
            raise refused(exc) from None

    @router.post("/api/tables/{table_id}/check-invite")
    async def check_invite(table_id: str, body: Body) -> dict[str, str]:
        """What an invite link opens, before the page uses it (``invite``: open, yours,
        taken, renewed or wrong: web.seats.LinkState), and whether the table is public (a
        guest whose link opens nothing may still watch it). Changes nothing."""
        table = await live(table_id)
        try:
            asked = InviteCheckIn.model_validate(body)
        except ValidationError as exc:
            raise refused(exc) from None
        stored = table.referee.stored
        return {
            "invite": table.referee.seats.link_state(asked.token, asked.keys),
            "visibility": visibility_of(stored.setup, stored.seats),
        }

    @router.get("/api/tables")
    async def list_tables() -> list[dict[str, Any]]:
        """The latest public tables (an unlisted one is seen only through its links)."""
        recent = await store.recent(LISTED * 4)
        stored = [
            t for t in recent if visibility_of(t.setup, t.seats) == "public" and not t.archived
        ][:LISTED]
        return [
            {
                "id": t.id,
                "game": t.game,
                "status": t.status,
                "outcome": t.outcome,
                "seats": [
                    {"name": s["name"], "kind": s["kind"], "role": s["role"]} for s in t.seats
                ],
                "created": t.created.isoformat(),
                "updated": t.updated.isoformat(),
            }
            for t in stored
        ]

    @router.get("/api/tables/{table_id}")
    async def table_info(table_id: str, key: Keys = []) -> dict[str, Any]:  # noqa: B006
        table = await watched(table_id, key)
        referee = table.referee
        return {
            "id": table.id,
            "game": table.game.name,
            "seats": [
                {"name": s.name, "kind": s.kind, "role": s.role, "level": s.level}
                for s in referee.seats
            ],
            "version": referee.version,
            "revision": referee.revision,
            "status": referee.status()[0],
            "visibility": visibility_of(referee.stored.setup, referee.stored.seats),
            # Invited seats whose link nobody has used yet: a spectator is told how to sit.
            "free": [i for i, s in enumerate(referee.seats) if s.open_invite],
            # Issue 32: whether the table gives hints, and the hints given (web.hints).
            "hints": hints.allowed(referee.stored.setup, referee.stored.seats),
            "hints_used": hints.used(referee.stored.setup),
        }

    @router.get("/api/tables/{table_id}/record")
    async def record(table_id: str, key: Keys = []) -> Response:  # noqa: B006
        table = await watched(table_id, key)
        if not table.referee.finished:
            # A record holds the seed, so every hand and every future draw or wobble: it is
            # for games that are over.
            raise HttpRefusal(
                409,
                RefusedError(
                    "the record can be downloaded once the game is over", Code.RECORD_AFTER_GAME
                ),
            )
        async with table.lock:
            record = table.referee.record()
            # A game the table ended (resigned, out of time, abandoned): its outcome, which
            # the record replays to (core.endings).
            record.outcome = table.referee.outcome
        text = record.to_json()
        filename = f"{table.game.name}-{table.id}.json"
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @router.get("/api/tables/{table_id}/replay/{step}")
    async def replay_step(
        table_id: str,
        step: int,
        key: Keys = [],  # noqa: B006
    ) -> dict[str, Any]:
        table = await watched(table_id, key)
        referee = table.referee
        if not 0 <= step <= referee.version:
            raise HttpRefusal(
                404,
                RefusedError(
                    f"step {step} is not between 0 and {referee.version}",
                    Code.NO_STEP,
                    step=step,
                    steps=referee.version,
                ),
            )
        found = await replays.step(table, step)
        return {
            "step": step,
            "steps": referee.version,
            "names": referee.seats.names,
            **found,  # view, last, finished, hands (once the game is over)
        }

    return router
