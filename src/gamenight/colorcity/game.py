"""Color City as the protocol's Game value (found through gamenight.core.game.registry).

Seat ``i`` plays gang ``i`` (Green, then Purple). Besides the table's fields, the rules'
dict form may hold ``skills``: one skill level per seat, setting the hands' noise.
"""

from __future__ import annotations

from typing import Any

from gamenight.colorcity.state import ColorCityState
from gamenight.colorcity.table import Gang, Table
from gamenight.core.errors import RulesError
from gamenight.core.game import Game

PLAYERS = 2  # one seat per gang when set up by count


def _setup(players: int, rules: Any, seed: int, first: int) -> ColorCityState:
    if isinstance(rules, Table):
        table, skills = rules, ["normal", "normal"]
    else:
        if rules is not None and not isinstance(rules, dict):
            raise RulesError(f"rules are an object of table fields, not {rules!r}")
        table_fields = dict(rules or {})
        skills = table_fields.pop("skills", ["normal", "normal"])
        if not isinstance(skills, list) or len(skills) != PLAYERS:
            raise RulesError(f"skills is a list of two skill levels, one per gang, not {skills!r}")
        table = Table.from_dict(table_fields)
    # Set up from what a user gave (a tournament, a measurement): held to the bounds (D21).
    table = table.check_bounds()
    return ColorCityState.new(
        seed=seed,
        first=Gang(first),
        seats=[(Gang.GREEN, skills[0]), (Gang.PURPLE, skills[1])],
        table=table,
    )


GAME = Game(
    name="colorcity",
    title="Color City",
    min_players=PLAYERS,
    max_players=PLAYERS,
    rules_type=Table,
    setup=_setup,
    from_position=ColorCityState.from_position,
    replay=ColorCityState.replay,
)
