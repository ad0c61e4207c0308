"""Color City bots: Random, Simple and Planner. Each sees only its seat's view.

A bot's ``choose(view)`` returns a ``Shot`` in the pitch phase and a ``Decision`` in the
power phase. The hands' noise comes from the game's generator, whose key the view leaves
out; whatever a bot imagines about noise it draws from its own seeded generator.

The Planner (see docs/ai.md, "Color City") reads the city, screens every placement of the
cube with a cheap model of its own hand, aims the best few against the noise-free physics
and picks the shot with the best Monte Carlo value over its own hand's noise.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from statistics import NormalDist

from gamenight.bots.base import Budget, SeededBot
from gamenight.colorcity.actions import Decision
from gamenight.colorcity.coverage import covered_squares
from gamenight.colorcity.position import EMPTY
from gamenight.colorcity.shots import (
    SIGMAS,
    Shot,
    Skill,
    executed,
    flick,
    noise_from,
    normals,
    predict,
)
from gamenight.colorcity.state import (
    ColorCityState,
    ColorCityView,
    Phase,
    ShotSpace,
    winning_sets,
)
from gamenight.colorcity.table import Gang, Table
from gamenight.core.game import registry
from gamenight.core.outcome import win_share

Action = Shot | Decision

# ---------------------------------------------------------------------- the view


def to_board(table: Table, gang: Gang, forward: float, right: float) -> tuple[float, float]:
    """The board point ``forward`` mm ahead of ``gang``'s launch line and ``right`` mm to its
    right of the city's centre line."""
    ox, oy, heading = table.launch_frame(gang)
    across = heading - math.pi / 2
    return (
        ox + forward * math.cos(heading) + right * math.cos(across),
        oy + forward * math.sin(heading) + right * math.sin(across),
    )


def from_board(table: Table, gang: Gang, x: float, y: float) -> tuple[float, float]:
    """(forward, right) of board point (x, y) in ``gang``'s frame; inverse of to_board."""
    ox, oy, heading = table.launch_frame(gang)
    dx, dy = x - ox, y - oy
    forward = dx * math.cos(heading) + dy * math.sin(heading)
    right = dx * math.sin(heading) - dy * math.cos(heading)
    return forward, right


# ---------------------------------------------------------------------- Random


class RandomBot(SeededBot):
    """A shot uniform over the valid ranges (position, direction, speed and spin each
    uniform between the table's limits — most such shots miss the city, which is the
    point of a baseline), and a power decision uniform over the legal ones."""

    name = "random"

    def choose(self, view: ColorCityView) -> Action:
        if view.phase is Phase.POWER:
            return self.rng.choice(view.legal_decisions())
        return ShotSpace(view.table).sample(self.rng)


# ---------------------------------------------------------------------- Simple


def aim(table: Table, gang: Gang, x: float, y: float) -> Shot:
    """A spin-free shot whose textbook slide ends at board point (x, y) mm."""
    forward, right = from_board(table, gang, x, y)
    position = max(-table.launch_half_width, min(table.launch_half_width, right))
    left = position - right  # what is left to cover sideways, to the gang's left
    direction = math.degrees(math.atan2(left, forward))
    direction = max(-table.max_direction_deg, min(table.max_direction_deg, direction))
    distance = math.hypot(forward, left) / 1000
    speed = math.sqrt(2 * table.friction * table.gravity * distance)
    speed = max(table.min_speed, min(table.max_speed, speed))
    return Shot(position, direction, speed, 0.0)


def wobbled(table: Table, shot: Shot, aim: Skill, rng: random.Random) -> Shot:
    """The shot as a bot whose own aim is only as good as a hand of skill ``aim`` sends it:
    the lower levels' handicap, drawn from the bot's generator before the seat's hand adds
    its own noise. A dexterity game's levels should differ in dexterity: a larger search
    budget alone barely shows against the hands' noise (docs/ai.md)."""
    if aim is Skill.EXACT:
        return shot
    return _clamp(table, executed(shot, noise_from(SIGMAS[aim], normals(rng))))


