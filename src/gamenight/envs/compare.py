"""gamenight's ISMCTS against OpenSpiel's Python ``ISMCTSBot`` on Centrix, at equal wall time.

Every game is played on ``python_gamenight_centrix`` (2 players, its default turn cap): the
chance nodes (deal and refills) are sampled from a seeded generator; gamenight's
``IsmctsBot`` decides each card play from its seat's view with ``Budget(seconds=t)`` and its
play enters the game as its decisions (card, rotation, from, to); OpenSpiel's ``ISMCTSBot``
(UCT, c = 2, one random rollout per leaf, as in OpenSpiel's examples) decides each of its
decisions that has a choice with the same ``t`` seconds (it searches until the deadline
instead of a fixed number of simulations: :class:`TimedISMCTSBot`), but never fewer than two
simulations, the least OpenSpiel's bot can choose from (the first only expands the root).
A random rollout to the end of a Centrix game can take longer than ``t``, so OpenSpiel's bot
may overrun its budget; both bots' actual think times are recorded. Seats alternate.

Run: ``gamenight envs compare --games 100 --seconds 0.25 --workers 2 --out FILE``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from gamenight.bots.base import Budget
from gamenight.bots.centrix import IsmctsBot
from gamenight.envs import centrix_codec as codec
from gamenight.envs import openspiel as _registers  # noqa: F401 — registers the games
from gamenight.tournament.stats import wilson


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python ISMCTSBot, searching until a deadline rather than for a fixed
    number of simulations (the body of ``run_search`` is OpenSpiel's, with the loop bound
    changed). Records the simulations and think time of every decision it searched (a
    decision with one legal action is not searched)."""

    def __init__(self, game: Any, seconds: float, seed: int, uct_c: float = 2.0) -> None:
        rng = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        super().__init__(game, evaluator, uct_c, max_simulations=1, random_state=rng)
        self.seconds = seconds
        self.simulations: list[int] = []  # per searched decision
        self.think_seconds: list[float] = []  # per searched decision, the whole step() call

    def step(self, state: Any) -> Any:
        searched = len(self.simulations)
        start = time.perf_counter()
        action = super().step(state)
        if len(self.simulations) > searched:  # a real choice, not a forced one
            self.think_seconds.append(time.perf_counter() - start)
        return action

    def run_search(self, state: Any) -> Any:
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        root_key = self.get_state_key(state)
        deadline = time.perf_counter() + self.seconds
        count = 0
        # Two simulations at least: the first only expands the root (OpenSpiel asserts a visit).
        while count < 2 or time.perf_counter() < deadline:
            sampled = self.sample_root_state(state)
            assert root_key == self.get_state_key(sampled)
            self.run_simulation(sampled)
            count += 1
        self.simulations.append(count)
        return self.get_final_policy(state, self._root_node)


@dataclass(frozen=True)
class GameResult:
    index: int
    gamenight_seat: int
    returns: tuple[float, ...]
    reason: str
    plays: int
    seconds: float
    openspiel_simulations: float  # mean per searched decision
    gamenight_iterations: float  # mean per play
    openspiel_seconds: float = 0.0  # mean think time per searched decision
    gamenight_seconds: float = 0.0  # mean think time per play


def _mean(values: Sequence[float]) -> float:
    """The mean of ``values``, 0.0 for none."""
    return float(np.mean(values)) if values else 0.0


def play_game(index: int, seconds: float, seed: int = 2026, max_turns: int = 200) -> GameResult:
    game = pyspiel.load_game("python_gamenight_centrix", {"players": 2, "max_turns": max_turns})
    me = index % 2  # gamenight's seat: swapped every game
    chance = np.random.RandomState(seed * 100_003 + index)
    ours = IsmctsBot(seed=seed * 7 + index, budget=Budget(seconds=seconds))
    theirs = TimedISMCTSBot(game, seconds, seed * 13 + index)
    state = game.new_initial_state()
    plays = 0
    iterations: list[int] = []
    ours_time: list[float] = []
    start = time.perf_counter()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(chance.choice(actions, p=probs)))
        elif state.current_player() == me:
            t0 = time.perf_counter()
            play = ours.choose(state.engine.view(me))
            ours_time.append(time.perf_counter() - t0)
            iterations.append(ours.last_iterations)
            for code in codec.play_codes(play):
                state.apply_action(code)
            plays += 1
        else:
            state.apply_action(theirs.step(state))
            plays += not state.prefix  # the decision finished a play
    outcome = state.engine.outcome
    return GameResult(
        index=index,
        gamenight_seat=me,
        returns=tuple(state.returns()),
        reason=outcome.reason if outcome else "",
        plays=plays,
        seconds=time.perf_counter() - start,
        openspiel_simulations=_mean(theirs.simulations),
        gamenight_iterations=_mean(iterations),
        openspiel_seconds=_mean(theirs.think_seconds),
        gamenight_seconds=_mean(ours_time),
    )


def summarise(results: list[GameResult]) -> dict[str, Any]:
    wins = sum(
        1.0 if r.returns[r.gamenight_seat] > 0 else 0.5 if r.returns[r.gamenight_seat] == 0 else 0
        for r in results
    )
    low, high = wilson(wins, len(results))
    return {
        "games": len(results),
        "gamenight_wins": wins,
        "win_rate": wins / len(results) if results else 0.0,
        "interval95": [low, high],
        "reasons": {
            r: sum(1 for x in results if x.reason == r) for r in {x.reason for x in results}
        },
        "mean_plays": _mean([r.plays for r in results]),
        "mean_game_seconds": _mean([r.seconds for r in results]),
        "openspiel_simulations_per_decision": _mean([r.openspiel_simulations for r in results]),
        "gamenight_iterations_per_play": _mean([r.gamenight_iterations for r in results]),
        "openspiel_seconds_per_decision": _mean([r.openspiel_seconds for r in results]),
        "gamenight_seconds_per_play": _mean([r.gamenight_seconds for r in results]),
    }


def run(
    games: int,
    seconds: float,
    workers: int = 1,
    seed: int = 2026,
    out: str | None = None,
    max_turns: int = 200,
) -> dict[str, Any]:
    results: list[GameResult] = []

    def save() -> dict[str, Any]:
        summary = summarise(results)
        if out:
            with open(out, "w") as fh:
                json.dump(
                    {
                        "seconds_per_decision": seconds,
                        "seed": seed,
                        "max_turns": max_turns,
                        "summary": summary,
                        "games": [asdict(r) for r in results],
                    },
                    fh,
                    indent=1,
                )
        return summary

    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play_game, i, seconds, seed, max_turns) for i in range(games)]
        for future in futures:
            results.append(future.result())
            save()  # partial results survive an interrupted run
    return save()
