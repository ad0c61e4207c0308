"""Options whose errors must name the option they came from."""

from __future__ import annotations

from gamenight.bots.registry import GameBots
from gamenight.core.errors import NotationError


def check_bot(bots: GameBots, spec: str, option: str = "--bot") -> None:
    """Refuse a bad bot spec before any question or game, naming ``option``."""
    try:
        bots.bot(spec)
    except NotationError as exc:
        raise NotationError(f"{option}: {exc}") from None
