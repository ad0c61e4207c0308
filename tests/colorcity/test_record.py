"""Game records: JSON that replays to the identical position without re-simulating."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.bots.colorcity import SimpleBot
from gamenight.colorcity import ColorCityState, Gang, Pitch, Shot, flick, replay, to_record
from gamenight.colorcity.shots import executed
from gamenight.colorcity.svg import board_svg as svg_of
from gamenight.colorcity.table import D19_PHYSICS, DEFAULT_TABLE
from gamenight.core.errors import RecordError
from gamenight.core.record import GameRecord
from tests.parsing import (
    SETTINGS,
    dumps,
    hostile_json_texts,
    json_shallow,
    mutated_value,
    only_raises,
)


def played(seed: int = 31, turns: int = 12) -> ColorCityState:
    state = ColorCityState.new(
        seed=seed, first="purple", seats=[(Gang.GREEN, "normal"), (Gang.PURPLE, "shaky")]
    )
    state = ColorCityState.new(
        seed=seed,
        first="purple",
        seats=[(Gang.GREEN, "normal"), (Gang.PURPLE, "shaky")],
        table=state.table.with_(max_turns=turns),
    )
    bot = SimpleBot(seed)
    while not state.is_over:
        state.push(bot.choose(state.view(state.pitcher)))
    return state


def test_a_record_replays_to_the_identical_position() -> None:
    state = played()
    text = to_record(state).to_json()
    again = replay(text)
    assert again.position() == state.position()
    assert again.outcome == state.outcome
    data = json.loads(text)
    assert data["game"] == "colorcity"
    assert data["setup"] == {"first": "purple"}
    assert data["seats"][1] == {"gang": "purple", "skill": "shaky"}
    pitch = next(a for a in data["actions"] if isinstance(a, dict))
    assert set(pitch) == {"shot", "noise", "pose"}


def test_a_record_from_before_d24_replays_and_plays_on_with_d19s_physics() -> None:
    old = DEFAULT_TABLE.with_(**D19_PHYSICS, powers="none")  # no power phase between pitches
    state = ColorCityState.new(seed=8, seats=[("green", "exact"), ("purple", "exact")], table=old)
    state.push("0 0 1.3 0")
    data = to_record(state).to_dict()
    for name in ("integrator", "start_lead", "warmstart"):  # as a release before D24 wrote it
        del data["rules"][name]
    again = replay(json.dumps(data))
    assert again.table == old
    assert again.position() == state.position()
    shot = Shot(5.0, -3.0, 1.4, 10.0)
    assert again.push(shot) == state.push(shot)  # the next flick too, exactly


def test_records_round_trip() -> None:
    record = to_record(played(seed=4, turns=6))
    again = to_record(replay(GameRecord.from_json(record.to_json())))
    assert again.to_dict() == record.to_dict()


def test_replay_applies_the_recorded_pose_without_simulating() -> None:
    state = ColorCityState.new(seed=9)
    state.push("0 0 1.3 0")
    record = to_record(state)
    record.actions[0]["pose"] = [0.0, 100.0, 8.0, 1.0, 0.0, 0.0, 0.0]  # e9, whatever physics says
    record.final_position = None
    again = replay(record)
    assert again.pending is not None
    assert again.pending.y == 100.0
    assert again.last_flick is None


def test_a_replayed_game_shows_the_last_flick_as_it_was_played() -> None:
    """D17: the last trajectory is for display; a replay re-simulates the last pitch only
    when asked, and keeps it only if it ends at the recorded pose."""
    for turns, decide in ((3, False), (4, True)):
        state = ColorCityState.new(seed=turns, table=ColorCityState.new().table.with_(max_turns=9))
        bot = SimpleBot(turns)
        for _ in range(turns):
            state.push(bot.choose(state.view(state.pitcher)))
        if decide and state.legal_decisions():
            state.push(state.legal_decisions()[-1])  # pass: the flick is still the last one
        live = state.last_flick
        assert live is not None
        again = replay(to_record(state))
        shown = again.last_flick
        assert shown is not None
        assert shown.pose == live.pose
        assert shown.steps == live.steps
        assert shown.trajectory.tolist() == live.trajectory.tolist()
        assert svg_of(again) == svg_of(state)
        again.pop()
        state.pop()
        assert (again.last_flick is None) == (state.last_flick is None)


def test_re_simulating_a_recorded_pitch_gives_the_identical_pose_here() -> None:
    state = played(seed=12, turns=4)
    for action in to_record(state).actions:
        if isinstance(action, dict):
            pitch = Pitch.from_json(action)
            break
    first_gang = Gang.PURPLE
    again = flick(state.table, first_gang, executed(pitch.shot, pitch.noise))
    assert again.pose == pitch.pose


def tampered(change: str) -> str:
    data = to_record(played(seed=5, turns=4)).to_dict()
    if change == "noise":
        data["actions"][0]["noise"][0] += 0.5
    elif change == "pose":
        data["actions"][0]["pose"] = [0, 0, 8, 2, 0, 0, 0]
    elif change == "final":
        fields = data["final_position"].split()
        fields[6] = str(int(fields[6]) + 1)
        data["final_position"] = " ".join(fields)
    elif change == "action":
        data["actions"].append("lucky-day")
    elif change == "seed":
        data["seed"] += 1
    elif change == "rules":
        data["rules"]["friction"] = -1
    elif change == "seats":
        data["seats"] = [{"gang": "green"}]
    elif change == "game":
        data["game"] = "centrix"
    return json.dumps(data)


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ("noise", "action 1: .*noise"),
        ("pose", "action 1: .*length 1"),
        ("final", "final position"),
        ("action", r"action \d+: the game is over"),
        ("seed", "noise"),
        ("rules", "friction"),
        ("seats", "seat"),
        ("game", "centrix"),
    ],
)
def test_bad_records_are_refused_clearly(change: str, problem: str) -> None:
    with pytest.raises(RecordError, match=problem):
        replay(tampered(change))


def test_malformed_json_is_refused() -> None:
    with pytest.raises(RecordError, match="JSON"):
        replay("{not json")
    with pytest.raises(RecordError, match="pitch"):
        Pitch.from_json({"shot": "0 0 1.3 0"})


def test_only_seeded_games_are_recorded() -> None:
    state = ColorCityState.from_position(ColorCityState.new(seed=1).position())
    with pytest.raises(RecordError, match="seed"):
        to_record(state)
    state = ColorCityState.new(seed=1)
    state.push(Shot(0.0, 0.0, 1.3, 0.0))
    assert to_record(state).final_position == state.position()


@pytest.mark.parametrize("name", ["NotationError", "RecordError", "IllegalActionError"])
def test_the_errors_the_docs_name_are_exported(name: str) -> None:
    import gamenight.colorcity
    import gamenight.core.errors

    assert name in gamenight.colorcity.__all__
    assert getattr(gamenight.colorcity, name) is getattr(gamenight.core.errors, name)


def test_the_state_methods_give_what_the_module_functions_give() -> None:
    state = played(seed=8, turns=6)
    record = state.record()
    assert record.to_dict() == to_record(state).to_dict()
    text = record.to_json()
    for source in (text, GameRecord.from_json(text)):
        again = ColorCityState.replay(source)
        assert again == replay(source)
        assert again.position() == state.position()
        assert again.actions == state.actions
        assert again.record().to_dict() == record.to_dict()


def test_names_go_into_the_seats_and_replay_reads_past_them() -> None:
    state = played(seed=3, turns=4)
    record = state.record(["Ann", "Bo"])
    assert record.seats == [
        {"gang": "green", "skill": "normal", "name": "Ann"},
        {"gang": "purple", "skill": "shaky", "name": "Bo"},
    ]
    assert to_record(state, ["Ann", "Bo"]).to_dict() == record.to_dict()
    assert ColorCityState.replay(record.to_json()).position() == state.position()
    with pytest.raises(ValueError, match="3 names for 2 seats"):
        state.record(["Ann", "Bo", "Cy"])


def test_the_state_methods_refuse_as_the_module_functions_do() -> None:
    unseeded = ColorCityState.from_position(ColorCityState.new(seed=1).position())
    with pytest.raises(RecordError, match="seed"):
        unseeded.record()
    with pytest.raises(RecordError, match="centrix"):
        ColorCityState.replay(tampered("game"))


RECORD = to_record(played(seed=5, turns=4), ["Ann", "Bo"]).to_dict()


@settings(**SETTINGS)
@given(
    st.one_of(
        hostile_json_texts(),
        st.one_of(json_shallow, mutated_value(RECORD, json_shallow)).map(dumps),
    )
)
def test_any_text_replays_or_gives_a_record_error(text: str | bytes) -> None:
    state = only_raises(RecordError, replay, text)
    if state is not None:
        assert replay(to_record(state).to_json()).position() == state.position()
    assert to_record(replay(json.dumps(RECORD)), ["Ann", "Bo"]).to_dict() == RECORD
