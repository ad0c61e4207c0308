"""``gamenight centrix bench``: legal-play generation and random play, on one core."""

from __future__ import annotations

import random
import time
from typing import Any

from gamenight.centrix.perft import perft_stats
from gamenight.centrix.state import CentrixState


def sample_positions(count: int, seed: int = 2026) -> list[CentrixState]:
    """Positions from random games of 2–6 players, taken at random points of the game."""
    rng = random.Random(seed)
    positions: list[CentrixState] = []
    while len(positions) < count:
        state = CentrixState.new(rng.randint(2, 6), seed=rng.getrandbits(32))
        stop = rng.randint(0, 600)
        while not state.is_over and len(state.plays) < stop:
            state._push(rng.choice(state.legal_plays()))
        if not state.is_over:
            positions.append(CentrixState.from_position(state.position()))
    return positions


def generation(positions: int = 60, depth: int = 2) -> dict[str, float]:
    """Plays generated per second, perft-style (push, generate, pop) from sampled positions."""
    states = sample_positions(positions)
    generated = 0
    start = time.perf_counter()
    for state in states:
        generated += perft_stats(state, depth)[1]
    seconds = time.perf_counter() - start
    return {"plays_per_s": generated / seconds, "plays": generated, "seconds": seconds}


def random_play(players: int, games: int, seed: int = 7) -> dict[str, float]:
    """Uniformly random games: every step chooses among the full ``legal_plays()``."""
    rng = random.Random(seed)
    plays = turns = options = 0
    start = time.perf_counter()
    for _ in range(games):
        state = CentrixState.new(players, seed=rng.getrandbits(32))
        while not state.is_over:
            legal = state.legal_plays()
            options += len(legal)
            state._push(rng.choice(legal))
            plays += 1
        turns += state.turn
    seconds = time.perf_counter() - start
    return {
        "plays_per_s": plays / seconds,
        "games_per_s": games / seconds,
        "plays_per_game": plays / games,
        "turns_per_game": turns / games,
        "branching": options / plays,
    }


def run(games: int = 20, positions: int = 60) -> dict[str, Any]:
    return {
        "generation": generation(positions),
        "random_play": {str(n): random_play(n, games) for n in (2, 4, 6)},
    }
