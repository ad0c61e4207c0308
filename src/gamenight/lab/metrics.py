"""The lab's measurements: generic over the game protocol, plus each game's own counts.

Rates carry 95 % Wilson intervals, means 95 % bootstrap intervals (percentile, 2,000
resamples from a fixed seed, so a report is reproducible). The generic measurements follow
Ludii's evaluation metrics: win rate by seat, the first player's advantage, balance,
length, the endings, lead changes, drama and decisiveness, and skill (a stronger bot's win
rate) against luck (how often a weaker one wins anyway).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamenight.core.outcome import win_share
from gamenight.lab.experiment import Experiment, Metric
from gamenight.tournament.stats import wilson

BOOTSTRAP = 2000


@dataclass(frozen=True)
class Rate:
    """A proportion with its 95 % Wilson interval."""

    successes: float
    trials: int

    @property
    def value(self) -> float:
        return self.successes / self.trials if self.trials else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.successes, self.trials)


@dataclass(frozen=True)
class Mean:
    """A mean with its spread and 95 % bootstrap interval."""

    values: tuple[float, ...]

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def value(self) -> float:
        return sum(self.values) / len(self.values) if self.values else math.nan

    @property
    def sd(self) -> float:
        if len(self.values) < 2:
            return 0.0
        m = self.value
        return math.sqrt(sum((v - m) ** 2 for v in self.values) / (len(self.values) - 1))

    @property
    def interval(self) -> tuple[float, float]:
        return bootstrap(self.values)


def bootstrap(values: Sequence[float], seed: int = 0) -> tuple[float, float]:
    """The 95 % percentile bootstrap interval of the mean of ``values``."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan)
    if n == 1 or min(values) == max(values):
        return (values[0], values[0])
    rng = random.Random(seed)
    means = sorted(sum(rng.choices(values, k=n)) / n for _ in range(BOOTSTRAP))
    return (means[int(0.025 * BOOTSTRAP)], means[int(0.975 * BOOTSTRAP) - 1])


def bootstrap_difference(
    a: Sequence[float], b: Sequence[float], seed: int = 0
) -> tuple[float, float]:
    """The 95 % percentile bootstrap interval of mean(b) − mean(a), each resampled alone."""
    if not a or not b:
        return (math.nan, math.nan)
    rng = random.Random(seed)
    diffs = sorted(
        sum(rng.choices(b, k=len(b))) / len(b) - sum(rng.choices(a, k=len(a))) / len(a)
        for _ in range(BOOTSTRAP)
    )
    return (diffs[int(0.025 * BOOTSTRAP)], diffs[int(0.975 * BOOTSTRAP) - 1])


def newcombe(a: Rate, b: Rate) -> tuple[float, float]:
    """The 95 % interval of ``b − a`` (Newcombe's hybrid score interval, from the two
    Wilson intervals)."""
    la, ha = a.interval
    lb, hb = b.interval
    d = b.value - a.value
    low = d - math.sqrt((b.value - lb) ** 2 + (ha - a.value) ** 2)
    high = d + math.sqrt((hb - b.value) ** 2 + (a.value - la) ** 2)
    return (low, high)


# ---------------------------------------------------------------- one game


def leader(standing: Sequence[Sequence[int]]) -> int | None:
    """The seat standing alone in front, or None on a tie for the lead."""
    values = [tuple(s) for s in standing]
    best = max(values)
    seats = [seat for seat, s in enumerate(values) if s == best]
    return seats[0] if len(seats) == 1 else None


def winner(places: Sequence[int]) -> int | None:
    """The seat placed first alone, or None (a shared first place, a draw)."""
    firsts = [seat for seat, p in enumerate(places) if p == 1]
    return firsts[0] if len(firsts) == 1 else None


def lead_changes(standings: Sequence[Sequence[Sequence[int]]]) -> int:
    """How often the lone leader changed from turn to turn (ties for the lead skipped)."""
    leaders = [s for s in (leader(t) for t in standings) if s is not None]
    return sum(1 for a, b in itertools.pairwise(leaders) if a != b)


