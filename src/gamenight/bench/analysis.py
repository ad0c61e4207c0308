"""How long the analysis after a game takes (issue 32's bars: a 4-player Centrix game of
about 450 turns in ≤ 10 s on one core with the compiled core, a Color City game in ≤ 20 s).

The games are played first (not timed): four random bots' Centrix game, the first seed
whose game lasts 430–470 turns (random play makes the long games a newcomer's table makes),
and a Color City game of two level-5 bots. Then each is analysed as ``gamenight … analyse``
does, timed by the wall clock and by the process's CPU (one process, one thread).
"""

from __future__ import annotations

import time
from typing import Any

from gamenight.analysis import centrix as centrix_analysis
from gamenight.analysis import colorcity as colorcity_analysis
from gamenight.bots.registry import game_bots
from gamenight.centrix import CentrixState, Colour, native
from gamenight.colorcity import ColorCityState
from gamenight.core.provenance import commit, cpu_model, load
from gamenight.core.provenance import machine as provenance_machine

TURNS = (430, 470)


def machine() -> dict[str, Any]:
    """The commit, the core and the machine a figure was measured on."""
    return {
        "commit": commit(),
        "core": "compiled" if native.active() else "pure Python",
        "machine": f"{cpu_model()}, {provenance_machine()}",
        "load_average": load(),
    }


def long_centrix_game(seed: int = 0) -> CentrixState:
    """The first four-player game of random bots, from ``seed`` on, lasting TURNS turns."""
    while True:
        state = CentrixState.new(list(Colour)[:4], seed=seed, first=0)
        bots = [game_bots("centrix").bot("level1", seed=seed * 10 + i) for i in range(4)]
        while (seat := state.actor) is not None:
            state.push(bots[seat].choose(state.view(seat)))
        if TURNS[0] <= state.turn <= TURNS[1]:
            return state
        seed += 1


def colorcity_game(seed: int = 0) -> ColorCityState:
    """A game of two level-5 Color City bots."""
    state = ColorCityState.new(seed=seed)
    bots = [game_bots("colorcity").bot("level5", seed=seed * 10 + i) for i in range(2)]
    while (seat := state.actor) is not None:
        state.push(bots[seat].choose(state.view(seat)))
    return state


def timed(run: Any) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = run()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def run(seed: int = 0) -> dict[str, Any]:
    """Both games analysed, with their sizes and times."""
    game = long_centrix_game(seed)
    record = game.record().to_json()
    analysis, wall, cpu = timed(lambda: centrix_analysis.analyse(record))
    out: dict[str, Any] = {
        **machine(),
        "centrix": {
            "players": 4,
            "seed": game.seed,
            "turns": game.turn,
            "plays": len(game.plays),
            "rollouts": centrix_analysis.ROLLOUTS,
            "mistakes": len(analysis.mistakes),
            "wall_s": round(wall, 2),
            "cpu_s": round(cpu, 2),
            "bar_s": 10,
        },
    }
    cc = colorcity_game(seed)
    record = cc.record().to_json()
    analysis, wall, cpu = timed(lambda: colorcity_analysis.analyse(record))
    out["colorcity"] = {
        "seed": cc.seed,
        "turns": cc.turn,
        "actions": len(cc.actions),
        "rollouts": colorcity_analysis.ROLLOUTS,
        "mistakes": len(analysis.mistakes),
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "bar_s": 20,
    }
    return out
