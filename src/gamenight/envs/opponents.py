"""gamenight's bots as opponents inside the single-agent environments.

An opponent is a function ``(state, seat) -> action``; it is given only what the seat's bot
may see (the bots take a view). Bots come from the registry, ``game_bots(game).bot(spec,
seed)``, by spec or level (``level2``, ``greedy``, ``ismcts:60it``).

Color City's bots are being written separately; while the registry has no ``colorcity``
entry, :func:`colorcity_opponent` falls back to the engine's own ``SimpleBot``
(gamenight.colorcity.bot: aims at the square that best extends its lines, one
physics-corrected speed, always uses its power when useful) whatever the level asked for,
and says so in :attr:`Opponent.name`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gamenight.bots.registry import game_bots
from gamenight.core.errors import NotationError


@dataclass(frozen=True)
class Opponent:
    name: str
    act: Callable[[Any, int], Any]


def centrix_opponent(spec: str, seed: int | None) -> Opponent:
    bot = game_bots("centrix").bot(spec, seed)
    return Opponent(f"centrix {spec}", lambda state, seat: bot.choose(state.view(seat)))


def colorcity_opponent(spec: str, seed: int | None) -> Opponent:
    try:
        bots = game_bots("colorcity")
    except NotationError:
        from gamenight.colorcity.bot import SimpleBot

        simple = SimpleBot(seed)
        return Opponent(
            "colorcity SimpleBot (no colorcity registry yet)", lambda s, _: simple.act(s)
        )
    bot = bots.bot(spec, seed)
    return Opponent(f"colorcity {spec}", lambda state, seat: bot.choose(state.view(seat)))
