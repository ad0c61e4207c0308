"""The fuzz run: every target, its share of the inputs, interleaved in a seeded order."""

from __future__ import annotations

import asyncio
import random

from . import engines
from .asgi import Lifespan
from .harness import Figures, Target, feed, split, watching
from .server import Targets, World


def run(inputs: int, seed: int = 0, only: str = "") -> dict[str, Figures]:
    """Fuzz with ``inputs`` inputs in all (shared by weight among the targets whose name
    holds ``only``), reproducibly from ``seed``; the figures per target."""
    return asyncio.run(_run(inputs, seed, only))


async def _run(inputs: int, seed: int, only: str) -> dict[str, Figures]:
    with watching() as log:
        world = World()
        async with Lifespan(world.app):
            targets: dict[str, tuple[Target, float]] = {**engines.TARGETS, **Targets(world).all()}
            chosen = {name: t for name, t in targets.items() if only in name}
            counts = split(inputs, {name: weight for name, (_, weight) in chosen.items()})
            # Each target draws from a generator of its own, so that one target's inputs do
            # not depend on how many the others drew; the order interleaves them, so that
            # the tables meet every kind of input in every phase of their games.
            rngs = {name: random.Random(f"{seed}:{name}") for name in chosen}
            order = [name for name, n in counts.items() for _ in range(n)]
            random.Random(seed).shuffle(order)
            figures = {name: Figures() for name in chosen}
            for name in order:
                await feed(chosen[name][0], rngs[name], log, figures[name])
            await world.close()
    return figures
