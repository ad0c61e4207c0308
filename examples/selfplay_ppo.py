"""Self-play PPO on Centrix or Color City in one file, in CleanRL's style (ppo.py's loop,
masked for legal actions), seeded, on one torch thread.

One policy plays every seat of the PettingZoo AEC env (``centrix_v0`` or ``colorcity_v0``):
each seat's decisions are its own trajectory, rewarded at the game's end by place (+1 a win,
−1 a loss with two players), with GAE over that seat's decisions. Illegal actions are masked
out of the logits (the mask is in the observation). Prints the learning curve and the win
rate against a bot (``--opponent``, default level 1) over ``--eval`` games of the Gymnasium
env, the seat random, before and after training:

    .venv/bin/python examples/selfplay_ppo.py --game centrix --steps 50000
    .venv/bin/python examples/selfplay_ppo.py --game colorcity --steps 50000

Needs the ``rl`` and ``train`` extras (gymnasium, pettingzoo, torch 2.13.0 CPU). Same seed,
same machine, same result.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
import torch
from torch import nn
from torch.distributions.categorical import Categorical

import gamenight.envs.gym  # noqa: F401 — registers the Gymnasium ids
from gamenight.envs import centrix_v0, colorcity_v0


@dataclass
class Args:
    game: str = "centrix"
    steps: int = 20_000  # decisions of every seat, in all
    rollout: int = 1024  # decisions per update
    epochs: int = 4
    minibatches: int = 4
    lr: float = 2.5e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip: float = 0.2
    entropy: float = 0.01
    value_coef: float = 0.5
    max_grad_norm: float = 0.5
    hidden: int = 128
    max_turns: int = 60
    opponent: str = "level1"
    eval: int = 40
    seed: int = 1


def parse() -> Args:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name, default in vars(Args()).items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=type(default), default=default)
    return Args(**vars(parser.parse_args()))


def make_env(args: Args) -> Any:
    if args.game == "centrix":
        return centrix_v0.env(num_players=2, max_turns=args.max_turns)
    if args.game == "colorcity":
        return colorcity_v0.env(max_turns=args.max_turns)
    raise SystemExit(f"--game is centrix or colorcity, not {args.game!r}")


class Agent(nn.Module):
    def __init__(self, observations: int, actions: int, hidden: int) -> None:
        super().__init__()

        def layer(a: int, b: int, std: float = np.sqrt(2)) -> nn.Linear:
            linear = nn.Linear(a, b)
            nn.init.orthogonal_(linear.weight, std)
            nn.init.constant_(linear.bias, 0.0)
            return linear

        self.body = nn.Sequential(layer(observations, hidden), nn.Tanh(), layer(hidden, hidden))
        self.actor = nn.Sequential(nn.Tanh(), layer(hidden, actions, 0.01))
        self.critic = nn.Sequential(nn.Tanh(), layer(hidden, 1, 1.0))

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(self.body(x)).squeeze(-1)

    def act(
        self, x: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        hidden = self.body(x)
        logits = self.actor(hidden).masked_fill(~mask, -1e9)  # illegal actions: never drawn
        dist = Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(hidden).squeeze(-1)


def rollout(env: Any, agent: Agent, args: Args, seeds: random.Random) -> dict[str, Any]:
    """At least ``args.rollout`` decisions of whole self-play games, with each decision's
    advantage and return from its own seat's trajectory."""
    obs_b, mask_b, act_b, logp_b, adv_b, ret_b = [], [], [], [], [], []
    results: list[float] = []
    while len(obs_b) < args.rollout:
        env.reset(seed=seeds.getrandbits(32))
        paths: dict[str, list[list[Any]]] = {a: [] for a in env.possible_agents}
        final: dict[str, float] = {}
        for name in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                final[name] = float(reward)
                env.step(None)
                continue
            x = torch.as_tensor(observation["observation"], dtype=torch.float32)
            m = torch.as_tensor(observation["action_mask"], dtype=torch.bool)
            with torch.no_grad():
                action, logp, _, value = agent.act(x[None], m[None])
            paths[name].append([x, m, action[0], logp[0], float(value[0])])
            env.step(int(action[0]))
        results.append(final[env.possible_agents[0]])
        for name, path in paths.items():
            # The reward comes at the seat's last decision; GAE backwards over its decisions.
            gae, next_value = 0.0, 0.0
            for t in reversed(range(len(path))):
                reward = final.get(name, 0.0) if t == len(path) - 1 else 0.0
                delta = reward + args.gamma * next_value - path[t][4]
                gae = delta + args.gamma * args.gae_lambda * gae
                next_value = path[t][4]
                path[t].append(gae)
            for x, m, action, logp, value, advantage in path:
                obs_b.append(x)
                mask_b.append(m)
                act_b.append(action)
                logp_b.append(logp)
                adv_b.append(advantage)
                ret_b.append(advantage + value)
    return {
        "obs": torch.stack(obs_b),
        "mask": torch.stack(mask_b),
        "actions": torch.stack(act_b),
        "logp": torch.stack(logp_b),
        "advantages": torch.tensor(adv_b, dtype=torch.float32),
        "returns": torch.tensor(ret_b, dtype=torch.float32),
        "first_seat_mean": float(np.mean(results)),
    }


