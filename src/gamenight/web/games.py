"""What the web app needs from each game: set-up, views as JSON, actions, undo, bots.

The games themselves — names, player counts, rules types, replay — are the one registry's
(``gamenight.core.game.registry``); this module only adapts a game's states to what pages
and the store exchange, as JSON. Each game's adapter is the ``VIEW`` of
``gamenight.web.views.<game>``, so a game with a web page is its engine, its registry line
and that module.

Everything a client receives comes from a seat's view (or the spectator's), never from the
full state: this layer is where a game's hidden information stays on the server.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

from gamenight.bots.registry import game_bots
from gamenight.core.errors import GamenightError
from gamenight.core.game import Game, GameState, SeatSetup, View, registry
from gamenight.core.record import GameRecord

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


@dataclass
class Kept:
    """A live state's log entries, and the actions still on its stack whose entries are the
    last ones (as they were when written: an action taken back and another made is told
    from them)."""

    state: weakref.ref[Any]
    entries: list[JSON] = field(default_factory=list)
    tail: Sequence[Any] = ()
    # The state's ``mark()`` when the entries were last found in step with it: the same
    # mark, nothing to look at again (``log`` runs some seven times a move).
    mark: tuple[int, object] = (-1, None)
    # The state's seat-independent parts as the views show them (``WebGame.shared``), for
    # the position the entries end at: dropped whenever an action is made or taken back.
    parts: dict[str, Any] = field(default_factory=dict)


class WebGame(Generic[S]):
    """The interface the server drives, for states of type ``S``; one subclass per game.

    A table keeps its state with the adapter that set it up or replayed it, so each adapter
    only ever receives its own game's states.

    A live table keeps only what undo and reconnection need (issue 20): once an action is
    stored, ``settle`` has the engine forget every action that can no longer be taken back;
    the log a page is sent whole is kept here, as entries, one per action.
    """

    state_type: type[S]
    simulates = False  # whether an action runs a simulation (kept off the event loop)

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        # Each live state's log so far, by the state's id (a state is not hashable).
        self._logs: dict[int, Kept] = {}

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
        if setup.get("hints_used"):  # the hints given at the table (web.hints; issue 32)
            record.setup["hints_used"] = list(setup["hints_used"])
        record.outcome, record.final_position = state.outcome, state.position()
        return record

    def role(self, state: S, seat: int) -> str:
        """The seat's part in the game: a pawn colour, a gang."""
        raise NotImplementedError

    def rules_of(self, state: S) -> JSON:
        raise NotImplementedError

    def predict(self, state: S, text: str) -> JSON:
        raise GamenightError("only Color City predicts flicks")

    def preview(self, state: S, rotation: str) -> JSON:
        raise GamenightError("only a Centrix game in play can preview a rotation")

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
        """The last action, as a page animates and draws it (None before the first). Built
        from the state alone, so a table reloaded from the store or changed on another
        server shows its last action exactly as the live one did."""
        raise NotImplementedError

    def view(self, state: S, seat: int | None) -> JSON:
        raise NotImplementedError

    def can_undo(self, state: S, seat: int) -> bool:
        return False

    def undoable(self, state: S) -> int:
        """How many of the latest actions may still be taken back (by anyone): what the
        engine keeps once the table has stored them."""
        return 0

    def settle(self, state: S) -> None:
        """The table has stored ``state``'s latest action (or loaded it): the log is written
        while the actions are there, then the engine forgets those that can no longer be
        taken back. Never before the store has it: a refused write pops the action."""
        self.log(state)
        state.clear_stack(keep=self.undoable(state))

    def log(self, state: S) -> list[JSON]:
        """One entry per action so far (the pages word them): kept for each live state and
        extended by the actions made since, those taken back dropped. The entries of the
        actions the state has forgotten were written before it forgot them."""
        kept = self.kept(state)
        mark = state.mark()
        if mark[0] == kept.mark[0] and mark[1] is kept.mark[1]:
            return kept.entries
        entries, tail = kept.entries, kept.tail
        forgotten = state.forgotten
        # The tail's actions forgotten since: their entries stay as they are.
        gone = forgotten - (len(entries) - len(tail))
        if gone > len(tail) or gone < 0:
            raise RuntimeError("a state forgot actions before their log entries were written")
        actions = state.actions
        same = 0
        for then, now in zip(tail[gone:], actions, strict=False):
            if then is not now:
                break
            same += 1
        if same == len(actions) == len(tail) - gone:
            kept.tail, kept.mark = actions, mark
            return entries  # no action made or taken back: the parts stand too
        kept.parts.clear()
        del entries[forgotten + same :]
        if same < len(actions):
            entries += self.entries(state, len(actions) - same)
        kept.tail, kept.mark = actions, mark
        return entries

    def kept(self, state: S) -> Kept:
        """What is kept for the live ``state`` (made on first use, dropped with the state)."""
        key = id(state)
        kept = self._logs.get(key)
        if kept is None or kept.state() is not state:
            ref = weakref.ref(state, lambda _: self._logs.pop(key, None))
            kept = self._logs[key] = Kept(ref)
        return kept

    def logged(self, state: S, entries: list[JSON]) -> None:
        """The entries of the actions just made on ``state``, written as they were made (the
        act path knows each one's effects then): the log extended without stepping back on a
        copy. Only when the log was in step just before them; otherwise ``log`` writes them."""
        kept = self.kept(state)
        actions = state.actions
        before = len(actions) - len(entries)
        if (
            before >= 0
            and len(kept.entries) == state.forgotten + before
            and len(kept.tail) == before
            and all(then is now for then, now in zip(kept.tail, actions, strict=False))
        ):
            kept.parts.clear()
            kept.entries += entries
            kept.tail = actions
            kept.mark = state.mark()

    def shared(self, state: S, name: str, compute: Callable[[], T]) -> T:
        """``compute()``, a part of ``state``'s views that no seat changes, once per change of
        the state: every page's view (one per seat looking) shares it until an action is made
        or taken back (the change ``log`` sees)."""
        self.log(state)  # in step with the state: a change drops the parts
        parts = self.kept(state).parts
        if name not in parts:
            parts[name] = compute()
        return cast(T, parts[name])

    def entries(self, state: S, count: int) -> list[JSON]:
        """The log entries of the last ``count`` actions on ``state``'s stack."""
        raise NotImplementedError

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


__all__ = ["JSON", "Payload", "SeatSpec", "WebGame", "get_game", "new_seed"]
