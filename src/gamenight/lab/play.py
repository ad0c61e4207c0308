"""One lab game: the tournament's game loop, watched, as one JSON-ready row.

The generic part is the protocol's: each seat's ``standing()`` after every turn (a turn
here is a run of one seat's actions: it ends when the actor changes or the game ends). Each
game may add its own counts (``COUNTERS``): a third game without an entry gets the generic
measurements only.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from gamenight.centrix.board import NUM_SLOTS, OFF, TOP
from gamenight.centrix.plays import Play
from gamenight.centrix.state import HAND_SIZE, CentrixState
from gamenight.colorcity.actions import Decision
from gamenight.colorcity.state import ColorCityState
from gamenight.core.game import GameState
from gamenight.lab.experiment import Job
from gamenight.tournament import run_jobs
from gamenight.tournament.runner import play_game

ROW_VERSION = 1


class CentrixCounter:
    """Bumps, bump chains, leapfrogs, rotations, cards left unplayed, passes and turns with
    every pawn off the board."""

    KEYS: tuple[str, ...] = ("bumps", "bump_chains", "knocked_off", "leapfrogs", "rotations")
    KEYS += ("unplayable_cards", "passes", "turns_all_off", "game_turns")

    def __init__(self, players: int) -> None:
        self.counts: Counter[str] = Counter(dict.fromkeys(self.KEYS, 0))
        self.players = players
        self.turn = -1

    def before(self, state: CentrixState, play: Play) -> None:
        seat = state.actor
        assert seat is not None
        self.hand = len(state.hands[seat])
        self.turn_before = state.turn
        if state.turn != self.turn:  # the first play of a turn
            self.turn = state.turn
            if state.pawn_squares(seat).count(OFF) == state.rules.pawns:
                self.counts["turns_all_off"] += 1
        if play.rotation is not None:
            self.counts["rotations"] += 1
        if play.move is None:
            return
        moved = state.effects(play)
        if len(moved) > 1:
            self.counts["bumps"] += 1
            if len(moved) > 2:
                self.counts["bump_chains"] += 1  # the bumped pawn bumped another
            self.counts["knocked_off"] += sum(1 for _, _, to in moved[1:] if to == OFF)
        if _leapfrog(play.move.from_square, play.move.to_square):
            self.counts["leapfrogs"] += 1

    def after(self, state: CentrixState, play: Play, mover: int) -> None:
        if state.turn == self.turn_before:
            return
        passes = state.turn - self.turn_before - 1
        self.counts["passes"] += passes
        # A passing seat holds a full hand none of whose cards can be played (D8).
        self.counts["unplayable_cards"] += HAND_SIZE * passes
        if not state.places[mover]:
            self.counts["unplayable_cards"] += self.hand - 1
        self.counts["game_turns"] = state.turn


def _leapfrog(frm: int, to: int) -> bool:
    """Whether a move is a leapfrog (D11): not to an adjacent square."""
    if frm == OFF:
        return to == TOP or to >= NUM_SLOTS
    if to == TOP:
        return frm // NUM_SLOTS != 5
    (r1, s1), (r2, s2) = divmod(frm, NUM_SLOTS), divmod(to, NUM_SLOTS)
    if s1 == s2:
        return abs(r1 - r2) > 1
    return min((s1 - s2) % NUM_SLOTS, (s2 - s1) % NUM_SLOTS) > 1


class ColorCityCounter:
    """Cubes destroyed, squares overwritten, each power's use."""

    KEYS: tuple[str, ...] = (
        "cubes_destroyed",
        "green_cubes_lost",
        "purple_cubes_lost",
        "squares_overwritten",
    )
    KEYS += ("lucky_day", "purple_pain", "power_declined", "game_turns")

    def __init__(self, players: int) -> None:
        self.counts: Counter[str] = Counter(dict.fromkeys(self.KEYS, 0))

    def before(self, state: ColorCityState, action: Any) -> None:
        self.cells = state.cells[:]
        self.cubes = state.cubes[:]

    def after(self, state: ColorCityState, action: Any, mover: int) -> None:
        self.counts["cubes_destroyed"] += sum(self.cubes) - sum(state.cubes)
        for gang, label in ((0, "green"), (1, "purple")):
            self.counts[f"{label}_cubes_lost"] += self.cubes[gang] - state.cubes[gang]
        self.counts["squares_overwritten"] += sum(
            1 for old, new in zip(self.cells, state.cells, strict=True) if old != new and old >= 0
        )
        if action is Decision.LUCKY_DAY:
            self.counts["lucky_day"] += 1
        elif action is Decision.PURPLE_PAIN:
            self.counts["purple_pain"] += 1
        elif action is Decision.PASS:
            self.counts["power_declined"] += 1
        self.counts["game_turns"] = state.turn


COUNTERS: dict[str, Any] = {"centrix": CentrixCounter, "colorcity": ColorCityCounter}
"""Each game's own counts, by the registry's name."""


class Trace:
    """The tournament's Watcher for the lab: standings after every turn, and the game's
    own counts."""

    def __init__(self, game: str, players: int) -> None:
        self.standings: list[list[list[int]]] = []
        counter = COUNTERS.get(game)
        self.counter = counter(players) if counter else None

    def before(self, state: GameState, action: Any) -> None:
        if self.counter:
            self.counter.before(state, action)

    def after(self, state: GameState, action: Any, mover: int) -> None:
        if self.counter:
            self.counter.after(state, action, mover)
        if state.actor != mover:
            self.standings.append([list(s) for s in state.standing()])


def play_row(job: Job) -> dict[str, Any]:
    """Play one job's game and return its results row (JSON-ready)."""
    trace = Trace(job.game, len(job.lineup))
    result = play_game(
        job.game,
        list(job.lineup),
        job.seed,
        job.index,
        job.rules or None,
        first=job.first,
        watcher=trace,
    )
    counts = dict(trace.counter.counts) if trace.counter else {}
    return {
        "v": ROW_VERSION,
        "variant": job.variant,
        "index": job.index,
        "seed": job.seed,
        "players": len(job.lineup),
        "lineup": list(job.lineup),
        "first": job.first,
        "places": result.places,
        "reason": result.reason,
        "actions": result.actions,
        "turns": len(trace.standings),
        "seconds": round(result.seconds, 4),
        "standings": trace.standings,
        "counts": counts,
    }


def play_rows(jobs: list[Job], workers: int = 1) -> Any:
    """Every job's row on local processes, as each is done (the tournament's machinery)."""
    return run_jobs(play_row, [(job,) for job in jobs], workers)
