"""The errors gamenight raises on purpose.

Each one carries a message a player could understand. All derive from ValueError too,
so callers that only know "bad input" can catch that.
"""

import math
import reprlib
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

T = TypeVar("T")


class GamenightError(Exception):
    """Base of every error gamenight raises on purpose."""


class IllegalActionError(GamenightError, ValueError):
    """An action the rules do not allow in this position; the state is untouched. ``rule``:
    the engine's code for the rule it breaks (core.refusal), ``words``: the refusal in each
    language it is said in (``en`` is the message), for a page or a lesson to say it in its
    own; both empty where an engine gives no rule."""

    def __init__(
        self, message: str = "", *, rule: str = "", words: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.words = dict(words or {})


class NotationError(GamenightError, ValueError):
    """Text that cannot be read: a play, a shot, a position string."""


class RecordError(GamenightError, ValueError):
    """A game record that cannot be read or does not replay."""


class LogError(GamenightError, ValueError):
    """A log a state cannot tell: it forgot actions (``clear_stack``) before their entries
    were written."""


class RulesError(GamenightError, ValueError):
    """A rules value or a set-up that is not valid."""


def read_field(name: str, read: Callable[[str], T], text: str, error: type[NotationError]) -> T:
    """``read(text)``, with any error it raises restated as ``error`` naming the field."""
    try:
        return read(text)
    except GamenightError as exc:
        raise error(f"{name}: {exc}") from None


class _Shown(reprlib.Repr):
    def __init__(self) -> None:
        super().__init__()
        self.maxstring = self.maxother = 40

    def repr_int(self, x: int, level: int) -> str:
        # repr() itself refuses an int of over 4,300 digits.
        if x.bit_length() > 128:
            return f"<a whole number of about {int(x.bit_length() * math.log10(2)) + 1} digits>"
        return super().repr_int(x, level)


def shown(value: Any) -> str:
    """``value`` as an error message quotes what it was given: like ``repr``, but short and
    never failing (not on huge integers, deep nesting or a megabyte of text)."""
    return _SHOWN.repr(value)


_SHOWN = _Shown()
