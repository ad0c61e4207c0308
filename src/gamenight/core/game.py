"""The one game protocol every engine meets, and the one registry of the games.

Modelled on OpenSpiel's ``pyspiel.State`` and python-chess's ``Board``. A state is mutable,
with a stack of actions:

- ``actor``: the seat to act — always a seat number, or None once the game is over;
- ``action_space()``: what may be done now. Finite (``legal_actions()`` lists it, in a fixed
  order) or continuous (Color City's shots: ``sample(rng)`` draws one, ``contains(action)``
  checks one); ``legal_actions()`` raises :class:`ContinuousActionsError` where the actions
  are continuous;
- ``push(action)``: make an action (an action value or its text), returning the action as it
  went on the stack; ``push_unchecked(action)``: the same for an action already known to be
  legal (the bots' hot loops); ``pop()``: take the last one back, returning it; a refused
  action raises a GamenightError and changes nothing;
- ``parse_action(text)`` / ``str(action)``: the action notation;
- ``view(seat)``: what that seat may know (None: a spectator) — hidden information is cut
  here, and only here; ``view.sample(rng)`` deals what the view cannot see at random;
- ``outcome``; ``standing()``: a score per seat at any moment, higher is better, by which
  the game ranks seats when it ends early;
- ``position()`` (and the Game's ``from_position``), ``record()`` (and ``replay``), ``copy()``;
- ``log()``: one :class:`LogEntry` per action made since the set-up (who, the notation as
  people read it, the effects in the game's terms), and ``last_entry()``, the latest action's:
  what a page words and marks, and what bots, the lab and the analysis can read as well.

A :class:`Game` value per game names it, its player counts and rules type, and sets up new
states. ``registry`` finds them by name: adding a game is its package (with a ``GAME``
value in its ``game`` module) and one line in ``_ENTRIES``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from gamenight.core.errors import GamenightError, NotationError, RulesError
from gamenight.core.outcome import Outcome
from gamenight.core.record import GameRecord

T = TypeVar("T")
A_co = TypeVar("A_co", covariant=True)
S = TypeVar("S", bound="GameState")


class ContinuousActionsError(GamenightError, ValueError):
    """The actions open now are continuous: sample or check them through ``action_space()``."""


@runtime_checkable
class ActionSpace(Protocol[A_co]):
    """What may be done now: ``finite`` spaces list their actions, others only sample and
    check."""

    @property
    def finite(self) -> bool:
        """Whether ``actions()`` lists every action of the space."""
        ...

    def actions(self) -> Sequence[A_co]:
        """Every action, in a fixed order (raises ContinuousActionsError if not finite)."""
        ...

    def sample(self, rng: random.Random) -> A_co:
        """One action drawn with ``rng`` (uniformly, for a finite space)."""
        ...

    def contains(self, action: object) -> bool:
        """Whether ``action`` is one of this space's (never raises)."""
        ...


@dataclass(frozen=True)
class FiniteSpace(Generic[T]):
    """A finite action space: these actions, in this order."""

    choices: tuple[T, ...]

    @property
    def finite(self) -> bool:
        """Always: ``actions()`` lists the whole space."""
        return True

    def actions(self) -> list[T]:
        """The actions, in their order."""
        return list(self.choices)

    def sample(self, rng: random.Random) -> T:
        """One action uniformly (RulesError if there is none)."""
        if not self.choices:
            raise RulesError("there is no action to take")
        return rng.choice(self.choices)

    def contains(self, action: object) -> bool:
        """Whether ``action`` is one of them."""
        return action in self.choices


class LogEntry(Protocol):
    """One action as a game's log tells it: who made it, its notation as people read it, and
    what it did, in the game's own terms (an engine's entries are frozen values)."""

    @property
    def seat(self) -> int:
        """The seat that made the action."""
        ...

    @property
    def notation(self) -> str:
        """The action as people read it (a game may round what its record keeps exactly)."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The entry as JSON (``seat``, ``notation`` and the game's effects): a new dict."""
        ...


class View(Protocol):
    """What one seat may know of a state (``seat`` None: a spectator)."""

    @property
    def seat(self) -> int | None:
        """The seat whose view it is; None for a spectator's."""
        ...

    def sample(self, rng: random.Random) -> GameState:
        """A full state consistent with this view, what it cannot see drawn with ``rng``."""
        ...


