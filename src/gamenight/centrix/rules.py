"""The rules value: every variant switch of Centrix in one frozen, serialisable value."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from gamenight.centrix.board import DEFAULT_LAYOUT, Layout
from gamenight.core.bounds import Bound, check_bounds
from gamenight.core.errors import RulesError


class Bottom(StrEnum):
    """What happens at the bottom of the board when a bump chain reaches it (decision 14)."""

    PROTECT = "protect"  # a bump that would drop a pawn below ring 1 is illegal
    KNOCK_OFF = "knock_off"  # such pawns go back off the board
    FLOOR = "floor"  # pawns stop on ring 1; a chain that must move a ring-1 pawn is illegal


@dataclass(frozen=True)
class Rules:
    """The variant switches: the bottom rule, an optional turn cap, the board's layout.

    Raises RulesError for a value that is not valid.
    """

    bottom: Bottom = Bottom.PROTECT
    max_turns: int | None = None
    layout: Layout = field(default=DEFAULT_LAYOUT)

    def __post_init__(self) -> None:
        if not isinstance(self.bottom, Bottom):
            object.__setattr__(self, "bottom", _bottom(self.bottom))
        if self.max_turns is not None and (
            not isinstance(self.max_turns, int) or self.max_turns < 1
        ):
            raise RulesError(f"max_turns must be a positive whole number, not {self.max_turns!r}")

    def check_bounds(self) -> Rules:
        """These rules, or RulesError naming each field outside its set-up bound (BOUNDS)
        with the bound and why. Checked when a game is set up, never when a stored one is
        loaded (decision D17). The layout has no bound of its own: any layout that builds
        (six rings of twelve colours) is a finite board."""
        check_bounds(
            "Centrix rules", {"bottom": self.bottom.value, "max_turns": self.max_turns}, BOUNDS
        )
        return self

    def with_(self, **changes: Any) -> Rules:
        """A copy with the given fields changed, checked like a new value."""
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The rules as JSON-ready data; ``from_dict`` reads it back."""
        return {
            "bottom": str(self.bottom),
            "max_turns": self.max_turns,
            "layout": self.layout.to_strings(),
        }

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """The rules in ``data`` (missing fields take their defaults); raises RulesError
        for an unknown or invalid rule."""
        if not isinstance(data, dict):
            raise RulesError("Centrix rules are a JSON object")
        unknown = set(data) - {"bottom", "max_turns", "layout"}
        if unknown:
            raise RulesError(f"unknown Centrix rule(s): {', '.join(sorted(unknown))}")
        layout = data.get("layout")
        return cls(
            bottom=_bottom(data.get("bottom", Bottom.PROTECT)),
            max_turns=data.get("max_turns"),
            layout=DEFAULT_LAYOUT if layout is None else Layout.from_strings(layout),
        )


BOUNDS: dict[str, Bound] = {
    "bottom": Bound("the three bottom rules (D14)", choices=tuple(b.value for b in Bottom)),
    "max_turns": Bound("a game of a sensible length", 1, 10_000, optional=True),
}
"""Each Rules field's set-up bound and its reason (documented in docs/rules/centrix.md)."""


def _bottom(value: Any) -> Bottom:
    try:
        return Bottom(value)
    except ValueError:
        choices = ", ".join(b.value for b in Bottom)
        raise RulesError(f"bottom must be one of {choices}, not {value!r}") from None
