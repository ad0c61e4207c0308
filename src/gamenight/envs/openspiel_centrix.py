"""Centrix as an OpenSpiel Python game: ``python_gamenight_centrix``.

Imperfect information with explicit chance (see docs/envs.md):

- the deal is 3 × players chance nodes, one card each, seat 0 first, each a card kind drawn
  from the cards left in the deck with probability count / remaining;
- a play that ends a turn is followed by one chance node per card the hand is refilled with,
  drawn the same way from the draw pile (once it is empty: from the discard pile, which the
  rules reshuffle into a new pile);
- a card play is up to four decisions of the mover (card, rotation, from, to: the flat
  encoding of :mod:`gamenight.envs.centrix_codec`, 234 actions).

Parameters: ``players`` (2–6, default 2), ``bottom`` (``protect``, ``knock_off`` or
``floor``), ``max_turns`` (the rules' turn cap, default 200, so that every game has a
finite length) and the set-up's counts of docs/rules/centrix.md D18 (``pawns``,
``numbers``, ``copies``, ``any_wilds``, ``spin_wilds``; the rulebook's by default).
:data:`TINY` is a variant small enough for ``get_all_states``, CFR and exploitability;
``position`` (a position string, default none: a deal) starts the game there.
Returns are by place: ``(players behind − players ahead) / (n − 1)``, in [−1, 1] and
summing to 0 (two players: +1 / −1, a shared place 0).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pyspiel

from gamenight.centrix.cards import Card
from gamenight.centrix.plays import Play
from gamenight.centrix.rules import SET_UP, STANDARD, Bottom, Rules
from gamenight.centrix.state import PLAYS_PER_TURN, CentrixState
from gamenight.core.errors import NotationError, RulesError
from gamenight.core.game import registry
from gamenight.envs import centrix_codec as codec
from gamenight.envs.centrix_chance import (
    DealtCentrix,
    Refill,
    dealt_start,
    from_state,
    pool_after,
)
from gamenight.envs.openspiel_common import (
    TensorObserver,
    check_observer_params,
    game_info,
    game_type,
    outcome_returns,
)

SHORT_NAME = "python_gamenight_centrix"
DEFAULT_MAX_TURNS = 200
_DEFAULTS: dict[str, Any] = {
    "players": 2,
    "bottom": "protect",
    "max_turns": DEFAULT_MAX_TURNS,
    **{name: getattr(STANDARD, name) for name in SET_UP},
    "position": "",
}
TINY: dict[str, Any] = {
    "pawns": 1,
    "numbers": 1,
    "copies": 1,
    "any_wilds": 0,
    "spin_wilds": 0,
    "max_turns": 2,
    "position": "RO 000000 ............/............/............/............/............/"
    "r.....o..... 00 O1,R1 Y1G1B1W1 - 0000000000000000 0 0 0 -,- playing",
}
"""The tiny variant (docs/rules/centrix.md D18): one pawn each, the six 1-cards, two
turns, from a study position — each pawn on ring 6, a card in each hand (neither of the
seat's own colour, so neither can climb to the top at once), four cards to draw. Each seat
makes one play; the refills are chance, and each seat's draws are its secret. About 3,400
histories. From the deal instead of a position, even one turn of this set-up is millions
of histories: six cards are dealt in 720 orders and a turn is three plays."""

GAME_TYPE = game_type(
    SHORT_NAME,
    "gamenight Centrix",
    pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    (registry["centrix"].min_players, registry["centrix"].max_players),
    _DEFAULTS,
)


def max_game_length(players: int, max_turns: int) -> int:
    """The deal, then per turn at most three plays of four decisions and three draws."""
    return 3 * players + max_turns * (PLAYS_PER_TURN * codec.MAX_DECISIONS_PER_PLAY + 3)


class CentrixGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        self.num_seats = int(params["players"])
        registry["centrix"].check_players(self.num_seats)  # a RulesError is a ValueError
        try:
            self.rules = Rules(
                bottom=Bottom(str(params["bottom"])), max_turns=int(params["max_turns"])
            ).with_(**{name: int(params[name]) for name in SET_UP})
            CentrixState.new(self.num_seats, seed=0, rules=self.rules)  # a deck that deals
            # A game may start from a position instead of a deal (a study position, D18).
            self.start = (
                CentrixState.from_position(str(params["position"]), self.rules).to_position()
                if params["position"]
                else None
            )
        except (RulesError, NotationError) as exc:
            raise ValueError(str(exc)) from exc
        if self.start is not None and len(self.start.players) != self.num_seats:
            raise ValueError(
                f"the position seats {len(self.start.players)} players, not {self.num_seats}"
            )
        info = game_info(
            codec.NUM_ACTIONS,
            len(Card),
            self.num_seats,
            max_game_length(self.num_seats, int(params["max_turns"])),
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> CentrixGameState:
        return CentrixGameState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> CentrixObserver:
        check_observer_params(params)
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return CentrixObserver(self.num_seats, perfect_recall)


class CentrixGameState(pyspiel.State):  # type: ignore[misc]
    """The OpenSpiel state around a :class:`DealtCentrix` engine."""

    def __init__(self, game: CentrixGame) -> None:
        super().__init__(game)
        self._n = game.num_seats
        self._rules = game.rules
        self._deal: list[Card] = []
        self.engine: DealtCentrix | None = None
        if game.start is not None:
            self.engine = DealtCentrix.starting(self._rules, game.start)
        self.prefix: codec.Codes = ()
        self._pending: Play | None = None  # a play waiting for its refill's chance cards
        self._need: Refill | None = None
        self._drawn: list[Card] = []
        # Each action of the history's seat and whether only that seat sees it: a chance
        # card is its hand's secret, a decision public (the perfect-recall information state).
        self.whose: list[tuple[int, bool]] = []

    # ------------------------------------------------------------------ OpenSpiel API

    def current_player(self) -> int:
        engine = self.engine
        if engine is None or self._need is not None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = engine.actor
        if seat is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return seat

    def _tree(self) -> codec.PlayTree:
        engine = self.engine
        assert engine is not None
        return engine.play_tree()

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._tree().legal_actions(self.prefix))

    def _pool(self) -> Counter[Card]:
        if self.engine is None:
            return Counter(self._rules.deck) - Counter(self._deal)
        need = self._need
        assert need is not None
        return pool_after(need.draw, need.discard, self._drawn)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        pool = self._pool()
        total = sum(pool.values())
        return [(int(card), count / total) for card, count in sorted(pool.items()) if count]

    def _apply_action(self, action: int) -> None:
        if self.engine is None:
            self.whose.append((len(self._deal) % self._n, True))  # dealt one at a time
        else:
            seat = self.engine.actor  # the mover, or the seat whose turn ends being refilled
            assert seat is not None
            self.whose.append((seat, self._need is not None))
        if self.engine is None:
            self._deal.append(Card(action))
            if len(self._deal) == 3 * self._n:
                self.engine = dealt_start(self._rules, self._n, self._deal)
            return
        if self._need is not None:
            self._drawn.append(Card(action))
            if len(self._drawn) == self._need.cards:
                assert self._pending is not None
                result = self.engine.play(self._pending, self._drawn)
                assert result is None
                self._pending, self._need, self._drawn = None, None, []
            return
        prefix, play = self._tree().step(self.prefix, action)
        if play is None:
            self.prefix = prefix
            return
        self.prefix = ()
        need = self.engine.play(play)
        if need is not None:
            self._pending, self._need, self._drawn = play, need, []

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {Card(action)}"
        return codec.action_name(action)

    def is_terminal(self) -> bool:
        return self.engine is not None and self._need is None and self.engine.is_over

    def returns(self) -> list[float]:
        return outcome_returns(None if self.engine is None else self.engine.outcome, self._n)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state that ``player_id`` cannot tell from this one: the cards it cannot see
        (other hands, the draw pile) dealt at random (gamenight's ``CentrixView.sample``)."""
        clone = self.clone()
        if self.engine is None:
            return clone  # during the deal nothing hidden has been decided yet that matters
        seed = int(probability_sampler() * 2**53) if callable(probability_sampler) else None
        rng = random.Random(seed)
        clone.engine = from_state(self.engine.view(player_id).sample(rng))
        if self._pending is not None:
            # The engine waits before the pending play, whose card everybody has seen: it
            # must be in the mover's sampled hand.
            engine, card = clone.engine, self._pending.card
            mover = engine.actor
            if card not in engine.hands[mover]:
                hidden = [h for s, h in enumerate(engine.hands) if s not in (mover, player_id)]
                where = next(h for h in [*hidden, engine.draw] if card in h)
                swap = rng.randrange(len(engine.hands[mover]))
                where[where.index(card)], engine.hands[mover][swap] = (
                    engine.hands[mover][swap],
                    card,
                )
                for h in engine.hands:
                    h.sort()
                engine.edited()
            # The refill under way came from the true pile: ask the sampled deal for its own
            # pools and draw the cards already drawn again from them.
            refill = engine.play(self._pending)
            assert refill is not None  # the refill's size depends only on public counts
            clone._need, clone._drawn = refill, []
            for _ in self._drawn:
                pool = pool_after(refill.draw, refill.discard, clone._drawn)
                clone._drawn.append(rng.choice(sorted(pool.elements())))
        return clone

    def __str__(self) -> str:
        if self.engine is None:
            return "deal " + " ".join(str(c) for c in self._deal)
        text = self.engine.position()
        if self.prefix:
            text += " | " + ", ".join(codec.action_name(a) for a in self.prefix)
        if self._pending is not None:
            text += f" | refill after {self._pending}: " + " ".join(str(c) for c in self._drawn)
        return text


class CentrixObserver(TensorObserver):
    """Observation and information state of one seat: its view of the table (own hand, the
    discard pile, hand and pile sizes, the board) and the decisions already taken in the
    current play. For ``perfect_recall`` requests the string also ends with everything the
    seat has seen happen, in order: each decision with the seat that took it, the cards
    dealt or drawn to itself, and a ``?`` for each card that went to another hand — so two
    histories that reach the same table stay apart, as CFR needs. The tensor stays the view
    (Markov: what gamenight's own bots decide from); see docs/envs.md."""

    def __init__(self, num_players: int, perfect_recall: bool = False) -> None:
        super().__init__(codec.observation_size(num_players))
        self.perfect_recall = perfect_recall

    def set_from(self, state: CentrixGameState, player: int) -> None:
        if state.engine is None:
            self.tensor.fill(0.0)
            return
        prefix = state.prefix if state._pending is None else ()
        codec.encode(state.engine.view(player), prefix, self.tensor)

    def string_from(self, state: CentrixGameState, player: int) -> str:
        if state.engine is None:
            mine = [c for i, c in enumerate(state._deal) if i % state._n == player]
            return f"seat {player} deal {len(state._deal)} hand " + "".join(map(str, mine))
        text = codec.view_key(state.engine.view(player), state.prefix)
        if state._pending is not None:
            text += f" refill after {state._pending} ({len(state._drawn)} drawn)"
        if self.perfect_recall:
            text += " | seen " + remembered(state, player)
        return text


def remembered(state: CentrixGameState, player: int) -> str:
    """What ``player`` has seen of ``state``'s history, one token per action: ``1:87``
    for seat 1's decision 87, ``R1`` for a card dealt or drawn to ``player``, ``?`` for one
    that went to another seat."""
    tokens = []
    for action, (seat, secret) in zip(state.history(), state.whose, strict=True):
        if not secret:
            tokens.append(f"{seat}:{action}")
        else:
            tokens.append(str(Card(action)) if seat == player else "?")
    return " ".join(tokens)


pyspiel.register_game(GAME_TYPE, CentrixGame)
