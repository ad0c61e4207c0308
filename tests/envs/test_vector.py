"""The batched Centrix env gives make_vec's observations, masks and rewards, game by game."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import gamenight.envs.gym  # noqa: F401 — registers the ids
from gamenight.envs.vector import CentrixVectorEnv


def masked_actions(rng: np.random.Generator, masks: np.ndarray, stray: float) -> np.ndarray:
    # A legal action for each game, or with probability ``stray`` any action of the space.
    return np.array(
        [
            rng.integers(masks.shape[1])
            if rng.random() < stray or not m.any()
            else rng.choice(np.flatnonzero(m))
            for m in masks
        ]
    )


@pytest.mark.parametrize(
    "kwargs",
    [
        {"opponents": "random", "max_turns": 30},
        {"num_players": 3, "opponents": ["level1", "greedy"], "seat": "random", "max_turns": 20},
        {"opponents": "random", "max_turns": 30, "illegal_action": "random"},
    ],
    ids=["2p-random", "3p-mixed", "2p-illegal-random"],
)
def test_the_batched_env_steps_as_make_vec_does(kwargs: dict[str, object]) -> None:
    batched = CentrixVectorEnv(4, **kwargs)
    reference = gymnasium.make_vec(
        "gamenight/Centrix-v0", num_envs=4, vectorization_mode="sync", **kwargs
    )
    obs, info = batched.reset(seed=11)
    ref_obs, ref_info = reference.reset(seed=11)
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(300):
        np.testing.assert_array_equal(obs, ref_obs)
        np.testing.assert_array_equal(info["action_mask"], ref_info["action_mask"])
        stray = 0.2 if kwargs.get("illegal_action") == "random" else 0.0
        actions = masked_actions(rng, info["action_mask"], stray)
        obs, reward, terminated, truncated, info = batched.step(actions)
        ref_obs, ref_reward, ref_terminated, ref_truncated, ref_info = reference.step(actions)
        np.testing.assert_array_equal(reward, ref_reward)
        np.testing.assert_array_equal(terminated, ref_terminated)
        np.testing.assert_array_equal(truncated, ref_truncated)
        ended += int(terminated.sum())
    assert ended >= 4  # games ended and the next ones began, as make_vec's did
    assert obs.dtype == np.float32
    assert info["action_mask"].shape == (4, 234)
    assert batched.observation_space.shape == (4, obs.shape[1])


def test_bad_arguments_are_refused_naming_them() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        CentrixVectorEnv(0)
    envs = CentrixVectorEnv(2, opponents="random")
    envs.reset(seed=0)
    with pytest.raises(ValueError, match=r"shape \(2,\)"):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="2 seeds"):
        CentrixVectorEnv(3).reset(seed=[1, 2])


def test_the_compiled_encoder_writes_the_codecs_observations_and_masks() -> None:
    # Positions of 2–6 players at random points of random games, each from a random seat
    # and from the mover's at every prefix of a legal play: the core's rows are the Python
    # codec's exactly.
    import random

    from gamenight.centrix import native
    from gamenight.centrix.state import CentrixState
    from gamenight.envs import centrix_codec

    if not native.COMPILED:
        pytest.skip("the compiled core is not built")
    rng = random.Random(4)
    games = []
    for _ in range(60):
        players = rng.randint(2, 6)
        state = CentrixState.new(players, seed=rng.getrandbits(32))
        for _ in range(rng.randint(0, 120)):
            if state.is_over:
                break
            state.push(rng.choice(state.legal_plays()))
        seat = rng.randrange(players)
        games.append((state, seat, ()))
        if not state.is_over:  # the mover, at every stage of one of its plays
            codes = centrix_codec.play_codes(rng.choice(state.legal_plays()))
            mover = state.to_move
            assert mover is not None
            games += [(state, mover, codes[:depth]) for depth in range(len(codes))]
    for players in range(2, 7):
        group = [g for g in games if g[0].num_players == players]
        size = centrix_codec.observation_size(players)
        observations = np.full((len(group), size), 7.0, np.float32)
        masks = np.full((len(group), centrix_codec.NUM_ACTIONS), 7, np.int8)
        assert native.encode_batch(group, observations, masks)
        for row, (state, seat, prefix) in enumerate(group):
            expected = centrix_codec.encode(state.view(seat), prefix)
            np.testing.assert_array_equal(observations[row], expected)
            builder = centrix_codec.PlayBuilder()
            builder.prefix = prefix
            mask = np.zeros(centrix_codec.NUM_ACTIONS, np.int8)
            if state.to_move == seat:
                mask = builder.mask(state.legal_plays())
            np.testing.assert_array_equal(masks[row], mask)


def test_without_the_compiled_core_the_python_codec_fills_the_same_arrays() -> None:
    from gamenight.centrix import native

    with native.pure():
        slow = CentrixVectorEnv(2, opponents="random", max_turns=10)
        slow_obs, slow_info = slow.reset(seed=3)
    fast = CentrixVectorEnv(2, opponents="random", max_turns=10)
    fast_obs, fast_info = fast.reset(seed=3)
    np.testing.assert_array_equal(slow_obs, fast_obs)
    np.testing.assert_array_equal(slow_info["action_mask"], fast_info["action_mask"])
