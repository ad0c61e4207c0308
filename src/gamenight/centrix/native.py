"""The engine's two paths for move generation: the compiled core and the Python reference.

``gamenight.centrix._speedups`` (C, built by setuptools where a compiler is present) is a
port of ``gamenight.centrix.movegen``, of play application (``push_unchecked``), of the
bots' evaluation (``scores``, Greedy's one ply), of ISMCTS's default policy, of whole
rollouts (``rollout``), of ISMCTS's tree and selection (``search_nodes``, ``select``) and of
a view's deal (``deal``); the Python code stays the rules' readable reference and the
fallback. Which path runs is chosen here, once, at import: the compiled one when it is
built, unless the environment sets ``GAMENIGHT_PURE=1``.
``pure()`` switches to the reference for a block (the differential test compares both in
one process), and every caller goes through this module's functions, so the choice is
never baked into an import.

Plays are integers in the compiled core (``legal_codes``) and become ``Play`` values only
where a caller asks (``legal_plays``, ``decode``).
"""

from __future__ import annotations

import functools
import os
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypeVar, cast

from gamenight.centrix import movegen
from gamenight.centrix.board import NUM_RINGS, NUM_SLOTS, NUM_SQUARES, Colour, Layout
from gamenight.centrix.cards import Card
from gamenight.centrix.plays import Move, Play, Rotation
from gamenight.centrix.rules import Bottom, Rules

if TYPE_CHECKING:
    from gamenight.centrix.state import CentrixState


try:
    from gamenight.centrix import _speedups as _core
except ImportError:  # not built here: no compiler, or a source checkout
    _core = None  # type: ignore[assignment]
if os.environ.get("GAMENIGHT_PURE", "") not in ("", "0"):
    _core = None  # type: ignore[assignment]
if _core is not None:
    _core.configure(
        Play,
        tuple(Card),
        tuple(
            Rotation(ring, amount) if amount else None
            for ring in range(1, NUM_RINGS + 1)
            for amount in range(-(NUM_SLOTS - 1), NUM_SLOTS)
        ),
        tuple(Move(f, t) for f in range(NUM_SQUARES + 2) for t in range(NUM_SQUARES + 2)),
    )
COMPILED = _core is not None
"""Whether the compiled core is built and allowed here (``GAMENIGHT_PURE`` unset)."""

_active = COMPILED
BOTTOM_CODES = {Bottom.PROTECT: 0, Bottom.KNOCK_OFF: 1, Bottom.FLOOR: 2}


def active() -> bool:
    """Whether calls go to the compiled core now (False inside ``pure()``)."""
    return _active


@contextmanager
def pure() -> Iterator[None]:
    """Run the block on the Python reference engine, whatever is built."""
    global _active
    before, _active = _active, False
    try:
        yield
    finally:
        _active = before


RowsTable = tuple[tuple[tuple[int, ...], ...], ...]


@functools.lru_cache(maxsize=16)
def colour_table(table: RowsTable) -> bytes:
    """A layout's colours by ring, offset and slot (``Layout.rows_by_offset``) as the
    compiled core reads them: byte ``(ring * 12 + offset) * 12 + slot``."""
    return bytes(c for ring in table for row in ring for c in row)


_layouts: dict[int, tuple[Layout, RowsTable, bytes]] = {}


def layout_tables(layout: Layout) -> tuple[RowsTable, bytes]:
    """``layout.rows_by_offset()`` and its ``colour_table``, for every new state (a bot's
    every determinization too). Remembered by the layout object itself, which the states of
    a game and the rulebook's default rules share: the two caches above are keyed by the
    layout's value, and hashing its 72 colours and the table's 864 entries for them was
    a quarter of the time ``CentrixView.sample`` took."""
    seen = _layouts.get(id(layout))
    if seen is not None and seen[0] is layout:  # held by the entry, so no other object has its id
        return seen[1], seen[2]
    table = layout.rows_by_offset()
    colours = colour_table(table)
    if len(_layouts) >= 16:
        _layouts.clear()
    _layouts[id(layout)] = (layout, table, colours)
    return table, colours


SeatArgs = tuple[list[int], list[int], bytes, list[Card], int, int, int]

_COUNT_LIMIT = 2**30  # the core counts turns in C ints; a stored game may carry any (D17)


