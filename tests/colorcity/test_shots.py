"""The shot value, its notation and limits, the skill levels and their noise."""

from __future__ import annotations

import itertools
import math
import statistics

import pytest

from gamenight.colorcity import (
    DEFAULT_TABLE,
    SIGMAS,
    Noise,
    Shot,
    ShotError,
    Skill,
    draw_noise,
    executed,
    parse_shot,
)
from gamenight.core.errors import IllegalActionError, NotationError

T = DEFAULT_TABLE


def test_notation_round_trips_exactly() -> None:
    shot = Shot(-12.5, 3.0, 1.35, 0.1 + 0.2)
    assert str(shot) == "-12.5 3 1.35 0.30000000000000004"
    assert parse_shot(str(shot)) == shot
    assert Shot.parse("0 0 1.3") == Shot(0.0, 0.0, 1.3, 0.0)
    assert Shot.parse("1, 2, 1.2, -4") == Shot(1.0, 2.0, 1.2, -4.0)


@pytest.mark.parametrize(
    ("text", "problem"),
    [("", "3 or 4 numbers"), ("1 2", "3 or 4"), ("1 2 3 4 5", "3 or 4"), ("1 x 1.3", "direction")],
)
def test_malformed_notation_names_the_problem(text: str, problem: str) -> None:
    with pytest.raises(NotationError, match=problem):
        parse_shot(text)


@pytest.mark.parametrize(
    ("shot", "problem"),
    [
        (Shot(105.0, 0.0, 1.3, 0.0), "position must be from -104.5 to 104.5mm"),
        (Shot(0.0, 60.5, 1.3, 0.0), "direction"),
        (Shot(0.0, 0.0, 0.05, 0.0), "speed must be from 0.1 to 3 m/s"),
        (Shot(0.0, 0.0, 3.01, 0.0), "speed"),
        (Shot(0.0, 0.0, 1.3, -40.5), "spin"),
        (Shot(float("nan"), 0.0, 1.3, 0.0), "position must be finite"),
        (Shot(0.0, 0.0, float("inf"), 0.0), "speed must be finite"),
        (Shot(0.0, True, 1.3, 0.0), "direction must be a number"),
        (Shot(0.0, 0.0, "1.3", 0.0), "speed must be a number"),  # type: ignore[arg-type]
    ],
)
def test_bad_shots_raise_a_clear_error(shot: Shot, problem: str) -> None:
    with pytest.raises(ShotError, match=problem):
        shot.check(T)
    assert issubclass(ShotError, IllegalActionError)


def test_limits_are_inclusive_and_come_from_the_table() -> None:
    edge = Shot(T.launch_half_width, -60, 3, 40)
    assert edge.check(T) == Shot(104.5, -60.0, 3.0, 40.0)
    with pytest.raises(ShotError):
        Shot(0.0, 0.0, 2.5, 0.0).check(T.with_(max_speed=2.0))


def test_exact_hands_add_no_noise_but_still_advance_the_key() -> None:
    noise, key = draw_noise(99, Skill.EXACT)
    assert noise == Noise(0.0, 1.0, 0.0)
    _, key_normal = draw_noise(99, Skill.NORMAL)
    assert key == key_normal != 99


def test_noise_is_deterministic_from_the_key() -> None:
    assert draw_noise(2024, Skill.SHAKY) == draw_noise(2024, Skill.SHAKY)
    assert draw_noise(2024, Skill.SHAKY) != draw_noise(2025, Skill.SHAKY)


@pytest.mark.parametrize("skill", [Skill.STEADY, Skill.NORMAL, Skill.SHAKY])
def test_noise_has_the_documented_sigmas(skill: Skill) -> None:
    key = 7
    dirs, speeds, spins = [], [], []
    for _ in range(3000):
        noise, key = draw_noise(key, skill)
        dirs.append(noise.direction)
        speeds.append(noise.speed_factor)
        spins.append(noise.spin)
    sigma = SIGMAS[skill]
    assert statistics.pstdev(dirs) == pytest.approx(sigma.direction_deg, rel=0.06)
    assert statistics.pstdev(speeds) == pytest.approx(sigma.speed, rel=0.06)
    assert statistics.pstdev(spins) == pytest.approx(sigma.spin, rel=0.06)
    assert statistics.fmean(speeds) == pytest.approx(1.0, abs=0.01)
    assert abs(statistics.fmean(dirs)) < sigma.direction_deg * 0.1


def test_skill_levels_get_shakier() -> None:
    order = [SIGMAS[s] for s in (Skill.EXACT, Skill.STEADY, Skill.NORMAL, Skill.SHAKY)]
    for a, b in itertools.pairwise(order):
        assert all(x < y for x, y in zip(a, b, strict=True))
    with pytest.raises(NotationError, match="skill level"):
        Skill.parse("wobbly")


def test_executed_shot_adds_the_noise() -> None:
    done = executed(Shot(5.0, 1.0, 1.2, 2.0), Noise(0.5, 1.1, -1.0))
    assert done == Shot(5.0, 1.5, 1.2 * 1.1, 1.0)
    assert math.isclose(done.speed, 1.32)
