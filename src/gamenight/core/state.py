"""What every engine's state shares: a stack of actions with their undo snapshots, copies,
equality by position, and the text and SVG a notebook shows.

A game's state class derives from :class:`StackedState`, keeps its undo snapshots (what
``pop`` restores) on ``_stack`` beside each action, and supplies ``to_position`` (a value
with ``format()``), ``_load`` (set the state from such a value), ``_identity`` (what makes
two states equal) and the modules that draw it (``_RENDERERS``).
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar


class Formats(Protocol):
    """A position value: ``format()`` writes it as one line."""

    def format(self) -> str:
        """The one-line position string."""
        ...


A = TypeVar("A")
S = TypeVar("S")
P = TypeVar("P", bound=Formats)


class StackedState(Generic[A, S, P]):
    """Base of the engines' states (see the module's docstring)."""

    # ("text module", "svg module"), each with the function drawing a state of this game.
    _RENDERERS: ClassVar[tuple[tuple[str, str], tuple[str, str]]]
    _stack: list[tuple[A, S]]
    # How many actions were made before the stack's first and forgotten (clear_stack). A
    # class default, so that states built without __init__ start from none.
    _forgotten = 0

    def to_position(self) -> P:
        """The position as a value (``position()`` gives it as a string)."""
        raise NotImplementedError

    def _load(self, position: P) -> None:
        raise NotImplementedError

    def _identity(self) -> tuple[object, ...]:
        raise NotImplementedError

    def _copied(self, clone: Self, history: bool) -> None:
        """What a game adds to ``copy`` (nothing here)."""

    def position(self) -> str:
        """The one-line position string; ``from_position`` reads it back exactly."""
        return self.to_position().format()

    def copy(self, *, history: bool = True) -> Self:
        """An independent copy, of this state's own class, actions so far included (it can
        ``pop`` them too); with ``history=False`` without them (cheaper: it cannot pop)."""
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
        dropped = max(0, len(self._stack) - keep)
        del self._stack[:dropped]
        self._forgotten += dropped

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
