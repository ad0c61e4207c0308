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

from gamenight.centrix import native
from gamenight.centrix.board import (
    NUM_RINGS,
    NUM_SLOTS,
    NUM_SQUARES,
    OFF,
    TOP,
    Colour,
    level_sum,
)
from gamenight.centrix.cards import Card
from gamenight.centrix.explain import IllegalPlayError as IllegalPlayError
from gamenight.centrix.explain import check, hand_text, problem
from gamenight.centrix.log import PlayEntry, play_entries
from gamenight.centrix.movegen import EMPTY as EMPTY  # re-exported: bots and views use it
from gamenight.centrix.movegen import SPIN_AMOUNTS as SPIN_AMOUNTS
from gamenight.centrix.movegen import TOP_GROUP as TOP_GROUP
from gamenight.centrix.plays import Move, Play, parse_play
from gamenight.centrix.position import MAX_PLAYERS as MAX_PLAYERS  # re-exported
from gamenight.centrix.position import MIN_PLAYERS as MIN_PLAYERS
from gamenight.centrix.position import PAWNS as PAWNS  # re-exported: bots and views use it
from gamenight.centrix.position import Position, PositionError
from gamenight.centrix.rules import Bottom, Rules
from gamenight.core.errors import NotationError, RulesError
from gamenight.core.game import FiniteSpace
from gamenight.core.outcome import Outcome
from gamenight.core.record import GameRecord
from gamenight.core.state import StackedState

HAND_SIZE = 3
PLAYS_PER_TURN = 3

PLAYING = "playing"
FINISHED = "finished"  # at most one player left unfinished (D15)
TURN_CAP = "turn_cap"  # the rules' max_turns was reached (D16)
STALEMATE = "stalemate"  # no unfinished player can play any card

_tuple_new = tuple.__new__


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
    native.shuffle(pile, rng)
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
        return self.rules.pawns - self.top[seat] - self.cells.count(seat)

    def level_sum(self, seat: int) -> int:
        """The sum of the levels of ``seat``'s pawns (off 0, rings 1–6, top 7)."""
        return level_sum(self.cells, self.top, seat)

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
        own = tuple(self.hand or ())
        deal = (self.rules.deck, own, self.discard, self.hand_sizes, self.seat)
        dealt = native.deal(*deal, rng)  # the compiled core's, from the same draws
        hands, draw = dealt if dealt is not None else deal_unseen(*deal, rng)
        position = Position(
            players=self.players,
            offsets=self.offsets,
            cells=self.cells,
            top=self.top,
            hands=hands,
            draw=draw,
            discard=self.discard,
            key=rng.getrandbits(64),
            to_move=self.to_move if self.to_move is not None else 0,
            plays_done=self.plays_done,
            turn=self.turn,
            places=self.places,
            status=self.status,
        )
        return CentrixState(self.rules, self.players, position)


