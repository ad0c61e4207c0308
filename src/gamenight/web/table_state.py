"""The table's state as each page's seats see it: the ``state`` message (web.outbound)."""

from __future__ import annotations

from gamenight.web.live import LiveTable
from gamenight.web.outbound import ClockOut, StateOut
from gamenight.web.referee import Clock


def clock_of(clock: Clock, now: int) -> ClockOut:
    """The clock as a state carries it (small and stable): each seat's time left at ``now``."""
    return {
        "kind": clock.settings.kind,
        "left": [clock.remaining(seat, now) for seat in range(len(clock.left))],
        "at": now,
        "actor": clock.actor,
    }


def state_message(table: LiveTable, seats: list[int], now: int) -> StateOut:
    """The table at wall time ``now`` (ms), as a page holding ``seats`` sees it."""
    referee = table.referee
    actor = referee.actor
    active = actor if actor in seats else (seats[0] if seats else None)
    view = referee.game.view(referee.state, active, referee.parts)
    if referee.ending is not None:  # the table ended it, not the game's rules
        view = {**view, "outcome": referee.ending.to_dict(), "status": referee.ending.reason}
    clock = referee.clock
    return {
        "type": "state",
        "table": table.id,
        "version": referee.version,
        "revision": referee.revision,
        "seats": seats,
        "active": active,
        "actor": actor,
        "names": referee.seats.names,
        "kinds": referee.seats.kinds,
        "online": table.room.online(),
        "view": view,
        "last": referee.last,
        "can_undo": active is not None
        and actor is not None
        and not referee.seats[active].played_by_bot
        and referee.game.can_undo(referee.state, active),
        # The clock (docs/rules/table.md): each seat's time left at the server's ``at``.
        "clock": None if clock is None or not clock.settings.timed else clock_of(clock, now),
        "seating": {
            "stand_ins": [i for i, s in enumerate(referee.seats) if s.stand_in is not None],
            "resigned": [i for i, s in enumerate(referee.seats) if s.resigned],
            "rematch": [i for i, s in enumerate(referee.seats) if s.rematch],
            "next": referee.stored.setup.get("rematch"),
        },
    }
