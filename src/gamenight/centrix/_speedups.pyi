"""Types of the compiled core (src/gamenight/centrix/_speedups.c); see native.py."""

from collections.abc import Callable, Sequence
from typing import Any

from gamenight.centrix.board import Colour
from gamenight.centrix.cards import Card
from gamenight.centrix.plays import Move, Play, Rotation

def configure(
    play: type[Play],
    cards: tuple[Card, ...],
    rotations: tuple[Rotation | None, ...],
    moves: tuple[Move, ...],
) -> None: ...
def legal_plays(
    cells: list[int],
    offsets: list[int],
    table: bytes,
    hand: list[Card],
    seat: int,
    own: int,
    top: int,
    bottom: int,
) -> tuple[Play, ...]: ...
def legal_codes(
    cells: list[int],
    offsets: list[int],
    table: bytes,
    hand: list[Card],
    seat: int,
    own: int,
    top: int,
    bottom: int,
) -> list[int]: ...
def decode(code: int) -> Play: ...
def has_legal_play(
    cells: list[int],
    offsets: list[int],
    table: bytes,
    hand: list[Card],
    seat: int,
    own: int,
    top: int,
    finished: int,
    bottom: int,
) -> bool: ...
def pawn_moves(
    cells: list[int], offsets: list[int], table: bytes, seat: int, top: int, bottom: int
) -> list[list[Move]]: ...
def scores(
    cells: list[int],
    offsets: list[int],
    table: bytes,
    top: list[int],
    bottom: int,
    w_top: float,
    w_opportunity: float,
    w_threat: float,
    mover: int,
    hand: list[Card],
    own: int,
) -> list[float] | None: ...
def play_values(
    cells: list[int],
    offsets: list[int],
    table: bytes,
    hands: list[list[Card]],
    draw: list[Card],
    discard_n: int,
    top: list[int],
    places: list[int],
    players: tuple[Colour, ...],
    seat: int,
    plays_done: int,
    turn: int,
    max_turns: int,
    bottom: int,
    w_top: float,
    w_opportunity: float,
    w_threat: float,
) -> list[float] | None: ...
def fast_move(
    cells: list[int],
    offsets: list[int],
    table: bytes,
    cards: list[Card],
    seat: int,
    own: int,
    top: int,
    bottom: int,
    getrandbits: Callable[[int], int],
) -> Play | None: ...
def apply_play(
    cells: list[int],
    offsets: list[int],
    table: bytes,
    rows_table: tuple[tuple[tuple[int, ...], ...], ...],
    rows: list[tuple[int, ...]],
    hands: list[list[Card]],
    draw: list[Card],
    discard: list[Card],
    top: list[int],
    places: list[int],
    players: tuple[Colour, ...],
    seat: int,
    plays_done: int,
    turn: int,
    max_turns: int,
    bottom: int,
    play: Play,
) -> tuple[int, int, int, bytes] | None: ...
def undo_play(
    record: bytes,
    cells: list[int],
    offsets: list[int],
    table: bytes,
    rows_table: tuple[tuple[tuple[int, ...], ...], ...],
    rows: list[tuple[int, ...]],
    hands: list[list[Card]],
    draw: list[Card],
    discard: list[Card],
    top: list[int],
    places: list[int],
    players: tuple[Colour, ...],
    seat: int,
    plays_done: int,
    turn: int,
    max_turns: int,
    bottom: int,
) -> tuple[int, int, int]: ...
def rollout(
    cells: list[int],
    offsets: list[int],
    table: bytes,
    rows_table: tuple[tuple[tuple[int, ...], ...], ...],
    rows: list[tuple[int, ...]],
    hands: list[list[Card]],
    draw: list[Card],
    discard: list[Card],
    top: list[int],
    places: list[int],
    players: tuple[Colour, ...],
    seat: int,
    plays_done: int,
    turn: int,
    max_turns: int,
    bottom: int,
    random: Callable[[], float],
    getrandbits: Callable[[int], int],
    policy: int,
    plays: int,
    stop_seat: int,
    stop_turn: int,
    hold_seat: int,
) -> tuple[int, int, int, int, int] | None: ...
def decisions(
    cells: list[int],
    offsets: list[int],
    table: bytes,
    hand: list[Card],
    seat: int,
    own: int,
    top: int,
    bottom: int,
    prefix: Sequence[int],
) -> tuple[list[int], int]: ...
def encode_batch(
    games: list[tuple[Any, ...]],
    copies: Sequence[float],
    pawns: int,
    deck_size: int,
    observations: Any,
    masks: Any,
) -> None: ...
def shuffle(cards: list[Card], getrandbits: Callable[[int], int]) -> None: ...
def deal(
    deck: tuple[Card, ...],
    own: tuple[Card, ...],
    discard: tuple[Card, ...],
    sizes: tuple[int, ...],
    seat: int,
    getrandbits: Callable[[int], int],
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]: ...

class SearchNode:
    def __init__(self, mover: int, prior: float = 0.0) -> None: ...
    @property
    def children(self) -> dict[Any, SearchNode]: ...
    mover: int
    visits: int
    avail: int
    total: float
    prior: float

def select(
    children: dict[Play, Any],
    plays: Sequence[Play],
    mover: int,
    random: Callable[[], float],
    c: float,
    bias: float,
) -> Play: ...
