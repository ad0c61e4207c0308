"""The messages between browser and server, validated with pydantic.

Client → server over the table's WebSocket (``/ws/tables/{id}``), one JSON object each:

- ``{"type": "hello", "tokens": ["…"], "watch": "…"}`` — claim the seats whose secret tokens
  you hold (none: watch as a spectator). Answered by ``welcome`` and a ``state``. An invite
  link's token opens its seat once: the welcome gives that device a token of its own for it.
  At an ``unlisted`` table a page that opens no seat must bring the table's spectator link
  token as ``watch``; without it the hello is refused (``unlisted``) and the socket closed
  with 1008.
- ``{"type": "act", "seat": 0, "action": "R2 3+2 c3-d3", "revision": 12, "id": "p1-42"}`` —
  an action in the game's notation (Centrix plays; Color City shots ``position direction
  speed spin`` and power decisions ``lucky-day``, ``purple-pain``, ``pass``). ``revision``
  is the table's revision the page saw: the action is refused (``moved_on``, followed by the
  table as it now is) if the table has changed since. ``id`` is the page's own id for the
  message: a resent message is answered as the original was and never applied twice.
- ``{"type": "undo", "seat": 0, "revision": 13, "id": "p1-43"}`` — take back your last play
  (Centrix, within your turn).
- ``{"type": "predict", "shot": "0 0 1.3 0"}`` — Color City: the noise-free flick.
- ``{"type": "preview", "rotation": "3+2"}`` — Centrix: the board with a ring turned.
- ``{"type": "chat", "text": "gg!"}`` or ``{"type": "chat", "phrase": "well_played"}`` — a
  line of the table's chat (web.chat): text of at most 200 characters, shown as text (never
  as markup; control, direction and hidden characters taken out, a few combining marks on a
  letter at most, and refused if nothing visible is left), or one of the quick phrases
  (``PHRASES``), which each page shows in its own language. A page holding a seat speaks to
  the players; one holding none, to the spectators: each hears only its own side (on every
  server, scaled out). Over a page's chat rate (``chat_per_minute``) it is refused with
  ``rate_limited``.
- ``{"type": "ping"}``.

Server → client: ``accepted`` (``id``, ``revision``: the act or undo with that id is stored,
sent to the page that sent it), ``welcome`` (``seats``; ``tokens``, the token to keep for each seat;
``taken``, seats whose invite link another device used first), ``revoked`` (a seat of yours
was given a new invite link), ``state`` (your view, legal actions, the last action for
animation, ``version``: the number of actions, ``revision``: up by one on every action and
every undo, ``online``: the seats with a page open), ``presence`` (``online`` changed),
``chat`` (``messages``: the lines heard, each with ``n``, its number at the table, ``seat``
or ``spectator``, the speaker, and ``text`` or ``phrase``; the latest lines of the page's side
follow the state sent after a hello, marked ``history``), ``prediction``, ``preview``,
``pong`` and ``error`` (``message`` naming the problem in
English, ``code`` and ``params`` for a page to say it in its own language:
gamenight.web.refusals; the table is never disturbed by a bad message).

Privacy (web.privacy): ``POST /api/tables`` takes ``visibility`` (``public``: listed and
open to anyone; ``unlisted``: the default when a seat is invited) and answers an unlisted
table with ``watch``, its spectator link's token, for the host alone. ``GET /api/tables``
lists public tables only; ``GET /api/tables/{id}``, ``/replay/{step}`` and ``/record`` of an
unlisted table need ``?key=`` with the watch token or a seat's token, once or more (a page
sends every token it holds; a query parameter, so that a plain download link works too;
pages send ``Referrer-Policy: no-referrer``, so it does not travel on), and are refused
with 403 ``unlisted`` without one.

Limits (web.quotas; docs/reliability.md): a socket's or an address's messages over their
rate are refused with ``rate_limited`` (one sent at twice the rate closes the socket with
1008), a message over the size limit is refused with ``too_big`` and closes it, as do too
many sockets at a table or from one address (``too_many_sockets``). HTTP: 429
(``rate_limited``, ``too_many_tables``, ``server_full``) or 413 (``too_big``). A socket
whose page comes from another site (its ``Origin``) is refused before it is accepted.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from gamenight.core.validation import describe
from gamenight.web.refusals import Code, RefusedError, refusal


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Hello(_Message):
    type: Literal["hello"]
    tokens: list[Annotated[str, Field(max_length=200)]] = Field(default_factory=list, max_length=8)
    watch: str | None = Field(default=None, max_length=200)


# The revision of the table the page saw, and an id of the page's own for the message (a
# resent message is answered as the original was, never applied twice).
Revision = Annotated[StrictInt, Field(ge=0, lt=2**53)]
MessageId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


class Act(_Message):
    type: Literal["act"]
    seat: StrictInt = Field(ge=0, le=15)
    action: str = Field(min_length=1, max_length=200)
    revision: Revision | None = None
    id: MessageId | None = None


class Undo(_Message):
    type: Literal["undo"]
    seat: StrictInt = Field(ge=0, le=15)
    revision: Revision | None = None
    id: MessageId | None = None


class Predict(_Message):
    type: Literal["predict"]
    shot: str = Field(min_length=1, max_length=200)


class Preview(_Message):
    type: Literal["preview"]
    rotation: str = Field(min_length=2, max_length=8)


class Ping(_Message):
    type: Literal["ping"]


# The chat's quick phrases: sent as codes, each page shows them in its own language
# (``chat_phrase_<code>`` in static/i18n).
Phrase = Literal[
    "hello", "good_luck", "nice_move", "oops", "thanks", "one_moment", "well_played", "bye"
]
CHAT_CHARS = 200


class Chat(_Message):
    type: Literal["chat"]
    text: str | None = Field(default=None, min_length=1, max_length=CHAT_CHARS)
    phrase: Phrase | None = None

    @model_validator(mode="after")
    def _one_of_them(self) -> Chat:
        if (self.text is None) == (self.phrase is None):
            raise ValueError("a chat message has either text or a phrase")
        return self


ClientMessage = Annotated[
    Hello | Act | Undo | Predict | Preview | Chat | Ping, Field(discriminator="type")
]
_client = TypeAdapter(ClientMessage)


class MessageError(RefusedError, ValueError):
    """A message that is not one of the protocol's; the text names the problem."""


