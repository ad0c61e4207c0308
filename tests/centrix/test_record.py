"""JSON game records: replay exactly; refuse broken records with a clear message."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.centrix import Bottom, CentrixState, Rules
from gamenight.core.errors import RecordError
from tests.parsing import (
    SETTINGS,
    dumps,
    hostile_json_texts,
    json_shallow,
    mutated_value,
    only_raises,
)


def played(seed: int, plays: int, rules: Rules | None = None) -> CentrixState:
    state = CentrixState.new(["red", "white", "blue"], seed=seed, first=1, rules=rules)
    rng = random.Random(seed)
    for _ in range(plays):
        if state.is_over:
            break
        state.push(rng.choice(state.legal_plays()))
    return state


def test_a_finished_game_replays_to_the_identical_final_position() -> None:
    state = played(4, 10_000, Rules(bottom=Bottom.KNOCK_OFF))
    assert state.is_over
    text = state.record(["Ann", "Bo", "Cy"]).to_json()
    data = json.loads(text)
    assert data["game"] == "centrix"
    assert data["seats"][0] == {"colour": "red", "name": "Ann"}
    assert data["rules"]["bottom"] == "knock_off"
    assert data["outcome"]["places"] == list(state.places)
    again = CentrixState.replay(text)
    assert again.position() == state.position()
    assert again.outcome == state.outcome


def test_a_game_set_up_from_a_position_records_that_position() -> None:
    start = played(9, 30)
    game = CentrixState.from_position(start.position())
    rng = random.Random(1)
    for _ in range(20):
        game.push(rng.choice(game.legal_plays()))
    record = game.record()
    assert record.setup == {"position": start.position()}
    assert CentrixState.replay(record).position() == game.position()


def test_broken_records_name_the_problem() -> None:
    good = json.loads(played(5, 25).record().to_json())
    cases = [
        ("not json", "not valid JSON"),
        (json.dumps({**good, "game": "colorcity"}), "not of 'centrix'"),
        (json.dumps({**good, "format": 99}), "unknown record format"),
        (json.dumps({**good, "seed": "abc"}), "'seed' must be a whole number"),
        (json.dumps({**good, "seats": [1, 2]}), "each of the record's 'seats' must be an object"),
        (json.dumps({**good, "outcome": "x"}), "an outcome is an object with 'places'"),
        (json.dumps({**good, "outcome": {"places": "12"}}), "an outcome is an object"),
        (json.dumps({**good, "rules": {"bottom": "lava"}}), "set-up is not valid"),
        (json.dumps({**good, "actions": [*good["actions"][:3], "R9 zz"]}), "play 4"),
        (json.dumps({**good, "final_position": "x"}), "final position"),
        (json.dumps({**good, "actions": good["actions"][:-1]}), "final position"),
    ]
    for text, message in cases:
        with pytest.raises(RecordError, match=message):
            CentrixState.replay(text)


@pytest.mark.parametrize("name", ["NotationError", "RecordError"])
def test_the_errors_the_docs_name_are_exported(name: str) -> None:
    import gamenight.centrix
    import gamenight.core.errors

    assert name in gamenight.centrix.__all__
    assert getattr(gamenight.centrix, name) is getattr(gamenight.core.errors, name)


def test_a_bad_record_is_caught_by_the_exported_error() -> None:
    from gamenight.centrix import RecordError as Exported

    with pytest.raises(Exported, match="replay"):
        CentrixState.replay(
            played(2, 3).record().to_json().replace('"actions": [', '"actions": ["S 9+1", ')
        )


def test_names_must_match_the_seats() -> None:
    state = played(2, 5)
    with pytest.raises(ValueError, match="2 names for 3 seats"):
        state.record(["Ann", "Bo"])
    with pytest.raises(ValueError, match="4 names for 3 seats"):
        state.record(["Ann", "Bo", "Cy", "Di"])
    assert "name" not in state.record([]).seats[0]


RECORD = played(5, 60).record(["Ann", "Bo", "Cy"]).to_dict()
FROM_POSITION = CentrixState.from_position(played(6, 40).position()).record().to_dict()


@settings(**SETTINGS)
@given(
    st.one_of(
        hostile_json_texts(),
        st.one_of(
            json_shallow,
            mutated_value(RECORD, json_shallow),
            mutated_value(FROM_POSITION, json_shallow),
        ).map(dumps),
    )
)
def test_any_text_replays_or_gives_a_record_error(text: str | bytes) -> None:
    state = only_raises(RecordError, CentrixState.replay, text)
    if state is not None:
        again = CentrixState.replay(state.record().to_json())
        assert again.position() == state.position()
    assert CentrixState.replay(json.dumps(RECORD)).record(["Ann", "Bo", "Cy"]).to_dict() == RECORD
