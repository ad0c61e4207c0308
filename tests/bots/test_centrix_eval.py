"""The Centrix evaluation: the one-pass ``scores`` against a slow reading of its docstring."""

from __future__ import annotations

import pytest

from gamenight.bots.centrix_eval import DEFAULT, Weights, opportunities, scores, value
from gamenight.centrix import Bottom, CentrixState
from gamenight.centrix.board import NUM_RINGS, NUM_SLOTS
from gamenight.centrix.state import EMPTY
from tests.centrix.helpers import random_positions


def slow_score(state: CentrixState, seat: int, w: Weights) -> float:
    """Written from the module docstring, square by (ring, slot), without the engine's tricks."""
    lowest_bumpable_ring = 3 if state.rules.bottom is Bottom.PROTECT else 2

    def opponent(ring: int, slot: int) -> bool:
        if not 1 <= ring <= NUM_RINGS:
            return False
        owner = state.cells[(ring - 1) * NUM_SLOTS + slot % NUM_SLOTS]
        return owner not in (EMPTY, seat)

    total = w.top * state.top[seat]
    for ring in range(1, NUM_RINGS + 1):
        for slot in range(NUM_SLOTS):
            if state.cells[(ring - 1) * NUM_SLOTS + slot] != seat:
                continue
            total += ring
            beside = [(ring, slot + 1), (ring, slot - 1), (ring - 1, slot), (ring + 1, slot)]
            if ring >= lowest_bumpable_ring and any(opponent(r, s) for r, s in beside):
                total -= w.threat
    if state.to_move == seat:
        total += w.opportunity * opportunities(state, seat)
    return total


@pytest.mark.parametrize("weights", [DEFAULT, Weights(top=7, opportunity=0, threat=1.5)])
def test_scores_match_a_slow_reading_of_the_definition(weights: Weights) -> None:
    threatened = 0
    for state in random_positions(90, seed=11):
        fast = scores(state, weights)
        slow = [slow_score(state, s, weights) for s in range(state.num_players)]
        assert fast == pytest.approx(slow), state.position()
        threatened += fast != scores(state, Weights(weights.top, weights.opportunity, 0))
    assert threatened > 10  # the positions do exercise the threat term


def test_value_is_own_score_against_the_best_rival() -> None:
    for state in random_positions(30, seed=12):
        slow = [slow_score(state, s, DEFAULT) for s in range(state.num_players)]
        for seat in range(state.num_players):
            rivals = [x for s, x in enumerate(slow) if s != seat and not state.places[s]]
            assert value(state, seat) == pytest.approx(slow[seat] - max(rivals, default=0))
