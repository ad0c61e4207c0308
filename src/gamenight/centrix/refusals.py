"""Why Centrix refuses a play, as a code and a sentence in English and in Korean.

A refusal names the rule that forbids the play in the rulebook's words (ring, slot, level,
pawn, leapfrog, bump, card, hand; in Korean 링, 자리, 층, 말, 뛰어넘기, 밀어내기, 카드, 손, as
``docs/rules/centrix.ko.md`` has them), so that a table can say it at any seat. It names the
card played and the board, which every seat sees, and never a hand's other cards.
``gamenight.centrix.explain`` finds the refusal of a play in a state; this module holds the
sentences.
"""

from __future__ import annotations

from enum import StrEnum

from gamenight.centrix.board import NUM_SQUARES, OFF, TOP, Colour
from gamenight.centrix.cards import Card
from gamenight.core import refusal


class Code(StrEnum):
    """What a refusal is about; a page looks its own words up by this code."""

    GAME_OVER = "game_over"
    NOT_A_PLAY = "not_a_play"
    NOT_A_CARD = "not_a_card"
    NOT_A_ROTATION = "not_a_rotation"
    NOT_A_MOVE = "not_a_move"
    NOT_A_SQUARE = "not_a_square"
    NOT_IN_HAND = "not_in_hand"
    WILD_CANNOT_TURN = "wild_cannot_turn"
    NO_SUCH_RING = "no_such_ring"
    SPIN_AMOUNT = "spin_amount"
    TURN_AMOUNT = "turn_amount"
    NOT_YOUR_RING = "not_your_ring"
    EMPTY_PLAY = "empty_play"
    TOP_STAYS = "top_stays"
    NONE_OFF = "none_off"
    NO_PAWN_THERE = "no_pawn_there"
    BOTTOM_RING = "bottom_ring"  # D14: a pawn on ring 1 is never bumped
    BELOW_RING_1 = "below_ring_1"  # D14 protect: a chain would drop a pawn off the board
    FLOOR_CHAIN = "floor_chain"  # D14 floor: a chain would move a pawn already on ring 1
    UNREACHABLE = "unreachable"
    TOP_COLOUR = "top_colour"
    WRONG_COLOUR = "wrong_colour"


Refusal = refusal.Refusal[Code]

BUMP_REASONS = {
    Code.BOTTOM_RING: ("a pawn on ring 1 cannot be bumped", "1번 링의 말은 밀어낼 수 없습니다"),
    Code.BELOW_RING_1: (
        "it would drop a pawn below ring 1",
        "그러면 말이 1번 링 아래로 떨어지게 됩니다",
    ),
    Code.FLOOR_CHAIN: (
        "the chain would have to move a pawn already on ring 1 (floor rule)",
        "연쇄 밀어내기가 이미 1번 링에 있는 말을 움직여야 합니다(바닥 규칙)",
    ),
}


def after_turn(turned: bool) -> tuple[str, str]:
    """The words that say the board is the one after the play's rotation, if it turned."""
    return (" after the rotation", "링을 돌린 뒤 ") if turned else ("", "")


def game_over() -> Refusal:
    """Any play after the end."""
    return Refusal(Code.GAME_OVER, "the game is over", "게임이 끝났습니다")


def not_a_play(kind: str) -> Refusal:
    """Something that is not a Play at all."""
    return Refusal(Code.NOT_A_PLAY, f"expected a Play, got {kind}", f"플레이가 아닙니다: {kind}")


def not_a_card(shown_card: str) -> Refusal:
    """A play whose card is not a card."""
    return Refusal(Code.NOT_A_CARD, f"{shown_card} is not a card", f"카드가 아닙니다: {shown_card}")


def not_a_rotation(shown_rotation: str) -> Refusal:
    """A play whose rotation is not a Rotation of whole numbers."""
    return Refusal(
        Code.NOT_A_ROTATION,
        f"{shown_rotation} is not a rotation: Rotation(ring, amount) of whole numbers",
        f"링 돌리기가 아닙니다: {shown_rotation} (링과 자리 수는 정수여야 합니다:"
        " Rotation(ring, amount))",
    )


def not_a_move(shown_move: str) -> Refusal:
    """A play whose move is not a Move of whole numbers."""
    return Refusal(
        Code.NOT_A_MOVE,
        f"{shown_move} is not a move: Move(from_square, to_square) of whole numbers",
        f"말 이동이 아닙니다: {shown_move} (출발 칸과 도착 칸은 정수여야 합니다:"
        " Move(from_square, to_square))",
    )


def not_a_square(sq: int) -> Refusal:
    """A move from or to a number that names no square."""
    return Refusal(
        Code.NOT_A_SQUARE,
        f"{sq} is not a square: ring squares are 0–{NUM_SQUARES - 1}, off the board is {OFF}"
        f" and the top {TOP}",
        f"{sq}번 칸은 없습니다: 링의 칸은 0–{NUM_SQUARES - 1}, 보드 밖은 {OFF}, 꼭대기는"
        f" {TOP}입니다",
    )


def not_in_hand(player: Colour, card: Card) -> Refusal:
    """A card the seat to move does not hold. Only that card is named: the hand's others
    are the seat's secret, and a refusal may be said where others hear it."""
    return Refusal(
        Code.NOT_IN_HAND,
        f"{player.name.lower()} does not hold {card}",
        f"{player.ko}의 손에는 {card} 카드가 없습니다",
    )


