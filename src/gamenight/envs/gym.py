"""Single-agent Gymnasium environments: the agent plays one seat, gamenight's bots the others.

>>> import gymnasium
>>> import gamenight.envs.gym
>>> env = gymnasium.make("gamenight/Centrix-v0", opponents="level2")
>>> obs, info = env.reset(seed=0)
>>> info["action_mask"].shape
(234,)

- ``gamenight/Centrix-v0`` (:class:`CentrixEnv`): ``Discrete(234)`` decisions (card, rotation,
  from, to) and the observation tensor of gamenight.envs.centrix_codec;
- ``gamenight/ColorCity-v0`` (:class:`ColorCityEnv`): the 1218 grid actions, or
  ``continuous=True`` for the 5-number Box (gamenight.envs.colorcity_v0).

Observations are the flat tensors (``Box``); the legal actions are ``info["action_mask"]``
and ``env.action_masks()`` (the convention of maskable policies). An illegal action either
loses the game at once (``illegal_action="lose"``, the default: reward −1, terminated,
``info["illegal_action"]``) or is replaced by a uniformly random legal one
(``illegal_action="random"``). Rewards come at the end: the place-based return of the agent's
seat (+1 win, −1 loss with two players). The opponents are bots given as a spec or level,
each seeded from the environment's generator, so ``reset(seed=…)`` fixes the whole episode.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from gamenight.centrix.rules import Rules
from gamenight.centrix.state import CentrixState
from gamenight.centrix.text import render_plain as centrix_text
from gamenight.colorcity.actions import Decision
from gamenight.colorcity.coverage import covered_squares
from gamenight.colorcity.shots import Shot, Skill
from gamenight.colorcity.state import ColorCityState
from gamenight.colorcity.table import DEFAULT_TABLE, Gang, Table
from gamenight.colorcity.text import render_plain as colorcity_text
from gamenight.envs import centrix_codec, colorcity_codec
from gamenight.envs.colorcity_v0 import continuous_action, continuous_space
from gamenight.envs.common import place_returns
from gamenight.envs.opponents import Opponent, centrix_opponent, colorcity_opponent
from gamenight.envs.render import centrix_frame, colorcity_frame

ILLEGAL_CHOICES = ("lose", "random")


def _seed(rng: np.random.Generator) -> int:
    return int(rng.integers(2**62))


class CentrixEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        num_players: int = 2,
        opponents: str | list[str] = "level2",
        seat: int = 0,
        rules: Rules | dict[str, Any] | None = None,
        max_turns: int = 200,
        illegal_action: str = "lose",
        render_mode: str | None = None,
    ) -> None:
        rules = rules if isinstance(rules, Rules) else Rules.from_dict(rules or {})
        self.rules = rules if rules.max_turns is not None else rules.with_(max_turns=max_turns)
        CentrixState.new(num_players, seed=0, rules=self.rules)  # checks the player count
        if not 0 <= seat < num_players:
            raise ValueError(f"seat must be 0–{num_players - 1}")
        if illegal_action not in ILLEGAL_CHOICES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_CHOICES}")
        specs = [opponents] * (num_players - 1) if isinstance(opponents, str) else opponents
        if len(specs) != num_players - 1:
            raise ValueError(f"{num_players} players need {num_players - 1} opponent specs")
        for spec in specs:
            centrix_opponent(spec, 0)  # a bad spec fails here, not at reset
        self.num_players, self.seat, self.specs = num_players, seat, list(specs)
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        size = centrix_codec.observation_size(num_players)
        self.observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self.action_space = spaces.Discrete(centrix_codec.NUM_ACTIONS)
        self.state: CentrixState | None = None
        self._builder = centrix_codec.PlayBuilder()
        self._opponents: dict[int, Opponent] = {}
        self.plays_made = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        self.state = CentrixState.new(self.num_players, seed=_seed(rng), rules=self.rules)
        others = [s for s in range(self.num_players) if s != self.seat]
        self._opponents = {
            s: centrix_opponent(spec, _seed(rng))
            for s, spec in zip(others, self.specs, strict=True)
        }
        self._builder.reset()
        self.plays_made = 0  # plays of every seat this episode
        self._play_opponents()
        return self._observation(), self._info()

    def _play_opponents(self) -> None:
        state = self.state
        assert state is not None
        while not state.is_over and state._seat != self.seat:
            seat = state._seat
            state._push(self._opponents[seat].act(state, seat))
            state._stack.clear()
            self.plays_made += 1

    def _observation(self) -> npt.NDArray[np.float32]:
        assert self.state is not None
        return centrix_codec.encode(self.state.view(self.seat), self._builder.prefix)  # type: ignore[no-any-return]

    def action_masks(self) -> npt.NDArray[np.int8]:
        state = self.state
        assert state is not None
        if state.is_over:
            return np.zeros(centrix_codec.NUM_ACTIONS, dtype=np.int8)
        return self._builder.mask(state.legal_plays())

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), **extra}

    def step(
        self, action: np.int64 | int
    ) -> tuple[npt.NDArray[np.float32], SupportsFloat, bool, bool, dict[str, Any]]:
        state = self.state
        if state is None or state.is_over:
            raise RuntimeError("call reset() first: the episode is over")
        plays = state.legal_plays()
        legal = self._builder.legal_actions(plays)
        extra: dict[str, Any] = {}
        if int(action) not in legal:
            if self.illegal_action == "lose":
                return self._observation(), -1.0, True, False, self._info(illegal_action=True)
            extra["illegal_action"] = True
            action = int(self.np_random.choice(legal))
        play = self._builder.choose(plays, int(action))
        if play is not None:
            state._push(play)
            state._stack.clear()
            self.plays_made += 1
            self._builder.reset()
            self._play_opponents()
        reward = 0.0
        if state.is_over:
            outcome = state.outcome
            assert outcome is not None
            reward = place_returns(outcome.places)[self.seat]
            extra.update(places=list(outcome.places), reason=outcome.reason)
        return self._observation(), reward, state.is_over, False, self._info(**extra)

    def render(self) -> Any:
        if self.state is None or self.render_mode is None:
            return None
        spectator = self.state.view(None)
        if self.render_mode == "ansi":
            return centrix_text(spectator)
        return centrix_frame(spectator)


class ColorCityEnv(gymnasium.Env[npt.NDArray[np.float32], Any]):
    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        opponent: str = "level2",
        gang: str = "green",
        skill: str = "normal",
        opponent_skill: str | None = None,
        max_turns: int = 60,
        continuous: bool = False,
        table: Table | None = None,
        illegal_action: str = "lose",
        render_mode: str | None = None,
    ) -> None:
        if illegal_action not in ILLEGAL_CHOICES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_CHOICES}")
        self.table = (table or DEFAULT_TABLE).with_(max_turns=max_turns)
        self.gang = Gang.parse(gang)
        self.skills = (Skill.parse(skill), Skill.parse(opponent_skill or skill))
        self.opponent_spec = opponent
        colorcity_opponent(opponent, 0)  # a bad spec fails here, not at reset
        self.continuous = continuous
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.grid = colorcity_codec.ShotGrid(self.table)
        size = colorcity_codec.observation_size(self.table)
        self.observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self.action_space: spaces.Space[Any] = (
            continuous_space(self.table) if continuous else spaces.Discrete(self.grid.num_actions)
        )
        self.state: ColorCityState | None = None
        self.seat = int(self.gang)  # seat 0 is Green, seat 1 Purple
        self._opponent: Opponent | None = None
        self.plays_made = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        mine, theirs = self.skills
        seats = [(Gang.GREEN, mine), (Gang.PURPLE, theirs)]
        if self.gang is Gang.PURPLE:
            seats = [(Gang.GREEN, theirs), (Gang.PURPLE, mine)]
        self.state = ColorCityState.new(seed=_seed(rng), seats=seats, table=self.table)
        self._opponent = colorcity_opponent(self.opponent_spec, _seed(rng))
        self.plays_made = 0  # pitches and decisions of both seats this episode
        self._play_opponent()
        return self._observation(), self._info()

    def _play_opponent(self) -> None:
        state = self.state
        assert state is not None
        assert self._opponent is not None
        while not state.is_over and state.pitcher != self.seat:
            seat = state.pitcher
            assert seat is not None
            state.push(self._opponent.act(state, seat))
            state._stack.clear()
            self.plays_made += 1

    def _observation(self) -> npt.NDArray[np.float32]:
        assert self.state is not None
        return colorcity_codec.encode(self.state.view(self.seat), self.table.max_turns)  # type: ignore[no-any-return]

    def action_masks(self) -> npt.NDArray[np.int8]:
        state = self.state
        assert state is not None
        return self.grid.mask(state.phase, state.legal_decisions())

    def _info(self, **extra: Any) -> dict[str, Any]:
        if self.continuous:
            return extra
        return {"action_mask": self.action_masks(), **extra}

    def _decode(self, action: Any) -> tuple[Shot | Decision | None, dict[str, Any]]:
        state = self.state
        assert state is not None
        if self.continuous:
            return continuous_action(self.table, action, state.phase, state.legal_decisions()), {}
        legal = self.grid.legal_actions(state.phase, state.legal_decisions())
        if int(action) in legal:
            return self.grid.action(int(action)), {}
        if self.illegal_action == "lose":
            return None, {"illegal_action": True}
        return self.grid.action(int(self.np_random.choice(legal))), {"illegal_action": True}

    def step(
        self, action: Any
    ) -> tuple[npt.NDArray[np.float32], SupportsFloat, bool, bool, dict[str, Any]]:
        state = self.state
        if state is None or state.is_over:
            raise RuntimeError("call reset() first: the episode is over")
        move, extra = self._decode(action)
        if move is None:
            return self._observation(), -1.0, True, False, self._info(**extra)
        state.push(move)
        state._stack.clear()
        self.plays_made += 1
        self._play_opponent()
        reward = 0.0
        outcome = state.outcome
        if outcome is not None:
            reward = place_returns(outcome.places)[self.seat]
            extra.update(reason=outcome.reason)
        return self._observation(), reward, state.is_over, False, self._info(**extra)

    def render(self) -> Any:
        state = self.state
        if state is None or self.render_mode is None:
            return None
        if self.render_mode == "ansi":
            return colorcity_text(state)
        pending = () if state.pending is None else covered_squares(self.table, state.pending)
        return colorcity_frame(state.cells, self.table.city_size, pending)


gymnasium.register("gamenight/Centrix-v0", entry_point="gamenight.envs.gym:CentrixEnv")
gymnasium.register("gamenight/ColorCity-v0", entry_point="gamenight.envs.gym:ColorCityEnv")
