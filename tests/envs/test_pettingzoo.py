"""The PettingZoo AEC environments pass PettingZoo's own API and seed tests and play real
games."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from gamenight.bots.centrix import GreedyBot
from gamenight.envs import centrix_codec as codec
from gamenight.envs import centrix_v0, colorcity_v0
from gamenight.envs.colorcity_codec import DECISIONS


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # PettingZoo warns that dict observations are not plain arrays: they are by its own
    # convention for action masks.
    warnings.filterwarnings("ignore", message=".*(NumPy array|box or gymnasium).*")


@pytest.mark.parametrize("players", [2, 3, 6])
def test_centrix_passes_the_api_and_seed_tests(players: int) -> None:
    api_test(centrix_v0.env(num_players=players, max_turns=30, render_mode="ansi"), 200)
    seed_test(lambda: centrix_v0.env(num_players=players, max_turns=30), num_cycles=100)


def test_colorcity_passes_the_api_and_seed_tests() -> None:
    api_test(colorcity_v0.env(max_turns=8, render_mode="rgb_array"), num_cycles=20)
    seed_test(lambda: colorcity_v0.env(max_turns=8), num_cycles=20)


def test_continuous_colorcity_passes_the_api_and_seed_tests() -> None:
    api_test(colorcity_v0.env(max_turns=8, continuous=True, render_mode="ansi"), 20)
    seed_test(lambda: colorcity_v0.env(max_turns=8, continuous=True), num_cycles=20)


def test_an_agent_observes_only_its_seats_view() -> None:
    env = centrix_v0.env(num_players=2)
    env.reset(seed=4)
    obs0 = env.observe("player_0")["observation"].copy()
    state = env.unwrapped.state
    # Swap player_1's hand for other cards from the draw pile: player_0 sees no change.
    hand = state.hands[1]
    state.hands[1], state.draw[: len(hand)] = sorted(state.draw[: len(hand)]), hand
    assert np.array_equal(env.observe("player_0")["observation"], obs0)
    assert env.observe("player_1")["action_mask"].sum() == 0  # not its turn


def test_a_bot_plays_centrix_through_the_env_and_rewards_sum_to_zero() -> None:
    env = centrix_v0.env(num_players=3, max_turns=60)
    env.reset(seed=1)
    bots = {agent: GreedyBot(seed=i) for i, agent in enumerate(env.possible_agents)}
    pending: dict[str, list[int]] = {}
    totals = dict.fromkeys(env.possible_agents, 0.0)
    plays = 0
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        if not pending.get(agent):
            seat = env.possible_agents.index(agent)
            play = bots[agent].choose(env.unwrapped.state.view(seat))
            pending[agent] = list(codec.play_codes(play))
            plays += 1
        action = pending[agent].pop(0)
        assert obs["action_mask"][action] == 1
        env.step(action)
    assert plays > 20
    assert sum(totals.values()) == pytest.approx(0.0)
    assert max(totals.values()) == 1.0


def test_renders_are_text_and_images() -> None:
    env = centrix_v0.env(num_players=4, render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (320, 320, 3)
    assert frame.dtype == np.uint8
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 6  # the six colours and more
    text_env = centrix_v0.env(num_players=4, render_mode="ansi")
    text_env.reset(seed=0)
    assert "to move" in text_env.render()
    cc = colorcity_v0.env(render_mode="rgb_array")
    cc.reset(seed=0)
    assert cc.render().shape == (9 * 32, 9 * 32, 3)
    with pytest.raises(ValueError, match="render_mode"):
        centrix_v0.env(render_mode="video")


def test_colorcity_grid_actions_are_the_documented_shots() -> None:
    env = colorcity_v0.env()
    env.reset(seed=2)
    grid = env.unwrapped.grid
    assert grid.num_shots == 9 * 5 * 9 * 3
    assert grid.num_actions == 1218
    shot = grid.shot(((4 * 5 + 2) * 9 + 4) * 3 + 1)  # centre column, straight, row 5, no spin
    assert (shot.position, shot.direction, shot.spin) == (0.0, 0.0, 0.0)
    # Without noise the cube stops within a few mm of the centre square's centre.
    flick = env.unwrapped.state.predict(shot)
    assert abs(flick.pose.x) < 1
    assert abs(flick.pose.y) < 3
    assert grid.nearest(shot) == ((4 * 5 + 2) * 9 + 4) * 3 + 1
    assert grid.action_of(shot) == ((4 * 5 + 2) * 9 + 4) * 3 + 1
    for decision in DECISIONS:
        assert grid.action(grid.action_of(decision)) is decision
    mask = env.observe("player_0")["action_mask"]
    assert mask[: grid.num_shots].all()
    assert not mask[grid.num_shots :].any()


def test_rule_variants_and_the_turn_cap_reach_the_engine() -> None:
    env = centrix_v0.env(num_players=2, rules={"bottom": "knock_off"}, max_turns=50)
    env.reset(seed=0)
    rules = env.unwrapped.state.rules
    assert (rules.bottom, rules.max_turns) == ("knock_off", 50)
    capped = centrix_v0.env(rules={"max_turns": 7}, max_turns=50)
    capped.reset(seed=0)
    assert capped.unwrapped.state.rules.max_turns == 7  # the rules' own cap wins


def test_only_human_mode_draws_on_stdout_and_at_each_move(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for mode in (None, "ansi", "rgb_array", "human"):
        env = centrix_v0.env(render_mode=mode)
        env.reset(seed=0)
        env.render()
        assert capsys.readouterr().out == ""  # human: drawn at each move, not on asking
        for _ in range(8):  # whole plays: card, rotation, from, to
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(np.flatnonzero(mask)[0]))
        assert (capsys.readouterr().out != "") == (mode == "human")
