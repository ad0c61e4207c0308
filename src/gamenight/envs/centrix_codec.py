"""Centrix as flat discrete decisions and fixed-size tensors, shared by every adapter.

One card play is split into consecutive decisions of the same seat, so that the action space
stays small (234 actions) while mapping exactly onto gamenight's ``Play`` values:

==========  =====================  ==========================================================
stage       action ids             meaning
==========  =====================  ==========================================================
card        0–19                   the card kind (``Card`` value: R1 … W3, A, S)
rotation    20–86                  20: no rotation; 21 + (ring − 1) × 11 + i: turn ``ring`` by
                                   ``SPIN_AMOUNTS[i]`` (−5 … +6) slots
from        87–160                 87 + square (0–71): move the pawn standing there (after the
                                   rotation); 159: a pawn from off the board; 160: no move
to          161–233                161 + square (0–71): the landing square; 233: the top
==========  =====================  ==========================================================

A play without a move ends at the ``from`` stage (action 160); every other play ends at the
``to`` stage. Each stage offers exactly the components of ``legal_plays()`` that extend the
choices already made, so every sequence of legal decisions is one legal play and every legal
play is one sequence. See docs/envs.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from gamenight.centrix import native
from gamenight.centrix.board import NUM_RINGS, NUM_SLOTS, NUM_SQUARES, OFF, TOP
from gamenight.centrix.cards import Card
from gamenight.centrix.plays import Move, Play, Rotation, spin_amount
from gamenight.centrix.state import EMPTY, PLAYS_PER_TURN, SPIN_AMOUNTS, CentrixState, CentrixView

NUM_CARDS = len(Card)
ROTATION_BASE = NUM_CARDS
NO_ROTATION = ROTATION_BASE
NUM_ROTATIONS = 1 + NUM_RINGS * len(SPIN_AMOUNTS)
FROM_BASE = ROTATION_BASE + NUM_ROTATIONS
FROM_OFF = FROM_BASE + NUM_SQUARES
NO_MOVE = FROM_OFF + 1
TO_BASE = NO_MOVE + 1
TO_TOP = TO_BASE + NUM_SQUARES
NUM_ACTIONS = TO_TOP + 1
STAGES = ("card", "rotation", "from", "to")
MAX_DECISIONS_PER_PLAY = len(STAGES)

Codes = tuple[int, ...]


def rotation_code(rotation: Rotation | None) -> int:
    if rotation is None:
        return NO_ROTATION
    index = SPIN_AMOUNTS.index(spin_amount(rotation.amount))
    return NO_ROTATION + 1 + (rotation.ring - 1) * len(SPIN_AMOUNTS) + index


@lru_cache(maxsize=1 << 16)
def play_codes(play: Play) -> Codes:
    """The decisions that make up ``play``: three for a rotation alone, else four. (Cached:
    adapters code every legal play at every decision, and plays recur a lot.)"""
    card, rotation, move = play
    head = (int(card), rotation_code(rotation))
    if move is None:
        return (*head, NO_MOVE)
    frm = FROM_OFF if move.from_square == OFF else FROM_BASE + move.from_square
    to = TO_TOP if move.to_square == TOP else TO_BASE + move.to_square
    return (*head, frm, to)


def stage_of(action: int) -> int:
    """Which stage an action id belongs to (0 card, 1 rotation, 2 from, 3 to)."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"a Centrix action id is 0–{NUM_ACTIONS - 1}, not {action}")
    if action < ROTATION_BASE:
        return 0
    if action < FROM_BASE:
        return 1
    return 2 if action < TO_BASE else 3


def action_name(action: int) -> str:
    """A readable name for an action id (``card R2``, ``rotate 3+2``, ``from c3``, ``to top``)."""
    from gamenight.centrix.board import square_name

    stage = stage_of(action)
    if stage == 0:
        return f"card {Card(action)}"
    if stage == 1:
        if action == NO_ROTATION:
            return "no rotation"
        ring, index = divmod(action - NO_ROTATION - 1, len(SPIN_AMOUNTS))
        return f"rotate {Rotation(ring + 1, SPIN_AMOUNTS[index])}"
    if stage == 2:
        if action == NO_MOVE:
            return "no move"
        return "from off" if action == FROM_OFF else f"from {square_name(action - FROM_BASE)}"
    return "to top" if action == TO_TOP else f"to {square_name(action - TO_BASE)}"


