"""Train a small policy on Color City with Gymnasium: REINFORCE, linear softmax, masks.

The agent plays Green against gamenight's simple bot (``gamenight/ColorCity-v0``, 1218
grid actions: docs/envs.md). The policy is a softmax over the legal actions of a linear
function of the observation; the update is REINFORCE with a running-mean baseline. The
reward is the game's (+1 win, −1 loss, 0 draw), plus, to make a short run informative, a
small shaped term: +0.02 × (own squares − opponent's squares) at the end (``--shaping 0``
turns it off). Prints the win rate and mean square lead before and after training.

    .venv/bin/python examples/gymnasium_reinforce.py --episodes 300
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np

import gamenight.envs.gym  # noqa: F401 — registers gamenight/ColorCity-v0
from gamenight.envs.colorcity_codec import observation_size


def softmax_masked(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask > 0, logits, -np.inf)
    z = z - z.max()
    p = np.exp(z)
    return p / p.sum()


def lead(env: gymnasium.Env) -> int:  # type: ignore[type-arg]
    cells = env.unwrapped.state.cells
    mine = int(env.unwrapped.gang)
    return sum(1 for c in cells if c == mine) - sum(1 for c in cells if c == 1 - mine)


def run_episode(env, weights, rng, seed, learn=True, lr=0.05, baseline=0.0, shaping=0.02):  # type: ignore[no-untyped-def]
    obs, info = env.reset(seed=seed)
    trajectory = []
    total = 0.0
    done = False
    while not done:
        x = np.append(obs, 1.0)  # bias feature
        probs = softmax_masked(x @ weights, info["action_mask"])
        action = int(rng.choice(len(probs), p=probs))
        trajectory.append((x, probs, action))
        obs, reward, done, _, info = env.step(action)
        total += float(reward)
    score = total + shaping * lead(env)
    if learn:
        advantage = score - baseline
        for x, probs, action in trajectory:
            grad = -probs
            grad[action] += 1.0
            weights += lr * advantage * np.outer(x, grad)
    return total, lead(env), score


def evaluate(env, weights, episodes, seed):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    results = [run_episode(env, weights, rng, seed + i, learn=False) for i in range(episodes)]
    wins = sum(1 for r, _, _ in results if r > 0)
    return wins / episodes, float(np.mean([lead for _, lead, _ in results]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--eval", type=int, default=40)
    parser.add_argument("--max-turns", type=int, default=20)
    parser.add_argument("--shaping", type=float, default=0.02)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    env = gymnasium.make("gamenight/ColorCity-v0", opponent="simple", max_turns=args.max_turns)
    n_actions = env.action_space.n  # type: ignore[attr-defined]
    weights = np.zeros((observation_size() + 1, n_actions))
    before = evaluate(env, weights, args.eval, 10_000)
    print(f"before: win rate {before[0]:.0%}, mean square lead {before[1]:+.1f}")
    rng = np.random.default_rng(args.seed)
    baseline = 0.0
    start = time.perf_counter()
    for episode in range(args.episodes):
        _, _, score = run_episode(
            env,
            weights,
            rng,
            args.seed + episode,
            lr=args.lr,
            baseline=baseline,
            shaping=args.shaping,
        )
        baseline += 0.05 * (score - baseline)
        if (episode + 1) % 50 == 0:
            print(f"episode {episode + 1}: running score {baseline:+.2f}")
    print(f"trained {args.episodes} episodes in {time.perf_counter() - start:.0f} s")
    after = evaluate(env, weights, args.eval, 10_000)
    print(f"after:  win rate {after[0]:.0%}, mean square lead {after[1]:+.1f}")


if __name__ == "__main__":
    main()
