"""What gamenight's OpenSpiel games share: the game type and info of a zero-sum game with
place-based returns in [−1, 1], the returns themselves, and the observer plumbing."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from gamenight.core.outcome import Outcome
from gamenight.envs.common import place_returns


def game_type(
    short_name: str,
    long_name: str,
    information: pyspiel.GameType.Information,
    players: tuple[int, int],
    defaults: dict[str, Any],
) -> pyspiel.GameType:
    """A sequential zero-sum game with explicit chance, terminal rewards and every kind of
    observation, for ``players`` (min, max) players and parameters ``defaults``."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults,
    )


def game_info(
    num_actions: int, max_chance_outcomes: int, num_players: int, max_game_length: int
) -> pyspiel.GameInfo:
    """The game info; the utilities are those of :func:`place_returns`."""
    return pyspiel.GameInfo(
        num_distinct_actions=num_actions,
        max_chance_outcomes=max_chance_outcomes,
        num_players=num_players,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=max_game_length,
    )


def outcome_returns(outcome: Outcome | None, num_players: int) -> list[float]:
    """OpenSpiel's ``returns()``: by place once the game is over, 0 for everyone before."""
    if outcome is None:
        return [0.0] * num_players
    return place_returns(outcome.places)


def check_observer_params(params: dict[str, Any] | None) -> None:
    """The observers take no parameters: the view they give is fixed (docs/envs.md)."""
    if params:
        raise ValueError(f"observation parameters are not supported: {params}")


class TensorObserver:
    """An observer's tensor, and the ``dict`` OpenSpiel reads it through."""

    def __init__(self, size: int) -> None:
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}
