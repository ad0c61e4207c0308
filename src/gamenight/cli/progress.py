"""Progress of a long command on stderr: a bar in a wide terminal, plain lines elsewhere.

A bar's columns are cut when the terminal is narrower than they are ("━━━ 45… 0… left
0:0…"), and a log or a pipe receives nothing readable from it; there the same facts come as
plain lines, one at the start, one every ``EVERY`` seconds and one at the end.
"""

from __future__ import annotations

import time
from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

COLUMNS = 80
"""The columns a bar needs besides its description (bar, counts, times, the extra text)."""

LABEL = 40
"""A bar's description is cut to this many characters."""

EVERY = 10.0
"""Seconds between plain progress lines."""


def clock(seconds: float) -> str:
    minutes, s = divmod(int(seconds + 0.5), 60)
    hours, m = divmod(minutes, 60)
    return f"{hours}:{m:02d}:{s:02d}"


class Lines:
    """Progress as plain lines: done of total, elapsed, time left, and an extra text."""

    def __init__(self, console: Console, description: str, unit: str = "games") -> None:
        self.console = console
        self.description = description
        self.unit = unit
        self.base: int | None = None  # done at the first update: resumed work is not timed
        self.start = time.monotonic()
        self.last = -EVERY
        self.state: tuple[int, int, str] = (0, 0, "")
        self.shown: tuple[int, int, str] | None = None

    def __enter__(self) -> Lines:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.state != self.shown:
            self.line()

    def update(self, done: int, total: int, extra: str = "") -> None:
        if self.base is None:
            self.base, self.start = done, time.monotonic()
        self.state = (done, total, extra)
        if time.monotonic() - self.last >= EVERY:
            self.line()

    def note(self, text: str) -> None:
        self.console.print(text, highlight=False, soft_wrap=True)

    def line(self) -> None:
        done, total, extra = self.state
        now = time.monotonic()
        self.last = now
        self.shown = self.state
        elapsed = now - self.start
        played = done - (self.base or 0)
        text = f"{self.description}: {done:,}/{total:,} {self.unit}, {clock(elapsed)}"
        if played > 0 and done < total:
            text += f", about {clock(elapsed / played * (total - done))} left"
        if extra:
            text += f"; {extra}"
        self.console.print(text, highlight=False, soft_wrap=True)


class Bar:
    """Progress as a rich bar, for a terminal wide enough for every column."""

    def __init__(self, console: Console, description: str, unit: str = "games") -> None:
        label = description if len(description) <= LABEL else description[: LABEL - 1] + "…"
        self.progress = Progress(
            "[progress.description]{task.description}",
            BarColumn(bar_width=20),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            "left",
            TimeRemainingColumn(),
            TextColumn("{task.fields[extra]}"),
            console=console,
        )
        self.task = self.progress.add_task(label, total=None, extra="")
        self.base: int | None = None

    def __enter__(self) -> Bar:
        self.progress.__enter__()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.progress.__exit__(kind, exc, tb)

    def update(self, done: int, total: int, extra: str = "") -> None:
        # The bar counts only the work done now, so that its time left is not fooled by
        # work resumed from a file.
        if self.base is None:
            self.base = done
        self.progress.update(
            self.task, total=total - self.base, completed=done - self.base, extra=extra
        )

    def note(self, text: str) -> None:
        self.progress.console.print(text, highlight=False)


def display(console: Console, description: str, unit: str = "games") -> Bar | Lines:
    """A bar when ``console`` is a terminal wide enough for it, plain lines otherwise."""
    wide = console.is_terminal and console.width >= min(len(description), LABEL) + COLUMNS
    return (Bar if wide else Lines)(console, description, unit)
