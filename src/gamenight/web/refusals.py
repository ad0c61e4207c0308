"""Why the server refuses something, in a form a page can say in its own language.

Every refusal has an English message, for API users and logs, and a ``code`` with
``params``. A page looks the code up as ``error_<code>`` in its strings (static/i18n), fills
in the params — the table page puts seats' names in for seat numbers — and falls back to
the message for a code it does not know. A test keeps every code in every language.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError

from gamenight.core.errors import GamenightError, IllegalActionError, NotationError
from gamenight.core.validation import describe


class Code(StrEnum):
    NO_TABLE = "no_table"
    SEAT_COUNT = "seat_count"
    BOT_LEVEL = "bot_level"
    SEED_WITH_INVITES = "seed_with_invites"
    NO_RENEW = "no_renew"
    RENEW_AFTER_GAME = "renew_after_game"
    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    NOT_YOUR_SEAT = "not_your_seat"
    MOVED_ON = "moved_on"
    NOT_SAVED = "not_saved"
    UNDO_OWN = "undo_own"
    RECORD_AFTER_GAME = "record_after_game"
    NO_STEP = "no_step"
    NO_RULES = "no_rules"
    # Limits a host can set (web.quotas) and the privacy of unlisted tables.
    RATE_LIMITED = "rate_limited"
    TOO_MANY_TABLES = "too_many_tables"
    SERVER_FULL = "server_full"
    TOO_MANY_SOCKETS = "too_many_sockets"
    TOO_MANY_SPECTATORS = "too_many_spectators"
    NO_HELLO = "no_hello"
    TOO_BIG = "too_big"
    UNLISTED = "unlisted"
    # Playing from another device (web.links).
    NOT_OUR_LINK = "not_our_link"
    # Issue 16, social: what only the table's host may do.
    NOT_HOST = "not_host"
    # A table's clock, stand-ins, resigning and rematches (docs/rules/table.md).
    CLOCK_BOUNDS = "clock_bounds"
    OUT_OF_TIME = "out_of_time"
    STOOD_IN = "stood_in"
    NOT_STOOD_IN = "not_stood_in"
    RESIGNED_FOR_GOOD = "resigned_for_good"
    REMATCH_IN_PLAY = "rematch_in_play"
    # Learning (issue 32): hints a table does not give, an analysis asked for too soon.
    NO_HINTS = "no_hints"
    ANALYSIS_AFTER_GAME = "analysis_after_game"
    NO_LESSON = "no_lesson"
    # Refusals that carry the engine's or the validator's own English words as ``detail``.
    ILLEGAL = "illegal"
    INVALID = "invalid"
    BAD_MESSAGE = "bad_message"
    SERVER_FAILED = "server_failed"


# The params each code comes with (none where not listed): the pages' texts may use these
# and no others. ``seat`` and ``actor`` are seat numbers, which a page turns into the seats'
# names; ``game`` is a game's name.
_PARAMS: dict[Code, tuple[str, ...]] = {
    Code.NO_TABLE: ("table",),
    Code.SEAT_COUNT: ("game", "low", "high"),
    Code.BOT_LEVEL: ("seat",),
    Code.NO_RENEW: ("seat",),
    Code.NOT_YOUR_TURN: ("seat", "actor"),
    Code.NOT_YOUR_SEAT: ("seat",),
    Code.NO_STEP: ("step", "steps"),
    Code.NO_RULES: ("game",),
    Code.NO_LESSON: ("game",),
    Code.TOO_MANY_TABLES: ("limit",),
    Code.TOO_BIG: ("limit",),
    Code.NO_HELLO: ("seconds",),
    Code.CLOCK_BOUNDS: ("field", "allowed"),
    Code.OUT_OF_TIME: ("seat",),
    Code.STOOD_IN: ("seat",),
    Code.NOT_STOOD_IN: ("seat",),
    Code.RESIGNED_FOR_GOOD: ("seat",),
    Code.ILLEGAL: ("detail",),
    Code.INVALID: ("detail",),
    Code.BAD_MESSAGE: ("detail",),
}
PARAMS: dict[Code, frozenset[str]] = {code: frozenset(_PARAMS.get(code, ())) for code in Code}


class RefusedError(GamenightError):
    """Something a client asked that cannot be done: the message says why, ``code`` and
    ``params`` let a page say it in its own language."""

    def __init__(self, message: str, code: Code, **params: Any) -> None:
        if set(params) != PARAMS[code]:
            # A page would show the placeholder itself: a programming error, caught by tests.
            raise TypeError(f"{code} takes {sorted(PARAMS[code])}, not {sorted(params)}")
        super().__init__(message)
        self.code = code
        self.params = params


def no_table(table_id: str) -> RefusedError:
    return RefusedError(f"there is no table {table_id!r}", Code.NO_TABLE, table=table_id)


def no_hello(limits: Any) -> RefusedError:
    """A socket that said no hello within ``limits.hello_seconds`` (web.quotas.Limits)."""
    seconds = limits.hello_seconds
    return RefusedError(
        f"a page must say hello within {seconds:g} s of opening its socket",
        Code.NO_HELLO,
        seconds=int(seconds) if float(seconds).is_integer() else seconds,
    )


def unlisted() -> RefusedError:
    return RefusedError(
        "this table is unlisted: watching it needs its spectator link", Code.UNLISTED
    )


def refusal(exc: Exception) -> dict[str, Any]:
    """``{"message", "code", "params"}`` for any error a client's request may raise."""
    if isinstance(exc, RefusedError):
        return {"message": str(exc), "code": exc.code, "params": exc.params}
    if isinstance(exc, ValidationError | RequestValidationError):
        where, what = describe(exc)
        message = f"{where}: {what}"
        return {"message": message, "code": Code.INVALID, "params": {"detail": message}}
    if isinstance(exc, IllegalActionError | NotationError):
        code = Code.ILLEGAL
    elif isinstance(exc, GamenightError):
        code = Code.INVALID
    else:
        # Not one of ours: its text is nobody's business but the log's.
        message = "the server could not handle that message"
        return {"message": message, "code": Code.SERVER_FAILED, "params": {}}
    params: dict[str, Any] = {"detail": str(exc)}
    if isinstance(exc, IllegalActionError) and exc.words:
        # "Why not?": the rule, in each language the engine says it (the page shows its own).
        params |= {"rule": exc.rule, "words": exc.words}
    return {"message": str(exc), "code": code, "params": params}
