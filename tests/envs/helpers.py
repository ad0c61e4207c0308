"""Random positions and games shared by the adapter tests."""

from __future__ import annotations

import random

from gamenight.centrix import CentrixState, Rules
from gamenight.centrix.position import Position


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


def hidden_twin(state: CentrixState, seat: int) -> CentrixState:
    """``state`` with ``seat``'s hand swapped for cards of the draw pile."""
    p = state.to_position()
    hands = [list(h) for h in p.hands]
    draw = list(p.draw)
    size = len(hands[seat])
    hands[seat], draw[:size] = sorted(draw[:size]), hands[seat]
    changed = {**vars(p), "hands": tuple(map(tuple, hands)), "draw": tuple(draw)}
    return CentrixState(state.rules, state.players, Position(**changed))
