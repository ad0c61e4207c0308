"""Outside policies as bot entries: ``py:module:callable`` and ``sb3:path.zip``.

Their prefixes cannot be confused with a bot spec (``ismcts:0.25s``, ``level3``): no bot
is named ``py`` or ``sb3``, and the prefix is read before any bot name.

- ``py:package.module:name`` — ``name`` in that module (imported by name, so it must be on
  ``sys.path``) is a callable from a seat's view to its action, or an object with
  ``choose(view)`` as gamenight's bots have.
- ``sb3:path/to/policy.zip`` — a stable-baselines3 (sb3-contrib MaskablePPO, or PPO) policy
  saved from one of the Gymnasium environments; ``gamenight.envs.policies.sb3_policy``
  turns it into a callable of a view (it needs the ``train`` extra).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from gamenight.core.errors import NotationError

PREFIXES = ("py", "sb3")
# The SB3 reader lives with the encodings it needs (gamenight.envs), above this layer: it
# is named here, as a user's own policy is, and imported only when a spec asks for it.
SB3_READER = "gamenight.envs.policies:sb3_policy"


def is_outside(spec: str) -> bool:
    """Whether ``spec`` names an outside policy rather than one of gamenight's bots."""
    prefix, colon, _ = spec.strip().partition(":")
    return bool(colon) and prefix in PREFIXES


class PolicyBot:
    """A callable from a view to an action, seen as a bot."""

    def __init__(self, name: str, policy: Callable[[Any], Any]) -> None:
        self.name = name
        self.policy = policy

    def choose(self, view: Any) -> Any:
        return self.policy(view)

    def __repr__(self) -> str:
        return f"PolicyBot({self.name})"


def load_callable(target: str) -> Any:
    """The object ``module:name`` names; raises NotationError naming what is missing."""
    module_name, colon, attribute = target.rpartition(":")
    if not colon or not module_name or not attribute:
        raise NotationError(f"{target!r} is not module:name (e.g. mypackage.policies:act)")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise NotationError(f"cannot import {module_name!r}: {exc}") from None
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise NotationError(f"module {module_name!r} has no {attribute!r}") from None


def outside_bot(game: str, spec: str, seed: int | None) -> PolicyBot:
    """The bot an outside policy spec (``py:…`` or ``sb3:…``) names for ``game``."""
    prefix, _, rest = spec.strip().partition(":")
    if prefix == "py":
        target = load_callable(rest)
        policy = getattr(target, "choose", target)
        if not callable(policy):
            raise NotationError(f"{spec!r} is neither callable nor has choose(view)")
        return PolicyBot(spec, policy)
    if not rest:
        raise NotationError(f"{spec!r}: give the saved policy's path, e.g. sb3:ppo.zip")
    reader = load_callable(SB3_READER)
    return PolicyBot(spec, reader(game, rest, seed))
