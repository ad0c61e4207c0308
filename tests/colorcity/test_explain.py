"""Color City's refusals: each names its rule in English and Korean, and hides the noise."""

from __future__ import annotations

import re

import pytest

from gamenight.colorcity import ColorCityState, Decision, Gang, Shot
from gamenight.colorcity.explain import problem
from gamenight.colorcity.refusals import Code, Refusal
from gamenight.colorcity.shots import ShotError, draw_noise
from gamenight.core.errors import IllegalActionError

from .helpers import make_state, pitch_to_square, placed, pose_at

HANGUL = re.compile("[\uac00-\ud7a3]")


def in_power_phase(gang: Gang = Gang.GREEN) -> ColorCityState:
    state = make_state(to_move=gang)
    state.push(placed(state, pose_at(0.0, 0.0)))
    assert state.phase.value == "power"
    return state


def refused(state: ColorCityState, action: object, code: Code) -> Refusal:
    found = problem(state, action)
    assert found is not None
    assert found.code is code
    assert found.en
    assert HANGUL.search(found.ko), found
    before = state.position()
    error = ShotError if code in {Code.OUTSIDE_HQ, Code.SPEED, Code.TOO_WIDE} else None
    with pytest.raises(error or IllegalActionError) as caught:
        state.push(action)  # type: ignore[arg-type]
    assert str(caught.value) == found.en  # push says exactly what the explanation says
    assert state.position() == before
    return found


def test_a_cube_only_leaves_from_the_hq() -> None:
    found = refused(make_state(), Shot(120.0, 0.0, 1.3), Code.OUTSIDE_HQ)
    assert found.en.startswith("cubes may only be pitched from your HQ")
    assert "본부" in found.ko


@pytest.mark.parametrize(
    ("shot", "code", "word"),
    [
        (Shot(0.0, 75.0, 1.3), Code.TOO_WIDE, "direction"),
        (Shot(0.0, 0.0, 3.5), Code.SPEED, "speed"),
        (Shot(0.0, 0.0, 0.01), Code.SPEED, "speed"),
        (Shot(0.0, 0.0, 1.3, 50.0), Code.SPIN, "spin"),
        (Shot(0.0, float("nan"), 1.3), Code.NOT_A_NUMBER, "finite"),
    ],
)
def test_each_limit_of_a_shot_is_named(shot: Shot, code: Code, word: str) -> None:
    found = problem(make_state(), shot)
    assert found is not None
    assert found.code is code
    assert word in found.en
    assert HANGUL.search(found.ko)
    with pytest.raises(ShotError, match=re.escape(found.en)):
        make_state().push(shot)


def test_no_pitch_while_a_power_waits() -> None:
    found = refused(in_power_phase(), Shot(0.0, 0.0, 1.3), Code.DECIDE_FIRST)
    assert "lucky-day or pass" in found.en
    assert "럭키 데이" in found.ko


def test_powers_wait_for_the_cube_to_stop() -> None:
    found = refused(make_state(), Decision.LUCKY_DAY, Code.PITCH_FIRST)
    assert "after the cube stops" in found.en


def test_a_power_works_once() -> None:
    state = make_state(powers=(False, True))
    found = refused(state, Decision.LUCKY_DAY, Code.POWER_SPENT)
    assert "already been used" in found.en
    assert "한 번" in found.ko


def test_a_gang_uses_only_its_own_power() -> None:
    found = refused(in_power_phase(Gang.GREEN), Decision.PURPLE_PAIN, Code.NOT_YOUR_POWER)
    assert found.en == "purple-pain is purple's power; green is to move"


def test_nothing_after_the_end() -> None:
    state = make_state(dict.fromkeys(range(8), Gang.GREEN), powers=(False, False))
    pitch_to_square(state, 8)
    assert state.is_over
    refused(state, Shot(0.0, 0.0, 1.3), Code.GAME_OVER)
    refused(state, Decision.PASS, Code.GAME_OVER)


def test_not_an_action() -> None:
    refused(make_state(), 42, Code.NOT_AN_ACTION)


def test_a_bad_recorded_pose_is_named() -> None:
    state = make_state()
    good = placed(state, pose_at(0.0, 0.0))
    refused(state, good._replace(pose=good.pose._replace(x=float("inf"))), Code.BAD_POSE)


def test_a_wrong_noise_never_says_what_the_hand_will_draw() -> None:
    state = make_state()
    good = placed(state, pose_at(0.0, 0.0))
    bad = good._replace(noise=good.noise._replace(direction=good.noise.direction + 0.5))
    found = refused(state, bad, Code.WRONG_NOISE)
    drawn, next_key = draw_noise(state.key, state.seats[0][1])
    for secret in (*drawn, state.key, next_key):
        for text in (found.en, found.ko):
            assert repr(secret) not in text
            assert f"{secret:.3g}" not in text
    assert problem(state, good) is None


def test_legal_actions_have_no_refusal() -> None:
    assert problem(make_state(), Shot(0.0, 0.0, 1.3)) is None
    assert problem(in_power_phase(), Decision.PASS) is None
    assert problem(in_power_phase(), Decision.LUCKY_DAY) is None


def test_the_error_push_raises_carries_the_rule_and_its_words() -> None:
    with pytest.raises(ShotError) as raised:
        make_state().push(Shot(120.0, 0.0, 1.3))
    assert raised.value.rule == Code.OUTSIDE_HQ
    assert raised.value.words == {"en": str(raised.value), "ko": raised.value.words["ko"]}
    assert "본부" in raised.value.words["ko"]
    with pytest.raises(ShotError) as checked:
        Shot(0.0, 0.0, 3.5).check(make_state().table)
    assert checked.value.rule == Code.SPEED
    assert HANGUL.search(checked.value.words["ko"])