class SimpleBot(SeededBot):
    """Aims at the square that most extends one of its own lines or blocks, picks the
    speed from the textbook slide and corrects it once against the noise-free physics.
    Lucky Day when the cube gained nothing; Purple Pain at once. ``aim``: see ``wobbled``."""

    name = "simple"

    def __init__(
        self, seed: int | None = None, budget: Budget | None = None, aim: Skill = Skill.EXACT
    ) -> None:
        super().__init__(seed, budget)
        self.aim = Skill(aim)

    def target(self, view: ColorCityView) -> int:
        """The square that most extends one of its own lines or blocks (ties at random)."""
        gang = view.to_move
        assert gang is not None
        own = int(gang)
        cells = view.cells
        best: list[int] = []
        best_score = -1
        score = dict.fromkeys(range(view.table.num_squares), 0)
        for _, squares in winning_sets(view.table.city_size):
            mine = sum(1 for s in squares if cells[s] == own)
            theirs = sum(1 for s in squares if cells[s] not in (own, EMPTY))
            value = mine * 2 + theirs  # retaking their squares helps too
            for s in squares:
                if cells[s] != own:
                    score[s] = max(score[s], value)
        for s, v in score.items():
            if cells[s] == own:
                continue
            if v > best_score:
                best, best_score = [s], v
            elif v == best_score:
                best.append(s)
        return self.rng.choice(best) if best else self.rng.randrange(view.table.num_squares)

    def shot(self, view: ColorCityView) -> Shot:
        gang = view.to_move
        assert gang is not None
        table = view.table
        tx, ty = table.square_centre(self.target(view))
        shot = aim(table, gang, tx, ty)
        # One correction from the noise-free simulation, which slides a little differently.
        pose = predict(table, gang, shot).pose
        ox, oy, _ = table.launch_frame(gang)
        wanted = math.dist((tx, ty), (ox, oy))
        got = math.dist((pose.x, pose.y), (ox, oy))
        if got > 1:
            speed = shot.speed * math.sqrt(wanted / got)
            shot = shot._replace(speed=max(table.min_speed, min(table.max_speed, speed)))
        return shot

    def decision(self, view: ColorCityView) -> Decision:
        assert view.pending is not None
        if view.to_move is Gang.GREEN:
            covered = covered_squares(view.table, view.pending)
            gained = sum(1 for s in covered if view.cells[s] != int(Gang.GREEN))
            return Decision.LUCKY_DAY if gained == 0 else Decision.PASS
        return Decision.PURPLE_PAIN  # a cube destroyed is always worth something

    def choose(self, view: ColorCityView) -> Action:
        if view.phase is Phase.POWER:
            return self.decision(view)
        return wobbled(view.table, self.shot(view), self.aim, self.rng)


# ---------------------------------------------------------------------- reading the city

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
    """For each row, column and 4×4 block, how many of its squares are not ``gang``'s."""
    size = math.isqrt(len(cells))
    sets, _ = _sets(size)
    own = int(gang)
    return [sum(1 for s in squares if cells[s] != own) for squares in sets]


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
    sets, _ = _sets(size)
    own = int(gang)
    best = 0.0
    for squares in sets:
        lacking = [s for s in squares if cells[s] != own]
        if not lacking or len(lacking) > 4:
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
        self.sets, self.of_square = _sets(self.size)
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
        own = int(gang)
        return [sum(effort[s] for s in squares if self.cells[s] != own) for squares in self.sets]

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


# ---------------------------------------------------------------------- aiming

_SPEED_GRID = tuple(round(0.8 + 0.02 * i, 4) for i in range(66))  # 0.8 … 2.1 m/s