def wild_cannot_turn() -> Refusal:
    """A rotation with the any-colour wild (D7)."""
    return Refusal(
        Code.WILD_CANNOT_TURN,
        "the any-colour wild cannot rotate a ring",
        "아무 색 와일드 카드로는 링을 돌릴 수 없습니다",
    )


def no_such_ring(ring: int, rings: int) -> Refusal:
    """A rotation of a ring the board does not have."""
    return Refusal(
        Code.NO_SUCH_RING,
        f"there is no ring {ring}",
        f"{ring}번 링은 없습니다: 링은 1번부터 {rings}번까지입니다",
    )


def spin_amount(amount: int) -> Refusal:
    """A spin wild's rotation written outside -5…+6 (D7)."""
    return Refusal(
        Code.SPIN_AMOUNT,
        f"a spin is written from -5 to +6 slots, not {amount:+d}",
        f"회전 와일드 카드의 회전은 -5부터 +6 자리까지로 씁니다({amount:+d} 자리가 아님)",
    )


def turn_amount(card: Card, number: int, amount: int) -> Refusal:
    """A number card turning a ring by other than its number (D7)."""
    return Refusal(
        Code.TURN_AMOUNT,
        f"{card} turns a ring by exactly {number} slots, not {amount:+d}",
        f"{card} 카드는 링을 정확히 {number} 자리 돌립니다({amount:+d} 자리가 아님)",
    )


def not_your_ring(ring: int) -> Refusal:
    """A rotation of a ring without the mover's pawn (D7)."""
    return Refusal(
        Code.NOT_YOUR_RING,
        f"you have no pawn on ring {ring}, so you cannot turn it",
        f"{ring}번 링에 내 말이 없어서 돌릴 수 없습니다: 자기 말이 있는 링만 돌릴 수 있습니다",
    )


def empty_play() -> Refusal:
    """A play with neither a rotation nor a move (D7)."""
    return Refusal(
        Code.EMPTY_PLAY,
        "a play needs a rotation, a move or both",
        "카드 플레이에는 링 돌리기나 말 이동, 또는 둘 다가 있어야 합니다",
    )


def top_stays() -> Refusal:
    """A move from the top (D1)."""
    return Refusal(
        Code.TOP_STAYS,
        "a pawn on the top never moves again",
        "꼭대기에 오른 말은 다시는 움직이지 않습니다",
    )


def none_off() -> Refusal:
    """An entry with every pawn already on the board or the top."""
    return Refusal(
        Code.NONE_OFF, "you have no pawn off the board", "보드 밖에 남은 내 말이 없습니다"
    )


def no_pawn_there(square: str, turned: bool) -> Refusal:
    """A move from a square without the mover's pawn (after the play's rotation, if any)."""
    en, ko = after_turn(turned)
    return Refusal(
        Code.NO_PAWN_THERE,
        f"you have no pawn on {square}{en}",
        f"{ko}{square} 칸에는 내 말이 없습니다",
    )


def cannot_bump(frm: str, to: str, code: Code) -> Refusal:
    """A bump the bottom rule (D14) forbids; ``code`` is one of ``BUMP_REASONS``."""
    en, ko = BUMP_REASONS[code]
    return Refusal(
        code,
        f"{frm} cannot bump {to}: {en}",
        f"{frm} 칸의 말은 {to} 칸의 말을 밀어낼 수 없습니다: {ko}",
    )


def unreachable(frm: str, to: str, turned: bool) -> Refusal:
    """A move that is no step, bump or leapfrog (D10–D12)."""
    en, ko = after_turn(turned)
    return Refusal(
        Code.UNREACHABLE,
        f"{frm} cannot reach {to}{en}: a pawn steps to a neighbouring empty square, bumps a"
        " neighbour, or leapfrogs a line of pawns, always straight up, down or sideways",
        f"{ko}{frm}에서 {to}까지는 갈 수 없습니다: 말은 이웃한 빈 칸으로 한 칸 가거나, 이웃한"
        " 말을 밀어내거나, 한 줄로 늘어선 말들을 뛰어넘으며, 언제나 곧게 위, 아래 또는 옆으로만"
        " 움직입니다",
    )


def top_colour(own: Colour, card: Card, colour: Colour) -> Refusal:
    """A numbered card of another colour than the mover's, onto the top (D13)."""
    return Refusal(
        Code.TOP_COLOUR,
        f"entering the top with a numbered card needs your own colour ({own.name.lower()});"
        f" {card} is {colour.name.lower()}",
        f"숫자 카드로 꼭대기에 오르려면 내 말의 색({own.ko}) 카드여야 합니다. {card} 카드는"
        f" {colour.ko}입니다",
    )


def wrong_colour(to: str, found: Colour, card: Card, colour: Colour, turned: bool) -> Refusal:
    """A move onto a square of another colour than the card's (D13)."""
    en, ko = after_turn(turned)
    return Refusal(
        Code.WRONG_COLOUR,
        f"{to} is {found.name.lower()}{en}, but {card} moves only onto {colour.name.lower()}",
        f"{ko}{to} 칸은 {found.ko}인데, {card} 카드로는 {colour.ko} 칸으로만 갈 수 있습니다",
    )
