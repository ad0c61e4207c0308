"""What the JSON API's routes share: a refusal with its code, the strict JSON body, the
keys a page sends, the asker's address."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, HTTPException, Query, Request
from pydantic import TypeAdapter, ValidationError

from gamenight.core.errors import GamenightError
from gamenight.web.refusals import refusal
from gamenight.web.seats import SeatKeyError

KEYS = 10  # keys looked at in one request (?key=…&key=…: a page sends every token it holds)
# ``?key=``, once or more: an unlisted table's spectator token or a seat's (web.privacy).
Keys = Annotated[list[str], Query()]

_OBJECT = TypeAdapter(dict[str, Any])


class HttpRefusal(HTTPException):
    """An HTTP refusal whose body carries, beside ``detail``, the refusal's ``code`` and
    ``params`` (gamenight.web.refusals), so that a page can say it in its own language."""

    def __init__(self, status: int, exc: Exception) -> None:
        body = refusal(exc)
        super().__init__(status, body["message"])
        self.code: str = body["code"]
        self.params: dict[str, Any] = body["params"]


def refused(exc: ValidationError | GamenightError) -> HttpRefusal:
    return HttpRefusal(403 if isinstance(exc, SeatKeyError) else 422, exc)


async def json_body(request: Request) -> dict[str, Any]:
    """A request's JSON object, read as strictly as a socket's messages are: Python's own
    reader takes a lone surrogate (``"\\ud800"``), text that cannot be written back as UTF-8,
    so that an answer quoting it failed with 500."""
    kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if kind and kind != "application/json" and not kind.endswith("+json"):
        # (As FastAPI reads a body: a form of another site may post text/plain unasked.)
        detail = f"the body must be JSON (Content-Type: application/json), not {kind}"
        raise HttpRefusal(422, GamenightError(detail))
    try:
        return _OBJECT.validate_json(await request.body())
    except ValidationError as exc:
        raise HttpRefusal(422, exc) from None


# Every JSON body the API takes.
Body = Annotated[dict[str, Any], Depends(json_body)]


def address(request: Request) -> str:
    return request.client.host if request.client else ""
