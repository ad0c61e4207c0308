"""What the adapters share: seeds and returns from places. The games' common surface is the
protocol of gamenight.core.game, re-exported here as ``GameState``."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from gamenight.core.game import GameState

__all__ = ["GameState", "place_returns", "seed_from"]


def seed_from(rng: np.random.Generator) -> int:
    """A game's (or a bot's) seed, drawn from an environment's generator."""
    return int(rng.integers(2**62))


def place_returns(places: Sequence[int]) -> list[float]:
    """Each seat's return from its place: (seats behind − seats ahead) / (n − 1).

    In [−1, 1], summing to 0 whatever the ties (every pair of seats contributes +1 and −1,
    or nothing when they share a place); two players get +1 / −1, or 0 each for a draw.
    """
    n = len(places)
    return [
        (sum(1 for q in places if q > p) - sum(1 for q in places if q < p)) / (n - 1)
        for p in places
    ]
