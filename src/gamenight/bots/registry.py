"""Bots by name for each game, and the five levels the interfaces offer.

A bot is named by a spec: ``name``, then optionally a budget and options, each after a
colon (``ismcts:0.25s``, ``ismcts:400it``, ``planner:160it:aim=normal``,
``ismcts:1s:plans=8``); or ``level1`` … ``level5``. Options are the bot's keyword
arguments, numbers or words.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gamenight.bots.base import Budget
from gamenight.core.errors import NotationError, RulesError

BotFactory = Callable[..., Any]


@dataclass(frozen=True)
class GameBots:
    """How the tournament runner, the web app and the CLI set up a game and its bots."""

    game: str
    min_players: int
    max_players: int
    new_state: Callable[[int, int, int, dict[str, Any] | None], Any]
    bots: dict[str, BotFactory]
    levels: dict[int, str] = field(default_factory=dict)

    def bot(self, spec: str, seed: int | None = None) -> Any:
        """A bot from its spec; raises NotationError naming what is wrong."""
        spec = spec.strip()
        if spec.lower().startswith("level"):
            number = spec[5:]
            if not number.isdigit() or int(number) not in self.levels:
                raise NotationError(
                    f"{spec!r}: {self.game} has levels {min(self.levels)}–{max(self.levels)}"
                )
            spec = self.levels[int(number)]
        name, *parts = spec.split(":")
        factory = self.bots.get(name)
        if factory is None:
            # The levels first: they are what the interfaces offer.
            levels = [f"level{min(self.levels)}–level{max(self.levels)}"] if self.levels else []
            choices = ", ".join([*levels, *self.bots])
            raise NotationError(f"no {self.game} bot called {name!r}: choose from {choices}")
        budget: Budget | None = None
        options: dict[str, Any] = {}
        for part in parts:
            key, equals, text = part.partition("=")
            if equals:
                options[key.strip()] = _option(text.strip())
            else:
                budget = Budget.parse(part)
        try:
            return factory(seed, budget, **options)
        except (TypeError, ValueError) as exc:
            raise NotationError(f"{spec!r}: {exc}") from None


def _centrix() -> GameBots:
    from gamenight.bots import centrix as bots
    from gamenight.centrix import CentrixState, Rules

    def new_state(players: int, seed: int, first: int, rules: dict[str, Any] | None) -> Any:
        # A tournament is set up from rules a user gave: they are held to the bounds.
        rules_value = Rules.from_dict(rules or {}).check_bounds()
        return CentrixState.new(players, seed=seed, first=first, rules=rules_value)

    return GameBots(
        game="centrix",
        min_players=2,
        max_players=6,
        new_state=new_state,
        bots={
            "random": bots.RandomBot,
            "greedy": bots.GreedyBot,
            "planner": bots.TurnPlannerBot,
            "planner2": functools.partial(bots.TurnPlannerBot, beam=2),
            "ismcts": bots.IsmctsBot,
        },
        levels={
            1: "random",
            2: "greedy:epsilon=0.5",
            3: "greedy",
            4: "planner2",
            5: "planner",
        },
    )


def _colorcity() -> GameBots:
    from gamenight.bots import colorcity as bots
    from gamenight.colorcity import ColorCityState, Gang, Table

    def new_state(players: int, seed: int, first: int, rules: dict[str, Any] | None) -> Any:
        # Seat i is gang i, so the runner's seat index is the gang to move. A "skills" entry
        # in the rules (one skill per seat) sets the hands; the rest is the table.
        table_fields = dict(rules or {})
        skills = table_fields.pop("skills", ["normal", "normal"])
        if players != 2:
            raise ValueError("colorcity is for 2 players, one per gang")
        if not isinstance(skills, list) or len(skills) != 2:
            raise RulesError(f"skills is a list of two skill levels, one per gang, not {skills!r}")
        return ColorCityState.new(
            seed=seed,
            first=Gang(first),
            seats=[(Gang.GREEN, skills[0]), (Gang.PURPLE, skills[1])],
            table=Table.from_dict(table_fields).check_bounds(),
        )

    return GameBots(
        game="colorcity",
        min_players=2,
        max_players=2,
        new_state=new_state,
        bots={
            "random": bots.RandomBot,
            "simple": bots.SimpleBot,
            "planner": bots.PlannerBot,
        },
        levels={
            1: "random",
            2: "simple:aim=shaky",
            3: "simple",
            4: "planner:160it:aim=normal",
            5: "planner:160it",
        },
    )


def _option(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


_GAMES: dict[str, Callable[[], GameBots]] = {"centrix": _centrix, "colorcity": _colorcity}


def register(game: str, make: Callable[[], GameBots]) -> None:
    _GAMES[game] = make


def game_bots(game: str) -> GameBots:
    if game not in _GAMES:
        raise NotationError(f"unknown game {game!r}: choose from {', '.join(_GAMES)}")
    return _GAMES[game]()
