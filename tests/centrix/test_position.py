"""The position string round-trips exactly and refuses malformed text field by field."""

from __future__ import annotations

import random

import pytest

from gamenight.centrix import CentrixState, Position, PositionError

from .helpers import position


def sample_states(count: int) -> list[CentrixState]:
    rng = random.Random(8)
    states = []
    for i in range(count):
        state = CentrixState.new(rng.randint(2, 6), seed=i, first=0)
        for _ in range(rng.choice([rng.randint(0, 800), 5000])):
            if state.is_over:
                break
            state.push(rng.choice(state.legal_plays()))
        states.append(state)
    return states


def test_round_trip_over_random_games_including_finished_ones() -> None:
    states = sample_states(25)
    assert any(s.is_over for s in states)
    assert any(not s.is_over for s in states)
    for state in states:
        text = state.position()
        again = CentrixState.from_position(text)
        assert again.position() == text
        assert again == state
        assert Position.parse(text) == state.to_position()


def test_a_parsed_position_plays_on_identically() -> None:
    rng = random.Random(3)
    state = sample_states(1)[0]
    while state.is_over:
        state = CentrixState.new(3, seed=rng.getrandbits(16))
    twin = CentrixState.from_position(state.position())
    for _ in range(300):
        if state.is_over:
            break
        play = rng.choice(state.legal_plays())
        assert twin.legal_plays() == state.legal_plays()
        state.push(play)
        twin.push(play)
        assert twin.position() == state.position()


GOOD = position({3: "..r........."}, ("A", "-"), top="20")


def broken(index: int, value: str) -> str:
    fields = GOOD.split()
    fields[index] = value
    return " ".join(fields)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "13 fields"),
        (GOOD + " extra", "13 fields"),
        (broken(0, "RR"), "distinct"),
        (broken(0, "RX"), "not a colour"),
        (broken(1, "00000z"), "offsets"),
        (broken(2, "..."), "rings"),
        (broken(2, GOOD.split()[2].replace("r", "q")), "pawn letter"),
        (broken(3, "2"), "one digit per seat"),
        (broken(3, "30"), "more than 3 pawns"),
        (broken(4, "A"), "one group per seat"),
        (broken(4, "AAAA,-"), "at most 3"),
        (broken(4, "SA,-"), "sorted"),
        (broken(4, "Q1,-"), "hands: 'Q1' is not a card"),
        (broken(5, "-"), "42 cards exactly; missing"),
        (broken(7, "xyz"), "key"),
        (broken(8, "5"), "not a seat"),
        (broken(9, "3"), "0–2"),
        (broken(10, "ten"), "turn"),
        (broken(11, "-"), "places"),
        (broken(12, "paused"), "status"),
        (broken(12, "finished"), "unplaced"),
    ],
)
def test_malformed_positions_name_the_field(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        CentrixState.from_position(text)
