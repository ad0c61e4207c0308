"""Analysing a finished Centrix game: chances by rollouts, and the planner's preferred plays.

Each seat's chance to win at a position is the share of ``rollouts`` games, played on from
it by ISMCTS's default policy on the compiled core (``bots.centrix.fast_play``), that the
seat wins (finishes first). The game is over, so the rollouts see every hand; the draw
pile's order, which nobody could know, is shuffled anew for each. At each play the strongest
bot of the ladder (level 5, the turn planner) chooses from the mover's own view, and when
it prefers another play, the chance after its play is estimated with the same rollouts'
random numbers as the chance after the play made: the difference is the play's loss, and
the shared draws keep the comparison's noise well below each estimate's.
"""

from __future__ import annotations

import random

from gamenight.analysis.report import ROLLOUTS as DEFAULT_ROLLOUTS
from gamenight.analysis.report import (
    TEMPER,
    Analysis,
    Mistake,
    Progress,
    grade,
    result_chances,
    start_of,
    tempered,
    turning_points,
    winner_of,
)
from gamenight.bots.centrix import fast_play
from gamenight.bots.registry import game_bots
from gamenight.centrix import native
from gamenight.centrix.explain import written
from gamenight.centrix.plays import Play
from gamenight.centrix.state import CentrixState
from gamenight.core.record import GameRecord

ROLLOUTS = DEFAULT_ROLLOUTS["centrix"]
PREFERRING = "level5"
# Plays per call into the compiled core between checks for a first finisher: a rollout
# stops at the winner instead of playing out the other places.
STRETCH = 30


def chances(
    state: CentrixState, rollouts: int, seed: int, *, temper: bool = True
) -> tuple[float, ...]:
    """Each seat's chance to win from ``state`` (every hand seen, the draw pile shuffled
    anew): the share of ``rollouts`` default-policy games it wins, tempered (TEMPER; not
    with ``temper=False``). The same ``seed`` gives the same draws, so two positions'
    estimates can be compared on equal terms."""
    n = state.num_players
    if 1 in state.places:  # someone has finished first (the game may go on for places)
        return result_chances(state.places)
    rng = random.Random(seed)
    wins = [0.0] * n
    for _ in range(rollouts):
        game = state.copy(history=False)
        native.shuffle(game.draw, rng)
        game.key = rng.getrandbits(64)
        while not game.is_over and 1 not in game.places:
            native.play_out(game, rng, STRETCH, native.CLIMB, fast_play)
        firsts = [seat for seat, place in enumerate(game.places) if place == 1]
        for seat in firsts or range(n):
            wins[seat] += 1 / (len(firsts) or n)
    shares = tuple(w / rollouts for w in wins)
    return tempered(shares, *TEMPER["centrix"]) if temper else shares


def start_and_plays(
    record: GameRecord | str | bytes,
) -> tuple[CentrixState, list[Play], CentrixState]:
    """The game's start, its plays and its end (RecordError for a record that does not
    replay, or one whose game is not over)."""
    final = CentrixState.replay(record)
    return start_of(final), final.plays, final


def analyse(
    record: GameRecord | str | bytes,
    *,
    rollouts: int = ROLLOUTS,
    bot: str = PREFERRING,
    seed: int = 0,
    progress: Progress | None = None,
) -> Analysis:
    """The analysis of a finished game's record (see the module)."""
    start, plays, final = start_and_plays(record)
    preferring = game_bots("centrix").bot(bot, seed=seed)
    state = start.copy(history=False)
    row = chances(state, rollouts, seed)
    series = [row]
    movers: list[int] = []
    mistakes: list[Mistake] = []
    names = [colour.name.lower() for colour in final.players]
    for ply, play in enumerate(plays, 1):
        seat = state.actor
        assert seat is not None
        movers.append(seat)
        preferred = preferring.choose(state.view(seat))
        draws = seed * 100_003 + ply
        alternative = None
        if preferred != play:
            other = state.copy(history=False)
            other.push(preferred)
            alternative = chances(other, rollouts, draws)
        state.push(play)
        row = chances(state, rollouts, draws)
        series.append(row)
        if alternative is not None:
            loss = alternative[seat] - row[seat]
            word = grade(loss)
            if word is not None:
                mistakes.append(
                    Mistake(
                        ply,
                        seat,
                        written(play),
                        written(preferred),
                        loss,
                        word,
                        f"{ply}. {names[seat]} played {written(play)}: {word}, the planner"
                        f" preferred {written(preferred)}"
                        f" ({row[seat]:.0%} to win against {alternative[seat]:.0%})",
                    )
                )
        if progress is not None:
            progress(ply, len(plays))
    outcome = final.outcome
    assert outcome is not None
    series[-1] = result_chances(outcome.places)
    return Analysis(
        game="centrix",
        seats=tuple(names),
        method=(
            f"{rollouts} rollouts per position of the default policy on the compiled core"
            f" (native: {native.active()}), seeing every hand (the game is over), the draw"
            f" pile shuffled anew; preferred plays: {bot} from the mover's own view"
        ),
        chances=tuple(series),
        turning_points=turning_points(series, movers, [written(p) for p in plays]),
        mistakes=tuple(mistakes),
        winner=winner_of(outcome.places),
        extra={"plays": len(plays), "turns": final.turn},
    )
