"""The one-line position format: ten fields separated by single spaces.

    ........./........./....g..../...ggg.../..ppp..../........./........./........./.........
    3,4 -P p pitch - 6 9f3c0e51a9b3f744 g:normal,p:shaky -

1. city: nine rows of nine squares separated by ``/``, the north row (9) first, each row
   from west (a) to east (i); ``.`` empty, ``g`` Green's colour, ``p`` Purple's.
2. cubes: how many cubes each gang still has (all of them wait in the HQ between
   pitches), Green's then Purple's, separated by ``,``.
3. powers still unused: ``L`` for Green's Lucky Day, ``P`` for Purple's Purple Pain, ``-``
   for a used one (``LP`` at the start).
4. gang to move: ``g`` or ``p``.
5. phase: ``pitch`` (a shot is due), ``power`` (the cube has stopped; the gang to move
   decides on its power) or ``over``.
6. the pitched cube's pose in the power phase (x,y,z,qw,qx,qy,qz as exact decimals),
   ``-`` otherwise.
7. turns completed.
8. the generator's key (16 hex digits), which decides all future noise.
9. seats: ``gang:skill`` for each seat, in seat order, separated by ``,``.
10. result: ``-`` while playing, else the winning gang's letter, or ``=`` for a draw, then
    ``:`` and the reason (``g:line``, ``p:block``, ``g:elimination``, ``=:turn_cap``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from gamenight.colorcity.physics import Pose
from gamenight.colorcity.shots import Skill
from gamenight.colorcity.table import Gang
from gamenight.core.errors import NotationError, read_field, shown
from gamenight.core.numbers import read_whole_number

EMPTY = -1
PHASES = ("pitch", "power", "over")
REASONS = ("line", "block", "elimination", "turn_cap")


class PositionError(NotationError):
    """A position string that cannot be read; the message names the field."""


@dataclass(frozen=True)
class Position:
    """Everything that decides the rest of a game, as plain values."""

    cells: tuple[int, ...]
    cubes: tuple[int, int]
    powers: tuple[bool, bool]  # unused: Green's Lucky Day, Purple's Purple Pain
    to_move: Gang
    phase: str
    pending: Pose | None
    turn: int
    key: int
    seats: tuple[tuple[Gang, Skill], ...]
    winner: Gang | None = None
    reason: str | None = None

    @property
    def size(self) -> int:
        """The city's side, in squares."""
        return math.isqrt(len(self.cells))

    def format(self) -> str:
        """The one-line position string; ``parse`` reads it back."""
        n = self.size
        letters = {EMPTY: ".", 0: "g", 1: "p"}
        city = "/".join(
            "".join(letters[c] for c in self.cells[row * n : (row + 1) * n])
            for row in reversed(range(n))
        )
        powers = ("L" if self.powers[0] else "-") + ("P" if self.powers[1] else "-")
        result = "-"
        if self.reason is not None:
            result = f"{'=' if self.winner is None else self.winner.letter}:{self.reason}"
        return " ".join(
            (
                city,
                f"{self.cubes[0]},{self.cubes[1]}",
                powers,
                self.to_move.letter,
                self.phase,
                "-" if self.pending is None else self.pending.format(),
                str(self.turn),
                f"{self.key:016x}",
                ",".join(f"{gang.letter}:{skill.value}" for gang, skill in self.seats),
                result,
            )
        )

    @classmethod
    def parse(cls, text: str) -> Position:
        """The position a string describes; raises PositionError naming the field, and
        nothing else, for any ``text`` (numbers are ASCII digits only). Only the syntax is
        checked here: ``ColorCityState.from_position`` checks it against a
        table."""
        if not isinstance(text, str):
            raise PositionError("a position is a line of text")
        fields = text.split()
        if len(fields) != 10:
            raise PositionError(f"a position has 10 fields separated by spaces, not {len(fields)}")
        city, cubes, powers, to_move, phase, pending, turn, key, seats, result = fields

        rows = city.split("/")
        n = len(rows)
        if n < 1 or any(len(r) != n for r in rows):
            raise PositionError(f"city: {n} rows of {n} squares separated by '/'")
        cells: list[int] = []
        for row in reversed(rows):
            for ch in row:
                if ch not in ".gp":
                    raise PositionError(f"city: {shown(ch)} is none of '.', 'g', 'p'")
                cells.append(".gp".index(ch) - 1)

        parts = cubes.split(",")
        if len(parts) != 2:
            raise PositionError(f"cubes: two counts like '4,4', not {shown(cubes)}")
        green, purple = (read_whole_number(p, "cubes: a count", PositionError) for p in parts)

        if len(powers) != 2 or powers[0] not in "L-" or powers[1] not in "P-":
            raise PositionError(f"powers: 'L' or '-', then 'P' or '-', not {shown(powers)}")
        if to_move not in ("g", "p"):
            raise PositionError(f"gang to move: 'g' or 'p', not {shown(to_move)}")
        mover = Gang("gp".index(to_move))
        if phase not in PHASES:
            raise PositionError(f"phase: one of {', '.join(PHASES)}, not {shown(phase)}")
        pose: Pose | None = None
        if pending != "-":
            pose = read_field("pose", Pose.parse, pending, PositionError)
        if (pose is not None) != (phase == "power"):
            raise PositionError("pose: given in the power phase and only then ('-' otherwise)")
        turns = read_whole_number(turn, "turn", PositionError)
        if len(key) != 16 or any(c not in "0123456789abcdef" for c in key):
            raise PositionError(f"key: 16 lower-case hex digits, not {shown(key)}")

        seat_list: list[tuple[Gang, Skill]] = []
        for item in seats.split(","):
            gang_text, _, skill_text = item.partition(":")
            if gang_text not in ("g", "p"):
                raise PositionError(
                    f"seats: each seat is 'g:skill' or 'p:skill', not {shown(item)}"
                )
            seat_list.append(
                (
                    Gang("gp".index(gang_text)),
                    read_field("seats", Skill.parse, skill_text, PositionError),
                )
            )
        for gang in Gang:
            if not any(g is gang for g, _ in seat_list):
                raise PositionError(f"seats: {gang.label} needs at least one seat")

        winner: Gang | None = None
        reason: str | None = None
        if result != "-":
            who, _, why = result.partition(":")
            if who not in ("g", "p", "=") or why not in REASONS:
                raise PositionError(
                    f"result: '-' or g/p/= then ':' and one of {', '.join(REASONS)},"
                    f" not {shown(result)}"
                )
            winner = None if who == "=" else Gang("gp".index(who))
            reason = why
        if (reason is not None) != (phase == "over"):
            raise PositionError("result: a finished game (phase 'over') has one; others '-'")
        return cls(
            cells=tuple(cells),
            cubes=(green, purple),
            powers=(powers[0] == "L", powers[1] == "P"),
            to_move=mover,
            phase=phase,
            pending=pose,
            turn=turns,
            key=int(key, 16),
            seats=tuple(seat_list),
            winner=winner,
            reason=reason,
        )
