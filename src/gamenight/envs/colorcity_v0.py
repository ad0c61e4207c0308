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
passes). ``continuous="normalized"`` is the same Box scaled to [−1, 1] on every axis (power
≥ 0 uses it): the one to learn with. Continuous observations carry no mask (a Box cannot
be masked). Each seat pitches with its ``skill``'s execution noise, drawn from the game's
generator (seeded by ``reset(seed=…)``). The turn cap ``max_turns`` (default 60) is a rule
of the game: the gang with more squares wins, so it is a termination. Rewards at the end: +1
the winner, −1 the loser, 0 each for a draw. See docs/envs.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from gamenight.colorcity.actions import Decision, Pitch
from gamenight.colorcity.shots import Shot, Skill
from gamenight.colorcity.state import ColorCityState, Phase
from gamenight.colorcity.table import DEFAULT_TABLE, Table
from gamenight.core.game import SeatSetup, registry
from gamenight.core.outcome import Outcome
from gamenight.envs import colorcity_codec as codec
from gamenight.envs.aec import GameAECEnv
from gamenight.envs.parallel import TurnParallelEnv
from gamenight.envs.render import render_colorcity

DEFAULT_MAX_TURNS = 60


def env(**kwargs: Any) -> raw_env:
    return raw_env(**kwargs)


def parallel_env(**kwargs: Any) -> TurnParallelEnv:
    """The same game through PettingZoo's parallel API (gamenight.envs.parallel): both
    agents send an action each step, the pitcher's is played."""
    return TurnParallelEnv(raw_env(**kwargs))


CONTINUOUS_CHOICES = (False, True, "table", "normalized")


def continuous_option(value: bool | str) -> tuple[bool, bool]:
    """(continuous, normalized) for the ``continuous=`` option: ``False`` the grid,
    ``True`` or ``"table"`` the Box in the table's units, ``"normalized"`` every number in
    [−1, 1]. Raises ValueError for anything else."""
    if isinstance(value, bool):
        return value, False
    if value == "table":
        return True, False
    if value == "normalized":
        return True, True
    raise ValueError(f"continuous must be one of {CONTINUOUS_CHOICES}, not {value!r}")


def _table_bounds(table: Table) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    half = table.launch_half_width
    low = np.array([-half, -table.max_direction_deg, table.min_speed, -table.max_spin, 0.0])
    high = np.array([half, table.max_direction_deg, table.max_speed, table.max_spin, 1.0])
    return low, high


def continuous_action(
    table: Table,
    value: Any,
    phase: Phase,
    decisions: list[Decision],
    normalized: bool = False,
) -> Any:
    """The Shot or Decision a continuous action means (see the module's docstring). A
    normalized action's numbers map linearly from [−1, 1] onto the table's ranges (so a
    power of 0 or more uses the power)."""
    a = np.asarray(value, dtype=np.float64).reshape(5)
    low, high = _table_bounds(table)
    if normalized:
        a = low + (np.clip(a, -1.0, 1.0) + 1.0) / 2.0 * (high - low)
    if phase is Phase.POWER:
        return decisions[0] if a[4] >= 0.5 else Decision.PASS
    a = np.clip(a, low, high)
    return Shot(float(a[0]), float(a[1]), float(a[2]), float(a[3]))


def continuous_space(table: Table, normalized: bool = False) -> spaces.Box:
    if normalized:
        # Gymnasium and SB3 recommend a symmetric, normalised Box: a Gaussian policy's
        # initial spread then covers the whole range (0.1–3 m/s in m/s would not).
        return spaces.Box(-1.0, 1.0, (5,), np.float32)
    low, high = _table_bounds(table)
    return spaces.Box(low.astype(np.float32), high.astype(np.float32), dtype=np.float32)


