"""The steps of a table's replay, served without replaying the game for each (issue 14,
finding 7: a replay autoplays one request per step, and each replayed the whole game).

A live table's state keeps only the plays undo may take back (issue 20): the first request
for a table at a revision replays its stored actions (read under the table's lock: an
action may be changing them) into a state that holds them all, and the engine's own undo
(``pop``) walks it back exactly, once, keeping a copy every ``EVERY`` steps; a step is then
a copy of the nearest later mark stepped back at most ``EVERY - 1`` plays. All of it runs
off the event loop. The views asked for lately are kept too (several spectators watch one
replay).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gamenight.web.tables import LiveTable

EVERY = 64  # steps between two marks
TABLES_KEPT = 8  # tables whose marks are kept
VIEWS_KEPT = 64  # views kept, over all tables


class Replays:
    def __init__(self) -> None:
        self._marks: OrderedDict[tuple[str, int], dict[int, Any]] = OrderedDict()
        self._views: OrderedDict[tuple[str, int, int], dict[str, Any]] = OrderedDict()

    async def step(self, table: LiveTable, step: int) -> dict[str, Any]:
        """``table`` after its first ``step`` actions (0 ≤ step ≤ the table's version, checked
        by the caller): the spectators' ``view``, the ``last`` action, ``finished`` and, once
        the game is over, ``hands`` (each seat's hand)."""
        referee = table.referee
        # Whether the game is over is the revision's (an ending moves the revision on): read
        # together, they name the step's view.
        key, finished = (table.id, referee.revision, step), referee.finished
        view = self._views.get(key)
        if view is None:
            marks = self._marks.get(key[:2])
            if marks is None:
                async with table.lock:
                    history, version = referee.history(), referee.version
                    key, finished = (table.id, referee.revision, step), referee.finished
                marks = await asyncio.to_thread(lambda: mark(history(), version))
                self._marks[key[:2]] = marks
                while len(self._marks) > TABLES_KEPT:
                    self._marks.popitem(last=False)
            seats = len(referee.seats.names) if finished else 0  # hands shown for these
            view = await asyncio.to_thread(step_view, table.game, marks, step, seats)
            self._views[key] = view
            while len(self._views) > VIEWS_KEPT:
                self._views.popitem(last=False)
        self._views.move_to_end(key)
        # Whether the game was over when the step was made: the hands come with it (a bot may
        # end the game between this and the caller's next look at the table).
        return {**view, "finished": finished}


def mark(state: Any, version: int) -> dict[int, Any]:
    """Copies of ``state`` (a private copy, at ``version`` actions) every EVERY steps back,
    and at ``version`` itself."""
    marks = {version: state.copy()}
    for step in range(version - 1, -1, -1):
        state.pop()
        if step % EVERY == 0:
            marks[step] = state.copy()
    return marks


def step_view(game: Any, marks: dict[int, Any], step: int, seats: int) -> dict[str, Any]:
    """The step's view, last action, and the hands of its first ``seats`` seats (none while
    the game is in play)."""
    nearest = min(m for m in marks if m >= step)
    state = marks[nearest].copy()
    for _ in range(nearest - step):
        state.pop()
    view: dict[str, Any] = game.view(state, None)
    # Each seat's own view holds its hand (a game without hands: None for every seat).
    hands = [game.view(state, seat).get("hand") for seat in range(seats)]
    # ``hands`` only once the game is over: while it is in play the answer has no such field.
    return {
        "view": view,
        "last": game.last(state),
        **({} if all(h is None for h in hands) else {"hands": hands}),
    }