def deal_unseen(
    deck: tuple[Card, ...],
    own: tuple[Card, ...],
    discard: tuple[Card, ...],
    sizes: tuple[int, ...],
    seat: int | None,
    rng: random.Random,
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """``CentrixView.sample``'s deal, the reference (``native.deal`` is the compiled one):
    the cards ``seat`` cannot see — the deck without its hand ``own`` and the discard pile
    — shuffled, then dealt in seat order to every other seat, ``sizes`` cards each (each
    hand sorted), the rest left as the draw pile. Returns the hands (``own`` for ``seat``)
    and the draw pile."""
    unseen = list(deck)
    for card in [*own, *discard]:
        unseen.remove(card)
    rng.shuffle(unseen)
    hands: list[tuple[Card, ...]] = []
    for other, size in enumerate(sizes):
        if other == seat:
            hands.append(own)
        else:
            hands.append(tuple(sorted(unseen[:size])))
            del unseen[:size]
    return tuple(hands), tuple(unseen)


# What pop takes a play back with: the engine's snapshot, or the compiled core's undo record.
Undo = Snapshot | bytes


class CentrixState(StackedState[Play, Undo, Position, PlayEntry]):
    """A game of Centrix in progress (or finished)."""

    _RENDERERS = (
        ("gamenight.centrix.text", "render_plain"),
        ("gamenight.centrix.svg", "board_svg"),
    )

    # How many snapshots at the bottom of the stack another state (a copy) holds too; see
    # pop(). A class default, so that states built without __init__ share nothing.
    _shared = 0

    # The compiled core makes plays itself only where the cards are dealt as here: a fact of
    # the class, settled when a subclass is made (__init_subclass__).
    _own_refill = True

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls._own_refill = cls.refill_hand is CentrixState.refill_hand

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
        # The layout's colours by ring and offset, and the same as the compiled core reads them.
        self._table, self._colours = native.layout_tables(rules.layout)
        # The compiled core counts the rulebook's three pawns; other set-ups take the
        # Python path (D18). Its deck is whatever the lists hold, so any deck runs there.
        self._compiled = rules.pawns == PAWNS
        self._bottom = rules.bottom
        self._bottom_code, self._max_turns, self._core_plays = native.settings(
            rules, self._compiled and self._own_refill
        )
        self._load(position)
        self.seed = seed
        self.first = first
        self._start = None if seed is not None else position
        self._stack: list[tuple[Play, Undo]] = []

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
        deck = rules.deck
        if len(deck) < HAND_SIZE * len(colours):
            raise RulesError(
                f"a deck of {len(deck)} cards cannot deal {HAND_SIZE} to each of"
                f" {len(colours)} players (D18)"
            )
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        draw, key = shuffled(deck, seed)
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
        if not native.has_legal_play(state, seat):  # a pawn can always enter, but be exact
            state._next_turn(seat)
        return state

    @classmethod
    def from_position(cls, text: str, rules: Rules | None = None) -> CentrixState:
        """The state a position string describes (see docs/rules/centrix.md, "Positions").

        Raises PositionError naming the field for text that is malformed or describes a
        position play cannot reach, including a seat to move that has no legal play under
        ``rules`` (the turn only ever passes to a seat that can play, D8).
        """
        rules = rules or Rules()
        position = Position.parse(text, deck=rules.deck, pawns=rules.pawns)
        state = cls(rules, position.players, position)
        seat = position.to_move
        if state.status == PLAYING and not native.has_legal_play(state, seat):
            raise PositionError(
                f"seat to move: {state.players[seat].name.lower()} has no legal play with the"
                f" hand {hand_text(state.hands[seat])}, but the turn only passes to a seat"
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

    def _identity(self) -> tuple[object, ...]:
        return (self.rules, self.to_position())

    def _log_entries(self, count: int) -> list[PlayEntry]:
        return play_entries(self, count)

    def _copied(self, clone: Self, history: bool) -> None:
        clone._legal = self._legal  # the legal plays depend only on the position
        if history:
            self._shared = clone._shared = len(self._stack)

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
    def replay(cls, record: GameRecord | str | bytes) -> CentrixState:
        """The state a record (or its JSON text or UTF-8 bytes) replays to; raises
        RecordError, and nothing else, if it does not."""
        from gamenight.centrix.record import replay

        return replay(record)

    @property
    def plays(self) -> list[Play]:
        """The plays pushed so far, oldest first (alias of ``actions``)."""
        return self.actions

    @property
    def movers(self) -> list[int]:
        """The seat that made each play pushed so far: ``plays[i]`` was ``movers[i]``'s."""
        return self.latest_movers(len(self._stack))

    def latest_movers(self, count: int) -> list[int]:
        """The seats that made the last ``count`` plays on the stack (``movers[-count:]``,
        without the others')."""
        stack = self._stack
        latest = stack[len(stack) - count :]
        return [undo[0] if isinstance(undo, bytes) else undo.seat for _, undo in latest]

    def standing(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's (pawns on the top, sum of pawn levels) now: the climb by which the
        game ranks the unfinished seats when it ends early (D16); higher is better."""
        return tuple((self.top[seat], self.level_sum(seat)) for seat in range(self.num_players))

    def pawn_squares(self, seat: int) -> list[int]:
        """Every square of ``seat``'s pawns: ring squares, then ``OFF``/``TOP`` once per pawn."""
        on_board = [sq for sq, owner in enumerate(self.cells) if owner == seat]
        off = self.rules.pawns - self.top[seat] - len(on_board)
        return on_board + [OFF] * off + [TOP] * self.top[seat]

    def level_sum(self, seat: int) -> int:
        """The sum of the levels of ``seat``'s pawns (off 0, rings 1–6, top 7)."""
        return level_sum(self.cells, self.top, seat)

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
            legal = self._legal = native.legal_plays(self) if self.status == PLAYING else ()
        return list(legal)

    def legal_actions(self) -> list[Play]:
        """The protocol's name for ``legal_plays``."""
        return list(self.legal_play_tuple())

    def legal_play_tuple(self) -> tuple[Play, ...]:
        """``legal_plays()`` without the copy: the engine's own cached tuple, the same object
        until the position changes (callers may key caches of their own on its identity)."""
        if self._legal is None:
            self._legal = native.legal_plays(self) if self.status == PLAYING else ()
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
        return problem(self, play) is None

    def parse_play(self, text: str) -> Play:
        """Read a play in notation and check that it is legal here (raises otherwise)."""
        play = parse_play(text)
        # A play read from notation holds only cards and whole numbers: one among the legal
        # plays already listed for this position (a page's view lists them) is legal, and no
        # rule needs explaining. Any other is checked, and refused with the rule it breaks.
        if self._legal is None or play not in self._legal:
            check(self, play)
        return play

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
        return native.moves_by_colour(self, seat)

    # ---------------------------------------------------------------- checking a play

    # ---------------------------------------------------------------- push / pop

    def push(self, play: Play | str) -> Play:
        """Make a play (a Play or its notation); returns the play.

        Raises NotationError for text that does not read as a play, and IllegalPlayError for
        a play the rules do not allow here (also once the game is over, and for anything
        that is not a well-formed Play); either way the state is unchanged.
        """
        if isinstance(play, str):
            play = parse_play(play)
        check(self, play)
        return self.push_unchecked(play)

    def push_unchecked(self, play: Play) -> Play:
        """Make a play already known to be legal (one of ``legal_plays()``), without
        checking it: the bots' and adapters' fast path. Anything else corrupts the state."""
        record = native.apply(self, play)  # the compiled core made it, as _make would
        if record is None:
            self._stack.append((play, self._snapshot()))
            self._make(play)
        else:
            self._stack.append((play, record))
        return play

    def advance(self, play: Play) -> None:
        """``push_unchecked`` without the record ``pop`` needs: the play can be neither taken
        back nor recorded. For searches that throw the state away afterwards (ISMCTS walks a
        fresh deal each iteration), so that no play pays for a snapshot."""
        if native.apply(self, play) is None:
            self._make(play)

    def play_randomly(self, rng: random.Random, plays: int | None = None) -> int:
        """Make uniformly random plays — each ``rng.choice(self.legal_plays())`` — until the
        game is over or ``plays`` were made; returns how many were made. As with ``advance``
        they are not recorded (nor can they be taken back). The random-play fast path, for
        random games and rollouts: the compiled core makes whole stretches of plays in one
        call (``native.play_out``), the same plays from the same draws as the loop."""
        if plays is not None and plays < 0:
            raise ValueError(f"plays is a count, not {plays}")
        return native.play_out(self, rng, plays, native.UNIFORM, _uniform)

    def _make(self, play: Play) -> None:
        """Make a legal ``play`` by the rules, in Python, up to the next seat to move: where
        the compiled core did not (``native.apply``, ``native.rollout``'s pending play)."""
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
        if self.top[seat] == self.rules.pawns:
            self._finish(seat)
            if self.status != PLAYING:
                return
        if self.plays_done < PLAYS_PER_TURN and native.has_legal_play(self, seat):
            return  # must keep playing (D8)
        self._end_turn()

    def pop(self) -> Play:
        """Take back the last play, restoring the position exactly."""
        if not self._stack:
            raise IndexError("no play to take back")
        play, undo = self._stack.pop()
        if isinstance(undo, bytes):
            native.undo(self, undo)  # in place: the lists are this state's own
        else:
            self._restore(undo)
        if len(self._stack) < self._shared:
            # A copy holds this snapshot too: play on with lists of our own, or the next
            # play would write into that copy's history.
            self._shared = len(self._stack)
            self.cells, self.offsets, self.rows = self.cells[:], self.offsets[:], self.rows[:]
            self.top, self.hands = self.top[:], [h[:] for h in self.hands]
            self.draw, self.discard, self.places = self.draw[:], self.discard[:], self.places[:]
        return play

    def clear_stack(self, keep: int = 0) -> None:
        """Forget the plays pushed so far but the last ``keep``: they can no longer be popped
        (nor recorded). For adapters that never take back, or only within a turn, to keep
        memory flat."""
        before = len(self._stack)
        super().clear_stack(keep)
        # The snapshots shared with a copy are the bottom ones: those dropped are no more.
        self._shared = max(0, self._shared - (before - len(self._stack)))

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
        check(self, play)
        return self.effects_unchecked(play)

    def effects_unchecked(self, play: Play) -> list[tuple[int, int, int]]:
        """``effects`` of a play already known to be legal (as ``push_unchecked`` takes it:
        one just checked, or one on the stack), without checking it again."""
        if play.move is None:
            return []
        # A probe of what a rotation and a move change (the board, the rings, the top), not
        # a whole copy: the effects are read from it and it is thrown away.
        probe = type(self).__new__(type(self))
        probe.__dict__.update(self.__dict__)
        probe.cells, probe.offsets = self.cells[:], self.offsets[:]
        probe.rows, probe.top = self.rows[:], self.top[:]
        if play.rotation is not None:
            probe._rotate(play.rotation.ring - 1, play.rotation.amount)
        return probe._move(self._seat, play.move)

    def _finish(self, seat: int) -> None:
        """Seat has all its pawns on the top: it takes the next place (D15)."""
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
                self._rank_unfinished(TURN_CAP)
                return
            seat = (seat + 1) % n
            while self.places[seat]:
                seat = (seat + 1) % n
            if native.has_legal_play(self, seat):
                self._seat = seat
                return
            passes += 1
            self.turn += 1
            if passes >= unfinished:
                self._rank_unfinished(STALEMATE)
                return

    def _rank_unfinished(self, reason: str) -> None:
        """End the game now: unfinished players are ranked by pawns on the top, then by the
        sum of their pawns' levels; equal players share a place (D16)."""
        unfinished = [i for i, p in enumerate(self.places) if not p]
        scores: list[tuple[float, ...]] = [(self.top[i], self.level_sum(i)) for i in unfinished]
        first = len(self.places) - len(unfinished) + 1
        for seat, place in zip(unfinished, Outcome.places_from_scores(scores, first), strict=True):
            self.places[seat] = place
        self.status = reason


def _uniform(state: CentrixState, rng: random.Random) -> Play:
    """``play_randomly``'s policy, one play: every legal play alike."""
    return rng.choice(state.legal_plays())


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
