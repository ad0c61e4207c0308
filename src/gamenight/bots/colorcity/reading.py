"""Reading the city: how near each gang is to a line or block, its hands' hit chances, and
the evaluator the Planner's values come from."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from gamenight.colorcity.frame import from_board
from gamenight.colorcity.shots import SIGMAS, Skill
from gamenight.colorcity.state import ColorCityView, set_gaps, winning_sets
from gamenight.colorcity.table import Gang, Table

WIN = 1000.0  # the value of a won game; everything else is measured against it


@dataclass(frozen=True)
class Weights:
    """The Planner's evaluation weights (see ``Evaluator``), in units of WIN = 1000."""

    progress: float = 300.0  # a set whose lacking squares weigh 1 is worth progress / base
    base: float = 3.0  # each further lacking square divides a set's worth by this
    follow_up: float = 0.5  # own chance to finish next time, discounted: they go first
    danger: float = 1.0  # how much the other gang's chance to finish next time counts
    # What having only 1, 2 or 3 cubes left costs (elimination looms).
    cube_cost: tuple[float, float, float] = (250.0, 80.0, 25.0)

    def cubes(self, left: int) -> float:
        if left <= 0:
            return WIN
        return self.cube_cost[left - 1] if left <= len(self.cube_cost) else 0.0


# How much of a single square's hit chance it takes to cover two squares sharing an edge
# (the cube must stop on the edge) or all four around a grid corner.
PAIR_FACTOR = 0.45
QUAD_FACTOR = 0.2


