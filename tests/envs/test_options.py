"""The adapters' options for trainers (issue 19): the normalised continuous Color City
Box, the agent's seat (fixed or drawn each episode), registration without a prior import,
and OpenSpiel's ISMCTSBot under ``evaluate_bots``."""

from __future__ import annotations

import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
from pettingzoo.test import api_test

import gamenight.envs.gym
import gamenight.envs.openspiel
from gamenight.colorcity.actions import Decision
from gamenight.colorcity.shots import Shot
from gamenight.colorcity.state import Phase
from gamenight.colorcity.table import DEFAULT_TABLE
from gamenight.envs import colorcity_v0
from gamenight.envs.colorcity_v0 import continuous_action
from gamenight.envs.openspiel_bots import ISMCTSBot


def test_the_normalized_box_passes_the_checkers_without_the_box_warning() -> None:
    env = gymnasium.make("gamenight/ColorCity-v0", max_turns=6, continuous="normalized")
    space = env.action_space
    assert (space.low.tolist(), space.high.tolist()) == ([-1.0] * 5, [1.0] * 5)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert not [w for w in caught if "normalized" in str(w.message)]
    with pytest.warns(UserWarning, match="symmetric and normalized"):
        check_env(gymnasium.make("gamenight/ColorCity-v0", max_turns=6, continuous=True).unwrapped)
    warnings.filterwarnings("ignore", message=".*(NumPy array|box or gymnasium).*")
    api_test(colorcity_v0.env(max_turns=6, continuous="normalized"), num_cycles=20)


def test_a_normalized_action_maps_linearly_onto_the_tables_ranges() -> None:
    table = DEFAULT_TABLE
    middle = continuous_action(table, [0, 0, 0, 0, 0], Phase.PITCH, [], normalized=True)
    assert middle == Shot(0.0, 0.0, (table.min_speed + table.max_speed) / 2, 0.0)
    low = continuous_action(table, [-1, -1, -1, -1, -1], Phase.PITCH, [], normalized=True)
    assert low == Shot(
        -table.launch_half_width, -table.max_direction_deg, table.min_speed, -table.max_spin
    )
    # Outside the box is clipped to it, as in the table's units.
    assert continuous_action(table, [9] * 5, Phase.PITCH, [], normalized=True) == Shot(
        table.launch_half_width, table.max_direction_deg, table.max_speed, table.max_spin
    )
    power = [Decision.LUCKY_DAY]
    assert continuous_action(table, [0] * 5, Phase.POWER, power, True) is Decision.LUCKY_DAY
    assert continuous_action(table, [0, 0, 0, 0, -0.1], Phase.POWER, power, True) is Decision.PASS
    with pytest.raises(ValueError, match="continuous must be one of"):
        colorcity_v0.env(continuous="unit")


@pytest.mark.parametrize("game", ["gamenight/ColorCity-v0", "gamenight/Centrix-v0"])
def test_the_agent_can_take_any_seat_or_a_random_one_each_episode(game: str) -> None:
    fixed = gymnasium.make(game, max_turns=4, seat=1)
    fixed.reset(seed=0)
    assert fixed.unwrapped.seat == 1
    drawn = gymnasium.make(game, max_turns=4, seat="random")
    seats = set()
    for seed in range(12):
        drawn.reset(seed=seed)
        seats.add(drawn.unwrapped.seat)
        # The episode starts at the agent's turn: the opponents before it have played.
        state = drawn.unwrapped.state
        mover = drawn.unwrapped._mover(state)
        assert mover == drawn.unwrapped.seat
    assert seats == {0, 1}
    check_env(gymnasium.make(game, max_turns=4, seat="random").unwrapped)
    with pytest.raises(ValueError, match="seat must be 0–1 or 'random'"):
        gymnasium.make(game, seat="first")


def test_the_colorcity_gang_names_the_same_seat() -> None:
    env = gamenight.envs.gym.ColorCityEnv(gang="purple", max_turns=4)
    env.reset(seed=0)
    assert (env.seat, env.gang.name) == (1, "PURPLE")
    with pytest.raises(ValueError, match="gang='purple' is seat 1"):
        gamenight.envs.gym.ColorCityEnv(gang="purple", seat=0)


def test_gymnasium_makes_the_envs_by_module_id_in_a_fresh_interpreter() -> None:
    code = (
        "import gymnasium\n"
        "env = gymnasium.make('gamenight.envs.gym:gamenight/Centrix-v0', max_turns=5)\n"
        "obs, info = env.reset(seed=0)\n"
        "cc = gymnasium.make('gamenight.envs.gym:gamenight/ColorCity-v0', max_turns=2)\n"
        "print(obs.shape[0], info['action_mask'].shape[0], cc.reset(seed=0)[0].shape[0])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.split() == ["807", "234", "251"]


def test_openspiel_needs_the_one_import() -> None:
    code = (
        "import pyspiel\n"
        "import gamenight.envs.openspiel\n"
        "print(pyspiel.load_game('python_gamenight_centrix').num_players())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.split() == ["2"]


def test_evaluate_bots_plays_centrix_with_the_ismcts_wrapper() -> None:
    game = pyspiel.load_game("python_gamenight_centrix", {"players": 2, "max_turns": 3})
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    plain = ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=rng)
    with pytest.raises(pyspiel.SpielError, match="RestartAt"):
        evaluate_bots.evaluate_bots(game.new_initial_state(), [plain, plain], rng)
    bots = [
        ISMCTSBot(game, evaluator, 2.0, 4, random_state=rng),
        pyspiel.make_uniform_random_bot(1, 0),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize(
    ("game", "kwargs"),
    [("gamenight/Centrix-v0", {"max_turns": 6}), ("gamenight/ColorCity-v0", {"max_turns": 4})],
)
def test_gymnasium_infos_keep_their_keys_at_every_step(
    game: str, kwargs: dict[str, object]
) -> None:
    # A trainer that stacks infos (tianshou's buffer) needs the same keys at every step.
    env = gymnasium.make(game, **kwargs)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    keys = set(info)
    assert {"illegal_action", "reason"} <= keys
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, terminated, truncated, info = env.step(action)
        assert set(info) == keys
        done = terminated or truncated
    assert info["reason"]
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, _, _, _, info = env.step(illegal)
    assert set(info) == keys
    assert info["illegal_action"] is True
