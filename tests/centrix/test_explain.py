"""Centrix's refusals: one position per code, each naming its rule in English and Korean, and
none naming a card of any hand but the one played."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from gamenight.centrix import (
    OFF,
    TOP,
    Bottom,
    Card,
    CentrixState,
    IllegalPlayError,
    Move,
    Play,
    Rotation,
    Rules,
    square,
)
from gamenight.centrix.explain import problem, written
from gamenight.centrix.plays import parse_play
from gamenight.centrix.refusals import Code

from .helpers import ring, state

HANGUL = re.compile("[\uac00-\ud7a3]")
CARD_WORD = re.compile(r"(?<![A-Za-z0-9])(?:[ROYGBW][1-3]|[AS])(?![A-Za-z0-9])")


def on(
    rings: dict[int, str], hand: str, top: str = "20", bottom: Bottom = Bottom.PROTECT
) -> Callable[[], CentrixState]:
    """Red to move holding ``hand``, its other pawns on the top; blue holds nothing."""
    return lambda: state(rings, (hand, "-"), top=top, rules=Rules(bottom=bottom))


def over() -> CentrixState:
    s = state({6: ring(a="r")}, ("R1", "-"), top="21")
    s.push("R1 a6-top")
    assert s.is_over
    return s


def new() -> CentrixState:
    s = CentrixState.new(2, seed=1)
    assert s.hands[0] == [Card.O3, Card.W2, Card.SPIN]
    return s


def a(text: str) -> Play:
    return parse_play(text)


# code: the position, the play, a word of the English and one of the Korean that name the rule.
CASES: dict[Code, tuple[Callable[[], CentrixState], object, str, str]] = {
    Code.GAME_OVER: (over, a("R1 a1-b1"), "the game is over", "게임이 끝났습니다"),
    Code.NOT_A_PLAY: (new, 5, "expected a Play, got int", "플레이가 아닙니다"),
    Code.NOT_A_CARD: (new, Play("R9", None, Move(OFF, 1)), "'R9' is not a card", "카드"),  # type: ignore[arg-type]
    Code.NOT_A_ROTATION: (
        new,
        Play(Card.O3, Rotation(1, 1.5), None),
        "not a rotation",
        "링 돌리기",
    ),  # type: ignore[arg-type]
    Code.NOT_A_MOVE: (new, Play(Card.O3, None, (OFF, 1)), "not a move", "말 이동"),  # type: ignore[arg-type]
    Code.NOT_A_SQUARE: (new, Play(Card.O3, None, Move(OFF, 99)), "99 is not a square", "칸"),
    Code.NOT_IN_HAND: (new, a("B1 off-e1"), "red does not hold B1", "빨강의 손에는 B1"),
    Code.WILD_CANNOT_TURN: (
        on({1: ring(a="r")}, "A"),
        Play(Card.ANY, Rotation(1, 1), None),
        "the any-colour wild cannot rotate a ring",
        "아무 색 와일드 카드로는 링을 돌릴 수 없습니다",
    ),
    Code.NO_SUCH_RING: (
        on({1: ring(a="r")}, "R1"),
        Play(Card.R1, Rotation(7, 1), None),
        "there is no ring 7",
        "7번 링",
    ),
    Code.SPIN_AMOUNT: (
        on({1: ring(a="r")}, "S"),
        Play(Card.SPIN, Rotation(1, 7), None),
        "+7",
        "자리",
    ),
    Code.TURN_AMOUNT: (
        on({1: ring(a="r")}, "R2"),
        a("R2 1+1"),
        "R2 turns a ring by exactly 2 slots",
        "정확히 2 자리",
    ),
    Code.NOT_YOUR_RING: (
        on({1: ring(a="r")}, "R1"),
        a("R1 3+1"),
        "no pawn on ring 3",
        "자기 말이 있는 링만",
    ),
    Code.EMPTY_PLAY: (
        on({1: ring(a="r")}, "R1"),
        Play(Card.R1, None, None),
        "a rotation, a move or both",
        "링 돌리기나 말 이동",
    ),
    Code.TOP_STAYS: (
        on({1: ring(a="r")}, "A"),
        Play(Card.ANY, None, Move(TOP, square(6, 0))),
        "a pawn on the top never moves again",
        "꼭대기",
    ),
    Code.NONE_OFF: (on({1: ring(a="r")}, "A"), a("A off-b1"), "no pawn off the board", "보드 밖"),
    Code.NO_PAWN_THERE: (
        on({1: ring(a="r")}, "A"),
        a("A c1-c2"),
        "you have no pawn on c1",
        "c1 칸에는 내 말이 없습니다",
    ),
    Code.BOTTOM_RING: (
        on({1: ring(c="r", d="b")}, "A"),
        a("A c1-d1"),
        "a pawn on ring 1 cannot be bumped",
        "1번 링의 말은 밀어낼 수 없습니다",
    ),
    Code.BELOW_RING_1: (
        on({2: ring(c="r", d="b")}, "A"),
        a("A c2-d2"),
        "c2 cannot bump d2: it would drop a pawn below ring 1",
        "1번 링 아래로",
    ),
    Code.FLOOR_CHAIN: (
        on({2: ring(c="r", d="b"), 1: ring(d="b")}, "A", bottom=Bottom.FLOOR),
        a("A c2-d2"),
        "already on ring 1 (floor rule)",
        "바닥 규칙",
    ),
    Code.UNREACHABLE: (
        on({1: ring(c="r"), 2: ring(c="b"), 3: ring(c="b")}, "Y1"),
        a("Y1 c1-c3"),
        "c1 cannot reach c3",
        "뛰어넘",
    ),
    Code.TOP_COLOUR: (
        on({6: ring(c="r")}, "B1"),
        a("B1 c6-top"),
        "needs your own colour (red); B1 is blue",
        "내 말의 색(빨강)",
    ),
    Code.WRONG_COLOUR: (
        on({3: ring(c="r")}, "B1"),
        a("B1 c3-c4"),
        "c4 is yellow, but B1 moves only onto blue",
        "c4 칸은 노랑인데, B1 카드로는 파랑 칸으로만",
    ),
}


def test_every_code_has_a_case() -> None:
    assert set(CASES) == set(Code)


@pytest.mark.parametrize("code", list(Code))
def test_each_refusal_names_its_rule_in_english_and_korean(code: Code) -> None:
    make, play, en_words, ko_words = CASES[code]
    s = make()
    found = problem(s, play)
    assert found is not None
    assert found.code is code
    assert en_words in found.en
    assert not HANGUL.search(found.en)
    assert ko_words in found.ko
    assert HANGUL.search(found.ko)
    assert str(found) == found.en
    before = s.position()
    with pytest.raises(IllegalPlayError) as caught:
        s.push(play)  # type: ignore[arg-type]
    assert str(caught.value) == f"{written(play)}: {found.en}"  # push says what explain says
    assert s.position() == before


@pytest.mark.parametrize("code", list(Code))
def test_a_refusal_names_no_card_but_the_one_played(code: Code) -> None:
    make, play, _, _ = CASES[code]
    found = problem(make(), play)
    assert found is not None
    played = {str(play.card)} if isinstance(play, Play) else set()
    for text in found:
        if text is not found.code:
            assert set(CARD_WORD.findall(text)) <= played, text


def test_a_card_not_held_keeps_the_hand_secret() -> None:
    s = new()
    found = problem(s, a("B1 off-e1"))
    assert found is not None
    for card in {*s.hands[0], *s.hands[1], *s.draw} - {Card.B1}:
        assert str(card) not in found.en
        assert str(card) not in found.ko


def test_a_move_after_the_rotation_says_so_in_both_languages() -> None:
    s = on({1: ring(a="r")}, "R1")()
    found = problem(s, a("R1 1+1 a1-a2"))
    assert found is not None
    assert found.code is Code.NO_PAWN_THERE
    assert found.en == "you have no pawn on a1 after the rotation"
    assert found.ko.startswith("링을 돌린 뒤")


def test_the_error_push_raises_carries_the_rule_and_its_words() -> None:
    state = CentrixState.new(2, seed=1)  # red holds O3 W2 S
    with pytest.raises(IllegalPlayError) as raised:
        state.push("R2 off-b1")
    assert raised.value.rule == "not_in_hand"
    assert raised.value.words["en"] == str(raised.value)
    assert raised.value.words["ko"].startswith("R2 off-b1: ")
    assert raised.value.words["ko"] != raised.value.words["en"]
