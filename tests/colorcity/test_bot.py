"""The simple bot: aims where it means to and finishes games."""

from __future__ import annotations

import pytest

from gamenight.colorcity import ColorCityState, Gang, covered_squares, predict
from gamenight.colorcity.bot import SimpleBot, aim
from gamenight.colorcity.table import DEFAULT_TABLE

T = DEFAULT_TABLE


@pytest.mark.parametrize("gang", [Gang.GREEN, Gang.PURPLE])
@pytest.mark.parametrize("square", ["a1", "e5", "i9", "c7", "h2"])
def test_aim_lands_on_or_next_to_the_target_without_noise(gang: Gang, square: str) -> None:
    target = T.parse_square(square)
    x, y = T.square_centre(target)
    flick = predict(T, gang, aim(T, gang, x, y))
    assert abs(flick.pose.x - x) < 2
    assert abs(flick.pose.y - y) < 5


def test_the_bot_corrects_its_speed_and_hits_with_exact_hands() -> None:
    state = ColorCityState.new(seed=3, seats=[("green", "exact"), ("purple", "exact")])
    bot = SimpleBot(1)
    for _ in range(6):
        if state.expects() == "shot":
            bot.rng.seed(1)
            target = bot.target(state)
            bot.rng.seed(1)
            shot = bot.shot(state)
            pose = state.predict(shot).pose
            assert target in covered_squares(T, pose)
        state.push(bot.act(state))


def test_bots_finish_a_game() -> None:
    state = ColorCityState.new(seed=10, seats=[("green", "steady"), ("purple", "shaky")])
    bots = SimpleBot(1), SimpleBot(2)
    for _ in range(400):
        if state.is_over:
            break
        gang = state.to_move
        assert gang is not None
        state.push(bots[gang].act(state))
    assert state.is_over
    assert state.outcome is not None
    assert state.outcome.reason in ("line", "block", "elimination")
