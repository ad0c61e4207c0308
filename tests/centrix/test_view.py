"""Hidden information is cut at view(seat): what a seat cannot see cannot change its view."""

from __future__ import annotations

import random

import pytest

from gamenight.centrix import CentrixState
from gamenight.centrix.position import Position


def test_views_ignore_other_hands_and_the_draw_order() -> None:
    state = CentrixState.new(4, seed=21)
    rng = random.Random(4)
    for _ in range(40):
        state.push(rng.choice(state.legal_plays()))
    p = state.to_position()
    # Swap two other seats' hands for draw-pile cards and shuffle the draw: same public state.
    seat = 0
    others = [s for s in range(4) if s != seat]
    draw = list(p.draw)
    hands = [list(h) for h in p.hands]
    for s in others:
        swap = len(hands[s])
        hands[s], draw[:swap] = sorted(draw[:swap]), hands[s]
    rng.shuffle(draw)
    twin_position = Position(
        **{
            **vars(p),
            "hands": tuple(tuple(h) for h in hands),
            "draw": tuple(draw),
            "key": p.key ^ 0xFFFF,
        }
    )
    twin = CentrixState(state.rules, state.players, twin_position)
    assert twin.position() != state.position()
    assert twin.view(seat) == state.view(seat)
    assert twin.view(None) == state.view(None)
    assert twin.view(others[0]) != state.view(others[0])


def test_a_view_has_what_the_seat_may_know() -> None:
    state = CentrixState.new(3, seed=2)
    view = state.view(1)
    assert view.hand == tuple(state.hands[1])
    assert view.hand_sizes == (3, 3, 3)
    assert view.draw_size == 42 - 9
    assert view.discard == ()
    assert view.to_move == 0
    assert view.pawns_off(1) == 3
    with pytest.raises(ValueError, match="no seat 3"):
        state.view(3)


def test_a_rotated_view_previews_a_turn_without_playing() -> None:
    state = CentrixState.new(2, seed=1)
    rng = random.Random(1)
    for _ in range(12):
        state.push(rng.choice(state.legal_plays()))
    view = state.view(0)
    ring = next(sq // 12 + 1 for sq, o in enumerate(view.cells) if o >= 0)
    turned = view.rotated(ring, 2)
    base = (ring - 1) * 12
    assert (
        turned.cells[base : base + 12]
        == view.cells[base + 10 : base + 12] + view.cells[base : base + 10]
    )
    assert turned.offsets[ring - 1] == (view.offsets[ring - 1] + 2) % 12
    assert turned.hand == view.hand
    assert state.view(0) == view
    with pytest.raises(ValueError, match="no ring 7"):
        view.rotated(7, 1)
