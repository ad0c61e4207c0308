"""Color City rollouts without physics: a model of two bots' hands, for chances to win.

A flick costs milliseconds of MuJoCo; a rollout by the model costs a few dozen
microseconds a pitch, so a position's chance can be the share of many rollouts. In the model
each gang aims at the square that best serves a line or block of its own (or breaks one of
the other gang's), weighted by how likely its hand is to hit that square
(``bots.colorcity.reading.hit_chances``, the Planner's own model of a hand); the cube covers
the square aimed at with that chance, else it stops a square short or long (most misses
are along the path, where the slide's spread is), a square to the side, or off the city,
destroyed. Green takes Lucky Day on its first miss; Purple takes Purple Pain once Green is
down to two cubes. Lines, blocks, elimination and the turn cap end the game as the rules do.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from gamenight.analysis.report import TEMPER, tempered
from gamenight.bots.colorcity.reading import hit_chances
from gamenight.colorcity.shots import Skill
from gamenight.colorcity.state import ColorCityState, Phase, skill_for_turn, winning_sets
from gamenight.colorcity.table import Gang, Table

# Where a missed cube goes: along its path (a square short or long), to a side, or off.
ALONG, ASIDE = 0.55, 0.3
# The rest of the misses leave the city: the cube is destroyed (D9).
# A threat the model's gang breaks before its own equal one: its set lacking this few.
BLOCK_AT = 2
# The share of rollouts in which a gang defends (see ``chances``).
GUARDING = 0.5
# The longest rollout: a game the model cannot end otherwise ends on squares, as at a cap.
MOST_PITCHES = 120


@dataclass(frozen=True)
class Board:
    """The city's sets, and for each square the sets through it and its neighbours."""

    size: int
    sets: tuple[tuple[int, ...], ...]
    through: tuple[tuple[int, ...], ...]


@lru_cache(maxsize=8)
def board(size: int) -> Board:
    sets = tuple(squares for _, squares in winning_sets(size))
    through: list[list[int]] = [[] for _ in range(size * size)]
    for i, squares in enumerate(sets):
        for s in squares:
            through[s].append(i)
    return Board(size, sets, tuple(tuple(t) for t in through))


@lru_cache(maxsize=64)
def ease(table: Table, gang: Gang, skill: Skill) -> tuple[float, ...]:
    """For each set, the mean chance that ``gang``'s hand hits one of its squares: of two
    sets lacking as many squares, the model aims at the easier (its own side of the city)."""
    hits = hit_chances(table, gang, skill)
    return tuple(
        sum(hits[s] for s in squares) / len(squares) for squares in board(table.city_size).sets
    )


def target(
    cells: Sequence[int],
    lack: Sequence[Sequence[int]],
    gang: Gang,
    hits: Sequence[float],
    eases: tuple[Sequence[float], Sequence[float]],
    b: Board,
    guards: bool = True,
) -> int:
    """The square the model's gang aims at: in the set it lacks least of (the easier of
    equals), the lacking square its hand hits best; but in the other gang's set when that
    one lacks fewer, or as few and at most BLOCK_AT (its square there retaken, to break
    it)."""
    own, other = int(gang), int(gang.other)
    mine, theirs = lack[own], lack[other]
    easy, their_easy = eases
    sets = range(len(b.sets))
    i = min(sets, key=lambda k: mine[k] - easy[k])
    j = min(sets, key=lambda k: theirs[k] - their_easy[k])
    if guards and (theirs[j] < mine[i] or theirs[j] <= min(mine[i], BLOCK_AT)):
        squares = [s for s in b.sets[j] if cells[s] == other]
    else:
        squares = [s for s in b.sets[i] if cells[s] != own]
    return max(squares, key=hits.__getitem__)


