"""Tiny Color City variants for exact methods (issue 19, docs/rules/colorcity.md D23): a
coarse shot grid, noise as a few discrete outcomes and a turn cap of one or two make a game
that OpenSpiel's ``get_all_states`` enumerates, with a perfect-recall information state, so
CFR and exploitability run on it."""

from __future__ import annotations

import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability
from open_spiel.python.algorithms.get_all_states import get_all_states
from open_spiel.python.algorithms.minimax import expectiminimax

import gamenight.envs.openspiel  # noqa: F401 — registers the games
from gamenight.envs.openspiel_colorcity import coarse_grid

TINY = {"grid": "coarse", "skill": "exact", "max_turns": 2}


def all_states(params: dict[str, object]) -> dict[str, pyspiel.State]:
    game = pyspiel.load_game("python_gamenight_colorcity", params)
    return get_all_states(game, depth_limit=-1, include_terminals=True, include_chance_states=True)


def test_the_coarse_grid_has_nine_shots_and_the_powers() -> None:
    game = pyspiel.load_game("python_gamenight_colorcity", {"grid": "coarse"})
    assert game.grid == coarse_grid(game.table)
    assert game.grid.num_shots == 9
    assert game.num_distinct_actions() == 12
    full = pyspiel.load_game("python_gamenight_colorcity")
    assert full.num_distinct_actions() == 1218
    with pytest.raises(ValueError, match="grid must be one of full, coarse, not 'fine'"):
        pyspiel.load_game("python_gamenight_colorcity", {"grid": "fine"})
    with pytest.raises(ValueError, match="noise_points must be one of 27, 3"):
        pyspiel.load_game("python_gamenight_colorcity", {"noise_points": 9})


def test_get_all_states_enumerates_the_tiny_variants() -> None:
    exact = all_states(TINY)
    # Green: 9 shots, then Lucky Day (9 more) or pass; Purple: 9 shots, then Purple Pain or
    # pass; the cap ends the game after the second turn.
    assert 1_000 < len(exact) < 5_000
    noisy = all_states({**TINY, "skill": "normal", "noise_points": 3, "max_turns": 1})
    assert any(s.is_chance_node() for s in noisy.values())
    assert all(len(s.chance_outcomes()) == 3 for s in noisy.values() if s.is_chance_node())


def test_the_information_state_is_perfect_recall() -> None:
    # Two histories that reach the same table are the same observation but different
    # information states: the history, not the position, is what a player remembers.
    states = all_states(TINY)
    by_observation: dict[tuple[int, str], set[str]] = {}
    for state in states.values():
        if state.is_terminal() or state.is_chance_node():
            continue
        player = state.current_player()
        key = (player, state.observation_string(player))
        by_observation.setdefault(key, set()).add(state.information_state_string(player))
        assert state.information_state_string(player).endswith(" ".join(map(str, state.history())))
    assert any(len(infos) > 1 for infos in by_observation.values())


def test_cfr_approaches_the_games_value() -> None:
    game = pyspiel.load_game("python_gamenight_colorcity", TINY)
    value, _ = expectiminimax(game.new_initial_state(), -1, lambda s: s.returns()[0], 0)
    solver = cfr.CFRSolver(game)
    for _ in range(4):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    assert isinstance(average, policy_lib.TabularPolicy)
    gap = exploitability.exploitability(game, average)
    # The uniform policy is 0.44 from equilibrium here; CFR's average closes in (0.11 after
    # four iterations), and its value lies within twice that of the minimax value.
    assert 0 <= gap < 0.2
    played = expected_game_score.policy_value(game.new_initial_state(), [average, average])
    assert abs(played[0] - value) <= 2 * gap + 1e-9  # NashConv bounds the value gap
