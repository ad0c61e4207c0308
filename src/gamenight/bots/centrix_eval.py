"""A documented one-ply evaluation of a Centrix position, shared by Greedy and ISMCTS.

score(seat) = progress + 0.5 × opportunities − threats, where
- progress: the sum of the seat's pawn levels, a pawn on the top counting 9 (it is safe
  there and needs the hard own-colour entry, so it is worth more than "level 7");
- opportunities: for the seat to move, how many cards in its hand have an upward move
  (a climb, a leapfrog up, an entry or a move onto the top) on the board as it stands;
- threats: for each of its pawns that an opponent's pawn next to it could bump under the
  rules' bottom variant, the expected loss — two levels times 0.4, a rough chance that the
  opponent holds the colour.

The value of a position for a seat is its score minus the best opponent's score.
"""

from __future__ import annotations

from gamenight.centrix.board import NUM_RINGS, NUM_SLOTS, NUM_SQUARES, OFF, TOP
from gamenight.centrix.rules import Bottom
from gamenight.centrix.state import EMPTY, CentrixState

TOP_VALUE = 9.0
OPPORTUNITY = 0.5
THREAT = 2 * 0.4


def progress(state: CentrixState, seat: int) -> float:
    on_board = sum(sq // NUM_SLOTS + 1 for sq, owner in enumerate(state.cells) if owner == seat)
    return on_board + TOP_VALUE * state.top[seat]


def threats(state: CentrixState, seat: int) -> float:
    cells = state.cells
    lowest = 3 if state.rules.bottom is Bottom.PROTECT else 2
    total = 0.0
    for sq, owner in enumerate(cells):
        if owner != seat or sq // NUM_SLOTS + 1 < lowest:
            continue
        r, s = divmod(sq, NUM_SLOTS)
        base = r * NUM_SLOTS
        around = [base + (s + 1) % NUM_SLOTS, base + (s - 1) % NUM_SLOTS, sq - NUM_SLOTS]
        if r < NUM_RINGS - 1:
            around.append(sq + NUM_SLOTS)
        if any(cells[n] != EMPTY and cells[n] != seat for n in around):
            total += THREAT
    return total


def opportunities(state: CentrixState, seat: int) -> int:
    """Cards in ``seat``'s hand with an upward move on the board as it stands."""
    hand = state.hands[seat]
    if not hand:
        return 0
    mine = [sq for sq, owner in enumerate(state.cells) if owner == seat]
    has_off = len(mine) + state.top[seat] < 3
    groups = state._moves(state.cells, state.rows, mine, has_off)
    upward = [any(_climbs(mv.from_square, mv.to_square) for mv in group) for group in groups]
    own = state.players[seat]
    count = 0
    for card in hand:
        colour = card.colour
        if colour is None:
            count += any(upward)
        else:
            count += upward[colour] or (colour == own and upward[6])
    return count


def _climbs(frm: int, to: int) -> bool:
    if to == TOP:
        return True
    if frm == OFF:
        return True
    return to < NUM_SQUARES and to // NUM_SLOTS > frm // NUM_SLOTS


def score(state: CentrixState, seat: int) -> float:
    value = progress(state, seat) - threats(state, seat)
    if state.to_move == seat:
        value += OPPORTUNITY * opportunities(state, seat)
    return value


def value(state: CentrixState, seat: int) -> float:
    """The seat's score minus the best opponent's: what Greedy maximises."""
    scores = [score(state, s) for s in range(state.num_players)]
    mine = scores[seat]
    others = [x for s, x in enumerate(scores) if s != seat and not state.places[s]]
    return mine - max(others, default=0.0)