@lru_cache(maxsize=8)
def _sets(size: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Every row, column and 4×4 block, and for each square the indices of its sets."""
    sets = tuple(squares for _, squares in winning_sets(size))
    of_square: list[list[int]] = [[] for _ in range(size * size)]
    for i, squares in enumerate(sets):
        for s in squares:
            of_square[s].append(i)
    return sets, tuple(tuple(x) for x in of_square)


def missing(cells: Sequence[int], gang: Gang) -> list[int]:
    """For each row, column and 4×4 block, how many of its squares are not ``gang``'s: the
    engine's ``set_gaps``, by which it sees a set completed."""
    size = math.isqrt(len(cells))
    return [len(gaps) for _, _, gaps in set_gaps(cells, size, len(cells), gang)]


@lru_cache(maxsize=64)
def hit_chances(table: Table, gang: Gang, skill: Skill) -> tuple[float, ...]:
    """For each square, the chance that a straight, spin-free shot aimed at its centre by
    a hand of ``skill`` covers it: the slide length is lognormal (the speed factor's σ,
    doubled because the slide grows as the speed squared), the sideways miss normal (the
    direction's σ times the distance), and a flat cube covers a square when its centre is
    within half a square plus half a cube, less the margin, of the square's centre."""
    sigma = SIGMAS[skill]
    reach = table.square_mm / 2 + table.cube_mm / 2 - table.coverage_margin_mm
    out = []
    for square in range(table.num_squares):
        forward, _ = from_board(table, gang, *table.square_centre(square))
        s_long = 2 * sigma.speed
        if s_long > 0:
            hi = math.log((forward + reach) / forward) / s_long
            lo = math.log((forward - reach) / forward) / s_long
            p_long = _phi(hi) - _phi(lo)
        else:
            p_long = 1.0
        s_lat = forward * math.tan(math.radians(sigma.direction_deg))
        p_lat = math.erf(reach / (math.sqrt(2) * s_lat)) if s_lat > 0 else 1.0
        out.append(p_long * p_lat)
    return tuple(out)


def _phi(z: float) -> float:
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def finish_chance(size: int, cells: Sequence[int], gang: Gang, chances: Sequence[float]) -> float:
    """The chance that ``gang`` completes a row, column or block with its next pitch: a
    set one square short needs that square hit; two squares sharing an edge need the cube
    on that edge; four around a corner need it on the corner."""
    best = 0.0
    for _, _, lacking in set_gaps(cells, size, 4, gang):
        if not lacking:
            continue
        if len(lacking) == 1:
            p = chances[lacking[0]]
        elif len(lacking) == 2 and _adjacent(size, *lacking):
            p = PAIR_FACTOR * min(chances[s] for s in lacking)
        elif len(lacking) in (3, 4) and _within_two_by_two(size, lacking):
            p = QUAD_FACTOR * min(chances[s] for s in lacking)
        else:
            continue
        best = max(best, p)
    return best


def _adjacent(size: int, a: int, b: int) -> bool:
    (ra, ca), (rb, cb) = divmod(a, size), divmod(b, size)
    return abs(ra - rb) + abs(ca - cb) == 1


def _within_two_by_two(size: int, squares: Iterable[int]) -> bool:
    places = [divmod(s, size) for s in squares]
    rows = [r for r, _ in places]
    cols = [c for _, c in places]
    return max(rows) - min(rows) <= 1 and max(cols) - min(cols) <= 1


@dataclass(frozen=True)
class Reading:
    """What the Planner weighs in the city, summed up for people (docs/ai.md, tests); the
    Planner itself works from ``missing`` and ``Evaluator``."""

    own_missing: int  # the fewest squares the gang to move still lacks in any set
    their_missing: int  # the same for the other gang
    must_block: tuple[int, ...]  # the other gang's squares in its sets one or two short


def read_city(view: ColorCityView) -> Reading:
    gang = view.to_move
    assert gang is not None
    size = view.table.city_size
    sets, _ = _sets(size)
    mine, theirs = missing(view.cells, gang), missing(view.cells, gang.other)
    other = int(gang.other)
    block: set[int] = set()
    for squares, m in zip(sets, theirs, strict=True):
        if m <= 2:
            block.update(s for s in squares if view.cells[s] == other)
    return Reading(min(mine), min(theirs), tuple(sorted(block)))


class Evaluator:
    """The value, for the gang that pitches, of the city after its cube is resolved (the
    other gang then to move), in units where a won game is WIN:

    - a completed row, column or block: +WIN; no cube left: −WIN;
    - progress: progress × Σ over sets of base^(−effort), own sets minus the other gang's,
      where a set's effort is the sum over the squares it lacks of how much harder each is
      to hit than the gang's easiest square (``hit_chances``): a square lacking near the
      gang's HQ counts about 1, one at the far side about 2, since the slide's spread
      grows with its length;
    - danger: −WIN × the other gang's chance to finish at its next pitch (its hand's
      chance to hit the squares it lacks), then +follow_up × WIN × our own chance to
      finish at the pitch after, if it has not;
    - cubes: −cube_cost[own cubes left] + cube_cost[their cubes left].

    Values are cached by the squares the cube covers, which is all a pitch changes.
    """

    def __init__(self, view: ColorCityView, weights: Weights | None = None) -> None:
        gang = view.to_move
        assert gang is not None
        self.weights = weights or Weights()
        self.view = view
        self.gang = gang
        table = view.table
        self.size = table.city_size
        self.cells = list(view.cells)
        _, self.of_square = _sets(self.size)
        self.mine = missing(self.cells, gang)
        self.theirs = missing(self.cells, gang.other)
        turn = view.turn + 1
        self.their_chances = hit_chances(table, gang.other, view.skill_for_turn(gang.other, turn))
        self.my_chances = hit_chances(table, gang, view.skill_for_turn(gang, turn + 1))
        self.my_effort = _effort(self.my_chances)
        self.their_effort = _effort(self.their_chances)
        self.my_sum = self._efforts(gang, self.my_effort)
        self.their_sum = self._efforts(gang.other, self.their_effort)
        self.cache: dict[tuple[tuple[int, ...], int], float] = {}

    def _efforts(self, gang: Gang, effort: Sequence[float]) -> list[float]:
        every = len(self.cells)  # within every set's size: each set's gaps
        return [
            sum(effort[s] for s in gaps)
            for _, _, gaps in set_gaps(self.cells, self.size, every, gang)
        ]

    def value(self, covered: tuple[int, ...], their_cubes_lost: int = 0) -> float:
        key = (covered, their_cubes_lost)
        cached = self.cache.get(key)
        if cached is None:
            cached = self._value(covered, their_cubes_lost)
            self.cache[key] = cached
        return cached

    def _value(self, covered: tuple[int, ...], their_cubes_lost: int) -> float:
        gang, other = self.gang, self.gang.other
        own, theirs_colour = int(gang), int(other)
        cubes = list(self.view.cubes)
        cubes[other] -= their_cubes_lost
        if not covered:
            cubes[gang] -= 1
        mine = self.mine[:]
        my_sum, their_sum = self.my_sum[:], self.their_sum[:]
        cells = self.cells[:]
        for s in covered:
            before = cells[s]
            if before == own:
                continue
            for i in self.of_square[s]:
                mine[i] -= 1
                my_sum[i] -= self.my_effort[s]
                if before == theirs_colour:
                    their_sum[i] += self.their_effort[s]
            cells[s] = own
        if 0 in mine:
            return WIN  # lines and blocks are checked before elimination (D11)
        if cubes[gang] <= 0 and cubes[other] <= 0:
            return 0.0  # both eliminated in one turn: a draw (D11)
        if cubes[gang] <= 0:
            return -WIN
        if cubes[other] <= 0:
            return WIN
        w = self.weights
        progress = sum(math.pow(w.base, -e) for e in my_sum) - sum(
            math.pow(w.base, -e) for e in their_sum
        )
        danger = finish_chance(self.size, cells, other, self.their_chances)
        follow = finish_chance(self.size, cells, gang, self.my_chances)
        return (
            w.progress * progress
            - w.danger * WIN * danger
            + w.follow_up * WIN * follow * (1 - danger)
            - w.cubes(cubes[gang])
            + w.cubes(cubes[other])
        )


def _effort(chances: Sequence[float]) -> tuple[float, ...]:
    best = max(chances)
    return tuple(best / max(c, 1e-3) for c in chances)
