"""Why a Centrix play is illegal, in words a player understands (the rule explanations).

``problem(state, play)`` is the one check of a play: ``push``, ``is_legal``, ``parse_play``
and ``effects`` all ask it (``check`` raises its English as the IllegalPlayError). It answers
with a Refusal (a code, an English and a Korean sentence, ``gamenight.centrix.refusals``),
Color City's shape, so that a table says "why not?" alike for both games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from gamenight.centrix import refusals
from gamenight.centrix.board import NUM_RINGS, NUM_SLOTS, NUM_SQUARES, OFF, TOP, Colour
from gamenight.centrix.cards import Card
from gamenight.centrix.movegen import (
    EMPTY,
    TOP_GROUP,
    bump_problem,
    neighbours,
    pawn_moves,
    rotated,
)
from gamenight.centrix.plays import Move, Play, Rotation, spin_amount, square_text
from gamenight.centrix.refusals import Refusal
from gamenight.core.errors import IllegalActionError, shown

if TYPE_CHECKING:
    from gamenight.centrix.state import CentrixState


class IllegalPlayError(IllegalActionError):
    """A play the rules do not allow here. The message says why; the state is untouched."""


def check(state: CentrixState, play: object) -> None:
    """IllegalPlayError saying why ``play`` is illegal in ``state``, if it is."""
    found = problem(state, play)
    if found is not None:
        before = f"{written(play)}: "
        raise IllegalPlayError(before + found.en, rule=found.code, words=found.words(before))


def problem(state: CentrixState, play: object) -> Refusal | None:
    """Why ``play`` is illegal here: the rule it breaks, as a code and in English and
    Korean; None if legal."""
    if state.is_over:
        return refusals.game_over()
    if not isinstance(play, Play):
        return refusals.not_a_play(type(play).__name__)
    seat = state._seat
    card, rot, move = play
    if not isinstance(card, Card):
        return refusals.not_a_card(shown(card))
    if rot is not None and not (isinstance(rot, Rotation) and whole_numbers(rot)):
        return refusals.not_a_rotation(shown(rot))
    if move is not None:
        if not (isinstance(move, Move) and whole_numbers(move)):
            return refusals.not_a_move(shown(move))
        for sq in move:
            if not 0 <= sq <= TOP:
                return refusals.not_a_square(sq)
    if card not in state.hands[seat]:
        return refusals.not_in_hand(state.players[seat], card)
    cells, rows = state.cells, state.rows
    mine = [sq for sq, owner in enumerate(cells) if owner == seat]
    if rot is not None:
        if card is Card.ANY:
            return refusals.wild_cannot_turn()
        if not 1 <= rot.ring <= NUM_RINGS:
            return refusals.no_such_ring(rot.ring, NUM_RINGS)
        if card is Card.SPIN:
            if not 0 < abs(rot.amount) < NUM_SLOTS or rot.amount != spin_amount(rot.amount):
                return refusals.spin_amount(rot.amount)
        elif abs(rot.amount) != card.number:
            return refusals.turn_amount(card, card.number, rot.amount)
        if not any(sq // NUM_SLOTS == rot.ring - 1 for sq in mine):
            return refusals.not_your_ring(rot.ring)
        cells, rows, mine = rotated(state, rot.ring - 1, rot.amount, mine)
    if move is None:
        return None if rot is not None else refusals.empty_play()
    frm, to = move
    turned = rot is not None
    if frm == TOP:
        return refusals.top_stays()
    if frm == OFF:
        if len(mine) + state.top[seat] >= state.rules.pawns:
            return refusals.none_off()
    elif not 0 <= frm < NUM_SQUARES or cells[frm] != seat:
        return refusals.no_pawn_there(square_text(frm), turned)
    groups = pawn_moves(cells, rows, [frm] if frm != OFF else [], frm == OFF, state._bottom)
    found = next((i for i, group in enumerate(groups) if move in group), None)
    if found is None:
        bump = None
        if frm != OFF and to in neighbours(frm) and cells[to] != EMPTY:
            bump = bump_problem(cells, to, frm, state._bottom)
        if bump is not None:
            return refusals.cannot_bump(square_text(frm), square_text(to), bump)
        return refusals.unreachable(square_text(frm), square_text(to), turned)
    colour = card.colour
    if colour is None:
        return None
    if found == TOP_GROUP:
        own = state.players[seat]
        return refusals.top_colour(own, card, colour) if colour != own else None
    if found != colour:
        return refusals.wrong_colour(square_text(to), Colour(found), card, colour, turned)
    return None


def whole_numbers(values: tuple[object, ...]) -> bool:
    """Whether every value is an int and none a bool."""
    # A Play built by hand may hold anything; bools are ints but never mean a ring or square.
    # A loop, not a generator: every play checked asks this (an exact int passes at once).
    for v in values:
        if type(v) is not int and (not isinstance(v, int) or isinstance(v, bool)):
            return False
    return True


def hand_text(hand: Sequence[Card]) -> str:
    """A hand as its cards' notation, or ``(empty)``."""
    return " ".join(str(c) for c in hand) or "(empty)"


def written(play: object) -> str:
    """A play as its notation, or its repr where it holds what no notation writes."""
    # A hand-built play may hold what no notation can write; its error must still show it.
    try:
        return str(play)
    except (TypeError, ValueError):
        return shown(play)