class PlayTree:
    """The legal plays of one position as a tree of decisions: for every prefix of
    decisions, the sorted legal next actions, and the play each complete sequence makes.
    Branches are worked out when first asked for (a random playout asks for one path)."""

    __slots__ = ("_coded", "_done", "_next", "source")

    def __init__(self, plays: Sequence[Play]) -> None:
        self.source = plays
        self._coded = [(play_codes(p), p) for p in plays]
        self._next: dict[Codes, list[int]] = {}
        self._done: dict[Codes, Play] | None = None

    def legal_actions(self, prefix: Codes) -> list[int]:
        found = self._next.get(prefix)
        if found is None:
            n = len(prefix)
            found = sorted({c[n] for c, _ in self._coded if len(c) > n and c[:n] == prefix})
            self._next[prefix] = found
        return found

    def step(self, prefix: Codes, action: int) -> tuple[Codes, Play | None]:
        """The prefix after ``action`` and the play it completes (or None). Raises
        ValueError if the action is not legal after ``prefix``."""
        if action not in self.legal_actions(prefix):
            stage = STAGES[min(len(prefix), 3)]
            raise ValueError(
                f"action {action} ({_safe_name(int(action))}) is not legal at the {stage} stage"
            )
        extended = (*prefix, int(action))
        if len(extended) < 3:  # no play is decided in fewer than three decisions
            return extended, None
        if self._done is None:
            self._done = dict(self._coded)
        return extended, self._done.get(extended)


class PlayBuilder:
    """The decisions of the current play so far, against the mover's legal plays.

    Keep one per game; call :meth:`reset` whenever the legal plays change (after a play).
    """

    __slots__ = ("_known", "_tree", "prefix")

    def __init__(self) -> None:
        self.prefix: Codes = ()
        self._tree: PlayTree | None = None
        self._known: dict[Codes, tuple[list[int], Play | None]] = {}

    def reset(self) -> None:
        self.prefix = ()
        self._tree = None
        self._known = {}

    def _of(self, plays: Sequence[Play]) -> PlayTree:
        if self._tree is None:
            self._tree = PlayTree(plays)
        return self._tree

    def legal_actions(self, plays: Sequence[Play]) -> list[int]:
        """The sorted action ids that extend the prefix towards a legal play."""
        return list(self._of(plays).legal_actions(self.prefix))

    def mask(self, plays: Sequence[Play]) -> npt.NDArray[np.int8]:
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[self.legal_actions(plays)] = 1
        return mask

    def choose(self, plays: Sequence[Play], action: int) -> Play | None:
        """Add one decision; returns the finished play, or None while it is incomplete.
        Raises ValueError (changing nothing) if the action is not legal here."""
        self.prefix, done = self._of(plays).step(self.prefix, int(action))
        return done

    # The same three for the seat to move in ``state``, by the compiled core where it takes
    # the state (``native.decisions``: no tree of every legal play's decisions to build at
    # each position), else by the tree of its legal plays.

    def _decisions(
        self, state: CentrixState, prefix: Codes
    ) -> tuple[list[int], Play | None] | None:
        # Remembered by prefix until reset(), as the tree is: the position is the same.
        known = self._known.get(prefix)
        if known is None:
            found = native.decisions(state, prefix)
            if found is None:
                return None
            known = self._known[prefix] = found
        return known

    def legal_actions_in(self, state: CentrixState) -> list[int]:
        fast = self._decisions(state, self.prefix)
        return fast[0] if fast is not None else self.legal_actions(state.legal_plays())

    def mask_in(self, state: CentrixState) -> npt.NDArray[np.int8]:
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[self.legal_actions_in(state)] = 1
        return mask

    def choose_in(self, state: CentrixState, action: int) -> Play | None:
        fast = self._decisions(state, self.prefix)
        if fast is None:
            return self.choose(state.legal_plays(), action)
        action = int(action)
        if action not in fast[0]:
            stage = STAGES[min(len(self.prefix), 3)]
            raise ValueError(
                f"action {action} ({_safe_name(action)}) is not legal at the {stage} stage"
            )
        extended = (*self.prefix, action)
        done = None
        if len(extended) >= 3:  # no play is decided in fewer than three decisions
            found = self._decisions(state, extended)
            assert found is not None
            done = found[1]
        self.prefix = extended
        return done

    def extend_in(self, state: CentrixState, action: int) -> Play | None:
        """``choose_in`` for an action the caller knows to be legal here (the batched env
        reads it from the mask it encoded): the core is asked only for what the extended
        prefix completes, never for the actions it chose among."""
        extended = (*self.prefix, action)
        if len(extended) < 3 or (len(extended) == 3 and action != NO_MOVE):
            # Three decisions make a play only for a rotation alone (its third is NO_MOVE):
            # a pawn's move has a fourth, its square to.
            self.prefix = extended
            return None
        fast = self._decisions(state, extended)
        if fast is None:
            return self.choose(state.legal_plays(), action)
        self.prefix = extended
        return fast[1]


def _safe_name(action: int) -> str:
    try:
        return action_name(action)
    except ValueError:
        return "out of range"


# ---------------------------------------------------------------------------- observations


def observation_size(num_players: int) -> int:
    n = num_players
    return (
        NUM_SQUARES * n  # pawns by seat, relative to the observer
        + NUM_SQUARES * 6  # the colour showing on each square
        + n * 6  # each seat's pawn colour
        + 3 * n  # pawns on the top, off the board, cards in hand (each / 3)
        + n  # places (place / n, 0 while playing)
        + n  # the seat to move
        + 2 * NUM_CARDS  # own hand and discard pile, per card kind (count / copies)
        + 1  # draw pile size / the deck's size
        + PLAYS_PER_TURN  # plays made this turn (one-hot)
        + MAX_DECISIONS_PER_PLAY  # the stage (one-hot)
        + NUM_CARDS
        + NUM_ROTATIONS
        + (NO_MOVE - FROM_BASE + 1)  # the decisions already taken in this play (one-hot)
    )


