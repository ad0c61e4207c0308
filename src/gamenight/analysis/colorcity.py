"""Analysing a finished Color City game: chances by the hands' model, the Planner's shots.

Each seat's chance to win at a position is its gang's share of ``rollouts`` games played on
from it by the model of the bots' hands (``gamenight.analysis.hands``). Nothing in Color
City is hidden but the generator's key, and the model draws its own luck, so the analysis
sees what every seat saw. At each pitch the strongest bot of the ladder (level 5, the
Planner) plans the best shot from the pitcher's view; a pitch is judged by its aim, not its
luck: the loss is the pitcher's chance with the cube aimed where the Planner's shot would
send it, less the chance with the cube aimed where the pitch was aimed (its noise-free
flick), both by the same rollouts' draws. Each pitch also keeps where it was aimed, where it
stopped and the Planner's best shot.
"""

from __future__ import annotations

from typing import Any

from gamenight.analysis.hands import chances
from gamenight.analysis.report import ROLLOUTS as DEFAULT_ROLLOUTS
from gamenight.analysis.report import (
    Analysis,
    Mistake,
    Progress,
    grade,
    start_of,
    turning_points,
    winner_of,
)
from gamenight.bots.colorcity import PlannerBot
from gamenight.bots.registry import game_bots
from gamenight.colorcity.actions import Decision, Pitch
from gamenight.colorcity.state import ColorCityState
from gamenight.colorcity.table import Table
from gamenight.core.errors import RecordError
from gamenight.core.record import GameRecord

ROLLOUTS = DEFAULT_ROLLOUTS["colorcity"]
PREFERRING = "level5"


def squares_text(table: Table, squares: tuple[int, ...]) -> str:
    """Squares by name (``e2 e3``), or ``off the city``."""
    return " ".join(table.square_name(s) for s in squares) or "off the city"


def start_and_actions(
    record: GameRecord | str | bytes,
) -> tuple[ColorCityState, list[Pitch | Decision], ColorCityState]:
    """The game's start, its actions and its end (RecordError for a record that does not
    replay, or one whose game is not over)."""
    final = ColorCityState.replay(record)
    return start_of(final), final.actions, final


def analyse(
    record: GameRecord | str | bytes,
    *,
    rollouts: int = ROLLOUTS,
    bot: str = PREFERRING,
    seed: int = 0,
    progress: Progress | None = None,
) -> Analysis:
    """The analysis of a finished game's record (see the module)."""
    start, actions, final = start_and_actions(record)
    planner = game_bots("colorcity").bot(bot, seed=seed)
    if not isinstance(planner, PlannerBot):
        raise RecordError(f"{bot!r} is not a Planner: the analysis needs its plans")
    table = final.table
    state = start.copy()
    series = [chances(state, rollouts, seed)]
    movers: list[int] = []
    mistakes: list[Mistake] = []
    aims: list[dict[str, Any]] = []
    names = [
        f"{gang.label} {i}" if len(final.seats) > 2 else gang.label
        for i, (gang, _) in enumerate(final.seats)
    ]
    for ply, action in enumerate(actions, 1):
        seat = state.actor
        assert seat is not None
        movers.append(seat)
        view = state.view(seat)
        draws = seed * 100_003 + ply
        mine: float | None = None
        theirs: float | None = None
        played, preferred = str(action), ""
        if isinstance(action, Pitch):
            plan = planner.plan(view)
            aimed = state.covered(state.predict(action.shot).pose)
            stopped = state.covered(action.pose)
            best = state.covered(state.predict(plan.shot).pose)
            preferred = str(plan.shot)
            aims.append(
                {
                    "ply": ply,
                    "seat": seat,
                    "shot": played,
                    "aimed": [table.square_name(s) for s in aimed],
                    "stopped": [table.square_name(s) for s in stopped],
                    "best_shot": preferred,
                    "best_target": table.square_name(plan.target),
                    "best_aimed": [table.square_name(s) for s in best],
                }
            )
            if set(best) != set(aimed):
                theirs = chances(state, rollouts, draws, aim=best)[seat]
                mine = chances(state, rollouts, draws, aim=aimed)[seat]
                played = f"{played} (aimed at {squares_text(table, aimed)})"
                preferred = f"{preferred} (aimed at {squares_text(table, best)})"
        else:
            choice = planner.decision(view)
            preferred = choice.value
            if choice is not action:
                other = state.copy(history=False)
                other.push(choice)
                theirs = chances(other, rollouts, draws)[seat]
        state.push(action)
        row = chances(state, rollouts, draws)
        series.append(row)
        if theirs is not None:
            loss = theirs - (row[seat] if mine is None else mine)
            word = grade(loss)
            if word is not None:
                mistakes.append(
                    Mistake(
                        ply,
                        seat,
                        played,
                        preferred,
                        loss,
                        word,
                        f"{ply}. {names[seat]} played {played}: {word}, the planner preferred"
                        f" {preferred} ({theirs:.0%} to win against"
                        f" {theirs - loss:.0%})",
                    )
                )
        if progress is not None:
            progress(ply, len(actions))
    outcome = final.outcome
    assert outcome is not None
    return Analysis(
        game="colorcity",
        seats=tuple(names),
        method=(
            f"{rollouts} rollouts per position of a model of the bots' hands (no physics),"
            " seeing everything on the table (Color City hides only the generator's key);"
            f" preferred shots: {bot}, from the pitcher's own view; a pitch is judged by"
            " its aim, not its luck"
        ),
        chances=tuple(series),
        turning_points=turning_points(series, movers, [str(a) for a in actions]),
        mistakes=tuple(mistakes),
        winner=winner_of(outcome.places),
        extra={"aims": aims, "turns": final.turn},
    )
