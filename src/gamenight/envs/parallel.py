"""PettingZoo's parallel API for gamenight's turn-based games.

Every step each live agent sends an action and only the mover's is played: the others' are
ignored (their ``action_mask`` is all zeros, so a masked policy has nothing to choose). This
is how a turn-based game fits the parallel API without PettingZoo's ``aec_to_parallel``,
which needs agents that step in a fixed cycle — here an agent keeps the turn for several
steps (a Centrix play's decisions, a Color City power decision). The game, its seeding,
observations, rewards and infos are the AEC environment's own, step for step.
"""

from __future__ import annotations

from typing import Any

import gymnasium
from pettingzoo import ParallelEnv

from gamenight.envs.aec import GameAECEnv


class TurnParallelEnv(ParallelEnv):  # type: ignore[misc]
    """A parallel environment over one of gamenight's AEC environments."""

    def __init__(self, aec: GameAECEnv[Any]) -> None:
        self.aec = aec
        self.metadata = {**aec.metadata, "is_parallelizable": True}
        self.possible_agents = aec.possible_agents[:]
        self.agents: list[str] = []
        self.render_mode = aec.render_mode

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.aec.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = self.aec.agents[:]
        return self._observations(), self._infos()

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, Any],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        if not self.agents:
            raise RuntimeError("call reset() first: the game is over")
        mover = self.aec.agent_selection
        if mover not in actions:
            raise ValueError(f"{mover} is to move, but its action is missing")
        self.aec.step(actions[mover])
        observations, infos = self._observations(), self._infos()
        rewards = {a: float(self.aec.rewards[a]) for a in self.agents}
        terminations = {a: bool(self.aec.terminations[a]) for a in self.agents}
        truncations = {a: bool(self.aec.truncations[a]) for a in self.agents}
        if all(terminations[a] or truncations[a] for a in self.agents):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, Any]:
        return {a: self.aec.observe(a) for a in self.agents}

    def _infos(self) -> dict[str, dict[str, Any]]:
        # Copies: a vector wrapper adds its own keys (SuperSuit's terminal_observation).
        return {a: dict(self.aec.infos[a]) for a in self.agents}

    def render(self) -> Any:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()
