"""Color City for the web: seat views as JSON, pitches and power decisions, the aiming
aids (predicted flicks, the city's speeds).

The page draws the city from data (static/js/colorcity.js): the squares' colours, the HQs'
cubes, where the last cube stopped and the path it took, each in whole millimetres and
degrees, so that a change of the table is a message of a few kilobytes. The Python SVG
(gamenight.colorcity.svg) stays for Jupyter and the command line. Every play reaches the log
as data (who, the shot, the squares covered and lost, the power used), which the page words
in its language (the log is the engine's: gamenight.colorcity.log)."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from gamenight.colorcity import ColorCityState, Decision, Gang, Shot, Table
from gamenight.colorcity.coverage import covered_squares
from gamenight.colorcity.frame import aim
from gamenight.colorcity.log import DecisionEntry
from gamenight.colorcity.log import shot_text as shot_text  # (the log's rounding, for tests)
from gamenight.colorcity.physics import Pose
from gamenight.colorcity.record import read_action
from gamenight.core.game import registry
from gamenight.core.record import GameRecord
from gamenight.web.games import JSON, Parts, Payload, SeatSpec, WebGame, argument

# At most this many poses of a flight reach the page (a long slide or a fall is sub-sampled:
# the page moves the cube straight between two), and this many points of its trail.
FLIGHT_POSES = 80
TRAIL_POINTS = 40
NO_FRAMES = np.zeros((0, 8))  # the flight before the first pitch


class ColorCityGame(WebGame[ColorCityState]):
    state_type = ColorCityState
    simulates = True  # every shot is a physics simulation

    def new(
        self, seats: list[SeatSpec], first: int | str, rules: JSON, seed: int
    ) -> tuple[ColorCityState, JSON]:
        state = self.own(self.game.new(self.seat_setups(seats), rules, seed, first))
        assert state.first is not None  # a new game's starting gang
        return state, {"first": state.first.label}

    def record_seat(self, seat: JSON) -> JSON:
        return {"gang": seat["role"], "skill": seat["skill"], "name": seat.get("name", "")}

    def engine_replay(self, record: GameRecord) -> ColorCityState:
        state = super().engine_replay(record)
        # Re-simulate the last flick here, in the replaying thread, rather than when the
        # first page is drawn in the event loop.
        _ = state.last_flick
        return state

    def role(self, state: ColorCityState, seat: int) -> str:
        return state.seats[seat][0].label

    def rules_of(self, state: ColorCityState) -> JSON:
        return state.table.to_dict()

    def queries(self) -> dict[str, Callable[[ColorCityState, JSON], JSON]]:
        return {"predict": predict}

    def act(self, state: ColorCityState, text: str) -> tuple[Payload, JSON]:
        pushed = state.push(state.parse_action(text))
        last = self.last(state)
        assert last is not None
        return (pushed.value if isinstance(pushed, Decision) else pushed.to_json()), last

    def push_stored(self, state: ColorCityState, payload: Payload) -> None:
        state.push(read_action(payload))

    def last(self, state: ColorCityState) -> JSON | None:
        """The last action as the page animates and marks it: its log entry, and a pitch's
        flight."""
        entry = state.last_entry()
        if entry is None:
            return None
        if isinstance(entry, DecisionEntry):
            return entry.to_dict()
        return {**entry.to_dict(), "flight": last_flight(state)}

    def view(self, state: ColorCityState, seat: int | None, parts: Parts | None = None) -> JSON:
        state.view(seat)  # ValueError for a seat that does not exist
        parts = parts or Parts()
        acting = state.pitcher
        mine = seat is not None and seat == acting
        # The city (threats, the trail, the squares covered) and the log once per change,
        # for every seat's view alike.
        before, after, log = parts.get(
            state, "view", lambda: (head(state), city(state), parts.log(state))
        )
        return {
            "game": "colorcity",
            "seat": seat,
            **before,
            "expects": state.expects() if mine else None,
            "decisions": [d.value for d in state.legal_decisions()] if mine else [],
            **after,
            "log": log,
        }


def predict(state: ColorCityState, args: JSON) -> JSON:
    """The ``predict`` query: the noise-free flick of a ``shot`` (its notation) from the HQ
    of the gang to move, for aiming."""
    shot = Shot.parse(argument(args, "shot", "predict")).check(state.table)
    flick = state.predict(shot)
    return {
        "shot": str(shot),
        "stop": [flick.pose.x, flick.pose.y],
        "on_table": flick.pose.on_table,
        "covered": [state.table.square_name(q) for q in state.covered(flick.pose)],
        "path": [[round(r[1], 1), round(r[2], 1)] for r in flick.trajectory.tolist()[::3]],
    }


def last_flight(state: ColorCityState) -> JSON:
    """The last pitch's flight as the page animates it."""
    # A replayed state re-simulates its last flick, identical to the live one (D17).
    flick = state.last_flick
    return flight(NO_FRAMES if flick is None else flick.trajectory, FLIGHT_POSES)


