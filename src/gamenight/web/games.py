"""What the web app needs from each game: set-up, views as JSON, actions, queries, undo,
bots.

The games themselves — names, player counts, rules types, replay, the log — are the one
registry's (``gamenight.core.game.registry``) and their engines'; this module only
translates a game's states to what pages and the store exchange, as JSON, and back. Each
game's translator is the ``VIEW`` of ``gamenight.web.views.<game>``, so a game with a web
page is its engine, its registry line, that module and its page modules.

Everything a client receives comes from a seat's view (or the spectator's), never from the
full state: this layer is where a game's hidden information stays on the server.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from gamenight.bots.registry import game_bots
from gamenight.core.errors import GamenightError
from gamenight.core.game import Game, GameState, LogEntry, SeatSetup, View, registry
from gamenight.core.record import GameRecord
from gamenight.web import hints

S = TypeVar("S", bound=GameState)
T = TypeVar("T")

JSON = dict[str, Any]  # a JSON object as pages and the store exchange it
Payload = str | JSON  # an action as the store keeps it: its notation, or a pitch's record


@dataclass(frozen=True)
class SeatSpec:
    """A seat as the home page sets it up."""

    kind: str  # "human" (this device or an invite) or "bot"
    name: str
    level: int | None = None
    role: str = ""  # Centrix: pawn colour; Color City: gang
    skill: str = "normal"  # Color City: the seat's hand


class Parts:
    """The parts of a table's views that no seat changes (the board, the log, the legal
    plays), computed once per change of its state and shared by every seat's view until an
    action is made or taken back (issue 20). A table holds one (web.referee) beside its
    state, so that the translator keeps nothing; a view asked without one computes them."""

    def __init__(self) -> None:
        self._state: object = None
        # The state's ``mark()`` when the parts were computed: the same mark, the same parts.
        self._mark: tuple[int, object] = (-1, None)
        self._values: dict[str, Any] = {}
        # The log's entries last translated, and their JSON: each entry is translated once.
        self._entries: Sequence[LogEntry] = ()
        self._json: list[JSON] = []

    def get(self, state: GameState, name: str, compute: Callable[[], T]) -> T:
        """``compute()``, once per change of ``state``."""
        mark = state.mark()
        if state is not self._state or mark[0] != self._mark[0] or mark[1] is not self._mark[1]:
            self._state, self._mark, self._values = state, mark, {}
        if name not in self._values:
            self._values[name] = compute()
        return cast(T, self._values[name])

    def log(self, state: GameState) -> list[JSON]:
        """``log_json(state)``, a new list, the entries it translated before reused (a long
        game's log has hundreds): the engine's log keeps its entries, the same values, until
        their actions are taken back, so those still there are a prefix, found by bisection."""
        entries, before = state.log(), self._entries
        low, high = 0, min(len(entries), len(before))
        while low < high:
            middle = (low + high) // 2
            if entries[middle] is before[middle]:
                low = middle + 1
            else:
                high = middle
        self._json = self._json[:low] + [entry.to_dict() for entry in entries[low:]]
        self._entries = entries
        return list(self._json)


class UnknownQueryError(GamenightError, ValueError):
    """A query the game does not answer (``WebGame.query``)."""


def log_json(state: GameState) -> list[JSON]:
    """The state's log as the pages word it: each entry's JSON, oldest first."""
    return [entry.to_dict() for entry in state.log()]


def argument(args: JSON, name: str, query: str) -> str:
    """The text argument ``name`` of a query (GamenightError naming it if it is not text)."""
    value = args.get(name)
    if not isinstance(value, str):
        raise GamenightError(f"the query {query!r} takes {name!r}, as text")
    return value


class WebGame(Generic[S]):
    """The translator the server drives, for states of type ``S``, one subclass per game:
    from the engine's state to JSON (views, the last action, stored payloads) and back
    (actions in notation, stored payloads, queries). It keeps nothing: the log and the last
    action are the engine's (``GameState.log``), a table's shared view parts its own
    (``Parts``).

    A table keeps its state with the translator that set it up or replayed it, so each one
    only ever receives its own game's states. A live table keeps only what undo and
    reconnection need (issue 20): once an action is stored, ``settle`` has the engine forget
    every action that can no longer be taken back (their log entries stay).
    """

    state_type: type[S]
    simulates = False  # whether an action runs a simulation (kept off the event loop)

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def min_seats(self) -> int:
        return self.game.min_players

    @property
    def max_seats(self) -> int:
        return self.game.max_players

    @staticmethod
    def seat_setups(seats: list[SeatSpec]) -> list[SeatSetup]:
        """The seats as the game sets them up (their part and hand; the rest is the web's)."""
        return [SeatSetup(seat.role, seat.skill) for seat in seats]

    def own(self, state: GameState) -> S:
        """``state`` as this game's state (TypeError for another game's)."""
        if not isinstance(state, self.state_type):
            raise TypeError(f"{self.name} cannot show a {type(state).__name__}")
        return state

    def new(
        self, seats: list[SeatSpec], first: int | str, rules: JSON, seed: int
    ) -> tuple[S, JSON]:
        """The new state, set up through the registry's game (which holds the rules to the
        set-up bounds: a stored table replays without them), and the stored ``setup`` that
        rebuilds it."""
        raise NotImplementedError

    def replay(
        self,
        rules: JSON,
        seed: int,
        setup: JSON,
        seats: list[JSON],
        actions: list[Any],
    ) -> S:
        """The state a stored table reaches: the engine's own record replay, so the web app
        keeps no second way of rebuilding a game."""
        return self.engine_replay(self.stored_record(rules, seed, setup, seats, actions))

    def stored_record(
        self, rules: JSON, seed: int, setup: JSON, seats: list[JSON], actions: list[Any]
    ) -> GameRecord:
        """A stored table's game as the engine's record (without its ending)."""
        return GameRecord(
            game=self.name,
            rules=rules,
            seed=seed,
            seats=[self.record_seat(seat) for seat in seats],
            actions=list(actions),
            setup={"first": setup["first"]},
        )

    def record_seat(self, seat: JSON) -> JSON:
        """A stored seat as the game's record writes it."""
        raise NotImplementedError

    def engine_replay(self, record: GameRecord) -> S:
        return self.own(self.game.replay(record))

    def record(
        self,
        state: S,
        rules: JSON,
        seed: int,
        setup: JSON,
        seats: list[JSON],
        actions: list[Any],
    ) -> GameRecord:
        """The record of the game a table stored (its ``actions``, as ``replay`` reads them)
        that has reached ``state``: the engine's own record as ``state.record`` writes it,
        which a live state cannot, having forgotten its earlier actions."""
        record = self.stored_record(rules, seed, setup, seats, actions)
        if given := hints.used(setup):  # the hints given at the table (issue 32)
            record.setup[hints.USED] = given
        record.outcome, record.final_position = state.outcome, state.position()
        return record

    def role(self, state: S, seat: int) -> str:
        """The seat's part in the game: a pawn colour, a gang."""
        raise NotImplementedError

    def rules_of(self, state: S) -> JSON:
        raise NotImplementedError

    def actor(self, state: S) -> int | None:
        """The seat that acts now (None when the game is over)."""
        return state.actor

    def act(self, state: S, text: str) -> tuple[Payload, JSON]:
        """Apply an action written in notation. Returns (stored payload, what happened:
        ``last`` of the new state)."""
        raise NotImplementedError

    def push_stored(self, state: S, payload: Payload) -> None:
        """Make an action as the store keeps it (one another server made: web.relay), read
        and checked as the replay reads and checks it; raises, changing nothing, if it does
        not apply."""
        raise NotImplementedError

    def last(self, state: S) -> JSON | None:
        """The last action, as a page animates and draws it (None before the first): the
        engine's entry for it (``last_entry``), so a table reloaded from the store or changed
        on another server shows its last action exactly as the live one did."""
        entry = state.last_entry()
        return None if entry is None else entry.to_dict()

    def view(self, state: S, seat: int | None, parts: Parts | None = None) -> JSON:
        """``seat``'s view as JSON (None: a spectator's), its seat-independent parts from
        ``parts`` (computed here without)."""
        raise NotImplementedError

    def queries(self) -> dict[str, Callable[[S, JSON], JSON]]:
        """The game's own questions a page may ask of a table, by name (Color City's
        ``predict``, Centrix's ``preview``): each answers from the state and changes
        nothing. None here."""
        return {}

    def query(self, state: S, name: str, args: JSON) -> JSON:
        """The answer to the query ``name`` with ``args`` (UnknownQueryError for one the game
        does not answer); the state is untouched."""
        answer = self.queries().get(name)
        if answer is None:
            known = ", ".join(sorted(self.queries())) or "none"
            raise UnknownQueryError(
                f"{self.game.title} answers no query {name!r} (its queries: {known})"
            )
        return answer(state, args)

    def can_undo(self, state: S, seat: int) -> bool:
        return False

    def undoable(self, state: S) -> int:
        """How many of the latest actions may still be taken back (by anyone): what the
        engine keeps once the table has stored them."""
        return 0

    def settle(self, state: S) -> None:
        """The table has stored ``state``'s latest action (or loaded it): the engine forgets
        the actions that can no longer be taken back, its log read first, so that it keeps
        their entries. Never before the store has it: a refused write pops the action."""
        state.log()
        state.clear_stack(keep=self.undoable(state))

    def bot_action(self, view: View, level: int, seed: int, seconds: float | None = None) -> str:
        """A bot's action for ``view``, in notation (runs in a worker process), thought
        within ``seconds`` if given."""
        bot = game_bots(self.name).bot(f"level{level}", seed, seconds=seconds)
        return str(bot.choose(view))


def get_game(name: str) -> WebGame[GameState]:
    """The web adapter of the registered game ``name`` (GamenightError for another name)."""
    if name not in registry:
        raise GamenightError(f"unknown game {name!r}: {' or '.join(registry.names())}")
    module = f"gamenight.web.views.{name}"
    if importlib.util.find_spec(module) is None:
        raise GamenightError(f"{registry[name].title} has no web pages yet")
    adapter = importlib.import_module(module).VIEW
    assert isinstance(adapter, WebGame)
    # Typed as taking any state: a table hands its adapter only the states it made.
    return cast(WebGame[GameState], adapter)


def new_seed() -> int:
    return random.SystemRandom().getrandbits(62)


__all__ = [
    "JSON",
    "Parts",
    "Payload",
    "SeatSpec",
    "UnknownQueryError",
    "WebGame",
    "argument",
    "get_game",
    "log_json",
    "new_seed",
]
