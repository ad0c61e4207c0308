"""Replaying a game record, the same way for every game: read the record, set the game up,
push each action, and check that the game reaches the record's final position and
outcome. Each game supplies its set-up and how an action is read from the record."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from gamenight.core.endings import TABLE_REASONS, check_table_outcome
from gamenight.core.errors import GamenightError, RecordError, shown
from gamenight.core.outcome import Outcome
from gamenight.core.record import GameRecord


class Replayable(Protocol):
    """What a replay needs of a state."""

    def push(self, action: Any) -> Any:
        """Make an action (raises a GamenightError, changing nothing, if it is refused)."""
        ...

    def position(self) -> str:
        """The one-line position."""
        ...

    @property
    def outcome(self) -> Outcome | None:
        """Places and reason once over."""
        ...

    def standing(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's standing now (a table's ending ranks by it)."""
        ...


S = TypeVar("S", bound=Replayable)


def replay_record(
    record: GameRecord | str | bytes,
    game: str,
    set_up: Callable[[GameRecord], S],
    read: Callable[[Any], Any],
    word: str = "action",
) -> S:
    """The state at the end of ``record`` (a GameRecord, or its JSON as text or UTF-8 bytes)
    of ``game``.

    ``set_up`` builds the start from the record (raising RecordError for a bad set-up);
    ``read`` turns one recorded action into what the state pushes; ``word`` names an
    action in errors (Centrix: ``play``). Raises RecordError naming the first problem, and
    nothing else, for any input.
    """
    if isinstance(record, GameRecord):
        if record.game != game:
            raise RecordError(f"this is a record of {shown(record.game)}, not of {game!r}")
        # A record built in code skipped from_dict's checks; what follows relies on them.
        record = GameRecord.from_dict(record.to_dict(), game)
    else:
        record = GameRecord.from_json(record, game)
    state = set_up(record)
    for number, raw in enumerate(record.actions, 1):
        try:
            state.push(read(raw))
        except GamenightError as exc:
            raise RecordError(f"the record does not replay at {word} {number}: {exc}") from exc
    if record.final_position is not None and record.final_position != state.position():
        raise RecordError(
            "the replay does not reach the recorded final position:\n"
            f"  recorded {record.final_position}\n  replayed {state.position()}"
        )
    if record.outcome is not None and record.outcome.reason in TABLE_REASONS:
        # The table ended a game its rules had not (T5): the state stays unfinished, and
        # the recorded ending must be what the position gives.
        if state.outcome is not None:
            raise RecordError(
                f"the replay ends {state.outcome} by the game's rules, before the table's"
                f" {record.outcome.reason}"
            )
        check_table_outcome(record.outcome, state.standing())
    elif record.outcome is not None and record.outcome != state.outcome:
        raise RecordError(f"the replay ends {state.outcome}, the record says {record.outcome}")
    return state
