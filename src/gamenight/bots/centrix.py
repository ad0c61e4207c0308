"""Centrix bots: Random, Greedy and ISMCTS. Each sees only its seat's view."""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Sequence

from gamenight.bots.base import Budget, SeededBot
from gamenight.bots.centrix_eval import DEFAULT, Weights, scores, value
from gamenight.centrix import native
from gamenight.centrix.board import NUM_SLOTS, NUM_SQUARES, OFF, TOP
from gamenight.centrix.plays import Play
from gamenight.centrix.state import EMPTY, TOP_GROUP, CentrixState, CentrixView


class RandomBot(SeededBot):
    """Uniform over the legal plays."""

    name = "random"

    def choose(self, view: CentrixView) -> Play:
        return self.rng.choice(view.sample(self.rng).legal_plays())

    def play_turn(self, state: CentrixState) -> int:
        """Make the plays of the seat to move — this bot's — until its turn or the game
        ends, each the play ``choose`` makes on the seat's view, from the same draws; returns
        how many were made. Where the compiled core takes the state it makes the whole turn
        in one call (``native.RANDOM_BOT``), without a determinization built for each play.
        As with ``state.advance``, the plays are not recorded."""
        seat = state.actor
        if seat is None:
            return 0
        return native.play_out(
            state,
            self.rng,
            None,
            native.RANDOM_BOT,
            lambda s, _: self.choose(s.view(seat)),
            hold=seat,
        )


class GreedyBot(SeededBot):
    """Tries every legal play and keeps the best by the one-ply evaluation of
    gamenight.bots.centrix_eval (ties broken at random). With ``epsilon`` it plays a
    uniformly random legal play instead that often: the beginner's level."""

    name = "greedy"

    def __init__(
        self, seed: int | None = None, budget: Budget | None = None, epsilon: float = 0.0
    ) -> None:
        super().__init__(seed, budget)
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon is a probability from 0 to 1, not {epsilon}")
        self.epsilon = epsilon

    def choose(self, view: CentrixView) -> Play:
        seat = view.seat
        assert seat is not None
        state = view.sample(self.rng)
        if self.epsilon and self.rng.random() < self.epsilon:
            return self.rng.choice(state.legal_plays())
        return greedy_play(state, seat, self.rng)


def greedy_play(
    state: CentrixState, seat: int, rng: random.Random, weights: Weights = DEFAULT
) -> Play:
    """The legal play with the best one-ply evaluation for ``seat`` (ties at random)."""
    plays = state.legal_plays()
    fast = (
        native.play_values(state, weights.top, weights.opportunity, weights.threat)
        if seat == state.actor
        else None
    )
    scored = []
    for i, play in enumerate(plays):
        v = math.nan if fast is None else fast[i]
        if v != v:  # NaN: the compiled core leaves this play to the engine (or is not here)
            state.push_unchecked(play)
            v = value(state, seat, weights)
            state.pop()
        scored.append((v, play))
    best_value = max(v for v, _ in scored)
    return rng.choice([play for v, play in scored if v > best_value - 1e-9])


