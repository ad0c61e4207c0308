"""How a table ends a game that its rules have not ended (docs/rules/table.md).

A game's own rules end it (Centrix: every pawn on the top; Color City: a gang's colour
everywhere, or the turn cap). A table can end it too, for reasons of the table and not of
the game: a seat resigned (T1), a seat's time ran out where the host chose that a flag
loses (T2), nobody came back to an abandoned table (T3). Such an ending is an outcome of
its own reason, computed here from the position alone (T4), so that a record replays to
exactly the outcome it stores (T5).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gamenight.core.errors import RecordError
from gamenight.core.outcome import Outcome

RESIGNED = "resigned"  # T1: ``seats`` resigned
OUT_OF_TIME = "out_of_time"  # T2: ``seats`` ran out of time
ABANDONED = "abandoned"  # T3: nobody acted or came back within the host's limit
TABLE_REASONS = (RESIGNED, OUT_OF_TIME, ABANDONED)


def table_outcome(
    reason: str, standing: Sequence[tuple[int, ...]], losers: Iterable[int] = ()
) -> Outcome:
    """The outcome of a game a table ends for ``reason`` (T4): the ``losers`` (the seats
    that resigned or ran out of time) share the last place; every other seat is ranked by
    the game's ``standing`` now, as the game ranks seats when it ends early, equal seats
    sharing a place. Raises RecordError for an unknown reason or seat, or losers given
    for an abandonment (which nobody loses alone)."""
    lost = tuple(sorted(set(losers)))
    if reason not in TABLE_REASONS:
        raise RecordError(
            f"a table ends a game as one of {', '.join(TABLE_REASONS)}, not {reason!r}"
        )
    if any(not 0 <= seat < len(standing) for seat in lost):
        raise RecordError(f"{reason}: there is no seat {lost} at a table of {len(standing)}")
    if (reason == ABANDONED) == bool(lost):
        raise RecordError(
            f"{reason}: an abandoned game names no seat, a resignation or a flag at least one"
        )
    others = [seat for seat in range(len(standing)) if seat not in lost]
    if not others:
        raise RecordError(f"{reason}: every seat cannot lose at once")
    places = [len(others) + 1] * len(standing)
    for seat, place in zip(
        others, Outcome.places_from_scores([standing[s] for s in others]), strict=True
    ):
        places[seat] = place
    return Outcome(tuple(places), reason, lost)


def check_table_outcome(recorded: Outcome, standing: Sequence[tuple[int, ...]]) -> None:
    """RecordError unless ``recorded`` is what T4 gives for its reason and seats at a
    position of this ``standing`` (a record's replay, T5)."""
    expected = table_outcome(recorded.reason, standing, recorded.seats)
    if expected != recorded:
        raise RecordError(
            f"the table's ending at this position is {expected}, the record says {recorded}"
        )