class GameState(Protocol):
    """A game in progress, as every layer above the engines reads it (see the module)."""

    @property
    def actor(self) -> int | None:
        """The seat to act, or None once the game is over."""
        ...

    @property
    def num_players(self) -> int:
        """The number of seats."""
        ...

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        ...

    @property
    def outcome(self) -> Outcome | None:
        """Places by seat and the reason once over; None before."""
        ...

    @property
    def actions(self) -> Sequence[Any]:
        """The actions pushed so far, oldest first."""
        ...

    @property
    def movers(self) -> list[int]:
        """The seat that made each action pushed so far."""
        ...

    def legal_actions(self) -> list[Any]:
        """Every action open now where they are finite (empty once over)."""
        ...

    def action_space(self) -> ActionSpace[Any]:
        """What may be done now, finite or continuous."""
        ...

    def parse_action(self, text: str) -> Any:
        """The action ``text`` writes (its notation only: legality is ``push``'s)."""
        ...

    def push(self, action: Any) -> Any:
        """Make an action (or its text); returns it as it went on the stack."""
        ...

    def push_unchecked(self, action: Any) -> Any:
        """``push`` for an action already known to be legal, without checking it."""
        ...

    def pop(self) -> Any:
        """Take back the last action, restoring the state exactly; returns it."""
        ...

    @property
    def forgotten(self) -> int:
        """How many actions were made before the first of ``actions`` and forgotten."""
        ...

    def clear_stack(self, keep: int = 0) -> None:
        """Forget the actions pushed so far but the last ``keep`` (they can no longer be
        popped, and the state writes no record)."""
        ...

    def mark(self) -> tuple[int, object]:
        """Where the stack stands: the actions made in all, and the latest's entry; the same
        (the entry by identity, while held) until an action is made or taken back."""
        ...

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know (None: a spectator)."""
        ...

    def log(self) -> Sequence[LogEntry]:
        """One entry per action made since the set-up, oldest first (public: every seat may
        read it). Kept from its first reading: the entries of actions forgotten since
        (``clear_stack``) stay; a state that forgot actions before its log was first read
        raises LogError."""
        ...

    def last_entry(self) -> LogEntry | None:
        """The latest action's entry (``log()[-1]``; None before the first), read without
        writing the whole log where the state has not kept one."""
        ...

    def standing(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's standing now, comparable between seats (higher is better)."""
        ...

    def position(self) -> str:
        """The one-line position text."""
        ...

    def record(self, names: Sequence[str] | None = None) -> GameRecord:
        """The game so far as a record."""
        ...

    def copy(self) -> Any:
        """An independent copy, history included."""
        ...


@dataclass(frozen=True)
class SeatSetup:
    """One seat of a game being set up, in the game's own words.

    ``role`` is the seat's part: a pawn colour in Centrix (``red``, ``blue``…), a gang in
    Color City (``green`` or ``purple``); "" leaves it to the game (Centrix: seat *i* the
    *i*-th colour of the rulebook's order; Color City: Green, Purple, Green… by seat).
    ``skill`` is the seat's hand where the game has hands (Color City: ``exact``,
    ``steady``, ``normal``, ``shaky``); a game without hands (Centrix) has no use for it.
    """

    role: str = ""
    skill: str = "normal"


Seats = int | tuple[SeatSetup, ...]  # a count of seats the game sets up itself, or each seat


@dataclass(frozen=True)
class Game(Generic[S]):
    """One game as the layers above the engines see it, its states of type ``S`` (the
    registry's are ``Game[Any]``: a layer that needs an engine's own type names it).

    ``new(players, rules, seed, first=0)`` sets up a game: ``players`` is a count, or a
    :class:`SeatSetup` per seat (a table that chooses each seat's colour or gang and skill);
    ``rules`` is a ``rules_type`` value, its dict form (``rules_type.from_dict``) or None for
    the rulebook's, and is held to the game's set-up bounds (a game set up here is set up
    from what a user gave); ``seed`` None draws one; ``first`` is the seat that starts in
    Centrix, and in Color City the seat whose gang starts (that gang's first seat pitches
    first, whichever of its seats is named) or a gang's name.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    rules_type: type[Any]
    setup: Callable[[Seats, Any, int | None, int | str], S]
    from_position: Callable[[str], S]
    replay: Callable[[GameRecord | str], S]

    def new(
        self,
        players: int | Sequence[SeatSetup],
        rules: Any = None,
        seed: int | None = 0,
        first: int | str = 0,
    ) -> S:
        """A new game of ``players`` seats (a count or each seat's set-up); raises RulesError
        for a count the game does not take or rules that do not read."""
        seats: Seats = players if isinstance(players, int) else tuple(players)
        self.check_players(seats if isinstance(seats, int) else len(seats))
        return self.setup(seats, rules, seed, first)

    def check_players(self, players: int) -> None:
        """RulesError unless the game is for ``players`` players."""
        if not self.min_players <= players <= self.max_players:
            raise RulesError(f"{self.name} is for {self.players_text} players, not {players}")

    @property
    def players_text(self) -> str:
        """The player counts as the rulebook writes them: ``2`` or ``2–6``."""
        low, high = self.min_players, self.max_players
        return f"{low}" if low == high else f"{low}–{high}"


# The games, each by the module that holds its GAME value: imported when first asked for,
# so that this layer imports no engine.
_ENTRIES = {
    "centrix": "gamenight.centrix.game",
    "colorcity": "gamenight.colorcity.game",
}


class Registry:
    """The games by name; ``registry[name]`` raises NotationError for an unknown name."""

    def __init__(self, entries: dict[str, str]) -> None:
        self._entries = dict(entries)
        self._games: dict[str, Game[Any]] = {}

    def names(self) -> list[str]:
        """The games' names, in registration order."""
        return list(self._entries)

    def __iter__(self) -> Iterator[Game[Any]]:
        return (self[name] for name in self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __getitem__(self, name: str) -> Game[Any]:
        game = self._games.get(name)
        if game is None:
            module = self._entries.get(name)
            if module is None:
                choices = ", ".join(self._entries)
                raise NotationError(f"unknown game {name!r}: choose from {choices}")
            game = importlib.import_module(module).GAME
            assert isinstance(game, Game)
            self._games[name] = game
        return game


registry = Registry(_ENTRIES)
