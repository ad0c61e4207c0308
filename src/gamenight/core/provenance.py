"""Where a figure was measured: the commit, the CPU model, the machine and its load (each
benchmark command prints them beside its figures; docs/benchmarks.md)."""

from __future__ import annotations

import os
import platform
import subprocess
from pathlib import Path

HERE = Path(__file__).parent  # (git is asked from inside the checkout, wherever it is run)


def git(*argv: str) -> str:
    """What ``git argv`` prints in the package's checkout ("" outside one)."""
    try:
        done = subprocess.run(["git", *argv], cwd=HERE, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return ""
    return done.stdout.strip()


def commit() -> str:
    """The commit measured, ``+changes`` where the tracked sources differ from it."""
    head = git("rev-parse", "--short", "HEAD") or "unknown"
    changed = git("status", "--porcelain", "--untracked-files=no", "--", ":/src", ":/setup.py")
    return f"{head}+changes" if changed else head


def cpu_model() -> str:
    """The CPU's model name (what /proc/cpuinfo says, else what Python knows)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> str:
    """The cores, memory, system and Python."""
    memory = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f", {kb / 2**20:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return (
        f"{os.cpu_count()} cores{memory}, {platform.system()} {platform.release()},"
        f" Python {platform.python_version()}"
    )


def load() -> list[float]:
    """The load averages over 1, 5 and 15 minutes."""
    return [round(x, 2) for x in os.getloadavg()]
