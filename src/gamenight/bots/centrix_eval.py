"""A documented one-ply evaluation of a Centrix position, shared by every Centrix bot.

score(seat) = progress + 0.5 × opportunities − 0.8 × threatened pawns, where
- progress: the sum of the seat's pawn levels, a pawn on the top counting 9 (it is safe
  there and needs the hard own-colour entry, so it is worth more than "level 7");
- opportunities: for the seat to move, how many cards in its hand have an upward move
  (a climb, a leapfrog up, an entry or a move onto the top) on the board as it stands;
- threatened pawns: its pawns that an opponent's pawn next to it could bump under the
  rules' bottom variant; 0.8 is two levels times 0.4, a rough chance that the opponent
  holds the colour.

The value of a position for a seat is its score minus the best opponent's score. The three
weights live in ``Weights`` so that the bots (and designers) can try others; docs/ai.md
records what other weights, and weights fitted to game outcomes, did (no better).
"""

from __future__ import annotations

from dataclasses import dataclass

from gamenight.centrix import native
from gamenight.centrix.board import NUM_RINGS, NUM_SLOTS, NUM_SQUARES, OFF, TOP
from gamenight.centrix.rules import Bottom
from gamenight.centrix.state import EMPTY, TOP_GROUP, CentrixState


@dataclass(frozen=True)
class Weights:
    top: float = 9.0
    opportunity: float = 0.5
    threat: float = 2 * 0.4


DEFAULT = Weights()


def scores(state: CentrixState, weights: Weights = DEFAULT) -> list[float]:
    """Every seat's score, in one pass over the board (this is the bots' inner loop).
    The compiled core computes the same floats where it is active (gamenight.centrix.native);
    this code is the reference."""
    fast = native.scores(state, weights.top, weights.opportunity, weights.threat)
    if fast is not None:
        return fast
    cells = state.cells
    out = [weights.top * on_top for on_top in state.top]
    # Under ``protect`` a pawn on ring 1 or 2 cannot be bumped, otherwise only ring 1 is safe.
    first_bumpable = (2 if state.rules.bottom is Bottom.PROTECT else 1) * NUM_SLOTS
    threat = weights.threat
    for sq, owner in enumerate(cells):
        if owner == EMPTY:
            continue
        r, s = divmod(sq, NUM_SLOTS)
        out[owner] += r + 1
        if sq < first_bumpable:
            continue
        base = r * NUM_SLOTS
        around = [base + (s + 1) % NUM_SLOTS, base + (s - 1) % NUM_SLOTS, sq - NUM_SLOTS]
        if r < NUM_RINGS - 1:
            around.append(sq + NUM_SLOTS)
        if any(cells[n] != EMPTY and cells[n] != owner for n in around):
            out[owner] -= threat
    mover = state.to_move
    if weights.opportunity and mover is not None:
        out[mover] += weights.opportunity * opportunities(state, mover)
    return out


def opportunities(state: CentrixState, seat: int) -> int:
    """Cards in ``seat``'s hand with an upward move on the board as it stands."""
    hand = state.hands[seat]
    if not hand:
        return 0
    groups = state.moves_by_colour(seat)
    upward = [any(_climbs(mv.from_square, mv.to_square) for mv in group) for group in groups]
    own = state.players[seat]
    count = 0
    for card in hand:
        colour = card.colour
        if colour is None:
            count += any(upward)
        else:
            count += upward[colour] or (colour == own and upward[TOP_GROUP])
    return count


def _climbs(frm: int, to: int) -> bool:
    if to == TOP:
        return True
    if frm == OFF:
        return True
    return to < NUM_SQUARES and to // NUM_SLOTS > frm // NUM_SLOTS


def value(state: CentrixState, seat: int, weights: Weights = DEFAULT) -> float:
    """The seat's score minus the best opponent's: what Greedy maximises."""
    all_scores = scores(state, weights)
    others = [x for s, x in enumerate(all_scores) if s != seat and not state.places[s]]
    return all_scores[seat] - max(others, default=0.0)
