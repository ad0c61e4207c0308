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
  is the table's revision the page saw, and is required (an act or undo without it is
  refused as a ``bad_message`` naming the field): the action is refused (``moved_on``,
  followed by the table as it now is) if the table has changed since. Without a revision
  an action would apply to whatever the table is when it arrives, so two pages of one seat,
  or a page that has not yet seen a bot's or a stand-in's move, could both have a play
  stored (issue 31, finding 4). ``id`` is the page's own id for the
  message: a resent message is answered as the original was and never applied twice.
- ``{"type": "undo", "seat": 0, "revision": 13, "id": "p1-43"}`` — take back your last play
  (Centrix, within your turn).
- ``{"type": "query", "name": "predict", "args": {"shot": "0 0 1.3 0"}, "id": "q7"}`` — a
  question of the game's own about the table as it is (web.games: ``WebGame.query``;
  Color City's ``predict``, the noise-free flick of a shot; Centrix's ``preview``, the board
  with a ring turned, ``{"rotation": "3+2"}``), answered by an ``answer`` (``name``, the
  page's ``id``, ``answer``) and changing nothing; a name the game does not answer is
  refused (``invalid``, naming the game's queries).
- ``{"type": "predict", "shot": "0 0 1.3 0"}`` — Color City's ``predict`` query, answered by
  a ``prediction``; ``{"type": "preview", "rotation": "3+2"}`` — Centrix's ``preview``,
  answered by a ``preview`` (the pages' older words for the two, kept on the wire).
- ``{"type": "chat", "text": "gg!"}`` or ``{"type": "chat", "phrase": "well_played"}`` — a
  line of the table's chat (web.chat): text of at most 200 characters, shown as text (never
  as markup; control, direction and hidden characters taken out, a few combining marks on a
  letter at most, and refused if nothing visible is left), or one of the quick phrases
  (``PHRASES``), which each page shows in its own language. A page holding a seat speaks to
  the players; one holding none, to the spectators: each hears only its own side (on every
  server, scaled out). Over a page's chat rate (``chat_per_minute``) it is refused with
  ``rate_limited``.
- ``{"type": "resign", "seat": 0}`` — give the game up: in a two-seat game it ends with the
  other seat winning (``resigned``), at a larger table a bot takes the seat for good
  (docs/rules/table.md, T1).
- ``{"type": "reclaim", "seat": 0}`` — take back a seat a stand-in bot plays since its time
  ran out or its page was away (T9).
- ``{"type": "rematch"}`` — once the game is over, propose (or accept) a rematch for every
  seat the page holds; when every seat has accepted (bots at once) the new table is made,
  its seats opened by the same tokens, and the state's ``seating.next`` names it (T10).
- ``{"type": "ping"}``.
- ``{"type": "hint", "seat": 0, "level": 3}`` — "suggest a play" (web.hints): answered by a
  ``hint`` (``seat``, ``level``, ``revision``, ``notation``, ``words``: the reason in English
  and Korean, and for a Color City shot ``aimed`` and ``paints``), or refused
  (``no_hints`` where the table gives none, ``not_your_turn``, ``not_your_seat``).

Server → client: that an act or undo is stored, told to the page that sent it only after
it is durable, in one message: the ``state`` or ``change`` it makes carries ``accepted`` (its
``id``) for that page (the others' do not); where that page hears no change for it (a resent
message, answered from the referee's memory or the store's receipts), an ``accepted``
(``id``, ``revision``) of its own. ``welcome`` (``seats``; ``tokens``, the token to keep for
each seat; ``taken``, seats whose invite link another device used first), ``revoked`` (a
seat of yours was given a new invite link), ``state`` (your view, legal actions, the last action for
animation, ``version``: the number of actions, ``revision``: up by one on every action and
every undo, ``online``: the seats with a page open; ``clock``: null, or ``kind``, ``left``
(each seat's time left in ms at ``at``, the server's time in ms since 1970; the actor's
runs down from then) and ``actor``; ``seating``: ``stand_ins`` (seats a bot plays for their
owner), ``resigned``, ``rematch`` (seats that asked for one) and ``next`` (the rematch's
table, once made)), ``change`` (what changed since the last ``state`` or ``change`` sent to
this page; see below), ``presence`` (``online`` changed), ``chat`` (``messages``: the lines
heard, each with ``n``, its number at the table, ``seat`` or ``spectator``, the speaker, and
``text`` or ``phrase``; the latest lines of the page's side follow the state sent after a
hello, marked ``history``),
``answer``, ``prediction``, ``preview``, ``hint`` (the answer to a page's ``hint``: above),
``pong`` and ``error`` (``message`` naming the problem in
English, ``code`` and ``params`` for a page to say it in its own language:
gamenight.web.refusals; an engine's refusal, ``illegal``, adds ``rule``, the code of the
rule it breaks, and ``words``, its sentence in each language, English and Korean: "why
not?"; the table is never disturbed by a bad message).

State and change (issue 16, contract A): the first table a page is sent after its
``hello`` (and after ``moved_on``) is a whole ``state``; every later one is a ``change``,
``{"type": "change", "diff": {...}}``, computed generically (``diff``) from the previous
message sent to that page, so that a new key in a state or a view needs nothing else. The
page rebuilds the whole state with ``patch``'s rules: ``diff`` maps each key that changed
to ``["=", value]`` (replaced), ``["+", [items]]`` (a list that only grew: items appended),
``["~", {...}]`` (a dict: the same rules one level down) or ``["-"]`` (removed); keys left
out are unchanged. A Centrix board is data (squares, offsets, colours as letters) drawn by
the page; its ``view.log`` is one entry per play with its effects (``seat``, ``notation``,
``moves``: each pawn moved as ``[seat, from, to]``, the bump chain after the moving pawn;
``last`` tells the newest in full: ``card``, ``rotation``, ``moves`` as objects), and
``view.legal`` lists the actor's plays compactly: ``moves``, each pawn's destinations once
(``"from to to …"``), and ``plays``, ``{card: {rotation or "": "numbers of its moves, *
for none"}}`` (a spin wild gives some 250 plays; ``views.centrix.notations`` lists them
again). Every message after the first stays under ``CHANGE_LIMIT`` bytes
(tests/web/test_wire.py plays whole games to hold it).

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
whose page comes from another site (its ``Origin``) is refused before it is accepted. A
page heard from not at all for ``GAMENIGHT_SILENCE_SECONDS`` (2 s), the WebSocket ping it is
sent halfway unanswered, is closed with 1011 (web.reading): its seats show away, and the
page, should it come back, reconnects.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from gamenight.core.game import registry
from gamenight.core.validation import describe
from gamenight.web.refusals import Code, RefusedError, refusal

if TYPE_CHECKING:  # (web.outbound types what is sent; it needs this module to build a state)
    from gamenight.web.outbound import AcceptedOut, ErrorOut


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


class _SeatMessage(_Message):
    """A message about one of the page's seats."""

    seat: StrictInt = Field(ge=0, le=15)


class Act(_SeatMessage):
    type: Literal["act"]
    action: str = Field(min_length=1, max_length=200)
    revision: Revision
    id: MessageId | None = None


class Undo(_SeatMessage):
    type: Literal["undo"]
    revision: Revision
    id: MessageId | None = None


class Predict(_Message):
    type: Literal["predict"]
    shot: str = Field(min_length=1, max_length=200)


class Preview(_Message):
    type: Literal["preview"]
    rotation: str = Field(min_length=2, max_length=8)


class Query(_Message):
    type: Literal["query"]
    name: str = Field(min_length=1, max_length=40, pattern=r"^[a-z][a-z0-9_]*$")
    args: dict[Annotated[str, Field(max_length=40)], str | StrictInt | float | bool | None] = Field(
        default_factory=dict, max_length=8
    )
    id: MessageId | None = None


class Ping(_Message):
    type: Literal["ping"]


class Hint(_SeatMessage):
    """Issue 32: "suggest a play" for one of the page's seats, at a bot level (web.hints)."""

    type: Literal["hint"]
    level: StrictInt = Field(default=3, ge=1, le=5)


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


class Resign(_SeatMessage):
    type: Literal["resign"]


class Reclaim(_SeatMessage):
    type: Literal["reclaim"]


class Rematch(_Message):
    type: Literal["rematch"]


Client = (
    Hello | Act | Undo | Query | Predict | Preview | Chat | Ping | Resign | Reclaim | Rematch | Hint
)
ClientMessage = Annotated[Client, Field(discriminator="type")]
_client = TypeAdapter(ClientMessage)


class MessageError(RefusedError, ValueError):
    """A message that is not one of the protocol's; the text names the problem."""


def parse_client(raw: str | bytes) -> Client:
    try:
        return _client.validate_json(raw)
    except ValidationError as exc:
        where, what = describe(exc)
        detail = f"{where}: {what}"
        raise MessageError(f"bad message ({detail})", Code.BAD_MESSAGE, detail=detail) from None


def error(exc: Exception) -> ErrorOut:
    """The ``error`` message for a refused request (see gamenight.web.refusals)."""
    body = refusal(exc)
    return {
        "type": "error",
        "message": body["message"],
        "code": body["code"],
        "params": body["params"],
    }


# ---------------------------------------------------------------- HTTP bodies


class SeatIn(_Message):
    kind: Literal["device", "invite", "bot"]
    name: str = Field(default="", max_length=40)
    level: StrictInt | None = Field(default=None, ge=1, le=5)
    role: str = Field(default="", max_length=20)  # Centrix colour, Color City gang
    skill: str = Field(default="normal", max_length=20)


# The fewest and the most seats of any registered game: a list outside them is refused
# before it is read; each game's own counts are held when its table is set up.
SEAT_BOUNDS = (min(g.min_players for g in registry), max(g.max_players for g in registry))
Number = StrictInt | float


class ClockIn(_Message):
    """A table's clock and what happens to a seat that is not there (docs/rules/table.md,
    T6–T8); held to web.referee.CLOCK_BOUNDS at set-up."""

    kind: str = Field(default="none", max_length=20)  # none | realtime | turn
    bank_seconds: Number = 300  # real-time: each seat's bank
    increment_seconds: Number = 5  # real-time: added after each of the seat's turns
    turn_hours: Number = 24  # turn-based: the time for one turn
    grace_seconds: Number = 120  # an invited seat's page away this long: a bot plays it
    bot_level: Number = 2  # the stand-in bots' level
    on_timeout: str = Field(default="bot", max_length=20)  # bot | lose
    abandon_hours: Number = 72  # nobody there and nothing played this long: the game ends


class TableIn(_Message):
    game: str = Field(max_length=40)  # a registered game's name
    seats: list[SeatIn] = Field(min_length=SEAT_BOUNDS[0], max_length=SEAT_BOUNDS[1])
    first: StrictInt | str = 0
    rules: dict[str, Any] = Field(default_factory=dict)
    seed: StrictInt | None = Field(default=None, ge=0, lt=2**62)
    # None: unlisted if a seat is invited, else public (web.privacy).
    visibility: Literal["public", "unlisted"] | None = None
    clock: ClockIn = Field(default_factory=ClockIn)
    # None: hints on unless a seat is invited (web.hints; docs/rules/table.md, T11).
    hints: bool | None = None

    @field_validator("game")
    @classmethod
    def _registered(cls, name: str) -> str:
        # The registry's names, not a second list of the games.
        if name not in registry:
            raise ValueError(f"one of {', '.join(registry.names())}, not {name!r}")
        return name


class RenewIn(_Message):
    """``POST /api/tables/{id}/invites/{seat}``: the key the invite's maker was given."""

    renew: str = Field(min_length=1, max_length=200)


def accepted(message_id: str | None, revision: int) -> AcceptedOut:
    """The ``accepted`` message: the act or undo ``message_id`` is stored, and the table is
    at ``revision`` (sent only where its page hears no change for it)."""
    return {"type": "accepted", "id": message_id, "revision": revision}


# ---------------------------------------------------------------- state and change

CHANGE_LIMIT = 4096  # bytes: what a message after a page's first may weigh at most

Diff = dict[str, list[Any]]


def diff(old: Mapping[str, Any], new: Mapping[str, Any]) -> Diff:
    """What turns ``old`` into ``new`` (see the module's docstring); empty when equal."""
    out: Diff = {}
    for key, value in new.items():
        if key not in old:
            out[key] = ["=", value]
            continue
        before = old[key]
        # The same object (a part the views share until the table changes) is equal.
        if before is value or before == value:
            continue
        if isinstance(before, dict) and isinstance(value, dict):
            out[key] = ["~", diff(before, value)]
        elif (
            isinstance(before, list)
            and isinstance(value, list)
            and len(value) > len(before)
            and value[: len(before)] == before
        ):
            out[key] = ["+", value[len(before) :]]
        else:
            out[key] = ["=", value]
    for key in old.keys() - new.keys():
        out[key] = ["-"]
    return out


def patch(old: dict[str, Any], changes: Diff) -> dict[str, Any]:
    """``old`` with ``changes`` made (a new dict; ``old`` is untouched): as a page rebuilds
    the state from a ``change``."""
    new = dict(old)
    for key, (op, *value) in changes.items():
        if op == "=":
            new[key] = value[0]
        elif op == "+":
            new[key] = [*old[key], *value[0]]
        elif op == "~":
            new[key] = patch(old[key], value[0])
        else:
            new.pop(key, None)
    return new
