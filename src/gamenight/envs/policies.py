"""Saved stable-baselines3 policies as callables from a seat's view to its action, so that
a policy trained in ``gamenight/Centrix-v0`` or ``gamenight/ColorCity-v0`` plays in
tournaments (``--bots sb3:policy.zip``, gamenight.bots.outside) and anywhere a bot does.

The view is encoded exactly as the Gymnasium environment encodes the agent's observation,
and the mask is the environment's. Needs the ``train`` extra (sb3-contrib's MaskablePPO, or
stable-baselines3's PPO for a policy saved without masks). Decisions are the policy's most
likely action (deterministic), so the seed is not used.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from gamenight.centrix.state import CentrixView
from gamenight.colorcity.state import ColorCityView
from gamenight.core.errors import NotationError
from gamenight.envs import centrix_codec, colorcity_codec


@lru_cache(maxsize=8)
def load_model(path: str) -> tuple[Any, bool]:
    """The saved model at ``path`` and whether it takes masks (read once per process: a
    tournament builds its bots for every game); MaskablePPO first, then PPO."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import PPO

    torch.set_num_threads(1)  # a tournament runs one process per core
    if not Path(path).is_file():
        raise NotationError(f"sb3:{path}: there is no such file")
    errors = []
    for kind in (MaskablePPO, PPO):
        try:
            return kind.load(path, device="cpu"), kind is MaskablePPO
        except Exception as exc:  # each reader says why it cannot
            errors.append(f"{kind.__name__}: {exc}")
    reasons = "; ".join(errors)
    raise NotationError(f"sb3:{path} is not a saved MaskablePPO or PPO policy ({reasons})")


def _act(model: Any, masked: bool, observation: Any, mask: Any) -> int:
    if masked:
        action, _ = model.predict(observation, action_masks=mask, deterministic=True)
    else:  # an unmasked policy may choose an illegal action: the engine refuses it
        action, _ = model.predict(observation, deterministic=True)
    return int(action)


def sb3_policy(game: str, path: str, seed: int | None = None) -> Callable[[Any], Any]:
    """The policy saved at ``path`` for ``game`` as a callable of a view."""
    del seed  # deterministic decisions
    model, masked = load_model(path)
    size = int(np.prod(model.observation_space.shape))
    if game == "colorcity":

        def colorcity(view: ColorCityView) -> Any:
            grid = colorcity_codec.ShotGrid(view.table)
            observation = colorcity_codec.encode(view, view.table.max_turns)
            _check_size(observation, size, path)
            mask = grid.mask(view.phase, view.legal_decisions()).astype(bool)
            return grid.action(_act(model, masked, observation, mask))

        return colorcity
    if game == "centrix":

        def centrix(view: CentrixView) -> Any:
            builder = centrix_codec.PlayBuilder()
            # The mover's legal plays follow from its own hand and the board, which every
            # state consistent with its view shares.
            plays = view.sample(random.Random(0)).legal_plays()
            while True:  # a play is up to four decisions, as in the environment
                observation = centrix_codec.encode(view, builder.prefix)
                _check_size(observation, size, path)
                mask = builder.mask(plays).astype(bool)
                play = builder.choose(plays, _act(model, masked, observation, mask))
                if play is not None:
                    return play

        return centrix
    raise NotationError(f"sb3 policies play centrix or colorcity, not {game!r}")


def _check_size(observation: Any, size: int, path: str) -> None:
    if observation.size != size:
        raise NotationError(
            f"sb3:{path} reads observations of {size} numbers, this game gives"
            f" {observation.size} (another game or player count?)"
        )
