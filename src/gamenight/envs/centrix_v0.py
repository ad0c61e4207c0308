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

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from gamenight.centrix.rules import Rules
from gamenight.centrix.state import CentrixState
from gamenight.centrix.text import render_plain
from gamenight.envs import centrix_codec as codec
from gamenight.envs.common import place_returns
from gamenight.envs.render import centrix_frame

DEFAULT_MAX_TURNS = 200


def env(**kwargs: Any) -> raw_env:
    """The environment (no wrappers: the mask already rules out illegal actions, and an
    illegal action raises ValueError naming it)."""
    return raw_env(**kwargs)


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801 — PettingZoo's naming
    metadata: dict[str, Any] = {  # noqa: RUF012 — PettingZoo reads it from the class
        "render_modes": ["ansi", "rgb_array"],
        "name": "centrix_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        num_players: int = 2,
        rules: Rules | dict[str, Any] | None = None,
        max_turns: int = DEFAULT_MAX_TURNS,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        rules = rules if isinstance(rules, Rules) else Rules.from_dict(rules or {})
        if rules.max_turns is None:
            rules = rules.with_(max_turns=max_turns)
        CentrixState.new(num_players, seed=0, rules=rules)  # checks the player count
        self.rules = rules
        self.num_players = num_players
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        size = codec.observation_size(num_players)
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (codec.NUM_ACTIONS,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces = {
            agent: spaces.Discrete(codec.NUM_ACTIONS) for agent in self.possible_agents
        }
        self.state: CentrixState | None = None
        self._builder = codec.PlayBuilder()
        self._np_random: np.random.Generator | None = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._action_spaces[agent]

    # ------------------------------------------------------------------ the game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random = np.random.default_rng(seed)
        game_seed = int(self._np_random.integers(2**62))
        self.state = CentrixState.new(self.num_players, seed=game_seed, rules=self.rules)
        self._builder.reset()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state._seat]

    def observe(self, agent: str) -> dict[str, Any]:
        state = self.state
        assert state is not None
        seat = self._seat[agent]
        observation = codec.encode(state.view(seat), self._builder.prefix)
        mask = np.zeros(codec.NUM_ACTIONS, dtype=np.int8)
        if not state.is_over and state._seat == seat:
            mask = self._builder.mask(state.legal_plays())
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        play = self._builder.choose(state.legal_plays(), int(action))
        if play is not None:
            state._push(play)  # the builder only completes legal plays
            state._stack.clear()  # nothing is taken back here; keeps memory flat
            self._builder.reset()
            self.infos[agent] = {"play": str(play)}
        if state.is_over:
            outcome = state.outcome
            assert outcome is not None
            for seat, value in enumerate(place_returns(outcome.places)):
                self.rewards[self.possible_agents[seat]] = value
            self.terminations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a] = {**self.infos[a], "places": list(outcome.places)}
            self.infos[agent]["reason"] = outcome.reason
            for a in self.agents:
                self.infos[a]["reason"] = outcome.reason
        else:
            self.agent_selection = self.possible_agents[state._seat]
        self._accumulate_rewards()

    def render(self) -> Any:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode= to env()")
            return None
        state = self.state
        assert state is not None
        spectator = state.view(None)  # a spectator sees no hand: nothing hidden leaks out
        if self.render_mode == "ansi":
            return render_plain(spectator)
        return centrix_frame(spectator)

    def close(self) -> None:
        self.state = None
