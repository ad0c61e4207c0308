"""Win rates with 95 % intervals, by bot and by seat, and openskill ratings."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from gamenight.core.outcome import win_share
from gamenight.tournament.runner import GameResult

Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (sensible at 0 % and 100 % too)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Row:
    label: str
    games: int  # seats played (a bot fielded twice in a game counts twice)
    wins: float  # first places; a shared first place counts as a fraction
    mean_place: float
    rating: float | None = None  # openskill ordinal (mu − 3 sigma)
    mu: float | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


@dataclass(frozen=True)
class Summary:
    games: int
    by_bot: list[Row]
    by_seat: list[Row]
    mean_actions: float
    mean_think: dict[str, float]  # seconds per decision, by bot


def summarise(results: list[GameResult]) -> Summary:
    bot_games: dict[str, int] = defaultdict(int)
    bot_wins: dict[str, float] = defaultdict(float)
    bot_places: dict[str, float] = defaultdict(float)
    seat_games: dict[int, int] = defaultdict(int)
    seat_wins: dict[int, float] = defaultdict(float)
    seat_places: dict[int, float] = defaultdict(float)
    think: dict[str, float] = defaultdict(float)
    decisions: dict[str, int] = defaultdict(int)
    for result in results:
        for seat, label in enumerate(result.lineup):
            share = win_share(result.places, seat)
            bot_games[label] += 1
            bot_wins[label] += share
            bot_places[label] += result.places[seat]
            seat_games[seat] += 1
            seat_wins[seat] += share
            seat_places[seat] += result.places[seat]
            if result.think:
                think[label] += result.think[seat]
                decisions[label] += result.decisions[seat]
    ratings = _ratings(results)
    by_bot = [
        Row(
            label,
            bot_games[label],
            bot_wins[label],
            bot_places[label] / bot_games[label],
            *ratings.get(label, (None, None)),
        )
        for label in sorted(bot_games, key=lambda b: -bot_wins[b] / bot_games[b])
    ]
    by_seat = [
        Row(f"seat {seat}", seat_games[seat], seat_wins[seat], seat_places[seat] / seat_games[seat])
        for seat in sorted(seat_games)
    ]
    return Summary(
        games=len(results),
        by_bot=by_bot,
        by_seat=by_seat,
        mean_actions=sum(r.actions for r in results) / max(1, len(results)),
        mean_think={b: think[b] / decisions[b] for b in decisions if decisions[b]},
    )


def _ratings(results: list[GameResult]) -> dict[str, tuple[float, float]]:
    """openskill Plackett–Luce ratings, games taken in order. A bot fielded in several seats
    of one game is rated once per seat from the same prior and keeps the mean update."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {}
    for result in sorted(results, key=lambda r: r.index):
        for label in result.lineup:
            if label not in ratings:
                ratings[label] = model.rating(name=label)
        teams = [[model.rating(mu=ratings[b].mu, sigma=ratings[b].sigma)] for b in result.lineup]
        rated = model.rate(teams, ranks=[float(p) for p in result.places])
        updates: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for label, team in zip(result.lineup, rated, strict=True):
            updates[label].append((team[0].mu, team[0].sigma))
        for label, values in updates.items():
            mu = sum(v[0] for v in values) / len(values)
            sigma = sum(v[1] for v in values) / len(values)
            ratings[label] = model.rating(mu=mu, sigma=sigma, name=label)
    return {label: (r.ordinal(), r.mu) for label, r in ratings.items()}
