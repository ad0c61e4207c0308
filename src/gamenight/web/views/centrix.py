"""Centrix for the web: seat views as JSON, plays, previews of a turned ring, undo.

The board travels as data (the page draws it): the squares' owners, the rings' offsets and
each square's colour as a letter. The log is one entry per play with its effects (each pawn
moved, the moving one first, then the bump chain), so that a new play is one entry more.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from gamenight.centrix import CentrixState, Play, square_name
from gamenight.centrix.board import NUM_RINGS, NUM_SLOTS, SQUARE_NAMES, Layout
from gamenight.centrix.cards import Card
from gamenight.centrix.plays import Rotation, parse_play, parse_rotation
from gamenight.centrix.record import read_action
from gamenight.core.game import registry
from gamenight.web.games import JSON, Payload, SeatSpec, WebGame


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
        return {"rotation": rotation, **board(state, view.cells, view.offsets)}

    def act(self, state: CentrixState, text: str) -> tuple[str, JSON]:
        play = state.parse_play(text)  # refused with the rule that forbids it: the one check
        self.log(state)  # in step before the play, so that its entry is one more
        seat = state.to_move
        assert seat is not None  # a legal play has a mover
        effects = state.effects_unchecked(play)  # read before the play is made
        state.push_unchecked(play)
        self.logged(state, [entry(seat, play, effects)])
        last = self.last(state)
        assert last is not None
        return last["notation"], last  # (the log's text of the play: one string for both)

    def push_stored(self, state: CentrixState, payload: Payload) -> None:
        state.push(read_action(payload))

    def last(self, state: CentrixState) -> JSON | None:
        """The last play as the page animates and marks it: its log entry, told in full
        (from the log: the engine may have forgotten the play, at the turn before's end)."""
        log = self.log(state)
        if not log:
            return None
        return self.shared(state, "last", lambda: told(log[-1]))

    def entries(self, state: CentrixState, count: int) -> list[JSON]:
        return play_entries(state, count)

    def can_undo(self, state: CentrixState, seat: int) -> bool:
        # Within one's own turn only: nothing hidden is revealed before the draw at its end.
        return state.to_move == seat and state.plays_done > 0

    def undoable(self, state: CentrixState) -> int:
        # The plays of the turn in progress, the mover's own (a new turn has made none).
        return 0 if state.to_move is None else state.plays_done

    def view(self, state: CentrixState, seat: int | None) -> JSON:
        v = state.view(seat)
        legal: JSON | None = None
        if seat is not None and v.to_move == seat:
            # Once per position: keyed on the engine's own tuple, the same until it changes.
            legal = self.shared(state, "legal", lambda: grouped(state.legal_play_tuple()))
        # Once per change, for every seat's view alike; the log as a copy: the pages' last
        # states hold it, and the kept log grows.
        before, after, log = self.shared(
            state, "view", lambda: (public(state), table(state), list(self.log(state)))
        )
        return {
            "game": "centrix",
            "seat": seat,
            **before,
            "hand": [str(c) for c in v.hand] if v.hand is not None else None,
            **after,
            "legal": legal,
            "log": log,
        }


def public(state: CentrixState) -> JSON:
    """The view's parts before the hand that every seat sees alike, in the view's order."""
    v = state.view(None)
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
    return {
        "players": players,
        "to_move": v.to_move,
        "plays_left": state.plays_left,
        "turn": v.turn,
        "status": v.status,
        "outcome": state.outcome.to_dict() if state.outcome else None,
    }


def table(state: CentrixState) -> JSON:
    """The view's parts after the hand that every seat sees alike: the piles and the board."""
    v = state.view(None)
    return {
        "draw_size": v.draw_size,
        "discard": [str(c) for c in v.discard[-5:]],
        "discard_size": len(v.discard),
        **board(state, v.cells, v.offsets),
    }


def told(last: JSON) -> JSON:
    """A log entry told in full, as the page animates and marks the play."""
    play = parse_play(last["notation"])
    return {
        "seat": last["seat"],
        "notation": last["notation"],
        "card": str(play.card),
        "rotation": (
            {"ring": play.rotation.ring, "amount": play.rotation.amount} if play.rotation else None
        ),
        "moves": [{"seat": s, "from": f, "to": t} for s, f, t in last["moves"]],
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
        # The pawns the play moved, bumped ones included (it was legal: it was made).
        effects = probe.effects_unchecked(play)
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
    # Keyed by the plays' own parts (ints and tuples of ints hash in C), worded once each
    # at the end: the same groups in the same order as keyed by their words.
    by_play: dict[Card, dict[Rotation | None, dict[int | None, list[str]]]] = {}
    for card, rotation, move in plays:
        rotations = by_play.get(card)
        if rotations is None:
            rotations = by_play[card] = {}
        froms = rotations.get(rotation)
        if froms is None:
            froms = rotations[rotation] = {}
        if move is None:
            froms.setdefault(None, [])
        else:
            frm, to = move
            tos = froms.get(frm)
            if tos is None:
                tos = froms[frm] = []
            tos.append(SQUARE_NAMES[to])
    moves: dict[str, int] = {}
    out: dict[str, dict[str, str]] = {}
    for card, rotations in by_play.items():
        worded = out[str(card)] = {}
        for rotation, froms in rotations.items():
            numbers = []
            for origin, tos in froms.items():
                if origin is None:
                    numbers.append("*")
                    continue
                move_text = " ".join([SQUARE_NAMES[origin], *tos])
                numbers.append(str(moves.setdefault(move_text, len(moves))))
            worded[str(rotation) if rotation else ""] = " ".join(numbers)
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
