"""Centrix as the protocol's Game value (found through gamenight.core.game.registry)."""

from __future__ import annotations

from typing import Any

from gamenight.centrix.board import Colour
from gamenight.centrix.position import MAX_PLAYERS, MIN_PLAYERS
from gamenight.centrix.rules import Rules
from gamenight.centrix.state import CentrixState
from gamenight.core.errors import RulesError
from gamenight.core.game import Game, Seats


def read_rules(rules: Rules | dict[str, Any] | None) -> Rules:
    """Rules from a Rules value, its dict form or None (the rulebook's)."""
    if isinstance(rules, Rules):
        return rules
    if rules is not None and not isinstance(rules, dict):
        raise RulesError(f"rules are an object of rule names, not {rules!r}")
    return Rules.from_dict(rules or {})


def _setup(seats: Seats, rules: Any, seed: int | None, first: int | str) -> CentrixState:
    players: int | list[Colour] = (
        seats
        if isinstance(seats, int)
        else [Colour.parse(s.role) if s.role else Colour(i) for i, s in enumerate(seats)]
    )
    if not isinstance(first, int):
        raise RulesError("first must be a seat number")
    # A game set up through the registry (a table, a tournament, a measurement) is set up
    # from rules a user gave: they are held to the set-up bounds (D17).
    rules_value = read_rules(rules).check_bounds()
    return CentrixState.new(players, seed=seed, first=first, rules=rules_value)


GAME = Game(
    name="centrix",
    title="Centrix",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    rules_type=Rules,
    setup=_setup,
    from_position=CentrixState.from_position,
    replay=CentrixState.replay,
)
