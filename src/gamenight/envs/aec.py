"""What gamenight's PettingZoo AEC environments share: agents, spaces, seeding, turn order,
end-of-game rewards and rendering. Each game supplies its state, encoding and moves."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from gamenight.core.outcome import Outcome
from gamenight.envs.common import GameState, place_returns, seed_from

StateT = TypeVar("StateT", bound=GameState)


class GameAECEnv(AECEnv, Generic[StateT]):  # type: ignore[misc]
    """An AEC environment over one game state; agents ``player_{seat}``, in seat order."""

    metadata: dict[str, Any] = {  # noqa: RUF012 — PettingZoo reads it from the class
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "gamenight",
        # An agent keeps the turn for several steps (a Centrix play's decisions, a Color City
        # power decision after its own shot), so the agents do not step in a cycle and
        # PettingZoo's aec_to_parallel cannot convert it: the module's ``parallel_env`` is
        # gamenight.envs.parallel's native one.
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, render_mode: str | None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.state: StateT | None = None
        self._np_random: np.random.Generator | None = None

    def _set_agents(
        self,
        num_players: int,
        make_spaces: Callable[[], tuple[spaces.Space[Any], spaces.Space[Any]]],
    ) -> None:
        """``make_spaces`` gives an agent's (observation, action) spaces: it is called once
        per agent, so that no two agents share a space (and its sampling generator)."""
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self._seat_of = {agent: i for i, agent in enumerate(self.possible_agents)}
        self._observation_spaces: dict[str, spaces.Space[Any]] = {}
        self._action_spaces: dict[str, spaces.Space[Any]] = {}
        for agent in self.possible_agents:
            self._observation_spaces[agent], self._action_spaces[agent] = make_spaces()

    # ------------------------------------------------------------------ the game's part

    @abstractmethod
    def _new_state(self, seed: int) -> StateT:
        """A new game, its randomness drawn from ``seed``."""

    @abstractmethod
    def _mover(self, state: StateT) -> int:
        """The seat to move in a game that is not over."""

    @abstractmethod
    def _apply(self, state: StateT, action: Any) -> dict[str, Any] | None:
        """Take the mover's ``action``; the mover's new info, or None to keep it."""

    @abstractmethod
    def _end_info(self, outcome: Outcome) -> dict[str, Any]:
        """What every agent's info gains when the game ends."""

    @abstractmethod
    def _blank_info(self) -> dict[str, Any]:
        """Every key an info ever has, each empty: an info keeps the same keys at every
        step (tianshou's buffer turns a key that comes and goes into NaNs)."""

    @abstractmethod
    def _render(self, state: StateT, mode: str) -> Any:
        """The frame or text of ``render()`` in ``mode``."""

    # ------------------------------------------------------------------ PettingZoo API

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        # Without a seed the generator carries on, so that successive games differ.
        if seed is not None or self._np_random is None:
            self._np_random = np.random.default_rng(seed)
        state = self.state = self._new_state(seed_from(self._np_random))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: self._blank_info() for a in self.agents}
        self.agent_selection = self.possible_agents[self._mover(state)]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        info = self._apply(state, action)
        if info is not None:
            self.infos[agent] = {**self._blank_info(), **info}
            if self.render_mode == "human":
                self._render(state, "human")  # a terminal shows the table after each move
        outcome = state.outcome
        if outcome is not None:
            for seat, value in enumerate(place_returns(outcome.places)):
                self.rewards[self.possible_agents[seat]] = value
            self.terminations = dict.fromkeys(self.agents, True)
            end = self._end_info(outcome)
            for a in self.agents:
                self.infos[a] = {**self.infos[a], **end}
        else:
            self.agent_selection = self.possible_agents[self._mover(state)]
        self._accumulate_rewards()

    def render(self) -> Any:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode= to env()")
            return None
        if self.render_mode == "human":
            return None  # drawn on standard output at each move already (see step)
        state = self.state
        assert state is not None
        return self._render(state, self.render_mode)

    def close(self) -> None:
        self.state = None