def parse_client(raw: str | bytes) -> Hello | Act | Undo | Predict | Preview | Chat | Ping:
    try:
        return _client.validate_json(raw)
    except ValidationError as exc:
        where, what = describe(exc)
        detail = f"{where}: {what}"
        raise MessageError(f"bad message ({detail})", Code.BAD_MESSAGE, detail=detail) from None


def error(exc: Exception) -> dict[str, Any]:
    """The ``error`` message for a refused request (see gamenight.web.refusals)."""
    return {"type": "error", **refusal(exc)}


# ---------------------------------------------------------------- HTTP bodies


class SeatIn(_Message):
    kind: Literal["device", "invite", "bot"]
    name: str = Field(default="", max_length=40)
    level: StrictInt | None = Field(default=None, ge=1, le=5)
    role: str = Field(default="", max_length=20)  # Centrix colour, Color City gang
    skill: str = Field(default="normal", max_length=20)


class TableIn(_Message):
    game: Literal["centrix", "colorcity"]
    seats: list[SeatIn] = Field(min_length=2, max_length=8)
    first: StrictInt | str = 0
    rules: dict[str, Any] = Field(default_factory=dict)
    seed: StrictInt | None = Field(default=None, ge=0, lt=2**62)
    # None: unlisted if a seat is invited, else public (web.privacy).
    visibility: Literal["public", "unlisted"] | None = None


class RenewIn(_Message):
    """``POST /api/tables/{id}/invites/{seat}``: the key the invite's maker was given."""

    renew: str = Field(min_length=1, max_length=200)


def accepted(message_id: str | None, revision: int) -> dict[str, Any]:
    """The ``accepted`` message: the act or undo ``message_id`` is stored, and the table is
    at ``revision``."""
    return {"type": "accepted", "id": message_id, "revision": revision}
