"""The 42 Centrix cards.

A card is one of 20 kinds: a colour with a number (``R1`` … ``W3``), the any-colour wild
``A`` and the unlimited-spin wild ``S``. Copies are interchangeable, so a card is just its kind.
"""

from __future__ import annotations

from enum import IntEnum

from gamenight.centrix.board import COLOUR_LETTERS, Colour
from gamenight.core.errors import NotationError, shown


class Card(IntEnum):
    """A card kind: ``R1`` … ``W3`` in colour order, then the wilds ``ANY`` and ``SPIN``."""

    R1 = 0
    R2 = 1
    R3 = 2
    O1 = 3
    O2 = 4
    O3 = 5
    Y1 = 6
    Y2 = 7
    Y3 = 8
    G1 = 9
    G2 = 10
    G3 = 11
    B1 = 12
    B2 = 13
    B3 = 14
    W1 = 15
    W2 = 16
    W3 = 17
    ANY = 18
    SPIN = 19

    @property
    def colour(self) -> Colour | None:
        """The colour of a numbered card; None for the wilds."""
        return Colour(self // 3) if self < Card.ANY else None

    @property
    def number(self) -> int:
        """How far a numbered card rotates a ring; 0 for the wilds."""
        return self % 3 + 1 if self < Card.ANY else 0

    @property
    def is_wild(self) -> bool:
        """Whether the card is ``A`` or ``S``."""
        return self >= Card.ANY

    @property
    def symbol(self) -> str:
        """The card in notation: ``R1`` … ``W3``, ``A`` or ``S``."""
        return CARD_SYMBOLS[self]

    def __str__(self) -> str:
        return CARD_SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card a symbol stands for (either case); raises NotationError for anything
        else."""
        if not isinstance(text, str):
            raise NotationError(f"a card is written as text, not {type(text).__name__}")
        try:
            return _CARD_BY_SYMBOL[text.strip().upper()]
        except KeyError:
            raise NotationError(
                f"{shown(text)} is not a card: write a colour letter ({COLOUR_LETTERS}) and a "
                "number 1–3 (like R2), A for the any-colour wild or S for the spin wild"
            ) from None


CARD_SYMBOLS: tuple[str, ...] = (
    *(f"{COLOUR_LETTERS[i // 3]}{i % 3 + 1}" for i in range(18)),
    "A",
    "S",
)
_CARD_BY_SYMBOL = {symbol: Card(i) for i, symbol in enumerate(CARD_SYMBOLS)}

COPIES = {**{card: 2 for card in Card if not card.is_wild}, Card.ANY: 3, Card.SPIN: 3}
DECK: tuple[Card, ...] = tuple(card for card in Card for _ in range(COPIES[card]))
assert len(DECK) == 42


def parse_cards(text: str) -> list[Card]:
    """A run of card symbols with nothing between them, like ``R1B3S``; ``-`` is none.
    Raises NotationError for anything else."""
    if not isinstance(text, str):
        raise NotationError(f"cards are written as text, not {type(text).__name__}")
    if text == "-":
        return []
    cards: list[Card] = []
    i = 0
    while i < len(text):
        width = 1 if text[i].upper() in "AS" else 2
        cards.append(Card.parse(text[i : i + width]))
        i += width
    return cards


def format_cards(cards: list[Card] | tuple[Card, ...]) -> str:
    """The cards' symbols run together, ``-`` for none; ``parse_cards`` reads it back."""
    return "".join(CARD_SYMBOLS[c] for c in cards) or "-"
