"""A table's endings (docs/rules/table.md): each decision T1–T5 has its test here."""

from __future__ import annotations

import json

import pytest

from gamenight.centrix import CentrixState
from gamenight.colorcity.record import replay as colorcity_replay
from gamenight.colorcity.state import ColorCityState
from gamenight.core.endings import ABANDONED, OUT_OF_TIME, RESIGNED, table_outcome
from gamenight.core.errors import RecordError
from gamenight.core.outcome import Outcome
from gamenight.core.record import GameRecord


def centrix_midgame(players: int = 2, plays: int = 6) -> CentrixState:
    state = CentrixState.new(players, seed=11)
    for _ in range(plays):
        state.push(state.legal_plays()[0])
    return state


def ended(state: CentrixState | ColorCityState, outcome: Outcome) -> GameRecord:
    record = state.record()
    record.outcome = outcome
    return record


def test_t1_a_resignation_in_a_two_player_game_makes_the_other_seat_win() -> None:
    outcome = table_outcome(RESIGNED, [(0, 5), (0, 1)], [0])
    assert outcome == Outcome((2, 1), RESIGNED, (0,))
    assert outcome.winner == 1


def test_t2_a_flag_places_the_seat_last_and_ranks_the_rest_by_standing() -> None:
    outcome = table_outcome(OUT_OF_TIME, [(1, 9), (0, 3), (0, 3), (2, 0)], [3])
    # Seat 3 led but lost on time; seats 1 and 2 stand equal and share second place.
    assert outcome.places == (1, 2, 2, 4)
    assert outcome.seats == (3,)


def test_t3_an_abandoned_game_ranks_every_seat_by_standing_and_names_nobody() -> None:
    assert table_outcome(ABANDONED, [(0, 2), (0, 7)]) == Outcome((2, 1), ABANDONED)
    with pytest.raises(RecordError):
        table_outcome(ABANDONED, [(0, 2), (0, 7)], [1])
    with pytest.raises(RecordError):
        table_outcome(RESIGNED, [(0, 2), (0, 7)])
    with pytest.raises(RecordError):
        table_outcome(RESIGNED, [(0, 2), (0, 7)], [0, 1])
    with pytest.raises(RecordError):
        table_outcome("bored", [(0, 2), (0, 7)], [0])


def test_t4_the_outcome_comes_from_the_position_alone() -> None:
    state = centrix_midgame(3)
    outcome = table_outcome(ABANDONED, state.standing())
    again = table_outcome(ABANDONED, CentrixState.replay(state.record()).standing())
    assert outcome == again


@pytest.mark.parametrize("reason", [RESIGNED, OUT_OF_TIME])
def test_t5_a_centrix_record_a_table_ended_replays_to_its_outcome(reason: str) -> None:
    state = centrix_midgame()
    record = ended(state, table_outcome(reason, state.standing(), [1]))
    text = record.to_json()
    assert json.loads(text)["outcome"]["seats"] == [1]
    replayed = CentrixState.replay(text)
    assert replayed.outcome is None  # the rules did not end it
    assert GameRecord.from_json(text).outcome == record.outcome


def test_t5_a_colorcity_record_a_table_abandoned_replays_to_its_outcome() -> None:
    state = ColorCityState.new(seed=3)
    state.push(state.action_space().sample(__import__("random").Random(1)))
    record = ended(state, table_outcome(ABANDONED, state.standing()))
    assert colorcity_replay(record.to_json()).outcome is None


def test_t5_a_record_whose_ending_is_not_the_positions_is_refused() -> None:
    state = centrix_midgame()
    wrong = Outcome((1, 2), RESIGNED, (0,))  # seat 0 resigned, so it cannot be first
    with pytest.raises(RecordError, match="table's ending"):
        CentrixState.replay(ended(state, wrong).to_json())


def test_t5_a_table_cannot_end_a_game_its_rules_had_ended() -> None:
    state = CentrixState.new(2, seed=5)
    while not state.is_over:
        state.push(state.legal_plays()[0])
    record = ended(state, Outcome(state.outcome.places, ABANDONED))  # type: ignore[union-attr]
    with pytest.raises(RecordError, match="by the game's rules"):
        CentrixState.replay(record.to_json())


def test_old_records_without_seats_read_as_before() -> None:
    state = CentrixState.new(2, seed=5)
    while not state.is_over:
        state.push(state.legal_plays()[0])
    data = state.record().to_dict()
    assert "seats" not in data["outcome"]
    assert CentrixState.replay(json.dumps(data)).outcome == state.outcome


@pytest.mark.parametrize("seats", [[2], [0, 0], ["0"], [True], "0"])
def test_bad_outcome_seats_are_a_record_error(seats: object) -> None:
    with pytest.raises(RecordError):
        Outcome.from_dict({"places": [1, 2], "reason": RESIGNED, "seats": seats})
