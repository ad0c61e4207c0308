"""The pages (each a static document that loads its modules) and the players' guides."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from gamenight.web.http import HttpRefusal
from gamenight.web.refusals import Code, RefusedError
from gamenight.web.rules import Part, rules_html

STATIC = Path(str(resources.files("gamenight.web") / "static"))


def pages_router() -> APIRouter:
    router = APIRouter()

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, media_type="text/html")

    @router.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return page("index.html")

    @router.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return page("table.html")

    @router.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return page("replay.html")

    @router.get("/learn", include_in_schema=False)
    async def learn_list() -> FileResponse:  # issue 32: the guided first game (web.lessons)
        return page("learn.html")

    @router.get("/learn/{game}/{number}", include_in_schema=False)
    async def learn_page(game: str, number: int) -> FileResponse:
        return page("learn.html")

    @router.get("/rules/{game}", include_in_schema=False)
    async def rules_page(game: str) -> FileResponse:
        return page("rules.html")

    @router.get("/api/rules/{game}")
    async def rules(game: str, lang: str = "en", part: Part = "guide") -> dict[str, str]:
        """The players' guide to ``game`` (``part=full``: every rule decision, exactly)."""
        try:
            html = rules_html(game, lang, part)
            # Which language came back, so the page can say when it fell back to English.
            served = lang if lang != "en" and html != rules_html(game, "en", part) else "en"
            return {"html": html, "lang": served}
        except KeyError:
            raise HttpRefusal(
                404, RefusedError(f"no rules for {game!r}", Code.NO_RULES, game=game)
            ) from None

    return router
