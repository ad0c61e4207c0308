"""Bots by name for each game, and the five levels the interfaces offer.

A bot is named by a spec: ``name``, then optionally a budget and options, each after a
colon (``ismcts:0.25s``, ``ismcts:400it``, ``planner:160it:aim=normal``,
``ismcts:1s:plans=8``); or ``level1`` … ``level5``. Options are the bot's keyword
arguments, numbers or words. An outside policy is ``py:module:callable`` or
``sb3:path.zip`` (gamenight.bots.outside).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gamenight.bots.base import Budget
from gamenight.bots.outside import is_outside, outside_bot
from gamenight.core.errors import NotationError
from gamenight.core.game import registry
from gamenight.core.numbers import read_decimal, read_whole_number

BotFactory = Callable[..., Any]


@dataclass(frozen=True)
class GameBots:
    """A game's bots by name and its five levels, as the tournament runner, the web app and
    the CLI build them. The game itself (set-up, player counts) is
    ``gamenight.core.game.registry[game]``."""

    game: str
    bots: dict[str, BotFactory]
    levels: dict[int, str] = field(default_factory=dict)

    def bot(self, spec: str, seed: int | None = None, *, seconds: float | None = None) -> Any:
        """A bot from its spec; raises NotationError naming what is wrong. ``seconds``: the
        most a decision may take, whatever the spec's budget (the web's bots: one table's
        bot, however hard its rules make the physics, takes no more than its share)."""
        spec = spec.strip()
        if is_outside(spec):
            return outside_bot(self.game, spec, seed)
        if spec.lower().startswith("level"):
            number = spec[5:]
            try:
                level = read_whole_number(number, "a level", NotationError)
            except NotationError:
                level = None  # told below, with the levels there are
            if level not in self.levels:
                raise NotationError(
                    f"{spec!r}: {self.game} has levels {min(self.levels)}–{max(self.levels)}"
                )
            spec = self.levels[level]
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
            bot = factory(seed, budget, **options)
            if seconds is not None:  # (the spec's budget, or the bot's own default, capped)
                bot = factory(seed, bot.budget.within(seconds), **options)
            return bot
        except (TypeError, ValueError) as exc:
            raise NotationError(f"{spec!r}: {exc}") from None


def _option(text: str) -> int | float | str:
    # A number when it reads as one (ASCII digits: int('٣') and float('nan') would), else text.
    try:
        return read_whole_number(text, "an option", NotationError, signed=True)
    except NotationError:
        pass
    try:
        return read_decimal(text, "an option", NotationError)
    except NotationError:
        return text


def game_bots(game: str) -> GameBots:
    """The bots of ``game``: its ``BOTS`` and ``LEVELS`` in ``gamenight.bots.<game>``.

    Raises NotationError for a game the registry does not know, or one without bots.
    """
    registry[game]  # an unknown game is refused by the one registry, naming the choices
    name = f"gamenight.bots.{game}"
    if importlib.util.find_spec(name) is None:
        raise NotationError(f"there are no {game} bots yet")
    module = importlib.import_module(name)
    return GameBots(game=game, bots=dict(module.BOTS), levels=dict(module.LEVELS))
