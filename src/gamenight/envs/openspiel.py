"""Importing this module registers gamenight's games with OpenSpiel (``pyspiel``):

- ``python_gamenight_centrix`` (players 2–6, ``bottom``, ``max_turns``);
- ``python_gamenight_colorcity`` (``players`` 2 or 4, ``skill``, ``max_turns``).

>>> import pyspiel
>>> import gamenight.envs.openspiel
>>> game = pyspiel.load_game("python_gamenight_centrix", {"players": 3})
"""

from __future__ import annotations

from gamenight.envs.openspiel_centrix import CentrixGame, CentrixGameState
from gamenight.envs.openspiel_colorcity import ColorCityGame, ColorCityGameState

__all__ = ["CentrixGame", "CentrixGameState", "ColorCityGame", "ColorCityGameState"]
