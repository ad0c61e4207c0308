"""A refused action, as both engines say it: a code and the rule that forbids it, in English
and in Korean.

Each engine has its own codes (a StrEnum) and its own sentences; what they share is this
shape, so that a table, a lesson or a test can ask any game "why not?" the same way. A
refusal is said at a seat, so it names the rule and the action tried, never what that seat
may not know (another seat's hand, the next card drawn, the noise of the next pitch).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Generic, NamedTuple, TypeVar

C = TypeVar("C", bound=StrEnum)


class Refusal(NamedTuple, Generic[C]):
    """A refused action: its code and the rule that forbids it, in English and Korean."""

    code: C
    en: str
    ko: str

    def __str__(self) -> str:
        return self.en

    def words(self, before: str = "") -> dict[str, str]:
        """The refusal in each language, each after ``before`` (the action, as written)."""
        return {"en": before + self.en, "ko": before + self.ko}
