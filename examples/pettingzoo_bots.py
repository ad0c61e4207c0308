"""Evaluate agents through PettingZoo's AEC API: masked random agents against gamenight's
bots, in both games.

Centrix: one seat is gamenight's GreedyBot (its card play enters the environment as its
decisions: card, rotation, from, to), the others pick uniformly among the masked legal
actions. Color City: Green is the engine's simple aiming bot, its shots snapped to the
environment's shot grid (``ShotGrid.nearest``), Purple picks masked random actions. Prints
each agent's mean reward.

    .venv/bin/python examples/pettingzoo_bots.py --games 10
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import numpy as np

from gamenight.bots.centrix import GreedyBot
from gamenight.bots.registry import game_bots
from gamenight.envs import centrix_codec, centrix_v0, colorcity_v0


def centrix_games(games: int, players: int, seed: int) -> dict[str, float]:
    env = centrix_v0.env(num_players=players, max_turns=200)
    totals: dict[str, float] = defaultdict(float)
    seats: dict[str, int] = defaultdict(int)
    rng = np.random.default_rng(seed)
    for game in range(games):
        env.reset(seed=seed + game)
        bot_agent = env.possible_agents[game % players]  # the bot changes seat every game
        bot = GreedyBot(seed=seed + game)
        seats["greedy"] += 1
        seats["random"] += players - 1
        queued: list[int] = []
        for agent in env.agent_iter():
            obs, reward, termination, truncation, _ = env.last()
            totals["greedy" if agent == bot_agent else "random"] += reward
            if termination or truncation:
                env.step(None)
            elif agent == bot_agent:
                if not queued:
                    seat = env.possible_agents.index(agent)
                    play = bot.choose(env.unwrapped.state.view(seat))
                    queued = list(centrix_codec.play_codes(play))
                env.step(queued.pop(0))
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return {label: total / seats[label] for label, total in totals.items()}


def colorcity_games(games: int, seed: int) -> dict[str, float]:
    env = colorcity_v0.env(max_turns=40)
    grid = env.unwrapped.grid
    totals: dict[str, float] = defaultdict(float)
    rng = np.random.default_rng(seed)
    for game in range(games):
        env.reset(seed=seed + game)
        bot = game_bots("colorcity").bot("simple", seed + game)
        for agent in env.agent_iter():
            obs, reward, termination, truncation, _ = env.last()
            label = "simple bot (green)" if agent == "player_0" else "random (purple)"
            totals[label] += reward / games
            if termination or truncation:
                env.step(None)
            elif agent == "player_0":
                move = bot.choose(env.unwrapped.state.view(0))
                env.step(grid.action_of(move))
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return dict(totals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"Centrix, {args.players} players, {args.games} games: mean reward per seat")
    for label, value in sorted(centrix_games(args.games, args.players, args.seed).items()):
        print(f"  {label:<20} {value:+.2f}")
    print(f"Color City, {args.games} games: mean reward")
    for label, value in sorted(colorcity_games(args.games, args.seed).items()):
        print(f"  {label:<20} {value:+.2f}")


if __name__ == "__main__":
    main()