def landing(square: int, gang: Gang, hit: float, size: int, rng: random.Random) -> int | None:
    """Where the model's cube aimed at ``square`` stops: that square with chance ``hit``,
    else a neighbour (along the path or aside) or None, off the city."""
    u = rng.random()
    if u < hit:
        return square
    row, col = divmod(square, size)
    u = (u - hit) / (1 - hit) if hit < 1 else 0.0
    if u < ALONG:
        row += 1 if (u < ALONG / 2) == (gang is Gang.GREEN) else -1
    elif u < ALONG + ASIDE:
        col += 1 if u < ALONG + ASIDE / 2 else -1
    else:
        return None
    if not (0 <= row < size and 0 <= col < size):
        return None
    return row * size + col


@dataclass
class Game:
    """The little the model plays with, copied from a state."""

    table: Table
    seats: tuple[tuple[Gang, Skill], ...]
    cells: list[int]
    cubes: list[int]
    powers: list[bool]
    gang: Gang
    turn: int
    lack: list[list[int]]  # for each gang, how many squares of each set are not its
    form: tuple[float, float]  # for each gang, the chance its cube stays on the city
    guards: tuple[bool, bool] = (True, True)  # for each gang, whether it breaks threats

    @classmethod
    def of(cls, state: ColorCityState, shape: tuple[float, float]) -> Game:
        gang = state.to_move
        assert gang is not None
        cells = list(state.cells)
        sets = board(state.table.city_size).sets
        lack = [[sum(1 for s in squares if cells[s] != g) for squares in sets] for g in Gang]
        return cls(
            state.table,
            state.seats,
            cells,
            list(state.cubes),
            list(state.powers),
            gang,
            state.turn,
            lack,
            shape,
        )

    def skill(self, gang: Gang) -> Skill:
        return skill_for_turn(self.seats, gang, self.turn)

    def resolve(self, covered: Sequence[int]) -> Gang | bool | None:
        """Paint ``covered`` (none: the cube is destroyed), check victory, pass the turn.
        Returns the winner, None for a draw, or False while the game goes on."""
        gang = self.gang
        own = int(gang)
        if not covered:
            self.cubes[gang] -= 1
        through = board(self.table.city_size).through
        mine, theirs = self.lack[own], self.lack[1 - own]
        for sq in covered:
            was = self.cells[sq]
            if was == own:
                continue
            self.cells[sq] = own
            for i in through[sq]:
                mine[i] -= 1
                if was == 1 - own:
                    theirs[i] += 1
        self.turn += 1
        done = {g for g in Gang if 0 in self.lack[g]}
        if done:
            return next(iter(done)) if len(done) == 1 else None
        out = [g for g in Gang if self.cubes[g] <= 0]
        if out:
            return out[0].other if len(out) == 1 else None
        cap = self.table.max_turns
        if cap is not None and self.turn >= cap:
            return self.on_squares()
        self.gang = gang.other
        return False

    def on_squares(self) -> Gang | None:
        green, purple = self.cells.count(int(Gang.GREEN)), self.cells.count(int(Gang.PURPLE))
        return None if green == purple else Gang.GREEN if green > purple else Gang.PURPLE

    def pitch(self, rng: random.Random, aim: Sequence[int] | None = None) -> Gang | bool | None:
        """One turn of the model (``aim``: the squares the gang's cube is aimed to cover
        this turn, empty for a cube aimed off the city; None: the model's own aim)."""
        gang, size, table = self.gang, self.table.city_size, self.table
        skill, their_skill = self.skill(gang), self.skill(gang.other)
        hits = hit_chances(table, gang, skill)
        eases = (ease(table, gang, skill), ease(table, gang.other, their_skill))
        if gang is Gang.PURPLE and self.powers[1] and self.cubes[Gang.GREEN] <= 2:
            self.powers[1] = False
            self.cubes[Gang.GREEN] -= 1
        while True:
            if aim is None:
                square = target(
                    self.cells, self.lack, gang, hits, eases, board(size), self.guards[gang]
                )
                wanted: Sequence[int] = (square,)
            else:
                wanted = aim
            if not wanted or rng.random() >= self.form[gang]:
                covered: Sequence[int] = ()
            else:
                stop = landing(wanted[0], gang, hits[wanted[0]], size, rng)
                covered = wanted if stop == wanted[0] else (() if stop is None else (stop,))
            if gang is Gang.GREEN and self.powers[0] and not set(covered) & set(wanted):
                self.powers[0] = False  # Lucky Day: the same cube again (D7)
                aim = None
                continue
            return self.resolve(covered)


