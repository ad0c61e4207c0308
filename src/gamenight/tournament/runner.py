"""Running a tournament's games, on local processes."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pydantic import TypeAdapter, ValidationError

from gamenight.bots.registry import game_bots
from gamenight.core.game import GameState, registry
from gamenight.core.validation import describe

R = TypeVar("R")


class Watcher(Protocol):
    """Sees every action of a game as it is played (the lab's per-game measurements)."""

    def before(self, state: GameState, action: Any) -> None:
        """Called with the state as it is, just before ``action`` is pushed."""
        ...

    def after(self, state: GameState, action: Any, mover: int) -> None:
        """Called just after ``action`` (as stacked) was pushed by seat ``mover``."""
        ...


@dataclass(frozen=True)
class GameResult:
    index: int
    seed: int
    lineup: list[str]  # bot spec by seat
    places: list[int]  # place by seat
    reason: str
    actions: int
    seconds: float
    think: list[float] = field(default_factory=list)  # seconds spent deciding, by seat
    decisions: list[int] = field(default_factory=list)  # decisions made, by seat

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, line: str) -> GameResult:
        """One line of a results file; ValueError names what is wrong with it."""
        try:
            result = _RESULT.validate_json(line, strict=True)
        except ValidationError as exc:
            where, what = describe(exc, whole="")
            raise ValueError(f"{where}: {what}" if where else what) from None
        seats = len(result.lineup)
        if seats < 2:
            raise ValueError(f"a game has at least 2 seats, not {seats}")
        if len(result.places) != seats or not all(1 <= p <= seats for p in result.places):
            raise ValueError(f"places must give each of the {seats} seats a place 1–{seats}")
        for name in ("think", "decisions"):
            if len(getattr(result, name)) not in (0, seats):
                raise ValueError(f"{name} must have one entry per seat ({seats})")
        return result


_RESULT = TypeAdapter(GameResult)


def schedule(bots: list[str], players: int, games: int) -> list[list[str]]:
    """Line-ups that put every bot entry in every seat equally often: game ``g`` seats entry
    ``(g + seat) % len(bots)``, so each run of ``len(bots)`` games is balanced. List a bot
    several times to field it in several seats (``ismcts,greedy,greedy,greedy``)."""
    k = len(bots)
    return [[bots[(g + seat) % k] for seat in range(players)] for g in range(games)]


def rotation(bots: list[str]) -> int:
    """The fewest games after which :func:`schedule` has seated every bot entry in every
    seat equally often; only a multiple of it shares the seats evenly. Repeated entries can
    shorten it (``a,b,a,b`` repeats after 2 games)."""
    k = len(bots)
    return next(
        p
        for p in range(1, k + 1)
        if k % p == 0 and all(bots[i] == bots[(i + p) % k] for i in range(k))
    )


def play_game(
    game: str,
    lineup: list[str],
    seed: int,
    index: int = 0,
    rules: dict[str, Any] | None = None,
    first: int = 0,
    watcher: Watcher | None = None,
) -> GameResult:
    """One game between the bots of ``lineup`` (seat order); each sees only its view.
    ``first`` is the seat that starts; ``watcher`` sees every action."""
    spec = game_bots(game)
    rng = random.Random(seed)
    state = registry[game].new(len(lineup), rules, seed, first)
    bots = [spec.bot(entry, rng.getrandbits(32)) for entry in lineup]
    think = [0.0] * len(lineup)
    decisions = [0] * len(lineup)
    start = time.perf_counter()
    actions = 0
    while (seat := state.actor) is not None:
        began = time.perf_counter()
        action = bots[seat].choose(state.view(seat))
        think[seat] += time.perf_counter() - began
        decisions[seat] += 1
        if watcher is None:
            state.push(action)
        else:
            watcher.before(state, action)
            watcher.after(state, state.push(action), seat)
        actions += 1
    outcome = state.outcome
    assert outcome is not None
    return GameResult(
        index=index,
        seed=seed,
        lineup=list(lineup),
        places=list(outcome.places),
        reason=outcome.reason,
        actions=actions,
        seconds=time.perf_counter() - start,
        think=think,
        decisions=decisions,
    )


@dataclass
class Tournament:
    game: str
    bots: list[str]
    players: int
    games: int
    seed: int = 0
    rules: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        game = registry[self.game]
        game.check_players(self.players)
        spec = game_bots(self.game)
        if self.games < 1:
            raise ValueError(f"a tournament needs at least one game, not {self.games}")
        if not self.bots:
            raise ValueError("a tournament needs at least one bot")
        # Bad bot specs and bad rules fail here, before any game starts.
        for entry in self.bots:
            spec.bot(entry, 0)
        game.new(self.players, self.rules, 0)

    def jobs(self) -> list[tuple[str, list[str], int, int, dict[str, Any] | None]]:
        rng = random.Random(self.seed)
        return [
            (self.game, lineup, rng.getrandbits(48), index, self.rules)
            for index, lineup in enumerate(schedule(self.bots, self.players, self.games))
        ]

    def run(
        self,
        workers: int = 1,
        out: Path | None = None,
        progress: Callable[[GameResult], None] | None = None,
    ) -> list[GameResult]:
        """Play every game (on ``workers`` processes), appending JSON lines to ``out``."""
        results: list[GameResult] = []
        sink = out.open("a") if out else None
        try:
            for result in self._results(workers):
                results.append(result)
                if sink:
                    sink.write(result.to_json() + "\n")
                    sink.flush()
                if progress:
                    progress(result)
        finally:
            if sink:
                sink.close()
        return sorted(results, key=lambda r: r.index)

    def _results(self, workers: int) -> Iterator[GameResult]:
        return run_jobs(play_game, self.jobs(), workers)


def run_jobs(
    play: Callable[..., R], jobs: Iterable[tuple[Any, ...]], workers: int = 1
) -> Iterator[R]:
    """``play(*job)`` for every job, on ``workers`` local processes (in this one for 1),
    yielding each result as it is done. ``play`` must be a module-level function (it is
    sent to the processes by name); the tournament and the lab both run their games here.
    Closing the iterator early cancels the jobs not yet started."""
    if workers <= 1:
        for job in jobs:
            yield play(*job)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play, *job) for job in jobs]
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()
