"""What both games share: errors, the outcome, the game record."""

from gamenight.core.errors import (
    GamenightError,
    IllegalActionError,
    LogError,
    NotationError,
    RecordError,
    RulesError,
)
from gamenight.core.outcome import Outcome
from gamenight.core.record import GameRecord

__all__ = [
    "GameRecord",
    "GamenightError",
    "IllegalActionError",
    "LogError",
    "NotationError",
    "Outcome",
    "RecordError",
    "RulesError",
]
