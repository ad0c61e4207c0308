"""The Color City game state: phases, powers, push/pop, the outcome.

A turn goes: the gang to move pitches (phase ``pitch``, action: a Shot); the cube stops; if
the gang still has a power it can use, it decides (phase ``power``, action: a Decision);
then fight, conquer and the victory check happen at once and the other gang is to move.
The decisions that settle the rulebook are numbered in docs/rules/colorcity.md; comments
below cite them as (D1)…(D21).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import NamedTuple

from gamenight.colorcity.actions import Decision, Pitch, parse_action
from gamenight.colorcity.coverage import covered_squares
from gamenight.colorcity.explain import check
from gamenight.colorcity.log import LogEntry, log_entries
from gamenight.colorcity.physics import Flick, Pose
from gamenight.colorcity.position import EMPTY, Position, PositionError
from gamenight.colorcity.shots import Shot, Skill, draw_noise, executed, flick, predict
from gamenight.colorcity.table import DEFAULT_TABLE, Gang, Table
from gamenight.core.errors import GamenightError, RulesError, shown
from gamenight.core.game import ActionSpace, ContinuousActionsError, FiniteSpace
from gamenight.core.outcome import Outcome
from gamenight.core.record import GameRecord
from gamenight.core.state import StackedState

BLOCK = 4


class Phase(StrEnum):
    """What the game waits for: a pitch, a power decision, or nothing (over)."""

    PITCH = "pitch"
    POWER = "power"
    OVER = "over"


POWER_OF = {Gang.GREEN: Decision.LUCKY_DAY, Gang.PURPLE: Decision.PURPLE_PAIN}


class Snapshot(NamedTuple):
    """Everything an action can change, as it was before the action (what ``pop``
    restores)."""

    cells: list[int]
    cubes: list[int]
    powers: list[bool]
    gang: Gang
    phase: Phase
    pending: Pose | None
    turn: int
    key: int
    winner: Gang | None
    reason: str | None
    last_flick: Flick | None
    unsimulated: tuple[Gang, Pitch] | None  # a recorded pitch whose flick is not drawn yet
    last_pitch: Pitch | None


@dataclass(frozen=True)
class ShotSpace:
    """The shots of the pitch phase: continuous, each of position, direction, speed and
    spin between the table's limits."""

    table: Table

    @property
    def finite(self) -> bool:
        """Never: shots are continuous."""
        return False

    def actions(self) -> list[Shot]:
        """Raises ContinuousActionsError: the shots cannot be listed."""
        raise ContinuousActionsError("shots are continuous: sample or check them instead")

    def sample(self, rng: random.Random) -> Shot:
        """A shot uniform over the table's limits, as its notation writes it exactly."""
        t = self.table
        return Shot(
            rng.uniform(-t.launch_half_width, t.launch_half_width),
            rng.uniform(-t.max_direction_deg, t.max_direction_deg),
            rng.uniform(t.min_speed, t.max_speed),
            rng.uniform(-t.max_spin, t.max_spin),
        )

    def contains(self, action: object) -> bool:
        """Whether ``action`` is a shot within the table's limits."""
        if not isinstance(action, Shot):
            return False
        try:
            action.check(self.table)
        except GamenightError:
            return False
        return True


