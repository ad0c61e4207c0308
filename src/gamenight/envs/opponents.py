"""gamenight's bots as opponents inside the single-agent environments.

An opponent is a function ``(state, seat) -> action``; it is given only what the seat's bot
may see (the bots take a view). Bots come from the registry, ``game_bots(game).bot(spec,
seed)``, by spec or level (``level2``, ``greedy``, ``ismcts:60it``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gamenight.bots.registry import game_bots


@dataclass(frozen=True)
class Opponent:
    name: str
    act: Callable[[Any, int], Any]
    # A whole turn of the seat to move made on the state, as ``act`` and a push for each play
    # would make it (the same plays from the same draws), returning how many: for a bot
    # that has one (``play_turn``, Centrix's random bot), else None.
    turn: Callable[[Any], int] | None = None


def opponent(game: str, spec: str, seed: int | None) -> Opponent:
    """The registry's bot ``spec`` for ``game``, acting on the view of its seat."""
    bot = game_bots(game).bot(spec, seed)
    return Opponent(
        f"{game} {spec}",
        lambda state, seat: bot.choose(state.view(seat)),
        getattr(bot, "play_turn", None),
    )


def centrix_opponent(spec: str, seed: int | None) -> Opponent:
    return opponent("centrix", spec, seed)


def colorcity_opponent(spec: str, seed: int | None) -> Opponent:
    return opponent("colorcity", spec, seed)
