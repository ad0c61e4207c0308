"""Is the analysis' chance to win calibrated? Games of the ladder's bots, the chance the
analysis gives each seat at points along each game, against who won.

Each game seats one ladder level at every seat (the levels in turn, game by game), so that
the chance, which assumes no seat plays better than another, is put to the test it claims.
At twenty evenly spaced points of each game (after 0, 1/20, …, 19/20 of its actions) the
analysis' estimator gives every seat's chance; a seat's outcome is 1 if it won (a draw
shares the win). Two figures (docs/learning.md):

- the reliability table: the predictions in tenths of predicted chance, each tenth's mean
  prediction against the share of them that won;
- the Brier score (the sum over seats of (chance − outcome)², averaged over games) at the
  quarter, the half and the three-quarter marks, against the uniform guess of 1/n.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gamenight.analysis import centrix as centrix_analysis
from gamenight.analysis import hands
from gamenight.analysis.report import ROLLOUTS, TEMPER, tempered
from gamenight.bots.registry import game_bots
from gamenight.centrix import CentrixState, Colour
from gamenight.colorcity import ColorCityState

POINTS = 20
MARKS = {"quarter": 5, "half": 10, "three_quarters": 15}  # which of the POINTS
# A tenth is judged only with this many predictions, and must then lie this close.
LEAST = 50
WITHIN = 0.1


@dataclass(frozen=True)
class Game:
    """One game's predictions: ``chances[p]`` is every seat's chance at point ``p``."""

    game: str
    players: int
    level: int
    chances: tuple[tuple[float, ...], ...]  # the rollouts' shares, untempered
    outcome: tuple[float, ...]  # each seat's share of the win
    # The same points over the game until its winner was known (Centrix with more than two
    # players plays on for the lower places, and after that the chance is plain fact).
    until_won: tuple[tuple[float, ...], ...] = ()
    # Which of the whole game's points come after the winner was known: their chance is
    # plain fact (1 for the winner), as the analysis shows it, never tempered.
    decided: tuple[bool, ...] = ()


def won_shares(places: Sequence[int]) -> tuple[float, ...]:
    best = min(places)
    firsts = [seat for seat, place in enumerate(places) if place == best]
    return tuple(1 / len(firsts) if seat in firsts else 0.0 for seat in range(len(places)))


def points(length: int) -> list[int]:
    return [point * length // POINTS for point in range(POINTS)]


def centrix_game(players: int, level: int, seed: int, rollouts: int) -> Game:
    state = CentrixState.new(list(Colour)[:players], seed=seed, first=seed % players)
    bots = [game_bots("centrix").bot(f"level{level}", seed=seed * 10 + i) for i in range(players)]
    won = 0  # the plays until the winner finished
    while (seat := state.actor) is not None:
        state.push(bots[seat].choose(state.view(seat)))
        if not won and 1 in state.places:
            won = len(state.plays)
    outcome = state.outcome
    assert outcome is not None
    plays = state.plays

    def shares(length: int) -> tuple[tuple[float, ...], ...]:
        replay = CentrixState.new(list(Colour)[:players], seed=seed, first=seed % players)
        out: list[tuple[float, ...]] = []
        done = 0
        for index in points(length):
            while done < index:
                replay.push(plays[done])
                done += 1
            draws = seed * 1000 + index
            out.append(centrix_analysis.chances(replay, rollouts, draws, temper=False))
        return tuple(out)

    whole = shares(len(plays))
    until_won = whole if won in (0, len(plays)) else shares(won)
    decided = tuple(0 < won <= index for index in points(len(plays)))
    return Game("centrix", players, level, whole, won_shares(outcome.places), until_won, decided)


def colorcity_game(level: int, seed: int, rollouts: int) -> Game:
    state = ColorCityState.new(seed=seed, first="green" if seed % 2 == 0 else "purple")
    bots = [game_bots("colorcity").bot(f"level{level}", seed=seed * 10 + i) for i in range(2)]
    marks = []
    while (seat := state.actor) is not None:
        marks.append(state.copy())  # with its actions: the hands' form reads them
        state.push(bots[seat].choose(state.view(seat)))
    outcome = state.outcome
    assert outcome is not None
    chances = tuple(
        hands.chances(marks[index], rollouts, seed * 1000 + index, temper=False)
        for index in points(len(marks))
    )
    return Game("colorcity", 2, level, chances, won_shares(outcome.places), chances)


def play(
    centrix_games: int,
    colorcity_games: int,
    seed: int = 0,
    levels: Sequence[int] = (1, 2, 3, 4, 5),
    colorcity_levels: Sequence[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Game]:
    """The games: Centrix half with 2 players, half with 4, and Color City, the levels in
    turn; ``progress`` is told (games done, games)."""
    total = centrix_games + colorcity_games
    games: list[Game] = []
    cc_levels = colorcity_levels or levels
    for i in range(centrix_games):
        players = 2 if i % 2 == 0 else 4
        level = levels[(i // 2) % len(levels)]
        games.append(centrix_game(players, level, seed + i, ROLLOUTS["centrix"]))
        if progress is not None:
            progress(len(games), total)
    for i in range(colorcity_games):
        level = cc_levels[i % len(cc_levels)]
        games.append(colorcity_game(level, seed + i, ROLLOUTS["colorcity"]))
        if progress is not None:
            progress(len(games), total)
    return games


@dataclass(frozen=True)
class Tenth:
    low: float
    predictions: int
    mean: float
    observed: float

    @property
    def judged(self) -> bool:
        return self.predictions >= LEAST

    @property
    def calibrated(self) -> bool:
        return not self.judged or abs(self.observed - self.mean) <= WITHIN


def shown(
    games: Sequence[Game], temper: dict[str, tuple[float, float]] | None = None, whole: bool = True
) -> list[Game]:
    """The games' chances as the analysis shows them: tempered by game (``TEMPER``), over the
    whole game or (``whole=False``) until the winner was known."""
    temper = TEMPER if temper is None else temper
    out = []
    for g in games:
        rows = g.chances if whole or not g.until_won else g.until_won
        eps, beta = temper[g.game]
        facts = g.decided if whole and g.decided else (False,) * len(rows)
        made = tuple(
            row if fact else tempered(row, eps, beta) for row, fact in zip(rows, facts, strict=True)
        )
        out.append(Game(g.game, g.players, g.level, made, g.outcome))
    return out


def reliability(games: Sequence[Game]) -> list[Tenth]:
    """Every seat's chance at every point, in tenths of predicted chance (1.0 in the last)."""
    bins: list[list[tuple[float, float]]] = [[] for _ in range(10)]
    for game in games:
        for row in game.chances:
            for p, o in zip(row, game.outcome, strict=True):
                bins[min(9, int(p * 10))].append((p, o))
    out = []
    for i, items in enumerate(bins):
        n = len(items)
        mean = sum(p for p, _ in items) / n if n else 0.0
        observed = sum(o for _, o in items) / n if n else 0.0
        out.append(Tenth(i / 10, n, mean, observed))
    return out


