"""The one-line position format (Centrix's FEN).

Thirteen fields separated by single spaces, on one line (wrapped here at field boundaries)::

    ROYG a10000 ...yro.r..rg/..g.......o./............/............/............/............
    0000 R1R3G3,O3Y2S,B2B3W3,O2Y3S W3R2SB3O2R3AY1G3W1G1B1W1W2Y3R2B2B1 AAG1G2O3G2Y1Y2W2O1O1R1
    b83e90ec17e0aa3c 0 0 4 -,-,-,- playing

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

Besides its own syntax, a position must be one that play can reach as far as places go
(D15, D16): a seat with its three pawns on the top has finished, and the seats that finished
hold places 1, 2, … in the order they did; while playing nobody else is placed, two seats or
more are unfinished and the seat to move is one of them; ``finished`` leaves exactly one seat
unfinished, in last place; ``turn_cap`` and ``stalemate`` rank the unfinished seats by pawns
on the top, then by level sum.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from gamenight.centrix.board import NUM_RINGS, NUM_SLOTS, Colour, level_sum
from gamenight.centrix.cards import DECK, Card, format_cards, parse_cards
from gamenight.core.errors import NotationError, read_field, shown
from gamenight.core.numbers import read_whole_number
from gamenight.core.outcome import Outcome

PAWNS = 3
MIN_PLAYERS, MAX_PLAYERS = 2, 6  # the rulebook's; the Game value's player counts
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
        """The one-line position string; ``parse`` reads it back."""
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
    def parse(cls, text: str, *, deck: Sequence[Card] = DECK, pawns: int = PAWNS) -> Position:
        """The position a string describes; raises PositionError naming the field for text
        that is malformed or describes places that play cannot reach, and nothing else for
        any ``text`` (numbers are ASCII digits only). ``deck`` and ``pawns`` are the
        rules' set-up (D18), by default the rulebook's 42 cards and 3 pawns."""
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
        if seats != seats.upper():
            # Upper case tells a seat's colour from its pawns on the rings (lower case).
            raise PositionError(f"seats: pawn colour letters in upper case, not {shown(seats)}")
        n = len(players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS or len(set(players)) != n:
            raise PositionError(
                f"seats: {MIN_PLAYERS}–{MAX_PLAYERS} distinct pawn colours, not {shown(seats)}"
            )
        seat_by_letter = {c.letter.lower(): i for i, c in enumerate(players)}

        if len(offsets) != NUM_RINGS or any(d not in _DIGITS for d in offsets):
            raise PositionError(f"ring offsets: {NUM_RINGS} digits 0–9/a/b, not {shown(offsets)}")
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
                raise PositionError(f"rings: {shown(ch)} is neither '.' nor a seat's pawn letter")

        if len(top) != n:
            raise PositionError(f"top: one digit per seat ({n}), not {shown(top)}")
        tops = tuple(read_whole_number(t, "top: each seat's digit", PositionError) for t in top)
        for seat in range(n):
            if cells.count(seat) + tops[seat] > pawns:
                raise PositionError(f"{players[seat].name.lower()} has more than {pawns} pawns")

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
        # Checked once the cards read, so that text that is no card at all is told so.
        for name, cards_text in (("hands", hands), ("draw pile", draw), ("discard pile", discard)):
            if cards_text != cards_text.upper():
                raise PositionError(
                    f"{name}: cards in upper case (R1, A, S), not {shown(cards_text)}"
                )
        counted = Counter(draw_cards + discard_cards + sum(hand_cards, ()))
        if counted != Counter(deck):
            missing = Counter(deck) - counted
            extra = counted - Counter(deck)
            raise PositionError(
                f"cards: hands and piles must hold the {len(deck)} cards exactly"
                + (f"; missing {format_cards(sorted(missing.elements()))}" if missing else "")
                + (f"; extra {format_cards(sorted(extra.elements()))}" if extra else "")
            )

        if len(key) != 16:
            raise PositionError(f"key: 16 hex digits, not {shown(key)}")
        key_value = read_whole_number(key, "key", PositionError, base=16)
        seat, plays_done, turns = (
            read_whole_number(value, name, PositionError)
            for name, value in (("seat to move", to_move), ("plays", plays), ("turn", turn))
        )
        if seat >= n:
            raise PositionError(f"seat to move: {seat} is not a seat (0–{n - 1})")
        if plays_done > (2 if status == "playing" else 3):
            raise PositionError("plays: a turn that has made 3 plays is over, so 0–2")
        place_texts = places.split(",")
        if len(place_texts) != n:
            raise PositionError(f"places: one place or '-' per seat, not {shown(places)}")
        place_values = tuple(
            0 if p == "-" else read_whole_number(p, "places: a place", PositionError)
            for p in place_texts
        )
        if any(not 0 <= p <= n for p in place_values):
            raise PositionError(f"places: from 1 to {n}")
        if status not in _STATUSES:
            raise PositionError(f"status: one of {', '.join(_STATUSES)}, not {shown(status)}")
        if (status == "playing") == all(place_values):
            raise PositionError("places: a game in play leaves a seat unplaced; an ended one none")
        _check_places(players, cells, tops, place_values, status, seat, pawns)
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


def _check_places(
    players: tuple[Colour, ...],
    cells: list[int],
    tops: tuple[int, ...],
    places: tuple[int, ...],
    status: str,
    to_move: int,
    pawns: int,
) -> None:
    """Refuse places, top and status that play cannot produce together (D15, D16): such a
    position would leave the game stuck (a seat to move that may not play, a finished seat
    still waiting for a place) or report an outcome no game reaches."""
    n = len(players)
    names = [c.name.lower() for c in players]
    finished = [s for s in range(n) if tops[s] == pawns]
    unfinished = [s for s in range(n) if tops[s] < pawns]
    for s in finished:
        if not places[s]:
            raise PositionError(
                f"places: {names[s]} has all {pawns} pawns on the top, so it has finished and"
                " needs a place (D15)"
            )
    if sorted(places[s] for s in finished) != list(range(1, len(finished) + 1)):
        raise PositionError(
            "places: the seats with all their pawns on the top finished first and hold places"
            f" 1–{len(finished)} in the order they finished, not "
            + ",".join(str(places[s]) for s in finished)
        )
    if status == "playing":
        for s in unfinished:
            if places[s]:
                raise PositionError(
                    f"places: {names[s]} has a place but not all {pawns} pawns on the top;"
                    " while playing only finished seats are placed"
                )
        if len(unfinished) < 2:
            raise PositionError(
                "status: with one seat left unfinished the game is over ('finished', D15),"
                " not 'playing'"
            )
        if places[to_move]:
            raise PositionError(
                f"seat to move: {names[to_move]} has finished (place {places[to_move]}); the"
                " turn passes only to unfinished seats"
            )
    elif status == "finished":
        if len(unfinished) != 1:
            raise PositionError(
                "status: 'finished' means every seat but one has all its pawns on the top"
                f" (D15); here {len(unfinished)} have not"
            )
        (last,) = unfinished
        if places[last] != n:
            raise PositionError(
                f"places: {names[last]}, the one seat left unfinished, takes last place ({n}),"
                f" not {places[last]}"
            )
    else:
        if len(unfinished) < 2:
            raise PositionError(
                f"status: a game with one seat left unfinished is 'finished', not {shown(status)}"
            )
        # The engine ranks the unfinished seats exactly so when it ends the game (D16).
        scores: list[tuple[float, ...]] = [(tops[s], level_sum(cells, tops, s)) for s in unfinished]
        expected = Outcome.places_from_scores(scores, len(finished) + 1)
        if [places[s] for s in unfinished] != expected:
            ranked = ", ".join(f"{names[s]} {p}" for s, p in zip(unfinished, expected, strict=True))
            raise PositionError(
                f"places: at {shown(status)} the unfinished seats are ranked by pawns on the top,"
                f" then by the sum of their levels (D16): {ranked}"
            )
