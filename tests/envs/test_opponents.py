"""Opponents for the single-agent environments come from the bot registry."""

from __future__ import annotations

from gamenight.centrix import CentrixState, Play
from gamenight.colorcity import ColorCityState, Shot
from gamenight.envs.opponents import centrix_opponent, colorcity_opponent


def test_centrix_opponents_are_registry_bots_that_see_their_view() -> None:
    state = CentrixState.new(3, seed=2)
    opponent = centrix_opponent("level2", seed=1)
    play = opponent.act(state, 0)
    assert isinstance(play, Play)
    assert play in state.legal_plays()


def test_colorcity_opponents_are_registry_bots_that_see_their_view() -> None:
    opponent = colorcity_opponent("level2", seed=1)
    assert opponent.name == "colorcity level2"
    state = ColorCityState.new(seed=3)
    shot = opponent.act(state, 0)
    assert isinstance(shot, Shot)
    assert shot.check(state.table) == shot
