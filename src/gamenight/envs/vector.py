"""Many Centrix games stepped at once, through Gymnasium's vector API.

>>> from gamenight.envs.vector import CentrixVectorEnv
>>> envs = CentrixVectorEnv(8, opponents="random")
>>> observations, infos = envs.reset(seed=0)
>>> observations.shape, infos["action_mask"].shape
((8, 807), (8, 234))

Game ``i`` is ``gamenight/Centrix-v0`` (:class:`gamenight.envs.gym.CentrixEnv`, the same
options) seeded as ``gymnasium.make_vec(..., vectorization_mode="sync")`` seeds it, with the
same next-step autoreset: a step after a game ended ignores that game's action and returns
its new game's first observation, reward 0. So on the same seeds and actions it gives the
same observations, masks, rewards and terminations as ``make_vec``
(tests/envs/test_vector.py).
Observations and masks are one numpy array each, ``(num_envs, size)`` float32 and
``(num_envs, 234)`` int8, written in place by the compiled core for every game at once
(``_speedups.encode_batch``) where it is built, else by the Python codec; the infos hold
``action_mask`` and nothing else.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from gamenight.centrix import native
from gamenight.envs import centrix_codec
from gamenight.envs.gym import CentrixEnv


class CentrixVectorEnv(VectorEnv[npt.NDArray[np.float32], npt.NDArray[np.int64], Any]):
    """``num_envs`` games of ``gamenight/Centrix-v0``; ``kwargs`` are CentrixEnv's."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(self, num_envs: int, **kwargs: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number ≥ 1, not {num_envs!r}")
        if kwargs.get("render_mode") is not None:
            raise ValueError("the batched env does not render: use gamenight/Centrix-v0")
        first = CentrixEnv(**kwargs)
        # The others share its rules object (equal anyway, the turn cap in it): the
        # compiled encoder checks that the games' rules agree, by identity first.
        same_rules = {**kwargs, "rules": first.rules}
        self.envs = [first, *(CentrixEnv(**same_rules) for _ in range(num_envs - 1))]
        self.num_envs = num_envs
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(first.observation_space, num_envs)
        self.action_space = batch_space(first.action_space, num_envs)
        size = centrix_codec.observation_size(first.num_players)
        self.observations = np.zeros((num_envs, size), np.float32)
        self.masks = np.zeros((num_envs, centrix_codec.NUM_ACTIONS), np.int8)
        self.rewards = np.zeros(num_envs, np.float64)
        self.terminations = np.zeros(num_envs, np.bool_)
        self.truncations = np.zeros(num_envs, np.bool_)
        self._ended = np.zeros(num_envs, np.bool_)

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]  # as SyncVectorEnv seeds
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"{len(seeds)} seeds for {self.num_envs} games")
        for env, s in zip(self.envs, seeds, strict=True):
            env.begin(s)
        self._ended[:] = False
        self._encode()
        return self.observations.copy(), {"action_mask": self.masks.copy()}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), not {chosen.shape}")
        # The masks encoded last step are each game's legal actions now: a game whose action
        # is among them skips the env's checks; any other action takes the env's own path
        # (its error, its illegal_action rule).
        legal, values = [False] * self.num_envs, [0] * self.num_envs
        if chosen.dtype.kind in "iu":
            values = chosen.tolist()
            inside = (chosen >= 0) & (chosen < self.masks.shape[1])
            picked = self.masks[np.arange(self.num_envs), np.where(inside, chosen, 0)]
            legal = (inside & (picked != 0)).tolist()
        ended = self._ended.tolist()
        rewards, terminations = [0.0] * self.num_envs, [False] * self.num_envs
        for i, env in enumerate(self.envs):
            if ended[i]:  # next-step autoreset: this step starts the next game
                env.begin()
            elif legal[i]:
                rewards[i], terminations[i] = env.advance_legal(values[i])
            else:
                rewards[i], terminations[i], _ = env.advance(chosen[i])
        self.rewards[:] = rewards
        self.terminations[:] = terminations
        self._ended[:] = self.terminations
        self._encode()
        return (
            self.observations.copy(),
            self.rewards.copy(),
            self.terminations.copy(),
            self.truncations.copy(),
            {"action_mask": self.masks.copy()},
        )

    def _encode(self) -> None:
        games = []
        for env in self.envs:
            assert env.state is not None
            games.append((env.state, env.seat, env._builder.prefix))
        if native.encode_batch(games, self.observations, self.masks):
            return
        for i, env in enumerate(self.envs):
            state = env.state
            assert state is not None
            centrix_codec.encode(state.view(env.seat), env._builder.prefix, self.observations[i])
            self.masks[i] = env.action_masks()
