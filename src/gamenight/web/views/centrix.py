"""Centrix for the web: seat views as JSON, plays, previews of a turned ring, undo."""

from __future__ import annotations

from gamenight.centrix import CentrixState, Play, square_name
from gamenight.centrix.board import NUM_RINGS, NUM_SLOTS
from gamenight.centrix.plays import parse_rotation
from gamenight.centrix.svg import board_svg
from gamenight.core.game import registry
from gamenight.web.games import JSON, SeatSpec, WebGame


class CentrixGame(WebGame[CentrixState]):
    state_type = CentrixState

    def new(
        self, seats: list[SeatSpec], first: int | str, rules: JSON, seed: int
    ) -> tuple[CentrixState, JSON]:
        state = self.own(self.game.new(self.seat_setups(seats), rules, seed, first))
        return state, {"first": state.first}

    def record_seat(self, seat: JSON) -> JSON:
        return {"colour": seat["role"], "name": seat.get("name", "")}

    def role(self, state: CentrixState, seat: int) -> str:
        return state.players[seat].name.lower()

    def rules_of(self, state: CentrixState) -> JSON:
        return state.rules.to_dict()

    def preview(self, state: CentrixState, rotation: str) -> JSON:
        """The board with one ring turned (public: no play is made, nothing is revealed)."""
        if state.to_move is None:
            return super().preview(state, rotation)
        turn = parse_rotation(rotation)
        view = state.view(None).rotated(turn.ring, turn.amount)
        return {"rotation": rotation, "svg": board_svg(view, size=560, legend=False)}

    def act(self, state: CentrixState, text: str) -> tuple[str, JSON]:
        play = state.parse_play(text)  # refused with the rule that forbids it
        state.push(play)
        last = self.last(state)
        assert last is not None
        return str(play), last

    def last(self, state: CentrixState) -> JSON | None:
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

    def view(self, state: CentrixState, seat: int | None) -> JSON:
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
                    "levels": v.level_sum(s),
                }
            )
        legal: list[JSON] = []
        if seat is not None and v.to_move == seat:
            legal = [play_json(p) for p in state.legal_plays()]
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
                [layout.colour(r, slot, v.offsets[r - 1]).name.lower() for slot in range(NUM_SLOTS)]
                for r in range(1, NUM_RINGS + 1)
            ],
            "ring_colours": [[c.name.lower() for c in ring] for ring in layout.rings],
            "legal": legal,
            "log": [str(p) for p in state.plays],
            "log_seats": state.movers,
            "svg": board_svg(v, size=560, legend=False),
        }


def play_json(play: Play) -> JSON:
    """A legal play as the page lists it."""
    return {
        "notation": str(play),
        "card": str(play.card),
        "rotation": str(play.rotation) if play.rotation else None,
        "from": square_name(play.move.from_square) if play.move else None,
        "to": square_name(play.move.to_square) if play.move else None,
    }


VIEW = CentrixGame(registry["centrix"])