class ColorCityParts:
    """What the Color City adapters share (this one and gamenight.envs.gym's ColorCityEnv)."""

    table: Table
    grid: codec.ShotGrid
    continuous: bool
    normalized: bool = False
    _move_key = "action"  # the info key of the last move

    def _mover(self, state: ColorCityState) -> int:
        pitcher = state.pitcher
        assert pitcher is not None
        return pitcher

    def _legal_actions(self, state: ColorCityState) -> list[int] | None:
        """The legal grid actions, or None where any (continuous) action is legal."""
        if self.continuous:
            return None
        return self.grid.legal_actions(state.phase, state.legal_decisions())

    def _decide(self, state: ColorCityState, action: Any) -> Shot | Decision:
        """The Shot or Decision a legal ``action`` means."""
        if self.continuous:
            return continuous_action(  # type: ignore[no-any-return]
                self.table, action, state.phase, state.legal_decisions(), self.normalized
            )
        return self.grid.action(int(action))

    def _push(self, state: ColorCityState, move: Shot | Decision) -> Pitch | Decision:
        done = state.push(move)
        state.clear_stack()  # nothing is taken back here; keeps memory flat
        return done

    def _end_info(self, outcome: Outcome) -> dict[str, Any]:
        return {"reason": outcome.reason}

    def _blank_info(self) -> dict[str, Any]:
        return {self._move_key: "", "reason": ""}

    def _render(self, state: ColorCityState, mode: str) -> Any:
        return render_colorcity(state, self.table, mode)


class raw_env(ColorCityParts, GameAECEnv[ColorCityState]):  # noqa: N801 — PettingZoo's naming
    metadata: dict[str, Any] = {**GameAECEnv.metadata, "name": "colorcity_v0"}  # noqa: RUF012

    def __init__(
        self,
        skill: str = "normal",
        max_turns: int = DEFAULT_MAX_TURNS,
        continuous: bool | str = False,
        grid: codec.ShotGrid | None = None,
        table: Table | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__(render_mode)
        self.table = (table or DEFAULT_TABLE).with_(max_turns=max_turns)
        self.skill = Skill.parse(skill)
        self.continuous, self.normalized = continuous_option(continuous)
        self.grid = grid or codec.ShotGrid(self.table)
        size = codec.observation_size(self.table)
        obs = spaces.Box(0.0, 1.0, (size,), np.float32)

        def agent_spaces() -> tuple[spaces.Space[Any], spaces.Space[Any]]:
            if self.continuous:
                return (
                    spaces.Dict({"observation": obs}),
                    continuous_space(self.table, self.normalized),
                )
            mask = spaces.Box(0, 1, (self.grid.num_actions,), np.int8)
            return (
                spaces.Dict({"observation": obs, "action_mask": mask}),
                spaces.Discrete(self.grid.num_actions),
            )

        self._set_agents(2, agent_spaces)  # seat 0 Green, seat 1 Purple

    def _new_state(self, seed: int) -> ColorCityState:
        seats = [SeatSetup(skill=self.skill.value)] * 2  # seat 0 Green, seat 1 Purple
        state: ColorCityState = registry["colorcity"].new(seats, self.table, seed)
        return state

    def observe(self, agent: str) -> dict[str, Any]:
        state = self.state
        assert state is not None
        seat = self._seat_of[agent]
        out: dict[str, Any] = {"observation": codec.encode(state.view(seat), self.table.max_turns)}
        if not self.continuous:
            if state.pitcher == seat:
                out["action_mask"] = self.grid.mask(state.phase, state.legal_decisions())
            else:
                out["action_mask"] = np.zeros(self.grid.num_actions, dtype=np.int8)
        return out

    def _apply(self, state: ColorCityState, action: Any) -> dict[str, Any] | None:
        legal = self._legal_actions(state)
        if legal is not None and int(action) not in legal:
            raise ValueError(f"action {int(action)} is not legal in the {state.phase} phase")
        done = self._push(state, self._decide(state, action))
        return {self._move_key: str(done)}
