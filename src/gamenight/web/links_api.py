"""Links to share: their base address, and a link as a QR code (web.links)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from gamenight.web.http import HttpRefusal
from gamenight.web.links import our_link, qr_svg
from gamenight.web.refusals import RefusedError
from gamenight.web.settings import Settings


def links_router(settings: Settings) -> APIRouter:
    router = APIRouter()

    @router.get("/api/links")
    async def links() -> dict[str, str | None]:
        """The base of invite and spectator links (None: the address the page was opened
        with): web.links."""
        return {"public_url": settings.public_url}

    @router.get("/api/qr")
    async def qr(request: Request, text: str) -> Response:
        """An invite or spectator link of this server as a QR code (SVG), for a phone's
        camera; any other text is refused (``not_our_link``)."""
        own = str(request.base_url).rstrip("/")
        try:
            link = our_link(text, [own, *([settings.public_url] if settings.public_url else [])])
        except RefusedError as exc:
            raise HttpRefusal(422, exc) from None
        return Response(
            qr_svg(link),
            media_type="image/svg+xml",
            # The link opens a seat: kept by no cache.
            headers={"Cache-Control": "no-store"},
        )

    return router
