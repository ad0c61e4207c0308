"""What a table sends its pages about itself: the state message, as each page's seats see
it (the other outbound messages are built where they are sent: web.protocol)."""

from __future__ import annotations

from typing import Any

from gamenight.web.live import LiveTable


def state_message(table: LiveTable, seats: list[int], now: int) -> dict[str, Any]:
    """The table at wall time ``now`` (ms), as a page holding ``seats`` sees it."""
    referee = table.referee
    actor = referee.actor
    active = actor if actor in seats else (seats[0] if seats else None)
    view = referee.game.view(referee.state, active)
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
        "clock": None if clock is None or not clock.settings.timed else clock.message(now),
        "seating": {
            "stand_ins": [i for i, s in enumerate(referee.seats) if s.stand_in is not None],
            "resigned": [i for i, s in enumerate(referee.seats) if s.resigned],
            "rematch": [i for i, s in enumerate(referee.seats) if s.rematch],
            "next": referee.stored.setup.get("rematch"),
        },
    }
