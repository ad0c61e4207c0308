"""Options whose errors must name the option they came from."""

from __future__ import annotations

from gamenight.bots.registry import GameBots
from gamenight.core.errors import NotationError


def check_bot(bots: GameBots, spec: str, option: str = "--bot") -> None:
    """Refuse a bad bot spec before any question or game, naming ``option``."""
    try:
        bots.bot(spec)
    except NotationError as exc:
        name = spec.strip().split(":")[0]
        if name.lower().startswith("level") or name in bots.bots:
            raise NotationError(f"{option}: {exc}") from None
        # The registry lists only the bots' names, but --help offers the levels first.
        levels = f"level{min(bots.levels)}–level{max(bots.levels)}" if bots.levels else ""
        choices = ", ".join([*([levels] if levels else []), *bots.bots])
        raise NotationError(
            f"{option}: no {bots.game} bot called {name!r}: choose from {choices}"
        ) from None
