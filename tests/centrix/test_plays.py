"""Play notation: every form reads back to the same value; bad text names the problem."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.centrix import (
    OFF,
    TOP,
    Card,
    CentrixState,
    Colour,
    IllegalPlayError,
    Move,
    Play,
    Rotation,
    parse_play,
    parse_square,
)
from gamenight.centrix.board import NUM_SQUARES, SQUARE_NAMES
from gamenight.centrix.cards import parse_cards
from gamenight.centrix.plays import parse_rotation
from gamenight.core.errors import NotationError
from tests.parsing import SETTINGS, any_text, json_like, mutated_text, only_raises


@pytest.mark.parametrize(
    ("text", "play"),
    [
        ("R2 3+2 c3-d3", Play(Card.R2, Rotation(3, 2), Move(parse_square("c3"), 27))),
        ("B1 e4-e5", Play(Card.B1, None, Move(40, 52))),
        ("G3 2-3", Play(Card.G3, Rotation(2, -3), None)),
        ("A off-c1", Play(Card.ANY, None, Move(OFF, 2))),
        ("S 6+5 b6-top", Play(Card.SPIN, Rotation(6, 5), Move(61, TOP))),
    ],
)
def test_examples_from_the_docs(text: str, play: Play) -> None:
    assert parse_play(text) == play
    assert str(play) == text


def test_bump_may_be_written_with_x_and_spins_are_canonical() -> None:
    assert parse_play("Y1 c2xc3") == parse_play("Y1 c2-c3")
    assert str(parse_play("S 1+7")) == "S 1-5"
    assert str(parse_play("S 1-6")) == "S 1+6"
    assert parse_play("  r2   3+2 ") == Play(Card.R2, Rotation(3, 2))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("Q2 c3-d3", "not a card"),
        ("R4", "not a card"),
        ("R2", "needs a rotation, a move or both"),
        ("R2 7+2", "no ring 7"),
        ("R2 3+12", "1–11 slots"),
        ("R2 c3-z9", "not a square"),
        ("R2 top-c3", "never moves"),
        ("R2 c3-off", "off the board"),
        ("R2 c3-c3", "does not go anywhere"),
        ("R2 c3-d3 3+1", "before the move"),
        ("R2 3+1 3+1", "once"),
        ("R2 c3-d3 d3-e3", "two moves"),
        ("R2 hello", "neither a rotation"),
        ("R2 3+1 c3-d3 x", "too many parts"),
    ],
)
def test_malformed_notation_names_the_problem(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_play(text)


def test_cards_and_squares_read_their_own_names() -> None:
    for card in Card:
        assert Card.parse(str(card)) is card
    for sq, name in enumerate(SQUARE_NAMES):
        assert parse_square(name) == sq
    assert len(SQUARE_NAMES) == NUM_SQUARES + 2


squares = st.integers(0, NUM_SQUARES + 1)


@given(
    card=st.sampled_from(list(Card)),
    rotation=st.none() | st.builds(Rotation, st.integers(1, 6), st.sampled_from([-3, -1, 1, 2])),
    move=st.none()
    | st.builds(
        Move,
        st.integers(0, NUM_SQUARES),
        st.integers(0, NUM_SQUARES + 1).filter(lambda t: t != OFF),
    ),
)
def test_notation_round_trips(card: Card, rotation: Rotation | None, move: Move | None) -> None:
    if rotation is None and move is None:
        return
    if move is not None and move.from_square == move.to_square:
        return
    play = Play(card, rotation, move)
    assert parse_play(str(play)) == play


def test_a_rotation_token_reads_alone_and_refuses_by_name() -> None:
    from gamenight.centrix.plays import parse_rotation

    assert parse_rotation("3+2") == Rotation(3, 2)
    assert parse_rotation(" 6-11 ") == Rotation(6, -11)  # as written, not a spin's canonical −5…+6
    for bad, message in (
        ("a1-b1", "'a1-b1' is not a rotation"),
        ("7+1", "there is no ring 7"),
        ("2+12", "turns by 1–11 slots"),
    ):
        with pytest.raises(NotationError, match=message):
            parse_rotation(bad)


PLAY_TEXTS = ["R2 3+2 c3-d3", "B1 e4-e5", "G3 2-3", "A off-c1", "S 6+5 b6-top", "Y1 c2xc3"]
NOTATION_READERS = [parse_play, parse_rotation, Card.parse, parse_cards, parse_square]
NOTATION_READERS += [Colour.parse, Colour.from_letter]


@settings(**SETTINGS)
@given(
    st.one_of(
        any_text,
        json_like,
        st.sampled_from([*PLAY_TEXTS, "3+2", "R1B3S", "red"]).flatmap(mutated_text),
    )
)
def test_any_input_gives_notation_or_a_notation_error(text: Any) -> None:
    play = only_raises(NotationError, parse_play, text)
    if play is not None:
        assert parse_play(str(play)) == play
    for read in NOTATION_READERS:
        only_raises(NotationError, read, text)
    state = CentrixState.new(3, seed=1)
    assert state.is_legal(text) in (True, False)  # never raises
    only_raises((NotationError, IllegalPlayError), state.parse_play, text)
    only_raises((NotationError, IllegalPlayError), state.push, text)


@pytest.mark.parametrize("text", ["R1 3+٣", "R1 3+１", "R1 3+²", "R1 c٣-c4", "S 6+٠٥"])
def test_rotations_and_squares_are_ascii_digits(text: str) -> None:
    # The rotation's pattern matched \d, which is every script's digits: '3+٣' read as 3+3.
    with pytest.raises(NotationError):
        parse_play(text)
