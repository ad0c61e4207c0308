"""Tournaments: every bot in every seat equally often, in parallel, with ratings."""

from gamenight.tournament.runner import GameResult, Tournament, rotation, schedule
from gamenight.tournament.stats import Summary, summarise, wilson

__all__ = ["GameResult", "Summary", "Tournament", "rotation", "schedule", "summarise", "wilson"]
