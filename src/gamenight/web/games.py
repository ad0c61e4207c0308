"""What the web app needs from each game: set-up, views as JSON, actions, undo, bots.

Everything a client receives comes from a seat's view (or the spectator's), never from the
full state: this module is where a game's hidden information stays on the server.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from gamenight.bots.colorcity import aim
from gamenight.bots.registry import game_bots
from gamenight.centrix import CentrixState, Colour, Play, Rules, square_name
from gamenight.centrix.board import NUM_RINGS, NUM_SLOTS
from gamenight.centrix.plays import parse_rotation
from gamenight.centrix.svg import board_svg as centrix_svg
from gamenight.colorcity import ColorCityState, Decision, Gang, Shot, Table, parse_action
from gamenight.colorcity.state import winning_sets
from gamenight.colorcity.svg import board_svg as colorcity_svg
from gamenight.core.errors import GamenightError, RulesError
from gamenight.core.record import GameRecord


@dataclass(frozen=True)
class SeatSpec:
    """A seat as the home page sets it up."""

    kind: str  # "human" (this device or an invite) or "bot"
    name: str
    level: int | None = None
    role: str = ""  # Centrix: pawn colour; Color City: gang
    skill: str = "normal"  # Color City: the seat's hand


class WebGame:
    """The interface the server drives; one subclass per game."""

    name: str
    min_seats: int
    max_seats: int
    simulates = False  # whether an action runs a simulation (kept off the event loop)

    def new(
        self, seats: list[SeatSpec], first: int | str, rules: dict[str, Any], seed: int
    ) -> tuple[Any, dict[str, Any]]:
        """The new state, and the stored ``setup`` that rebuilds it."""
        raise NotImplementedError

    def replay(
        self,
        rules: dict[str, Any],
        seed: int,
        setup: dict[str, Any],
        seats: list[dict[str, Any]],
        actions: list[Any],
    ) -> Any:
        """The state a stored table reaches: the engine's own record replay, so the web app
        keeps no second way of rebuilding a game."""
        record = GameRecord(
            game=self.name,
            rules=rules,
            seed=seed,
            seats=[self.record_seat(seat) for seat in seats],
            actions=actions,
            setup={"first": setup["first"]},
        )
        return self.engine_replay(record)

    def record_seat(self, seat: dict[str, Any]) -> dict[str, Any]:
        """A stored seat as the game's record writes it."""
        raise NotImplementedError

    def engine_replay(self, record: GameRecord) -> Any:
        raise NotImplementedError

    def record(self, state: Any, seats: list[dict[str, Any]]) -> GameRecord:
        raise NotImplementedError

    def role(self, state: Any, seat: int) -> str:
        """The seat's part in the game: a pawn colour, a gang."""
        raise NotImplementedError

    def rules_of(self, state: Any) -> dict[str, Any]:
        raise NotImplementedError

    def predict(self, state: Any, text: str) -> dict[str, Any]:
        raise GamenightError("only Color City predicts flicks")

    def preview(self, state: Any, rotation: str) -> dict[str, Any]:
        raise GamenightError("only a Centrix game in play can preview a rotation")

    def actor(self, state: Any) -> int | None:
        """The seat that acts now (None when the game is over)."""
        raise NotImplementedError

    def act(self, state: Any, text: str) -> tuple[Any, dict[str, Any]]:
        """Apply an action written in notation. Returns (stored payload, what happened:
        ``last`` of the new state)."""
        raise NotImplementedError

    def last(self, state: Any) -> dict[str, Any] | None:
        """The last action, as a page animates and draws it (None before the first). Built
        from the state alone, so a table reloaded from the store or changed on another
        server shows its last action exactly as the live one did."""
        raise NotImplementedError

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        raise NotImplementedError

    def can_undo(self, state: Any, seat: int) -> bool:
        return False

    def bot_action(self, view: Any, level: int, seed: int) -> str:
        """A bot's action for ``view``, in notation (runs in a worker process)."""
        bot = game_bots(self.name).bot(f"level{level}", seed)
        return str(bot.choose(view))


# ---------------------------------------------------------------- Centrix


