"""``gamenight envs bench``: how fast each adapter steps, against the native engine.

Every measurement plays whole games with a uniformly random policy (over legal plays for the
engine, over the mask's legal actions for the adapters) for about ``seconds`` of wall time on
one core and counts:

- ``actions_per_s``: calls into the interface (engine pushes; adapter steps, OpenSpiel's
  chance nodes included);
- ``plays_per_s``: game moves made — Centrix card plays (one to four adapter decisions each),
  Color City pitches and power decisions. The Gymnasium environments count the opponent
  bots' plays too, and their time includes the bots' thinking (level 1 for Centrix: a random
  bot that samples a determinization per play; the Color City bot aims with one noise-free
  simulation per shot), so their overhead is an upper bound on the adapter's own.

``plays_per_s`` is comparable across interfaces; the ratio to the engine's is each
adapter's overhead. Centrix: 2 players, turn cap 200. Color City: 2 players, ``normal``
hands (OpenSpiel: the noise as its 27-outcome chance node), turn cap 30.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from gamenight.core.game import registry

if TYPE_CHECKING:
    from gamenight.envs.gym import CentrixEnv, ColorCityEnv

Measure = Callable[[], tuple[int, int]]  # one game: (actions, plays)


def _rate(game: Measure, seconds: float) -> dict[str, float]:
    actions = plays = games = 0
    start = time.perf_counter()
    while games == 0 or time.perf_counter() - start < seconds:
        a, p = game()
        actions, plays, games = actions + a, plays + p, games + 1
    elapsed = time.perf_counter() - start
    return {
        "actions_per_s": actions / elapsed,
        "plays_per_s": plays / elapsed,
        "actions_per_play": actions / plays if plays else 0.0,
        "games": games,
    }


# ---------------------------------------------------------------------------- the adapters


def _openspiel(
    rng: random.Random, short_name: str, params: dict[str, Any], is_play: Callable[[Any], bool]
) -> Measure:
    """``is_play(state)``: whether the decision just applied completed a game move."""
    import pyspiel

    import gamenight.envs.openspiel  # noqa: F401 — registers the games

    game_ = pyspiel.load_game(short_name, params)

    def game() -> tuple[int, int]:
        state = game_.new_initial_state()
        actions = plays = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                plays += is_play(state)
            actions += 1
        return actions, plays

    return game


def _pettingzoo(rng: random.Random, env: Any, is_play: Callable[[Any], bool]) -> Measure:
    """``is_play(env)``: whether the step just taken completed a game move."""

    def game() -> tuple[int, int]:
        env.reset(seed=rng.getrandbits(32))
        actions = plays = 0
        for _ in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            actions += 1
            plays += is_play(env)
        return actions, plays

    return game


def _gymnasium(rng: random.Random, env: CentrixEnv | ColorCityEnv) -> Measure:
    def game() -> tuple[int, int]:
        _, info = env.reset(seed=rng.getrandbits(32))
        actions = 0
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"]).tolist()
            _, _, done, _, info = env.step(rng.choice(legal))
            actions += 1
        return actions, env.plays_made

    return game


# ---------------------------------------------------------------------------- Centrix


def centrix_native(rng: random.Random) -> Measure:
    from gamenight.centrix import CentrixState, Rules

    centrix, rules = registry["centrix"], Rules(max_turns=200)

    def game() -> tuple[int, int]:
        state: CentrixState = centrix.new(2, rules, rng.getrandbits(32))
        plays = 0
        while not state.is_over:
            state.push_unchecked(rng.choice(state.legal_plays()))
            state.clear_stack()
            plays += 1
        return plays, plays

    return game


def centrix_openspiel(rng: random.Random) -> Measure:
    params = {"players": 2, "max_turns": 200}
    return _openspiel(rng, "python_gamenight_centrix", params, lambda state: not state.prefix)


def centrix_pettingzoo(rng: random.Random) -> Measure:
    from gamenight.envs import centrix_v0

    env = centrix_v0.env(num_players=2, max_turns=200)
    return _pettingzoo(rng, env, lambda env: not env.unwrapped._builder.prefix)


def centrix_gymnasium(rng: random.Random) -> Measure:
    from gamenight.envs.gym import CentrixEnv

    return _gymnasium(rng, CentrixEnv(num_players=2, opponents="random", max_turns=200))


# ---------------------------------------------------------------------------- Color City


def colorcity_native(rng: random.Random) -> Measure:
    from gamenight.colorcity import ColorCityState
    from gamenight.colorcity.table import DEFAULT_TABLE
    from gamenight.envs.colorcity_codec import ShotGrid

    table = DEFAULT_TABLE.with_(max_turns=30)
    grid = ShotGrid(table)

    def game() -> tuple[int, int]:
        state: ColorCityState = registry["colorcity"].new(2, table, rng.getrandbits(32))
        actions = 0
        while not state.is_over:
            if state.expects() == "shot":
                state.push(grid.shot(rng.randrange(grid.num_shots)))
            else:
                state.push(rng.choice(state.legal_decisions()))
            state.clear_stack()
            actions += 1
        return actions, actions

    return game


def colorcity_openspiel(rng: random.Random) -> Measure:
    params = {"skill": "normal", "max_turns": 30}
    return _openspiel(rng, "python_gamenight_colorcity", params, lambda state: True)


def colorcity_pettingzoo(rng: random.Random) -> Measure:
    from gamenight.envs import colorcity_v0

    return _pettingzoo(rng, colorcity_v0.env(max_turns=30), lambda env: True)


def colorcity_gymnasium(rng: random.Random) -> Measure:
    from gamenight.envs.gym import ColorCityEnv

    return _gymnasium(rng, ColorCityEnv(opponent="simple", max_turns=30))


def run(seconds: float = 3.0, seed: int = 7) -> dict[str, dict[str, dict[str, float]]]:
    rng = random.Random(seed)
    measures: dict[str, dict[str, Measure]] = {
        "centrix": {
            "native": centrix_native(rng),
            "openspiel": centrix_openspiel(rng),
            "pettingzoo": centrix_pettingzoo(rng),
            "gymnasium (opponent random)": centrix_gymnasium(rng),
        },
        "colorcity": {
            "native": colorcity_native(rng),
            "openspiel": colorcity_openspiel(rng),
            "pettingzoo": colorcity_pettingzoo(rng),
            "gymnasium (opponent simple)": colorcity_gymnasium(rng),
        },
    }
    out: dict[str, dict[str, dict[str, float]]] = {}
    for game, by_interface in measures.items():
        out[game] = {}
        for name, measure in by_interface.items():
            result = _rate(measure, seconds)
            native = out[game].get("native", result)
            result["overhead"] = native["plays_per_s"] / result["plays_per_s"]
            out[game][name] = result
    return out


def vector_rates(
    num_envs: int = 64, seconds: float = 3.0, opponents: str = "random", rounds: int = 2
) -> dict[str, Any]:
    """Game steps/s (one decision of one game each) of the batched Centrix env against
    ``gymnasium.make_vec`` (sync) with the same number of games, the same options and a
    uniformly random masked policy, measured alternately ``rounds`` times each on this
    process's CPU time; and their ratio."""
    import gymnasium

    import gamenight.envs.gym  # noqa: F401 — registers the ids
    from gamenight.envs.vector import CentrixVectorEnv

    makers: dict[str, Callable[[], Any]] = {
        "make_vec": lambda: gymnasium.make_vec(
            "gamenight/Centrix-v0",
            num_envs=num_envs,
            vectorization_mode="sync",
            opponents=opponents,
        ),
        "batched": lambda: CentrixVectorEnv(num_envs, opponents=opponents),
    }
    steps = dict.fromkeys(makers, 0)
    spent = dict.fromkeys(makers, 0.0)
    for turn in range(rounds):
        for name, make in makers.items():
            envs = make()
            rng = np.random.default_rng(turn)
            _, info = envs.reset(seed=turn)
            start = time.process_time()
            while time.process_time() - start < seconds / rounds:
                masks = info["action_mask"]
                # A uniformly random legal action for each game (any action for a game whose
                # episode ended: the next step ignores it).
                actions = np.argmax(rng.random(masks.shape) * (masks + 1e-9), axis=1)
                _, _, _, _, info = envs.step(actions)
                steps[name] += num_envs
            spent[name] += time.process_time() - start
            envs.close()
    rate = {name: steps[name] / spent[name] for name in makers}
    return {
        "num_envs": num_envs,
        "opponents": opponents,
        "make_vec_steps_per_s": round(rate["make_vec"]),
        "batched_steps_per_s": round(rate["batched"]),
        "ratio": round(rate["batched"] / rate["make_vec"], 2),
    }
