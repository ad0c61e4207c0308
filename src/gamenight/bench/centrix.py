"""``gamenight centrix bench``: legal-play generation, random play and the bots' thinking,
on one core, on the compiled core and on the pure-Python engine in the same run, beside the
peers (python-chess perft, OpenSpiel backgammon) measured in that run too.

Every figure is CPU time of this process (``time.process_time``), so other work on the
machine slows it less; only the ratios of one run are comparable across runs.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from gamenight.centrix import native
from gamenight.centrix.perft import perft_stats
from gamenight.centrix.state import CentrixState

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N4p/PPPBBPPP/R3K2R w KQkq - 0 1"


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


def generation(positions: int = 60, depth: int = 2, least: float = 0.5) -> dict[str, float]:
    """The leaves of a perft to ``depth`` (push, generate, pop through the public API) from
    sampled positions, per CPU second: counted as the peers' perft below is. The positions
    are gone through again until ``least`` seconds have passed (a fast path takes
    milliseconds for one pass, too short to time)."""
    states = sample_positions(positions)
    leaves = generated = 0
    start = time.process_time()
    while True:
        for state in states:
            count, plays = perft_stats(state, depth)
            leaves += count
            generated += plays
        if time.process_time() - start >= least:
            break
    seconds = time.process_time() - start
    return {
        "plays_per_s": leaves / seconds,
        "leaves": leaves,
        "generated_per_s": generated / seconds,
        "seconds": seconds,
    }


def random_play(players: int, games: int, seed: int = 7) -> dict[str, float]:
    """Uniformly random games, every play ``rng.choice`` of the full ``legal_plays()``, two
    ways: through the engine's random-play fast path (``CentrixState.play_randomly``: the
    compiled core plays whole stretches in one call), and stepped, one ``push_unchecked``
    from Python per play (``stepped_plays_per_s``), the same games from the same draws."""
    rng = random.Random(seed)
    plays = 0
    start = time.process_time()
    for _ in range(games):
        state = CentrixState.new(players, seed=rng.getrandbits(32))
        plays += state.play_randomly(rng)
    seconds = time.process_time() - start
    rng = random.Random(seed)
    stepped = turns = options = 0
    start = time.process_time()
    for _ in range(games):
        state = CentrixState.new(players, seed=rng.getrandbits(32))
        while not state.is_over:
            legal = state.legal_plays()
            options += len(legal)
            state.push_unchecked(rng.choice(legal))
            stepped += 1
        turns += state.turn
    stepped_seconds = time.process_time() - start
    return {
        "plays_per_s": plays / seconds,
        "games_per_s": games / seconds,
        "stepped_plays_per_s": stepped / stepped_seconds,
        "plays_per_game": plays / games,
        "turns_per_game": turns / games,
        "branching": options / stepped,
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


def greedy_game(players: int, games: int, seed: int = 3) -> dict[str, float]:
    """Whole games of Greedy bots, each deciding from its own seat's view as in play."""
    from gamenight.bots.centrix import GreedyBot

    rng = random.Random(seed)
    plays = 0
    start = time.process_time()
    for _ in range(games):
        state = CentrixState.new(players, seed=rng.getrandbits(32))
        bots = [GreedyBot(rng.getrandbits(32)) for _ in range(players)]
        while (seat := state.actor) is not None:
            state.push_unchecked(bots[seat].choose(state.view(seat)))
            plays += 1
    seconds = time.process_time() - start
    return {"games_per_s": games / seconds, "plays_per_game": plays / games}


def ismcts(positions: int = 12, seconds: float = 0.25) -> dict[str, float]:
    """ISMCTS iterations per second of thinking on 4-player midgame positions."""
    from gamenight.bots.base import Budget
    from gamenight.bots.centrix import IsmctsBot

    views = [s.view(s.actor) for s in midgame_positions(positions)]
    bot = IsmctsBot(1, Budget(seconds=seconds))
    iterations = 0
    start = time.process_time()
    for view in views:
        bot.choose(view)
        iterations += bot.last_iterations
    used = time.process_time() - start
    return {
        "iterations_per_s": iterations / used,
        "iterations_per_decision": iterations / len(views),
    }


