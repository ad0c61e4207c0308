"""An experiment: the game, the rule variants to compare, the seats, the games, the seed.

Written as a small TOML file (docs/lab.md has the whole format)::

    name = "Centrix: the bottom of the board"
    game = "centrix"
    players = 4
    seats = "greedy"            # one spec for every seat, or a list by seat
    games = 200                 # per variant
    seed = 2026
    first = 0                   # the seat that starts, or "alternate" (game i: seat i mod n)
    rules = { max_turns = 400 } # common to every variant

    [metric]                    # the primary metric, for --until-significant
    seat = 0                    # that seat's win rate, or "first": the starting seat's
    margin = 0.05               # a difference below this does not matter to the designer

    [[variants]]
    name = "protect"
    rules = { bottom = "protect" }

    [grid]                      # or: every combination of these values
    bottom = ["protect", "knock_off", "floor"]

A variant (or a grid key) may also set ``players``, ``seats`` and ``first``; every other key
is a field of the game's rules value. Game ``i`` of every variant is played from the same
seed, derived from the base seed and ``i`` alone: variants are compared on common dice, and
a run can be resumed or extended game by game.
"""

from __future__ import annotations

import hashlib
import itertools
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamenight.bots.registry import game_bots
from gamenight.core.errors import GamenightError, NotationError
from gamenight.core.game import registry

SETUP_KEYS = ("players", "seats", "first")
"""Keys of a variant that are not rules fields: how the game is seated."""

TOP_KEYS = {"name", "game", "players", "seats", "games", "seed", "first", "rules", "metric"}
TOP_KEYS |= {"variants", "grid", "description"}


class ExperimentError(GamenightError, ValueError):
    """An experiment file that does not describe an experiment; the message names the fault."""


@dataclass(frozen=True)
class Variant:
    """One arm of the experiment: its name, rules and seating."""

    name: str
    rules: dict[str, Any]
    players: int
    seats: tuple[str, ...]
    first: int | str  # a seat, or "alternate"

    def first_seat(self, index: int) -> int:
        """The seat that starts game ``index``."""
        if self.first == "alternate":
            return index % self.players
        assert isinstance(self.first, int)
        return self.first


@dataclass(frozen=True)
class Metric:
    """The primary metric: a seat's win rate (``seat`` a number, or "first")."""

    seat: int | str = 0
    margin: float = 0.05

    @property
    def label(self) -> str:
        return self.text("en")

    def text(self, lang: str) -> str:
        """The metric's name in ``lang`` (en or ko)."""
        if lang == "ko":
            return "선 플레이어 승률" if self.seat == "first" else f"좌석 {self.seat} 승률"
        return "first player's win rate" if self.seat == "first" else f"seat {self.seat} win rate"


@dataclass(frozen=True)
class Job:
    """One game to play: everything a worker process needs, and nothing else."""

    game: str
    variant: str
    index: int
    seed: int
    lineup: tuple[str, ...]
    rules: dict[str, Any]
    first: int


@dataclass(frozen=True)
class Experiment:
    name: str
    game: str
    variants: tuple[Variant, ...]
    games: int
    seed: int
    metric: Metric = field(default_factory=Metric)
    source: str = ""  # the TOML text it was read from

    def game_seed(self, index: int) -> int:
        """The seed of game ``index`` of every variant: from the base seed and the index
        only, so a run extends and resumes without touching the games already played."""
        digest = hashlib.sha256(f"gamenight-lab/{self.seed}/{index}".encode()).digest()
        return int.from_bytes(digest[:6], "big")

    def jobs(self, games: int | None = None) -> list[Job]:
        """Every game of the run, round by round (game 0 of each variant, then game 1 …),
        so that the variants stay level however far a run gets."""
        count = self.games if games is None else games
        return [
            Job(
                self.game,
                v.name,
                i,
                self.game_seed(i),
                v.seats,
                v.rules,
                v.first_seat(i),
            )
            for i in range(count)
            for v in self.variants
        ]

    def variant(self, name: str) -> Variant:
        for v in self.variants:
            if v.name == name:
                return v
        raise ExperimentError(f"no variant {name!r} in {self.name!r}")


