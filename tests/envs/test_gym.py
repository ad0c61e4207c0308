"""The single-agent Gymnasium environments pass Gymnasium's checker and play real games."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gamenight.envs.gym


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"num_players": 3, "opponents": ["level1", "level2"], "seat": 2}],
    ids=["2p", "3p"],
)
def test_centrix_passes_the_env_checker(kwargs: dict[str, object]) -> None:
    env = gymnasium.make("gamenight/Centrix-v0", max_turns=40, render_mode="ansi", **kwargs)
    check_env(env.unwrapped)


@pytest.mark.parametrize(
    "kwargs", [{}, {"continuous": True, "gang": "purple"}], ids=["grid", "continuous"]
)
def test_colorcity_passes_the_env_checker(kwargs: dict[str, object]) -> None:
    env = gymnasium.make("gamenight/ColorCity-v0", max_turns=8, render_mode="rgb_array", **kwargs)
    check_env(env.unwrapped)


def test_an_illegal_action_loses_or_is_replaced() -> None:
    env = gymnasium.make("gamenight/Centrix-v0", opponents="level1")
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    lenient = gymnasium.make("gamenight/Centrix-v0", opponents="level1", illegal_action="random")
    lenient.reset(seed=0)
    _, reward, terminated, _, info = lenient.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (0.0, False, True)


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [("gamenight/Centrix-v0", {"opponents": "level1"}), ("gamenight/ColorCity-v0", {})],
)
def test_an_action_outside_the_space_is_refused_in_every_mode(
    name: str, kwargs: dict[str, object]
) -> None:
    # Issue 29: 999 in Discrete(234) silently ended the episode as a loss, hiding an
    # agent's indexing bug. Outside the space it is refused, naming it, the game untouched.
    for mode in ("lose", "random", "raise"):
        env = gymnasium.make(name, illegal_action=mode, **kwargs).unwrapped
        env.reset(seed=0)
        before = env.state.position()
        size = env.action_space.n
        for action in (size + 765, -1, 2.5):
            with pytest.raises(ValueError, match=rf"action {action} is outside Discrete\({size}\)"):
                env.step(action)
        assert env.state.position() == before


def test_raise_refuses_an_illegal_action_naming_it_and_the_game_goes_on() -> None:
    env = gymnasium.make("gamenight/Centrix-v0", opponents="level1", illegal_action="raise")
    _, info = env.reset(seed=0)
    mask = info["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match=rf"action {illegal} is not legal here"):
        env.step(illegal)
    _, _, terminated, _, info = env.step(int(np.flatnonzero(mask)[0]))
    assert not terminated
    assert info["illegal_action"] is False


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [("gamenight/Centrix-v0", {"max_turns": 20}), ("gamenight/ColorCity-v0", {"max_turns": 6})],
)
def test_the_env_checker_prints_nothing_and_only_human_mode_draws(
    name: str, kwargs: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    # check_env also makes the env in each declared mode, "human" too, and renders it.
    for mode in (None, "ansi", "rgb_array"):
        check_env(gymnasium.make(name, render_mode=mode, **kwargs).unwrapped)
    assert capsys.readouterr().out == ""
    for mode in ("ansi", "human"):
        env = gymnasium.make(name, render_mode=mode, **kwargs)
        _, info = env.reset(seed=1)
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
        shown = capsys.readouterr().out
        assert (shown != "") == (mode == "human")


def masked_episode(env: gymnasium.Env, seed: int) -> tuple[float, int]:  # type: ignore[type-arg]
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        steps += 1
        if terminated or truncated:
            return total, steps


def test_a_masked_random_agent_plays_whole_games_against_the_bots() -> None:
    centrix = gymnasium.make("gamenight/Centrix-v0", opponents="level2", max_turns=60)
    total, steps = masked_episode(centrix, 1)
    assert total in (-1.0, 0.0, 1.0)
    assert steps > 10
    colorcity = gymnasium.make("gamenight/ColorCity-v0", max_turns=10)
    total, steps = masked_episode(colorcity, 2)
    assert total in (-1.0, 0.0, 1.0)
    assert steps >= 1
    # The agent (Green) pitched in every other turn, from the first; every step is a move.
    played = colorcity.unwrapped
    assert played.state.is_over
    assert played.state.turn >= 1
    assert (played.state.turn + 1) // 2 <= steps <= played.plays_made


def test_the_same_seed_gives_the_same_episode() -> None:
    env = gymnasium.make("gamenight/Centrix-v0", opponents="ismcts:20it", max_turns=30)
    assert masked_episode(env, 5) == masked_episode(env, 5)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="seat"):
        gamenight.envs.gym.CentrixEnv(seat=2)
    with pytest.raises(ValueError, match="opponent specs"):
        gamenight.envs.gym.CentrixEnv(num_players=3, opponents=["level1"])
    with pytest.raises(ValueError, match="illegal_action"):
        gamenight.envs.gym.ColorCityEnv(illegal_action="ignore")
