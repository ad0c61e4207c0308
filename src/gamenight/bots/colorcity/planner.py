"""The Planner: screens every placement of the cube with a cheap model of its own hand,
aims the best few against the noise-free physics and picks the shot with the best Monte
Carlo value over its own hand's noise (docs/ai.md, "Color City")."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

from gamenight.bots.base import Budget, SeededBot
from gamenight.bots.colorcity.aiming import aim_at
from gamenight.bots.colorcity.reading import Evaluator, Weights
from gamenight.bots.colorcity.simple import wobbled
from gamenight.colorcity.actions import Decision
from gamenight.colorcity.coverage import covered_squares
from gamenight.colorcity.frame import from_board, to_board
from gamenight.colorcity.pool import PitchedShot, poses
from gamenight.colorcity.shots import SIGMAS, Shot, Skill, executed, flick, noise_from, normals
from gamenight.colorcity.state import ColorCityView, Phase
from gamenight.colorcity.table import Gang, Table


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

    ``workers`` ≥ 2 flicks each round's Monte Carlo shots in that many processes; the
    values, and so the choice, are the serial ones (a time budget may then be overrun by
    up to one round's flicks, which are computed before they are counted).

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
        workers: int = 1,
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
        if not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be a whole number ≥ 1, not {workers!r}")
        # Processes for the Monte Carlo flicks (gamenight.colorcity.pool); the choice is
        # the serial one whatever the number, under an iteration budget.
        self.workers = workers
        self.last_plan: Plan | None = None

    # ------------------------------------------------------------------ decisions

    def choose(self, view: ColorCityView) -> Shot | Decision:
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
        clock = self.budget.clock()
        # Aimed best first, while the time lasts (rules that make every flick slow would
        # otherwise spend a time budget on aiming alone); at least one is always aimed.
        shots: list[Shot] = []
        candidates = self.candidates(view, evaluator)
        for c in candidates:
            if shots and clock.expired():
                break
            shots.append(aim_at(table, gang, c.x, c.y, c.spin))
        candidates = candidates[: len(shots)]
        total = self.budget.iterations or max(1, len(shots) * 32)
        rounds = max(1, math.ceil(math.log2(len(shots)))) if len(shots) > 1 else 1
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
            ready = None
            if self.workers > 1:
                # The round's flicks at once, over processes, from a copy of the generator:
                # the loop below draws the same noises from the bot's own, so the generator
                # ends where the serial loop leaves it, even when the time runs out.
                probe = random.Random()
                probe.setstate(rng.getstate())
                pitches: list[PitchedShot] = []
                for _ in range(per):
                    noise = noise_from(sigma, normals(probe))
                    pitches.extend((gang, executed(shots[i], noise)) for i in alive)
                ready = iter(poses(table, pitches, self.workers))
            for _ in range(per):
                noise = noise_from(sigma, normals(rng))  # the same draw for every candidate
                for i in alive:
                    if not clock.tick():
                        out_of_time = True
                        break
                    if ready is not None:
                        pose = next(ready)
                    else:
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
