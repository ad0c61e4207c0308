"""Color City as a PettingZoo AEC environment.

>>> from gamenight.envs import colorcity_v0
>>> env = colorcity_v0.env(skill="normal", render_mode="ansi")
>>> env.reset(seed=1)
>>> env.agent_selection
'player_0'

Agents ``player_0`` (Green, who starts) and ``player_1`` (Purple). By default actions are
the discrete grid of :class:`gamenight.envs.colorcity_codec.ShotGrid` (1215 shots, then
``lucky-day``, ``purple-pain`` and ``pass``) with an ``action_mask``. With
``continuous=True`` the action is a ``Box`` of five numbers within the table's shot limits,
``[position mm, direction °, speed m/s, spin rad/s, power]``: in the pitch phase the first
four are the shot, in the power phase the fifth decides (≥ 0.5 uses the gang's power, below
passes). Continuous observations carry no mask (a Box cannot be masked). Each seat pitches
with its ``skill``'s execution noise, drawn from the game's generator (seeded by
``reset(seed=…)``). The turn cap ``max_turns`` (default 60) is a rule of the game: the gang
with more squares wins, so it is a termination. Rewards at the end: +1 the winner, −1 the
loser, 0 each for a draw. See docs/envs.md.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from gamenight.colorcity.actions import Decision
from gamenight.colorcity.coverage import covered_squares
from gamenight.colorcity.shots import Shot, Skill
from gamenight.colorcity.state import ColorCityState, Phase
from gamenight.colorcity.table import DEFAULT_TABLE, Gang, Table
from gamenight.colorcity.text import render_plain
from gamenight.envs import colorcity_codec as codec
from gamenight.envs.common import place_returns
from gamenight.envs.render import colorcity_frame

DEFAULT_MAX_TURNS = 60


def env(**kwargs: Any) -> raw_env:
    return raw_env(**kwargs)


def continuous_action(table: Table, value: Any, phase: Phase, decisions: list[Decision]) -> Any:
    """The Shot or Decision a continuous action means (see the module's docstring)."""
    a = np.asarray(value, dtype=np.float64).reshape(5)
    if phase is Phase.POWER:
        return decisions[0] if a[4] >= 0.5 else Decision.PASS
    half = table.launch_half_width
    return Shot(
        float(np.clip(a[0], -half, half)),
        float(np.clip(a[1], -table.max_direction_deg, table.max_direction_deg)),
        float(np.clip(a[2], table.min_speed, table.max_speed)),
        float(np.clip(a[3], -table.max_spin, table.max_spin)),
    )


def continuous_space(table: Table) -> spaces.Box:
    half = table.launch_half_width
    low = np.array(
        [-half, -table.max_direction_deg, table.min_speed, -table.max_spin, 0.0], np.float32
    )
    high = np.array(
        [half, table.max_direction_deg, table.max_speed, table.max_spin, 1.0], np.float32
    )
    return spaces.Box(low, high, dtype=np.float32)


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801 — PettingZoo's naming
    metadata: dict[str, Any] = {  # noqa: RUF012 — PettingZoo reads it from the class
        "render_modes": ["ansi", "rgb_array"],
        "name": "colorcity_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        skill: str = "normal",
        max_turns: int = DEFAULT_MAX_TURNS,
        continuous: bool = False,
        grid: codec.ShotGrid | None = None,
        table: Table | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.table = (table or DEFAULT_TABLE).with_(max_turns=max_turns)
        self.skill = Skill.parse(skill)
        self.continuous = continuous
        self.grid = grid or codec.ShotGrid(self.table)
        self.render_mode = render_mode
        self.possible_agents = ["player_0", "player_1"]  # seat 0 Green, seat 1 Purple
        size = codec.observation_size(self.table)
        obs = spaces.Box(0.0, 1.0, (size,), np.float32)
        self._observation_spaces: dict[str, spaces.Space[Any]] = {}
        self._action_spaces: dict[str, spaces.Space[Any]] = {}
        for agent in self.possible_agents:
            if continuous:
                self._observation_spaces[agent] = spaces.Dict({"observation": obs})
                self._action_spaces[agent] = continuous_space(self.table)
            else:
                mask = spaces.Box(0, 1, (self.grid.num_actions,), np.int8)
                self._observation_spaces[agent] = spaces.Dict(
                    {"observation": obs, "action_mask": mask}
                )
                self._action_spaces[agent] = spaces.Discrete(self.grid.num_actions)
        self.state: ColorCityState | None = None
        self._np_random: np.random.Generator | None = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random = np.random.default_rng(seed)
        self.state = ColorCityState.new(
            seed=int(self._np_random.integers(2**62)),
            seats=[(Gang.GREEN, self.skill), (Gang.PURPLE, self.skill)],
            table=self.table,
        )
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = "player_0"

    def observe(self, agent: str) -> dict[str, Any]:
        state = self.state
        assert state is not None
        seat = self.possible_agents.index(agent)
        out: dict[str, Any] = {"observation": codec.encode(state.view(seat), self.table.max_turns)}
        if not self.continuous:
            if state.pitcher == seat:
                out["action_mask"] = self.grid.mask(state.phase, state.legal_decisions())
            else:
                out["action_mask"] = np.zeros(self.grid.num_actions, dtype=np.int8)
        return out

    def _action(self, value: Any) -> Shot | Decision:
        state = self.state
        assert state is not None
        if self.continuous:
            return continuous_action(  # type: ignore[no-any-return]
                self.table, value, state.phase, state.legal_decisions()
            )
        action = int(value)
        if action not in self.grid.legal_actions(state.phase, state.legal_decisions()):
            raise ValueError(f"action {action} is not legal in the {state.phase} phase")
        return self.grid.action(action)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        done = state.push(self._action(action))
        state._stack.clear()  # nothing is taken back here; keeps memory flat
        self.infos[agent] = {"action": str(done)}
        outcome = state.outcome
        if outcome is not None:
            for seat, value in enumerate(place_returns(outcome.places)):
                self.rewards[self.possible_agents[seat]] = value
            self.terminations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a] = {**self.infos[a], "reason": outcome.reason}
        else:
            pitcher = state.pitcher
            assert pitcher is not None
            self.agent_selection = self.possible_agents[pitcher]
        self._accumulate_rewards()

    def render(self) -> Any:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode= to env()")
            return None
        state = self.state
        assert state is not None
        if self.render_mode == "ansi":
            return render_plain(state)
        pending = () if state.pending is None else covered_squares(self.table, state.pending)
        return colorcity_frame(state.cells, self.table.city_size, pending)

    def close(self) -> None:
        self.state = None
