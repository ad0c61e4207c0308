"""Bots for both games: each sees only its seat's view and returns an action."""

from gamenight.bots.base import Bot, Budget

__all__ = ["Bot", "Budget"]
