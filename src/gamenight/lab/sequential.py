"""Stopping when the answer is known: an always-valid test of a difference of rates.

The test is the mixture sequential probability ratio test (mSPRT) of Johari, Pekelis and
Walsh ("Always valid inference", 2017) for the difference of two proportions, with a
normal mixture over the difference (variance ``tau**2``) and the rates' variance plugged in.
Its confidence sequence — the differences the test has not rejected — holds the true
difference at every number of games at once with probability ≥ 1 − alpha, however often
it is looked at, so a run may stop the first time it:

- excludes 0: the variants differ (a false "they differ" has probability ≤ alpha), or
- lies within ±margin: any difference is smaller than the designer cares about.

Each variant is compared with the first (the baseline): with k comparisons each uses
alpha / k (Bonferroni), so the chance of any false call in the run stays ≤ alpha. The
guarantee is asymptotic, as for every plug-in-variance mSPRT; the docs (docs/lab.md) say so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

ALPHA = 0.05


@dataclass(frozen=True)
class Verdict:
    """Where one comparison stands after ``n`` games per arm."""

    n: int
    difference: float
    low: float
    high: float
    state: str  # "differ", "within margin" or "open"
    needed: int = 0  # games per arm that would settle it at the rates seen (games_needed)

    @property
    def settled(self) -> bool:
        return self.state != "open"


def half_width(v: float, n: int, alpha: float, tau: float) -> float:
    """Half the width of the always-valid (1 − alpha) interval after ``n`` games per arm,
    for ``v`` the variance of one pair's difference."""
    t2 = tau * tau
    # Λ_n(θ) = sqrt(V/(V+nτ²)) · exp(n²τ²(Δ−θ)² / (2V(V+nτ²))) ≥ 1/α, solved for |Δ−θ|.
    return math.sqrt(
        v * (v + n * t2) / (n * n * t2) * (2 * math.log(1 / alpha) + math.log((v + n * t2) / v))
    )


def pair_variance(wins_a: float, wins_b: float, n: int) -> float:
    """The variance of one pair's difference, the rates shrunk by half a game each way so
    that it never vanishes at 0 % or 100 %."""
    pa, pb = (wins_a + 0.5) / (n + 1), (wins_b + 0.5) / (n + 1)
    return pa * (1 - pa) + pb * (1 - pb)


def confidence_sequence(
    wins_a: float, wins_b: float, n: int, alpha: float, tau: float
) -> tuple[float, float, float]:
    """(difference b − a, low, high) of the always-valid (1 − alpha) interval after ``n``
    games per arm."""
    if n == 0:
        return (0.0, -1.0, 1.0)
    half = half_width(pair_variance(wins_a, wins_b, n), n, alpha, tau)
    d = wins_b / n - wins_a / n
    return (d, max(-1.0, d - half), min(1.0, d + half))


LIMIT = 10**9
"""The most games per arm ``games_needed`` reports; beyond it, "never" for a designer."""


def games_needed(
    wins_a: float,
    wins_b: float,
    n: int,
    margin: float,
    alpha: float = ALPHA,
    tau: float | None = None,
) -> int:
    """Games per arm at which the comparison would settle if the rates stayed as seen after
    ``n`` games: the interval, narrowing as games are added, must become narrower than the
    difference (they differ) or than the margin's room beside it (within the margin),
    whichever comes first. A difference near 0 or near the margin needs the interval
    narrower than half the margin at least: its square's inverse grows fast. Capped at
    LIMIT."""
    if n == 0:
        return LIMIT
    v = pair_variance(wins_a, wins_b, n)
    d = abs(wins_b - wins_a) / n
    room = max(d, margin - d)
    t = tau or margin
    low, high = 1, LIMIT
    if half_width(v, high, alpha, t) >= room:
        return LIMIT
    while low < high:  # the half-width falls as the games grow
        mid = (low + high) // 2
        if half_width(v, mid, alpha, t) < room:
            high = mid
        else:
            low = mid + 1
    return low


def verdict(
    wins_a: float,
    wins_b: float,
    n: int,
    margin: float,
    alpha: float = ALPHA,
    tau: float | None = None,
) -> Verdict:
    """One comparison's verdict; ``tau`` (the mixture's scale) defaults to the margin, the
    size of difference the designer cares about."""
    d, low, high = confidence_sequence(wins_a, wins_b, n, alpha, tau or margin)
    if low > 0 or high < 0:
        state = "differ"
    elif -margin < low and high < margin:
        state = "within margin"
    else:
        state = "open"
    needed = n if state != "open" else games_needed(wins_a, wins_b, n, margin, alpha, tau)
    return Verdict(n, d, low, high, state, max(n, needed))


def verdicts(
    wins: dict[str, float], n: int, margin: float, alpha: float = ALPHA
) -> dict[str, Verdict]:
    """Every variant against the first, after ``n`` games each, ``alpha`` shared among the
    comparisons (Bonferroni). ``wins`` is by variant, the baseline first."""
    names = list(wins)
    base, others = names[0], names[1:]
    if not others:
        return {}
    share = alpha / len(others)
    return {v: verdict(wins[base], wins[v], n, margin, share) for v in others}
