"""Hidden-information twins shared by the adapter tests."""

from __future__ import annotations

from gamenight.centrix import CentrixState
from gamenight.centrix.position import Position


def hidden_twin(state: CentrixState, seat: int) -> CentrixState:
    """``state`` with ``seat``'s hand swapped for cards of the draw pile."""
    p = state.to_position()
    hands = [list(h) for h in p.hands]
    draw = list(p.draw)
    size = len(hands[seat])
    hands[seat], draw[:size] = sorted(draw[:size]), hands[seat]
    changed = {**vars(p), "hands": tuple(map(tuple, hands)), "draw": tuple(draw)}
    return CentrixState(state.rules, state.players, Position(**changed))
