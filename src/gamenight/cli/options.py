"""Options whose errors must name the option they came from."""

from __future__ import annotations

from typing import Any

from gamenight.bots.registry import GameBots
from gamenight.core.errors import NotationError


def check_bot(bots: GameBots, spec: str, option: str = "--bot") -> Any:
    """The bot ``spec`` names; a bad spec is refused before any question or game, naming
    ``option``."""
    try:
        return bots.bot(spec)
    except NotationError as exc:
        raise NotationError(f"{option}: {exc}") from None
