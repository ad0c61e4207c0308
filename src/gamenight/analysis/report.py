"""What an analysis of a finished game says: each seat's chance to win after every play,
the turning points and the mistakes, as one value with its JSON form.

The games' analysers (``gamenight.analysis.centrix``, ``.colorcity``) fill it in; this module
only knows chances, plays and seats, so both games find their turning points and mistakes
the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from gamenight.core.errors import RecordError
from gamenight.core.game import GameState

Progress = Callable[[int, int], None]
"""Told (done, total) as an analysis goes, for a progress bar."""

# How much a play may cost the player's own chance before it counts as a mistake, and the
# two grades above it (the words lichess uses: inaccuracy, mistake, blunder). Rollout
# estimates carry a few hundredths of noise each, so nothing below 0.05 is named.
GRADES = ((0.25, "blunder"), (0.12, "mistake"), (0.05, "inaccuracy"))
# Rollouts per position by default, each game's: as many as the speed bars allow
# (docs/learning.md; ``gamenight bench analyse`` measures them).
ROLLOUTS = {"centrix": 24, "colorcity": 64}
# Rollout shares are tempered before they are shown: chance ∝ (share + ε)^β. The
# rollouts' bots play more alike and more decisively than people and the ladder's levels
# do, so their shares run to the extremes; (ε, β) were fitted to games of the ladder's bots
# by ``gamenight bench calibration --seed 10000 --fit`` and are checked on other games
# (docs/learning.md).
TEMPER = {"centrix": (0.01, 0.7), "colorcity": (0.0, 0.6)}
# A turning point: a play after which some seat's chance moved by at least this much.
SWING = 0.2
MOST_TURNING_POINTS = 5


@dataclass(frozen=True)
class Mistake:
    """A play that cost its player ``loss`` of their chance to win against the play the
    strongest bot preferred there."""

    ply: int  # the play's number, 1 for the first
    seat: int
    played: str
    preferred: str
    loss: float
    grade: str
    words: str  # the same in a sentence

    def to_json(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "seat": self.seat,
            "played": self.played,
            "preferred": self.preferred,
            "loss": round(self.loss, 4),
            "grade": self.grade,
            "words": self.words,
        }


@dataclass(frozen=True)
class TurningPoint:
    """A play after which the chances swung most: ``swing`` is each seat's change."""

    ply: int
    seat: int
    played: str
    swing: tuple[float, ...]
    leader: int  # the seat likeliest to win after it

    def to_json(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "seat": self.seat,
            "played": self.played,
            "swing": [round(x, 4) for x in self.swing],
            "leader": self.leader,
        }


@dataclass(frozen=True)
class Analysis:
    """A finished game analysed. ``chances[k]`` is each seat's chance to win after ``k``
    plays (``chances[0]`` at the start, the last the game's result); ``extra`` holds what
    one game adds (Color City's aims)."""

    game: str
    seats: tuple[str, ...]
    method: str  # how the chances were estimated, and what it saw (every hand)
    chances: tuple[tuple[float, ...], ...]
    turning_points: tuple[TurningPoint, ...]
    mistakes: tuple[Mistake, ...]
    winner: int | None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seats": list(self.seats),
            "method": self.method,
            "chances": [[round(x, 4) for x in row] for row in self.chances],
            "turning_points": [t.to_json() for t in self.turning_points],
            "mistakes": [m.to_json() for m in self.mistakes],
            "winner": self.winner,
            **self.extra,
        }


def tempered(shares: Sequence[float], eps: float, beta: float) -> tuple[float, ...]:
    """Rollout shares made chances: each ∝ (share + eps)^beta, summing to 1."""
    weights = [(p + eps) ** beta for p in shares]
    total = sum(weights)
    return tuple(w / total for w in weights)


def grade(loss: float) -> str | None:
    """The word for a play that cost ``loss`` of its player's chance, or None if it did not
    cost enough to name."""
    for least, word in GRADES:
        if loss >= least:
            return word
    return None


def turning_points(
    chances: Sequence[Sequence[float]], movers: Sequence[int], played: Sequence[str]
) -> tuple[TurningPoint, ...]:
    """The plays after which some seat's chance moved by at least SWING, the biggest
    MOST_TURNING_POINTS of them, in the order they were played."""
    swings: list[tuple[float, int]] = []
    for k in range(1, len(chances)):
        biggest = max(abs(a - b) for a, b in zip(chances[k], chances[k - 1], strict=True))
        if biggest >= SWING:
            swings.append((biggest, k))
    chosen = sorted(k for _, k in sorted(swings, reverse=True)[:MOST_TURNING_POINTS])
    out = []
    for k in chosen:
        after, before = chances[k], chances[k - 1]
        out.append(
            TurningPoint(
                ply=k,
                seat=movers[k - 1],
                played=played[k - 1],
                swing=tuple(a - b for a, b in zip(after, before, strict=True)),
                leader=max(range(len(after)), key=after.__getitem__),
            )
        )
    return tuple(out)


def winner_of(places: Sequence[int]) -> int | None:
    """The seat placed first, or None for a draw (several first)."""
    firsts = [seat for seat, place in enumerate(places) if place == 1]
    return firsts[0] if len(firsts) == 1 else None


def result_chances(places: Sequence[int]) -> tuple[float, ...]:
    """The chances once the game is over: the winners share 1 (a draw shares it)."""
    firsts = [seat for seat, place in enumerate(places) if place == 1]
    return tuple(1 / len(firsts) if seat in firsts else 0.0 for seat in range(len(places)))


S = TypeVar("S", bound=GameState)


def start_of(final: S) -> S:
    """The start of the finished game ``final`` (a replayed record), every action taken
    back; RecordError for a game that is not over."""
    if final.outcome is None:
        raise RecordError("the game is not over: only a finished game is analysed")
    start: S = final.copy()
    while start.actions:
        start.pop()
    return start
