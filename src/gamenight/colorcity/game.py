"""Color City as the protocol's Game value (found through gamenight.core.game.registry).

A gang may have several seats, which take its turns in rotation (D1); seats set up by count,
or without a gang, alternate Green, Purple, Green… Besides the table's fields, the rules'
dict form may hold ``skills`` for seats set up by count: a skill level per gang (Green's,
then Purple's), setting the hands of that gang's seats.
"""

from __future__ import annotations

from typing import Any

from gamenight.colorcity.shots import Skill
from gamenight.colorcity.state import ColorCityState
from gamenight.colorcity.table import DEFAULT_TABLE, Gang, Table
from gamenight.core.errors import RulesError
from gamenight.core.game import Game, Seats, SeatSetup

# One seat per gang at the least; a table holds up to eight (D1).
MIN_SEATS, MAX_SEATS = 2, 8


def _setup(seats: Seats, rules: Any, seed: int | None, first: int | str) -> ColorCityState:
    if isinstance(seats, int):
        # Seats set up by count take their hands from the rules' ``skills``; seats set up
        # one by one carry their own, and ``skills`` is then no table field.
        skills: list[str] | None = None
        if isinstance(rules, dict) and "skills" in rules:
            rules = dict(rules)
            skills = rules.pop("skills")
            if not isinstance(skills, list) or len(skills) != len(Gang):
                raise RulesError(
                    f"skills is a list of two skill levels, one per gang, not {skills!r}"
                )
        seats = tuple(
            SeatSetup(skill=skills[i % 2] if skills else Skill.NORMAL.value) for i in range(seats)
        )
    gangs = [(s.role or Gang(i % 2).label, s.skill) for i, s in enumerate(seats)]
    if isinstance(first, int) and not 0 <= first < len(gangs):
        raise RulesError(f"first must be a seat from 0 to {len(gangs) - 1}, not {first}")
    first_gang = first if isinstance(first, str) else gangs[first][0]
    # Set up from what a user gave (a table, a tournament, a measurement): held to the
    # bounds (D21); a stored game replays without them.
    return ColorCityState.new(seed=seed, first=first_gang, seats=gangs, table=_table(rules))


def _table(rules: Any) -> Table:
    if isinstance(rules, Table):
        return rules.check_bounds()
    if rules is not None and not isinstance(rules, dict):
        raise RulesError(f"rules are an object of table fields, not {rules!r}")
    return Table.from_dict(rules).check_bounds() if rules else DEFAULT_TABLE


GAME = Game(
    name="colorcity",
    title="Color City",
    min_players=MIN_SEATS,
    max_players=MAX_SEATS,
    rules_type=Table,
    setup=_setup,
    from_position=ColorCityState.from_position,
    replay=ColorCityState.replay,
)