def settings(rules: Rules, engine_state: bool) -> tuple[int, int, bool]:
    """What the compiled core reads of a state's rules, worked out once when the state is
    made (its rules never change): the bottom rule's code, the turn cap's (-1 for none) and
    whether the core may make plays on the state at all: ``engine_state`` (the core takes
    the state's rules, and its class deals the cards as the engine does: ``refill_hand`` not
    overridden) and a cap within the core's integers. ``_makes_plays`` adds what changes."""
    max_turns = rules.max_turns
    return (
        BOTTOM_CODES[rules.bottom],
        -1 if max_turns is None else max_turns,
        engine_state and (max_turns is None or max_turns < _COUNT_LIMIT),
    )


def _seat_args(state: CentrixState, seat: int) -> SeatArgs:
    """What the core's generators read of a state: the board and ``seat``'s cards."""
    return (
        state.cells,
        state.offsets,
        state._colours,
        state.hands[seat],
        seat,
        state.players[seat],
        state.top[seat],
    )


def _runs(state: CentrixState) -> bool:
    """Whether the compiled core takes ``state``: it is active and the state's rules have
    the rulebook's three pawns, which the core counts (D18)."""
    return _active and state._compiled


def legal_plays(state: CentrixState) -> tuple[Play, ...]:
    """Every legal play of the seat to move, in the order of ``CentrixState.legal_plays``."""
    if not _runs(state):
        return movegen.legal_plays(state)
    seat = state._seat  # _seat_args written out: this is every node of a search
    return _core.legal_plays(
        state.cells,
        state.offsets,
        state._colours,
        state.hands[seat],
        seat,
        state.players[seat],
        state.top[seat],
        state._bottom_code,
    )


def legal_codes(state: CentrixState) -> list[int]:
    """The legal plays as integers (``decode`` makes each a Play), in the same order."""
    if _core is None:
        raise RuntimeError("the compiled core is not built here (see docs/benchmarks.md)")
    if not state._compiled:
        raise RuntimeError(f"the compiled core counts 3 pawns, not {state.rules.pawns} (D18)")
    return _core.legal_codes(*_seat_args(state, state._seat), state._bottom_code)


def decisions(state: CentrixState, prefix: Sequence[int]) -> tuple[list[int], Play | None] | None:
    """gamenight.envs.centrix_codec's decisions of a play by the seat to move: the sorted
    action ids that extend ``prefix`` towards a legal play, and the legal play ``prefix``
    makes whole (or None), from the core's legal codes; None where the core does not take
    ``state`` (the caller then asks ``PlayTree``)."""
    if not (_active and state._compiled) or state.to_move is None:
        return None
    seat = state._seat  # _seat_args written out: a batched env asks at every play
    ids, code = _core.decisions(
        state.cells,
        state.offsets,
        state._colours,
        state.hands[seat],
        seat,
        state.players[seat],
        state.top[seat],
        state._bottom_code,
        prefix,
    )
    return ids, None if code < 0 else _core.decode(code)


@functools.lru_cache(maxsize=16)
def _copies(deck: tuple[Card, ...]) -> tuple[float, ...]:
    # As gamenight.envs.centrix_codec's: at least 1, so a kind left out divides nothing by 0.
    return tuple(float(max(1, deck.count(card))) for card in Card)


def encode_batch(
    games: Sequence[tuple[CentrixState, int, Sequence[int]]],
    observations: object,
    masks: object,
) -> bool:
    """gamenight.envs.centrix_codec's observation of each (state, seat, the play's decisions
    so far), and the mask of the decisions that extend it (zeros unless the seat is to
    move), written into row i of ``observations`` (float32, C order) and ``masks`` (int8)
    in one call of the compiled core. False, with nothing written, where the core does not
    take every state (not built, ``pure()``, other than three pawns, or rules that differ
    between the states): the caller encodes them in Python."""
    if not games or _core is None or not _active:
        return False
    rules = games[0][0].rules
    # ``is`` first: a batch's games share one rules object (the equality builds tuples).
    if not all(
        state._compiled and (state.rules is rules or state.rules == rules) for state, _, _ in games
    ):
        return False
    fields = [
        (
            state.cells,
            state.offsets,
            state._colours,
            state.players,
            state.top,
            state.hands,
            len(state.draw),
            state.discard,
            -1 if (mover := state.to_move) is None else mover,
            state.plays_done,
            state.places,
            seat,
            prefix,
            state._bottom_code,
            mover == seat,
        )
        for state, seat, prefix in games
    ]
    _core.encode_batch(
        fields, _copies(rules.deck), rules.pawns, len(rules.deck), observations, masks
    )
    return True


