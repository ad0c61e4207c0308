"""The OpenSpiel games: registration, conformance (random_sim_test), chance, resampling, and
OpenSpiel's own search bots playing gamenight's bots."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import gamenight.envs.openspiel  # noqa: F401 — registers the games
from gamenight.bots.centrix import GreedyBot
from gamenight.colorcity import Shot
from gamenight.envs import centrix_codec as codec
from gamenight.envs.openspiel_centrix import max_game_length
from gamenight.envs.opponents import colorcity_opponent


def chance_step(state: pyspiel.State, rng: np.random.RandomState) -> None:
    actions, probs = zip(*state.chance_outcomes(), strict=True)
    state.apply_action(int(rng.choice(actions, p=probs)))


def random_step(state: pyspiel.State, rng: np.random.RandomState) -> None:
    """A chance outcome, or a uniformly random legal action."""
    if state.is_chance_node():
        chance_step(state, rng)
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))


def dealt(game: pyspiel.Game, seed: int) -> tuple[pyspiel.State, np.random.RandomState]:
    """A new game of ``game`` once its deal is drawn from ``seed``, and the generator."""
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    while state.is_chance_node():
        chance_step(state, rng)
    return state, rng


def test_both_games_are_registered_with_their_parameters() -> None:
    names = pyspiel.registered_names()
    assert "python_gamenight_centrix" in names
    assert "python_gamenight_colorcity" in names
    game = pyspiel.load_game("python_gamenight_centrix(players=4,bottom=floor,max_turns=50)")
    assert game.num_players() == 4
    assert game.rules.bottom == "floor"
    assert game.rules.max_turns == 50
    assert game.num_distinct_actions() == codec.NUM_ACTIONS
    assert game.max_game_length() == max_game_length(4, 50)
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    cc = pyspiel.load_game("python_gamenight_colorcity", {"players": 4, "skill": "normal"})
    assert cc.num_players() == 4
    assert cc.num_distinct_actions() == 1218


@pytest.mark.parametrize(
    ("players", "bottom"), [(2, "protect"), (3, "knock_off"), (4, "floor"), (6, "protect")]
)
def test_centrix_passes_random_sim_test(players: int, bottom: str) -> None:
    game = pyspiel.load_game(
        "python_gamenight_centrix", {"players": players, "bottom": bottom, "max_turns": 30}
    )
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_centrix_passes_random_sim_test_at_the_default_cap() -> None:
    game = pyspiel.load_game("python_gamenight_centrix")
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize(
    "params",
    [{"max_turns": 6}, {"players": 4, "skill": "normal", "max_turns": 6}],
    ids=["exact-2p", "normal-4p"],
)
def test_colorcity_passes_random_sim_test(params: dict[str, object]) -> None:
    game = pyspiel.load_game("python_gamenight_colorcity", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_the_deal_is_chance_over_the_remaining_deck() -> None:
    game = pyspiel.load_game("python_gamenight_centrix")
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 20
    assert outcomes[int(codec.Card.ANY)] == pytest.approx(3 / 42)
    assert outcomes[int(codec.Card.R1)] == pytest.approx(2 / 42)
    state.apply_action(int(codec.Card.ANY))
    assert dict(state.chance_outcomes())[int(codec.Card.ANY)] == pytest.approx(2 / 41)


def test_a_play_is_several_decisions_of_the_same_player() -> None:
    game = pyspiel.load_game("python_gamenight_centrix")
    state, _ = dealt(game, 0)
    player = state.current_player()
    legal = state.legal_actions()
    assert all(codec.stage_of(a) == 0 for a in legal)
    state.apply_action(legal[0])
    assert state.current_player() == player
    assert all(codec.stage_of(a) == 1 for a in state.legal_actions())


def test_observations_hide_the_other_hands() -> None:
    game = pyspiel.load_game("python_gamenight_centrix")
    state, _ = dealt(game, 1)
    mine = state.information_state_string(0)
    theirs = state.information_state_string(1)
    hand0 = "".join(str(c) for c in state.engine.hands[0])
    hand1 = "".join(str(c) for c in state.engine.hands[1])
    assert f"hand {hand0}" in mine
    assert f"hand {hand1}" in theirs
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()
    # Seat 1's hand swapped with cards from the draw pile: seat 0 cannot tell the difference.
    twin = state.clone()
    hands, draw = twin.engine.hands, twin.engine.draw
    size = len(hands[1])
    hands[1], draw[:size] = sorted(draw[:size]), hands[1]
    assert twin.engine.hands[1] != state.engine.hands[1]
    assert twin.information_state_string(1) != theirs  # the swap is visible to seat 1
    assert twin.information_state_string(0) == mine
    assert twin.information_state_tensor(0) == state.information_state_tensor(0)
    assert twin.observation_tensor(0) == state.observation_tensor(0)


def test_resampling_keeps_the_information_state_and_varies_the_hidden_cards() -> None:
    game = pyspiel.load_game("python_gamenight_centrix", {"players": 3})
    state, rng = dealt(game, 2)
    for _ in range(80 - 9):  # 80 steps with the deal's 9
        random_step(state, rng)
    while state.is_chance_node():
        chance_step(state, rng)
    player = state.current_player()
    key = state.information_state_string(player)
    others = set()
    sampler = random.Random(0).random
    for _ in range(20):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == key
        assert sample.legal_actions() == state.legal_actions()
        assert sample.engine.hands[player] == state.engine.hands[player]
        others.add(str(sample.engine.hands))
    assert len(others) > 1


def play_centrix(game: pyspiel.Game, bot: ismcts.ISMCTSBot, theirs: int, seed: int) -> list[float]:
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    greedy = GreedyBot(seed=seed)
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, rng)
        elif state.current_player() == theirs:
            state.apply_action(bot.step(state))
        else:
            play = greedy.choose(state.engine.view(state.current_player()))
            for code in codec.play_codes(play):
                state.apply_action(code)
    return list(state.returns())


def test_openspiel_ismcts_plays_full_games_of_centrix_against_gamenight() -> None:
    game = pyspiel.load_game("python_gamenight_centrix", {"players": 2, "max_turns": 10})
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rng), 2.0, max_simulations=3, random_state=rng
    )
    for seat in (0, 1):
        returns = play_centrix(game, bot, seat, seed=seat)
        assert sum(returns) == pytest.approx(0.0)
        assert all(r in (-1.0, 0.0, 1.0) for r in returns)


def test_openspiel_mcts_plays_full_games_of_colorcity_against_gamenight() -> None:
    game = pyspiel.load_game("python_gamenight_colorcity", {"max_turns": 4})
    rng = np.random.RandomState(4)
    bot = mcts.MCTSBot(game, 2.0, 4, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    for theirs in (0, 1):
        opponent = colorcity_opponent("level2", seed=theirs)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                chance_step(state, rng)
            elif state.current_player() == theirs:
                state.apply_action(bot.step(state))
            else:
                move = opponent.act(state.engine, state.current_player())
                # gamenight's bot aims continuous shots: it plays the grid's nearest one.
                state.apply_action(game.grid.action_of(move))
        assert state.engine.is_over
        assert sum(state.returns()) == pytest.approx(0.0)


def test_colorcity_noise_is_a_27_point_chance_node_with_the_skills_moments() -> None:
    from gamenight.colorcity.shots import SIGMAS, Skill
    from gamenight.envs.openspiel_colorcity import NOISE_GRID, noise_of

    game = pyspiel.load_game("python_gamenight_colorcity", {"skill": "shaky"})
    state = game.new_initial_state()
    assert not state.is_chance_node()
    state.apply_action(game.grid.nearest(Shot(0.0, 0.0, 1.3, 0.0)))
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 27
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    directions = [noise_of(i, Skill.SHAKY).direction for i in range(len(NOISE_GRID))]
    probs = [p for _, p in outcomes]
    assert np.dot(probs, directions) == pytest.approx(0.0, abs=1e-12)
    assert np.dot(probs, np.square(directions)) == pytest.approx(
        SIGMAS[Skill.SHAKY].direction_deg ** 2
    )
    exact = pyspiel.load_game("python_gamenight_colorcity", {"skill": "exact"}).new_initial_state()
    exact.apply_action(0)
    assert not exact.is_chance_node()


def test_resampling_during_a_refill_redraws_from_the_sampled_pools() -> None:
    game = pyspiel.load_game("python_gamenight_centrix", {"players": 3})
    state, rng = dealt(game, 6)
    # Play on until a refill of two or more cards has drawn its first card.
    while not (state._need is not None and state._drawn):
        random_step(state, rng)
    assert state.is_chance_node()
    for player in (0, 1, 2):
        sample = state.resample_from_infostate(player, random.Random(player).random)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.is_chance_node()
        assert len(sample._drawn) == len(state._drawn)
        assert sum(p for _, p in sample.chance_outcomes()) == pytest.approx(1.0)
        while sample.is_chance_node():  # the sampled refill completes into a legal state
            chance_step(sample, rng)
        assert (
            sum(len(h) for h in sample.engine.hands)
            + len(sample.engine.draw)
            + len(sample.engine.discard)
            == 42
        )
