"""What every engine's state shares: a stack of actions with their undo snapshots, copies,
equality by position, the log, and the text and SVG a notebook shows.

A game's state class derives from :class:`StackedState`, keeps its undo snapshots (what
``pop`` restores) on ``_stack`` beside each action, and supplies ``to_position`` (a value
with ``format()``), ``_load`` (set the state from such a value), ``_identity`` (what makes
two states equal), ``_log_entries`` (the log entries of the latest actions on its stack) and
the modules that draw it (``_RENDERERS``).
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from gamenight.core.errors import LogError


class Formats(Protocol):
    """A position value: ``format()`` writes it as one line."""

    def format(self) -> str:
        """The one-line position string."""
        ...


A = TypeVar("A")
S = TypeVar("S")
P = TypeVar("P", bound=Formats)
E = TypeVar("E")


class StackedState(Generic[A, S, P, E]):
    """Base of the engines' states (see the module's docstring); ``E``, its log entries."""

    # ("text module", "svg module"), each with the function drawing a state of this game.
    _RENDERERS: ClassVar[tuple[tuple[str, str], tuple[str, str]]]
    _stack: list[tuple[A, S]]
    # How many actions were made before the stack's first and forgotten (clear_stack). A
    # class default, so that states built without __init__ start from none.
    _forgotten = 0
    # The log (``log``): the entries written so far, of the first ``len(_log)`` actions
    # since the set-up; the stack's items (by identity) when they were written, from action
    # number ``len(_log) - len(_log_keys)`` on, so that a change of the stack since is told;
    # the stack's mark when they were last found in step; and whether forgetting actions
    # writes their entries first (from the first ``log()`` on). Class defaults, so that a
    # state built without __init__ has written none; immutable, so that copies share them.
    _log: tuple[E, ...] = ()
    _log_keys: tuple[object, ...] = ()
    _log_mark: tuple[int, object] = (-1, None)
    _logging = False

    def to_position(self) -> P:
        """The position as a value (``position()`` gives it as a string)."""
        raise NotImplementedError

    def _load(self, position: P) -> None:
        raise NotImplementedError

    def _identity(self) -> tuple[object, ...]:
        raise NotImplementedError

    def _log_entries(self, count: int) -> list[E]:
        """The log entries of the last ``count`` actions on the stack, oldest first (read
        from the stack and its snapshots, or a copy stepped back: the state is untouched)."""
        raise NotImplementedError

    def _copied(self, clone: Self, history: bool) -> None:
        """What a game adds to ``copy`` (nothing here)."""

    def position(self) -> str:
        """The one-line position string; ``from_position`` reads it back exactly."""
        return self.to_position().format()

    def copy(self, *, history: bool = True) -> Self:
        """An independent copy, of this state's own class, actions so far included (it can
        ``pop`` them too); with ``history=False`` without them (cheaper: it cannot pop)."""
        if not history and self._logging:
            self.log()  # the copy forgets the stack: its log is written first
        clone = type(self).__new__(type(self))
        clone.__dict__.update(self.__dict__)  # the immutable parts are shared ...
        clone._load(self.to_position())  # ... the mutable ones made anew
        clone._stack = list(self._stack) if history else []
        if not history:  # the copy has forgotten them
            clone._forgotten = self._forgotten + len(self._stack)
        self._copied(clone, history)
        return clone

    @property
    def actions(self) -> list[A]:
        """The actions pushed so far, oldest first."""
        return [action for action, _ in self._stack]

    def mark(self) -> tuple[int, object]:
        """Where the stack stands, for a caller that keeps something per position: how many
        actions have been made in all, and the latest's own entry on the stack (None before
        the first). While it is held, an action made or taken back gives another entry, so
        the same count with the same entry (``is``) means no action changed since (forgetting
        all but the latest, ``clear_stack(keep >= 1)``, changes neither)."""
        return self._forgotten + len(self._stack), self._stack[-1] if self._stack else None

    def peek(self) -> A | None:
        """The last action pushed, or None before the first."""
        return self._stack[-1][0] if self._stack else None

    @property
    def forgotten(self) -> int:
        """How many actions were made before the first one on the stack and forgotten
        (``clear_stack``, ``copy(history=False)``): ``forgotten + len(actions)`` have been
        made in all. A state that has forgotten any writes no record."""
        return self._forgotten

    def clear_stack(self, keep: int = 0) -> None:
        """Forget the actions pushed so far but the last ``keep``: they can no longer be
        popped (nor recorded). For adapters that never take back, or only the latest few
        (a table's undo within a turn), to keep memory flat; python-chess's ``clear_stack``
        with ``copy(stack=N)``'s count."""
        if keep < 0:
            raise ValueError(f"keep is a count, not {keep}")
        if self._logging:
            self.log()  # the entries of what is forgotten are written while it is there
        dropped = max(0, len(self._stack) - keep)
        del self._stack[:dropped]
        self._forgotten += dropped

    def log(self) -> tuple[E, ...]:
        """One entry per action made since the set-up, oldest first. Written when asked and
        kept, each action's entry once (a table reads its log many times a move): from the
        first call on, the entries of the actions the state forgets (``clear_stack``,
        ``copy(history=False)``) are written before they go. A state that forgot actions
        before its log was first read cannot tell them: LogError. The plays ``advance`` and
        ``play_randomly`` make (Centrix's searches) are in neither the stack nor the log."""
        mark = self.mark()
        if mark[0] == self._log_mark[0] and mark[1] is self._log_mark[1]:
            return self._log  # no action made or taken back since
        log, keys, forgotten, stack = self._log, self._log_keys, self._forgotten, self._stack
        if len(log) < forgotten:
            raise LogError(
                f"actions {len(log) + 1} to {forgotten} were forgotten (clear_stack) before"
                " the log was read: this state cannot tell them"
            )
        self._logging = True
        # The keys of actions forgotten since stand for entries that stand: skipped. The
        # stack's items the entries were written for that are still there are a prefix of
        # it (a stack changes at its end, and each push makes an item of its own): found by
        # bisection, the stack's item at i being the key at i up to that prefix's end only.
        skip = forgotten - (len(log) - len(keys))
        low, high = 0, min(len(stack), len(keys) - skip)
        while low < high:
            middle = (low + high) // 2
            if stack[middle] is keys[skip + middle]:
                low = middle + 1
            else:
                high = middle
        same = low
        count = len(stack) - same  # the actions made since (after those taken back)
        if forgotten + same != len(log) or count:
            log = log[: forgotten + same] + tuple(self._log_entries(count) if count else ())
        self._log, self._log_keys, self._log_mark = log, tuple(stack), mark
        return log

    def last_entry(self) -> E | None:
        """The latest action's log entry (``log()[-1]``), None before the first. A state
        that keeps no log yet writes only that entry."""
        if not self._logging and self._stack:
            return self._log_entries(1)[0]
        log = self.log()
        return log[-1] if log else None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, StackedState):
            return NotImplemented
        return self._identity() == other._identity()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.position()!r}>"

    def __str__(self) -> str:
        return str(self._draw(0))

    def _repr_svg_(self) -> str:
        return str(self._draw(1))

    def _draw(self, which: int) -> Any:
        # Imported when drawn: the drawing modules import the state's own module.
        module, function = self._RENDERERS[which]
        return getattr(importlib.import_module(module), function)(self)
