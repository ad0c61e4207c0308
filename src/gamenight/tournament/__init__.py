"""Tournaments: every bot in every seat equally often, in parallel, with ratings."""

from gamenight.tournament.runner import (
    GameResult,
    Tournament,
    Watcher,
    rotation,
    run_jobs,
    schedule,
)
from gamenight.tournament.stats import Summary, summarise, wilson

__all__ = [
    "GameResult",
    "Summary",
    "Tournament",
    "Watcher",
    "rotation",
    "run_jobs",
    "schedule",
    "summarise",
    "wilson",
]