# The prior of a gang's form: as if three of its four cubes so far had stayed on the city.
FORM_PRIOR = (3.0, 1.0)


def form(state: ColorCityState) -> tuple[float, float]:
    """For each gang, the chance that its next cube stays on the city, by how its cubes
    have done so far in this game (a Beta prior of FORM_PRIOR): a steady hand's cubes stay,
    a wild one's fly off. It needs the state's actions; a state without them has the prior."""
    from gamenight.colorcity.actions import Pitch

    stayed, pitched = [0, 0], [0, 0]
    for action, seat in zip(state.actions, state.movers, strict=True):
        if isinstance(action, Pitch):
            gang = state.seats[seat][0]
            pitched[gang] += 1
            stayed[gang] += bool(state.covered(action.pose))
    a, b = FORM_PRIOR
    return (
        (stayed[0] + a) / (pitched[0] + a + b),
        (stayed[1] + a) / (pitched[1] + a + b),
    )


def play_out(game: Game, rng: random.Random, aim: Sequence[int] | None = None) -> Gang | None:
    """The winner of the model's game from here (None: a draw)."""
    result = game.pitch(rng, aim)
    for _ in range(MOST_PITCHES):
        if result is not False:
            return result  # type: ignore[return-value]
        result = game.pitch(rng)
    return game.on_squares() if result is False else result  # type: ignore[return-value]


def chances(
    state: ColorCityState,
    rollouts: int,
    seed: int,
    aim: Sequence[int] | None = None,
    *,
    temper: bool = True,
) -> tuple[float, ...]:
    """Each seat's chance to win from ``state`` by the model: its gang's share of
    ``rollouts`` rollouts (a draw counts half), tempered (``analysis.report.TEMPER``; not
    with ``temper=False``). In the power phase the cube waiting is resolved as the model
    decides. ``aim``: the squares the gang to move aims at now."""
    outcome = state.outcome
    if outcome is not None:
        best = min(outcome.places)
        firsts = [seat for seat, place in enumerate(outcome.places) if place == best]
        draw = len(firsts) == len(outcome.places)
        return tuple(0.5 if draw else 1.0 if s in firsts else 0.0 for s in range(state.num_players))
    rng = random.Random(seed)
    wins = {Gang.GREEN: 0.0, Gang.PURPLE: 0.0}
    pending = None
    if state.phase is Phase.POWER:
        assert state.pending is not None
        pending = state.covered(state.pending)
    shape = form(state)
    for _ in range(rollouts):
        game = Game.of(state, shape)
        # Whether each gang breaks the other's threats, drawn anew for each rollout: the
        # ladder's simpler bots only build, the Planner defends, and a position's chance
        # must hold for either.
        game.guards = (rng.random() < GUARDING, rng.random() < GUARDING)
        if pending is not None:
            result = first_pending(game, pending, rng)
            winner = result if result is not False else play_out(game, rng)
        else:
            winner = play_out(game, rng, aim)
        if winner is None:
            wins[Gang.GREEN] += 0.5
            wins[Gang.PURPLE] += 0.5
        else:
            wins[winner] += 1  # type: ignore[index]
    shares = (wins[Gang.GREEN] / rollouts, wins[Gang.PURPLE] / rollouts)
    if temper:
        shares = tempered(shares, *TEMPER["colorcity"])  # type: ignore[assignment]
    return tuple(shares[gang] for gang, _ in state.seats)


def first_pending(game: Game, covered: Sequence[int], rng: random.Random) -> Gang | bool | None:
    """Resolve the cube waiting in the power phase as the model decides its power."""
    if game.gang is Gang.GREEN and not covered and game.powers[0]:
        game.powers[0] = False
        return game.pitch(rng)
    if game.gang is Gang.PURPLE and game.powers[1] and game.cubes[Gang.GREEN] <= 2:
        game.powers[1] = False
        game.cubes[Gang.GREEN] -= 1
    return game.resolve(covered)
