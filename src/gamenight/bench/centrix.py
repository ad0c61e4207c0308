"""``gamenight centrix bench``: legal-play generation, random play and the bots' thinking,
on one core."""

from __future__ import annotations

import random
import time
from typing import Any

from gamenight.centrix.perft import perft_stats
from gamenight.centrix.state import CentrixState


def sample_positions(count: int, seed: int = 2026) -> list[CentrixState]:
    """Positions from random games of 2–6 players, taken at random points of the game."""
    rng = random.Random(seed)
    positions: list[CentrixState] = []
    while len(positions) < count:
        state = CentrixState.new(rng.randint(2, 6), seed=rng.getrandbits(32))
        stop = rng.randint(0, 600)
        while not state.is_over and len(state.plays) < stop:
            state.push_unchecked(rng.choice(state.legal_plays()))
        if not state.is_over:
            positions.append(CentrixState.from_position(state.position()))
    return positions


def generation(positions: int = 60, depth: int = 2) -> dict[str, float]:
    """Plays generated per second, perft-style (push, generate, pop) from sampled positions."""
    states = sample_positions(positions)
    generated = 0
    start = time.perf_counter()
    for state in states:
        generated += perft_stats(state, depth)[1]
    seconds = time.perf_counter() - start
    return {"plays_per_s": generated / seconds, "plays": generated, "seconds": seconds}


def random_play(players: int, games: int, seed: int = 7) -> dict[str, float]:
    """Uniformly random games: every step chooses among the full ``legal_plays()``."""
    rng = random.Random(seed)
    plays = turns = options = 0
    start = time.perf_counter()
    for _ in range(games):
        state = CentrixState.new(players, seed=rng.getrandbits(32))
        while not state.is_over:
            legal = state.legal_plays()
            options += len(legal)
            state.push_unchecked(rng.choice(legal))
            plays += 1
        turns += state.turn
    seconds = time.perf_counter() - start
    return {
        "plays_per_s": plays / seconds,
        "games_per_s": games / seconds,
        "plays_per_game": plays / games,
        "turns_per_game": turns / games,
        "branching": options / plays,
    }


def midgame_positions(count: int, players: int = 4, seed: int = 11) -> list[CentrixState]:
    """Positions a few turns into games of Greedy bots: where the bots do their thinking."""
    from gamenight.bots.centrix import greedy_play

    rng = random.Random(seed)
    positions: list[CentrixState] = []
    while len(positions) < count:
        state = CentrixState.new(players, seed=rng.getrandbits(32))
        for _ in range(rng.randint(6, 40)):
            if (seat := state.actor) is None:
                break
            state.push_unchecked(greedy_play(state, seat, rng))
        if not state.is_over and len(state.legal_plays()) > 1:
            positions.append(state)
    return positions


def bots(positions: int = 12, seconds: float = 0.25) -> dict[str, float]:
    """The bots' inner costs and ISMCTS iterations per decision under a time budget."""
    from gamenight.bots.base import Budget
    from gamenight.bots.centrix import GreedyBot, IsmctsBot, TurnPlannerBot
    from gamenight.bots.centrix_eval import scores

    states = midgame_positions(positions)
    views = [s.view(s.actor) for s in states]
    rng = random.Random(5)

    def per_call(work: Any, repeat: int) -> float:
        start = time.process_time()
        for _ in range(repeat):
            for item in work:
                item()
        return (time.process_time() - start) / (repeat * len(work))

    figures = {
        "sample_us": per_call([lambda v=v: v.sample(rng) for v in views], 20) * 1e6,
        "scores_us": per_call([lambda s=s: scores(s) for s in states], 50) * 1e6,
    }
    for name, bot in (
        ("greedy", GreedyBot(1)),
        ("planner2", TurnPlannerBot(1, beam=2)),
        ("planner", TurnPlannerBot(1)),
    ):
        choices = [lambda v=v, b=bot: b.choose(v) for v in views]
        figures[f"{name}_ms"] = per_call(choices, 1) * 1e3
    ismcts = IsmctsBot(1, Budget(seconds=seconds))
    iterations = 0
    for view in views:
        ismcts.choose(view)
        iterations += ismcts.last_iterations
    figures["ismcts_iterations"] = iterations / len(views)
    figures["ismcts_seconds"] = seconds
    return figures


def run(
    games: int = 20, positions: int = 60, bot_positions: int = 12, think: float = 0.25
) -> dict[str, Any]:
    return {
        "generation": generation(positions),
        "random_play": {str(n): random_play(n, games) for n in (2, 4, 6)},
        "bots": bots(bot_positions, think),
    }
