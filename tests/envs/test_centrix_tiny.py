"""The tiny Centrix variant for exact methods (issue 19, docs/rules/centrix.md D18): one
pawn each, the six 1-cards and two turns from a study position make a game that OpenSpiel's
``get_all_states`` enumerates, with a perfect-recall information state in which each
seat's draws are its own secret, so CFR and exploitability run on it."""

from __future__ import annotations

import pyspiel
import pytest
from open_spiel.python.algorithms import cfr, exploitability
from open_spiel.python.algorithms.get_all_states import get_all_states

import gamenight.envs.openspiel  # noqa: F401 — registers the games
from gamenight.envs.openspiel_centrix import TINY

NAME = "python_gamenight_centrix"


@pytest.fixture(scope="module")
def game() -> pyspiel.Game:
    return pyspiel.load_game(NAME, TINY)


@pytest.fixture(scope="module")
def states(game: pyspiel.Game) -> dict[str, pyspiel.State]:
    found: dict[str, pyspiel.State] = get_all_states(
        game, depth_limit=-1, include_terminals=True, include_chance_states=True
    )
    return found


def test_get_all_states_enumerates_the_tiny_variant(states: dict[str, pyspiel.State]) -> None:
    # Red's one play, its three draws, orange's one play, its draws; the cap ends the game.
    assert 2_000 < len(states) < 5_000
    assert any(s.is_chance_node() for s in states.values())
    finished = [s for s in states.values() if s.is_terminal()]
    assert {tuple(s.returns()) for s in finished} >= {(1.0, -1.0), (-1.0, 1.0)}


def test_the_information_state_keeps_each_seats_draws_its_own(
    states: dict[str, pyspiel.State],
) -> None:
    histories: dict[tuple[int, str], set[str]] = {}
    for state in states.values():
        if state.is_terminal() or state.is_chance_node():
            continue
        player = state.current_player()
        info = state.information_state_string(player)
        histories.setdefault((player, info), set()).add(state.history_str())
        # Perfect recall: every action so far, one token each, the others' draws hidden.
        assert len(info.split(" | seen ")[1].split()) == len(state.history())
    # Orange cannot see which cards red drew: its decisions gather several histories each,
    # while red, who has drawn nothing yet, knows its history exactly.
    assert all(len(h) == 1 for (player, _), h in histories.items() if player == 0)
    assert any(len(h) > 1 for (player, _), h in histories.items() if player == 1)


def test_the_parameters_are_the_rules_set_up() -> None:
    with pytest.raises(ValueError, match="pawns must be a whole number from 1 to 9"):
        pyspiel.load_game(NAME, {**TINY, "pawns": 0})
    with pytest.raises(ValueError, match="must hold the 12 cards exactly; missing R1O1Y1G1B1W1"):
        pyspiel.load_game(NAME, {**TINY, "copies": 2})
    with pytest.raises(ValueError, match="a deck of 6 cards cannot deal 3 to each of 3"):
        pyspiel.load_game(NAME, {**TINY, "players": 3, "position": ""})
    dealt = pyspiel.load_game(NAME, {**TINY, "position": ""}).new_initial_state()
    assert dealt.is_chance_node()
    assert len(dealt.chance_outcomes()) == 6


def test_cfr_closes_in_on_an_equilibrium() -> None:
    # Exploitability walks the tree once per seat and action: on the two-turn variant that
    # is minutes here, so CFR is checked on its first turn alone (red's play and draws).
    game = pyspiel.load_game(NAME, {**TINY, "max_turns": 1})
    solver = cfr.CFRSolver(game)
    uniform = exploitability.exploitability(game, solver.current_policy())
    for _ in range(2):
        solver.evaluate_and_update_policy()
    gap = exploitability.exploitability(game, solver.average_policy())
    # The uniform policy is 1/24 from equilibrium here; CFR's average halves that.
    assert uniform > 0.04
    assert 0 <= gap <= uniform / 2 + 1e-9, (gap, uniform)
