"""Centrix's log: one entry per play, with what it did to the pawns.

An entry is short (a long game's log has hundreds): who played, the play, and each pawn it
moved in order as ``(seat, from, to)`` squares, the moving pawn first, then each one it
bumped down the chain (``OFF`` for one knocked off the board). The state writes them
(``CentrixState.log``); pages word them, bots and the analysis can read them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gamenight.centrix.board import SQUARE_NAMES
from gamenight.centrix.plays import Play

if TYPE_CHECKING:  # (the state writes its log with this module)
    from gamenight.centrix.state import CentrixState

Effect = tuple[int, int, int]  # a pawn moved: (seat, from square, to square)


@dataclass(frozen=True, slots=True)
class PlayEntry:
    """A play in the log: ``seat`` made ``play``, which moved the pawns ``moves``."""

    seat: int
    play: Play
    moves: tuple[Effect, ...]

    @property
    def notation(self) -> str:
        """The play's notation (the card and the ring turned are in it)."""
        return str(self.play)

    def to_dict(self) -> dict[str, Any]:
        """``seat``, ``notation`` and ``moves``, each pawn moved as ``[seat, from, to]`` with
        the squares named."""
        return {
            "seat": self.seat,
            "notation": self.notation,
            "moves": [[s, SQUARE_NAMES[f], SQUARE_NAMES[t]] for s, f, t in self.moves],
        }


def play_entries(state: CentrixState, count: int) -> list[PlayEntry]:
    """The entries of the last ``count`` plays on ``state``'s stack: each stepped back on a
    copy, then made again, its effects read before it is made (the state is untouched)."""
    if count == 0:
        return []
    probe = state.copy()
    undone = [probe.pop() for _ in range(count)]
    movers = state.latest_movers(count)
    out = []
    for seat, play in zip(movers, reversed(undone), strict=True):
        # It was legal (it was made): neither its effects nor the play are checked again.
        effects = probe.effects_unchecked(play)
        probe.push_unchecked(play)
        out.append(PlayEntry(seat, play, tuple(effects)))
    return out
