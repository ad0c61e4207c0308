"""The adapters work with the trainers researchers reach for, checked with each library's
own tools: PettingZoo's parallel API and render tests, SuperSuit's vector wrapper and a short
tianshou DQN run (issue 19)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import supersuit
from pettingzoo.test import parallel_api_test, parallel_seed_test, render_test

from gamenight.envs import centrix_v0, colorcity_v0

MODULES = {
    "centrix": (centrix_v0, {"num_players": 3, "max_turns": 6}),
    "colorcity": (colorcity_v0, {"max_turns": 4}),
    "colorcity-continuous": (colorcity_v0, {"max_turns": 4, "continuous": True}),
}


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # PettingZoo warns that dict observations are not plain arrays: they are by its own
    # convention for action masks.
    warnings.filterwarnings("ignore", message=".*(NumPy array|box or gymnasium).*")


@pytest.mark.parametrize("name", MODULES)
def test_each_module_has_pettingzoos_three_constructors(name: str) -> None:
    module, kwargs = MODULES[name]
    assert isinstance(module.env(**kwargs), module.raw_env)
    parallel_api_test(module.parallel_env(**kwargs), num_cycles=400)
    if kwargs.get("continuous"):  # the seed test samples without the mask
        parallel_seed_test(lambda: module.parallel_env(**kwargs), num_cycles=40)
    assert module.parallel_env(**kwargs).metadata["is_parallelizable"]


@pytest.mark.parametrize("name", MODULES)
def test_render_test_passes_in_every_mode(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    module, kwargs = MODULES[name]
    render_test(lambda render_mode=None: module.env(render_mode=render_mode, **kwargs))
    assert "human" in module.env(**kwargs).metadata["render_modes"]
    assert capsys.readouterr().out.strip()  # "human" drew the table in the terminal


def _mover_actions(env: Any, obs: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """The mover's legal random action; the others send anything (it is ignored)."""
    actions = {}
    for agent in env.agents:
        mask = obs[agent]["action_mask"]
        legal = np.flatnonzero(mask)
        actions[agent] = int(rng.choice(legal)) if len(legal) else 0
    return actions


def test_the_parallel_env_plays_the_aec_game_step_for_step() -> None:
    par = centrix_v0.parallel_env(num_players=2, max_turns=20)
    aec = centrix_v0.env(num_players=2, max_turns=20)
    obs, _ = par.reset(seed=3)
    aec.reset(seed=3)
    rng = np.random.default_rng(0)
    steps = 0
    while par.agents:
        actions = _mover_actions(par, obs, rng)
        mover = aec.agent_selection
        aec.step(actions[mover])
        obs, rewards, terminations, _, _ = par.step(actions)
        steps += 1
        for agent in aec.possible_agents:
            assert np.array_equal(obs[agent]["observation"], aec.observe(agent)["observation"])
    assert steps > 20
    assert all(terminations.values())
    assert sorted(rewards.values()) == [-1.0, 1.0] or set(rewards.values()) == {0.0}
    par.reset(seed=0)
    with pytest.raises(ValueError, match="player_0 is to move"):
        par.step({})  # the mover's action is missing


@pytest.mark.parametrize("name", ["centrix", "colorcity"])
def test_supersuits_vector_env_takes_the_parallel_env(name: str) -> None:
    module, kwargs = MODULES[name]
    vec = supersuit.pettingzoo_env_to_vec_env_v1(module.parallel_env(**kwargs))
    obs, _ = vec.reset(seed=0)
    agents = len(vec.par_env.possible_agents)
    assert obs["observation"].shape[0] == agents
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(300):
        masks = obs["action_mask"]
        actions = np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks])
        obs, rewards, terminations, _, _ = vec.step(actions)
        finished += int(terminations.all())
        assert rewards.shape == (agents,)
    assert finished >= 1  # a game ended and the vector env started the next


@pytest.mark.parametrize("name", ["centrix", "colorcity"])
def test_every_info_has_the_same_keys_at_every_step(name: str) -> None:
    module, kwargs = MODULES[name]
    env = module.env(**kwargs)
    env.reset(seed=2)
    keys = {agent: set(info) for agent, info in env.infos.items()}
    rng = np.random.default_rng(2)
    reasons = set()
    for agent in env.agent_iter():
        obs, _, termination, truncation, info = env.last()
        assert set(info) == keys[agent]
        action = None
        if termination or truncation:
            reasons.add(info["reason"])
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    assert len(reasons) == 1
    assert reasons != {""}  # the ending is there at the end


@pytest.mark.parametrize("name", ["centrix", "colorcity"])
def test_tianshou_trains_a_dqn_on_the_aec_env(name: str) -> None:
    torch = pytest.importorskip("torch")  # the [train] extra, which make test installs
    from tianshou.algorithm import (
        DQN,
        MARLRandomDiscreteMaskedOffPolicyAlgorithm,
        MultiAgentOffPolicyAlgorithm,
    )
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Collector, CollectStats, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.env.pettingzoo_env import PettingZooEnv
    from tianshou.trainer import OffPolicyTrainerParams
    from tianshou.utils.net.common import Net

    torch.set_num_threads(1)
    torch.manual_seed(0)
    module, kwargs = MODULES[name]
    kwargs = {**kwargs, "max_turns": 2} if name == "colorcity" else kwargs
    kwargs = {**kwargs, "num_players": 2} if name == "centrix" else kwargs

    def make() -> PettingZooEnv:
        return PettingZooEnv(module.env(**kwargs))

    env = make()
    space = env.observation_space["observation"]
    learner = DQN(
        policy=DiscreteQLearningPolicy(
            model=Net(state_shape=space.shape, action_shape=env.action_space.n, hidden_sizes=[32]),
            action_space=env.action_space,
            eps_training=0.2,
        ),
        optim=AdamOptimizerFactory(lr=1e-3),
        target_update_freq=50,
    )
    opponent = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
    marl = MultiAgentOffPolicyAlgorithm(algorithms=[learner, opponent], env=env)
    envs = DummyVectorEnv([make, make])
    envs.seed(0)
    collector = Collector[CollectStats](
        marl, envs, VectorReplayBuffer(1000, len(envs)), exploration_noise=True
    )
    collector.reset()
    result = marl.run_training(
        OffPolicyTrainerParams(
            training_collector=collector,
            max_epochs=1,
            epoch_num_steps=300,
            collection_step_num_env_steps=20,
            batch_size=32,
            update_step_num_gradient_steps_per_sample=0.1,
            multi_agent_return_reduction=lambda rews: rews[:, 0],
            verbose=False,
            show_progress=False,
        )
    )
    # The trainer refuses a buffer with NaNs (an info key that comes and goes makes them).
    assert result.timing.total_time > 0
    assert collector.collect_step >= 300
    assert not collector.buffer.hasnull()
    assert np.isfinite(collector.buffer.rew).all()