def update(
    agent: Agent, optimizer: torch.optim.Optimizer, batch: dict[str, Any], args: Args
) -> float:
    n = len(batch["actions"])
    size = max(1, n // args.minibatches)
    order = np.arange(n)
    loss = torch.tensor(0.0)
    for _ in range(args.epochs):
        np.random.shuffle(order)
        for start in range(0, n, size):
            idx = torch.as_tensor(order[start : start + size])
            _, logp, entropy, value = agent.act(
                batch["obs"][idx], batch["mask"][idx], batch["actions"][idx]
            )
            ratio = (logp - batch["logp"][idx]).exp()
            adv = batch["advantages"][idx]
            adv = (adv - adv.mean()) / (adv.std() + 1e-8) if len(idx) > 1 else adv
            policy = torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip, 1 + args.clip))
            value_loss = 0.5 * (value - batch["returns"][idx]).pow(2).mean()
            loss = policy.mean() - args.entropy * entropy.mean() + args.value_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
            optimizer.step()
    return loss.item()


def win_rate(agent: Agent, args: Args) -> float:
    """The policy (its most probable legal action) against ``args.opponent``, seat random."""
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
            x = torch.as_tensor(observation, dtype=torch.float32)[None]
            m = torch.as_tensor(info["action_mask"], dtype=torch.bool)[None]
            with torch.no_grad():
                logits = agent.actor(agent.body(x)).masked_fill(~m, -1e9)
            observation, reward, terminated, truncated, info = env.step(int(logits.argmax()))
            done = terminated or truncated
        wins += (float(reward) + 1) / 2  # +1 a win, 0 a draw, −1 a loss
    return wins / max(1, args.eval)


def main() -> None:
    args = parse()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    env = make_env(args)
    first = env.possible_agents[0]
    size = env.observation_space(first)["observation"].shape[0]
    agent = Agent(size, env.action_space(first).n, args.hidden)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    seeds = random.Random(args.seed)
    print(f"before: win rate {win_rate(agent, args):.1%} against {args.opponent}", flush=True)
    start, done = time.time(), 0
    while done < args.steps:
        batch = rollout(env, agent, args, seeds)
        loss = update(agent, optimizer, batch, args)
        done += len(batch["actions"])
        print(
            f"step {done:,}: first seat's mean return {batch['first_seat_mean']:+.2f},"
            f" loss {loss:.3f}, {done / (time.time() - start):,.0f} decisions/s",
            flush=True,
        )
    print(f"after: win rate {win_rate(agent, args):.1%} against {args.opponent}", flush=True)


if __name__ == "__main__":
    main()