def brier(games: Sequence[Game], point: int) -> tuple[float, float]:
    """The mean Brier score of the chances at ``point``, and the uniform guess's."""
    ours = uniform = 0.0
    for game in games:
        row, n = game.chances[point], game.players
        ours += sum((p - o) ** 2 for p, o in zip(row, game.outcome, strict=True))
        uniform += sum((1 / n - o) ** 2 for o in game.outcome)
    return ours / len(games), uniform / len(games)


def judged(games: Sequence[Game]) -> dict[str, Any]:
    """The reliability table and the Brier scores at the marks of ``games`` (as shown),
    and whether the bars hold."""
    table = reliability(games)
    scores = {}
    for name, point in MARKS.items():
        ours, uniform = brier(games, point)
        scores[name] = {
            "brier": round(ours, 4),
            "uniform": round(uniform, 4),
            "better_by": round(1 - ours / uniform, 4) if uniform else 0.0,
        }
    sharper = all(s["better_by"] > 0 for s in scores.values())
    sharper = sharper and scores["three_quarters"]["better_by"] >= 0.3
    return {
        "tenths": [
            {
                "tenth": f"{t.low:.1f}–{t.low + 0.1:.1f}",
                "predictions": t.predictions,
                "mean": round(t.mean, 3),
                "observed": round(t.observed, 3),
                "judged": t.judged,
                "calibrated": t.calibrated,
            }
            for t in table
        ],
        "brier": scores,
        "calibrated": all(t.calibrated for t in table),
        "sharper": sharper,
    }


def summary(
    games: Sequence[Game], temper: dict[str, tuple[float, float]] | None = None
) -> dict[str, Any]:
    """Both figures for all games together, for each game alone, and over Centrix games
    until their winner was known; the bar is judged on all games together, over each whole
    game, as the analysis draws it."""
    counts: dict[str, int] = {}
    for game in games:
        key = f"{game.game} {game.players}p"
        counts[key] = counts.get(key, 0) + 1
    whole = shown(games, temper)
    out: dict[str, Any] = {"games": counts, **judged(whole)}
    for name in sorted({g.game for g in games}):
        out[name] = judged([g for g in whole if g.game == name])
    centrix = [g for g in games if g.game == "centrix"]
    if centrix:
        out["centrix_until_won"] = judged(shown(centrix, temper, whole=False))
    return out


def fit(games: Sequence[Game]) -> dict[str, tuple[float, float]]:
    """For each game, the tempering (ε, β) on a grid whose worst judged tenth lies closest
    to its mean prediction (the Brier score at three quarters breaking near-ties)."""
    found: dict[str, tuple[float, float]] = {}
    for name in sorted({g.game for g in games}):
        mine = [g for g in games if g.game == name]
        best: tuple[float, float, tuple[float, float]] | None = None
        for eps in (0.0, 0.01, 0.02, 0.05, 0.1, 0.2):
            for beta in (1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3):
                made = shown(mine, {name: (eps, beta)})
                worst = max(
                    (abs(t.observed - t.mean) for t in reliability(made) if t.judged),
                    default=0.0,
                )
                ours, uniform = brier(made, MARKS["three_quarters"])
                key = (round(worst, 2), ours / uniform, (eps, beta))
                if best is None or key[:2] < best[:2]:
                    best = key
        assert best is not None
        found[name] = best[2]
    return found
