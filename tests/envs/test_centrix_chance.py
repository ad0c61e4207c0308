"""Draws as chance outcomes: the chance-driven engine refills exactly as the rules do."""

from __future__ import annotations

import random
from collections import Counter

from gamenight.centrix import CentrixState, Rules
from gamenight.centrix.cards import DECK, Card
from gamenight.envs.centrix_chance import DealtCentrix, dealt_start, from_state, pool_after


def all_cards(state: CentrixState) -> Counter[Card]:
    total: Counter[Card] = Counter()
    for hand in state.hands:
        total += Counter(hand)
    return total + Counter(state.draw) + Counter(state.discard)


def test_a_play_that_needs_no_refill_is_made_at_once() -> None:
    state = dealt_start(Rules(), 2, list(DECK[:6]))
    play = state.legal_plays()[0]
    assert state.play(play) is None
    assert state.plays == []
    assert state.plays_done in (0, 1)


def test_a_refill_asks_for_chance_cards_and_changes_nothing_until_dealt() -> None:
    rng = random.Random(3)
    deck = list(DECK)
    rng.shuffle(deck)
    state = dealt_start(Rules(), 2, deck[:6])
    before = state.position()
    seen_refill = False
    for _ in range(400):
        if state.is_over:
            break
        play = rng.choice(state.legal_plays())
        refill = state.play(play)
        if refill is None:
            before = state.position()
            continue
        seen_refill = True
        assert state.position() == before  # untouched
        dealt: list[Card] = []
        for _ in range(refill.cards):
            pool = pool_after(refill.draw, refill.discard, dealt)
            dealt.append(rng.choice(sorted(pool.elements())))
        seat = state.to_move
        assert seat is not None
        hand_before = Counter(state.hands[seat]) - Counter([play.card])
        assert state.play(play, dealt) is None
        if not state.places[seat]:
            assert Counter(state.hands[seat]) == hand_before + Counter(dealt)
        assert all_cards(state) == Counter(DECK)
        before = state.position()
    assert seen_refill


def test_an_empty_pile_makes_the_discard_pile_the_pool() -> None:
    refill_draw = (Card.R1,)
    refill_discard = (Card.B2, Card.B2, Card.ANY)
    assert pool_after(refill_draw, refill_discard, []) == Counter({Card.R1: 1})
    assert pool_after(refill_draw, refill_discard, [Card.R1]) == Counter({Card.B2: 2, Card.ANY: 1})
    assert pool_after(refill_draw, refill_discard, [Card.R1, Card.B2]) == Counter(
        {Card.B2: 1, Card.ANY: 1}
    )


def test_a_reshuffle_takes_the_dealt_cards_from_the_discard_pile() -> None:
    state = from_state(CentrixState.new(2, seed=8))
    rng = random.Random(8)
    # Play until the draw pile runs low, then check a refill across the reshuffle.
    while not state.is_over:
        play = rng.choice(state.legal_plays())
        refill = state.play(play)
        if refill is None:
            continue
        dealt: list[Card] = []
        for _ in range(refill.cards):
            dealt.append(min(pool_after(refill.draw, refill.discard, dealt)))
        across = refill.cards > len(refill.draw)
        state.play(play, dealt)
        assert all_cards(state) == Counter(DECK)
        if across:
            # The old discard pile (minus what was dealt from it) is the new draw pile.
            rest = Counter(refill.discard) - Counter(dealt[len(refill.draw) :])
            assert Counter(state.draw) == rest
            return
    raise AssertionError("no reshuffle happened")


def test_copies_and_pickles_keep_the_position() -> None:
    import copy
    import pickle

    state = from_state(CentrixState.new(3, seed=2))
    clone = copy.deepcopy(state)
    assert isinstance(clone, DealtCentrix)
    assert clone.position() == state.position()
    back = pickle.loads(pickle.dumps(state))
    assert isinstance(back, DealtCentrix)
    assert back.position() == state.position()
    assert back.rules == state.rules


def test_copies_share_the_play_tree_until_the_position_changes() -> None:
    import copy

    state = from_state(CentrixState.new(2, seed=5))
    tree = state.play_tree()
    assert state.play_tree() is tree  # cached
    assert sorted(map(str, tree.source)) == sorted(map(str, state.legal_plays()))
    clone = copy.deepcopy(state)
    assert clone.play_tree() is tree  # the copy starts with both caches filled
    play = clone.legal_plays()[0]
    refill = clone.play(play)
    if refill is not None:
        dealt: list[Card] = []
        for _ in range(refill.cards):
            dealt.append(min(pool_after(refill.draw, refill.discard, dealt)))
        clone.play(play, dealt)
    moved = clone.play_tree()
    assert moved is not tree  # rebuilt for the new position
    assert sorted(map(str, moved.source)) == sorted(map(str, clone.legal_plays()))
    assert state.play_tree() is tree  # the original keeps its own
