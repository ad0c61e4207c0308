"""What every bot is: a seeded decision-maker that sees one seat's view and a budget."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Protocol

from gamenight.core.errors import NotationError, shown
from gamenight.core.numbers import read_decimal, read_whole_number


@dataclass(frozen=True)
class Budget:
    """How much thinking a decision may take: iterations, seconds, or both (whichever ends
    first). With iterations only, a seeded bot decides identically run to run."""

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("a budget needs at least one iteration")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError("a time budget must be positive")

    def clock(self) -> Clock:
        return Clock(self)

    def within(self, seconds: float) -> Budget:
        """This budget, ending after ``seconds`` at the latest."""
        return Budget(self.iterations, min(seconds, self.seconds or seconds))

    def __str__(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(f"{self.iterations}it")
        if self.seconds is not None:
            parts.append(f"{self.seconds:g}s")
        return "+".join(parts) or "unbounded"

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``250`` or ``250it`` iterations, ``0.25s`` seconds, ``250it+1s`` both; raises
        NotationError for anything else (numbers in ASCII digits, seconds finite)."""
        iterations: int | None = None
        seconds: float | None = None
        if not isinstance(text, str):
            raise NotationError(f"a budget is written as text, not {type(text).__name__}")
        for part in text.lower().split("+"):
            part = part.strip()
            try:
                if part.endswith("s"):
                    seconds = read_decimal(part[:-1], "seconds", NotationError)
                else:
                    iterations = read_whole_number(
                        part.removesuffix("it"), "iterations", NotationError
                    )
            except NotationError:
                raise NotationError(
                    f"{shown(text)} is not a budget: write 250it, 0.25s or both as 250it+0.25s"
                ) from None
        try:
            return cls(iterations, seconds)
        except ValueError as exc:
            raise NotationError(str(exc)) from None


class Clock:
    """Counts a decision's iterations against its budget."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.iterations = 0
        self.deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds

    def tick(self) -> bool:
        """Count one iteration; False once the budget is spent."""
        self.iterations += 1
        if self.budget.iterations is not None and self.iterations > self.budget.iterations:
            return False
        return not self.expired()

    def expired(self) -> bool:
        """Whether the budget's time is up (never, with iterations only)."""
        return self.deadline is not None and time.perf_counter() >= self.deadline


class Bot(Protocol):
    """A bot: ``choose`` gets a seat's view (never the full state) and returns an action."""

    name: str

    def choose(self, view: Any) -> Any: ...


class SeededBot:
    """Base for bots: a name, a budget and a random generator seeded at construction."""

    name = "bot"

    def __init__(self, seed: int | None = None, budget: Budget | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.budget = budget or Budget(iterations=1)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} budget={self.budget} seed={self.seed}>"
