"""Game records: write a game as JSON and replay it to the identical position.

The shared GameRecord (gamenight.core.record) holds ``game: "colorcity"``, ``rules`` (the
table's fields), ``seed``, ``seats`` (``{"gang": …, "skill": …}`` in seat order),
``setup`` (``{"first": "green"|"purple"}``), ``actions`` and the final position. A pitch
is stored as ``{"shot": "position direction speed spin", "noise": [degrees, speed factor,
rad/s], "pose": [x, y, z, qw, qx, qy, qz]}``; a power decision as its name. Replay
applies each recorded pose (never simulating), after checking that the seed's generator
draws exactly the recorded noise (decision D17).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamenight.colorcity.actions import Decision, Pitch
from gamenight.colorcity.state import ColorCityState
from gamenight.colorcity.table import Table
from gamenight.core.errors import GamenightError, RecordError
from gamenight.core.record import GameRecord, check_whole
from gamenight.core.replay import replay_record

GAME = "colorcity"


def to_record(state: ColorCityState, names: Sequence[str] | None = None) -> GameRecord:
    """The record of ``state``'s game so far, with each seat's name from ``names`` if given.

    Raises RecordError for a game not started with ``ColorCityState.new`` (the record needs
    its seed) or one that has forgotten actions (``clear_stack``), ValueError if ``names``
    does not give one name per seat.
    """
    check_whole(state.forgotten)
    if state.seed is None:
        raise RecordError("only a game set up from a seed can be recorded")
    if state.first is None:
        raise RecordError("only a game set up with ColorCityState.new can be recorded")
    if names and len(names) != len(state.seats):
        raise ValueError(f"{len(names)} names for {len(state.seats)} seats")
    actions: list[Any] = [a.to_json() if isinstance(a, Pitch) else a.value for a in state.actions]
    return GameRecord(
        game=GAME,
        rules=state.table.to_dict(),
        seed=state.seed,
        seats=[
            {"gang": g.label, "skill": s.value, **({"name": names[i]} if names else {})}
            for i, (g, s) in enumerate(state.seats)
        ],
        actions=actions,
        setup={"first": state.first.label},
        outcome=state.outcome,
        final_position=state.position(),
    )


def replay(record: GameRecord | str | bytes) -> ColorCityState:
    """The state a record (a GameRecord, or its JSON as text or UTF-8 bytes) describes,
    replayed action by action; raises RecordError, and nothing else, for any input: a
    record that is malformed, an action that is illegal, a final position that differs."""
    return replay_record(record, GAME, _set_up, read_action)


def _set_up(record: GameRecord) -> ColorCityState:
    try:
        table = Table.from_stored(record.rules)
        seats = []
        for seat in record.seats:
            if not isinstance(seat, dict) or set(seat) - {"name"} != {"gang", "skill"}:
                raise RecordError("each seat is an object with 'gang', 'skill' and maybe 'name'")
            seats.append((seat["gang"], seat["skill"]))
        first = record.setup.get("first", "green")
        return ColorCityState.new(seed=record.seed, first=first, seats=seats, table=table)
    except RecordError:
        raise
    except GamenightError as exc:
        raise RecordError(f"set-up: {exc}") from None


def read_action(raw: Any) -> Pitch | Decision:
    """An action as a record (and a table's store) keeps it, as the state pushes it: a
    decision is stored as its name, a pitch as its data (with the pose it reached)."""
    return Decision.parse(raw) if isinstance(raw, str) else Pitch.from_json(raw)
