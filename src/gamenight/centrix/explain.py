"""Why a Centrix play is illegal, in words a player understands (the rule explanations).

``problem(state, play)`` is the one check of a play: ``push``, ``is_legal``, ``parse_play``
and ``effects`` all ask it (``check`` raises its answer as the IllegalPlayError).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

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
from gamenight.core.errors import IllegalActionError, shown

if TYPE_CHECKING:
    from gamenight.centrix.state import CentrixState


class IllegalPlayError(IllegalActionError):
    """A play the rules do not allow here. The message says why; the state is untouched."""


def check(state: CentrixState, play: object) -> None:
    """IllegalPlayError saying why ``play`` is illegal in ``state``, if it is."""
    found = problem(state, play)
    if found is not None:
        raise IllegalPlayError(f"{written(play)}: {found}")


def problem(state: CentrixState, play: object) -> str | None:
    """Why ``play`` is illegal here, in words a player understands; None if legal."""
    if state.is_over:
        return "the game is over"
    if not isinstance(play, Play):
        return f"expected a Play, got {type(play).__name__}"
    seat = state._seat
    card, rot, move = play
    if not isinstance(card, Card):
        return f"{shown(card)} is not a card"
    if rot is not None and not (isinstance(rot, Rotation) and whole_numbers(rot)):
        return f"{shown(rot)} is not a rotation: Rotation(ring, amount) of whole numbers"
    if move is not None:
        if not (isinstance(move, Move) and whole_numbers(move)):
            return f"{shown(move)} is not a move: Move(from_square, to_square) of whole numbers"
        for sq in move:
            if not 0 <= sq <= TOP:
                return (
                    f"{sq} is not a square: ring squares are 0–{NUM_SQUARES - 1}, off the"
                    f" board is {OFF} and the top {TOP}"
                )
    hand = state.hands[seat]
    if card not in hand:
        return f"{state.players[seat].name.lower()} does not hold {card} (hand: " + (
            " ".join(str(c) for c in hand) + ")"
        )
    cells, rows = state.cells, state.rows
    mine = [sq for sq, owner in enumerate(cells) if owner == seat]
    if rot is not None:
        if card is Card.ANY:
            return "the any-colour wild cannot rotate a ring"
        if not 1 <= rot.ring <= NUM_RINGS:
            return f"there is no ring {rot.ring}"
        if card is Card.SPIN:
            if not 0 < abs(rot.amount) < NUM_SLOTS or rot.amount != spin_amount(rot.amount):
                return f"a spin is written from -5 to +6 slots, not {rot.amount:+d}"
        elif abs(rot.amount) != card.number:
            return f"{card} turns a ring by exactly {card.number} slots, not {rot.amount:+d}"
        if not any(sq // NUM_SLOTS == rot.ring - 1 for sq in mine):
            return f"you have no pawn on ring {rot.ring}, so you cannot turn it"
        cells, rows, mine = rotated(state, rot.ring - 1, rot.amount, mine)
    if move is None:
        return None if rot is not None else "a play needs a rotation, a move or both"
    frm, to = move
    after = " after the rotation" if rot is not None else ""
    if frm == TOP:
        return "a pawn on the top never moves again"
    if frm == OFF:
        if len(mine) + state.top[seat] >= state.rules.pawns:
            return "you have no pawn off the board"
    elif not 0 <= frm < NUM_SQUARES or cells[frm] != seat:
        return f"you have no pawn on {square_text(frm)}{after}"
    groups = pawn_moves(cells, rows, [frm] if frm != OFF else [], frm == OFF, state._bottom)
    found = next((i for i, group in enumerate(groups) if move in group), None)
    if found is None:
        if frm != OFF and to in neighbours(frm) and cells[to] != EMPTY:
            return f"{square_text(frm)} cannot bump {square_text(to)}: " + (
                bump_problem(cells, to, frm, state._bottom) or "no bump there"
            )
        return (
            f"{square_text(frm)} cannot reach {square_text(to)}{after}: a pawn steps to a"
            " neighbouring empty square, bumps a neighbour, or leapfrogs a line of pawns,"
            " always straight up, down or sideways"
        )
    colour = card.colour
    if colour is None:
        return None
    if found == TOP_GROUP:
        own = state.players[seat]
        if colour != own:
            return (
                f"entering the top with a numbered card needs your own colour "
                f"({own.name.lower()}); {card} is {colour.name.lower()}"
            )
        return None
    if found != colour:
        return (
            f"{square_text(to)} is {Colour(found).name.lower()}{after}, "
            f"but {card} moves only onto {colour.name.lower()}"
        )
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
