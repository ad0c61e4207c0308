"""The Centrix game state: the rules, legal plays, push/pop, views and the outcome.

Modelled on python-chess's Board: a mutable state with a stack of plays, ``legal_plays()``
in a fixed order, ``push``/``pop`` with exact undo, ``copy()``, text and record formats.
The decisions that settle the rulebook's ambiguities are numbered in docs/rules/centrix.md;
comments below cite them as (D1)…(D17).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple, Self

from gamenight.centrix.board import (
    NUM_RINGS,
    NUM_SLOTS,
    NUM_SQUARES,
    OFF,
    TOP,
    TOP_LEVEL,
    Colour,
)
from gamenight.centrix.cards import DECK, Card
from gamenight.centrix.plays import Move, Play, Rotation, parse_play, spin_amount, square_text
from gamenight.centrix.position import PAWNS as PAWNS  # re-exported: bots and views use it
from gamenight.centrix.position import Position, PositionError
from gamenight.centrix.rules import Bottom, Rules
from gamenight.core.errors import IllegalActionError, NotationError, RulesError
from gamenight.core.game import FiniteSpace
from gamenight.core.outcome import Outcome
from gamenight.core.record import GameRecord

EMPTY = -1
HAND_SIZE = 3
PLAYS_PER_TURN = 3
MIN_PLAYERS, MAX_PLAYERS = 2, 6
TOP_GROUP = 6  # in moves_by_colour, moves onto the top are grouped apart from the six colours

PLAYING = "playing"
FINISHED = "finished"  # at most one player left unfinished (D15)
TURN_CAP = "turn_cap"  # the rules' max_turns was reached (D16)
STALEMATE = "stalemate"  # no unfinished player can play any card

SPIN_AMOUNTS: tuple[int, ...] = (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6)

# Shared immutable values, so that generating plays allocates as little as possible.
_ROTATIONS = {
    (ring, amount): Rotation(ring, amount)
    for ring in range(1, NUM_RINGS + 1)
    for amount in range(-(NUM_SLOTS - 1), NUM_SLOTS)
    if amount
}
_MOVES = [[Move(f, t) for t in range(NUM_SQUARES + 2)] for f in range(NUM_SQUARES + 2)]
_tuple_new = tuple.__new__


class IllegalPlayError(IllegalActionError):
    """A play the rules do not allow here. The message says why; the state is untouched."""


class Snapshot(NamedTuple):
    """Everything a play can change, as it was before the play (what ``pop`` restores)."""

    cells: list[int]
    offsets: list[int]
    rows: list[tuple[int, ...]]
    top: list[int]
    hands: list[list[Card]]
    draw: list[Card]
    discard: list[Card]
    key: int
    seat: int
    plays_done: int
    turn: int
    places: list[int]
    status: str


def shuffled(cards: Iterable[Card], key: int) -> tuple[list[Card], int]:
    """Shuffle with the generator state ``key``; returns the cards and the next key.

    The state's whole randomness is this one 64-bit key, so a position string can carry it
    and every future reshuffle is decided by the position (D6).
    """
    rng = random.Random(key)
    pile = list(cards)
    rng.shuffle(pile)
    return pile, rng.getrandbits(64)


@dataclass(frozen=True)
class CentrixView:
    """What one seat may know (or, with ``seat=None``, what a spectator may know).

    Everything on the table is here; of the cards only the seat's own hand, the discard pile
    and the sizes of the other hands and of the draw pile. Never another hand, the draw order
    or the generator's key.
    """

    rules: Rules
    seat: int | None
    players: tuple[Colour, ...]
    offsets: tuple[int, ...]
    cells: tuple[int, ...]
    top: tuple[int, ...]
    hand: tuple[Card, ...] | None
    hand_sizes: tuple[int, ...]
    draw_size: int
    discard: tuple[Card, ...]
    to_move: int | None
    plays_done: int
    turn: int
    places: tuple[int, ...]
    status: str

    def pawns_off(self, seat: int) -> int:
        """How many of ``seat``'s pawns are off the board."""
        return PAWNS - self.top[seat] - self.cells.count(seat)

    def rotated(self, ring: int, amount: int) -> CentrixView:
        """This view with ``ring`` turned ``amount`` slots clockwise (a preview: no play)."""
        if not 1 <= ring <= NUM_RINGS:
            raise ValueError(f"there is no ring {ring}")
        k = amount % NUM_SLOTS
        base = (ring - 1) * NUM_SLOTS
        cells = list(self.cells)
        row = cells[base : base + NUM_SLOTS]
        cells[base : base + NUM_SLOTS] = row[-k:] + row[:-k]
        offsets = list(self.offsets)
        offsets[ring - 1] = (offsets[ring - 1] + k) % NUM_SLOTS
        return replace(self, cells=tuple(cells), offsets=tuple(offsets))

    def sample(self, rng: random.Random) -> CentrixState:
        """A full state consistent with everything this view knows (a determinization).

        The cards this seat cannot see — the other hands and the draw pile — are dealt at
        random from the cards not in its hand or the discard pile; the generator key is drawn
        too. Legal plays of the seat to move depend only on what a view shows, so any sample
        of the mover's own view lists the mover's true legal plays.
        """
        own = list(self.hand or ())
        unseen = list(DECK)
        for card in [*own, *self.discard]:
            unseen.remove(card)
        rng.shuffle(unseen)
        hands: list[tuple[Card, ...]] = []
        for seat, size in enumerate(self.hand_sizes):
            if seat == self.seat:
                hands.append(tuple(own))
            else:
                hands.append(tuple(sorted(unseen[:size])))
                del unseen[:size]
        position = Position(
            players=self.players,
            offsets=self.offsets,
            cells=self.cells,
            top=self.top,
            hands=tuple(hands),
            draw=tuple(unseen),
            discard=self.discard,
            key=rng.getrandbits(64),
            to_move=self.to_move if self.to_move is not None else 0,
            plays_done=self.plays_done,
            turn=self.turn,
            places=self.places,
            status=self.status,
        )
        return CentrixState(self.rules, self.players, position)


