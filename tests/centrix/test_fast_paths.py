"""The engine's documented fast paths give what the checked paths give."""

from __future__ import annotations

from gamenight.centrix import Card, CentrixState, Colour
from gamenight.centrix.state import TOP_GROUP
from tests.centrix.helpers import random_positions


def test_moves_by_colour_are_the_unrotated_moves_each_card_allows() -> None:
    for state in random_positions(40, seed=3):
        seat = state.actor
        assert seat is not None
        groups = state.moves_by_colour(seat)
        assert len(groups) == TOP_GROUP + 1
        own = state.players[seat]
        expected = set()
        for card in set(state.hands[seat]):
            if card.colour is None:
                allowed = [mv for group in groups for mv in group]
            else:
                allowed = groups[card.colour] + (groups[TOP_GROUP] if card.colour == own else [])
            expected |= {(card, mv) for mv in allowed}
        listed = {(p.card, p.move) for p in state.legal_plays() if p.rotation is None}
        assert listed == expected
        for colour in Colour:
            assert all(state.colour_at(mv.to_square) is colour for mv in groups[colour])


def test_the_legal_play_tuple_is_the_cache_until_the_position_changes() -> None:
    state = CentrixState.new(3, seed=4)
    plays = state.legal_play_tuple()
    assert state.legal_play_tuple() is plays
    assert list(plays) == state.legal_plays()
    state.push(plays[0])
    assert state.legal_play_tuple() is not plays
    state.hands[state.actor or 0].append(Card.ANY)
    cached = state.legal_play_tuple()
    state.edited()  # the hands were changed in place: the cache must go
    assert state.legal_play_tuple() is not cached


def test_a_copy_without_history_is_the_same_position_and_cannot_pop() -> None:
    state = CentrixState.new(4, seed=9)
    for _ in range(5):
        state.push(state.legal_plays()[0])
    light = state.copy(history=False)
    assert light == state
    assert light.actions == []
    assert light.legal_plays() == state.legal_plays()
    light.push(light.legal_plays()[-1])
    assert light != state


def test_advance_makes_the_play_push_unchecked_makes_without_keeping_it() -> None:
    # A search that throws its sampled state away needs no undo record (ISMCTS's walks).
    for state in random_positions(30, seed=8):
        kept = state.copy()
        history = len(state.plays)
        for _ in range(12):
            if state.is_over:
                break
            play = state.legal_plays()[-1]
            kept.push_unchecked(play)
            state.advance(play)
            assert state.position() == kept.position()
            assert state.outcome == kept.outcome
        assert len(state.plays) == history  # nothing to take back
