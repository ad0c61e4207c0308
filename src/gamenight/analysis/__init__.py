"""Analysis after the game: each seat's chance to win along a finished game, its turning
points and its mistakes, estimated by the bots (issue 32, docs/learning.md).

A layer above the bots and below the interfaces: it runs bots and their rollouts, and the
engines never import it. ``analyse(record)`` reads a record of either game.
"""

from __future__ import annotations

from gamenight.analysis.report import Analysis, Mistake, TurningPoint

__all__ = ["Analysis", "Mistake", "TurningPoint"]
