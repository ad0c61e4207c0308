"""Centrix move generation: the pawn moves on a board, grouped by landing colour, and the
legal plays they make with the cards in hand (D4, D8, D10–D14).

The functions read a state's board but never change it; ``CentrixState`` caches what they
list. Moves are grouped by the colour of the landing square (index ``int(colour)``) and,
at index ``TOP_GROUP``, onto the top, so that a card picks its groups without a test per
move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamenight.centrix.board import NUM_RINGS, NUM_SLOTS, NUM_SQUARES, OFF, TOP
from gamenight.centrix.cards import Card
from gamenight.centrix.plays import Move, Play, Rotation
from gamenight.centrix.refusals import Code
from gamenight.centrix.rules import Bottom

if TYPE_CHECKING:
    from gamenight.centrix.state import CentrixState

EMPTY = -1
TOP_GROUP = 6  # moves onto the top are grouped apart from the six colours
SPIN_AMOUNTS: tuple[int, ...] = (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6)

# Shared immutable values, so that generating plays allocates as little as possible.
_ROTATIONS = {
    (ring, amount): Rotation(ring, amount)
    for ring in range(1, NUM_RINGS + 1)
    for amount in range(-(NUM_SLOTS - 1), NUM_SLOTS)
    if amount
}
_MOVES = [[Move(f, t) for t in range(NUM_SQUARES + 2)] for f in range(NUM_SQUARES + 2)]
_tuple_new = tuple.__new__


def legal_plays(state: CentrixState) -> tuple[Play, ...]:
    """Every legal play of the seat to move, in the order of ``CentrixState.legal_plays``."""
    bottom = state._bottom
    seat = state._seat
    own = state.players[seat]
    cells, rows = state.cells, state.rows
    mine = [sq for sq, owner in enumerate(cells) if owner == seat]
    has_off = len(mine) + state.top[seat] < state.rules.pawns
    rings = sorted({sq // NUM_SLOTS for sq in mine})
    groups_by_config: dict[tuple[int, int], list[list[Move]]] = {}

    def config(rot: Rotation | None) -> list[list[Move]]:
        key = (0, 0) if rot is None else (rot.ring, rot.amount % NUM_SLOTS)
        groups = groups_by_config.get(key)
        if groups is None:
            if rot is None:
                groups = pawn_moves(cells, rows, mine, has_off, bottom)
            else:
                c, r, m = rotated(state, rot.ring - 1, rot.amount, mine)
                groups = pawn_moves(c, r, m, has_off, bottom)
            groups_by_config[key] = groups
        return groups

    plays: list[Play] = []
    append, extend = plays.append, plays.extend
    for card in sorted(set(state.hands[seat])):
        rotations: list[Rotation | None] = [None]
        if card is Card.SPIN:
            rotations += [_ROTATIONS[r + 1, a] for r in rings for a in SPIN_AMOUNTS]
        elif card is not Card.ANY:
            n = card.number
            rotations += [_ROTATIONS[r + 1, a] for r in rings for a in (-n, n)]
        colour = card.colour
        for rot in rotations:
            groups = config(rot)
            if rot is not None:
                append(_tuple_new(Play, (card, rot, None)))
            if colour is None:
                for group in groups:
                    extend([_tuple_new(Play, (card, rot, mv)) for mv in group])
            else:
                extend([_tuple_new(Play, (card, rot, mv)) for mv in groups[colour]])
                if colour == own:
                    extend([_tuple_new(Play, (card, rot, mv)) for mv in groups[TOP_GROUP]])
    return tuple(plays)


def rotated(
    state: CentrixState, r: int, amount: int, mine: list[int]
) -> tuple[list[int], list[tuple[int, ...]], list[int]]:
    """Cells, colour rows and own pawns after turning ring index ``r`` by ``amount``."""
    k = amount % NUM_SLOTS
    base = r * NUM_SLOTS
    cells = state.cells[:]
    ring = cells[base : base + NUM_SLOTS]
    cells[base : base + NUM_SLOTS] = ring[-k:] + ring[:-k]
    rows = state.rows[:]
    rows[r] = state._table[r][(state.offsets[r] + k) % NUM_SLOTS]
    moved = [
        base + (sq - base + k) % NUM_SLOTS if base <= sq < base + NUM_SLOTS else sq for sq in mine
    ]
    return cells, rows, sorted(moved)


def pawn_moves(
    cells: list[int],
    rows: list[tuple[int, ...]],
    mine: list[int],
    has_off: bool,
    bottom: Bottom,
) -> list[list[Move]]:
    """Every legal pawn move on this board, grouped by the landing square's colour
    (index ``TOP_GROUP``: onto the top). Colour is left to the caller, who knows the card."""
    groups: list[list[Move]] = [[], [], [], [], [], [], []]
    top_group = groups[TOP_GROUP]
    for frm in mine:
        r, s = divmod(frm, NUM_SLOTS)
        moves = _MOVES[frm]
        # Up (D4, D10–D12): a step, a bump, or a leapfrog over a column of pawns.
        if r == NUM_RINGS - 1:
            top_group.append(moves[TOP])
        else:
            up = frm + NUM_SLOTS
            if cells[up] == EMPTY:
                groups[rows[r + 1][s]].append(moves[up])
            else:
                if bump_problem(cells, up, frm, bottom) is None:
                    groups[rows[r + 1][s]].append(moves[up])
                t = up + NUM_SLOTS
                while t < NUM_SQUARES and cells[t] != EMPTY:
                    t += NUM_SLOTS
                if t >= NUM_SQUARES:
                    top_group.append(moves[TOP])
                else:
                    groups[rows[t // NUM_SLOTS][s]].append(moves[t])
        # Down: the same, but a column reaching past ring 1 leaves no landing.
        if r:
            down = frm - NUM_SLOTS
            if cells[down] == EMPTY:
                groups[rows[r - 1][s]].append(moves[down])
            else:
                if bump_problem(cells, down, frm, bottom) is None:
                    groups[rows[r - 1][s]].append(moves[down])
                t = down - NUM_SLOTS
                while t >= 0 and cells[t] != EMPTY:
                    t -= NUM_SLOTS
                if t >= 0:
                    groups[rows[t // NUM_SLOTS][s]].append(moves[t])
        # Sideways, both ways round the ring; both ways may reach the same empty square.
        row = rows[r]
        base = r * NUM_SLOTS
        first_landing = -1
        for d in (1, NUM_SLOTS - 1):
            j = (s + d) % NUM_SLOTS
            if cells[base + j] == EMPTY:
                landing = j
            else:
                if bump_problem(cells, base + j, frm, bottom) is None:
                    groups[row[j]].append(moves[base + j])
                landing = -1
                k = (j + d) % NUM_SLOTS
                while k != s:
                    if cells[base + k] == EMPTY:
                        landing = k
                        break
                    k = (k + d) % NUM_SLOTS
            if landing >= 0 and landing != first_landing:
                groups[row[landing]].append(moves[base + landing])
                first_landing = landing
    if has_off:
        # Entering onto ring 1 at any slot, leapfrogging up a column where it is full.
        moves = _MOVES[OFF]
        onto_top = False
        for s in range(NUM_SLOTS):
            t = s
            while t < NUM_SQUARES and cells[t] != EMPTY:
                t += NUM_SLOTS
            if t < NUM_SQUARES:
                groups[rows[t // NUM_SLOTS][s]].append(moves[t])
            elif not onto_top:
                top_group.append(moves[TOP])
                onto_top = True
    return groups


def bump_problem(cells: list[int], target: int, origin: int, bottom: Bottom) -> Code | None:
    """The bottom rule (D12, D14) that forbids a bump of the pawn on ``target`` by the pawn
    leaving ``origin`` (a code of ``refusals.BUMP_REASONS``), or None if it is legal."""
    r, s = divmod(target, NUM_SLOTS)
    if r == 0:
        return Code.BOTTOM_RING
    while True:
        new = r - 2
        if bottom is Bottom.FLOOR:
            if r == 0:
                return Code.FLOOR_CHAIN
            new = max(new, 0)
        elif new < 0:
            if bottom is Bottom.PROTECT:
                return Code.BELOW_RING_1
            return None  # knock_off: that pawn goes back off the board
        sq = new * NUM_SLOTS + s
        if cells[sq] == EMPTY or sq == origin:
            return None
        r = new


def has_legal_play(state: CentrixState, seat: int) -> bool:
    """Whether any card in ``seat``'s hand has a legal play (D8), without listing them."""
    hand = state.hands[seat]
    if not hand or state.places[seat]:
        return False
    mine = [sq for sq, owner in enumerate(state.cells) if owner == seat]
    if mine and any(card is not Card.ANY for card in hand):
        return True  # a rotation of a ring you stand on is always a play
    has_off = len(mine) + state.top[seat] < state.rules.pawns
    if not mine and not has_off:
        return False
    groups = pawn_moves(state.cells, state.rows, mine, has_off, state._bottom)
    own = state.players[seat]
    for card in hand:
        colour = card.colour
        if colour is None:
            if any(groups):
                return True
        elif groups[colour] or (colour == own and groups[TOP_GROUP]):
            return True
    return False


def neighbours(sq: int) -> tuple[int, ...]:
    """The ring squares next to ``sq``: both ways round its ring, and above and below."""
    r, s = divmod(sq, NUM_SLOTS)
    base = r * NUM_SLOTS
    around = [base + (s + 1) % NUM_SLOTS, base + (s - 1) % NUM_SLOTS]
    if r:
        around.append(sq - NUM_SLOTS)
    if r < NUM_RINGS - 1:
        around.append(sq + NUM_SLOTS)
    return tuple(around)