def read_experiment(path: Path) -> Experiment:
    """The experiment in a TOML file; ExperimentError names the file and the fault."""
    try:
        text = path.read_text("utf-8")
    except OSError as exc:
        raise ExperimentError(f"{path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ExperimentError(f"{path}: not UTF-8 text") from None
    try:
        return parse_experiment(text)
    except ExperimentError as exc:
        raise ExperimentError(f"{path}: {exc}") from None


def parse_experiment(text: str) -> Experiment:
    """The experiment a TOML text describes; ExperimentError names what is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ExperimentError(f"not TOML: {exc}") from None
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise ExperimentError(f"unknown key(s): {', '.join(sorted(unknown))}")
    game_name = _need(data, "game", str)
    if game_name not in registry:
        raise ExperimentError(
            f"unknown game {game_name!r}: choose from {', '.join(registry.names())}"
        )
    games = _need(data, "games", int)
    if games < 1:
        raise ExperimentError(f"games must be at least 1, not {games}")
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ExperimentError(f"seed must be a whole number, not {seed!r}")
    base_rules = data.get("rules", {})
    if not isinstance(base_rules, dict):
        raise ExperimentError("rules must be a table of rules fields")
    defaults = {k: data[k] for k in SETUP_KEYS if k in data}
    arms: list[tuple[str, dict[str, Any]]] = []
    for number, entry in enumerate(data.get("variants", []), 1):
        if not isinstance(entry, dict):
            raise ExperimentError(f"variant {number} must be a table")
        entry = dict(entry)
        name = entry.pop("name", None) or f"variant {number}"
        rules = entry.pop("rules", {})
        if not isinstance(rules, dict):
            raise ExperimentError(f"variant {name!r}: rules must be a table")
        arms.append((str(name), {**entry, **rules}))
    grid = data.get("grid", {})
    if not isinstance(grid, dict):
        raise ExperimentError("grid must be a table of lists")
    if grid:
        for key, values in grid.items():
            if not isinstance(values, list) or not values:
                raise ExperimentError(f"grid.{key} must be a non-empty list of values")
        keys = list(grid)
        # A grid crosses the listed variants (or the rulebook) with every combination.
        crossed = []
        for base_name, base_changes in arms or [("", {})]:
            for combo in itertools.product(*(grid[k] for k in keys)):
                label = ", ".join(f"{k}={_short(v)}" for k, v in zip(keys, combo, strict=True))
                name = f"{base_name}, {label}" if base_name else label
                crossed.append((name, {**base_changes, **dict(zip(keys, combo, strict=True))}))
        arms = crossed
    if not arms:
        arms = [("rulebook", {})]
    names = [n for n, _ in arms]
    if len(set(names)) != len(names):
        raise ExperimentError(f"variant names must differ: {names}")
    variants = tuple(_variant(game_name, n, base_rules, defaults, c) for n, c in arms)
    metric = _metric(data.get("metric", {}), variants)
    return Experiment(
        name=str(data.get("name", game_name)),
        game=game_name,
        variants=variants,
        games=games,
        seed=seed,
        metric=metric,
        source=text,
    )


def _variant(
    game_name: str,
    name: str,
    base_rules: dict[str, Any],
    defaults: dict[str, Any],
    changes: dict[str, Any],
) -> Variant:
    game = registry[game_name]
    setup = {**defaults, **{k: v for k, v in changes.items() if k in SETUP_KEYS}}
    rules = {**base_rules, **{k: v for k, v in changes.items() if k not in SETUP_KEYS}}
    players = setup.get("players", game.min_players)
    if not isinstance(players, int) or isinstance(players, bool):
        raise ExperimentError(f"variant {name!r}: players must be a whole number")
    seats = setup.get("seats")
    if seats is None:
        raise ExperimentError(f"variant {name!r}: seats names no bot (a spec, or one per seat)")
    if isinstance(seats, str):
        seats = [seats] * players
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise ExperimentError(f"variant {name!r}: seats is a bot spec or a list of them")
    if len(seats) != players:
        raise ExperimentError(f"variant {name!r}: {len(seats)} seats listed for {players} players")
    first = setup.get("first", 0)
    if first != "alternate" and (
        not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players
    ):
        raise ExperimentError(
            f'variant {name!r}: first is a seat 0–{players - 1} or "alternate", not {first!r}'
        )
    # Bad players, rules and bot specs fail here, before any game starts.
    try:
        game.new(players, rules or None, 0)
        bots = game_bots(game_name)
        for spec in seats:
            bots.bot(spec, 0)
    except (GamenightError, NotationError) as exc:
        raise ExperimentError(f"variant {name!r}: {exc}") from None
    return Variant(name, rules, players, tuple(seats), first)


def _metric(data: Any, variants: tuple[Variant, ...]) -> Metric:
    if not isinstance(data, dict):
        raise ExperimentError("metric must be a table (seat, margin)")
    unknown = set(data) - {"seat", "margin"}
    if unknown:
        raise ExperimentError(f"unknown metric key(s): {', '.join(sorted(unknown))}")
    seat = data.get("seat", 0)
    fewest = min(v.players for v in variants)
    if seat != "first" and (
        not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < fewest
    ):
        raise ExperimentError(f'metric.seat is a seat 0–{fewest - 1} or "first", not {seat!r}')
    margin = data.get("margin", 0.05)
    if not isinstance(margin, int | float) or isinstance(margin, bool) or not 0 < margin < 1:
        raise ExperimentError(f"metric.margin is a rate difference between 0 and 1, not {margin!r}")
    return Metric(seat, float(margin))


def _need(data: dict[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ExperimentError(f"{key} must be given as a {kind.__name__}")
    return value


def _short(value: Any) -> str:
    if isinstance(value, list):
        return "/".join(_short(v) for v in value)
    return value if isinstance(value, str) else repr(value)