def decode(code: int) -> Play:
    """The play an integer from ``legal_codes`` stands for."""
    if _core is None:
        raise RuntimeError("the compiled core is not built here (see docs/benchmarks.md)")
    return _core.decode(code)


def has_legal_play(state: CentrixState, seat: int) -> bool:
    """Whether any card in ``seat``'s hand has a legal play (D8), without listing them."""
    if not _runs(state):
        return movegen.has_legal_play(state, seat)
    return _core.has_legal_play(*_seat_args(state, seat), state.places[seat], state._bottom_code)


def moves_by_colour(state: CentrixState, seat: int) -> list[list[Move]]:
    """``seat``'s pawn moves on the board as it stands, grouped as ``movegen.pawn_moves``."""
    if not _runs(state):
        mine = [sq for sq, owner in enumerate(state.cells) if owner == seat]
        has_off = len(mine) + state.top[seat] < state.rules.pawns
        return movegen.pawn_moves(state.cells, state.rows, mine, has_off, state._bottom)
    return _core.pawn_moves(
        state.cells,
        state.offsets,
        state._colours,
        seat,
        state.top[seat],
        state._bottom_code,
    )


def scores(
    state: CentrixState, top: float, opportunity: float, threat: float
) -> list[float] | None:
    """``gamenight.bots.centrix_eval.scores`` by the compiled core with these weights, or
    None on the Python path or for a hand edited past the core's size (the caller then runs
    the reference)."""
    if not _runs(state):
        return None
    mover = state.to_move
    return _core.scores(
        state.cells,
        state.offsets,
        state._colours,
        state.top,
        state._bottom_code,
        top,
        opportunity,
        threat,
        -1 if mover is None else mover,
        state.hands[mover] if mover is not None else [],
        0 if mover is None else state.players[mover],
    )


def _makes_plays(state: CentrixState) -> bool:
    """Whether the compiled core makes plays on ``state`` itself: it is active, ``settings``
    allowed it for the state's rules and class, and the turn count fits the core's
    integers."""
    return _active and state._core_plays and state.turn < _COUNT_LIMIT


GameArgs = tuple[
    list[int],
    list[int],
    bytes,
    RowsTable,
    list[tuple[int, ...]],
    list[list[Card]],
    list[Card],
    list[Card],
    list[int],
    list[int],
    tuple[Colour, ...],
    int,
    int,
    int,
    int,
    int,
]


def _game_args(state: CentrixState) -> GameArgs:
    """What the core's play application reads and changes of a state: its own lists (the
    core writes into them), the seat to move, the counts and the rules' settings."""
    return (
        state.cells,
        state.offsets,
        state._colours,
        state._table,
        state.rows,
        state.hands,
        state.draw,
        state.discard,
        state.top,
        state.places,
        state.players,
        state._seat,
        state.plays_done,
        state.turn,
        state._max_turns,
        state._bottom_code,
    )


def apply(state: CentrixState, play: Play) -> bytes | None:
    """Make a legal ``play`` on ``state``'s own lists up to the next seat to move, as
    ``push_unchecked`` does: the undo record ``undo`` takes it back with (in place of the
    engine's snapshot of every list) if the compiled core made it; None, with nothing
    changed, on the Python path and where the engine must go on itself (the game ends, the
    discard pile is reshuffled, a subclass deals its own cards, or the turn count or cap is
    beyond the core's integers)."""
    if not _makes_plays(state):
        return None
    # _game_args written out: this is every play pushed (building its tuple and the
    # star-call's were, with _seat_args's below, a tenth of stepped random play's work).
    after = _core.apply_play(
        state.cells,
        state.offsets,
        state._colours,
        state._table,
        state.rows,
        state.hands,
        state.draw,
        state.discard,
        state.top,
        state.places,
        state.players,
        state._seat,
        state.plays_done,
        state.turn,
        state._max_turns,
        state._bottom_code,
        play,
    )
    if after is None:
        return None
    state._seat, state.plays_done, state.turn, record = after
    state._legal = None
    return record


