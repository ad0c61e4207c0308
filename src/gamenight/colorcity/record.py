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
from gamenight.core.record import GameRecord

GAME = "colorcity"


def to_record(state: ColorCityState, names: Sequence[str] | None = None) -> GameRecord:
    """The record of ``state``'s game so far, with each seat's name from ``names`` if given.

    Raises RecordError for a game not started with ``ColorCityState.new`` (the record needs
    its seed), ValueError if ``names`` does not give one name per seat.
    """
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
    if isinstance(record, GameRecord):
        # A record built in code skipped from_dict's checks; what follows relies on them.
        record = GameRecord.from_dict(record.to_dict(), GAME)
    else:
        record = GameRecord.from_json(record, GAME)
    try:
        table = Table.from_dict(record.rules)
        seats = []
        for seat in record.seats:
            if not isinstance(seat, dict) or set(seat) - {"name"} != {"gang", "skill"}:
                raise RecordError("each seat is an object with 'gang', 'skill' and maybe 'name'")
            seats.append((seat["gang"], seat["skill"]))
        first = record.setup.get("first", "green")
        state = ColorCityState.new(seed=record.seed, first=first, seats=seats, table=table)
    except RecordError:
        raise
    except GamenightError as exc:
        raise RecordError(f"set-up: {exc}") from None
    for i, raw in enumerate(record.actions, 1):
        try:
            if isinstance(raw, str):
                state.push(Decision.parse(raw))
            else:
                state.push(Pitch.from_json(raw))
        except GamenightError as exc:
            raise RecordError(f"action {i}: {exc}") from None
    if record.final_position is not None and record.final_position != state.position():
        raise RecordError(
            "the replay does not reach the recorded final position:\n"
            f"  recorded {record.final_position}\n  replayed {state.position()}"
        )
    if record.outcome is not None and record.outcome != state.outcome:
        raise RecordError(f"the replay ends {state.outcome}, the record says {record.outcome}")
    return state
