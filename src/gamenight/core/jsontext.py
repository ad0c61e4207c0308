"""Reading JSON that a person or a file wrote, failing only with a given GamenightError.

``json.loads`` fails in ways of its own on hostile text: RecursionError for deep nesting,
ValueError for an integer of over 4,300 digits, UnicodeDecodeError for bytes that are not
UTF-8; and it accepts what JSON is not (``NaN``, ``Infinity``, ``1e400`` read as infinity,
lone surrogates that no file can hold). ``read_json`` refuses all of these with the caller's
error, and reads every number through gamenight.core.numbers.
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

from gamenight.core.errors import GamenightError, shown
from gamenight.core.numbers import MAX_DIGITS, read_decimal, read_whole_number

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects read; a game record needs 4."""

# Outside a string a quote always opens one, so removing the strings left to right as JSON
# tokenises them leaves exactly the brackets that nest.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def read_json(text: str | bytes, what: str, error: type[GamenightError]) -> Any:
    """The value JSON ``text`` (or UTF-8 bytes) holds; raises ``error`` naming ``what`` for
    text that is not JSON, bytes that are not UTF-8, nesting deeper than ``MAX_DEPTH``,
    ``NaN``/``Infinity``, numbers too long or too large, and strings with lone surrogates."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise error(f"{what} is not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    if not isinstance(text, str):
        raise error(f"{what} must be JSON text, not {type(text).__name__}")
    depth = max(
        accumulate(1 if b in "[{" else -1 for b in _BRACKET.findall(_STRING.sub("", text))),
        default=0,
    )
    if depth > MAX_DEPTH:
        raise error(f"{what} nests deeper than {MAX_DEPTH} levels")

    def constant(name: str) -> Any:
        raise error(f"{what} holds {name}, which JSON has no place for: numbers are finite")

    try:
        value = json.loads(
            text,
            parse_int=lambda t: read_whole_number(t, f"a number in {what}", error, signed=True),
            parse_float=lambda t: read_decimal(t, f"a number in {what}", error),
            parse_constant=constant,
        )
    except json.JSONDecodeError as exc:
        raise error(f"{what} is not valid JSON: {exc}") from None
    check_json_value(value, what, error)
    return value


def check_json_value(value: Any, what: str, error: type[GamenightError]) -> None:
    """Raise ``error`` naming the place unless ``value`` is what ``read_json`` can return:
    None, booleans, whole numbers of at most ``MAX_DIGITS`` digits, finite floats, strings
    without lone surrogates, lists, and objects with string keys, nested at most
    ``MAX_DEPTH`` deep. Such a value survives ``json.dumps`` and ``read_json`` unchanged."""
    limit = 10**MAX_DIGITS
    # A loop, not recursion: a value built in memory may nest deeper than the stack.
    pending: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    while pending:
        item, path = pending.pop()
        if len(path) > MAX_DEPTH:
            raise error(f"{what} nests deeper than {MAX_DEPTH} levels")
        if isinstance(item, dict):
            for key, inner in item.items():
                if not isinstance(key, str):
                    raise error(f"{_place(what, path)} has a key that is not text: {shown(key)}")
                _check_text(key, what, path, error)
                pending.append((inner, (*path, key)))
        elif isinstance(item, list):
            pending.extend((inner, (*path, i)) for i, inner in enumerate(item))
        elif isinstance(item, str):
            _check_text(item, what, path, error)
        elif isinstance(item, bool) or item is None:
            pass
        elif isinstance(item, int):
            if not -limit < item < limit:
                raise error(
                    f"{_place(what, path)} must be a whole number of at most {MAX_DIGITS} digits"
                )
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise error(f"{_place(what, path)} must be a finite number, not {shown(item)}")
        else:
            raise error(f"{_place(what, path)} must be JSON data, not {type(item).__name__}")


def _place(what: str, path: tuple[Any, ...]) -> str:
    return what + "".join(f"[{shown(p)}]" for p in path)


def _check_text(text: str, what: str, path: tuple[Any, ...], error: type[GamenightError]) -> None:
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise error(
                f"{_place(what, path)} holds a lone surrogate (\\ud800–\\udfff), not text"
            ) from None
