"""Self-play PPO with RLlib on Centrix or Color City: the games as an RLlib MultiAgentEnv,
one shared policy for every seat, illegal actions masked, on a local Ray instance.

Ray starts here with no address (a local instance, ``--cpus`` CPUs), with its usage
statistics off (``RAY_USAGE_STATS_ENABLED=0``, set before Ray is imported) and no
dashboard: nothing is sent anywhere. Each iteration prints RLlib's sampled steps and the
seats' mean returns; at the end, the policy's most probable legal action plays ``--eval``
games against a bot (``--opponent``, default level 1) in the Gymnasium env, seat random:

    .venv/bin/python examples/rllib_multiagent.py --game centrix --iterations 20

The environment is the PettingZoo AEC env (gamenight.envs.centrix_v0 / colorcity_v0) turn
by turn: only the agent to move observes, and every agent gets its reward by place when the
game ends. Each observation is RLlib's action-masking layout, ``{"action_mask",
"observations"}``, for its ActionMaskingTorchRLModule. Needs ``ray[rllib]`` (the ``rllib``
extra) and torch 2.13.0 CPU.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

os.environ["RAY_USAGE_STATS_ENABLED"] = "0"  # before Ray is imported: no usage statistics

import gymnasium
import numpy as np
import ray
import torch
from gymnasium import spaces
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
    ActionMaskingTorchRLModule,
)

import gamenight.envs.gym  # noqa: F401 — registers the Gymnasium ids
from gamenight.envs import centrix_v0, colorcity_v0


class GameMultiAgentEnv(MultiAgentEnv):  # type: ignore[misc]
    """A gamenight game as an RLlib MultiAgentEnv (``config``: game, max_turns)."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        config = config or {}
        game, max_turns = config.get("game", "centrix"), config.get("max_turns", 60)
        if game == "centrix":
            self.aec = centrix_v0.raw_env(num_players=2, max_turns=max_turns)
        elif game == "colorcity":
            self.aec = colorcity_v0.raw_env(max_turns=max_turns)
        else:
            raise ValueError(f"game is centrix or colorcity, not {game!r}")
        self.agents = self.possible_agents = list(self.aec.possible_agents)
        self.observation_spaces = {}
        self.action_spaces = {}
        for agent in self.agents:
            inner = self.aec.observation_space(agent)
            self.observation_spaces[agent] = spaces.Dict(
                {
                    "action_mask": spaces.Box(0.0, 1.0, inner["action_mask"].shape, np.float32),
                    "observations": inner["observation"],
                }
            )
            self.action_spaces[agent] = self.aec.action_space(agent)

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        seen = self.aec.observe(agent)
        return {
            "action_mask": seen["action_mask"].astype(np.float32),
            "observations": seen["observation"],
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        self.aec.reset(seed=seed)
        mover = self.aec.agent_selection
        return {mover: self._observe(mover)}, {}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        mover = self.aec.agent_selection
        self.aec.step(int(actions[mover]))
        if all(self.aec.terminations.values()) or all(self.aec.truncations.values()):
            observations = {a: self._observe(a) for a in self.agents}
            rewards = {a: float(self.aec.rewards[a]) for a in self.agents}
            return observations, rewards, {"__all__": True}, {"__all__": False}, {}
        # RLlib wants a reward for every agent that acted; the game's come only at its end.
        rewards = {mover: 0.0}
        mover = self.aec.agent_selection
        return {mover: self._observe(mover)}, rewards, {"__all__": False}, {"__all__": False}, {}


def win_rate(module: Any, args: argparse.Namespace) -> float:
    """The policy's most probable legal action against ``args.opponent``, seat random."""
    if args.game == "centrix":
        env = gymnasium.make(
            "gamenight/Centrix-v0", opponents=args.opponent, seat="random", max_turns=args.max_turns
        )
    else:
        env = gymnasium.make(
            "gamenight/ColorCity-v0",
            opponent=args.opponent,
            seat="random",
            max_turns=args.max_turns,
        )
    wins = 0.0
    for episode in range(args.eval):
        observation, info = env.reset(seed=args.seed * 1000 + episode)
        done, reward = False, 0.0
        while not done:
            batch = {
                "obs": {
                    "action_mask": torch.as_tensor(info["action_mask"], dtype=torch.float32)[None],
                    "observations": torch.as_tensor(observation)[None],
                }
            }
            with torch.no_grad():
                logits = module.forward_inference(batch)["action_dist_inputs"]
            observation, reward, terminated, truncated, info = env.step(int(logits.argmax()))
            done = terminated or truncated
        wins += (float(reward) + 1) / 2
    return wins / max(1, args.eval)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("centrix", "colorcity"), default="centrix")
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--batch", type=int, default=2000, help="sampled steps an iteration")
    parser.add_argument("--max-turns", type=int, default=60)
    parser.add_argument("--opponent", default="level1")
    parser.add_argument("--eval", type=int, default=20)
    parser.add_argument("--cpus", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(1)
    ray.init(
        num_cpus=args.cpus, include_dashboard=False, log_to_driver=False, configure_logging=False
    )
    try:
        config = (
            PPOConfig()
            .environment(
                GameMultiAgentEnv,
                env_config={"game": args.game, "max_turns": args.max_turns},
                # RLlib's pre-check steps actions sampled from the whole space, ignoring the
                # mask; the env refuses an illegal one (ValueError), as docs/envs.md says.
                disable_env_checking=True,
            )
            .env_runners(num_env_runners=0)
            .multi_agent(
                policies={"shared"},
                policy_mapping_fn=lambda agent_id, episode, **kwargs: "shared",
            )
            .rl_module(
                rl_module_spec=MultiRLModuleSpec(
                    rl_module_specs={
                        "shared": RLModuleSpec(
                            module_class=ActionMaskingTorchRLModule,
                            model_config={"head_fcnet_hiddens": [128, 128]},
                        )
                    }
                )
            )
            .training(
                train_batch_size_per_learner=args.batch,
                minibatch_size=max(32, args.batch // 4),
                num_epochs=4,
                lr=3e-4,
            )
            .debugging(seed=args.seed)
        )
        algo = config.build_algo()
        print(f"before: win rate {win_rate(algo.get_module('shared'), args):.1%}", flush=True)
        for iteration in range(1, args.iterations + 1):
            result = algo.train()
            runners = result.get("env_runners", {})
            returns = runners.get("agent_episode_returns_mean", {})
            shown = ", ".join(f"{a} {r:+.2f}" for a, r in sorted(returns.items()))
            print(
                f"iteration {iteration}: {int(runners.get('num_env_steps_sampled_lifetime', 0)):,}"
                f" steps sampled; mean returns {shown or 'none yet'}",
                flush=True,
            )
        rate = win_rate(algo.get_module("shared"), args)
        print(f"after: win rate {rate:.1%} against {args.opponent}", flush=True)
        algo.stop()
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
