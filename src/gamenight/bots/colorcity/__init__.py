"""Color City bots: Random, Simple and Planner. Each sees only its seat's view.

The package by job: ``aiming`` (the Planner's aim at a point), ``reading`` (the city and the
evaluator), ``simple`` (Random, Simple) and ``planner``. The gangs' frames and the textbook
``aim`` are the engine's (gamenight.colorcity.frame), re-exported here; the measurement of the
Planner's aim is gamenight.bench.colorcity.

A bot's ``choose(view)`` returns a ``Shot`` in the pitch phase and a ``Decision`` in the
power phase. The hands' noise comes from the game's generator, whose key the view leaves
out; whatever a bot imagines about noise it draws from its own seeded generator.

The Planner (see docs/ai.md, "Color City") reads the city, screens every placement of the
cube with a cheap model of its own hand, aims the best few against the noise-free physics
and picks the shot with the best Monte Carlo value over its own hand's noise.
"""

from __future__ import annotations

from collections.abc import Callable

from gamenight.bots.base import SeededBot
from gamenight.bots.colorcity.aiming import aim, aim_at, clamp, slide_table, speed_for
from gamenight.bots.colorcity.planner import Candidate, Plan, PlannerBot
from gamenight.bots.colorcity.reading import (
    WIN,
    Evaluator,
    Reading,
    Weights,
    finish_chance,
    hit_chances,
    missing,
    read_city,
)
from gamenight.bots.colorcity.simple import RandomBot, SimpleBot, wobbled
from gamenight.colorcity.frame import from_board, to_board

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
    "WIN",
    "Candidate",
    "Evaluator",
    "Plan",
    "PlannerBot",
    "RandomBot",
    "Reading",
    "SimpleBot",
    "Weights",
    "aim",
    "aim_at",
    "clamp",
    "finish_chance",
    "from_board",
    "hit_chances",
    "missing",
    "read_city",
    "slide_table",
    "speed_for",
    "to_board",
    "wobbled",
]
