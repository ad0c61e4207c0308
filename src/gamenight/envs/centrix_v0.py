"""Centrix as a PettingZoo AEC environment.

>>> from gamenight.envs import centrix_v0
>>> env = centrix_v0.env(num_players=3, render_mode="ansi")
>>> env.reset(seed=1)
>>> obs, reward, termination, truncation, info = env.last()
>>> sorted(obs)
['action_mask', 'observation']

Agents are ``player_0`` … ``player_{n-1}`` (seat order; ``player_0`` starts). A card play is
up to four consecutive steps of the same agent (card, rotation, from, to) over one flat
``Discrete(234)`` space; the encoding and the observation tensor are in docs/envs.md
(gamenight.envs.centrix_codec). Each agent observes only its seat's view; the mask is zero
for agents not to move. Rewards come at the end, by place: (agents behind − agents ahead) /
(n − 1). The rules' turn cap (``max_turns``, default 200, or the ``rules``' own) ends the game
as a rule of the game, so it is a termination, not a truncation.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from gamenight.centrix.plays import Play
from gamenight.centrix.rules import Rules
from gamenight.centrix.state import CentrixState
from gamenight.core.game import registry
from gamenight.core.outcome import Outcome
from gamenight.envs import centrix_codec as codec
from gamenight.envs.aec import GameAECEnv
from gamenight.envs.parallel import TurnParallelEnv
from gamenight.envs.render import render_centrix

DEFAULT_MAX_TURNS = 200


def env(**kwargs: Any) -> raw_env:
    """The environment (no wrappers: the mask already rules out illegal actions, and an
    illegal action raises ValueError naming it)."""
    return raw_env(**kwargs)


def parallel_env(**kwargs: Any) -> TurnParallelEnv:
    """The same game through PettingZoo's parallel API (gamenight.envs.parallel): every
    agent sends an action each step, the mover's is played."""
    return TurnParallelEnv(raw_env(**kwargs))


class CentrixParts:
    """What the Centrix adapters share (this one and gamenight.envs.gym's CentrixEnv)."""

    _builder: codec.PlayBuilder
    num_players: int
    _move_key = "play"  # the info key of the last move

    def _decide(self, state: CentrixState, action: Any) -> Play | None:
        """Add one decision to the play being built; the whole play once it is complete."""
        play = self._builder.choose_in(state, int(action))
        if play is not None:
            self._builder.reset()
        return play

    def _decide_legal(self, state: CentrixState, action: int) -> Play | None:
        """``_decide`` for an action known to be legal (no check of it)."""
        play = self._builder.extend_in(state, action)
        if play is not None:
            self._builder.reset()
        return play

    def _mover(self, state: CentrixState) -> int:
        seat = state.actor
        assert seat is not None
        return seat

    def _push(self, state: CentrixState, play: Play) -> None:
        # The adapters only complete legal plays, and take none back: no record to keep
        # (advance, as the random opponents' turns make theirs), so memory stays flat.
        state.advance(play)

    def _end_info(self, outcome: Outcome) -> dict[str, Any]:
        return {"places": list(outcome.places), "reason": outcome.reason}

    def _blank_info(self) -> dict[str, Any]:
        # places: 0 for every seat while the game goes on (places count from 1)
        return {self._move_key: "", "places": [0] * self.num_players, "reason": ""}

    def _render(self, state: CentrixState, mode: str) -> Any:
        return render_centrix(state, mode)


class raw_env(CentrixParts, GameAECEnv[CentrixState]):  # noqa: N801 — PettingZoo's naming
    metadata: dict[str, Any] = {**GameAECEnv.metadata, "name": "centrix_v0"}  # noqa: RUF012

    def __init__(
        self,
        num_players: int = 2,
        rules: Rules | dict[str, Any] | None = None,
        max_turns: int = DEFAULT_MAX_TURNS,
        render_mode: str | None = None,
    ) -> None:
        super().__init__(render_mode)
        rules = rules if isinstance(rules, Rules) else Rules.from_dict(rules or {})
        if rules.max_turns is None:
            rules = rules.with_(max_turns=max_turns)
        registry["centrix"].new(num_players, rules, 0)  # checks the player count and rules
        self.rules = rules
        self.num_players = num_players
        size = codec.observation_size(num_players)
        self._set_agents(
            num_players,
            lambda: (
                spaces.Dict(
                    {
                        "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                        "action_mask": spaces.Box(0, 1, (codec.NUM_ACTIONS,), np.int8),
                    }
                ),
                spaces.Discrete(codec.NUM_ACTIONS),
            ),
        )
        self._builder = codec.PlayBuilder()

    def _new_state(self, seed: int) -> CentrixState:
        self._builder.reset()
        state: CentrixState = registry["centrix"].new(self.num_players, self.rules, seed)
        return state

    def observe(self, agent: str) -> dict[str, Any]:
        state = self.state
        assert state is not None
        seat = self._seat_of[agent]
        observation = codec.encode(state.view(seat), self._builder.prefix)
        mask = np.zeros(codec.NUM_ACTIONS, dtype=np.int8)
        if state.actor == seat:
            mask = self._builder.mask_in(state)
        return {"observation": observation, "action_mask": mask}

    def _apply(self, state: CentrixState, action: Any) -> dict[str, Any] | None:
        play = self._decide(state, action)
        if play is None:
            return None  # a decision short of a whole play: the game has not moved
        self._push(state, play)
        return {self._move_key: str(play)}