class CentrixState:
    """A game of Centrix in progress (or finished)."""

    # How many snapshots at the bottom of the stack another state (a copy) holds too; see
    # pop(). A class default, so that states built without __init__ share nothing.
    _shared = 0

    def __init__(
        self,
        rules: Rules,
        players: Sequence[Colour],
        position: Position,
        *,
        seed: int | None = None,
        first: int | None = None,
    ) -> None:
        self.rules = rules
        self.players: tuple[Colour, ...] = tuple(players)
        self._table = rules.layout.rows_by_offset()
        self._bottom = rules.bottom
        self._load(position)
        self.seed = seed
        self.first = first
        self._start = None if seed is not None else position
        self._stack: list[tuple[Play, Snapshot]] = []

    # ---------------------------------------------------------------- set-up

    @classmethod
    def new(
        cls,
        players: int | Sequence[Colour | str] = 4,
        *,
        seed: int | None = None,
        first: int = 0,
        rules: Rules | None = None,
    ) -> CentrixState:
        """A new game. ``players`` is a count (colours in rulebook order) or the pawn colours
        in seat order; ``first`` is the seat that starts (the rulebook: the youngest)."""
        rules = rules or Rules()
        colours = _seat_colours(players)
        if not 0 <= first < len(colours):
            raise RulesError(f"first must be a seat from 0 to {len(colours) - 1}, not {first}")
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        draw, key = shuffled(DECK, seed)
        hands: list[list[Card]] = [[] for _ in colours]
        for _ in range(HAND_SIZE):
            for i in range(len(colours)):
                hands[(first + i) % len(colours)].append(draw.pop(0))
        position = Position(
            players=colours,
            offsets=(0,) * NUM_RINGS,
            cells=(EMPTY,) * NUM_SQUARES,
            top=(0,) * len(colours),
            hands=tuple(tuple(sorted(h)) for h in hands),
            draw=tuple(draw),
            discard=(),
            key=key,
            to_move=first,
            plays_done=0,
            turn=0,
            places=(0,) * len(colours),
            status=PLAYING,
        )
        return cls.starting(rules, position, seed=seed, first=first)

    @classmethod
    def starting(
        cls,
        rules: Rules,
        position: Position,
        *,
        seed: int | None = None,
        first: int | None = None,
    ) -> Self:
        """A game starting from a fresh deal at ``position``: if the seat to move cannot
        play, the turn passes on as in play (D8). (``new`` deals by seed; adapters that deal
        from outside, such as gamenight.envs.centrix_chance, start here.)"""
        state = cls(rules, position.players, position, seed=seed, first=first)
        seat = position.to_move
        if not state._has_legal_play(seat):  # cannot happen with 42 cards, but be exact
            state._next_turn(seat)
        return state

    @classmethod
    def from_position(cls, text: str, rules: Rules | None = None) -> CentrixState:
        """The state a position string describes (see docs/rules/centrix.md, "Positions").

        Raises PositionError naming the field for text that is malformed or describes a
        position play cannot reach, including a seat to move that has no legal play under
        ``rules`` (the turn only ever passes to a seat that can play, D8).
        """
        position = Position.parse(text)
        state = cls(rules or Rules(), position.players, position)
        seat = position.to_move
        if state.status == PLAYING and not state._has_legal_play(seat):
            raise PositionError(
                f"seat to move: {state.players[seat].name.lower()} has no legal play with the"
                f" hand {_hand_text(state.hands[seat])}, but the turn only passes to a seat"
                " that can play (D8)"
            )
        return state

    def _load(self, p: Position) -> None:
        self.cells = list(p.cells)
        self.offsets = list(p.offsets)
        self.rows = [self._table[r][o] for r, o in enumerate(self.offsets)]
        self.top = list(p.top)
        self.hands = [list(h) for h in p.hands]
        self.draw = list(p.draw)
        self.discard = list(p.discard)
        self.key = p.key
        self._seat = p.to_move
        self.plays_done = p.plays_done
        self.turn = p.turn
        self.places = list(p.places)
        self.status = p.status
        self._legal: tuple[Play, ...] | None = None

    def to_position(self) -> Position:
        """The position as a value (``position()`` gives it as a string)."""
        return Position(
            players=self.players,
            offsets=tuple(self.offsets),
            cells=tuple(self.cells),
            top=tuple(self.top),
            hands=tuple(tuple(h) for h in self.hands),
            draw=tuple(self.draw),
            discard=tuple(self.discard),
            key=self.key,
            to_move=self._seat,
            plays_done=self.plays_done,
            turn=self.turn,
            places=tuple(self.places),
            status=self.status,
        )

    def position(self) -> str:
        """The one-line position string; ``from_position`` reads it back exactly."""
        return self.to_position().format()

    def copy(self, *, history: bool = True) -> Self:
        """An independent copy, of this state's own class, plays so far included (it can
        ``pop`` them too); with ``history=False`` without them (cheaper: it cannot pop). The
        copy shares the cached legal plays, which depend only on the position."""
        clone = type(self).__new__(type(self))
        clone.rules, clone.players, clone._table = self.rules, self.players, self._table
        clone._bottom, clone.seed, clone.first, clone._start = (
            self._bottom,
            self.seed,
            self.first,
            self._start,
        )
        clone._load(self.to_position())
        clone._legal = self._legal
        if history:
            clone._stack = list(self._stack)
            self._shared = clone._shared = len(self._stack)
        else:
            clone._stack = []
        return clone

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CentrixState):
            return NotImplemented
        return self.rules == other.rules and self.to_position() == other.to_position()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<CentrixState {self.position()!r}>"

    def __str__(self) -> str:
        from gamenight.centrix.text import render_plain

        return render_plain(self)

    def _repr_svg_(self) -> str:
        from gamenight.centrix.svg import board_svg

        return board_svg(self)

    # ---------------------------------------------------------------- queries

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return len(self.players)

    @property
    def actor(self) -> int | None:
        """The seat to act, or None once the game is over (the protocol's name for
        ``to_move``)."""
        return self._seat if self.status == PLAYING else None

    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is, or None once the game is over (alias of ``actor``)."""
        return self._seat if self.status == PLAYING else None

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (finished, at the turn cap or in stalemate)."""
        return self.status != PLAYING

    @property
    def plays_left(self) -> int:
        """At most how many more plays the seat to move makes this turn; 0 once over."""
        return PLAYS_PER_TURN - self.plays_done if self.status == PLAYING else 0

    @property
    def outcome(self) -> Outcome | None:
        """Places and reason once the game is over (the reason is the status); None before."""
        if self.status == PLAYING:
            return None
        return Outcome(tuple(self.places), self.status)

    @property
    def start_position(self) -> str | None:
        """The position string this game was set up from, when it was not set up by seed."""
        return None if self._start is None else self._start.format()

    def record(self, names: Sequence[str] | None = None) -> GameRecord:
        """The JSON game record of this game so far (see gamenight.centrix.record)."""
        from gamenight.centrix.record import to_record

        return to_record(self, names)

    @classmethod
    def replay(cls, record: GameRecord | str) -> CentrixState:
        """The state a record replays to (raises RecordError if it does not)."""
        from gamenight.centrix.record import replay

        return replay(record)

    @property
    def actions(self) -> list[Play]:
        """The plays pushed so far, oldest first (the protocol's name for ``plays``)."""
        return [play for play, _ in self._stack]

    @property
    def plays(self) -> list[Play]:
        """The plays pushed so far, oldest first (alias of ``actions``)."""
        return [play for play, _ in self._stack]

    @property
    def movers(self) -> list[int]:
        """The seat that made each play pushed so far: ``plays[i]`` was ``movers[i]``'s."""
        return [snapshot.seat for _, snapshot in self._stack]

    def standing(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's (pawns on the top, sum of pawn levels) now: the climb by which the
        game ranks the unfinished seats when it ends early (D16); higher is better."""
        return tuple((self.top[seat], self.level_sum(seat)) for seat in range(self.num_players))

    def pawn_squares(self, seat: int) -> list[int]:
        """Every square of ``seat``'s pawns: ring squares, then ``OFF``/``TOP`` once per pawn."""
        on_board = [sq for sq, owner in enumerate(self.cells) if owner == seat]
        off = PAWNS - self.top[seat] - len(on_board)
        return on_board + [OFF] * off + [TOP] * self.top[seat]

    def level_sum(self, seat: int) -> int:
        """The sum of the levels of ``seat``'s pawns (off 0, rings 1–6, top 7)."""
        on_board = sum(sq // NUM_SLOTS + 1 for sq, owner in enumerate(self.cells) if owner == seat)
        return on_board + TOP_LEVEL * self.top[seat]

    def colour_at(self, sq: int) -> Colour:
        """The colour of the ring square ``sq`` as the rings stand now."""
        return Colour(self.rows[sq // NUM_SLOTS][sq % NUM_SLOTS])

    def view(self, seat: int | None) -> CentrixView:
        """What ``seat`` may know; ``None`` for a spectator (no hand at all). Raises
        ValueError for a seat that does not exist."""
        if seat is not None and not 0 <= seat < self.num_players:
            raise ValueError(f"there is no seat {seat}")
        return CentrixView(
            rules=self.rules,
            seat=seat,
            players=self.players,
            offsets=tuple(self.offsets),
            cells=tuple(self.cells),
            top=tuple(self.top),
            hand=None if seat is None else tuple(self.hands[seat]),
            hand_sizes=tuple(len(h) for h in self.hands),
            draw_size=len(self.draw),
            discard=tuple(self.discard),
            to_move=self.to_move,
            plays_done=self.plays_done,
            turn=self.turn,
            places=tuple(self.places),
            status=self.status,
        )

    # ---------------------------------------------------------------- legal plays

    def legal_plays(self) -> list[Play]:
        """Every legal play of the player to move, each distinct play once, in a fixed order:
        by card, then no rotation before rotations (ring, then amount), then by move."""
        legal = self._legal  # legal_play_tuple's work, inline: this is every node of a search
        if legal is None:
            legal = self._legal = self._generate() if self.status == PLAYING else ()
        return list(legal)

    def legal_actions(self) -> list[Play]:
        """The protocol's name for ``legal_plays``."""
        return list(self.legal_play_tuple())

    def legal_play_tuple(self) -> tuple[Play, ...]:
        """``legal_plays()`` without the copy: the engine's own cached tuple, the same object
        until the position changes (callers may key caches of their own on its identity)."""
        if self._legal is None:
            self._legal = self._generate() if self.status == PLAYING else ()
        return self._legal

    def action_space(self) -> FiniteSpace[Play]:
        """The legal plays as the protocol's finite action space."""
        return FiniteSpace(self.legal_play_tuple())

    def parse_action(self, text: str) -> Play:
        """The play ``text`` writes (notation only; raises NotationError)."""
        return parse_play(text)

    def is_legal(self, play: Play | str) -> bool:
        """Whether ``push(play)`` would succeed: ``play`` is a Play or its notation, as
        ``push`` takes it.

        Never raises: text that does not read as a play is not a legal play, so it gives
        False like an illegal one (``parse_play`` says what is wrong with it).
        """
        if isinstance(play, str):
            try:
                play = parse_play(play)
            except NotationError:
                return False
        return self._problem(play) is None

    def parse_play(self, text: str) -> Play:
        """Read a play in notation and check that it is legal here (raises otherwise)."""
        play = parse_play(text)
        problem = self._problem(play)
        if problem is not None:
            raise IllegalPlayError(f"{_written(play)}: {problem}")
        return play

    def _generate(self) -> tuple[Play, ...]:
        seat = self._seat
        own = self.players[seat]
        cells, rows = self.cells, self.rows
        mine = [sq for sq, owner in enumerate(cells) if owner == seat]
        has_off = len(mine) + self.top[seat] < PAWNS
        rings = sorted({sq // NUM_SLOTS for sq in mine})
        groups_by_config: dict[tuple[int, int], list[list[Move]]] = {}

        def config(rot: Rotation | None) -> list[list[Move]]:
            key = (0, 0) if rot is None else (rot.ring, rot.amount % NUM_SLOTS)
            groups = groups_by_config.get(key)
            if groups is None:
                if rot is None:
                    groups = self._moves(cells, rows, mine, has_off)
                else:
                    c, r, m = self._rotated(rot.ring - 1, rot.amount, mine)
                    groups = self._moves(c, r, m, has_off)
                groups_by_config[key] = groups
            return groups

        plays: list[Play] = []
        append, extend = plays.append, plays.extend
        for card in sorted(set(self.hands[seat])):
            rotations: list[Rotation | None] = [None]
            if card is Card.SPIN:
                rotations += [_ROTATIONS[r + 1, a] for r in rings for a in SPIN_AMOUNTS]
            elif card is not Card.ANY:
                n = card.number
                rotations += [_ROTATIONS[r + 1, a] for r in rings for a in (-n, n)]
            colour = card.colour
            for rot in rotations:
                groups = config(rot)
                if rot is not None:
                    append(_tuple_new(Play, (card, rot, None)))
                if colour is None:
                    for group in groups:
                        extend([_tuple_new(Play, (card, rot, mv)) for mv in group])
                else:
                    extend([_tuple_new(Play, (card, rot, mv)) for mv in groups[colour]])
                    if colour == own:
                        extend([_tuple_new(Play, (card, rot, mv)) for mv in groups[TOP_GROUP]])
        return tuple(plays)

    def _rotated(
        self, r: int, amount: int, mine: list[int]
    ) -> tuple[list[int], list[tuple[int, ...]], list[int]]:
        """Cells, colour rows and own pawns after turning ring index ``r`` by ``amount``."""
        k = amount % NUM_SLOTS
        base = r * NUM_SLOTS
        cells = self.cells[:]
        ring = cells[base : base + NUM_SLOTS]
        cells[base : base + NUM_SLOTS] = ring[-k:] + ring[:-k]
        rows = self.rows[:]
        rows[r] = self._table[r][(self.offsets[r] + k) % NUM_SLOTS]
        moved = [
            base + (sq - base + k) % NUM_SLOTS if base <= sq < base + NUM_SLOTS else sq
            for sq in mine
        ]
        return cells, rows, sorted(moved)

    def _moves(
        self,
        cells: list[int],
        rows: list[tuple[int, ...]],
        mine: list[int],
        has_off: bool,
    ) -> list[list[Move]]:
        """Every legal pawn move on this board, grouped by the landing square's colour
        (index 6: onto the top). Colour is left to the caller, who knows the card."""
        groups: list[list[Move]] = [[], [], [], [], [], [], []]
        top_group = groups[TOP_GROUP]
        bump_problem = self._bump_problem
        for frm in mine:
            r, s = divmod(frm, NUM_SLOTS)
            moves = _MOVES[frm]
            # Up (D4, D10–D12): a step, a bump, or a leapfrog over a column of pawns.
            if r == NUM_RINGS - 1:
                top_group.append(moves[TOP])
            else:
                up = frm + NUM_SLOTS
                if cells[up] == EMPTY:
                    groups[rows[r + 1][s]].append(moves[up])
                else:
                    if bump_problem(cells, up, frm) is None:
                        groups[rows[r + 1][s]].append(moves[up])
                    t = up + NUM_SLOTS
                    while t < NUM_SQUARES and cells[t] != EMPTY:
                        t += NUM_SLOTS
                    if t >= NUM_SQUARES:
                        top_group.append(moves[TOP])
                    else:
                        groups[rows[t // NUM_SLOTS][s]].append(moves[t])
            # Down: the same, but a column reaching past ring 1 leaves no landing.
            if r:
                down = frm - NUM_SLOTS
                if cells[down] == EMPTY:
                    groups[rows[r - 1][s]].append(moves[down])
                else:
                    if bump_problem(cells, down, frm) is None:
                        groups[rows[r - 1][s]].append(moves[down])
                    t = down - NUM_SLOTS
                    while t >= 0 and cells[t] != EMPTY:
                        t -= NUM_SLOTS
                    if t >= 0:
                        groups[rows[t // NUM_SLOTS][s]].append(moves[t])
            # Sideways, both ways round the ring; both ways may reach the same empty square.
            row = rows[r]
            base = r * NUM_SLOTS
            first_landing = -1
            for d in (1, NUM_SLOTS - 1):
                j = (s + d) % NUM_SLOTS
                if cells[base + j] == EMPTY:
                    landing = j
                else:
                    if bump_problem(cells, base + j, frm) is None:
                        groups[row[j]].append(moves[base + j])
                    landing = -1
                    k = (j + d) % NUM_SLOTS
                    while k != s:
                        if cells[base + k] == EMPTY:
                            landing = k
                            break
                        k = (k + d) % NUM_SLOTS
                if landing >= 0 and landing != first_landing:
                    groups[row[landing]].append(moves[base + landing])
                    first_landing = landing
        if has_off:
            # Entering onto ring 1 at any slot, leapfrogging up a column where it is full.
            moves = _MOVES[OFF]
            onto_top = False
            for s in range(NUM_SLOTS):
                t = s
                while t < NUM_SQUARES and cells[t] != EMPTY:
                    t += NUM_SLOTS
                if t < NUM_SQUARES:
                    groups[rows[t // NUM_SLOTS][s]].append(moves[t])
                elif not onto_top:
                    top_group.append(moves[TOP])
                    onto_top = True
        return groups

    def _bump_problem(self, cells: list[int], target: int, origin: int) -> str | None:
        """Why a bump of the pawn on ``target`` by the pawn leaving ``origin`` is illegal
        under the rules' bottom variant (D12, D14), or None if it is legal."""
        r, s = divmod(target, NUM_SLOTS)
        if r == 0:
            return "a pawn on ring 1 cannot be bumped"
        bottom = self._bottom
        while True:
            new = r - 2
            if bottom is Bottom.FLOOR:
                if r == 0:
                    return "the chain would have to move a pawn already on ring 1 (floor rule)"
                new = max(new, 0)
            elif new < 0:
                if bottom is Bottom.PROTECT:
                    return "it would drop a pawn below ring 1"
                return None  # knock_off: that pawn goes back off the board
            sq = new * NUM_SLOTS + s
            if cells[sq] == EMPTY or sq == origin:
                return None
            r = new

    def edited(self) -> None:
        """Say that the public lists (``hands``, ``draw``, …) were edited in place, as an
        adapter swapping cards in a determinization does: the cached legal plays go."""
        self._legal = None

    def moves_by_colour(self, seat: int) -> list[list[Move]]:
        """Every pawn move ``seat`` could make on the board as it stands (no rotation),
        grouped by the colour of the landing square (index ``int(colour)``) and, at index
        ``TOP_GROUP``, the moves onto the top. Which card allows which group is the caller's
        to know: a colour card its colour's group (and the top group if it is the seat's own
        colour), a wild any group. The bots' fast path: no play is built."""
        mine = [sq for sq, owner in enumerate(self.cells) if owner == seat]
        has_off = len(mine) + self.top[seat] < PAWNS
        return self._moves(self.cells, self.rows, mine, has_off)

    def _has_legal_play(self, seat: int) -> bool:
        """Whether any card in ``seat``'s hand has a legal play (D8), without listing them."""
        hand = self.hands[seat]
        if not hand or self.places[seat]:
            return False
        mine = [sq for sq, owner in enumerate(self.cells) if owner == seat]
        if mine and any(card is not Card.ANY for card in hand):
            return True  # a rotation of a ring you stand on is always a play
        has_off = len(mine) + self.top[seat] < PAWNS
        if not mine and not has_off:
            return False
        groups = self._moves(self.cells, self.rows, mine, has_off)
        own = self.players[seat]
        for card in hand:
            colour = card.colour
            if colour is None:
                if any(groups):
                    return True
            elif groups[colour] or (colour == own and groups[TOP_GROUP]):
                return True
        return False

    # ---------------------------------------------------------------- checking a play

    def _problem(self, play: object) -> str | None:
        """Why ``play`` is illegal here, in words a player understands; None if legal."""
        if self.status != PLAYING:
            return "the game is over"
        if not isinstance(play, Play):
            return f"expected a Play, got {type(play).__name__}"
        seat = self._seat
        card, rot, move = play
        if not isinstance(card, Card):
            return f"{card!r} is not a card"
        if rot is not None and not (isinstance(rot, Rotation) and _whole_numbers(rot)):
            return f"{rot!r} is not a rotation: Rotation(ring, amount) of whole numbers"
        if move is not None:
            if not (isinstance(move, Move) and _whole_numbers(move)):
                return f"{move!r} is not a move: Move(from_square, to_square) of whole numbers"
            for sq in move:
                if not 0 <= sq <= TOP:
                    return (
                        f"{sq} is not a square: ring squares are 0–{NUM_SQUARES - 1}, off the"
                        f" board is {OFF} and the top {TOP}"
                    )
        hand = self.hands[seat]
        if card not in hand:
            return f"{self.players[seat].name.lower()} does not hold {card} (hand: " + (
                " ".join(str(c) for c in hand) + ")"
            )
        cells, rows = self.cells, self.rows
        mine = [sq for sq, owner in enumerate(cells) if owner == seat]
        if rot is not None:
            if card is Card.ANY:
                return "the any-colour wild cannot rotate a ring"
            if not 1 <= rot.ring <= NUM_RINGS:
                return f"there is no ring {rot.ring}"
            if card is Card.SPIN:
                if not 0 < abs(rot.amount) < NUM_SLOTS or rot.amount != spin_amount(rot.amount):
                    return f"a spin is written from -5 to +6 slots, not {rot.amount:+d}"
            elif abs(rot.amount) != card.number:
                return f"{card} turns a ring by exactly {card.number} slots, not {rot.amount:+d}"
            if not any(sq // NUM_SLOTS == rot.ring - 1 for sq in mine):
                return f"you have no pawn on ring {rot.ring}, so you cannot turn it"
            cells, rows, mine = self._rotated(rot.ring - 1, rot.amount, mine)
        if move is None:
            return None if rot is not None else "a play needs a rotation, a move or both"
        frm, to = move
        after = " after the rotation" if rot is not None else ""
        if frm == TOP:
            return "a pawn on the top never moves again"
        if frm == OFF:
            if len(mine) + self.top[seat] >= PAWNS:
                return "you have no pawn off the board"
        elif not 0 <= frm < NUM_SQUARES or cells[frm] != seat:
            return f"you have no pawn on {square_text(frm)}{after}"
        groups = self._moves(cells, rows, [frm] if frm != OFF else [], frm == OFF)
        found = next((i for i, group in enumerate(groups) if move in group), None)
        if found is None:
            if frm != OFF and to in _neighbours(frm) and cells[to] != EMPTY:
                return f"{square_text(frm)} cannot bump {square_text(to)}: " + (
                    self._bump_problem(cells, to, frm) or "no bump there"
                )
            return (
                f"{square_text(frm)} cannot reach {square_text(to)}{after}: a pawn steps to a"
                " neighbouring empty square, bumps a neighbour, or leapfrogs a line of pawns,"
                " always straight up, down or sideways"
            )
        colour = card.colour
        if colour is None:
            return None
        if found == TOP_GROUP:
            own = self.players[seat]
            if colour != own:
                return (
                    f"entering the top with a numbered card needs your own colour "
                    f"({own.name.lower()}); {card} is {colour.name.lower()}"
                )
            return None
        if found != colour:
            return (
                f"{square_text(to)} is {Colour(found).name.lower()}{after}, "
                f"but {card} moves only onto {colour.name.lower()}"
            )
        return None

    # ---------------------------------------------------------------- push / pop

    def push(self, play: Play | str) -> Play:
        """Make a play (a Play or its notation); returns the play.

        Raises NotationError for text that does not read as a play, and IllegalPlayError for
        a play the rules do not allow here (also once the game is over, and for anything
        that is not a well-formed Play); either way the state is unchanged.
        """
        if isinstance(play, str):
            play = parse_play(play)
        problem = self._problem(play)
        if problem is not None:
            raise IllegalPlayError(f"{_written(play)}: {problem}")
        return self.push_unchecked(play)

    def push_unchecked(self, play: Play) -> Play:
        """Make a play already known to be legal (one of ``legal_plays()``), without
        checking it: the bots' and adapters' fast path. Anything else corrupts the state."""
        self._stack.append((play, self._snapshot()))
        self._legal = None
        seat = self._seat
        card, rot, move = play
        self.hands[seat].remove(card)
        self.discard.append(card)
        if rot is not None:
            self._rotate(rot.ring - 1, rot.amount)
        if move is not None:
            self._move(seat, move)
        self.plays_done += 1
        if self.top[seat] == PAWNS:
            self._finish(seat)
            if self.status != PLAYING:
                return play
        if self.plays_done < PLAYS_PER_TURN and self._has_legal_play(seat):
            return play  # must keep playing (D8)
        self._end_turn()
        return play

    def pop(self) -> Play:
        """Take back the last play, restoring the position exactly."""
        if not self._stack:
            raise IndexError("no play to take back")
        play, snapshot = self._stack.pop()
        self._restore(snapshot)
        if len(self._stack) < self._shared:
            # A copy holds this snapshot too: play on with lists of our own, or the next
            # play would write into that copy's history.
            self._shared = len(self._stack)
            self.cells, self.offsets, self.rows = self.cells[:], self.offsets[:], self.rows[:]
            self.top, self.hands = self.top[:], [h[:] for h in self.hands]
            self.draw, self.discard, self.places = self.draw[:], self.discard[:], self.places[:]
        return play

    def peek(self) -> Play | None:
        """The last play pushed, or None before the first."""
        return self._stack[-1][0] if self._stack else None

    def clear_stack(self) -> None:
        """Forget the plays pushed so far: they can no longer be popped (nor recorded).
        For adapters that never take back, to keep memory flat."""
        self._stack.clear()
        self._shared = 0

    def _snapshot(self) -> Snapshot:
        # tuple.__new__ skips the NamedTuple's Python-level constructor: this is per play.
        return _tuple_new(
            Snapshot,
            (
                self.cells[:],
                self.offsets[:],
                self.rows[:],
                self.top[:],
                [h[:] for h in self.hands],
                self.draw[:],
                self.discard[:],
                self.key,
                self._seat,
                self.plays_done,
                self.turn,
                self.places[:],
                self.status,
            ),
        )

    def _restore(self, snapshot: Snapshot) -> None:
        (
            self.cells,
            self.offsets,
            self.rows,
            self.top,
            self.hands,
            self.draw,
            self.discard,
            self.key,
            self._seat,
            self.plays_done,
            self.turn,
            self.places,
            self.status,
        ) = snapshot
        self._legal = None

    def _rotate(self, r: int, amount: int) -> None:
        k = amount % NUM_SLOTS
        base = r * NUM_SLOTS
        ring = self.cells[base : base + NUM_SLOTS]
        self.cells[base : base + NUM_SLOTS] = ring[-k:] + ring[:-k]
        self.offsets[r] = (self.offsets[r] + k) % NUM_SLOTS
        self.rows[r] = self._table[r][self.offsets[r]]

    def _move(self, seat: int, move: Move) -> list[tuple[int, int, int]]:
        """Move a pawn and any bump chain; returns each displaced pawn as (seat, from, to),
        the moving pawn first (``OFF`` for a pawn knocked off the board)."""
        frm, to = move
        cells = self.cells
        moved = [(seat, frm, to)]
        if frm != OFF:
            cells[frm] = EMPTY
        if to == TOP:
            self.top[seat] += 1
            return moved
        bumped = cells[to]
        cells[to] = seat
        # The bump chain (D12): each displaced pawn drops two rings at the same slot.
        r, s = divmod(to, NUM_SLOTS)
        here = to
        while bumped != EMPTY:
            r -= 2
            if r < 0:
                if self._bottom is not Bottom.FLOOR:
                    moved.append((bumped, here, OFF))  # knocked off the board (D14)
                    return moved
                r = 0
            sq = r * NUM_SLOTS + s
            moved.append((bumped, here, sq))
            bumped, cells[sq] = cells[sq], bumped
            here = sq
        return moved

    def effects(self, play: Play) -> list[tuple[int, int, int]]:
        """What ``play`` would do to the pawns, for animation: each displaced pawn as
        (seat, from, to) in squares after the rotation, the moving pawn first, then the bump
        chain. Raises IllegalPlayError if the play is illegal; the state is untouched."""
        problem = self._problem(play)
        if problem is not None:
            raise IllegalPlayError(f"{_written(play)}: {problem}")
        if play.move is None:
            return []
        probe = self.copy()
        if play.rotation is not None:
            probe._rotate(play.rotation.ring - 1, play.rotation.amount)
        return probe._move(self._seat, play.move)

    def _finish(self, seat: int) -> None:
        """Seat has all three pawns on the top: it takes the next place (D15)."""
        self.places[seat] = 1 + sum(1 for p in self.places if p)
        unfinished = [i for i, p in enumerate(self.places) if not p]
        if len(unfinished) <= 1:
            for i in unfinished:
                self.places[i] = len(self.players)
            self.status = FINISHED

    def _end_turn(self) -> None:
        seat = self._seat
        hand = self.hands[seat]
        if self.places[seat]:
            self.discard.extend(hand)  # a finished player's cards go back into play
            hand.clear()
        else:
            self.refill_hand(hand)
        self.turn += 1
        self.plays_done = 0
        self._next_turn(seat)

    def refill_hand(self, hand: list[Card]) -> None:
        """Refill the hand of the seat whose turn ends up to three cards, from the draw
        pile, reshuffling the discard pile by the key when it runs out (D6). A subclass may
        decide the draws from outside instead (gamenight.envs.centrix_chance does)."""
        while len(hand) < HAND_SIZE:
            if not self.draw:
                if not self.discard:
                    break
                self.draw, self.key = shuffled(self.discard, self.key)
                self.discard = []
            hand.append(self.draw.pop(0))
        hand.sort()

    def _next_turn(self, seat: int) -> None:
        """Hand the turn to the next unfinished player who can play; the others pass (D8)."""
        n = len(self.players)
        unfinished = sum(1 for p in self.places if not p)
        passes = 0
        while True:
            if self.rules.max_turns is not None and self.turn >= self.rules.max_turns:
                self._end_at_cap()
                return
            seat = (seat + 1) % n
            while self.places[seat]:
                seat = (seat + 1) % n
            if self._has_legal_play(seat):
                self._seat = seat
                return
            passes += 1
            self.turn += 1
            if passes >= unfinished:
                self._rank_unfinished(STALEMATE)
                return

    def _end_at_cap(self) -> None:
        self._rank_unfinished(TURN_CAP)

    def _rank_unfinished(self, reason: str) -> None:
        """End the game now: unfinished players are ranked by pawns on the top, then by the
        sum of their pawns' levels; equal players share a place (D16)."""
        unfinished = [i for i, p in enumerate(self.places) if not p]
        scores: list[tuple[float, ...]] = [(self.top[i], self.level_sum(i)) for i in unfinished]
        first = len(self.places) - len(unfinished) + 1
        for seat, place in zip(unfinished, Outcome.places_from_scores(scores, first), strict=True):
            self.places[seat] = place
        self.status = reason


def _seat_colours(players: int | Sequence[Colour | str]) -> tuple[Colour, ...]:
    if isinstance(players, int):
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise RulesError(f"Centrix is for {MIN_PLAYERS}–{MAX_PLAYERS} players, not {players}")
        return tuple(Colour(i) for i in range(players))
    colours = tuple(c if isinstance(c, Colour) else Colour.parse(c) for c in players)
    if not MIN_PLAYERS <= len(colours) <= MAX_PLAYERS:
        raise RulesError(f"Centrix is for {MIN_PLAYERS}–{MAX_PLAYERS} players, not {len(colours)}")
    if len(set(colours)) != len(colours):
        raise RulesError("each player needs a pawn colour of their own")
    return colours


def _neighbours(sq: int) -> tuple[int, ...]:
    r, s = divmod(sq, NUM_SLOTS)
    base = r * NUM_SLOTS
    around = [base + (s + 1) % NUM_SLOTS, base + (s - 1) % NUM_SLOTS]
    if r:
        around.append(sq - NUM_SLOTS)
    if r < NUM_RINGS - 1:
        around.append(sq + NUM_SLOTS)
    return tuple(around)


def _whole_numbers(values: tuple[object, ...]) -> bool:
    # A Play built by hand may hold anything; bools are ints but never mean a ring or square.
    return all(isinstance(v, int) and not isinstance(v, bool) for v in values)


def _hand_text(hand: Sequence[Card]) -> str:
    return " ".join(str(c) for c in hand) or "(empty)"


def _written(play: object) -> str:
    # A hand-built play may hold what no notation can write; its error must still show it.
    try:
        return str(play)
    except (TypeError, ValueError):
        return repr(play)
