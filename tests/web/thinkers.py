"""Bots' thinking that tests put in the bot runner's worker processes (importable there)."""

from __future__ import annotations

import time
from typing import Any

from gamenight.web.bots import think


def stuck_above_level_2(
    game: str, view: Any, level: int, seed: int, seconds: float | None = None
) -> str:
    """A level 3 bot or above never finishes (a wedged worker); levels 1–2 think as usual."""
    if level > 2:
        time.sleep(3600)
    return think(game, view, level, seed, seconds)
