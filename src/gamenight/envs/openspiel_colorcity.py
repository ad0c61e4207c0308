"""Color City as an OpenSpiel Python game: ``python_gamenight_colorcity``.

Perfect information. Actions are the shot grid and power decisions of
:class:`gamenight.envs.colorcity_codec.ShotGrid` (1218 actions). The physics is deterministic
given the hand's noise, so the noise is the only chance:

- ``skill="exact"`` (the default): no noise and no chance nodes — a deterministic game, the
  natural setting for search (and fast: one flick per shot);
- ``steady``, ``normal``, ``shaky``: after each shot a chance node draws the noise from a
  27-point grid, the product of a 3-point Gauss–Hermite rule per dimension (z = −√3, 0, +√3
  with probabilities 1/6, 2/3, 1/6, which matches a normal's mean, variance and kurtosis),
  scaled by the skill's σ (docs/rules/colorcity.md, D15).

Parameters: ``players`` (2 or 4; seat i plays gang i mod 2, a gang's seats taking its turns in
rotation), ``skill``, ``max_turns`` (the table's turn cap, default 30: the gang with more
squares wins). Returns: +1 / −1 by gang, 0 each for a draw (4 players: ±2/3, the place-based
returns of gamenight.envs.common).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import pyspiel

from gamenight.colorcity.actions import Decision, Pitch
from gamenight.colorcity.shots import (
    SIGMAS,
    Noise,
    Shot,
    Skill,
    draw_noise,
    executed,
    flick,
    noise_from,
)
from gamenight.colorcity.state import ColorCityState
from gamenight.colorcity.table import DEFAULT_TABLE, Gang
from gamenight.envs import colorcity_codec as codec
from gamenight.envs.openspiel_common import (
    TensorObserver,
    check_observer_params,
    game_info,
    game_type,
    outcome_returns,
)

SHORT_NAME = "python_gamenight_colorcity"
DEFAULT_MAX_TURNS = 30
_DEFAULTS: dict[str, Any] = {"players": 2, "skill": "exact", "max_turns": DEFAULT_MAX_TURNS}

_NODES = ((-math.sqrt(3.0), 1 / 6), (0.0, 2 / 3), (math.sqrt(3.0), 1 / 6))
NOISE_GRID: tuple[tuple[tuple[float, float, float], float], ...] = tuple(
    ((a[0], b[0], c[0]), a[1] * b[1] * c[1]) for a, b, c in itertools.product(_NODES, repeat=3)
)

GAME_TYPE = game_type(
    SHORT_NAME,
    "gamenight Color City",
    pyspiel.GameType.Information.PERFECT_INFORMATION,
    (2, 4),
    _DEFAULTS,
)


def noise_of(outcome: int, skill: Skill) -> Noise:
    z, _ = NOISE_GRID[outcome]
    return noise_from(SIGMAS[skill], z)


class ColorCityGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        self.num_seats = int(params["players"])
        if self.num_seats not in (2, 4):
            raise ValueError("python_gamenight_colorcity is for 2 or 4 players")
        self.skill = Skill.parse(str(params["skill"]))
        self.max_turns = int(params["max_turns"])
        self.table = DEFAULT_TABLE.with_(max_turns=self.max_turns)
        self.grid = codec.ShotGrid(self.table)
        # Per turn: a shot, a power decision, Lucky Day's second shot, and a noise draw for
        # each shot.
        per_turn = 3 + (2 if self.skill is not Skill.EXACT else 0)
        info = game_info(
            self.grid.num_actions, len(NOISE_GRID), self.num_seats, per_turn * self.max_turns
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> ColorCityGameState:
        return ColorCityGameState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ColorCityObserver:
        check_observer_params(params)
        return ColorCityObserver(self)


class ColorCityGameState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: ColorCityGame) -> None:
        super().__init__(game)
        self._skill = game.skill
        self._grid = game.grid
        # The engine's hands are exact: the adapter adds the noise as chance outcomes.
        self.engine = ColorCityState.new(
            seed=0,
            seats=[(Gang(i % 2), Skill.EXACT) for i in range(game.num_seats)],
            table=game.table,
        )
        self._shot: Shot | None = None  # a shot waiting for its noise

    def current_player(self) -> int:
        if self.engine.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._shot is not None:
            return int(pyspiel.PlayerId.CHANCE)
        pitcher = self.engine.pitcher
        assert pitcher is not None
        return pitcher

    def _legal_actions(self, player: int) -> list[int]:
        return self._grid.legal_actions(self.engine.phase, self.engine.legal_decisions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(i, p) for i, (_, p) in enumerate(NOISE_GRID)]

    def _apply_action(self, action: int) -> None:
        engine = self.engine
        if self._shot is not None:
            shot, self._shot = self._shot, None
            gang = engine.to_move
            assert gang is not None
            pose = flick(engine.table, gang, executed(shot, noise_of(action, self._skill))).pose
            exact, _ = draw_noise(engine.key, Skill.EXACT)
            engine.push(Pitch(shot, exact, pose))
        else:
            move = self._grid.action(action)
            if isinstance(move, Decision) or self._skill is Skill.EXACT:
                engine.push(move)
            else:
                self._shot = move
                return
        # Nothing is taken back, and the trajectory is for display: keep clones cheap.
        engine.clear_stack()
        engine.last_flick = None

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            (zd, zs, zw), _ = NOISE_GRID[action]
            return f"noise z=({zd:+.2f}, {zs:+.2f}, {zw:+.2f})"
        return self._grid.action_name(action)

    def is_terminal(self) -> bool:
        return self.engine.is_over

    def returns(self) -> list[float]:
        return outcome_returns(self.engine.outcome, len(self.engine.seats))

    def __str__(self) -> str:
        text = self.engine.position()
        return text if self._shot is None else f"{text} | shot {self._shot}"


class ColorCityObserver(TensorObserver):
    """Everything on the table, from the observing seat's gang (its squares first)."""

    def __init__(self, game: ColorCityGame) -> None:
        super().__init__(codec.observation_size(game.table))
        self.max_turns = game.max_turns

    def set_from(self, state: ColorCityGameState, player: int) -> None:
        codec.encode(state.engine.view(player), self.max_turns, self.tensor)

    def string_from(self, state: ColorCityGameState, player: int) -> str:
        fields = state.engine.position().split(" ")
        del fields[7]  # the generator's key: unused here, the noise is chance
        text = f"seat {player} " + " ".join(fields)
        return text if state._shot is None else f"{text} | shot {state._shot}"


pyspiel.register_game(GAME_TYPE, ColorCityGame)
