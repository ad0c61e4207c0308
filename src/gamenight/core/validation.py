"""pydantic's validation errors, read as one problem a person can act on."""

from __future__ import annotations

from typing import Any, Protocol


class Invalid(Protocol):
    """pydantic's ValidationError, or a web framework's error built from its errors."""

    def errors(self) -> Any:
        """The problems found, each a dict with ``loc`` and ``msg``, the first foremost."""


def describe(exc: Invalid, whole: str = "message") -> tuple[str, str]:
    """Where the first problem pydantic found is (dotted; ``whole`` when it is the input
    itself) and what it is."""
    first = exc.errors()[0]
    return ".".join(str(p) for p in first["loc"]) or whole, first["msg"]
