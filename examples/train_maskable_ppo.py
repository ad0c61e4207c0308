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

For Centrix, ``--shaping K`` adds a potential-based reward (Ng, Harada and Russell 1999):
K times the change of the agent's lead in the climb by which the game ranks unfinished
seats (``CentrixState.standing``: its level sum minus the best opponent's, over the most a
seat can hold), the potential 0 at the end, so that every episode's shaped rewards still
sum to the game's result and the optimal policy is unchanged; the curve and the win rates
count the game's result only. ``--rules`` takes Centrix rules as JSON (a smaller variant,
such as ``{"pawns": 1}``, first).

Needs the ``train`` extra (torch 2.13.0 CPU, sb3-contrib). Same seed, same machine, same
result: the envs, the opponents and the network are all seeded from ``--seed``.
"""

from __future__ import annotations

import argparse
import json
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
        info = self.locals["infos"][0]
        self.episode += float(info.get("result", self.locals["rewards"][0]))
        if self.locals["dones"][0]:
            self.returns.append(self.episode)
            self.episode = 0.0
        if self.num_timesteps % self.every == 0 and self.returns:
            mean = float(np.mean(self.returns))
            print(f"step {self.num_timesteps}: mean return {mean:+.2f} ({len(self.returns)} games)")
        return True


class StandingShaping(gymnasium.Wrapper[Any, Any, Any, Any]):
    """Adds ``coef`` × the change of the agent's lead in the climb (see the docstring)."""

    def __init__(self, env: gymnasium.Env[Any, Any], coef: float) -> None:
        super().__init__(env)
        self.coef = coef
        self.before = 0.0

    def lead(self) -> float:
        inner: Any = self.env.unwrapped
        state = inner.state
        if state.is_over:
            return 0.0
        sums = [level for _, level in state.standing()]
        mine = sums[inner.seat]
        best = max(s for seat, s in enumerate(sums) if seat != inner.seat)
        return float(mine - best) / (7 * state.rules.pawns)

    def reset(self, **kwargs: Any) -> Any:
        obs, info = self.env.reset(**kwargs)
        self.before = self.lead()
        return obs, info

    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = self.env.step(action)
        after = self.lead()
        shaped = float(reward) + self.coef * (after - self.before)
        self.before = after
        info["result"] = float(reward)
        return obs, shaped, terminated, truncated, info


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
    parser.add_argument("--shaping", type=float, default=0.0, help="Centrix: the climb's weight")
    parser.add_argument("--rules", default=None, help="Centrix: rules as JSON")
    parser.add_argument("--ent-coef", type=float, default=0.0, help="PPO's entropy bonus")
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    kwargs: dict[str, Any] = {"seat": "random"}
    kwargs["opponent" if args.game == "colorcity" else "opponents"] = args.opponent
    if args.max_turns is not None:
        kwargs["max_turns"] = args.max_turns
    if args.rules is not None:
        kwargs["rules"] = json.loads(args.rules)
    env = gymnasium.make(IDS[args.game], **kwargs)
    if args.shaping:
        if args.game != "centrix":
            parser.error("--shaping is for Centrix")
        env = StandingShaping(env, args.shaping)
    env.reset(seed=args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=min(64, args.n_steps),
        ent_coef=args.ent_coef,
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
