"""The play value and its notation.

A play is one card with an optional ring rotation and an optional pawn move, written as
space-separated tokens::

    R2 3+2 c3-d3     red 2: turn ring 3 two slots clockwise, then move the pawn on c3 to d3
    B1 e4-e5         blue 1 without rotation
    G3 2-3           green 3 as a rotation only (counter-clockwise)
    A off-c1         any-colour wild: enter a pawn onto c1
    S 6+5 b6-top     spin wild: ring 6 five slots clockwise, then b6 up to the top

Squares in the move are where things stand *after* the rotation. ``+`` is clockwise seen
from above. A spin rotation is written in the range −5…+6 (``+7`` reads as ``-5``). A bump
may be written with ``x`` instead of ``-`` (``c3xc4``); both read the same.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from gamenight.centrix.board import NUM_RINGS, NUM_SLOTS, OFF, TOP, parse_square, square_name
from gamenight.centrix.cards import Card
from gamenight.core.errors import NotationError, shown
from gamenight.core.numbers import read_whole_number


class Rotation(NamedTuple):
    """A ring turned by some slots: ``3+2`` in notation."""

    ring: int  # 1–6
    amount: int  # slots clockwise; negative is counter-clockwise

    def __str__(self) -> str:
        return f"{self.ring}{self.amount:+d}"


class Move(NamedTuple):
    """A pawn moved from one square to another (squares as after the rotation)."""

    from_square: int
    to_square: int

    def __str__(self) -> str:
        return f"{square_text(self.from_square)}-{square_text(self.to_square)}"


class Play(NamedTuple):
    """One card played, with an optional rotation and an optional move; ``str`` gives its
    notation."""

    card: Card
    rotation: Rotation | None = None
    move: Move | None = None

    def __str__(self) -> str:
        return " ".join(str(part) for part in self if part is not None)

    @classmethod
    def parse(cls, text: str) -> Play:
        """The play written in ``text`` (as ``parse_play``); raises NotationError only."""
        return parse_play(text)


def square_text(sq: object) -> str:
    """A square's name, or the value itself when it is no square (messages about a
    hand-built Move must still print it, and a negative index must not read as a name from
    the end of the table)."""
    if isinstance(sq, int) and 0 <= sq <= TOP:
        return square_name(sq)
    return repr(sq)


def spin_amount(amount: int) -> int:
    """The canonical form of a rotation by ``amount`` slots: −5…+6."""
    return (amount + 5) % NUM_SLOTS - 5


# [0-9], not \d: \d matches every script's digits, and int() reads them ('3+٣' as 3+3).
_ROTATION = re.compile(r"^([1-9])([+-])([0-9]{1,2})$")
_MOVE = re.compile(r"^([a-z]+[0-9]?)[-x]([a-z]+[0-9]?)$")


def parse_rotation(token: str) -> Rotation:
    """Read one rotation token (``3+2``: ring 3, two slots clockwise) as written, without a
    spin card's canonical form; raises NotationError naming the token, and nothing else,
    for any other input."""
    if not isinstance(token, str):
        raise NotationError(f"a rotation is written as text, not {type(token).__name__}")
    m = _ROTATION.match(token.strip().lower())
    if m is None:
        raise NotationError(
            f"{shown(token)} is not a rotation (like 3+2: ring 3, two slots clockwise)"
        )
    ring = read_whole_number(m[1], "a rotation's ring", NotationError)
    slots = read_whole_number(m[3], "a rotation's slots", NotationError)
    amount = slots if m[2] == "+" else -slots
    if not 1 <= ring <= NUM_RINGS:
        raise NotationError(f"there is no ring {ring}: rings are 1–{NUM_RINGS}")
    if not 1 <= abs(amount) < NUM_SLOTS:
        raise NotationError(f"a ring turns by 1–{NUM_SLOTS - 1} slots, not {amount}")
    return Rotation(ring, amount)


def parse_play(text: str) -> Play:
    """Read a play in notation; raises NotationError naming what is wrong, and nothing
    else, for any other input (text or not)."""
    if not isinstance(text, str):
        raise NotationError(f"a play is written as text, not {type(text).__name__}")
    tokens = text.split()
    if not tokens:
        raise NotationError("empty play: write a card, then a rotation and/or a move")
    if len(tokens) > 3:
        raise NotationError(f"too many parts in {shown(text)}: card, rotation, move at most")
    card = Card.parse(tokens[0])
    rotation: Rotation | None = None
    move: Move | None = None
    for token in tokens[1:]:
        lower = token.lower()
        if _ROTATION.match(lower) is not None:
            if rotation is not None or move is not None:
                raise NotationError(
                    f"in {shown(text)} the rotation must come once, before the move"
                )
            rotation = parse_rotation(lower)
            if card is Card.SPIN:
                rotation = Rotation(rotation.ring, spin_amount(rotation.amount))
        elif (m := _MOVE.match(lower)) is not None:
            if move is not None:
                raise NotationError(f"{shown(text)} has two moves; a play moves one pawn once")
            frm, to = parse_square(m[1]), parse_square(m[2])
            if frm == TOP:
                raise NotationError("a pawn on the top never moves again")
            if to == OFF:
                raise NotationError("a move cannot end off the board")
            if frm == to:
                raise NotationError(f"{shown(token)} does not go anywhere")
            move = Move(frm, to)
        else:
            raise NotationError(
                f"{shown(token)} is neither a rotation (like 3+2) nor a move (like c3-d3)"
            )
    if rotation is None and move is None:
        raise NotationError(f"{shown(text)} needs a rotation, a move or both")
    return Play(card, rotation, move)