@lru_cache(maxsize=8)
def winning_sets(size: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Every row, every column and every 4×4 block of the city, as (reason, squares) (D10).

    Diagonals are not lines.
    """
    sets: list[tuple[str, tuple[int, ...]]] = []
    for r in range(size):
        sets.append(("line", tuple(r * size + c for c in range(size))))
    for c in range(size):
        sets.append(("line", tuple(r * size + c for r in range(size))))
    for r0 in range(size - BLOCK + 1):
        for c0 in range(size - BLOCK + 1):
            sets.append(
                (
                    "block",
                    tuple((r0 + r) * size + c0 + c for r in range(BLOCK) for c in range(BLOCK)),
                )
            )
    return tuple(sets)


_GANGS = tuple((gang, int(gang)) for gang in Gang)


def set_gaps(
    cells: Sequence[int], size: int, within: int, gang: Gang | None = None
) -> Iterator[tuple[str, Gang, list[int]]]:
    """For every winning set in ``winning_sets`` order and each gang in turn (only ``gang``,
    if given) that lacks at most ``within`` of its squares: the set's reason, the gang and
    the squares it lacks, in order. A set lacking none is completed (D11); one lacking a
    square or two is a threat; with ``within`` the city's size squared, every set."""
    gangs = _GANGS if gang is None else ((gang, int(gang)),)
    for reason, squares in winning_sets(size):
        for gang_, own in gangs:
            gaps: list[int] = []
            for q in squares:
                if cells[q] != own:
                    gaps.append(q)
                    if len(gaps) > within:
                        break
            else:
                yield reason, gang_, gaps


def completed_sets(cells: Sequence[int], size: int) -> dict[Gang, str]:
    """Each gang with a completed line or block on the city ``cells``, with the reason of
    the first one found (``line`` before ``block``, D10–D11); empty while none is."""
    completed: dict[Gang, str] = {}
    for reason, gang, _ in set_gaps(cells, size, 0):
        completed.setdefault(gang, reason)
    return completed


def threats(cells: Sequence[int], size: int, within: int = 2) -> dict[Gang, tuple[int, ...]]:
    """For each gang, the squares (in order) that would complete one of its lines or blocks
    lacking at most ``within`` squares: what to take, or what to block. Raises ValueError
    for a negative ``within``."""
    if within < 0:
        raise ValueError(f"within counts missing squares: 0 or more, not {within}")
    found: dict[Gang, set[int]] = {gang: set() for gang in Gang}
    for _, gang, gaps in set_gaps(cells, size, within):
        found[gang].update(gaps)
    return {gang: tuple(sorted(squares)) for gang, squares in found.items()}


@dataclass(frozen=True)
class ColorCityView:
    """What a seat may know: everything on the table. Only the generator's key, which
    decides the hands' future noise, is left out."""

    table: Table
    seat: int | None
    cells: tuple[int, ...]
    cubes: tuple[int, int]
    powers: tuple[bool, bool]
    to_move: Gang | None
    phase: Phase
    pending: Pose | None
    turn: int
    seats: tuple[tuple[Gang, Skill], ...]
    outcome: Outcome | None

    def legal_decisions(self) -> list[Decision]:
        """The power decisions open, as the state lists them."""
        return decisions_open(self.phase, self.to_move)

    def skill_for_turn(self, gang: Gang, turn: int) -> Skill:
        """The skill of the seat that pitches for ``gang`` in ``turn``."""
        return skill_for_turn(self.seats, gang, turn)

    def threats(self, within: int = 2) -> dict[Gang, tuple[int, ...]]:
        """For each gang, the squares that would complete one of its lines or blocks
        lacking at most ``within`` squares (see the module's ``threats``)."""
        return threats(self.cells, self.table.city_size, within)

    def sample(self, rng: random.Random) -> ColorCityState:
        """A full state consistent with this view: the generator key, the one thing a view
        leaves out, drawn with ``rng``."""
        outcome = self.outcome
        winner = None
        if outcome is not None and len(set(outcome.places)) > 1:
            # Not a draw: the winning gang's seats are first, and any of them names it.
            winner = self.seats[outcome.places.index(1)][0]
        position = Position(
            cells=self.cells,
            cubes=self.cubes,
            powers=self.powers,
            # Over, the gang that was to move no longer shows, nor matters.
            to_move=self.to_move if self.to_move is not None else Gang.GREEN,
            phase=self.phase.value,
            pending=self.pending,
            turn=self.turn,
            key=rng.getrandbits(64),
            seats=self.seats,
            winner=winner,
            reason=None if outcome is None else outcome.reason,
        )
        return ColorCityState(self.table, position)


def skill_for_turn(seats: Sequence[tuple[Gang, Skill]], gang: Gang, turn: int) -> Skill:
    """The skill of the seat that pitches for ``gang`` in ``turn``."""
    return seats[seat_for_turn(seats, gang, turn)][1]


def seat_for_turn(seats: Sequence[tuple[Gang, Skill]], gang: Gang, turn: int) -> int:
    """The seat that pitches for ``gang`` in ``turn``: a gang's seats take turns (D1)."""
    mine = [i for i, (g, _) in enumerate(seats) if g is gang]
    return mine[(turn // 2) % len(mine)]


def decisions_open(phase: Phase, gang: Gang | None) -> list[Decision]:
    """The gang's power and ``pass`` in the power phase; nothing otherwise."""
    if phase is not Phase.POWER or gang is None:
        return []
    return [POWER_OF[gang], Decision.PASS]


class ColorCityState(StackedState[Pitch | Decision, Snapshot, Position, LogEntry]):
    """A game of Color City in progress (or finished)."""

    _RENDERERS = (
        ("gamenight.colorcity.text", "render_plain"),
        ("gamenight.colorcity.svg", "board_svg"),
    )

    def __init__(
        self,
        table: Table,
        position: Position,
        *,
        seed: int | None = None,
        first: Gang | None = None,
    ) -> None:
        self.table = table
        if len(position.cells) != table.num_squares:
            raise RulesError(
                f"the position's city has {len(position.cells)} squares; the table's has"
                f" {table.num_squares}"
            )
        if any(c > table.cubes_per_gang for c in position.cubes):
            raise RulesError(f"a gang has at most {table.cubes_per_gang} cubes")
        self.seats: tuple[tuple[Gang, Skill], ...] = position.seats
        self.seed = seed
        self.first = first
        self._load(position)
        self._stack: list[tuple[Pitch | Decision, Snapshot]] = []
        self._last_flick: Flick | None = None
        self._unsimulated: tuple[Gang, Pitch] | None = None
        self.last_pitch: Pitch | None = None

    # ------------------------------------------------------------------ set-up

    @classmethod
    def new(
        cls,
        *,
        seed: int | None = None,
        first: Gang | str = Gang.GREEN,
        seats: Sequence[tuple[Gang | str, Skill | str] | Gang | str] | None = None,
        table: Table | None = None,
    ) -> ColorCityState:
        """A new game. ``first`` is the gang that starts (the rulebook: the youngest
        player's, D1); ``seats`` lists each player's gang and skill in seat order (default:
        seat 0 Green, seat 1 Purple, both ``normal``)."""
        table = table or DEFAULT_TABLE
        first_gang = first if isinstance(first, Gang) else Gang.parse(first)
        seat_list = _seats(seats)
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RulesError(f"a seed is a whole number, not {shown(seed)}")
        position = Position(
            cells=(EMPTY,) * table.num_squares,
            cubes=(table.cubes_per_gang, table.cubes_per_gang),
            powers=(table.has_power(Gang.GREEN), table.has_power(Gang.PURPLE)),
            to_move=first_gang,
            phase=Phase.PITCH.value,
            pending=None,
            turn=0,
            key=random.Random(seed).getrandbits(64),
            seats=seat_list,
        )
        return cls(table, position, seed=seed, first=first_gang)

    @classmethod
    def from_position(cls, text: str, table: Table | None = None) -> ColorCityState:
        """The state a position string describes, on ``table`` (default: the rulebook's).

        Raises PositionError naming the field for text that is malformed, that does not fit
        the table, or that describes a game still running that play cannot reach: a gang
        without cubes, a completed line or block, or a power phase for a spent power.
        """
        table = table or DEFAULT_TABLE
        position = Position.parse(text)
        _check_position(position, table)
        return cls(table, position)

    def _load(self, p: Position) -> None:
        self.cells = list(p.cells)
        self.cubes = list(p.cubes)
        self.powers = list(p.powers)
        self._gang = p.to_move
        self._phase = Phase(p.phase)
        self.pending = p.pending
        self.turn = p.turn
        self.key = p.key
        self.winner = p.winner
        self.reason = p.reason

    def to_position(self) -> Position:
        """The position as a value (``position()`` gives it as a string)."""
        return Position(
            cells=tuple(self.cells),
            cubes=(self.cubes[0], self.cubes[1]),
            powers=(self.powers[0], self.powers[1]),
            to_move=self._gang,
            phase=self._phase.value,
            pending=self.pending,
            turn=self.turn,
            key=self.key,
            seats=self.seats,
            winner=self.winner,
            reason=self.reason,
        )

    def _identity(self) -> tuple[object, ...]:
        return (self.table, self.to_position())

    # ------------------------------------------------------------------ queries

    @property
    def phase(self) -> Phase:
        """The phase of the turn: ``pitch``, ``power`` or ``over``."""
        return self._phase

    @property
    def to_move(self) -> Gang | None:
        """The gang whose turn it is, or None once the game is over."""
        return None if self._phase is Phase.OVER else self._gang

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._phase is Phase.OVER

    @property
    def actor(self) -> int | None:
        """The seat to act, or None once over: the protocol's name for ``pitcher``. (The
        gang to move is ``to_move``.)"""
        if self._phase is Phase.OVER:
            return None
        return self.seat_for_turn(self._gang, self.turn)

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return len(self.seats)

    @property
    def pitcher(self) -> int | None:
        """The seat that pitches (and decides) now: a gang's seats take its turns in
        rotation (D1)."""
        if self._phase is Phase.OVER:
            return None
        return self.seat_for_turn(self._gang, self.turn)

    def seat_for_turn(self, gang: Gang, turn: int) -> int:
        """The seat that pitches for ``gang`` in ``turn`` (D1)."""
        return seat_for_turn(self.seats, gang, turn)

    @property
    def outcome(self) -> Outcome | None:
        """Places by seat (a gang's seats share its place, ranked as every outcome is: the
        losing gang's seats come after all of the winning gang's, D1) and the reason once
        the game is over: ``line``, ``block``, ``elimination`` or ``turn_cap``; None
        before."""
        if self.reason is None:
            return None
        won: list[tuple[float, ...]] = [
            (float(self.winner is None or gang is self.winner),) for gang, _ in self.seats
        ]
        return Outcome(tuple(Outcome.places_from_scores(won)), self.reason)

    def record(self, names: Sequence[str] | None = None) -> GameRecord:
        """The JSON game record of this game so far (see gamenight.colorcity.record);
        raises RecordError for a game not started with ``new``."""
        # Imported here: the record module builds states, so it imports this one.
        from gamenight.colorcity.record import to_record

        return to_record(self, names)

    @classmethod
    def replay(cls, record: GameRecord | str | bytes) -> ColorCityState:
        """The state a record (or its JSON text or UTF-8 bytes) replays to; raises
        RecordError, and nothing else, if it does not."""
        from gamenight.colorcity.record import replay

        return replay(record)

    @property
    def movers(self) -> list[int]:
        """The seat that made each action pushed so far: ``actions[i]`` was ``movers[i]``'s."""
        return [self.seat_for_turn(snapshot.gang, snapshot.turn) for _, snapshot in self._stack]

    def _log_entries(self, count: int) -> list[LogEntry]:
        return log_entries(self, count)

    def standing(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's (squares of its gang's colour,) now: what decides the game at the
        turn cap (D12); higher is better, and a gang's seats share it."""
        return tuple((self.squares(gang),) for gang, _ in self.seats)

    def squares(self, gang: Gang) -> int:
        """How many squares of the city are in ``gang``'s colour."""
        return self.cells.count(int(gang))

    def owner(self, square: int) -> Gang | None:
        """The gang whose colour ``square`` is in, or None while it is empty."""
        c = self.cells[square]
        return None if c == EMPTY else Gang(c)

    def covered(self, pose: Pose) -> tuple[int, ...]:
        """The squares a cube at ``pose`` covers (the rules' own function, D3)."""
        return covered_squares(self.table, pose)

    def legal_decisions(self) -> list[Decision]:
        """The power decisions open now: the gang's power and ``pass``; empty outside the
        power phase."""
        return decisions_open(self._phase, self._gang)

    def legal_actions(self) -> list[Decision]:
        """The protocol's finite actions: the decisions of the power phase, nothing once
        over. Raises ContinuousActionsError in the pitch phase, whose shots are continuous
        (``action_space()`` samples and checks them)."""
        if self._phase is Phase.PITCH:
            raise ContinuousActionsError("shots are continuous: use action_space()")
        return self.legal_decisions()

    def action_space(self) -> ActionSpace[Shot | Decision]:
        """The shots of the pitch phase (continuous), else the decisions open (finite)."""
        if self._phase is Phase.PITCH:
            return ShotSpace(self.table)
        return FiniteSpace(tuple(self.legal_decisions()))

    def parse_action(self, text: str) -> Shot | Decision:
        """The shot or decision ``text`` writes (notation only; raises NotationError)."""
        return parse_action(text)

    def expects(self) -> str | None:
        """``"shot"``, ``"decision"`` or None once the game is over."""
        return {Phase.PITCH: "shot", Phase.POWER: "decision", Phase.OVER: None}[self._phase]

    @property
    def last_flick(self) -> Flick | None:
        """The last pitch's flick, for display (None before the first pitch). A pitch
        applied from a record was not simulated (D17); its flick is re-simulated the first
        time it is asked for and kept only if it ends at the recorded pose, so a replayed
        game shows the trajectory the live game did (on the same machine and MuJoCo
        version) and never one that contradicts the record."""
        if self._unsimulated is not None:
            gang, pitch = self._unsimulated
            again = flick(self.table, gang, executed(pitch.shot, pitch.noise))
            self._last_flick = again if tuple(again.pose) == tuple(pitch.pose) else None
            self._unsimulated = None
        return self._last_flick

    @last_flick.setter
    def last_flick(self, value: Flick | None) -> None:
        self._last_flick, self._unsimulated = value, None

    def predict(self, shot: Shot) -> Flick:
        """Where ``shot`` would go from the gang to move's HQ, without noise (for UIs and
        bots); the state is unchanged."""
        return predict(self.table, self._gang, shot)

    def view(self, seat: int | None) -> ColorCityView:
        """What ``seat`` may know (None: a spectator): all but the generator's key. Raises
        ValueError for a seat that does not exist."""
        if seat is not None and not 0 <= seat < len(self.seats):
            raise ValueError(f"there is no seat {seat}")
        return ColorCityView(
            table=self.table,
            seat=seat,
            cells=tuple(self.cells),
            cubes=(self.cubes[0], self.cubes[1]),
            powers=(self.powers[0], self.powers[1]),
            to_move=self.to_move,
            phase=self._phase,
            pending=self.pending,
            turn=self.turn,
            seats=self.seats,
            outcome=self.outcome,
        )

    # ------------------------------------------------------------------ push / pop

    def push(self, action: Shot | Pitch | Decision | str) -> Pitch | Decision:
        """Play an action: a Shot (pitched with the seat's noise and simulated), a recorded
        Pitch (applied without simulating), a Decision, or the notation of a shot or a
        decision. Returns what went on the stack. Raises, changing nothing, if illegal."""
        if isinstance(action, str):
            action = parse_action(action)
        check(self, action)  # the rules' one check (gamenight.colorcity.explain)
        if isinstance(action, Decision):
            self._stack.append((action, self._snapshot()))
            self._decide(action)
            return action
        if isinstance(action, Pitch):
            shot = action.shot.check(self.table)
            pose = Pose.from_values(tuple(action.pose))
            skill = skill_for_turn(self.seats, self._gang, self.turn)
            noise, key = draw_noise(self.key, skill)
            pitch = Pitch(shot, noise, pose)
            self._stack.append((pitch, self._snapshot()))
            self.key = key
            self._pitched(pitch, None)
            self._unsimulated = (self._stack[-1][1].gang, pitch)
            return pitch
        if isinstance(action, Shot):
            shot = action.check(self.table)
            skill = skill_for_turn(self.seats, self._gang, self.turn)
            noise, key = draw_noise(self.key, skill)
            result = flick(self.table, self._gang, executed(shot, noise))
            pitch = Pitch(shot, noise, result.pose)
            self._stack.append((pitch, self._snapshot()))
            self.key = key
            self._pitched(pitch, result)
            return pitch
        raise AssertionError("explain.check refuses every other action")

    def push_unchecked(self, action: Shot | Pitch | Decision) -> Pitch | Decision:
        """The protocol's fast path; in Color City the checks cost nothing next to the
        physics, so it is ``push``."""
        return self.push(action)

    def pop(self) -> Pitch | Decision:
        """Take back the last action, restoring everything exactly."""
        if not self._stack:
            raise IndexError("no action to take back")
        action, snapshot = self._stack.pop()
        self._restore(snapshot)
        return action

    def _snapshot(self) -> Snapshot:
        return Snapshot(
            self.cells[:],
            self.cubes[:],
            self.powers[:],
            self._gang,
            self._phase,
            self.pending,
            self.turn,
            self.key,
            self.winner,
            self.reason,
            self._last_flick,
            self._unsimulated,
            self.last_pitch,
        )

    def _restore(self, snapshot: Snapshot) -> None:
        (
            cells,
            cubes,
            powers,
            self._gang,
            self._phase,
            self.pending,
            self.turn,
            self.key,
            self.winner,
            self.reason,
            self._last_flick,
            self._unsimulated,
            self.last_pitch,
        ) = snapshot
        # Copies, because copy() shares the stack (and its snapshots) between states.
        self.cells, self.cubes, self.powers = cells[:], cubes[:], powers[:]

    # ------------------------------------------------------------------ the turn

    def _pitched(self, pitch: Pitch, result: Flick | None) -> None:
        self.pending = pitch.pose
        self.last_pitch = pitch
        self.last_flick = result
        if self._power_open():
            self._phase = Phase.POWER  # decided after seeing where the cube stopped (D6)
        else:
            self._resolve()

    def _power_open(self) -> bool:
        if self._gang is Gang.GREEN:
            return self.powers[0]
        return self.powers[1] and self.cubes[Gang.GREEN] > 0

    def _decide(self, decision: Decision) -> None:
        if decision is Decision.LUCKY_DAY:
            # The pitch is void: the same cube is pitched again, in the same turn (D7).
            self.powers[0] = False
            self.pending = None
            self._phase = Phase.PITCH
            return
        if decision is Decision.PURPLE_PAIN:
            self.powers[1] = False
            self.cubes[Gang.GREEN] -= 1  # all of Green's cubes wait in its HQ now (D8)
        self._resolve()

    def _resolve(self) -> None:
        """Fight, conquer, victory check, next turn."""
        gang, pose = self._gang, self.pending
        assert pose is not None
        self.pending = None
        squares = covered_squares(self.table, pose)
        if not squares:
            self.cubes[gang] -= 1  # destroyed: covers no square, or fell off (D9)
        else:
            for sq in squares:
                self.cells[sq] = int(gang)  # overwrites the other gang's colour (D10)
        self.turn += 1
        if not self._check_victory():
            cap = self.table.max_turns
            if cap is not None and self.turn >= cap:
                self._end_at_cap()
            else:
                self._gang = gang.other
                self._phase = Phase.PITCH

    def _check_victory(self) -> bool:
        """Lines and blocks first, then elimination (D11)."""
        completed = completed_sets(self.cells, self.table.city_size)
        if completed:
            if len(completed) == 1:
                (self.winner, self.reason), *_ = completed.items()
            else:
                self.winner, self.reason = None, "line"
            self._phase = Phase.OVER
            return True
        out = [g for g in Gang if self.cubes[g] == 0]
        if out:
            self.winner = out[0].other if len(out) == 1 else None
            self.reason = "elimination"
            self._phase = Phase.OVER
            return True
        return False

    def _end_at_cap(self) -> None:
        """At the turn cap the gang with more squares wins; equal is a draw (D12)."""
        green, purple = self.squares(Gang.GREEN), self.squares(Gang.PURPLE)
        self.winner = None if green == purple else Gang.GREEN if green > purple else Gang.PURPLE
        self.reason = "turn_cap"
        self._phase = Phase.OVER


def _check_position(position: Position, table: Table) -> None:
    """Refuse a position that does not fit ``table``, or a running game that the victory
    check (D11) would already have ended or whose power phase could not be open (D6): such
    a game would play on past its end."""
    side = table.city_size
    if len(position.cells) != table.num_squares:
        raise PositionError(
            f"city: the table's city is {side}×{side} squares, not {position.size}×{position.size}"
        )
    for gang in Gang:
        if position.cubes[gang] > table.cubes_per_gang:
            raise PositionError(
                f"cubes: a gang has at most {table.cubes_per_gang} cubes; {gang.label} has"
                f" {position.cubes[gang]}"
            )
    if position.phase == Phase.OVER.value:
        return
    for gang in Gang:
        if position.cubes[gang] == 0:
            raise PositionError(
                f"cubes: {gang.label} has no cube left, so it is eliminated and the game is"
                " over (D11); a game still running has cubes on both sides"
            )
    completed = completed_sets(position.cells, side)
    if completed:
        gang, reason = next(iter(completed.items()))
        shape = f"row or column of {side}" if reason == "line" else f"{BLOCK}×{BLOCK} block"
        raise PositionError(
            f"city: {gang.label} has a full {shape}, so it has won (D11); a game still"
            " running has none"
        )
    if position.phase == Phase.POWER.value:
        mover = position.to_move
        if not position.powers[mover]:
            raise PositionError(
                f"phase: {mover.label}'s power is spent, so there is no power phase (D6)"
            )


def _seats(
    seats: Sequence[tuple[Gang | str, Skill | str] | Gang | str] | None,
) -> tuple[tuple[Gang, Skill], ...]:
    if seats is None:
        return ((Gang.GREEN, Skill.NORMAL), (Gang.PURPLE, Skill.NORMAL))
    out: list[tuple[Gang, Skill]] = []
    for seat in seats:
        if isinstance(seat, tuple):
            gang, skill = seat
        else:
            gang, skill = seat, Skill.NORMAL
        g = gang if isinstance(gang, Gang) else Gang.parse(gang)
        s = skill if isinstance(skill, Skill) else Skill.parse(skill)
        out.append((g, s))
    for gang in Gang:
        if not any(g is gang for g, _ in out):
            raise RulesError(f"{gang.label} needs at least one seat")
    return tuple(out)
