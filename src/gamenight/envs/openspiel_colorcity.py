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
from functools import lru_cache
from typing import Any

import pyspiel

from gamenight.colorcity.actions import Decision, Pitch
from gamenight.colorcity.physics import Pose
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
from gamenight.colorcity.table import DEFAULT_TABLE, Gang, Table
from gamenight.core.game import SeatSetup, registry
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
_DEFAULTS: dict[str, Any] = {
    "players": 2,
    "skill": "exact",
    "max_turns": DEFAULT_MAX_TURNS,
    "grid": "full",
    "noise_points": 27,
}

_NODES = ((-math.sqrt(3.0), 1 / 6), (0.0, 2 / 3), (math.sqrt(3.0), 1 / 6))
NoiseGrid = tuple[tuple[tuple[float, float, float], float], ...]
NOISE_GRID: NoiseGrid = tuple(
    ((a[0], b[0], c[0]), a[1] * b[1] * c[1]) for a, b, c in itertools.product(_NODES, repeat=3)
)
# The tiny variants' noise (D23): one 3-point draw z shared by the three dimensions, so each
# dimension keeps its normal's mean, variance and kurtosis; only their independence is lost.
NOISE_LINE: NoiseGrid = tuple(((z, z, z), p) for z, p in _NODES)
NOISE_CHOICES = {27: NOISE_GRID, 3: NOISE_LINE}


def coarse_grid(table: Table) -> codec.ShotGrid:
    """The tiny variants' 9 shots (D23): straight and spin-free, from the centre line or
    two squares either side of it, aimed at city rows 3, 5 and 7."""
    square = table.square_mm
    return codec.ShotGrid(
        table,
        directions=(0.0,),
        spins=(0.0,),
        positions=(-2 * square, 0.0, 2 * square),
        rows=(2, 4, 6),
    )


GRID_CHOICES = {"full": codec.ShotGrid, "coarse": coarse_grid}


@lru_cache(maxsize=4096)
def _pose(table: Table, gang: Gang, shot: Shot) -> Pose:
    """Where an executed shot stops. A flick depends on nothing but the table, the gang and
    the shot (the city's colours do not touch the cube), so search and exact methods, which
    play the same shot from many positions, simulate it once."""
    return flick(table, gang, shot).pose


GAME_TYPE = game_type(
    SHORT_NAME,
    "gamenight Color City",
    pyspiel.GameType.Information.PERFECT_INFORMATION,
    (2, 4),
    _DEFAULTS,
)


def noise_of(outcome: int, skill: Skill, noise: NoiseGrid = NOISE_GRID) -> Noise:
    z, _ = noise[outcome]
    return noise_from(SIGMAS[skill], z)


def _choice(params: dict[str, Any], name: str, choices: dict[Any, Any]) -> Any:
    value = params[name]
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(str, choices))}, not {value!r}")
    return choices[value]


class ColorCityGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        self.num_seats = int(params["players"])
        if self.num_seats not in (2, 4):
            raise ValueError("python_gamenight_colorcity is for 2 or 4 players")
        self.skill = Skill.parse(str(params["skill"]))
        self.max_turns = int(params["max_turns"])
        self.table = DEFAULT_TABLE.with_(max_turns=self.max_turns)
        self.grid: codec.ShotGrid = _choice(params, "grid", GRID_CHOICES)(self.table)
        self.noise: NoiseGrid = _choice(params, "noise_points", NOISE_CHOICES)
        # Per turn: a shot, a power decision, Lucky Day's second shot, and a noise draw for
        # each shot.
        per_turn = 3 + (2 if self.skill is not Skill.EXACT else 0)
        info = game_info(
            self.grid.num_actions, len(self.noise), self.num_seats, per_turn * self.max_turns
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> ColorCityGameState:
        return ColorCityGameState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ColorCityObserver:
        check_observer_params(params)
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return ColorCityObserver(self, perfect_recall)


class ColorCityGameState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: ColorCityGame) -> None:
        super().__init__(game)
        self._skill = game.skill
        self._grid = game.grid
        self._noise = game.noise
        # The engine's hands are exact: the adapter adds the noise as chance outcomes.
        seats = [SeatSetup(skill=Skill.EXACT.value)] * game.num_seats  # gang i mod 2
        self.engine: ColorCityState = registry["colorcity"].new(seats, game.table, 0)
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
        return [(i, p) for i, (_, p) in enumerate(self._noise)]

    def _pitch(self, shot: Shot, noise: Noise) -> None:
        """Push ``shot`` as a recorded pitch of the exact hand that landed where the shot
        with ``noise`` stops."""
        engine = self.engine
        gang = engine.to_move
        assert gang is not None
        pose = _pose(engine.table, gang, executed(shot.check(engine.table), noise))
        exact, _ = draw_noise(engine.key, Skill.EXACT)
        engine.push(Pitch(shot, exact, pose))

    def _apply_action(self, action: int) -> None:
        engine = self.engine
        if self._shot is not None:
            shot, self._shot = self._shot, None
            self._pitch(shot, noise_of(action, self._skill, self._noise))
        else:
            move = self._grid.action(action)
            if isinstance(move, Decision):
                engine.push(move)
            elif self._skill is Skill.EXACT:
                self._pitch(move, Noise(0.0, 1.0, 0.0))
            else:
                self._shot = move
                return
        # Nothing is taken back, and the trajectory is for display: keep clones cheap.
        engine.clear_stack()
        engine.last_flick = None

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            (zd, zs, zw), _ = self._noise[action]
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
    """Everything on the table, from the observing seat's gang (its squares first). The
    information state's string (``perfect_recall``) ends with the history, every action and
    chance outcome so far — in a perfect-information game that is what a player remembers,
    and two histories that reach the same table stay apart, as CFR needs; its tensor is the
    table's (Markov), a fixed size whatever the game's length."""

    def __init__(self, game: ColorCityGame, perfect_recall: bool = False) -> None:
        super().__init__(codec.observation_size(game.table))
        self.max_turns = game.max_turns
        self.perfect_recall = perfect_recall

    def set_from(self, state: ColorCityGameState, player: int) -> None:
        codec.encode(state.engine.view(player), self.max_turns, self.tensor)

    def string_from(self, state: ColorCityGameState, player: int) -> str:
        fields = state.engine.position().split(" ")
        del fields[7]  # the generator's key: unused here, the noise is chance
        text = f"seat {player} " + " ".join(fields)
        if state._shot is not None:
            text += f" | shot {state._shot}"
        if self.perfect_recall:
            text += " | history " + " ".join(map(str, state.history()))
        return text


pyspiel.register_game(GAME_TYPE, ColorCityGame)
