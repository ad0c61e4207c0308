"""Color City for the web: seat views as JSON, pitches and power decisions, the aiming
aids (predicted flicks, the city's speeds)."""

from __future__ import annotations

from gamenight.colorcity import ColorCityState, Decision, Gang, Shot, Table
from gamenight.colorcity.frame import aim
from gamenight.colorcity.svg import board_svg
from gamenight.core.errors import RulesError
from gamenight.core.game import registry
from gamenight.core.record import GameRecord
from gamenight.web.games import JSON, Payload, SeatSpec, WebGame

# A table's seats: a gang may have several, which take its turns in rotation (D1). The
# registry's count is one seat per gang, for games set up by count; the home page offers
# up to this many.
MAX_TABLE_SEATS = 8


class ColorCityGame(WebGame[ColorCityState]):
    state_type = ColorCityState
    simulates = True  # every shot is a physics simulation

    @property
    def max_seats(self) -> int:
        return MAX_TABLE_SEATS

    def new(
        self, seats: list[SeatSpec], first: int | str, rules: JSON, seed: int
    ) -> tuple[ColorCityState, JSON]:
        gangs = [
            (s.role or ("green" if i % 2 == 0 else "purple"), s.skill) for i, s in enumerate(seats)
        ]
        if isinstance(first, int) and not 0 <= first < len(gangs):
            raise RulesError(f"first must be a seat from 0 to {len(gangs) - 1}, not {first}")
        first_gang = first if isinstance(first, str) else gangs[first][0]
        # Set-up checks the bounds; a stored table is replayed without them (D21).
        table = self.checked_rules(rules) if rules else None
        state = ColorCityState.new(seed=seed, first=first_gang, seats=gangs, table=table)
        return state, {"first": Gang.parse(first_gang).label}

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

    def act(self, state: ColorCityState, text: str) -> tuple[Payload, JSON]:
        pushed = state.push(state.parse_action(text))
        last = self.last(state)
        assert last is not None
        return (pushed.value if isinstance(pushed, Decision) else pushed.to_json()), last

    def last(self, state: ColorCityState) -> JSON | None:
        action = state.peek()
        if action is None:
            return None
        seat = state.movers[-1]
        if isinstance(action, Decision):
            return {"seat": seat, "decision": action.value}
        # A replayed state re-simulates its last flick, identical to the live one (D17).
        flick = state.last_flick
        trajectory = [] if flick is None else frames(flick.trajectory.tolist())
        return {"seat": seat, **action.to_json(), "trajectory": trajectory}

    def view(self, state: ColorCityState, seat: int | None) -> JSON:
        v = state.view(seat)
        t = v.table
        pose = state.pending or (state.last_pitch.pose if state.last_pitch else None)
        acting = state.pitcher
        return {
            "game": "colorcity",
            "seat": seat,
            "seats": [{"gang": g.label, "skill": s.value} for g, s in v.seats],
            "to_move": v.to_move.label if v.to_move is not None else None,
            "actor": acting,
            "phase": v.phase.value,
            "expects": state.expects() if seat is not None and seat == acting else None,
            "decisions": (
                [d.value for d in state.legal_decisions()]
                if seat is not None and seat == acting
                else []
            ),
            "cells": list(v.cells),
            "cubes": {"green": v.cubes[0], "purple": v.cubes[1]},
            "powers": {"green": v.powers[0], "purple": v.powers[1]},
            "squares": {"green": v.cells.count(0), "purple": v.cells.count(1)},
            "threats": {
                gang.label: sorted(t.square_name(q) for q in squares)
                for gang, squares in v.threats().items()
            },
            "pose": list(pose) if pose is not None else None,
            "covered": [t.square_name(q) for q in state.covered(pose)] if pose else [],
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
                "launch_y": t.launch_y,
                "launch_half_width": t.launch_half_width,
                "max_direction": t.max_direction_deg,
                "min_speed": t.min_speed,
                "max_speed": t.max_speed,
                "max_spin": t.max_spin,
                "city_speeds": city_speeds(t),
            },
            "log": [str(a) for a in state.actions],
            "log_seats": state.movers,
            "svg": board_svg(state, width=520),
        }

    def drawing(self, state: ColorCityState) -> str:
        return board_svg(state, width=520)

    def predict(self, state: ColorCityState, text: str) -> JSON:
        """The noise-free flick of a shot from the HQ of the gang to move (for aiming)."""
        shot = Shot.parse(text).check(state.table)
        flick = state.predict(shot)
        return {
            "shot": str(shot),
            "stop": [flick.pose.x, flick.pose.y],
            "on_table": flick.pose.on_table,
            "covered": [state.table.square_name(q) for q in state.covered(flick.pose)],
            "path": [[round(r[1], 1), round(r[2], 1)] for r in flick.trajectory.tolist()[::3]],
        }


def city_speeds(table: Table) -> list[float]:
    """The textbook speeds of a straight flick to the city's near and far edges: the drag
    control spends most of its pull between them, where a shot can paint something."""
    edges = (-table.city_half, table.city_half)
    return [round(aim(table, Gang.GREEN, 0.0, y).speed, 3) for y in edges]


def frames(rows: list[list[float]]) -> list[list[float]]:
    """A flick's trajectory as the page animates it, to four decimals."""
    return [[round(v, 4) for v in row] for row in rows]


VIEW = ColorCityGame(registry["colorcity"])
