"""The shared game record and its JSON: any text or value gives a record or RecordError."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.centrix import CentrixState
from gamenight.core.errors import RecordError
from gamenight.core.jsontext import MAX_DEPTH, read_json
from gamenight.core.outcome import Outcome
from gamenight.core.record import GameRecord
from tests.parsing import SETTINGS, hostile_json_texts, json_like, mutated_value, only_raises


def finished_record() -> GameRecord:
    state = CentrixState.new(3, seed=7)
    while not state.is_over and len(state.plays) < 30:
        state.push(state.legal_plays()[0])
    return state.record()


def test_deep_nesting_is_a_record_error() -> None:
    # Was RecursionError from json.loads.
    with pytest.raises(RecordError, match="deeper than"):
        GameRecord.from_json("[" * 100_000 + "]" * 100_000)


def test_a_huge_integer_is_a_record_error() -> None:
    # Was ValueError: exceeds the limit (4300 digits) for integer string conversion.
    with pytest.raises(RecordError, match="at most 100 digits"):
        GameRecord.from_json('{"format": 1, "seed": ' + "9" * 5000 + "}")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_json_has_no_nan_or_infinity(constant: str) -> None:
    with pytest.raises(RecordError, match="finite"):
        GameRecord.from_json(f'{{"format": 1, "seed": {constant}}}')


def test_bytes_must_be_utf8_and_strings_unicode() -> None:
    with pytest.raises(RecordError, match="not UTF-8"):
        GameRecord.from_json(b'{"format": 1, "game": "\xff"}')
    with pytest.raises(RecordError, match="lone surrogate"):
        GameRecord.from_json('{"format": 1, "game": "\\ud800"}')
    with pytest.raises(RecordError, match="JSON text, not int"):
        GameRecord.from_json(5)  # type: ignore[arg-type]


def test_nesting_inside_strings_does_not_count() -> None:
    deep = "[" * (MAX_DEPTH + 5)
    assert read_json(json.dumps({"a": [deep, '\\"]', "]]"]}), "x", RecordError)["a"][0] == deep
    assert read_json(json.dumps([[[1]]]).encode(), "x", RecordError) == [[[1]]]


@pytest.mark.parametrize(
    "places", [[10**5000], ["1"], [1.5], [True], [0, 1], [1, 3], "12", None, [[1]]]
)
def test_an_outcome_holds_places_one_to_the_seat_count(places: Any) -> None:
    with pytest.raises(RecordError, match="outcome"):
        Outcome.from_dict({"places": places, "reason": "line"})
    with pytest.raises(RecordError, match="outcome"):
        Outcome.from_dict({"places": [1, 2], "reason": 5})


def test_a_valid_record_round_trips_exactly() -> None:
    record = finished_record()
    text = record.to_json()
    assert GameRecord.from_json(text) == record
    assert GameRecord.from_json(text.encode()).to_json() == text
    assert GameRecord.from_dict(record.to_dict()) == record


@settings(**SETTINGS)
@given(hostile_json_texts())
def test_any_text_gives_a_record_or_a_record_error(text: str | bytes) -> None:
    only_raises(RecordError, GameRecord.from_json, text)


@settings(**SETTINGS)
@given(st.one_of(json_like, mutated_value(finished_record().to_dict())))
def test_any_value_gives_a_record_or_a_record_error(data: Any) -> None:
    record = only_raises(RecordError, GameRecord.from_dict, data)
    if record is not None:
        assert GameRecord.from_dict(record.to_dict()) == record
        assert GameRecord.from_json(record.to_json()) == record