def head(state: ColorCityState) -> JSON:
    """The view's parts before the acting seat's choices that every seat sees alike."""
    v = state.view(None)
    return {
        "seats": [{"gang": g.label, "skill": s.value} for g, s in v.seats],
        "to_move": v.to_move.label if v.to_move is not None else None,
        "actor": state.pitcher,
        "phase": v.phase.value,
    }


def city(state: ColorCityState) -> JSON:
    """The view's parts after the acting seat's choices that every seat sees alike: the
    city, the last cube and the table's measures."""
    v = state.view(None)
    t = v.table
    pose = state.pending or (state.last_pitch.pose if state.last_pitch else None)
    flick = state.last_flick
    return {
        "cells": list(v.cells),
        "cubes": {"green": v.cubes[0], "purple": v.cubes[1]},
        "powers": {"green": v.powers[0], "purple": v.powers[1]},
        "squares": {"green": v.cells.count(0), "purple": v.cells.count(1)},
        "threats": {
            gang.label: sorted(t.square_name(q) for q in squares)
            for gang, squares in v.threats().items()
        },
        "stop": quantised(pose) if pose is not None else None,
        "trail": trail(flick.trajectory) if flick is not None else [],
        # The rules' own function, kept: the pitch's log entry asked it for this pose.
        "covered": [t.square_name(q) for q in covered_by(t, pose)] if pose else [],
        "turn": v.turn,
        "status": "playing" if v.outcome is None else v.outcome.reason,
        "outcome": v.outcome.to_dict() if v.outcome else None,
        "table": {
            "board_width": t.board_width_mm,
            "board_length": t.board_length_mm,
            "city_mm": t.city_mm,
            "square_mm": t.square_mm,
            "city_size": t.city_size,
            "cube_mm": t.cube_mm,
            "cubes_per_gang": t.cubes_per_gang,
            "launch_y": t.launch_y,
            "launch_half_width": t.launch_half_width,
            "max_direction": t.max_direction_deg,
            "min_speed": t.min_speed,
            "max_speed": t.max_speed,
            "max_spin": t.max_spin,
            "city_speeds": city_speeds(t),
        },
    }


def city_speeds(table: Table) -> list[float]:
    """The textbook speeds of a straight flick to the city's near and far edges: the drag
    control spends most of its pull between them, where a shot can paint something."""
    return list(edge_speeds(table))  # a list of its own: a view's parts are lists


@lru_cache(maxsize=64)
def edge_speeds(table: Table) -> tuple[float, ...]:
    """``city_speeds``, kept: they depend on the table's measures alone, and every change's
    view shows them."""
    edges = (-table.city_half, table.city_half)
    return tuple(round(aim(table, Gang.GREEN, 0.0, y).speed, 3) for y in edges)


def quantised(pose: Pose) -> list[int]:
    """A pose as the page draws it: x, y and z in whole millimetres, the yaw in whole degrees
    (z below 0: the cube fell off the table, D5)."""
    # z keeps its sign, which says whether the cube is on the table (D5).
    z = max(1, round(pose.z)) if pose.on_table else min(-1, round(pose.z))
    return [round(pose.x), round(pose.y), z, round(pose.yaw_deg)]


def flight(rows: npt.NDArray[np.float64], most: int) -> JSON:
    """A flick's trajectory (one row per frame) as the page animates it: ``dt`` milliseconds
    between poses, each ``quantised``, at most ``most`` of them (every ``k``-th frame, and the
    last)."""
    n = len(rows)
    if not n:
        return {"dt": 0, "poses": []}
    k = max(1, math.ceil((n - 1) / (most - 1)))
    # Only the frames shown become Python lists: a trajectory has hundreds or thousands.
    picked: list[list[float]] = rows[::k].tolist()
    if (n - 1) % k:
        picked.append(rows[-1].tolist())
    dt = round(1000 * (float(rows[min(k, n - 1), 0]) - float(rows[0, 0])))
    return {"dt": dt, "poses": [quantised(Pose(*row[1:8])) for row in picked]}


def trail(rows: npt.NDArray[np.float64]) -> list[list[int]]:
    """The path the last cube took, as the board shows it: at most ``TRAIL_POINTS`` points in
    whole millimetres."""
    return [pose[:2] for pose in flight(rows, TRAIL_POINTS)["poses"]]


@lru_cache(maxsize=4096)
def covered_by(table: Table, pose: Pose) -> tuple[int, ...]:
    """The squares a pitch's cube covers, kept: a table's pages all ask for the same pose."""
    return covered_squares(table, pose)


VIEW = ColorCityGame(registry["colorcity"])
