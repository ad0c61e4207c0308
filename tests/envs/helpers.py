"""Random positions and games shared by the adapter tests."""

from __future__ import annotations

import random

from gamenight.centrix import CentrixState, Rules


def random_positions(
    count: int, seed: int = 5, bottoms: tuple[str, ...] = ("protect", "knock_off", "floor")
) -> list[CentrixState]:
    """Positions from random games of 2–6 players under every bottom variant."""
    rng = random.Random(seed)
    out: list[CentrixState] = []
    while len(out) < count:
        rules = Rules(bottom=rng.choice(bottoms))  # type: ignore[arg-type]
        state = CentrixState.new(rng.randint(2, 6), seed=rng.getrandbits(32), rules=rules)
        for _ in range(rng.randint(0, 150)):
            if state.is_over:
                break
            state._push(rng.choice(state.legal_plays()))
        if not state.is_over:
            out.append(state)
    return out
