"""Evaluate OpenSpiel's own search bots on gamenight's games.

- Centrix (``python_gamenight_centrix``): OpenSpiel's Python ISMCTSBot, which resamples the
  hidden cards through the game's ``resample_from_infostate``, against gamenight's GreedyBot.
- Color City (``python_gamenight_colorcity``, exact hands): OpenSpiel's MCTSBot against the
  engine's simple aiming bot, whose shots are snapped to the grid (``ShotGrid.nearest``).

Seats alternate; prints OpenSpiel's bot's wins. The full equal-time comparison against
gamenight's ISMCTS is ``gamenight envs compare`` (docs/ai.md).

    .venv/bin/python examples/openspiel_search.py --games 4
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import gamenight.envs.openspiel  # noqa: F401 — registers the games
from gamenight.bots.centrix import GreedyBot
from gamenight.bots.registry import game_bots
from gamenight.envs import centrix_codec


def chance(state: pyspiel.State, rng: np.random.RandomState) -> None:
    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
    state.apply_action(int(rng.choice(outcomes, p=probs)))


def centrix(games: int, simulations: int, max_turns: int, seed: int) -> float:
    game = pyspiel.load_game("python_gamenight_centrix", {"players": 2, "max_turns": max_turns})
    rng = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rng), 2.0, simulations, random_state=rng
    )
    score = 0.0
    for g in range(games):
        theirs = g % 2
        greedy = GreedyBot(seed=seed + g)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                chance(state, rng)
            elif state.current_player() == theirs:
                state.apply_action(bot.step(state))
            else:
                play = greedy.choose(state.engine.view(state.current_player()))
                for code in centrix_codec.play_codes(play):
                    state.apply_action(code)
        score += (state.returns()[theirs] + 1) / 2
        print(f"  Centrix game {g + 1}: ISMCTSBot seat {theirs}, returns {state.returns()}")
    return score


def colorcity(games: int, simulations: int, max_turns: int, seed: int) -> float:
    game = pyspiel.load_game("python_gamenight_colorcity", {"max_turns": max_turns})
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(
        game, 2.0, simulations, mcts.RandomRolloutEvaluator(1, rng), random_state=rng
    )
    score = 0.0
    for g in range(games):
        theirs = g % 2
        simple = game_bots("colorcity").bot("simple", seed + g)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                chance(state, rng)
            elif state.current_player() == theirs:
                state.apply_action(bot.step(state))
            else:
                move = simple.choose(state.engine.view(state.current_player()))
                state.apply_action(game.grid.action_of(move))
        score += (state.returns()[theirs] + 1) / 2
        print(f"  Color City game {g + 1}: MCTSBot seat {theirs}, returns {state.returns()}")
    return score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    won = centrix(args.games, args.simulations, 60, args.seed)
    print(f"Centrix: OpenSpiel ISMCTSBot scored {won:g}/{args.games} against GreedyBot")
    won = colorcity(args.games, args.simulations, 12, args.seed)
    print(f"Color City: OpenSpiel MCTSBot scored {won:g}/{args.games} against the simple bot")


if __name__ == "__main__":
    main()
