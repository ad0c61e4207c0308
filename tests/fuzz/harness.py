"""The fuzz run's bookkeeping: targets, the figures each gathers, the log it watches, the table.

A target is a function that makes one input from a seeded ``random.Random`` and feeds it to
the code under test, telling a ``Probe`` what went wrong. The harness counts inputs, catches
whatever escapes a target (an unhandled exception), and collects every log record at ERROR
or above while the target runs (the server logs what its handlers did not expect there).
"""

from __future__ import annotations

import inspect
import logging
import random
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from rich.console import Console
from rich.markup import escape
from rich.table import Table

# Where the server reports trouble: its own loggers, the ASGI stack's, and asyncio's
# "exception was never retrieved" for a task that died.
WATCHED_LOGGERS = ("gamenight", "uvicorn", "starlette", "fastapi", "asyncio")
EXAMPLES = 3  # failures kept per target and kind, for the report


@dataclass
class Figures:
    """What one target saw. Every count but ``inputs`` must be zero."""

    inputs: int = 0
    server_errors: int = 0  # HTTP 5xx
    unhandled: int = 0  # exceptions escaping, ERROR log records, "server_failed" refusals
    state_changes: int = 0  # rejected input that changed the table or the state
    unlimited: int = 0  # over-limit input the server took in whole
    seconds: float = 0.0
    examples: dict[str, list[str]] = field(default_factory=dict)

    KINDS = ("server_errors", "unhandled", "state_changes", "unlimited")

    @property
    def failures(self) -> int:
        return sum(getattr(self, kind) for kind in self.KINDS)

    def add(self, kind: str, detail: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        kept = self.examples.setdefault(kind, [])
        if len(kept) < EXAMPLES:
            kept.append(detail[:300])


class Probe:
    """What a target tells about the input it just tried: the first detail of each kind."""

    def __init__(self) -> None:
        self.found: dict[str, str] = {}

    def _note(self, kind: str, detail: str) -> None:
        self.found.setdefault(kind, detail)

    def server_error(self, detail: str) -> None:
        self._note("server_errors", detail)

    def unhandled(self, detail: str) -> None:
        self._note("unhandled", detail)

    def state_changed(self, detail: str) -> None:
        self._note("state_changes", detail)

    def unlimited(self, detail: str) -> None:
        self._note("unlimited", detail)


Target = Callable[[random.Random, Probe], Awaitable[None] | None]


class ErrorLog(logging.Handler):
    """Collects the records at ERROR or above from the watched loggers."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.split(".")[0] in WATCHED_LOGGERS:
            self.records.append(record)

    def take(self) -> list[logging.LogRecord]:
        taken, self.records = self.records, []
        return taken


@contextmanager
def watching() -> Iterator[ErrorLog]:
    handler = ErrorLog()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)


def describe_record(record: logging.LogRecord) -> str:
    text = f"{record.name}: {record.getMessage()}"
    if record.exc_info and record.exc_info[1] is not None:
        exc = record.exc_info[1]
        text += f" [{type(exc).__name__}: {str(exc)[:120]}]"
    return text


async def feed(target: Target, rng: random.Random, log: ErrorLog, figures: Figures) -> None:
    """One input to ``target``, counted into ``figures`` once for each way it went wrong."""
    start = time.perf_counter()
    figures.inputs += 1
    probe = Probe()
    try:
        result = target(rng, probe)
        if inspect.isawaitable(result):
            await result
    except Exception as exc:  # whatever escapes the code under test
        probe.unhandled(f"{type(exc).__name__}: {str(exc)[:200]}")
    for record in log.take():
        probe.unhandled(describe_record(record))
    for kind, detail in probe.found.items():
        figures.add(kind, detail)
    figures.seconds += time.perf_counter() - start


def split(total: int, weights: dict[str, float]) -> dict[str, int]:
    """``total`` inputs shared out by weight, at least one each."""
    whole = sum(weights.values())
    counts = {name: max(1, int(total * w / whole)) for name, w in weights.items()}
    # What rounding left over goes to the heaviest target.
    heaviest = max(weights, key=lambda name: weights[name])
    counts[heaviest] += max(0, total - sum(counts.values()))
    return counts


def report(figures: dict[str, Figures], console: Console | None = None) -> None:
    """The table of figures, then a few examples of each failure."""
    console = console or Console(width=140)
    table = Table(title="fuzz: figures per target (every count but inputs must be 0)")
    table.add_column("target")
    for heading in ("inputs", "5xx", "unhandled", "state changes", "no limit", "s"):
        table.add_column(heading, justify="right")
    total = Figures()
    for name, f in figures.items():
        table.add_row(
            escape(name),
            str(f.inputs),
            *(_count(getattr(f, kind)) for kind in Figures.KINDS),
            f"{f.seconds:.1f}",
        )
        total.inputs += f.inputs
        total.seconds += f.seconds
        for kind in Figures.KINDS:
            setattr(total, kind, getattr(total, kind) + getattr(f, kind))
    table.add_section()
    table.add_row(
        "all",
        str(total.inputs),
        *(_count(getattr(total, kind)) for kind in Figures.KINDS),
        f"{total.seconds:.1f}",
    )
    console.print(table)
    for name, f in figures.items():
        for kind, examples in f.examples.items():
            for example in examples:
                console.print(f"[red]{escape(name)}[/] {kind}: {escape(example)}", highlight=False)


def _count(n: int) -> str:
    return f"[bold red]{n}[/]" if n else "0"