@lru_cache(maxsize=16)
def _copies(deck: tuple[Card, ...]) -> npt.NDArray[np.float32]:
    # Each kind's copies in the rules' deck (D18), at least 1 so that a kind the deck leaves
    # out (never held nor discarded) divides nothing by zero.
    return np.array([max(1, deck.count(card)) for card in Card], dtype=np.float32)


def encode(view: CentrixView, prefix: Codes, out: npt.NDArray[np.float32] | None = None) -> Any:
    """The observation tensor of ``view`` (the seat's own view) with the play so far.

    Seats are numbered relative to the observer (the observer is seat 0 in the tensor), so a
    policy learnt in one seat reads the same in every seat. All values lie in [0, 1].
    """
    n = len(view.players)
    me = view.seat if view.seat is not None else 0
    size = observation_size(n)
    if out is None:
        out = np.zeros(size, dtype=np.float32)
    else:
        out.fill(0.0)
    i = 0
    cells = np.asarray(view.cells)
    for k in range(n):
        out[i : i + NUM_SQUARES] = cells == (me + k) % n
        i += NUM_SQUARES
    layout = view.rules.layout
    for sq in range(NUM_SQUARES):
        ring, slot = divmod(sq, NUM_SLOTS)
        out[i + sq * 6 + layout.colour(ring + 1, slot, view.offsets[ring])] = 1.0
    i += NUM_SQUARES * 6
    for k in range(n):
        seat = (me + k) % n
        out[i + k * 6 + view.players[seat]] = 1.0
    i += n * 6
    pawns = view.rules.pawns
    for k in range(n):
        seat = (me + k) % n
        on_board = int(np.count_nonzero(cells == seat))
        out[i + k] = view.top[seat] / pawns
        out[i + n + k] = (pawns - view.top[seat] - on_board) / pawns
        out[i + 2 * n + k] = view.hand_sizes[seat] / 3
        out[i + 3 * n + k] = view.places[seat] / n
        if view.to_move == seat:
            out[i + 4 * n + k] = 1.0
    i += 5 * n
    for card in view.hand or ():
        out[i + card] += 1.0
    for card in view.discard:
        out[i + NUM_CARDS + card] += 1.0
    deck = view.rules.deck
    copies = _copies(deck)
    out[i : i + NUM_CARDS] /= copies
    out[i + NUM_CARDS : i + 2 * NUM_CARDS] /= copies
    i += 2 * NUM_CARDS
    out[i] = view.draw_size / len(deck)
    i += 1
    out[i + min(view.plays_done, PLAYS_PER_TURN - 1)] = 1.0
    i += PLAYS_PER_TURN
    out[i + min(len(prefix), MAX_DECISIONS_PER_PLAY - 1)] = 1.0
    i += MAX_DECISIONS_PER_PLAY
    # The prefix's ids are laid out consecutively (card, rotation, from), as are these blocks.
    for code in prefix:
        out[i + code] = 1.0
    i += NO_MOVE + 1
    assert i == size, (i, size)
    return out


def view_key(view: CentrixView, prefix: Codes) -> str:
    """A compact string of everything ``view`` shows, plus the play so far: equal views
    (and prefixes) give equal strings."""
    from gamenight.centrix.cards import format_cards

    cells = "".join("." if c == EMPTY else str(c) for c in view.cells)
    return " ".join(
        (
            f"seat {view.seat}",
            "".join(c.letter for c in view.players),
            "".join(f"{o:x}" for o in view.offsets),
            cells,
            "top " + "".join(map(str, view.top)),
            "hand " + format_cards(tuple(view.hand or ())),
            "sizes " + "".join(map(str, view.hand_sizes)),
            f"draw {view.draw_size}",
            "discard " + format_cards(tuple(sorted(view.discard))),
            f"to_move {view.to_move} plays {view.plays_done} turn {view.turn}",
            "places " + "".join(map(str, view.places)),
            view.status,
            "play " + ",".join(action_name(a) for a in prefix),
        )
    )


def play_from_codes(codes: Codes, plays: Sequence[Play]) -> Play:
    for play in plays:
        if play_codes(play) == tuple(codes):
            return play
    raise ValueError(f"no legal play has the decisions {codes}")


__all__ = [
    "FROM_BASE",
    "FROM_OFF",
    "NO_MOVE",
    "NO_ROTATION",
    "NUM_ACTIONS",
    "ROTATION_BASE",
    "STAGES",
    "TO_BASE",
    "TO_TOP",
    "Move",
    "PlayBuilder",
    "action_name",
    "encode",
    "observation_size",
    "play_codes",
    "view_key",
]