class CentrixGame(WebGame):
    name = "centrix"
    min_seats = 2
    max_seats = 6

    def new(
        self, seats: list[SeatSpec], first: int | str, rules: dict[str, Any], seed: int
    ) -> tuple[CentrixState, dict[str, Any]]:
        colours = [Colour.parse(s.role) if s.role else Colour(i) for i, s in enumerate(seats)]
        if not isinstance(first, int):
            raise RulesError("first must be a seat number")
        # Set-up checks the bounds; a stored table is replayed without them (D17).
        checked = Rules.from_dict(rules).check_bounds()
        state = CentrixState.new(colours, seed=seed, first=first, rules=checked)
        return state, {"first": first}

    def record_seat(self, seat: dict[str, Any]) -> dict[str, Any]:
        return {"colour": seat["role"], "name": seat.get("name", "")}

    def engine_replay(self, record: GameRecord) -> CentrixState:
        return CentrixState.replay(record)

    def role(self, state: CentrixState, seat: int) -> str:
        return state.players[seat].name.lower()

    def rules_of(self, state: CentrixState) -> dict[str, Any]:
        return state.rules.to_dict()

    def preview(self, state: CentrixState, rotation: str) -> dict[str, Any]:
        """The board with one ring turned (public: no play is made, nothing is revealed)."""
        if state.to_move is None:
            return super().preview(state, rotation)
        turn = parse_rotation(rotation)
        view = state.view(None).rotated(turn.ring, turn.amount)
        return {"rotation": rotation, "svg": centrix_svg(view, size=560, legend=False)}

    def record(self, state: CentrixState, seats: list[dict[str, Any]]) -> GameRecord:
        return state.record([s.get("name", "") for s in seats])

    def actor(self, state: CentrixState) -> int | None:
        return state.to_move

    def act(self, state: CentrixState, text: str) -> tuple[str, dict[str, Any]]:
        play = state.parse_play(text)
        state.push(play)
        last = self.last(state)
        assert last is not None
        return str(play), last

    def last(self, state: CentrixState) -> dict[str, Any] | None:
        play = state.peek()
        if play is None:
            return None
        before = state.copy()
        before.pop()
        effects = before.effects(play)  # the pawns the play moved, bumped ones included
        return {
            "seat": state.movers[-1],
            "notation": str(play),
            "card": str(play.card),
            "rotation": (
                {"ring": play.rotation.ring, "amount": play.rotation.amount}
                if play.rotation
                else None
            ),
            "moves": [
                {"seat": s, "from": square_name(f), "to": square_name(t)} for s, f, t in effects
            ],
        }

    def can_undo(self, state: CentrixState, seat: int) -> bool:
        # Within one's own turn only: nothing hidden is revealed before the draw at its end.
        return state.to_move == seat and state.plays_done > 0

    def view(self, state: CentrixState, seat: int | None) -> dict[str, Any]:
        v = state.view(seat)
        layout = state.rules.layout
        players = []
        for s, colour in enumerate(v.players):
            players.append(
                {
                    "colour": colour.name.lower(),
                    "letter": colour.letter,
                    "top": v.top[s],
                    "off": v.pawns_off(s),
                    "hand_size": v.hand_sizes[s],
                    "place": v.places[s] or None,
                    "levels": sum(sq // NUM_SLOTS + 1 for sq, o in enumerate(v.cells) if o == s)
                    + 7 * v.top[s],
                }
            )
        legal: list[dict[str, Any]] = []
        if seat is not None and v.to_move == seat:
            legal = [_play_json(p) for p in state.legal_plays()]
        return {
            "game": "centrix",
            "seat": seat,
            "players": players,
            "to_move": v.to_move,
            "plays_left": state.plays_left,
            "turn": v.turn,
            "status": v.status,
            "outcome": state.outcome.to_dict() if state.outcome else None,
            "hand": [str(c) for c in v.hand] if v.hand is not None else None,
            "draw_size": v.draw_size,
            "discard": [str(c) for c in v.discard[-5:]],
            "discard_size": len(v.discard),
            "offsets": list(v.offsets),
            "cells": list(v.cells),
            "colours": [
                [layout.colour(r, slot, v.offsets[r - 1]).name.lower() for slot in range(12)]
                for r in range(1, NUM_RINGS + 1)
            ],
            "ring_colours": [[c.name.lower() for c in ring] for ring in layout.rings],
            "legal": legal,
            "log": [str(p) for p in state.plays],
            "log_seats": state.movers,
            "svg": centrix_svg(v, size=560, legend=False),
        }


def _play_json(play: Play) -> dict[str, Any]:
    return {
        "notation": str(play),
        "card": str(play.card),
        "rotation": str(play.rotation) if play.rotation else None,
        "from": square_name(play.move.from_square) if play.move else None,
        "to": square_name(play.move.to_square) if play.move else None,
    }


# ---------------------------------------------------------------- Color City


class ColorCityGame(WebGame):
    name = "colorcity"
    min_seats = 2
    max_seats = 8
    simulates = True  # every shot is a physics simulation

    def new(
        self, seats: list[SeatSpec], first: int | str, rules: dict[str, Any], seed: int
    ) -> tuple[ColorCityState, dict[str, Any]]:
        gangs = [
            (s.role or ("green" if i % 2 == 0 else "purple"), s.skill) for i, s in enumerate(seats)
        ]
        if isinstance(first, int) and not 0 <= first < len(gangs):
            raise RulesError(f"first must be a seat from 0 to {len(gangs) - 1}, not {first}")
        first_gang = first if isinstance(first, str) else gangs[first][0]
        # Set-up checks the bounds; a stored table is replayed without them (D21).
        table = Table.from_dict(rules).check_bounds() if rules else None
        state = ColorCityState.new(seed=seed, first=first_gang, seats=gangs, table=table)
        return state, {"first": Gang.parse(first_gang).label}

    def record_seat(self, seat: dict[str, Any]) -> dict[str, Any]:
        return {"gang": seat["role"], "skill": seat["skill"], "name": seat.get("name", "")}

    def engine_replay(self, record: GameRecord) -> ColorCityState:
        from gamenight.colorcity import replay

        state = replay(record)
        # Re-simulate the last flick here, in the replaying thread, rather than when the
        # first page is drawn in the event loop.
        _ = state.last_flick
        return state

    def role(self, state: ColorCityState, seat: int) -> str:
        return state.seats[seat][0].label

    def rules_of(self, state: ColorCityState) -> dict[str, Any]:
        return state.table.to_dict()

    def record(self, state: ColorCityState, seats: list[dict[str, Any]]) -> GameRecord:
        from gamenight.colorcity import to_record

        record = to_record(state)
        for entry, seat in zip(record.seats, seats, strict=True):
            entry["name"] = seat.get("name", "")
        return record

    def actor(self, state: ColorCityState) -> int | None:
        return state.pitcher

    def act(self, state: ColorCityState, text: str) -> tuple[Any, dict[str, Any]]:
        pushed = state.push(parse_action(text))
        last = self.last(state)
        assert last is not None
        return (pushed.value if isinstance(pushed, Decision) else pushed.to_json()), last

    def last(self, state: ColorCityState) -> dict[str, Any] | None:
        action = state.peek()
        if action is None:
            return None
        seat = state.movers[-1]
        if isinstance(action, Decision):
            return {"seat": seat, "decision": action.value}
        # A replayed state re-simulates its last flick, identical to the live one (D17).
        flick = state.last_flick
        trajectory = [] if flick is None else _frames(flick.trajectory.tolist())
        return {"seat": seat, **action.to_json(), "trajectory": trajectory}

    def view(self, state: ColorCityState, seat: int | None) -> dict[str, Any]:
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
            "threats": threats(v.cells, t),
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
            "svg": colorcity_svg(state, width=520),
        }

    def predict(self, state: ColorCityState, text: str) -> dict[str, Any]:
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


def _frames(rows: list[list[float]]) -> list[list[float]]:
    return [[round(v, 4) for v in row] for row in rows]


def threats(cells: tuple[int, ...], table: Table) -> dict[str, list[str]]:
    """For each gang, the squares that would complete one of its lines or blocks when at
    most two are missing: what to take, or what to block."""
    out: dict[str, set[int]] = {"green": set(), "purple": set()}
    for _, squares in winning_sets(table.city_size):
        for gang, label in ((0, "green"), (1, "purple")):
            missing = [q for q in squares if cells[q] != gang]
            if 0 < len(missing) <= 2:
                out[label].update(missing)
    return {label: sorted(table.square_name(q) for q in squares) for label, squares in out.items()}


GAMES: dict[str, WebGame] = {"centrix": CentrixGame(), "colorcity": ColorCityGame()}


def get_game(name: str) -> WebGame:
    try:
        return GAMES[name]
    except KeyError:
        raise GamenightError(f"unknown game {name!r}: centrix or colorcity") from None


def new_seed() -> int:
    return random.SystemRandom().getrandbits(62)


__all__ = ["GAMES", "SeatSpec", "WebGame", "get_game"]
