"""Opponents for the single-agent environments come from the bot registry."""

from __future__ import annotations

from gamenight.bots.registry import game_bots
from gamenight.centrix import CentrixState, Play
from gamenight.colorcity import ColorCityState, Shot
from gamenight.core.errors import NotationError
from gamenight.envs.opponents import centrix_opponent, colorcity_opponent


def test_centrix_opponents_are_registry_bots_that_see_their_view() -> None:
    state = CentrixState.new(3, seed=2)
    opponent = centrix_opponent("level2", seed=1)
    play = opponent.act(state, 0)
    assert isinstance(play, Play)
    assert play in state.legal_plays()


def test_colorcity_opponents_come_from_the_registry_or_else_the_simple_bot() -> None:
    try:
        game_bots("colorcity")
        registered = True
    except NotationError:
        registered = False
    opponent = colorcity_opponent("level2", seed=1)
    # The fallback is used exactly while the registry has no Color City entry.
    assert ("SimpleBot" in opponent.name) is not registered
    state = ColorCityState.new(seed=3)
    shot = opponent.act(state, 0)
    assert isinstance(shot, Shot)
    assert shot.check(state.table) == shot