class _Node:
    __slots__ = ("avail", "children", "mover", "prior", "total", "visits")

    def __init__(self, mover: int, prior: float = 0.0) -> None:
        self.mover = mover
        self.children: dict[Play, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.prior = prior


def _select(
    children: dict[Play, _Node],
    plays: Sequence[Play],
    mover: int,
    draw: Callable[[], float],
    c: float,
    bias: float,
) -> Play:
    """The play of the highest UCB1 (with availability counts and the prior's progressive
    bias) among ``plays``, the first of equals; every play's child, made the first time it
    is met, counts one more availability. ``native.select`` is this loop in C."""
    log, sqrt = math.log, math.sqrt
    best, best_ucb = plays[0], -math.inf
    for p in plays:
        child = children.get(p)
        if child is None:
            child = children[p] = _Node(mover)
        child.avail += 1
        visits = child.visits
        if visits == 0:
            ucb = 1e9 + child.prior + draw() * 1e-6
        else:
            ucb = (
                child.total / visits
                + c * sqrt(log(child.avail) / visits)
                + bias * child.prior / (visits + 1)
            )
        if ucb > best_ucb:
            best, best_ucb = p, ucb
    return best


class IsmctsBot(SeededBot):
    """Single-observer Information Set MCTS (Cowling, Powley and Whitehouse, 2012).

    Each iteration deals the cards this seat cannot see at random (``view.sample``), walks the
    tree over single card plays — a three-play turn is three decisions — choosing only among
    plays legal in that deal (UCB1 with availability counts), adds one node, and plays on to
    the start of this seat's next turn with the fast default policy (``fast_play``). Each
    seat's reward is its place if the game ended, else a logistic of its evaluation against
    the best other seat's, always judged at that same point of the round.

    Within its own turn nothing hidden matters (no card is drawn until the turn ends), so the
    bot's own plays are not searched blindly: its part of the tree is the trie of the
    ``plans`` best whole turns found by the turn planner's exact beam search (``turn_plans``),
    each play carrying the rank of the best plan through it as a prior, added to UCB as
    progressive bias ``bias × prior / (visits + 1)``. The search's iterations then go where
    the planner cannot look: into how the other seats' replies treat each of those turns.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        budget: Budget | None = None,
        *,
        exploration: float = 0.5,
        bias: float = 3.0,
        temperature: float = 3.0,
        beam: int = 6,
        plans: int = 12,
        rollout_plays: int = 40,
        weights: Weights = DEFAULT,
    ) -> None:
        super().__init__(seed, budget or Budget(iterations=200))
        self.exploration = exploration
        self.bias = bias
        self.temperature = temperature
        self.beam = beam
        self.plans = plans
        self.rollout_plays = rollout_plays
        self.weights = weights
        self.last_iterations = 0

    def choose(self, view: CentrixView) -> Play:
        rng = self.rng
        me = view.seat
        assert me is not None
        self.last_iterations = 0
        root_state = view.sample(rng)
        legal = root_state.legal_plays()
        if len(legal) == 1:
            return legal[0]
        root = self._root(root_state, me)
        if len(root.children) == 1:
            return next(iter(root.children))
        clock = self.budget.clock()
        while clock.tick():
            state = view.sample(rng)
            path = self._descend(root, state, me, view.turn)
            rewards = self._rollout(state, me, view.turn)
            for node in path:
                node.visits += 1
                node.total += rewards[node.mover]
        self.last_iterations = clock.iterations - 1
        return max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].prior))[0]

    def _root(self, state: CentrixState, me: int) -> _Node:
        """The bot's own turn as a trie of its best plans, best first."""
        node_class = native.search_nodes(_Node)  # the compiled core's nodes, where it runs
        root = node_class(-1)
        plans = turn_plans(state, me, self.rng, self.beam, self.weights)[: self.plans]
        for rank, (_, sequence) in enumerate(plans):
            prior = 1 - rank / len(plans)
            node = root
            for play in sequence:
                child = node.children.get(play)
                if child is None:
                    child = node.children[play] = node_class(me, prior)
                node = child
        return root

    def _descend(self, root: _Node, state: CentrixState, me: int, turn: int) -> list[_Node]:
        """Select down the tree (in this deal) and add one node; returns the path."""
        rng, c, bias = self.rng, self.exploration, self.bias
        node, path = root, []
        own_turn = True
        compiled = type(root) is not _Node  # choosing in the compiled core (search_nodes)
        while not native.stopped(state, (me, turn)):
            mover = state.actor
            assert mover is not None  # the round is not done, so the game is not over
            own_turn = own_turn and mover == me
            children = node.children
            # Own turn: the trie, legal in every deal; else this deal's plays, each child
            # made the first time it is met.
            plays = list(children) if own_turn else state.legal_play_tuple()
            if compiled:
                best = native.select(children, plays, mover, rng, c, bias)
            else:
                best = _select(children, plays, mover, rng.random, c, bias)
            node = children[best]
            state.advance(best)  # the deal is thrown away after the iteration
            path.append(node)
            if node.visits == 0 and not own_turn:
                break
        return path

    def _rollout(self, state: CentrixState, me: int, turn: int) -> list[float]:
        """Play on to the start of this seat's next turn, so that every leaf is judged at the
        same point of the round (after the others' replies)."""
        play_round(state, self.rng, self.rollout_plays, me, turn)
        return rewards(state, self.temperature, self.weights)


def play_round(state: CentrixState, rng: random.Random, plays: int, seat: int, turn: int) -> int:
    """ISMCTS's rollout: ``fast_play`` by ``advance`` (nothing recorded) until the game is
    over, ``seat`` is to move after its turn ``turn``, or ``plays`` plays were made; returns
    how many were made. The compiled core makes them in stretches (``native.play_out``),
    the same plays from the same draws as the loop."""
    return native.play_out(state, rng, plays, native.CLIMB, fast_play, (seat, turn))


def turn_plans(
    state: CentrixState,
    seat: int,
    rng: random.Random,
    beam: int = 6,
    weights: Weights = DEFAULT,
) -> list[tuple[float, list[Play]]]:
    """Beam search over the rest of ``seat``'s turn, judged where the turn ends: every whole
    turn the search completed, with its value, best first.

    Within one's own turn nothing hidden matters (no card is drawn until it ends), so this
    is exact planning, not guessing.
    """
    ended_plans: list[tuple[float, list[Play]]] = []
    layer: list[list[Play]] = [[]]
    while layer:
        scored: list[tuple[float, list[Play], bool]] = []
        for sequence in layer:
            for play in sequence:
                state.push_unchecked(play)
            for play in state.legal_plays():
                state.push_unchecked(play)
                ended = state.actor != seat
                v = value(state, seat, weights) + rng.random() * 1e-6
                state.pop()
                scored.append((v, [*sequence, play], ended))
            for _ in sequence:
                state.pop()
        scored.sort(key=lambda item: -item[0])
        ended_plans.extend((v, sequence) for v, sequence, ended in scored if ended)
        layer = [sequence for _, sequence, ended in scored if not ended][:beam]
    ended_plans.sort(key=lambda item: -item[0])
    return ended_plans


class TurnPlannerBot(SeededBot):
    """Plans its whole turn (up to three plays) by beam search and plays the first play of
    the best plan; the plan is judged by the evaluation where the turn ends."""

    name = "planner"

    def __init__(
        self,
        seed: int | None = None,
        budget: Budget | None = None,
        beam: int = 6,
        weights: Weights = DEFAULT,
    ):
        super().__init__(seed, budget)
        self.beam = beam
        self.weights = weights

    def choose(self, view: CentrixView) -> Play:
        seat = view.seat
        assert seat is not None
        plans = turn_plans(view.sample(self.rng), seat, self.rng, self.beam, self.weights)
        return plans[0][1][0]


def rewards(
    state: CentrixState, temperature: float = 3.0, weights: Weights = DEFAULT
) -> list[float]:
    """Each seat's reward in [0, 1]: by place when the game is over, else by how its
    evaluation compares with the best other seat's (a logistic of the difference)."""
    n = state.num_players
    outcome = state.outcome
    if outcome is not None:
        return [(n - place) / (n - 1) for place in outcome.places]
    all_scores = scores(state, weights)
    # The best other seat's score is the best score for everyone but the (first) best seat,
    # for which it is the runner-up's: one pass, where a max per seat was n².
    first = max(range(n), key=all_scores.__getitem__)
    best, runner_up = all_scores[first], max(all_scores[:first] + all_scores[first + 1 :])
    exp = math.exp
    return [
        1 / (1 + exp(-(x - (runner_up if s == first else best)) / temperature))
        for s, x in enumerate(all_scores)
    ]


def fast_play(state: CentrixState, rng: random.Random) -> Play:
    """The rollout policy: mostly the best climbing move without rotation (onto the top
    first, then the biggest rise), else a random legal play. Far cheaper than listing
    every play, since rotations are where the plays multiply."""
    seat = state.actor
    assert seat is not None
    cells = state.cells
    if rng.random() < 0.85:
        if native.mirrors(rng, state):  # the loop below, in the compiled core
            fast = native.fast_move(state, seat, rng)
            return fast if fast is not None else rng.choice(state.legal_plays())
        groups = state.moves_by_colour(seat)
        own = state.players[seat]
        best: Play | None = None
        best_gain = 0
        for card in set(state.hands[seat]):
            colour = card.colour
            if colour is None:
                moves = [mv for group in groups for mv in group]
            else:
                moves = groups[colour] + (groups[TOP_GROUP] if colour == own else [])
            for mv in moves:
                gain = _gain(mv.from_square, mv.to_square) * 4 + rng.randrange(4)
                to = mv.to_square
                if to < NUM_SQUARES and cells[to] not in (EMPTY, seat):
                    gain += 8  # a bump costs an opponent two levels
                if card.is_wild:
                    gain -= 2  # keep wilds for the harder moves
                if gain > best_gain:
                    best, best_gain = Play(card, None, mv), gain
        if best is not None:
            return best
    return rng.choice(state.legal_plays())


def _gain(frm: int, to: int) -> int:
    if to == TOP:
        return 10
    level_to = to // NUM_SLOTS + 1 if to < NUM_SQUARES else 0
    level_from = 0 if frm == OFF else frm // NUM_SLOTS + 1
    return level_to - level_from


def learned(seed: int | None = None, budget: Budget | None = None, **options: object) -> SeededBot:
    """``learned`` and ``learned:search=SECONDS``: gamenight.bots.learned (imported when
    asked for, since it builds on this module's search)."""
    from gamenight.bots.learned import learned as make

    return make(seed, budget, **options)  # type: ignore[arg-type]


# The registry's names (gamenight.bots.registry) and the five levels the interfaces offer.
BOTS: dict[str, Callable[..., SeededBot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "planner": TurnPlannerBot,
    "planner2": functools.partial(TurnPlannerBot, beam=2),
    "ismcts": IsmctsBot,
    "learned": learned,
}
LEVELS = {1: "random", 2: "greedy:epsilon=0.5", 3: "greedy", 4: "planner2", 5: "planner"}

__all__ = [
    "BOTS",
    "LEVELS",
    "GreedyBot",
    "IsmctsBot",
    "RandomBot",
    "TurnPlannerBot",
    "fast_play",
    "greedy_play",
    "play_round",
    "rewards",
    "turn_plans",
]
