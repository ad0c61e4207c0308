"""Reading numbers from text a person or a file wrote: ASCII digits only, of bounded length.

``str.isdigit`` and ``int`` disagree (``"²".isdigit()`` is true, ``int("²")`` fails), and
``int``/``float`` read more than any notation means: other scripts' digits (``"٣"``),
underscores (``"1_0"``), ``"nan"`` and ``"inf"``, surrounding spaces. Python also refuses to
turn more than 4,300 digits into an int with a plain ValueError. Every parser reads its
numbers here instead, so that they all accept the same digits and fail with their own
documented error, naming what was being read.
"""

from __future__ import annotations

import math
import re

from gamenight.core.errors import GamenightError, shown

MAX_DIGITS = 100
"""The most digits a whole number may have: far beyond any seed, key or count a game uses,
far below Python's limit of 4,300 for converting text to an int."""

MAX_DECIMAL_LENGTH = 100
"""The most characters a decimal may have; ``repr`` of any float needs at most 24."""

# [0-9] rather than \d: \d matches every script's decimal digits.
_WHOLE = {
    (10, False): re.compile(r"[0-9]+"),
    (10, True): re.compile(r"[+-]?[0-9]+"),
    (16, False): re.compile(r"[0-9a-fA-F]+"),
    (16, True): re.compile(r"[+-]?[0-9a-fA-F]+"),
}
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def read_whole_number(
    text: object,
    what: str,
    error: type[GamenightError],
    *,
    signed: bool = False,
    base: int = 10,
    max_digits: int = MAX_DIGITS,
) -> int:
    """The whole number ``text`` writes in ASCII digits (``base`` 10 or 16, hex digits in
    either case), with a leading ``+``/``-`` only if ``signed``; raises ``error`` naming
    ``what`` for anything else, including more than ``max_digits`` digits."""
    kind = "a whole number" if base == 10 else "a hexadecimal number"
    if not isinstance(text, str):
        raise error(f"{what} must be {kind} written as text, not {type(text).__name__}")
    if len(text.lstrip("+-")) > max_digits:
        raise error(f"{what} must be {kind} of at most {max_digits} digits, not {len(text)} long")
    if _WHOLE[base, signed].fullmatch(text) is None:
        digits = "digits 0–9" if base == 10 else "digits 0–9 and a–f"
        raise error(f"{what} must be {kind} ({digits}), not {shown(text)}")
    return int(text, base)


def read_decimal(
    text: object, what: str, error: type[GamenightError], *, max_length: int = MAX_DECIMAL_LENGTH
) -> float:
    """The finite number ``text`` writes as an ASCII decimal (``-12.5``, ``.5``, ``1e-05``);
    raises ``error`` naming ``what`` for anything else, including ``nan``, ``inf``, a value
    too large for a float and text longer than ``max_length``."""
    if not isinstance(text, str):
        raise error(f"{what} must be a number written as text, not {type(text).__name__}")
    if len(text) > max_length:
        raise error(f"{what} must be a number of at most {max_length} characters, not {len(text)}")
    if _DECIMAL.fullmatch(text) is None:
        raise error(f"{what} must be a number (digits 0–9, '.', an exponent), not {shown(text)}")
    value = float(text)
    if not math.isfinite(value):
        raise error(f"{what} must be finite, not {shown(text)}")
    return value


def finite_float(value: object, what: str, error: type[GamenightError]) -> float:
    """``value``, an int or a float but not a bool, as a finite float; raises ``error``
    naming ``what`` for anything else, including NaN, infinities and ints too large for a
    float (``math.isfinite`` itself raises OverflowError on those)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise error(f"{what} must be a number, not {shown(value)}")
    try:
        number = float(value)
    except OverflowError:
        raise error(f"{what} must be finite, not {shown(value)}") from None
    if not math.isfinite(number):
        raise error(f"{what} must be finite, not {shown(value)}")
    return number