def trailed(row: dict[str, Any]) -> bool | None:
    """Drama: whether the eventual winner stood behind another seat after some turn of the
    game's second half — a comeback (None without a lone winner). The first half is left
    out: early on the seat that moved last usually leads, so every winner has trailed."""
    seat = winner(row["places"])
    if seat is None:
        return None
    standings = row["standings"]
    return any(t[seat] < max(t) for t in standings[len(standings) // 2 :])


def decided_at(row: dict[str, Any]) -> float | None:
    """Decisiveness: the share of the game after which the winner led alone and was never
    behind again (0: from the first turn; 1: only at the end). A tie at the top later on
    does not undo it: in Centrix a finished winner's standing is equalled by each player
    who finishes after it. None without a lone winner."""
    seat = winner(row["places"])
    standings = [[tuple(s) for s in turn] for turn in row["standings"]]
    if seat is None or not standings:
        return None
    start = len(standings)
    while start > 0 and standings[start - 1][seat] >= max(standings[start - 1]):
        start -= 1
    for turn in range(start, len(standings)):
        if leader(standings[turn]) == seat:
            return turn / len(standings)
    return 1.0


def primary(row: dict[str, Any], metric: Metric) -> float:
    """The row's value of the primary metric: the seat's (or the first seat's) win share."""
    seat = row["first"] if metric.seat == "first" else int(metric.seat)
    return win_share(row["places"], seat)


def flatten(row: dict[str, Any]) -> dict[str, Any]:
    """A row as flat columns (for the DataFrame)."""
    flat = {k: v for k, v in row.items() if k != "counts"}
    seat = winner(row["places"])
    flat["winner"] = -1 if seat is None else seat
    flat["first_won"] = win_share(row["places"], row["first"])
    for s in range(row["players"]):
        flat[f"win_{s}"] = win_share(row["places"], s)
    flat["lead_changes"] = lead_changes(row["standings"])
    flat["winner_trailed"] = trailed(row)
    flat["decided_at"] = decided_at(row)
    for name, value in row["counts"].items():
        flat[f"n_{name}"] = value
    return flat


# ---------------------------------------------------------------- a variant


@dataclass
class Summary:
    """Everything the report shows for one variant."""

    variant: str
    players: int
    lineup: tuple[str, ...]
    games: int
    seat_wins: list[Rate]
    first_wins: Rate
    primary: Rate
    turns: Mean
    actions: Mean
    endings: dict[str, Rate]
    lead_changes: Mean
    drama: Rate
    decided_at: Mean
    counts: dict[str, Mean]
    by_bot: dict[str, Rate]
    extra: dict[str, Rate] = field(default_factory=dict)  # the game's own rates

    @property
    def balance(self) -> float:
        """1 minus the spread of the seats' win rates: 1 when every seat wins equally."""
        rates = [r.value for r in self.seat_wins]
        return 1 - (max(rates) - min(rates)) if rates else math.nan

    @property
    def first_advantage(self) -> float:
        """The first player's win rate above a fair share (1 / players)."""
        return self.first_wins.value - 1 / self.players

    @property
    def upsets(self) -> Rate | None:
        """Luck against skill: how often a bot other than the strongest (by win rate) won,
        when the seats hold different bots; None when every seat holds the same bot."""
        if len(self.by_bot) < 2:
            return None
        strongest = max(self.by_bot, key=lambda b: self.by_bot[b].value)
        shares = self.by_bot[strongest]
        return Rate(self.games - shares.successes, self.games)


def summarise(experiment: Experiment, rows: list[dict[str, Any]]) -> list[Summary]:
    """One summary per variant, in the experiment's order (variants without games left out)."""
    by_variant: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_variant[row["variant"]].append(row)
    return [
        summarise_variant(v.name, by_variant[v.name], experiment.metric, experiment.game)
        for v in experiment.variants
        if by_variant[v.name]
    ]


def summarise_variant(
    name: str, rows: list[dict[str, Any]], metric: Metric, game: str = ""
) -> Summary:
    players = rows[0]["players"]
    n = len(rows)
    seat_wins = [Rate(sum(win_share(r["places"], s) for r in rows), n) for s in range(players)]
    reasons: dict[str, float] = defaultdict(float)
    for r in rows:
        reasons[r["reason"]] += 1
    drama = [t for t in (trailed(r) for r in rows) if t is not None]
    decided = [d for d in (decided_at(r) for r in rows) if d is not None]
    names = sorted({k for r in rows for k in r["counts"]})
    bots: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for r in rows:
        for seat, spec in enumerate(r["lineup"]):
            bots[spec][0] += win_share(r["places"], seat)
            bots[spec][1] += 1
    rates = RATES.get(game)
    return Summary(
        variant=name,
        players=players,
        lineup=tuple(rows[0]["lineup"]),
        games=n,
        seat_wins=seat_wins,
        first_wins=Rate(sum(win_share(r["places"], r["first"]) for r in rows), n),
        primary=Rate(sum(primary(r, metric) for r in rows), n),
        turns=Mean(tuple(float(r["turns"]) for r in rows)),
        actions=Mean(tuple(float(r["actions"]) for r in rows)),
        endings={k: Rate(v, n) for k, v in sorted(reasons.items())},
        lead_changes=Mean(tuple(float(lead_changes(r["standings"])) for r in rows)),
        drama=Rate(sum(drama), len(drama)),
        decided_at=Mean(tuple(decided)),
        counts={k: Mean(tuple(float(r["counts"].get(k, 0)) for r in rows)) for k in names},
        by_bot={b: Rate(w, int(t)) for b, (w, t) in bots.items()},
        extra=rates(rows) if rates else {},
    )


def colorcity_rates(rows: list[dict[str, Any]]) -> dict[str, Rate]:
    """Color City: each power's use, and each gang's win rate in games where it used its
    power and where it did not (seat 0 is Green, seat 1 Purple)."""
    out: dict[str, Rate] = {}
    for seat, power in ((0, "lucky_day"), (1, "purple_pain")):
        used = [r for r in rows if r["counts"].get(power, 0)]
        unused = [r for r in rows if not r["counts"].get(power, 0)]
        out[f"{power} used"] = Rate(len(used), len(rows))
        out[f"{power}: win with"] = Rate(sum(win_share(r["places"], seat) for r in used), len(used))
        out[f"{power}: win without"] = Rate(
            sum(win_share(r["places"], seat) for r in unused), len(unused)
        )
    return out


RATES: dict[str, Callable[[list[dict[str, Any]]], dict[str, Rate]]] = {"colorcity": colorcity_rates}
"""Each game's own rates, by the registry's name (a game without an entry has none)."""


def fairness(s: Summary, lang: str = "en") -> str:
    """Whether the first player wins more (or less) than a fair share, in one sentence."""
    low, high = s.first_wins.interval
    fair = 1 / s.players
    fair_inside = low <= fair <= high
    if lang == "ko":
        head = (
            f"{s.variant}: 선 플레이어 승률 {s.first_wins.value:.1%} (95 % 구간 {low:.1%}"
            f" ~ {high:.1%}), 공정한 몫은 {fair:.1%}"
        )
        if fair_inside:
            return head + " — 선 플레이어의 이점은 유의하지 않습니다."
        return head + (
            " — 선 플레이어가 유리합니다." if low > fair else " — 선 플레이어가 불리합니다."
        )
    head = (
        f"{s.variant}: the first player wins {s.first_wins.value:.1%} (95 % interval"
        f" {low:.1%} to {high:.1%}) against a fair {fair:.1%}"
    )
    if fair_inside:
        return head + " — no significant first-player advantage."
    return head + (
        " — the first player has the advantage."
        if low > fair
        else " — the first player is at a disadvantage."
    )


# ---------------------------------------------------------------- comparisons


@dataclass(frozen=True)
class Difference:
    """The primary metric of ``variant`` against the baseline's, with its 95 % interval."""

    baseline: str
    variant: str
    base: Rate
    other: Rate

    @property
    def value(self) -> float:
        return self.other.value - self.base.value

    @property
    def interval(self) -> tuple[float, float]:
        return newcombe(self.base, self.other)

    @property
    def significant(self) -> bool:
        low, high = self.interval
        return low > 0 or high < 0


def compare(summaries: list[Summary]) -> list[Difference]:
    """Every variant's primary metric against the first variant's."""
    if len(summaries) < 2:
        return []
    base = summaries[0]
    return [Difference(base.variant, s.variant, base.primary, s.primary) for s in summaries[1:]]


def length_sentence(base: Summary, other: Summary, lang: str = "en") -> str:
    """Whether a variant's games are longer or shorter than the baseline's, in turns."""
    d = other.turns.value - base.turns.value
    low, high = bootstrap_difference(base.turns.values, other.turns.values)
    significant = low > 0 or high < 0
    if lang == "ko":
        head = (
            f"{other.variant} 대 {base.variant}: 게임 길이 {other.turns.value:.1f} 대"
            f" {base.turns.value:.1f} 턴, 차이 {d:+.1f} (95 % 구간 {low:+.1f} ~ {high:+.1f})"
        )
        return head + (" — 유의한 차이입니다." if significant else " — 유의하지 않습니다.")
    head = (
        f"{other.variant} against {base.variant}: games of {other.turns.value:.1f} turns"
        f" against {base.turns.value:.1f}, a difference of {d:+.1f} (95 % interval"
        f" {low:+.1f} to {high:+.1f})"
    )
    return head + (" — a significant difference." if significant else " — not significant.")


def sentence(d: Difference, label: str, lang: str = "en") -> str:
    """The comparison in one plain sentence, saying so where it is not significant."""
    low, high = d.interval
    if lang == "ko":
        head = (
            f"{d.variant} 대 {d.baseline}: {label} {d.other.value:.1%} 대 {d.base.value:.1%},"
            f" 차이 {d.value:+.1%} (95 % 구간 {low:+.1%} ~ {high:+.1%})"
        )
        tail = (
            " — 유의한 차이입니다."
            if d.significant
            else " — 유의하지 않습니다: 차이가 없다는 것과 맞습니다."
        )
        return head + tail
    head = (
        f"{d.variant} against {d.baseline}: {label} {d.other.value:.1%} against"
        f" {d.base.value:.1%}, a difference of {d.value:+.1%} (95 % interval {low:+.1%}"
        f" to {high:+.1%})"
    )
    if d.significant:
        return head + " — a significant difference."
    return head + " — not significant: the games are consistent with no difference."