def python_chess(scale: int = 1) -> float | None:
    """python-chess perft leaves per CPU second, counted as ``generation``: the start
    position to depth 4 and Kiwipete to depth 3 (depths 2 and 1 at scale 0). None where
    python-chess (the ``[bench]`` extra) is not installed."""
    try:
        import chess
    except ImportError:
        return None

    def perft(board: chess.Board, depth: int) -> int:
        moves = list(board.legal_moves)
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            board.push(move)
            total += perft(board, depth - 1)
            board.pop()
        return total

    leaves = 0
    start = time.process_time()
    for fen, depth in ((chess.STARTING_FEN, 4), (KIWIPETE, 3)):
        leaves += perft(chess.Board(fen), depth if scale else depth - 2)
    return leaves / (time.process_time() - start)


def backgammon(scale: int = 1, seed: int = 1) -> float | None:
    """OpenSpiel backgammon's random play driven from Python (a full legal list each
    decision, the dice sampled from the chance outcomes), decisions per CPU second. None
    where OpenSpiel (the ``[rl]`` extra) is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    plays = 0
    start = time.process_time()
    for _ in range(20 if scale else 1):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                plays += 1
    return plays / (time.process_time() - start)


@contextlib.contextmanager
def _on(compiled: bool) -> Iterator[None]:
    with contextlib.nullcontext() if compiled else native.pure():
        yield


def run(
    games: int = 20,
    positions: int = 60,
    bot_positions: int = 12,
    think: float = 0.25,
    peer_scale: int = 1,
) -> dict[str, Any]:
    """Every figure on the compiled core (top level; the Python engine where it is not
    built), the same under ``pure``, the peers, and the ratios of one run."""

    def measures() -> dict[str, Callable[[], Any]]:
        return {
            "generation": lambda: generation(positions, least=0.5 if peer_scale else 0.0),
            "random_play": lambda: {str(n): random_play(n, games) for n in (2, 4, 6)},
            "greedy_game": lambda: {"4": greedy_game(4, max(1, games // 10))},
            "ismcts": lambda: ismcts(bot_positions, think),
            "bots": lambda: bots(bot_positions, think),
        }

    # Each peer is measured next to the figure it is compared with, as both paths are to
    # each other: a change of the machine's speed during the run falls on all three alike.
    beside: dict[str, tuple[str, Callable[[int], float | None]]] = {
        "generation": ("python_chess_moves_per_s", python_chess),
        "random_play": ("backgammon_plays_per_s", backgammon),
    }
    result: dict[str, Any] = {"compiled": native.COMPILED}
    pure: dict[str, Any] = {}
    peers: dict[str, float | None] = {}
    for name, measure in measures().items():
        with _on(True):
            result[name] = measure()
        with _on(False):
            pure[name] = measure()
        if name in beside:
            key, peer = beside[name]
            peers[key] = peer(peer_scale)
    result["pure"] = pure
    result["peers"] = peers

    def ratio(a: float | None, b: float | None) -> float | None:
        return a / b if a is not None and b else None

    gen, play4 = result["generation"]["plays_per_s"], result["random_play"]["4"]["plays_per_s"]
    result["ratios"] = {
        "generation": ratio(gen, pure["generation"]["plays_per_s"]),
        "random_play.4": ratio(play4, pure["random_play"]["4"]["plays_per_s"]),
        "greedy_game.4": ratio(
            result["greedy_game"]["4"]["games_per_s"], pure["greedy_game"]["4"]["games_per_s"]
        ),
        "ismcts": ratio(result["ismcts"]["iterations_per_s"], pure["ismcts"]["iterations_per_s"]),
        "ismcts_per_decision": ratio(
            result["ismcts"]["iterations_per_decision"],
            pure["ismcts"]["iterations_per_decision"],
        ),
        "generation_vs_python_chess": ratio(gen, peers["python_chess_moves_per_s"]),
        "random_play.4_vs_backgammon": ratio(play4, peers["backgammon_plays_per_s"]),
        "random_play.4_stepped_vs_backgammon": ratio(
            result["random_play"]["4"]["stepped_plays_per_s"], peers["backgammon_plays_per_s"]
        ),
    }
    return result
