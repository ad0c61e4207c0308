"""Centrix for the web: seat views as JSON, plays, previews of a turned ring, undo.

The board travels as data (the page draws it): the squares' owners, the rings' offsets and
each square's colour as a letter. The log is one entry per play with its effects (each pawn
moved, the moving one first, then the bump chain), so that a new play is one entry more.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field

from gamenight.centrix import CentrixState, Play, square_name
from gamenight.centrix.board import NUM_RINGS, NUM_SLOTS, Layout
from gamenight.centrix.plays import parse_rotation
from gamenight.centrix.record import read_action
from gamenight.centrix.state import PLAYS_PER_TURN
from gamenight.core.game import Game, registry
from gamenight.web.games import JSON, Payload, SeatSpec, WebGame


@dataclass
class Kept:
    """A live state's log entries, and when they were last brought up to date."""

    state: weakref.ref[CentrixState]
    entries: list[JSON] = field(default_factory=list)
    at: tuple[int, int] | None = None  # (turn, plays made in it)
    last: Play | None = None


class CentrixGame(WebGame[CentrixState]):
    state_type = CentrixState

    def __init__(self, game: Game[CentrixState]) -> None:
        super().__init__(game)
        # Each live state's log entries so far, by the state's id (a state is not hashable).
        self._logs: dict[int, Kept] = {}

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
        return {"rotation": rotation, **board(state, view.cells, view.offsets)}

    def act(self, state: CentrixState, text: str) -> tuple[str, JSON]:
        play = state.parse_play(text)  # refused with the rule that forbids it
        state.push(play)
        last = self.last(state)
        assert last is not None
        return str(play), last

    def push_stored(self, state: CentrixState, payload: Payload) -> None:
        state.push(read_action(payload))

    def last(self, state: CentrixState) -> JSON | None:
        """The last play as the page animates and marks it: its log entry, told in full."""
        log = self.log(state)
        play = state.peek()
        if not log or play is None:
            return None
        return {
            "seat": log[-1]["seat"],
            "notation": log[-1]["notation"],
            "card": str(play.card),
            "rotation": (
                {"ring": play.rotation.ring, "amount": play.rotation.amount}
                if play.rotation
                else None
            ),
            "moves": [{"seat": s, "from": f, "to": t} for s, f, t in log[-1]["moves"]],
        }

    def log(self, state: CentrixState) -> list[JSON]:
        """One entry per play so far, with its effects. Kept for each live state and
        extended by the plays made since (an undo, within a turn, takes back at most the
        turn's plays before it: those are checked again)."""
        key = id(state)
        kept = self._logs.get(key)
        if kept is None or kept.state() is not state:
            ref = weakref.ref(state, lambda _: self._logs.pop(key, None))
            kept = self._logs[key] = Kept(ref)
        entries = kept.entries
        # Unchanged since last asked (the usual case: one state, a view for each page): the
        # same last play object, at the same point of the same turn (undo stays in a turn).
        now = (state.turn, state.plays_done)
        if kept.at == now and kept.last is state.peek():
            return entries
        kept.at, kept.last = now, state.peek()
        plays, movers = state.plays, state.movers
        del entries[len(plays) :]
        start = max(0, len(entries) - PLAYS_PER_TURN)
        for i in range(start, len(entries)):
            if entries[i]["notation"] != str(plays[i]) or entries[i]["seat"] != movers[i]:
                del entries[i:]
                break
        if len(entries) < len(plays):
            entries += play_entries(state, len(plays) - len(entries))
        return entries

    def can_undo(self, state: CentrixState, seat: int) -> bool:
        # Within one's own turn only: nothing hidden is revealed before the draw at its end.
        return state.to_move == seat and state.plays_done > 0

    def view(self, state: CentrixState, seat: int | None) -> JSON:
        v = state.view(seat)
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
        legal: JSON | None = None
        if seat is not None and v.to_move == seat:
            legal = grouped(state.legal_plays())
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
            **board(state, v.cells, v.offsets),
            "legal": legal,
            "log": list(self.log(state)),  # a copy: the pages' last states hold theirs
        }


