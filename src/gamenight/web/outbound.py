"""What the server sends a page, typed (issue 28): one TypedDict per message, the union
``Outbound`` of them all, and the JSON Schema the page's types are checked against
(``SCHEMA_FILE``, written by ``python -m gamenight.web.outbound``; a test keeps it current).
web.protocol's docstring says what each message means. A game's view (``state.view``,
``answer``, ``prediction``, ``preview``) is the game's own (web.views), typed there as JSON."""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any, Literal, NotRequired, TypeAlias

from pydantic import ConfigDict, TypeAdapter, with_config
from typing_extensions import TypedDict  # (pydantic reads the typing one only from 3.12)

from gamenight.web.seats import Opened

SCHEMA_FILE = Path(str(resources.files("gamenight.web") / "static" / "messages.schema.json"))
# A message carries exactly its keys: a key the schema does not know fails the tests.
STRICT = ConfigDict(extra="forbid")


@with_config(STRICT)
class ClockOut(TypedDict):
    kind: str
    left: list[int]  # each seat's time left (ms) at ``at``
    at: int  # the server's time, ms since 1970
    actor: int | None


@with_config(STRICT)
class SeatingOut(TypedDict):
    stand_ins: list[int]
    resigned: list[int]
    rematch: list[int]
    next: str | None


@with_config(STRICT)
class StateOut(TypedDict):
    type: Literal["state"]
    table: str
    version: int
    revision: int
    seats: list[int]
    active: int | None
    actor: int | None
    names: list[str]
    kinds: list[str]
    online: list[int]
    view: dict[str, Any]
    last: dict[str, Any] | None
    can_undo: bool
    clock: ClockOut | None
    seating: SeatingOut
    accepted: NotRequired[str | None]  # the page's own act or undo this state stores


@with_config(STRICT)
class ChangeOut(TypedDict):
    type: Literal["change"]
    diff: dict[str, list[Any]]  # web.protocol: diff and patch
    accepted: NotRequired[str | None]


@with_config(STRICT)
class WelcomeOut(TypedDict):
    type: Literal["welcome"]
    seats: list[int]
    tokens: dict[int, str]
    taken: list[int]
    revoked: list[int]


@with_config(STRICT)
class RevokedOut(TypedDict):
    type: Literal["revoked"]
    seat: int
    seats: list[int]


@with_config(STRICT)
class AcceptedOut(TypedDict):
    type: Literal["accepted"]
    id: str | None
    revision: int


@with_config(STRICT)
class ErrorOut(TypedDict):
    type: Literal["error"]
    message: str  # in English, naming the problem
    code: str  # web.refusals: for a page to say it in its own language
    params: dict[str, Any]


@with_config(STRICT)
class ChatLine(TypedDict):
    n: int
    seat: NotRequired[int | None]
    spectator: NotRequired[int]
    text: NotRequired[str]
    phrase: NotRequired[str]


@with_config(STRICT)
class ChatOut(TypedDict):
    type: Literal["chat"]
    messages: list[ChatLine]
    history: NotRequired[bool]


@with_config(STRICT)
class PresenceOut(TypedDict):
    type: Literal["presence"]
    online: list[int]


@with_config(STRICT)
class AnswerOut(TypedDict):
    """A game's answer to a page's ``query`` (web.games: ``WebGame.query``)."""

    type: Literal["answer"]
    name: str  # the query's
    id: str | None  # the page's id for it
    answer: dict[str, Any]  # the game's own (web.views)


@with_config(STRICT)
class PredictionOut(TypedDict):
    type: Literal["prediction"]
    shot: str
    stop: list[float]
    on_table: bool
    covered: list[str]
    path: list[list[float]]


class PreviewOut(TypedDict):
    """A Centrix board with a ring turned: the rotation and the board's data (web.views)."""

    type: Literal["preview"]
    rotation: str


@with_config(STRICT)
class PongOut(TypedDict):
    type: Literal["pong"]


@with_config(STRICT)
class WordsOut(TypedDict):
    en: str
    ko: str


@with_config(STRICT)
class HintOut(TypedDict):
    """A suggested play for the page's seat, from its own view (web.hints, issue 32)."""

    type: Literal["hint"]
    seat: int
    level: int
    revision: int
    notation: str
    words: WordsOut
    aimed: str | None  # Color City: the square aimed at
    paints: list[str]  # Color City: the squares the noise-free flick would paint


Outbound: TypeAlias = (
    StateOut
    | ChangeOut
    | WelcomeOut
    | RevokedOut
    | AcceptedOut
    | ErrorOut
    | ChatOut
    | PresenceOut
    | AnswerOut
    | PredictionOut
    | PreviewOut
    | PongOut
    | HintOut
)
OUTBOUND: TypeAdapter[Outbound] = TypeAdapter(Outbound)


def schema() -> dict[str, Any]:
    """The JSON Schema of every message the server sends a page."""
    return OUTBOUND.json_schema()


def welcome(opened: Opened) -> WelcomeOut:
    return {
        "type": "welcome",
        "seats": opened.seats,
        "tokens": opened.tokens,
        "taken": opened.taken,
        "revoked": opened.revoked,
    }


def revoked(seat: int, seats: list[int]) -> RevokedOut:
    return {"type": "revoked", "seat": seat, "seats": seats}


def pong() -> PongOut:
    return {"type": "pong"}


def chat(lines: list[ChatLine], *, history: bool = False) -> ChatOut:
    """Chat lines heard (``history``: the latest of the page's side, after its hello)."""
    out: ChatOut = {"type": "chat", "messages": lines}
    if history:
        out["history"] = True
    return out


def presence(online: list[int]) -> PresenceOut:
    return {"type": "presence", "online": online}


def answer(name: str, message_id: str | None, result: dict[str, Any]) -> AnswerOut:
    return {"type": "answer", "name": name, "id": message_id, "answer": result}


if __name__ == "__main__":  # python -m gamenight.web.outbound [FILE]: write the schema
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else SCHEMA_FILE
    target.write_text(json.dumps(schema(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
