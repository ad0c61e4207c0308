"""The one-line position format (Centrix's FEN).

Twelve fields separated by single spaces::

    ROYG 000000 ..r........./............/............/............/............/............
    0000 B1G3S,O2R1W3,A B2Y1,G1O1R3 Y3R2...W1 - 6d2c0e51a9b3f744 0 0 0 -,-,-,- playing

1. seats: each seat's pawn colour, in seat order (``ROYG``).
2. ring offsets: one base-12 digit (0–9, a, b) per ring, ring 1 first: how many slots the
   ring has turned clockwise since set-up.
3. rings: six groups of twelve characters separated by ``/``, ring 1 (outermost) first, slot
   ``a`` (0) first; ``.`` is an empty square and a lower-case colour letter a pawn.
4. top: one digit per seat, how many of its pawns are on the top. Pawns neither on a ring
   nor on the top are off the board.
5. hands: one group per seat separated by ``,``; cards written together (``R1G3S``), sorted;
   ``-`` for an empty hand.
6. draw pile, top card first; 7. discard pile, oldest first (``-`` when empty).
8. the generator's key (16 hex digits), which decides every future reshuffle.
9. the seat to move; 10. plays it has made this turn; 11. turns completed.
12. places by seat (``-`` while unplaced), separated by ``,``; 13. status: ``playing``,
    ``finished``, ``turn_cap`` or ``stalemate``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from gamenight.centrix.board import NUM_RINGS, NUM_SLOTS, Colour
from gamenight.centrix.cards import DECK, Card, format_cards, parse_cards
from gamenight.core.errors import NotationError, read_field

_DIGITS = "0123456789ab"
_STATUSES = ("playing", "finished", "turn_cap", "stalemate")
_EMPTY = -1


class PositionError(NotationError):
    """A position string that cannot be read; the message names the field."""


@dataclass(frozen=True)
class Position:
    """Everything that decides the rest of a game, as plain values."""

    players: tuple[Colour, ...]
    offsets: tuple[int, ...]
    cells: tuple[int, ...]
    top: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    draw: tuple[Card, ...]
    discard: tuple[Card, ...]
    key: int
    to_move: int
    plays_done: int
    turn: int
    places: tuple[int, ...]
    status: str

    def format(self) -> str:
        letters = [c.letter.lower() for c in self.players]
        rings = "/".join(
            "".join(
                "." if owner == _EMPTY else letters[owner]
                for owner in self.cells[r * NUM_SLOTS : (r + 1) * NUM_SLOTS]
            )
            for r in range(NUM_RINGS)
        )
        return " ".join(
            (
                "".join(c.letter for c in self.players),
                "".join(_DIGITS[o] for o in self.offsets),
                rings,
                "".join(str(t) for t in self.top),
                ",".join(format_cards(h) for h in self.hands),
                format_cards(self.draw),
                format_cards(self.discard),
                f"{self.key:016x}",
                str(self.to_move),
                str(self.plays_done),
                str(self.turn),
                ",".join(str(p) if p else "-" for p in self.places),
                self.status,
            )
        )

    @classmethod
    def parse(cls, text: str) -> Position:
        if not isinstance(text, str):
            raise PositionError("a position is a line of text")
        fields = text.split()
        if len(fields) != 13:
            raise PositionError(f"a position has 13 fields separated by spaces, not {len(fields)}")
        (seats, offsets, rings, top, hands, draw, discard, key, to_move, plays, turn, places) = (
            fields[:12]
        )
        status = fields[12]

        players = tuple(read_field("seats", Colour.from_letter, c, PositionError) for c in seats)
        n = len(players)
        if not 2 <= n <= 6 or len(set(players)) != n:
            raise PositionError(f"seats: 2–6 distinct pawn colours, not {seats!r}")
        seat_by_letter = {c.letter.lower(): i for i, c in enumerate(players)}

        if len(offsets) != NUM_RINGS or any(d not in _DIGITS for d in offsets):
            raise PositionError(f"ring offsets: {NUM_RINGS} digits 0–9/a/b, not {offsets!r}")
        ring_texts = rings.split("/")
        if len(ring_texts) != NUM_RINGS or any(len(r) != NUM_SLOTS for r in ring_texts):
            raise PositionError(f"rings: {NUM_RINGS} groups of {NUM_SLOTS} characters by '/'")
        cells: list[int] = []
        for ch in "".join(ring_texts):
            if ch == ".":
                cells.append(_EMPTY)
            elif ch in seat_by_letter:
                cells.append(seat_by_letter[ch])
            else:
                raise PositionError(f"rings: {ch!r} is neither '.' nor a seat's pawn letter")

        if len(top) != n or not top.isdigit():
            raise PositionError(f"top: one digit per seat ({n}), not {top!r}")
        tops = tuple(int(t) for t in top)
        for seat in range(n):
            if cells.count(seat) + tops[seat] > 3:
                raise PositionError(f"{players[seat].name.lower()} has more than 3 pawns")

        hand_texts = hands.split(",")
        if len(hand_texts) != n:
            raise PositionError(f"hands: one group per seat ({n}), not {len(hand_texts)}")
        hand_cards = tuple(
            tuple(read_field("hands", parse_cards, h, PositionError)) for h in hand_texts
        )
        if any(len(h) > 3 for h in hand_cards):
            raise PositionError("hands: a hand holds at most 3 cards")
        if any(list(h) != sorted(h) for h in hand_cards):
            raise PositionError("hands: cards in a hand are written sorted (R1…W3, A, S)")
        draw_cards = tuple(read_field("draw pile", parse_cards, draw, PositionError))
        discard_cards = tuple(read_field("discard pile", parse_cards, discard, PositionError))
        counted = Counter(draw_cards + discard_cards + sum(hand_cards, ()))
        if counted != Counter(DECK):
            missing = Counter(DECK) - counted
            extra = counted - Counter(DECK)
            raise PositionError(
                "cards: hands and piles must hold the 42 cards exactly"
                + (f"; missing {format_cards(sorted(missing.elements()))}" if missing else "")
                + (f"; extra {format_cards(sorted(extra.elements()))}" if extra else "")
            )

        try:
            key_value = int(key, 16)
        except ValueError:
            raise PositionError(f"key: 16 hex digits, not {key!r}") from None
        if len(key) != 16:
            raise PositionError(f"key: 16 hex digits, not {key!r}")
        numbers = []
        for name, value in (("seat to move", to_move), ("plays", plays), ("turn", turn)):
            if not value.isdigit():
                raise PositionError(f"{name}: a whole number, not {value!r}")
            numbers.append(int(value))
        seat, plays_done, turns = numbers
        if seat >= n:
            raise PositionError(f"seat to move: {seat} is not a seat (0–{n - 1})")
        if plays_done > (2 if status == "playing" else 3):
            raise PositionError("plays: a turn that has made 3 plays is over, so 0–2")
        place_texts = places.split(",")
        if len(place_texts) != n or any(p != "-" and not p.isdigit() for p in place_texts):
            raise PositionError(f"places: one place or '-' per seat, not {places!r}")
        place_values = tuple(0 if p == "-" else int(p) for p in place_texts)
        if any(not 0 <= p <= n for p in place_values):
            raise PositionError(f"places: from 1 to {n}")
        if status not in _STATUSES:
            raise PositionError(f"status: one of {', '.join(_STATUSES)}, not {status!r}")
        if (status == "playing") == all(place_values):
            raise PositionError("places: a game in play leaves a seat unplaced; an ended one none")
        return cls(
            players=players,
            offsets=tuple(_DIGITS.index(d) for d in offsets),
            cells=tuple(cells),
            top=tops,
            hands=hand_cards,
            draw=draw_cards,
            discard=discard_cards,
            key=key_value,
            to_move=seat,
            plays_done=plays_done,
            turn=turns,
            places=place_values,
            status=status,
        )