def undo(state: CentrixState, record: bytes) -> None:
    """Take back the play ``apply`` made, by its undo record, on ``state``'s own lists (on
    either path: a record only comes from the core)."""
    state._seat, state.plays_done, state.turn = _core.undo_play(record, *_game_args(state))
    state._legal = None


def play_values(
    state: CentrixState, top: float, opportunity: float, threat: float
) -> list[float] | None:
    """For each of ``state.legal_plays()``, in that order, Greedy's one-ply value for the
    seat to move after the play (``centrix_eval.value`` with these weights), computed by the
    compiled core on a copy of the position; NaN where the engine must push the play itself
    (the game ends, or the draw pile is reshuffled). None on the Python path, for a
    subclass that deals its own cards (``refill_hand`` overridden), for a hand edited past
    the core's size and for counts beyond its integers."""
    if state.is_over or not _makes_plays(state):
        return None
    return _core.play_values(
        state.cells,
        state.offsets,
        state._colours,
        state.hands,
        state.draw,
        len(state.discard),
        state.top,
        state.places,
        state.players,
        state._seat,
        state.plays_done,
        state.turn,
        state._max_turns,
        state._bottom_code,
        top,
        opportunity,
        threat,
    )


def mirrors(rng: random.Random, state: CentrixState | None = None) -> bool:
    """Whether the core's random draws (``fast_move``, ``rollout`` on ``state``, ``shuffle``)
    run here with this generator: the compiled core is active (and takes ``state``) and
    ``rng`` is a plain ``random.Random``, whose draws the core makes through its own
    ``getrandbits`` exactly as the Python loop would."""
    return (_active if state is None else _runs(state)) and type(rng) is random.Random


def fast_move(state: CentrixState, seat: int, rng: random.Random) -> Play | None:
    """ISMCTS's default policy's climbing move (``bots.centrix.fast_play``) by the compiled
    core, or None where no move gains; call only where ``mirrors(rng, state)`` (the caller
    checks it, to choose its path)."""
    return _core.fast_move(
        state.cells,
        state.offsets,
        state._colours,
        list(set(state.hands[seat])),  # the set's order, which the Python loop follows
        seat,
        state.players[seat],
        state.top[seat],
        state._bottom_code,
        rng.getrandbits,
    )


UNIFORM = 0
"""``rollout``'s policy: ``rng.choice(state.legal_plays())``, every legal play alike."""
CLIMB = 1
"""``rollout``'s policy: ISMCTS's default policy, ``bots.centrix.fast_play``."""
RANDOM_BOT = 2
"""``rollout``'s policy: ``bots.centrix.RandomBot.choose`` on the mover's view, its draws
of the determinization (``CentrixView.sample``) and then ``UNIFORM``'s; with ``hold``, for
the random bot's own generator in its own seat."""


def rollout(
    state: CentrixState,
    rng: random.Random,
    plays: int | None,
    policy: int,
    stop: tuple[int, int] | None = None,
    hold: int | None = None,
) -> tuple[int, Play | None] | None:
    """Up to ``plays`` plays (None: no limit) of ``policy`` made by the compiled core in
    one call, without returning to Python per play, as the loop ``for _ in range(plays):
    if stopped(state, stop): break; state.advance(policy(state, rng))`` makes them: the
    same plays from the same draws of ``rng``. Like ``advance``, nothing is recorded: the
    plays can be neither taken back nor written in a record.

    Returns how many plays were made and a play already drawn (its draws made) that the
    engine must make itself before going on, on its Python path (the core cannot): one
    that ends the game or reshuffles the discard pile (see ``apply``), else None. Returns
    None, with nothing changed, where the core cannot go on (the Python path, a generator
    it does not mirror, a game already over and the cases ``apply`` leaves to the
    engine); the caller then makes the next play itself. ``play_out`` is that caller."""
    if (
        (plays is not None and plays <= 0)
        or state.is_over
        or not _makes_plays(state)
        or not mirrors(rng)
    ):
        return None
    after = _core.rollout(
        *_game_args(state),
        rng.random,
        rng.getrandbits,
        policy,
        _COUNT_LIMIT if plays is None else min(plays, _COUNT_LIMIT),  # the core's C int
        -1 if stop is None else stop[0],
        0 if stop is None else stop[1],
        -1 if hold is None else hold,
    )
    if after is None:
        return None
    made, state._seat, state.plays_done, state.turn, pending = after
    state._legal = None
    return made, None if pending < 0 else _core.decode(pending)


