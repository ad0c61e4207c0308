"""Centrix for the web: seat views as JSON, plays, previews of a turned ring, undo.

The board travels as data (the page draws it): the squares' owners, the rings' offsets and
each square's colour as a letter. The log is the engine's (gamenight.centrix.log): one entry
per play with its effects (each pawn moved, the moving one first, then the bump chain), so
that a new play is one entry more.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

from gamenight.centrix import CentrixState, Play
from gamenight.centrix.board import NUM_RINGS, NUM_SLOTS, SQUARE_NAMES, Layout
from gamenight.centrix.cards import Card
from gamenight.centrix.log import PlayEntry
from gamenight.centrix.plays import Rotation, parse_rotation
from gamenight.centrix.record import read_action
from gamenight.core.errors import GamenightError
from gamenight.core.game import registry
from gamenight.web.games import JSON, Parts, Payload, SeatSpec, WebGame, argument


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

    def queries(self) -> dict[str, Callable[[CentrixState, JSON], JSON]]:
        return {"preview": preview}

    def act(self, state: CentrixState, text: str) -> tuple[str, JSON]:
        play = state.parse_play(text)  # refused with the rule that forbids it: the one check
        state.push_unchecked(play)
        last = self.last(state)
        assert last is not None
        return last["notation"], last  # (the log's text of the play: one string for both)

    def push_stored(self, state: CentrixState, payload: Payload) -> None:
        state.push(read_action(payload))

    def last(self, state: CentrixState) -> JSON | None:
        """The last play as the page animates and marks it: its log entry, told in full."""
        entry = state.last_entry()
        return None if entry is None else told(entry)

    def can_undo(self, state: CentrixState, seat: int) -> bool:
        # Within one's own turn only: nothing hidden is revealed before the draw at its end.
        return state.to_move == seat and state.plays_done > 0

    def undoable(self, state: CentrixState) -> int:
        # The plays of the turn in progress, the mover's own (a new turn has made none).
        return 0 if state.to_move is None else state.plays_done

    def view(self, state: CentrixState, seat: int | None, parts: Parts | None = None) -> JSON:
        parts = parts or Parts()
        v = state.view(seat)
        legal: JSON | None = None
        if seat is not None and v.to_move == seat:
            # Once per position: keyed on the engine's own tuple, the same until it changes.
            legal = parts.get(state, "legal", lambda: grouped(state.legal_play_tuple()))
        # Once per change, for every seat's view alike.
        before, after, log = parts.get(
            state, "view", lambda: (public(state), table(state), parts.log(state))
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


def preview(state: CentrixState, args: JSON) -> JSON:
    """The ``preview`` query: the board with one ring turned (``rotation``, as ``3+2``);
    public: no play is made, nothing is revealed."""
    rotation = argument(args, "rotation", "preview")
    if state.to_move is None:
        raise GamenightError("only a Centrix game in play can preview a rotation")
    turn = parse_rotation(rotation)
    view = state.view(None).rotated(turn.ring, turn.amount)
    return {"rotation": rotation, **board(state, view.cells, view.offsets)}


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


def told(entry: PlayEntry) -> JSON:
    """A log entry told in full, as the page animates and marks the play."""
    play = entry.play
    return {
        "seat": entry.seat,
        "notation": entry.notation,
        "card": str(play.card),
        "rotation": (
            {"ring": play.rotation.ring, "amount": play.rotation.amount} if play.rotation else None
        ),
        "moves": [
            {"seat": s, "from": SQUARE_NAMES[f], "to": SQUARE_NAMES[t]} for s, f, t in entry.moves
        ],
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
