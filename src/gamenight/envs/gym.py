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
  ``continuous="normalized"`` for the 5-number Box in [−1, 1] (``True``: in the table's
  units; gamenight.envs.colorcity_v0).

Observations are the flat tensors (``Box``); the legal actions are ``info["action_mask"]``
and ``env.action_masks()`` (the convention of maskable policies). An illegal action either
loses the game at once (``illegal_action="lose"``, the default: reward −1, terminated,
``info["illegal_action"]``), is replaced by a uniformly random legal one
(``illegal_action="random"``) or raises ValueError naming it, the game untouched
(``illegal_action="raise"``). An action outside the action space (999 in Discrete(234))
raises ValueError in every mode: it is an agent's indexing bug, never a move. Rewards come
at the end: the place-based return of the agent's seat (+1 win, −1 loss with two players).
The opponents are bots given as a spec or level, each seeded from the environment's
generator, so ``reset(seed=…)`` fixes the whole episode.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, Generic, SupportsFloat, TypeVar

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from gamenight.centrix.rules import Rules
from gamenight.centrix.state import CentrixState
from gamenight.colorcity.shots import Skill
from gamenight.colorcity.state import ColorCityState
from gamenight.colorcity.table import DEFAULT_TABLE, Gang, Table
from gamenight.core.game import SeatSetup, registry
from gamenight.core.outcome import Outcome
from gamenight.envs import centrix_codec, colorcity_codec
from gamenight.envs.centrix_v0 import CentrixParts
from gamenight.envs.colorcity_v0 import ColorCityParts, continuous_option, continuous_space
from gamenight.envs.common import GameState, place_returns, seed_from
from gamenight.envs.opponents import Opponent, centrix_opponent, colorcity_opponent

ILLEGAL_CHOICES = ("lose", "random", "raise")

Observation = npt.NDArray[np.float32]
StateT = TypeVar("StateT", bound=GameState)
ActT = TypeVar("ActT")


def _check_illegal_action(illegal_action: str) -> None:
    if illegal_action not in ILLEGAL_CHOICES:
        raise ValueError(f"illegal_action must be one of {ILLEGAL_CHOICES}")


def _seat_option(seat: int | str, num_seats: int) -> int | None:
    """The agent's seat, or None for "random" (a new seat drawn every episode)."""
    if seat == "random":
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < num_seats:
        raise ValueError(f"seat must be 0–{num_seats - 1} or 'random', not {seat!r}")
    return seat