@lru_cache(maxsize=32)
def slide_table(table: Table, spin: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(slide lengths, speeds) of straight flicks with ``spin`` over 0.8–2.1 m/s, from the
    physics itself, in increasing order of slide: the analytic first guess of an aim."""
    rows = []
    for speed in _SPEED_GRID:
        if not table.min_speed <= speed <= table.max_speed:
            continue
        pose = predict(table, Gang.GREEN, Shot(0.0, 0.0, speed, spin)).pose
        if pose.on_table:
            rows.append((pose.y + table.launch_y, speed))
    rows.sort()
    return tuple(r[0] for r in rows), tuple(r[1] for r in rows)


def speed_for(table: Table, spin: float, distance: float) -> float:
    """The speed whose straight flick slides ``distance`` mm, interpolated in the square
    root of the slide (which the speed follows nearly linearly)."""
    slides, speeds = slide_table(table, spin)
    if len(slides) < 2:
        return math.sqrt(2 * table.friction * table.gravity * distance / 1000)
    i = min(max(bisect.bisect_left(slides, distance), 1), len(slides) - 1)
    a, b = math.sqrt(max(slides[i - 1], 0.0)), math.sqrt(max(slides[i], 0.0))
    t = (math.sqrt(max(distance, 0.0)) - a) / (b - a) if b > a else 0.0
    speed = speeds[i - 1] + t * (speeds[i] - speeds[i - 1])
    return max(table.min_speed, min(table.max_speed, speed))


@cache
def aim_at(table: Table, gang: Gang, x: float, y: float, spin: float) -> Shot:
    """A shot whose noise-free flick stops at (x, y): straight from the launch point in
    line with the target (angled only when that is off the line), the speed from the
    slide table, then corrected twice against ``predict``. The physics is deterministic,
    so aims are cached for the life of the process."""
    forward, right = from_board(table, gang, x, y)
    half = table.launch_half_width
    position = max(-half, min(half, right))
    direction = math.degrees(math.atan2(position - right, forward))
    distance = math.hypot(forward, position - right)
    shot = _clamp(table, Shot(position, direction, speed_for(table, spin, distance), spin))
    for _ in range(2):
        pose = predict(table, gang, shot).pose
        if not pose.on_table:
            shot = shot._replace(speed=shot.speed * 0.97)
            continue
        got_forward, got_right = from_board(table, gang, pose.x, pose.y)
        start_right = shot.position
        want = math.hypot(forward, right - start_right)
        got = math.hypot(got_forward, got_right - start_right)
        if abs(got - want) < 0.5 and abs(got_right - right) < 0.5:
            break
        speed = shot.speed * math.sqrt(want / got) if got > 1 else shot.speed
        # Sideways misses are corrected by moving along the line (exact, D15) while the
        # shot is straight; else by turning it.
        if shot.direction == 0.0 and abs(shot.position - (got_right - right)) <= half:
            shot = shot._replace(position=shot.position - (got_right - right), speed=speed)
        else:
            turn = math.degrees(
                math.atan2(right - start_right, forward)
                - math.atan2(got_right - start_right, got_forward)
            )
            shot = shot._replace(direction=shot.direction - turn, speed=speed)
        shot = _clamp(table, shot)
    return shot


def _clamp(table: Table, shot: Shot) -> Shot:
    def clip(v: float, limit: float) -> float:
        return max(-limit, min(limit, v))

    return Shot(
        clip(shot.position, table.launch_half_width),
        clip(shot.direction, table.max_direction_deg),
        max(table.min_speed, min(table.max_speed, shot.speed)),
        clip(shot.spin, table.max_spin),
    )


# ---------------------------------------------------------------------- the Planner


@dataclass(frozen=True)
class Candidate:
    x: float  # where the cube should stop, board mm
    y: float
    target: int  # the square it is meant to cover
    spin: float
    screen: float  # the cheap model's value


@dataclass
class Plan:
    """The Planner's last pitch decision, kept for the power decision and for measuring."""

    key: tuple[object, ...]
    shot: Shot
    target: int
    value: float  # Monte Carlo mean value of the chosen shot
    candidates: int
    flicks: int


# The screening model's noise: a product grid of standard-normal quantiles (12 along the
# path, where the spread matters most, 5 across), equally weighted. Deterministic, so every
# placement is judged on the same draws and the screen costs no random numbers.
_ALONG = tuple(NormalDist().inv_cdf((i + 0.5) / 12) for i in range(12))
_ACROSS = tuple(NormalDist().inv_cdf((j + 0.5) / 5) for j in range(5))
_SCREEN_NOISE = tuple((u, w) for u in _ALONG for w in _ACROSS)


class PlannerBot(SeededBot):
    """Reads the city, screens every placement of the cube, aims the best few against
    the noise-free physics and keeps the shot with the best mean value over Monte Carlo
    flicks with its own hand's noise (drawn from the bot's generator).

    The budget's iterations are the noisy flicks per pitch decision, shared among the
    ``placements`` × ``spins`` candidates by sequential halving (each round halves the
    candidates; every candidate sees the same noise draws, so they are compared on equal
    terms). A time budget stops the flicks early.

    Every shot spins at 40 rad/s by default: a spinning cube stops turned any which way,
    and a turned cube reaches up to 3 mm farther, so it covers the square it aims at more
    often (row 2 from its HQ, normal hands: 71 % against 65 % spin-free).
    """

    name = "planner"

    def __init__(
        self,
        seed: int | None = None,
        budget: Budget | None = None,
        *,
        placements: int | None = None,
        spins: Sequence[float] = (40.0,),
        lucky_margin: float = 40.0,
        pain_gain: float = 100.0,
        edges: bool = False,
        weights: Weights | None = None,
        target_bonus: float = 40.0,
        aim: Skill = Skill.EXACT,
    ) -> None:
        super().__init__(seed, budget or Budget(iterations=160))
        if placements is None:
            # One placement per 32 flicks of budget, 2 to 8: fewer samples each would
            # drown the differences between them in noise.
            flicks = self.budget.iterations or 160
            placements = max(2, min(8, flicks // 32))
        self.placements = placements
        self.spins = tuple(spins)
        self.lucky_margin = lucky_margin
        self.pain_gain = pain_gain
        self.edges = edges
        self.weights = weights or Weights()
        # Choosing among shots of near-equal value, prefer the one likelier to cover the
        # square it is meant for: a plan that lands as planned keeps the next decision's
        # reading of the city true (and the bar is on exactly that).
        self.target_bonus = target_bonus
        self.aim = Skill(aim)  # the lower levels' handicap: see ``wobbled``
        self.last_plan: Plan | None = None

    # ------------------------------------------------------------------ decisions

    def choose(self, view: ColorCityView) -> Action:
        if view.phase is Phase.POWER:
            return self.decision(view)
        return wobbled(view.table, self.plan(view).shot, self.aim, self.rng)

    def decision(self, view: ColorCityView) -> Decision:
        gang, pose = view.to_move, view.pending
        assert gang is not None
        assert pose is not None
        evaluator = Evaluator(view, self.weights)
        covered = covered_squares(view.table, pose)
        result = evaluator.value(covered)
        if gang is Gang.GREEN:
            # Lucky Day re-pitches with fresh noise: worth it when what happened is clearly
            # worse than what the shot promised (the margin keeps the power for later).
            expected = self.plan(view).value
            return Decision.LUCKY_DAY if result < expected - self.lucky_margin else Decision.PASS
        gain = evaluator.value(covered, their_cubes_lost=1) - result
        return Decision.PURPLE_PAIN if gain >= self.pain_gain else Decision.PASS

    # ------------------------------------------------------------------ the pitch

    @staticmethod
    def _key(view: ColorCityView) -> tuple[object, ...]:
        return (view.table, view.cells, view.cubes, view.powers, view.to_move, view.turn)

    def plan(self, view: ColorCityView) -> Plan:
        """The best shot for the gang to move in this city (in the power phase: the shot
        it would pitch again after Lucky Day)."""
        key = self._key(view)
        if self.last_plan is not None and self.last_plan.key == key:
            return self.last_plan
        gang = view.to_move
        assert gang is not None
        table = view.table
        evaluator = Evaluator(view, self.weights)
        sigma = SIGMAS[view.skill_for_turn(gang, view.turn)]
        candidates = self.candidates(view, evaluator)
        shots = [aim_at(table, gang, c.x, c.y, c.spin) for c in candidates]
        total = self.budget.iterations or max(1, len(shots) * 32)
        rounds = max(1, math.ceil(math.log2(len(shots)))) if len(shots) > 1 else 1
        clock = self.budget.clock()
        sums = [0.0] * len(shots)
        values = [0.0] * len(shots)
        counts = [0] * len(shots)
        alive = list(range(len(shots)))
        flicks = 0
        rng = self.rng
        out_of_time = False
        for r in range(rounds):
            per = max(1, (total // rounds) // len(alive))
            if r == rounds - 1:
                per = max(per, (total - flicks) // len(alive))
            for _ in range(per):
                noise = noise_from(sigma, normals(rng))  # the same draw for every candidate
                for i in alive:
                    if not clock.tick():
                        out_of_time = True
                        break
                    pose = flick(table, gang, executed(shots[i], noise)).pose
                    covered = covered_squares(table, pose)
                    value = evaluator.value(covered)
                    values[i] += value
                    sums[i] += value + self.target_bonus * (candidates[i].target in covered)
                    counts[i] += 1
                    flicks += 1
                if out_of_time:
                    break
            if out_of_time or len(alive) == 1:
                break
            alive.sort(key=lambda i: (-sums[i] / max(1, counts[i]), i))
            alive = alive[: max(1, math.ceil(len(alive) / 2))]
        most = max(counts)
        pool = [i for i in range(len(shots)) if counts[i] == most and most > 0] or [0]
        best = max(pool, key=lambda i: (sums[i] / max(1, counts[i]), -i))
        value = values[best] / counts[best] if counts[best] else candidates[best].screen
        plan = Plan(key, shots[best], candidates[best].target, value, len(shots), flicks)
        self.last_plan = plan
        return plan

    def candidates(self, view: ColorCityView, evaluator: Evaluator) -> list[Candidate]:
        """The ``placements`` best stopping points by the screening model, each with every
        spin of ``spins``.

        Stopping points are the squares' centres and, with ``edges``, the midpoints of the
        edges between squares of one row: a cube there covers both when it strays little
        sideways (it strays far less sideways than along its path), but its target square
        only about four times in five as often as from the centre. Points between rows
        would cover two rows only by luck: the slide's spread is the larger. The model: the slide is
        lognormal and the sideways miss normal, as in ``hit_chances``; the cube stays flat
        and square to its path.
        """
        gang = view.to_move
        assert gang is not None
        table = view.table
        sigma = SIGMAS[view.skill_for_turn(gang, view.turn)]
        s_dir = math.radians(sigma.direction_deg)
        size, sq = table.city_size, table.square_mm
        half_city = table.city_half
        reach = table.cube_mm / 2 - table.coverage_margin_mm
        single = {s: evaluator.value((s,)) for s in range(table.num_squares)}
        scored: list[tuple[float, float, float, int]] = []
        for i in range(size):
            for j in range(2 * size - 1):
                if j % 2 and not self.edges:
                    continue
                x = -half_city + sq / 2 + j * sq / 2
                y = -half_city + sq / 2 + i * sq
                forward, right = from_board(table, gang, x, y)
                near = _flat_cover(table, x, y, reach)
                target = max(near, key=lambda s: (single[s], -s)) if near else 0
                total = 0.0
                for u, w in _SCREEN_NOISE:
                    f = forward * (1 + sigma.speed * u) ** 2
                    r = right + forward * math.tan(s_dir * w)
                    cx, cy = to_board(table, gang, f, r)
                    covered = _flat_cover(table, cx, cy, reach)
                    total += evaluator.value(covered) + self.target_bonus * (target in covered)
                value = total / len(_SCREEN_NOISE)
                scored.append((value, x, y, target))
        scored.sort(key=lambda c: (-c[0], c[3], c[1], c[2]))
        out: list[Candidate] = []
        for value, x, y, target in scored[: self.placements]:
            for spin in self.spins:
                out.append(Candidate(x, y, target, spin, value))
        return out


def _flat_cover(table: Table, cx: float, cy: float, reach: float) -> tuple[int, ...]:
    """The squares a flat cube, square to the board, centred at (cx, cy) covers; ``reach``
    is half the cube less the margin."""
    size, sq, half = table.city_size, table.square_mm, table.city_half
    lo_c = math.floor((cx - reach + half) / sq)
    hi_c = math.floor((cx + reach + half) / sq)
    lo_r = math.floor((cy - reach + half) / sq)
    hi_r = math.floor((cy + reach + half) / sq)
    cols = [c for c in range(lo_c, hi_c + 1) if 0 <= c < size]
    rows = [r for r in range(lo_r, hi_r + 1) if 0 <= r < size]
    return tuple(r * size + c for r in rows for c in cols)


# ---------------------------------------------------------------------- measuring


@dataclass
class AimStats:
    """What ``aim_stats`` counts over a Planner's pitch decisions."""

    games: int = 0
    wins: float = 0.0
    shots: int = 0
    target_hits: int = 0  # the plan's target square was covered
    lost: int = 0  # the cube covered nothing (destroyed, unless Lucky Day saved it)
    seconds: list[float] = field(default_factory=list)  # per Planner decision, wall clock
    cpu: list[float] = field(default_factory=list)  # per Planner decision, this process's CPU

    def add(self, other: AimStats) -> None:
        self.games += other.games
        self.wins += other.wins
        self.shots += other.shots
        self.target_hits += other.target_hits
        self.lost += other.lost
        self.seconds.extend(other.seconds)
        self.cpu.extend(other.cpu)


def aim_game(
    seed: int,
    planner: str = "planner",
    opponent: str = "random",
    skill: str = "normal",
    planner_gang: int = 0,
) -> AimStats:
    """One game of a Planner (registry spec) against ``opponent``, both hands of
    ``skill``; counts whether each Planner shot covered the square it aimed at."""
    import time

    from gamenight.bots.registry import game_bots

    spec = game_bots("colorcity")
    state = registry["colorcity"].new(2, {"skills": [skill, skill]}, seed, first=seed % 2)
    assert isinstance(state, ColorCityState)
    me = Gang(planner_gang)
    bot = spec.bot(planner, seed)
    if not isinstance(bot, PlannerBot):
        raise ValueError(f"{planner!r} is not a Planner")
    bots = {me: bot, me.other: spec.bot(opponent, seed + 1)}
    stats = AimStats(games=1)
    while not state.is_over:
        gang = state.to_move
        assert gang is not None
        began, began_cpu = time.perf_counter(), time.process_time()
        action = bots[gang].choose(state.view(gang))
        if gang is me:
            stats.seconds.append(time.perf_counter() - began)
            stats.cpu.append(time.process_time() - began_cpu)
        pitch = state.push(action)
        if gang is me and isinstance(action, Shot):
            assert bot.last_plan is not None
            assert not isinstance(pitch, Decision)
            covered = covered_squares(state.table, pitch.pose)
            stats.shots += 1
            stats.target_hits += bot.last_plan.target in covered
            stats.lost += not covered
    outcome = state.outcome
    assert outcome is not None
    stats.wins += win_share(outcome.places, int(me))
    return stats


def aim_stats(
    games: int,
    planner: str = "planner",
    opponent: str = "random",
    skill: str = "normal",
    seed: int = 0,
    workers: int = 1,
) -> AimStats:
    """``games`` games (the Planner's gang alternating), on ``workers`` processes."""
    from concurrent.futures import ProcessPoolExecutor

    jobs = [(seed + g, planner, opponent, skill, g % 2) for g in range(games)]
    total = AimStats()
    if workers <= 1:
        for job in jobs:
            total.add(aim_game(*job))
        return total
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for result in pool.map(aim_game, *zip(*jobs, strict=True)):
            total.add(result)
    return total


# The registry's names (gamenight.bots.registry) and the five levels the interfaces offer.
BOTS: dict[str, Callable[..., SeededBot]] = {
    "random": RandomBot,
    "simple": SimpleBot,
    "planner": PlannerBot,
}
LEVELS = {
    1: "random",
    2: "simple:aim=shaky",
    3: "simple",
    4: "planner:160it:aim=normal",
    5: "planner:160it",
}

__all__ = [
    "BOTS",
    "LEVELS",
    "AimStats",
    "Evaluator",
    "PlannerBot",
    "RandomBot",
    "Reading",
    "SimpleBot",
    "Weights",
    "aim",
    "aim_at",
    "aim_game",
    "aim_stats",
    "finish_chance",
    "hit_chances",
    "missing",
    "read_city",
    "speed_for",
]
