"""The rules value: every variant switch of Centrix in one frozen, serialisable value."""

from __future__ import annotations

import contextlib
import functools
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

from gamenight.centrix.board import DEFAULT_LAYOUT, Layout
from gamenight.centrix.cards import Card
from gamenight.core.bounds import Bound, check_bounds
from gamenight.core.errors import RulesError, shown


class Bottom(StrEnum):
    """What happens at the bottom of the board when a bump chain reaches it (decision 14)."""

    PROTECT = "protect"  # a bump that would drop a pawn below ring 1 is illegal
    KNOCK_OFF = "knock_off"  # such pawns go back off the board
    FLOOR = "floor"  # pawns stop on ring 1; a chain that must move a ring-1 pawn is illegal


# The set-up the rulebook counts out (D6, D18): how many pawns a player has, the numbers on
# the colour cards, the copies of each colour card and of each wild.
SET_UP = ("pawns", "numbers", "copies", "any_wilds", "spin_wilds")
# What a stored value may hold at all (checked on construction, D17): the position format
# writes a seat's pawns on the top as one digit, and cards are numbered 1–3.
_SENSE = {"pawns": (1, 9), "numbers": (1, 3), "copies": (1, 99), "any_wilds": (0, 99)}
_SENSE["spin_wilds"] = _SENSE["any_wilds"]


@dataclass(frozen=True)
class Rules:
    """The variant switches: the bottom rule, an optional turn cap, the board's layout and
    the set-up's counts (D18: pawns per player and the deck; the defaults are the
    rulebook's 3 pawns and 42 cards).

    Raises RulesError for a value that is not valid.
    """

    bottom: Bottom = Bottom.PROTECT
    max_turns: int | None = None
    layout: Layout = field(default=DEFAULT_LAYOUT)
    pawns: int = 3
    numbers: int = 3
    copies: int = 2
    any_wilds: int = 3
    spin_wilds: int = 3

    def __post_init__(self) -> None:
        if not isinstance(self.bottom, Bottom):
            object.__setattr__(self, "bottom", _bottom(self.bottom))
        if self.max_turns is not None and (
            not isinstance(self.max_turns, int)
            or isinstance(self.max_turns, bool)
            or self.max_turns < 1
        ):
            raise RulesError(
                f"max_turns must be a positive whole number, not {shown(self.max_turns)}"
            )
        for name in SET_UP:
            value = getattr(self, name)
            low, high = _SENSE[name]
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise RulesError(
                    f"{name} must be a whole number from {low} to {high}, not {shown(value)}"
                )

    @property
    def deck(self) -> tuple[Card, ...]:
        """Every card of the deck, each kind's copies together, in card order (D6, D18)."""
        return _deck(self.numbers, self.copies, self.any_wilds, self.spin_wilds)

    @property
    def is_standard_set_up(self) -> bool:
        """Whether the pawns and the deck are the rulebook's (3 pawns, 42 cards)."""
        return all(getattr(self, name) == getattr(STANDARD, name) for name in SET_UP)

    def check_bounds(self) -> Rules:
        """These rules, or RulesError naming each field outside its set-up bound (BOUNDS)
        with the bound and why. Checked when a game is set up, never when a stored one is
        loaded (decision D17). The layout has no bound of its own: any layout that builds
        (six rings of twelve colours) is a finite board."""
        values: dict[str, object] = {"bottom": self.bottom.value, "max_turns": self.max_turns}
        values.update((name, getattr(self, name)) for name in SET_UP)
        check_bounds("Centrix rules", values, BOUNDS)
        return self

    def with_(self, **changes: Any) -> Rules:
        """A copy with the given fields changed, checked like a new value."""
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The rules as JSON-ready data; ``from_dict`` reads it back. A set-up count is
        written only where it is not the rulebook's, so that the records of standard games
        read as they did before the counts existed (D18)."""
        data: dict[str, Any] = {
            "bottom": str(self.bottom),
            "max_turns": self.max_turns,
            "layout": self.layout.to_strings(),
        }
        for name in SET_UP:
            if getattr(self, name) != getattr(STANDARD, name):
                data[name] = getattr(self, name)
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """The rules in ``data`` (missing fields take their defaults); raises RulesError,
        and nothing else, for any ``data`` that is not rules (an unknown or invalid rule,
        a value of the wrong type)."""
        if not isinstance(data, dict):
            raise RulesError("Centrix rules are a JSON object")
        unknown = set(data) - {f.name for f in fields(cls)}
        if unknown:
            names = ", ".join(sorted(repr(k) if not isinstance(k, str) else k for k in unknown))
            raise RulesError(f"unknown Centrix rule(s): {names}")
        layout = data.get("layout")
        return cls(
            bottom=_bottom(data.get("bottom", Bottom.PROTECT)),
            max_turns=data.get("max_turns"),
            layout=DEFAULT_LAYOUT if layout is None else Layout.from_strings(layout),
            **{name: data[name] for name in SET_UP if name in data},
        )


STANDARD = Rules()
"""The rulebook's game: every switch at its default."""


@functools.lru_cache(maxsize=64)
def _deck(numbers: int, copies: int, any_wilds: int, spin_wilds: int) -> tuple[Card, ...]:
    counts = {card: copies if card.number <= numbers else 0 for card in Card if not card.is_wild}
    counts.update({Card.ANY: any_wilds, Card.SPIN: spin_wilds})
    return tuple(card for card in Card for _ in range(counts[card]))


BOUNDS: dict[str, Bound] = {
    "bottom": Bound("the three bottom rules (D14)", choices=tuple(b.value for b in Bottom)),
    "max_turns": Bound("a game of a sensible length", 1, 10_000, optional=True),
    "pawns": Bound("the rulebook's three pawns, or fewer for a shorter game (D18)", 1, 3),
    "numbers": Bound("colour cards numbered 1 up to this, of the rulebook's 1–3 (D18)", 1, 3),
    "copies": Bound("the rulebook's two copies of each colour card, or one (D18)", 1, 2),
    "any_wilds": Bound("the rulebook's three any-colour wilds, or fewer (D18)", 0, 3),
    "spin_wilds": Bound("the rulebook's three spin wilds, or fewer (D18)", 0, 3),
}
"""Each Rules field's set-up bound and its reason (documented in docs/rules/centrix.md)."""


def _bottom(value: Any) -> Bottom:
    choices = ", ".join(b.value for b in Bottom)
    # Only text is looked up: the enum's own error repr's the value, which a deeply
    # nested one cannot survive.
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            return Bottom(value)
    raise RulesError(f"bottom must be one of {choices}, not {shown(value)}")