def board(state: CentrixState, cells: Iterable[int], offsets: Iterable[int]) -> JSON:
    """The board as the page draws it: each square's owner (-1: empty) by square number,
    the rings' offsets, and each ring's squares' colours as letters from slot a."""
    offsets = list(offsets)
    layout = state.rules.layout
    return {
        "cells": list(cells),
        "offsets": offsets,
        "colours": [ring_letters(layout, r, offsets[r - 1]) for r in range(1, NUM_RINGS + 1)],
    }


@functools.lru_cache(maxsize=1024)
def ring_letters(layout: Layout, ring: int, offset: int) -> str:
    """The colours of ``ring``'s squares, from slot a, as letters, the ring turned ``offset``."""
    return "".join(layout.colour(ring, slot, offset).letter for slot in range(NUM_SLOTS))


def play_entries(state: CentrixState, count: int) -> list[JSON]:
    """The log entries of the last ``count`` plays: each stepped back on a copy, then made
    again, its effects read before it is made."""
    probe = state.copy()
    undone = [probe.pop() for _ in range(count)]
    first = len(probe.plays)
    out = []
    for i, play in enumerate(reversed(undone)):
        effects = probe.effects(play)  # the pawns the play moved, bumped ones included
        probe.push(play)
        out.append(entry(state.movers[first + i], play, effects))
    return out


def entry(seat: int, play: Play, effects: list[tuple[int, int, int]]) -> JSON:
    """A play and its effects, short (a long game's log has hundreds): who played, the
    notation (the card and the ring turned are in it) and each pawn moved in order as
    ``[seat, from, to]``, the moving one first, then each one it bumped, down the chain."""
    return {
        "seat": seat,
        "notation": str(play),
        "moves": [[s, square_name(f), square_name(t)] for s, f, t in effects],
    }


def grouped(plays: Iterable[Play]) -> JSON:
    """The legal plays, compact (a spin wild alone gives some 250): ``moves`` lists each
    pawn's destinations once, as ``"from to to …"``; ``plays`` gives for each card and
    rotation (``""``: none) the numbers of its moves in that list, and ``*`` where the card
    (and rotation) may be played without a move. Most of a wild's rotations leave most
    pawns' moves as they are: each is listed once."""
    by_play: dict[str, dict[str, dict[str, list[str]]]] = {}
    for play in plays:
        rotation = str(play.rotation) if play.rotation else ""
        froms = by_play.setdefault(str(play.card), {}).setdefault(rotation, {})
        if play.move is None:
            froms.setdefault("*", [])
        else:
            tos = froms.setdefault(square_name(play.move.from_square), [])
            tos.append(square_name(play.move.to_square))
    moves: dict[str, int] = {}
    out: dict[str, dict[str, str]] = {}
    for card, rotations in by_play.items():
        for rotation, froms in rotations.items():
            numbers = []
            for origin, tos in froms.items():
                if origin == "*":
                    numbers.append("*")
                    continue
                move = " ".join([origin, *tos])
                numbers.append(str(moves.setdefault(move, len(moves))))
            out.setdefault(card, {})[rotation] = " ".join(numbers)
    return {"moves": list(moves), "plays": out}


def notations(legal: JSON | None) -> list[str]:
    """The plays ``grouped`` lists, in notation, as the page lists them again."""
    if not legal:
        return []
    moves = [move.split(" ") for move in legal["moves"]]
    out = []
    for card, rotations in legal["plays"].items():
        for rotation, numbers in rotations.items():
            head = " ".join(part for part in (card, rotation) if part)
            for number in numbers.split(" "):
                if number == "*":
                    out.append(head)
                    continue
                origin, *tos = moves[int(number)]
                out += [f"{head} {origin}-{to}" for to in tos]
    return out


VIEW = CentrixGame(registry["centrix"])
