"""Centrix game records: the shared JSON record, with plays in notation.

A record holds the rules, the seats' colours, the seed and the first seat (or, for a game set
up from a position string, that start position) and every play. Replaying pushes the plays
again; the seed decides every shuffle, so the final position comes out identical.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamenight.centrix.board import Colour
from gamenight.centrix.rules import Rules
from gamenight.centrix.state import CentrixState
from gamenight.core.errors import GamenightError, RecordError, shown
from gamenight.core.record import GameRecord, check_whole
from gamenight.core.replay import replay_record

GAME = "centrix"


def to_record(state: CentrixState, names: Sequence[str] | None = None) -> GameRecord:
    """The record of ``state``'s game so far, with each seat's name from ``names`` if given.

    Raises RecordError if the state has forgotten plays (``clear_stack``), ValueError if
    ``names`` does not give one name per seat.
    """
    check_whole(state.forgotten)
    if names and len(names) != len(state.players):
        raise ValueError(f"{len(names)} names for {len(state.players)} seats")
    seats = [
        {"colour": colour.name.lower(), **({"name": names[i]} if names else {})}
        for i, colour in enumerate(state.players)
    ]
    setup: dict[str, object] = {}
    if state.seed is None:
        start = state.start_position
        assert start is not None
        setup["position"] = start
    else:
        setup["first"] = state.first
    return GameRecord(
        game=GAME,
        rules=state.rules.to_dict(),
        seed=state.seed if state.seed is not None else 0,
        seats=seats,
        actions=[str(play) for play in state.plays],
        setup=setup,
        outcome=state.outcome,
        final_position=state.position(),
    )


def replay(record: GameRecord | str | bytes) -> CentrixState:
    """The state at the end of a record (a GameRecord, or its JSON as text or UTF-8 bytes);
    raises RecordError naming the first problem, and nothing else, for any input."""
    return replay_record(record, GAME, _set_up, read_action, "play")


def _set_up(record: GameRecord) -> CentrixState:
    try:
        rules = Rules.from_dict(record.rules)
        if "position" in record.setup:
            start = record.setup["position"]
            if not isinstance(start, str):
                raise RecordError("the record's setup.position must be a position string")
            return CentrixState.from_position(start, rules)
        colours = [Colour.parse(seat.get("colour", "")) for seat in record.seats]
        first = record.setup.get("first", 0)
        if not isinstance(first, int) or isinstance(first, bool):
            raise RecordError("the record's setup.first must be a seat number")
        return CentrixState.new(colours, seed=record.seed, first=first, rules=rules)
    except RecordError:
        raise
    except GamenightError as exc:
        raise RecordError(f"the record's set-up is not valid: {exc}") from exc


def read_action(action: Any) -> str:
    """A play as a record (and a table's store) keeps it: its notation (RecordError for
    anything else)."""
    if not isinstance(action, str):
        raise RecordError(f"a play is written in notation, not {shown(action)}")
    return action
