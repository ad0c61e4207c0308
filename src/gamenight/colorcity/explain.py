"""Why a Color City action is refused here: the one check of an action (the rule explanations).

``problem(state, action)`` answers with a Refusal (a code, an English and a Korean sentence)
or None; ``ColorCityState.push`` asks it and raises its English as the IllegalActionError
(a ShotError for a shot out of its limits). Like Centrix's ``explain.problem``, it is what a
table says when a click is refused, so it never quotes the generator's key or the noise the
next pitch will draw (D16).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamenight.colorcity.actions import Decision, Pitch
from gamenight.colorcity.physics import Pose
from gamenight.colorcity.refusals import (
    Code,
    Refusal,
    bad_pose,
    decide_first,
    game_over,
    not_an_action,
    not_your_power,
    pitch_first,
    power_spent,
    shot_problem,
    wrong_noise,
)
from gamenight.colorcity.shots import Shot, ShotError, draw_noise
from gamenight.colorcity.table import Gang
from gamenight.core.errors import IllegalActionError, NotationError, shown

if TYPE_CHECKING:
    from gamenight.colorcity.state import ColorCityState

POWER_OWNER = {Decision.LUCKY_DAY: Gang.GREEN, Decision.PURPLE_PAIN: Gang.PURPLE}


def problem(state: ColorCityState, action: object) -> Refusal | None:
    """Why ``action`` (a Shot, a recorded Pitch or a Decision) cannot be played in
    ``state``, naming the rule; None if it can."""
    from gamenight.colorcity.state import Phase, skill_for_turn

    if state.is_over:
        return game_over()
    gang = state.to_move
    assert gang is not None
    if isinstance(action, Decision):
        if state.phase is not Phase.POWER:
            if action is not Decision.PASS and not state.powers[POWER_OWNER[action]]:
                return power_spent(action.value)
            return pitch_first(action.value, gang)
        if action is not Decision.PASS and POWER_OWNER[action] is not gang:
            return not_your_power(action.value, POWER_OWNER[action], gang)
        return None
    if isinstance(action, Pitch):
        shot: object = action.shot
    elif isinstance(action, Shot):
        shot = action
    else:
        return not_an_action(shown(action))
    if state.phase is Phase.POWER:
        return decide_first(gang, [d.value for d in state.legal_decisions()])
    assert isinstance(shot, Shot)
    found = shot_problem(state.table, tuple(shot))
    if found is not None or not isinstance(action, Pitch):
        return found
    try:
        Pose.from_values(tuple(action.pose))
    except (NotationError, ValueError) as exc:
        return bad_pose(str(exc))
    noise, _ = draw_noise(state.key, skill_for_turn(state.seats, gang, state.turn))
    if tuple(noise) != tuple(action.noise):
        return wrong_noise()
    return None


def check(state: ColorCityState, action: object) -> None:
    """Raise the refusal of ``action`` in ``state``, if any: a ShotError for a shot out of
    its limits, else an IllegalActionError, each with the refusal's English."""
    found = problem(state, action)
    if found is None:
        return
    error = ShotError if found.code in SHOT_CODES else IllegalActionError
    raise error(found.en, rule=found.code, words=found.words())


SHOT_CODES = frozenset({Code.OUTSIDE_HQ, Code.TOO_WIDE, Code.SPEED, Code.SPIN, Code.NOT_A_NUMBER})
