"""Opponents for the single-agent environments come from the bot registry."""

from __future__ import annotations

import pytest

from gamenight.centrix import CentrixState, Play
from gamenight.colorcity import ColorCityState, Shot
from gamenight.envs.opponents import centrix_opponent, colorcity_opponent

from .helpers import hidden_twin


def test_centrix_opponents_are_registry_bots_that_see_their_view() -> None:
    state = CentrixState.new(3, seed=2)
    opponent = centrix_opponent("level2", seed=1)
    play = opponent.act(state, 0)
    assert isinstance(play, Play)
    assert play in state.legal_plays()


@pytest.mark.parametrize("spec", ["level1", "level2", "ismcts:30it"])
def test_centrix_opponents_decide_the_same_whatever_they_cannot_see(spec: str) -> None:
    state = CentrixState.new(3, seed=2)
    twin = hidden_twin(state, 1)
    assert twin.hands[1] != state.hands[1]
    assert twin.hands[0] == state.hands[0]
    assert twin.to_move == state.to_move == 0
    play = centrix_opponent(spec, seed=1).act(state, 0)
    assert centrix_opponent(spec, seed=1).act(twin, 0) == play


def test_colorcity_opponents_are_registry_bots_that_see_their_view() -> None:
    opponent = colorcity_opponent("level2", seed=1)
    assert opponent.name == "colorcity level2"
    state = ColorCityState.new(seed=3)
    shot = opponent.act(state, 0)
    assert isinstance(shot, Shot)
    assert shot.check(state.table) == shot