class _SeatEnv(gymnasium.Env[Observation, ActT], Generic[StateT, ActT]):
    """One seat against bots: the episode loop both games share. A game supplies its state,
    its opponents, its encoding and how an action becomes a move."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 2}  # noqa: RUF012

    seat: int
    fixed_seat: int | None  # None: the seat is drawn at every reset
    num_seats: int
    illegal_action: str
    render_mode: str | None
    continuous = False  # a continuous action space has no mask
    _move_key: str  # the info key of the agent's last move
    state: StateT | None = None
    plays_made = 0

    @abstractmethod
    def _new_episode(self, rng: np.random.Generator) -> StateT:
        """A new game and its opponents, all seeded from ``rng``."""

    @abstractmethod
    def _mover(self, state: StateT) -> int:
        """The seat to move in a game that is not over."""

    @abstractmethod
    def _opponent(self, seat: int) -> Opponent:
        """The bot that plays ``seat``."""

    @abstractmethod
    def _push(self, state: StateT, move: Any) -> object:
        """Make ``move`` (a bot's, or a whole one of the agent's); any result is unused."""

    @abstractmethod
    def _legal_actions(self, state: StateT) -> list[int] | None:
        """The agent's legal action ids, or None where any action is legal."""

    @abstractmethod
    def _decide(self, state: StateT, action: Any) -> Any:
        """The move a legal ``action`` completes, or None while it is incomplete."""

    def _decide_legal(self, state: StateT, action: int) -> Any:
        """``_decide`` for an action known to be legal: a game may skip its checks."""
        return self._decide(state, action)

    @abstractmethod
    def _observation(self) -> Observation:
        """The agent's observation tensor."""

    @abstractmethod
    def action_masks(self) -> npt.NDArray[np.int8]:
        """1 for each of the agent's legal actions."""

    @abstractmethod
    def _end_info(self, outcome: Outcome) -> dict[str, Any]:
        """What the last step's info gains when the game ends."""

    @abstractmethod
    def _blank_info(self) -> dict[str, Any]:
        """Every key of the game's infos, each empty (see _info)."""

    @abstractmethod
    def _render(self, state: StateT, mode: str) -> Any:
        """The frame or text of ``render()`` in ``mode``."""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        self.begin(seed)
        return self._observation(), self._info()

    def begin(self, seed: int | None = None) -> None:
        """``reset`` without its observation and info (the batched env encodes those for
        every game at once)."""
        super().reset(seed=seed)
        fixed = self.fixed_seat
        self.seat = int(self.np_random.integers(self.num_seats)) if fixed is None else fixed
        self.state = self._new_episode(self.np_random)
        self.plays_made = 0  # plays of every seat this episode
        self._play_opponents()

    def _play_opponents(self) -> None:
        state = self.state
        assert state is not None
        while not state.is_over and self._mover(state) != self.seat:
            seat = self._mover(state)
            opponent = self._opponent(seat)
            if opponent.turn is not None:
                self.plays_made += opponent.turn(state)
                continue
            self._push(state, opponent.act(state, seat))
            self.plays_made += 1

    def _info(self, **extra: Any) -> dict[str, Any]:
        # The same keys at every step, empty where nothing applies: a trainer that stacks
        # infos (tianshou's buffer) turns a key that comes and goes into NaNs.
        info = {**self._blank_info(), "illegal_action": False, **extra}
        if not self.continuous:
            info["action_mask"] = self.action_masks()
        return info

    def step(
        self, action: ActT | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        reward, terminated, extra = self.advance(action)
        return self._observation(), reward, terminated, False, self._info(**extra)

    def advance(self, action: ActT | int) -> tuple[float, bool, dict[str, Any]]:
        """``step`` without its observation and mask: (reward, terminated, the info's own
        entries)."""
        state = self.state
        if state is None or state.is_over:
            raise RuntimeError("call reset() first: the episode is over")
        legal = self._legal_actions(state)
        extra: dict[str, Any] = {}
        chosen: Any = action  # ActT is the space's type, not one int() is known to take
        if legal is not None and not self._in_space(chosen):
            # Never a move at all, in any mode: an agent's indexing bug, not a bad play.
            shown = np.asarray(action).tolist()  # 999, not np.int64(999)
            raise ValueError(f"action {shown!r} is outside {self.action_space}")
        if legal is not None and int(chosen) not in legal:
            if self.illegal_action == "raise":
                raise ValueError(
                    f"action {int(chosen)} is not legal here: the legal actions are {legal}"
                )
            if self.illegal_action == "lose":
                return -1.0, True, {"illegal_action": True}
            extra["illegal_action"] = True
            chosen = int(self.np_random.choice(legal))
        move = self._decide(state, chosen)
        if move is not None:
            extra[self._move_key] = str(move)
        reward = self._make(state, move)
        outcome = state.outcome
        if outcome is not None:
            extra.update(self._end_info(outcome))
        return reward, state.is_over, extra

    def advance_legal(self, action: int) -> tuple[float, bool]:
        """``advance`` for an action the caller knows to be legal in a game going on (the
        batched env reads it from the mask it encoded): no check, no info; (reward,
        terminated)."""
        state = self.state
        assert state is not None
        move = self._decide_legal(state, action)
        if move is None and self.render_mode is None:
            return 0.0, False  # a decision short of a move: nothing else happens (most steps)
        return self._make(state, move), state.is_over

    def _make(self, state: StateT, move: Any) -> float:
        """The rest of a step once its action is decided: the move, if whole, and the
        opponents' replies; the agent's reward."""
        if move is not None:
            self._push(state, move)
            self.plays_made += 1
            self._play_opponents()
        if self.render_mode == "human":
            self._render(state, "human")  # Gymnasium's convention: drawn every step
        outcome = state.outcome
        return 0.0 if outcome is None else place_returns(outcome.places)[self.seat]

    def _in_space(self, action: Any) -> bool:
        space = self.action_space
        if isinstance(space, spaces.Discrete) and type(action) in (int, np.int64):
            # Discrete.contains, without its dtype checks: every step asks this.
            return bool(space.start <= action < space.start + space.n)
        return space.contains(action)

    def render(self) -> Any:
        # "human" draws on standard output by itself at every step; render() then returns
        # None and draws nothing more (Gymnasium's convention), so that nothing that only
        # asks for a render — gymnasium's check_env tries every declared mode — prints.
        if self.state is None or self.render_mode in (None, "human"):
            return None
        return self._render(self.state, self.render_mode)


class CentrixEnv(CentrixParts, _SeatEnv[CentrixState, np.int64]):
    def __init__(
        self,
        num_players: int = 2,
        opponents: str | list[str] = "level2",
        seat: int | str = 0,
        rules: Rules | dict[str, Any] | None = None,
        max_turns: int = 200,
        illegal_action: str = "lose",
        render_mode: str | None = None,
    ) -> None:
        rules = rules if isinstance(rules, Rules) else Rules.from_dict(rules or {})
        self.rules = rules if rules.max_turns is not None else rules.with_(max_turns=max_turns)
        registry["centrix"].new(num_players, self.rules, 0)  # checks the player count and rules
        self.fixed_seat = _seat_option(seat, num_players)
        self.seat = self.fixed_seat or 0
        self.num_seats = num_players
        _check_illegal_action(illegal_action)
        specs = [opponents] * (num_players - 1) if isinstance(opponents, str) else opponents
        if len(specs) != num_players - 1:
            raise ValueError(f"{num_players} players need {num_players - 1} opponent specs")
        for spec in specs:
            centrix_opponent(spec, 0)  # a bad spec fails here, not at reset
        self.num_players, self.specs = num_players, list(specs)
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        size = centrix_codec.observation_size(num_players)
        self.observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self.action_space = spaces.Discrete(centrix_codec.NUM_ACTIONS)
        self._builder = centrix_codec.PlayBuilder()
        self._opponents: dict[int, Opponent] = {}

    def _new_episode(self, rng: np.random.Generator) -> CentrixState:
        state: CentrixState = registry["centrix"].new(self.num_players, self.rules, seed_from(rng))
        others = [s for s in range(self.num_players) if s != self.seat]
        self._opponents = {
            s: centrix_opponent(spec, seed_from(rng))
            for s, spec in zip(others, self.specs, strict=True)
        }
        self._builder.reset()
        return state

    def _opponent(self, seat: int) -> Opponent:
        return self._opponents[seat]

    def _legal_actions(self, state: CentrixState) -> list[int]:
        return self._builder.legal_actions_in(state)

    def _observation(self) -> Observation:
        assert self.state is not None
        return centrix_codec.encode(self.state.view(self.seat), self._builder.prefix)  # type: ignore[no-any-return]

    def action_masks(self) -> npt.NDArray[np.int8]:
        state = self.state
        assert state is not None
        if state.is_over:
            return np.zeros(centrix_codec.NUM_ACTIONS, dtype=np.int8)
        return self._builder.mask_in(state)


class ColorCityEnv(ColorCityParts, _SeatEnv[ColorCityState, Any]):
    def __init__(
        self,
        opponent: str = "level2",
        gang: str | None = None,
        skill: str = "normal",
        opponent_skill: str | None = None,
        max_turns: int = 60,
        continuous: bool | str = False,
        table: Table | None = None,
        illegal_action: str = "lose",
        render_mode: str | None = None,
        seat: int | str | None = None,
    ) -> None:
        _check_illegal_action(illegal_action)
        self.table = (table or DEFAULT_TABLE).with_(max_turns=max_turns)
        # Seat 0 is Green, who pitches first; seat 1 Purple. ``gang`` names a fixed seat.
        if gang is not None:
            by_gang = int(Gang.parse(gang))
            if seat is not None and seat != by_gang:
                raise ValueError(f"gang={gang!r} is seat {by_gang}, but seat={seat!r}")
            seat = by_gang
        self.fixed_seat = _seat_option(0 if seat is None else seat, 2)
        self.seat = self.fixed_seat or 0
        self.num_seats = 2
        self.skills = (Skill.parse(skill), Skill.parse(opponent_skill or skill))
        self.opponent_spec = opponent
        colorcity_opponent(opponent, 0)  # a bad spec fails here, not at reset
        self.continuous, self.normalized = continuous_option(continuous)
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.grid = colorcity_codec.ShotGrid(self.table)
        size = colorcity_codec.observation_size(self.table)
        self.observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self.action_space: spaces.Space[Any] = (
            continuous_space(self.table, self.normalized)
            if self.continuous
            else spaces.Discrete(self.grid.num_actions)
        )
        self._bot: Opponent | None = None

    def _new_episode(self, rng: np.random.Generator) -> ColorCityState:
        mine, theirs = self.skills
        # Seat i plays gang i: the agent's seat has its hand, the other the opponent's.
        skills = (mine, theirs) if self.seat == int(Gang.GREEN) else (theirs, mine)
        seats = [SeatSetup(skill=skill.value) for skill in skills]
        state: ColorCityState = registry["colorcity"].new(seats, self.table, seed_from(rng))
        self._bot = colorcity_opponent(self.opponent_spec, seed_from(rng))
        return state

    @property
    def gang(self) -> Gang:
        """The agent's gang this episode (seat 0 Green, seat 1 Purple)."""
        return Gang(self.seat)

    def _opponent(self, seat: int) -> Opponent:
        assert self._bot is not None
        return self._bot

    def _observation(self) -> Observation:
        assert self.state is not None
        return colorcity_codec.encode(self.state.view(self.seat), self.table.max_turns)  # type: ignore[no-any-return]

    def action_masks(self) -> npt.NDArray[np.int8]:
        state = self.state
        assert state is not None
        return self.grid.mask(state.phase, state.legal_decisions())


gymnasium.register("gamenight/Centrix-v0", entry_point="gamenight.envs.gym:CentrixEnv")
gymnasium.register("gamenight/ColorCity-v0", entry_point="gamenight.envs.gym:ColorCityEnv")