def stopped(
    state: CentrixState, stop: tuple[int, int] | None = None, hold: int | None = None
) -> bool:
    """Whether a rollout ends here: the game is over or, with ``stop=(seat, turn)``,
    ``seat`` is to move after its turn ``turn`` (ISMCTS's end of a round) or, with ``hold``,
    a seat other than ``hold`` is to move (the end of that seat's turn)."""
    return (
        state.is_over
        or (stop is not None and state.actor == stop[0] and state.turn > stop[1])
        or (hold is not None and state.actor != hold)
    )


def play_out(
    state: CentrixState,
    rng: random.Random,
    plays: int | None,
    policy: int,
    choose: Callable[[CentrixState, random.Random], Play],
    stop: tuple[int, int] | None = None,
    hold: int | None = None,
) -> int:
    """Make plays of ``policy`` (``choose`` is the same policy in Python: one play of the
    seat to move) by ``advance`` until ``stopped(state, stop, hold)`` or ``plays`` were made
    (None: no limit); returns how many were made. The compiled core makes whole stretches of
    them in one call (``rollout``), the same plays from the same draws as the loop of
    ``choose`` alone."""
    made = 0
    while (plays is None or made < plays) and not stopped(state, stop, hold):
        done = rollout(state, rng, None if plays is None else plays - made, policy, stop, hold)
        if done is None:
            state.advance(choose(state, rng))
            made += 1
            continue
        taken, pending = done
        made += taken
        if pending is not None:  # drawn in the core, where the core cannot make it
            state._make(pending)
            made += 1
    return made


N = TypeVar("N")


def search_nodes(reference: type[N]) -> type[N]:
    """The class of ISMCTS's tree nodes on this path: the compiled core's ``SearchNode``
    (the fields of ``reference``, ``bots.centrix._Node``, in C, for ``select``) while the
    core is active, else ``reference`` itself."""
    return cast("type[N]", _core.SearchNode) if _active else reference


def select(
    children: dict[Play, N],
    plays: Sequence[Play],
    mover: int,
    rng: random.Random,
    exploration: float,
    bias: float,
) -> Play:
    """ISMCTS's choice among ``plays`` at a node of ``search_nodes`` whose ``children``
    these are, by the compiled core: each play's child (made the first time it is met)
    counts one more availability, and the play of the highest UCB wins, the first of
    equals, with a draw of ``rng.random`` for every unvisited child in the order met and
    the Python loop's floating-point operations in its order (so the same choice). Call
    only while the core is active, on a tree of its nodes."""
    if not _active:
        raise RuntimeError("select needs the compiled core (see search_nodes)")
    return _core.select(children, plays, mover, rng.random, exploration, bias)


def deal(
    deck: tuple[Card, ...],
    own: tuple[Card, ...],
    discard: tuple[Card, ...],
    sizes: tuple[int, ...],
    seat: int | None,
    rng: random.Random,
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]] | None:
    """``state.deal_unseen`` (a view's determinization: the unseen cards shuffled and dealt)
    by the compiled core where it mirrors ``rng``: the same hands and draw pile from the same
    draws. None on the Python path, where the caller deals by the reference."""
    if not mirrors(rng):
        return None
    return _core.deal(deck, own, discard, sizes, -1 if seat is None else seat, rng.getrandbits)


def shuffle(cards: list[Card], rng: random.Random) -> None:
    """``rng.shuffle(cards)``, by the compiled core where it mirrors ``rng`` (the same
    permutation from the same draws): a deal and a determinization shuffle every time."""
    if mirrors(rng):
        _core.shuffle(cards, rng.getrandbits)
    else:
        rng.shuffle(cards)


__all__ = [
    "CLIMB",
    "COMPILED",
    "RANDOM_BOT",
    "UNIFORM",
    "active",
    "apply",
    "colour_table",
    "deal",
    "decode",
    "fast_move",
    "has_legal_play",
    "layout_tables",
    "legal_codes",
    "legal_plays",
    "mirrors",
    "moves_by_colour",
    "play_out",
    "play_values",
    "pure",
    "rollout",
    "scores",
    "search_nodes",
    "select",
    "settings",
    "shuffle",
    "stopped",
    "undo",
]
