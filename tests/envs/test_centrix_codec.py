"""The flat Centrix encoding: decisions map one-to-one onto legal plays; observations show
only the seat's view."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gamenight.centrix import CentrixState, Play
from gamenight.envs import centrix_codec as codec
from tests.centrix.helpers import random_positions

from .helpers import hidden_twin


def leaves(builder: codec.PlayBuilder, plays: list[Play]) -> list[Play]:
    """Every play reachable by legal decisions from the builder's prefix."""
    found: list[Play] = []
    for action in builder.legal_actions(plays):
        child = codec.PlayBuilder()
        child.prefix = builder.prefix
        done = child.choose(plays, action)
        if done is not None:
            found.append(done)
        else:
            found.extend(leaves(child, plays))
    return found


@pytest.mark.parametrize("state", random_positions(25, seed=5), ids=lambda s: s.position()[:20])
def test_decision_sequences_are_exactly_the_legal_plays(state: CentrixState) -> None:
    plays = state.legal_plays()
    reached = leaves(codec.PlayBuilder(), plays)
    assert sorted(map(str, reached)) == sorted(map(str, plays))
    assert len(set(reached)) == len(reached)  # one sequence per play
    for play in plays:
        codes = codec.play_codes(play)
        assert all(codec.stage_of(c) == i for i, c in enumerate(codes))
        assert codec.play_from_codes(codes, plays) == play


def test_the_action_space_is_small_and_stages_do_not_overlap() -> None:
    assert codec.NUM_ACTIONS == 234
    stages = [codec.stage_of(a) for a in range(codec.NUM_ACTIONS)]
    assert stages == sorted(stages)
    assert [stages.count(s) for s in range(4)] == [20, 67, 74, 73]
    with pytest.raises(ValueError, match="0–233"):
        codec.stage_of(234)


def test_action_names_read_like_the_notation() -> None:
    play = Play.parse("R2 3+2 c3-d3")
    names = [codec.action_name(a) for a in codec.play_codes(play)]
    assert names == ["card R2", "rotate 3+2", "from c3", "to d3"]
    rotation_only = [codec.action_name(a) for a in codec.play_codes(Play.parse("G3 2-3"))]
    assert rotation_only == ["card G3", "rotate 2-3", "no move"]
    entry = [codec.action_name(a) for a in codec.play_codes(Play.parse("S 6+5 b6-top"))]
    assert entry == ["card S", "rotate 6+5", "from b6", "to top"]


def test_an_illegal_decision_is_refused_and_changes_nothing() -> None:
    state = CentrixState.new(2, seed=3)
    builder = codec.PlayBuilder()
    plays = state.legal_plays()
    illegal = next(a for a in range(codec.NUM_ACTIONS) if a not in builder.legal_actions(plays))
    with pytest.raises(ValueError, match="not legal at the card stage"):
        builder.choose(plays, illegal)
    assert builder.prefix == ()
    # At the card stage the mask offers exactly the card kinds that have a legal play.
    assert builder.mask(plays).sum() == len({play.card for play in plays})


def test_observations_have_a_fixed_size_and_values_in_the_unit_interval() -> None:
    for state in random_positions(10, seed=9):
        seat = state.to_move
        assert seat is not None
        obs = codec.encode(state.view(seat), ())
        assert obs.shape == (codec.observation_size(state.num_players),)
        assert obs.dtype == np.float32
        assert obs.min() >= 0.0
        assert obs.max() <= 1.0


def test_observations_are_relative_to_the_observer() -> None:
    state = CentrixState.new(3, seed=4)
    rng = random.Random(1)
    for _ in range(30):
        state.push_unchecked(rng.choice(state.legal_plays()))
    obs = [codec.encode(state.view(s), ()) for s in range(3)]
    # The first block is the observer's own pawns: seat s's pawns for seat s.
    for s in range(3):
        own = obs[s][: codec.NUM_SQUARES]
        assert own.tolist() == [float(c == s) for c in state.cells]


def test_what_a_seat_cannot_see_does_not_change_its_observation() -> None:
    state = CentrixState.new(2, seed=21)
    rng = random.Random(4)
    for _ in range(20):
        state.push_unchecked(rng.choice(state.legal_plays()))
    twin = hidden_twin(state, 1)
    assert twin.hands[1] != state.hands[1]
    assert np.array_equal(codec.encode(twin.view(0), ()), codec.encode(state.view(0), ()))
    assert not np.array_equal(codec.encode(twin.view(1), ()), codec.encode(state.view(1), ()))


def test_the_compiled_decisions_are_the_play_trees() -> None:
    # At random points of random games of 2–6 players, after every prefix of every legal
    # play: the same next actions, the same play made whole, the same refusal.
    import random

    from gamenight.centrix import native
    from gamenight.centrix.state import CentrixState

    if not native.COMPILED:
        pytest.skip("the compiled core is not built")
    rng = random.Random(8)
    checked = 0
    for _ in range(30):
        state = CentrixState.new(rng.randint(2, 6), seed=rng.getrandbits(32))
        for _ in range(rng.randint(0, 100)):
            if state.is_over:
                break
            state.push(rng.choice(state.legal_plays()))
        if state.is_over:
            continue
        plays = state.legal_plays()
        tree = codec.PlayTree(plays)
        for play in rng.sample(list(plays), min(5, len(plays))):
            codes = codec.play_codes(play)
            for depth in range(len(codes) + 1):
                prefix = codes[:depth]
                found = native.decisions(state, prefix)
                assert found is not None
                assert found[0] == tree.legal_actions(prefix)
                whole = tree.step(prefix[:-1], prefix[-1])[1] if depth >= 3 else None
                assert found[1] == whole
                checked += 1
        fast, slow = codec.PlayBuilder(), codec.PlayBuilder()
        illegal = next(a for a in range(codec.NUM_ACTIONS) if a not in tree.legal_actions(()))
        with pytest.raises(ValueError, match="is not legal at the card stage") as fast_error:
            fast.choose_in(state, illegal)
        with pytest.raises(ValueError, match="is not legal at the card stage") as slow_error:
            slow.choose(plays, illegal)
        assert str(fast_error.value) == str(slow_error.value)
        assert fast.prefix == ()
    assert checked > 100
