"""A Color City action in words, from what every seat sees: where a shot is aimed and the
squares its cube would paint (the noise-free flick: the hand's wobble is the game's), or what
a power decision does, in English and Korean. For hints and the analysis."""

from __future__ import annotations

import math
from typing import NamedTuple

from gamenight.colorcity.actions import Decision
from gamenight.colorcity.coverage import covered_squares
from gamenight.colorcity.refusals import GANG_KO
from gamenight.colorcity.shots import Shot, predict
from gamenight.colorcity.table import Gang, Table


class Words(NamedTuple):
    """A sentence in English and in Korean."""

    en: str
    ko: str

    def __str__(self) -> str:
        return self.en


class Aim(NamedTuple):
    """Where a shot is aimed: the square under the cube where it would stop (None: off the
    city), and the squares it would paint (none: it would be destroyed)."""

    square: int | None
    paints: tuple[int, ...]


def aim_of(table: Table, gang: Gang, shot: Shot) -> Aim:
    """Where ``shot``, pitched by ``gang`` without the hand's noise, would stop and paint.
    Raises ShotError for a shot out of the table's limits."""
    pose = predict(table, gang, shot).pose
    half, size = table.city_half, table.city_size
    col = math.floor((pose.x + half) / table.square_mm)
    row = math.floor((pose.y + half) / table.square_mm)
    inside = 0 <= col < size and 0 <= row < size
    return Aim(row * size + col if inside else None, covered_squares(table, pose))


def shot_words(table: Table, gang: Gang, shot: Shot) -> tuple[Words, Aim]:
    """A shot in words ("aims at e3 and would paint e3 f3"), and its aim."""
    aim = aim_of(table, gang, shot)
    names = " ".join(table.square_name(s) for s in aim.paints)
    if not aim.paints:
        return Words(
            "aims off the city: the cube would be destroyed",
            "도시 밖을 겨눕니다: 큐브가 파괴됩니다",
        ), aim
    at = table.square_name(aim.square) if aim.square is not None else names.split()[0]
    return Words(
        f"aims at {at} and would paint {names}",
        f"{at} 칸을 겨누고, {names} 칸을 칠하게 됩니다",
    ), aim


def decision_words(decision: Decision) -> Words:
    """A power decision in words."""
    if decision is Decision.LUCKY_DAY:
        return Words(
            "uses Lucky Day: the same cube is pitched again",
            "럭키 데이를 씁니다: 같은 큐브를 다시 튕깁니다",
        )
    if decision is Decision.PURPLE_PAIN:
        green = GANG_KO[Gang.GREEN]
        return Words(
            "uses Purple Pain: a cube in green's HQ is destroyed",
            f"퍼플 페인을 씁니다: {green} 본부의 큐브 하나를 파괴합니다",
        )
    return Words(
        "passes: the cube stays where it stopped", "패스합니다: 큐브는 멈춘 자리에 남습니다"
    )
