"""The Centrix board: six rotating rings of twelve coloured squares around a stationary top.

Squares are small integers, as in python-chess. Ring squares are numbered by where they are
*now* on the board: ``(ring - 1) * 12 + slot``, slot 0–11 being a fixed direction (slot 0 at
twelve o'clock, counting clockwise seen from above). Two more values stand for the levels
without slots: ``OFF`` (level 0, off the board, where every pawn starts) and ``TOP`` (level 7,
the stationary top). Names read slot letter then ring: ``a1`` … ``l6``, plus ``off`` and ``top``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from gamenight.core.errors import NotationError, RulesError, shown

NUM_RINGS = 6
NUM_SLOTS = 12
NUM_SQUARES = NUM_RINGS * NUM_SLOTS
OFF = NUM_SQUARES  # level 0
TOP = NUM_SQUARES + 1  # level 7
TOP_LEVEL = NUM_RINGS + 1
SLOT_LETTERS = "abcdefghijkl"


class Colour(IntEnum):
    """The six colours of the squares, the cards and the pawns."""

    RED = 0
    ORANGE = 1
    YELLOW = 2
    GREEN = 3
    BLUE = 4
    WHITE = 5

    @property
    def letter(self) -> str:
        """The colour's one-letter symbol, ``R`` … ``W``."""
        return COLOUR_LETTERS[self]

    @property
    def ko(self) -> str:
        """The colour's name in Korean, as the rulebook writes it (빨강 … 흰색)."""
        return COLOUR_KO[self]

    @classmethod
    def from_letter(cls, letter: str) -> Colour:
        """The colour with this letter (either case); raises NotationError for anything else."""
        index = (
            COLOUR_LETTERS.find(letter.upper())
            if isinstance(letter, str) and len(letter) == 1
            else -1
        )
        if index < 0:
            raise NotationError(
                f"{shown(letter)} is not a colour: use one of {', '.join(COLOUR_LETTERS)}"
            )
        return cls(index)

    @classmethod
    def parse(cls, text: str) -> Colour:
        """A colour by letter ("R") or name ("red"); raises NotationError for anything else."""
        if not isinstance(text, str):
            raise NotationError(f"a colour is written as text, not {type(text).__name__}")
        name = text.strip().upper()
        if name in cls.__members__:
            return cls[name]
        return cls.from_letter(name)


COLOUR_LETTERS = "ROYGBW"
COLOUR_KO = ("빨강", "주황", "노랑", "초록", "파랑", "흰색")  # by Colour, the rulebook's words


def square(ring: int, slot: int) -> int:
    """The square at ``ring`` (1–6) and board ``slot`` (0–11)."""
    return (ring - 1) * NUM_SLOTS + slot


def level_of(sq: int) -> int:
    """0 off the board, 1–6 on a ring, 7 on the top."""
    if sq == OFF:
        return 0
    if sq == TOP:
        return TOP_LEVEL
    return sq // NUM_SLOTS + 1


def level_sum(cells: Sequence[int], top: Sequence[int], seat: int) -> int:
    """The sum of the levels of ``seat``'s pawns (off 0, rings 1–6, top 7): ``cells`` holds
    each ring square's owner, ``top`` how many pawns each seat has on the top. The climb by
    which unfinished seats are ranked (D16)."""
    on_rings = sum(sq // NUM_SLOTS + 1 for sq, owner in enumerate(cells) if owner == seat)
    return on_rings + TOP_LEVEL * top[seat]


def slot_of(sq: int) -> int:
    """The board slot of a ring square (off and top have none)."""
    if sq >= NUM_SQUARES:
        raise ValueError(f"{square_name(sq)} has no slot")
    return sq % NUM_SLOTS


SQUARE_NAMES: tuple[str, ...] = (
    *(f"{SLOT_LETTERS[s % NUM_SLOTS]}{s // NUM_SLOTS + 1}" for s in range(NUM_SQUARES)),
    "off",
    "top",
)
_SQUARE_BY_NAME = {name: sq for sq, name in enumerate(SQUARE_NAMES)}


def square_name(sq: int) -> str:
    """The square's name: ``a1`` … ``l6``, ``off`` or ``top``."""
    return SQUARE_NAMES[sq]


def parse_square(text: str) -> int:
    """The square a name stands for (either case); raises NotationError for anything else."""
    if not isinstance(text, str):
        raise NotationError(f"a square is written as text, not {type(text).__name__}")
    try:
        return _SQUARE_BY_NAME[text.strip().lower()]
    except KeyError:
        raise NotationError(
            f"{shown(text)} is not a square: write a slot letter a–l and a ring 1–6 (like c3), "
            "or 'off' or 'top'"
        ) from None


@dataclass(frozen=True)
class Layout:
    """The printing of the board: each ring's colours, square by square.

    ``rings[r][i]`` is the colour of square ``i`` of ring ``r + 1``. With the ring's rotation
    offset ``o`` that square stands at slot ``(i + o) % 12``; at set-up every offset is 0.
    """

    rings: tuple[tuple[Colour, ...], ...]

    def __post_init__(self) -> None:
        if len(self.rings) != NUM_RINGS or any(len(r) != NUM_SLOTS for r in self.rings):
            raise RulesError(f"a layout has {NUM_RINGS} rings of {NUM_SLOTS} squares")

    @classmethod
    def from_strings(cls, rings: Sequence[str]) -> Layout:
        """From six strings of colour letters, ring 1 (outermost) first. Raises RulesError
        naming the problem, and nothing else, for anything else (a layout may come from a
        file or a request)."""
        if isinstance(rings, str) or not isinstance(rings, Sequence):
            raise RulesError(f"bad layout: a list of ring strings, not {shown(rings)}")
        for ring in rings:
            if not isinstance(ring, str):
                raise RulesError(f"bad layout: each ring is a string of letters, not {shown(ring)}")
        try:
            return cls(tuple(tuple(Colour.from_letter(c) for c in ring) for ring in rings))
        except NotationError as exc:
            raise RulesError(f"bad layout: {exc}") from exc

    def to_strings(self) -> list[str]:
        """Six strings of colour letters, ring 1 first; ``from_strings`` reads them back."""
        return ["".join(c.letter for c in ring) for ring in self.rings]

    def colour(self, ring: int, slot: int, offset: int) -> Colour:
        """The colour showing at ``slot`` of ``ring`` (1–6) when the ring's offset is ``offset``."""
        return self.rings[ring - 1][(slot - offset) % NUM_SLOTS]

    def rows_by_offset(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """For each ring and each offset, the colours by slot: a lookup table for the engine."""
        return _rows_by_offset(self.rings)


@functools.lru_cache(maxsize=16)
def _rows_by_offset(
    rings: tuple[tuple[Colour, ...], ...],
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    # Cached: every new state (and every bot's sampled deal) needs this table.
    return tuple(
        tuple(
            tuple(int(ring[(slot - offset) % NUM_SLOTS]) for slot in range(NUM_SLOTS))
            for offset in range(NUM_SLOTS)
        )
        for ring in rings
    )


DEFAULT_LAYOUT = Layout.from_strings(["ROYGBW" * 2] * NUM_RINGS)
