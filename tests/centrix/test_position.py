"""The position string round-trips exactly and refuses malformed text field by field."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamenight.centrix.position
from gamenight.centrix import CentrixState, Position, PositionError, Rules
from tests.parsing import SETTINGS, any_text, mutated_text, only_raises

from .helpers import position, ring


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


def test_round_trip_of_games_ended_at_the_cap_and_by_stalemate() -> None:
    rng = random.Random(5)
    for cap in (3, 10, 40):
        state = CentrixState.new(rng.randint(2, 6), seed=cap, rules=Rules(max_turns=cap))
        while not state.is_over:
            state.push(rng.choice(state.legal_plays()))
        assert state.status == "turn_cap"
        assert CentrixState.from_position(state.position(), state.rules) == state
    # The scenario of test_rules.test_d8_nobody_able_to_play_ends_the_game_as_a_stalemate.
    from gamenight.centrix import Layout

    rules = Rules(layout=Layout.from_strings(["W" * 12] * 5 + ["R" + "W" * 11]))
    text = position({6: ring(a="r")}, ("O1O2R1", "Y1Y2Y3"), top="10", draw_top="O3")
    state = CentrixState.from_position(text, rules)
    state.push("R1 a6-top")
    assert state.status == "stalemate"
    assert CentrixState.from_position(state.position(), rules) == state


def test_the_module_docstring_example_is_a_position() -> None:
    doc = gamenight.centrix.position.__doc__ or ""
    assert doc.startswith("The one-line position format")
    assert "Thirteen fields" in doc
    block = doc.split("::\n\n", 1)[1].split("\n\n", 1)[0]
    text = " ".join(line.strip() for line in block.splitlines())
    assert len(text.split()) == 13
    assert Position.parse(text).format() == text
    assert CentrixState.from_position(text).position() == text


FOUR = position(hands=("G1AA", "O3G2G2", "Y1Y2W2", "R1O1O1"), seats="ROYG")


def changed(**fields: str) -> str:
    names = ["seats", "offsets", "rings", "top", "hands", "draw", "discard", "key"]
    names += ["to_move", "plays", "turn", "places", "status"]
    parts = FOUR.split()
    for name, value in fields.items():
        parts[names.index(name)] = value
    return " ".join(parts)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (changed(seats="RoYG"), "seats: pawn colour letters in upper case, not 'RoYG'"),
        (changed(hands="g1AA,O3G2G2,Y1Y2W2,R1O1O1"), "hands: cards in upper case .*'g1AA,O3"),
        (changed(hands="hello,O3G2G2,Y1Y2W2,R1O1O1"), "hands: 'he' is not a card"),
        (changed(seats="xOYG"), "seats: 'x' is not a colour"),
        (changed(top="3000"), "places: red has all 3 pawns on the top, so it has finished"),
        (changed(places="1,-,-,-"), "places: red has a place but not all 3 pawns on the top"),
        (changed(top="3000", places="2,-,-,-"), "places: .* hold places 1–1"),
        (changed(top="3300", places="1,1,-,-"), "places: .* hold places 1–2 .* not 1,1"),
        (changed(top="3000", places="1,-,-,-"), "seat to move: red has finished"),
        (changed(top="3330", places="1,2,3,-", to_move="3"), "status: with one seat left"),
        (changed(places="1,2,3,4", status="finished"), "status: 'finished' means every seat"),
        (changed(top="3330", places="1,2,3,3", status="finished"), "places: green, the one"),
        (changed(places="1,2,3,4", status="turn_cap"), "places: at 'turn_cap' .* red 1, orange 1"),
        (changed(places="1,1,1,2", status="stalemate"), "places: at 'stalemate'"),
        (changed(top="3330", places="1,2,3,4", status="turn_cap"), "status: a game with one"),
        (changed(hands="-,O3G2G2,Y1Y2W2,R1O1O1", draw="G1AA" + FOUR.split()[5]), "seat to move"),
    ],
)
def test_positions_play_cannot_reach_are_refused_naming_the_field(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        CentrixState.from_position(text)


def test_consistent_places_are_accepted() -> None:
    hands = ("-", "-", "Y1Y2W2", "R1O1O1")
    finished = position(hands=hands, seats="ROYG", top="3300", places="2,1,-,-", to_move=2)
    assert CentrixState.from_position(finished).to_move == 2
    rings = {1: ring(a="r", l="o")}
    at_cap = position(rings, hands, seats="ROYG", top="0003", places="2,2,4,1", status="turn_cap")
    outcome = CentrixState.from_position(at_cap).outcome
    assert outcome is not None
    assert outcome.places == (2, 2, 4, 1)


def test_the_seat_to_move_must_be_able_to_play_under_the_rules_given() -> None:
    # Red's only card is an orange 1 and ring 1 is all white: nothing to play.
    text = changed(hands="O1,O3G2G2,Y1Y2W2,R1O1", draw="AAG1" + FOUR.split()[5])
    all_white = Rules(layout=gamenight.centrix.Layout.from_strings(["W" * 12] * 6))
    with pytest.raises(PositionError, match="seat to move: red has no legal play with the hand O1"):
        CentrixState.from_position(text, all_white)
    assert CentrixState.from_position(text).legal_plays()


@pytest.mark.parametrize(
    ("index", "value", "field"),
    [
        (3, "2²", "top"),
        (8, "١", "seat to move"),
        (9, "²", "plays"),
        (10, "１", "turn"),
        (11, "1,²", "places"),
        (7, "0x00000000000000", "key"),
        (7, "+000000000000000", "key"),
        (7, "0_00000000000000", "key"),
        (10, "9" * 5000, "turn"),
    ],
)
def test_numbers_are_ascii_digits_or_a_position_error(index: int, value: str, field: str) -> None:
    # '²'.isdigit() is true, and int('²') then raised ValueError; int(key, 16) read '0x…'.
    with pytest.raises(PositionError, match=field):
        Position.parse(broken(index, value))


VALID = [s.position() for s in sample_states(4)]


@settings(**SETTINGS)
@given(st.one_of(any_text, st.sampled_from(VALID).flatmap(mutated_text), st.just(VALID[0])))
def test_any_text_gives_a_position_or_a_position_error(text: str) -> None:
    parsed = only_raises(PositionError, Position.parse, text)
    if parsed is not None:
        assert Position.parse(parsed.format()) == parsed
        state = only_raises(PositionError, CentrixState.from_position, text)
        if state is not None:
            assert CentrixState.from_position(state.position()).position() == state.position()
    for text in VALID:
        assert Position.parse(text).format() == text
