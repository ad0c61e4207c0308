"""Bounds on rules fields: what a table may be set up with, and why.

A rules value checks on construction only that it makes sense (a positive time step, a
city that fits its board), so that any stored game still loads and replays. Bounds are
narrower and are checked where a game is SET UP from what a user gave (the web app's new
table, the command line): they keep every game playable and every flick's work small, and
can change in a later release without orphaning stored games.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from gamenight.core.errors import RulesError


@dataclass(frozen=True)
class Bound:
    """The values one field may take at set-up: a closed range ``low``–``high`` (both
    included) or one of ``choices``; ``optional`` also allows None. ``reason`` says why."""

    reason: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    optional: bool = False

    def allows(self, value: object) -> bool:
        """Whether ``value`` lies within the bound (NaN and infinities never do)."""
        if value is None:
            return self.optional
        if self.choices:
            return str(value) in self.choices
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        if not math.isfinite(value):
            return False
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def text(self) -> str:
        """The bound in words: ``from 10 to 240``, ``one of a, b``, ``none, or …``."""
        if self.choices:
            allowed = "one of " + ", ".join(self.choices)
        elif self.low is not None and self.high is not None:
            allowed = f"from {_num(self.low)} to {_num(self.high)}"
        elif self.low is not None:
            allowed = f"at least {_num(self.low)}"
        elif self.high is not None:
            allowed = f"at most {_num(self.high)}"
        else:
            allowed = "any value"
        return f"none, or {allowed}" if self.optional else allowed


def check_bounds(what: str, values: Mapping[str, object], bounds: Mapping[str, Bound]) -> None:
    """Raise RulesError naming every field of ``values`` outside its bound, with the bound
    and its reason; ``what`` names the rules value (``Color City table``)."""
    problems = [
        f"{name} must be {bound.text()} ({bound.reason}), not {values[name]!r}"
        for name, bound in bounds.items()
        if not bound.allows(values[name])
    ]
    if problems:
        raise RulesError(f"{what}: " + "; ".join(problems))


def _num(value: float) -> str:
    return f"{value:g}"
