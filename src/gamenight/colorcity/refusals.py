"""Why Color City refuses an action, as a code and a sentence in English and in Korean.

A refusal names the rule that forbids the action, in the words of the rulebook ("cubes may
only be pitched from your HQ"), so that a table can say it at any seat. It never quotes what
a seat may not know: the generator's key, or the noise its next pitch will draw (D16).
``gamenight.colorcity.explain`` finds the refusal of an action in a state; this module holds
the sentences, and the limits of a shot, which need only the table.
"""

from __future__ import annotations

from enum import StrEnum

from gamenight.colorcity.table import Gang, Table
from gamenight.core import refusal
from gamenight.core.errors import GamenightError
from gamenight.core.numbers import finite_float

GANG_KO = {Gang.GREEN: "초록 갱", Gang.PURPLE: "보라 갱"}
POWER_KO = {"lucky-day": "럭키 데이", "purple-pain": "퍼플 페인", "pass": "패스"}


class Code(StrEnum):
    """What a refusal is about; a page looks its own words up by this code."""

    GAME_OVER = "game_over"
    DECIDE_FIRST = "decide_first"
    PITCH_FIRST = "pitch_first"
    POWER_SPENT = "power_spent"
    NOT_YOUR_POWER = "not_your_power"
    OUTSIDE_HQ = "outside_hq"
    TOO_WIDE = "too_wide"
    SPEED = "speed"
    SPIN = "spin"
    NOT_A_NUMBER = "not_a_number"
    WRONG_NOISE = "wrong_noise"
    BAD_POSE = "bad_pose"
    NOT_AN_ACTION = "not_an_action"


Refusal = refusal.Refusal[Code]


def number(value: float) -> str:
    """Shortest text that reads back to the same float ('1.35', '-3', '0.1')."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def game_over() -> Refusal:
    """Any action after the end."""
    return Refusal(Code.GAME_OVER, "the game is over", "게임이 끝났습니다")


def decide_first(gang: Gang, choices: list[str]) -> Refusal:
    """A pitch while the gang to move must first decide on its power (D6)."""
    en = f"{gang.label} must first decide on its power: " + " or ".join(choices)
    ko = f"{GANG_KO[gang]}은 먼저 파워를 쓸지 정해야 합니다: " + " 또는 ".join(
        POWER_KO[c] for c in choices
    )
    return Refusal(Code.DECIDE_FIRST, en, ko)


def pitch_first(decision: str, gang: Gang) -> Refusal:
    """A power decision before the cube has stopped (D6)."""
    en = (
        f"{decision}: powers are decided after the cube stops (power phase);"
        f" now {gang.label} must pitch"
    )
    ko = (
        f"{POWER_KO[decision]}: 파워는 큐브가 멈춘 뒤에 정합니다(파워 단계). "
        f"지금은 {GANG_KO[gang]}이 큐브를 튕길 차례입니다"
    )
    return Refusal(Code.PITCH_FIRST, en, ko)


def power_spent(decision: str) -> Refusal:
    """A power used a second time."""
    en = f"{decision} has already been used: each gang's power works once a game"
    ko = f"{POWER_KO[decision]}는 이미 썼습니다: 갱마다 파워는 게임당 한 번뿐입니다"
    return Refusal(Code.POWER_SPENT, en, ko)


def not_your_power(decision: str, owner: Gang, gang: Gang) -> Refusal:
    """The other gang's power."""
    en = f"{decision} is {owner.label}'s power; {gang.label} is to move"
    ko = f"{POWER_KO[decision]}는 {GANG_KO[owner]}의 파워입니다. 지금은 {GANG_KO[gang]} 차례입니다"
    return Refusal(Code.NOT_YOUR_POWER, en, ko)


def wrong_noise() -> Refusal:
    """A recorded pitch whose noise is not the generator's (D17)."""
    # The noise the generator would draw is the one thing a seat may not know (D16): the
    # refusal says that the pitch's noise is not it, never what it is.
    en = "a recorded pitch must carry the noise the game's hand drew for it, and this one does not"
    ko = "기록된 샷에는 게임이 그 샷에 뽑은 손 떨림이 들어 있어야 하는데, 이 샷은 그렇지 않습니다"
    return Refusal(Code.WRONG_NOISE, en, ko)


def bad_pose(detail: str) -> Refusal:
    """A recorded pitch whose resting pose is not a pose."""
    en = f"a recorded pitch's resting pose is not a pose: {detail}"
    ko = f"기록된 샷의 멈춘 자리가 올바른 자세가 아닙니다: {detail}"
    return Refusal(Code.BAD_POSE, en, ko)


def not_an_action(shown_action: str) -> Refusal:
    """Something that is not a shot, a pitch or a decision."""
    en = f"not a Color City action: {shown_action}"
    ko = f"컬러 시티의 행동이 아닙니다: {shown_action}"
    return Refusal(Code.NOT_AN_ACTION, en, ko)


def shot_problem(table: Table, values: tuple[object, ...]) -> Refusal | None:
    """Why a shot of these (position, direction, speed, spin) values cannot be pitched on
    ``table``, the first bad value's rule; None if it can."""
    names_ko = {"position": "위치", "direction": "방향", "speed": "속도", "spin": "회전"}
    floats: list[float] = []
    for name, value in zip(names_ko, values, strict=True):
        try:
            floats.append(finite_float(value, f"the shot's {name}", GamenightError))
        except GamenightError as exc:
            ko = f"샷의 {names_ko[name]}은 유한한 수여야 합니다"
            return Refusal(Code.NOT_A_NUMBER, str(exc), ko)
    position, direction, speed, spin = floats
    half, wide = table.launch_half_width, table.max_direction_deg
    if not -half <= position <= half:
        return Refusal(
            Code.OUTSIDE_HQ,
            "cubes may only be pitched from your HQ: the shot's position must be from"
            f" {number(-half)} to {number(half)}mm, not {number(position)}",
            f"큐브는 자기 본부에서만 튕길 수 있습니다: 샷의 위치는 {number(-half)}"
            f"~{number(half)} mm여야 합니다({number(position)} mm는 본부 밖입니다)",
        )
    if not -wide <= direction <= wide:
        return Refusal(
            Code.TOO_WIDE,
            "a cube is flicked toward the city: the shot's direction must be from"
            f" {number(-wide)} to {number(wide)}°, not {number(direction)}",
            f"큐브는 도시 쪽으로 튕겨야 합니다: 샷의 방향은 {number(-wide)}~{number(wide)}°"
            f"여야 합니다({number(direction)}°가 아님)",
        )
    if not table.min_speed <= speed <= table.max_speed:
        low, high = number(table.min_speed), number(table.max_speed)
        return Refusal(
            Code.SPEED,
            f"a flick has a finger's speed: the shot's speed must be from {low} to"
            f" {high} m/s, not {number(speed)}",
            f"튕기기는 손가락의 속도로 합니다: 샷의 속도는 {low}~{high} m/s여야 합니다"
            f"({number(speed)} m/s가 아님)",
        )
    if not -table.max_spin <= spin <= table.max_spin:
        most = number(table.max_spin)
        return Refusal(
            Code.SPIN,
            f"a finger spins a cube only so much: the shot's spin must be from -{most} to"
            f" {most} rad/s, not {number(spin)}",
            f"손가락으로 줄 수 있는 회전에는 한계가 있습니다: 샷의 회전은 -{most}~{most} rad/s"
            f"여야 합니다({number(spin)} rad/s가 아님)",
        )
    return None
