"""Invariants over random legal games (hypothesis chooses the seeds and the plays)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.centrix import DECK, CentrixState
from gamenight.centrix.board import NUM_SLOTS, OFF, TOP


def check_invariants(state: CentrixState) -> None:
    n = state.num_players
    # Three pawns per player, each off, on one ring square, or on the top.
    for seat in range(n):
        squares = state.pawn_squares(seat)
        assert len(squares) == 3
        for sq in squares:
            level = 0 if sq == OFF else 7 if sq == TOP else sq // NUM_SLOTS + 1
            assert 0 <= level <= 7
    # One pawn per square: the board has one owner per cell and no more pawns than exist.
    assert sum(1 for owner in state.cells if owner >= 0) <= 3 * n
    assert all(-1 <= owner < n for owner in state.cells)
    # The 42 cards, all accounted for.
    cards = Counter(state.draw + state.discard + [c for h in state.hands for c in h])
    assert cards == Counter(DECK)
    assert all(len(h) <= 3 for h in state.hands)


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    choices=st.lists(st.integers(0, 10**6), min_size=1, max_size=200),
)
def test_random_games_keep_the_invariants_and_undo_exactly(
    players: int, seed: int, choices: list[int]
) -> None:
    state = CentrixState.new(players, seed=seed)
    positions = [state.position()]
    for choice in choices:
        if state.is_over:
            break
        legal = state.legal_plays()
        state.push(legal[choice % len(legal)])
        check_invariants(state)
        positions.append(state.position())
    # pop() walks back through every position exactly.
    while state.plays:
        positions.pop()
        state.pop()
        assert state.position() == positions[-1]


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), plays=st.integers(0, 400))
def test_a_record_replays_to_the_same_position(players: int, seed: int, plays: int) -> None:
    state = CentrixState.new(players, seed=seed, first=seed % players)
    rng = __import__("random").Random(seed)
    for _ in range(plays):
        if state.is_over:
            break
        state.push(rng.choice(state.legal_plays()))
    again = CentrixState.replay(state.record().to_json())
    assert again.position() == state.position()


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), plays=st.integers(0, 300))
def test_a_view_never_holds_another_seats_hand(players: int, seed: int, plays: int) -> None:
    state = CentrixState.new(players, seed=seed)
    rng = __import__("random").Random(seed)
    for _ in range(plays):
        if state.is_over:
            break
        state.push(rng.choice(state.legal_plays()))
    for seat in range(players):
        view = state.view(seat)
        assert view.hand == tuple(state.hands[seat])
        assert view.hand_sizes == tuple(len(h) for h in state.hands)
        assert view.draw_size == len(state.draw)
        fields = vars(view) if hasattr(view, "__dict__") else {}
        assert "draw" not in fields
        assert "key" not in fields
        assert "hands" not in fields
    assert state.view(None).hand is None


def walk_back(state: CentrixState, positions: list[str]) -> None:
    """Pop every play, checking that each earlier position comes back exactly."""
    assert state.position() == positions[-1]
    for expected in reversed(positions[:-1]):
        state.pop()
        assert state.position() == expected
    assert not state.plays


def play_on(state: CentrixState, rng: random.Random, plays: int, positions: list[str]) -> None:
    for _ in range(plays):
        if state.is_over:
            break
        state.push(rng.choice(state.legal_plays()))
        positions.append(state.position())


@settings(max_examples=15, deadline=None)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    plays=st.integers(1, 60),
    back=st.integers(1, 60),
)
def test_a_copy_and_its_original_pop_and_play_on_without_touching_each_other(
    players: int, seed: int, plays: int, back: int
) -> None:
    # copy() shares the stack of snapshots; popping a shared snapshot must not hand out
    # lists that the other state's history still holds.
    state = CentrixState.new(players, seed=seed)
    rng = random.Random(seed)
    positions = [state.position()]
    play_on(state, rng, plays, positions)
    clone = state.copy()
    back = min(back, len(clone.plays))
    for _ in range(back):
        clone.pop()
    clone_positions = positions[: len(positions) - back]
    play_on(clone, rng, back + 5, clone_positions)
    walk_back(state, positions)
    play_on(state, rng, plays, [state.position()])
    walk_back(clone, clone_positions)
