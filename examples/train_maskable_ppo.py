"""Train sb3-contrib's MaskablePPO on a gamenight Gymnasium env, seeded, on one torch thread.

The agent takes a seat drawn at random every episode (``seat="random"``) against a bot
(``--opponent``, default level 2), over the masked grid of ``gamenight/ColorCity-v0`` or
the masked decisions of ``gamenight/Centrix-v0`` (docs/envs.md). Prints the learning curve
(the mean episode return every ``--log-every`` steps: +1 a win, −1 a loss), the win rate
over ``--eval`` games before and after training, and saves the policy, which a tournament
then fields as ``--bots sb3:PATH`` (gamenight.bots.outside):

    .venv/bin/python examples/train_maskable_ppo.py --game colorcity --steps 20000 \
        --out maskable-ppo-colorcity.zip
    .venv/bin/gamenight tournament colorcity --bots sb3:maskable-ppo-colorcity.zip,level2 \
        --games 200

Needs the ``train`` extra (torch 2.13.0 CPU, sb3-contrib). Same seed, same machine, same
result: the envs, the opponents and the network are all seeded from ``--seed``.
"""

from __future__ import annotations

import argparse
import time
from collections import deque
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

IDS = {
    "colorcity": "gamenight.envs.gym:gamenight/ColorCity-v0",
    "centrix": "gamenight.envs.gym:gamenight/Centrix-v0",
}


class Curve(BaseCallback):  # type: ignore[misc]
    """Prints the mean return of the last 100 episodes every ``every`` steps."""

    def __init__(self, every: int) -> None:
        super().__init__()
        self.every = every
        self.returns: deque[float] = deque(maxlen=100)
        self.episode = 0.0

    def _on_step(self) -> bool:
        self.episode += float(self.locals["rewards"][0])
        if self.locals["dones"][0]:
            self.returns.append(self.episode)
            self.episode = 0.0
        if self.num_timesteps % self.every == 0 and self.returns:
            mean = float(np.mean(self.returns))
            print(f"step {self.num_timesteps}: mean return {mean:+.2f} ({len(self.returns)} games)")
        return True


def win_rate(model: MaskablePPO, env: gymnasium.Env[Any, Any], games: int, seed: int) -> float:
    wins = 0
    for game in range(games):
        obs, info = env.reset(seed=seed + game)
        done = False
        reward = 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
            obs, reward, terminated, truncated, info = env.step(int(action))  # type: ignore[assignment]
            done = terminated or truncated
        wins += reward > 0
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(IDS), default="colorcity")
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--opponent", default="level2")
    parser.add_argument("--max-turns", type=int, default=None, help="default: the env's")
    parser.add_argument("--eval", type=int, default=40, help="games before and after")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-steps", type=int, default=512, help="PPO's rollout length")
    parser.add_argument("--log-every", type=int, default=2048)
    parser.add_argument("--out", default=None, help="where to save the policy (.zip)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    kwargs: dict[str, Any] = {"seat": "random"}
    kwargs["opponent" if args.game == "colorcity" else "opponents"] = args.opponent
    if args.max_turns is not None:
        kwargs["max_turns"] = args.max_turns
    env = gymnasium.make(IDS[args.game], **kwargs)
    env.reset(seed=args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=min(64, args.n_steps),
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    evaluation = gymnasium.make(IDS[args.game], **kwargs)
    before = win_rate(model, evaluation, args.eval, 10_000)
    print(f"before: win rate {before:.0%} against {args.opponent} over {args.eval} games")
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps, callback=Curve(args.log_every))
    print(f"trained {args.steps} steps in {time.perf_counter() - start:.0f} s (seed {args.seed})")
    after = win_rate(model, evaluation, args.eval, 10_000)
    print(f"after:  win rate {after:.0%} against {args.opponent} over {args.eval} games")
    if args.out:
        model.save(args.out)
        print(f"saved {args.out}")


if __name__ == "__main__":
    main()
