"""Hints: the chosen level's play for a seat, from that seat's own view only, with a
one-line reason in words (issue 32).

``hint(game, view, level, seed)`` builds the level's bot from the registry with ``seed`` and
asks it to choose in ``view``, exactly as that level plays at a table; the reason is the
engine's description of the play (gamenight.centrix.describe, gamenight.colorcity.describe).
A view holds no other seat's hand, so neither can a hint.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gamenight.bots.registry import game_bots
from gamenight.core.errors import NotationError


@dataclass(frozen=True)
class Hint:
    """A suggested action, its notation and why, in English and Korean. For a Color City
    shot, ``aimed`` is the square aimed at and ``paints`` the squares it would paint."""

    action: Any
    notation: str
    en: str
    ko: str
    aimed: str | None = None
    paints: tuple[str, ...] = ()


def hint(game: str, view: Any, level: int, seed: int | None = None) -> Hint:
    """Level ``level``'s play for the seat of ``view`` (its own view), with the reason.
    Raises NotationError for a level the game does not have, ValueError for a view whose
    seat is not to move."""
    bots = game_bots(game)
    if level not in bots.levels:
        raise NotationError(f"{game} has levels {min(bots.levels)}–{max(bots.levels)}, not {level}")
    if view.seat is None or view.to_move is None:
        raise ValueError("a hint is for the seat to move, from its own view")
    action = bots.bot(f"level{level}", seed=seed).choose(view)
    if game == "centrix":
        from gamenight.centrix.describe import play_words

        words = play_words(view, action)
        return Hint(action, str(action), words.en, words.ko)
    from gamenight.colorcity.actions import Decision
    from gamenight.colorcity.describe import decision_words, shot_words

    if isinstance(action, Decision):
        decided = decision_words(action)
        return Hint(action, action.value, decided.en, decided.ko)
    said, aim = shot_words(view.table, view.to_move, action)
    table = view.table
    return Hint(
        action,
        str(action),
        said.en,
        said.ko,
        aimed=None if aim.square is None else table.square_name(aim.square),
        paints=tuple(table.square_name(s) for s in aim.paints),
    )
