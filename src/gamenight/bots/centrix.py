"""Centrix bots: Random, Greedy and ISMCTS. Each sees only its seat's view."""

from __future__ import annotations

import math
import random

from gamenight.bots.base import Budget, SeededBot
from gamenight.bots.centrix_eval import score, value
from gamenight.centrix.board import NUM_SLOTS, NUM_SQUARES, OFF, TOP
from gamenight.centrix.plays import Play
from gamenight.centrix.state import EMPTY, CentrixState, CentrixView


class RandomBot(SeededBot):
    """Uniform over the legal plays."""

    name = "random"

    def choose(self, view: CentrixView) -> Play:
        return self.rng.choice(view.sample(self.rng).legal_plays())


class GreedyBot(SeededBot):
    """Tries every legal play and keeps the best by the one-ply evaluation of
    gamenight.bots.centrix_eval (ties broken at random)."""

    name = "greedy"

    def choose(self, view: CentrixView) -> Play:
        seat = view.seat
        assert seat is not None
        return greedy_play(view.sample(self.rng), seat, self.rng)


def evaluated(state: CentrixState, seat: int, plays: list[Play]) -> list[tuple[float, Play]]:
    """Each play with the one-ply evaluation, for ``seat``, of the position it leads to."""
    scored = []
    for play in plays:
        state._push(play)
        scored.append((value(state, seat), play))
        state.pop()
    return scored


def greedy_play(state: CentrixState, seat: int, rng: random.Random) -> Play:
    """The legal play with the best one-ply evaluation for ``seat`` (ties at random)."""
    scored = evaluated(state, seat, state.legal_plays())
    best_value = max(v for v, _ in scored)
    return rng.choice([play for v, play in scored if v > best_value - 1e-9])


class _Node:
    __slots__ = ("avail", "children", "mover", "plan", "plays", "prior", "total", "visits")

    def __init__(self, mover: int, prior: float = 0.0) -> None:
        self.mover = mover
        self.children: dict[Play, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.prior = prior
        # Within the bot's own turn nothing hidden matters (no card is drawn until the
        # turn ends), so those nodes keep their legal plays across determinizations...
        self.plays: list[Play] | None = None
        # ... and a root child keeps the rest of the best turn that starts with it.
        self.plan: list[Play] = []


class IsmctsBot(SeededBot):
    """Single-observer Information Set MCTS (Cowling, Powley and Whitehouse, 2012).

    Each iteration deals the cards this seat cannot see at random (``view.sample``), walks the
    tree over single card plays — a three-play turn is three decisions — choosing only among
    plays legal in that deal (UCB1 with availability counts), adds one node, and plays on to
    the start of this seat's next turn: its own remaining plays greedily (a root child
    follows its planned turn), the other seats with the fast default policy (``fast_play``).
    Each seat's reward is its place if the game ended, else a logistic of its evaluation
    against the best other seat's, always judged at that same point of the round.

    Centrix offers ~35 plays a decision, too many to sample evenly in a quarter second, so
    the bot's own plays carry priors, added to UCB as progressive bias
    ``bias × prior / (visits + 1)`` and deciding which unvisited child is tried first: at
    the root, the rank of the best whole turn that starts with the play (``plan_turn``, an
    exact beam search, since one's own turn hides nothing); deeper, the rank of the play's
    one-ply evaluation.
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
        rollout_plays: int = 40,
    ) -> None:
        super().__init__(seed, budget or Budget(iterations=200))
        self.exploration = exploration
        self.bias = bias
        self.temperature = temperature
        self.beam = beam
        self.rollout_plays = rollout_plays
        self.last_iterations = 0

    def choose(self, view: CentrixView) -> Play:
        rng = self.rng
        me = view.seat
        assert me is not None
        root_state = view.sample(rng)
        legal = root_state.legal_plays()
        if len(legal) == 1:
            return legal[0]
        root = self._root(root_state, me, legal)
        clock = self.budget.clock()
        while clock.tick():
            state = view.sample(rng)
            path = self._descend(root, state, me, view.turn)
            if len(path) == 1:
                for play in path[0].plan:  # the rest of the planned turn
                    if state.is_over or state._seat != me:
                        break
                    state._push(play)
            rewards = self._rollout(state, me, view.turn)
            for node in path:
                node.visits += 1
                node.total += rewards[node.mover]
        self.last_iterations = clock.iterations - 1
        return max(legal, key=lambda p: (root.children[p].visits, root.children[p].prior))

    def _root(self, state: CentrixState, me: int, legal: list[Play]) -> _Node:
        root = _Node(-1)
        root.plays = legal
        by_first, _ = plan_turn(state, me, self.rng, self.beam)
        ranked = sorted(by_first, key=lambda p: by_first[p][0])
        for rank, play in enumerate(ranked):
            child = root.children[play] = _Node(me, (rank + 1) / len(ranked))
            child.plan = by_first[play][1][1:]
        for play in legal:
            root.children.setdefault(play, _Node(me))
        return root

    def _descend(self, root: _Node, state: CentrixState, me: int, turn: int) -> list[_Node]:
        """Select down the tree (in this deal) and add one node; returns the path."""
        rng, c, bias = self.rng, self.exploration, self.bias
        node, path = root, []
        own_turn = True
        while not state.is_over and not (state._seat == me and state.turn > turn):
            mover = state._seat
            own_turn = own_turn and mover == me
            plays = node.plays if own_turn and node.plays is not None else state.legal_plays()
            if own_turn:
                node.plays = plays
            children = node.children
            fresh = [p for p in plays if p not in children]
            if fresh:
                for p in fresh:
                    children[p] = _Node(mover)
                if mover == me and bias:
                    _rank_priors(state, mover, fresh, children)
            best, best_ucb = plays[0], -math.inf
            for p in plays:
                child = children[p]
                child.avail += 1
                if child.visits == 0:
                    ucb = 1e9 + child.prior + rng.random() * 1e-6
                else:
                    ucb = (
                        child.total / child.visits
                        + c * math.sqrt(math.log(child.avail) / child.visits)
                        + bias * child.prior / (child.visits + 1)
                    )
                if ucb > best_ucb:
                    best, best_ucb = p, ucb
            node = children[best]
            state._push(best)
            path.append(node)
            if node.visits == 0:
                break
        return path

    def _rollout(self, state: CentrixState, me: int, turn: int) -> list[float]:
        """Play on to the start of this seat's next turn, so that every leaf is judged at the
        same point of the round (after the others' replies)."""
        rng = self.rng
        for _ in range(self.rollout_plays):
            if state.is_over or (state._seat == me and state.turn > turn):
                break
            if state._seat == me:
                state._push(greedy_play(state, me, rng))
            else:
                state._push(fast_play(state, rng))
        return rewards(state, self.temperature)


def plan_turn(
    state: CentrixState, seat: int, rng: random.Random, beam: int = 6
) -> tuple[dict[Play, tuple[float, list[Play]]], list[Play]]:
    """Beam search over the rest of ``seat``'s turn, judged where the turn ends.

    Within one's own turn nothing hidden matters (no card is drawn until it ends), so this
    is exact planning, not guessing. Returns, for each first play that survived the beam,
    the best end-of-turn value found and its sequence; and the best sequence of all.
    """
    best_by_first: dict[Play, tuple[float, list[Play]]] = {}
    best_value, best_plan = -math.inf, []
    layer: list[list[Play]] = [[]]
    while layer:
        scored: list[tuple[float, list[Play], bool]] = []
        for sequence in layer:
            for play in sequence:
                state._push(play)
            for play in state.legal_plays():
                state._push(play)
                ended = state.is_over or state._seat != seat
                v = value(state, seat) + rng.random() * 1e-6
                state.pop()
                scored.append((v, [*sequence, play], ended))
            for _ in sequence:
                state.pop()
        scored.sort(key=lambda item: -item[0])
        for v, sequence, ended in scored:
            if ended:
                first = sequence[0]
                if first not in best_by_first or v > best_by_first[first][0]:
                    best_by_first[first] = (v, sequence)
                if v > best_value:
                    best_value, best_plan = v, sequence
        layer = [sequence for _, sequence, ended in scored if not ended][:beam]
    return best_by_first, best_plan


class TurnPlannerBot(SeededBot):
    """Plans its whole turn (up to three plays) by beam search and plays the first play of
    the best plan; the plan is judged by the evaluation where the turn ends."""

    name = "planner"

    def __init__(self, seed: int | None = None, budget: Budget | None = None, beam: int = 6):
        super().__init__(seed, budget)
        self.beam = beam

    def choose(self, view: CentrixView) -> Play:
        seat = view.seat
        assert seat is not None
        _, plan = plan_turn(view.sample(self.rng), seat, self.rng, self.beam)
        return plan[0]


def _rank_priors(
    state: CentrixState, seat: int, plays: list[Play], children: dict[Play, _Node]
) -> None:
    """Greedy's evaluation of each play, as a rank in [0, 1] (best 1)."""
    scored = sorted(evaluated(state, seat, plays), key=lambda item: item[0])
    for rank, (_, play) in enumerate(scored):
        children[play].prior = rank / max(1, len(scored) - 1)


def rewards(state: CentrixState, temperature: float = 3.0) -> list[float]:
    """Each seat's reward in [0, 1]: by place when the game is over, else by how its
    evaluation compares with the best other seat's (a logistic of the difference)."""
    n = state.num_players
    outcome = state.outcome
    if outcome is not None:
        return [(n - place) / (n - 1) for place in outcome.places]
    scores = [score(state, s) for s in range(n)]
    out = []
    for s in range(n):
        best_other = max(x for i, x in enumerate(scores) if i != s)
        out.append(1 / (1 + math.exp(-(scores[s] - best_other) / temperature)))
    return out


def fast_play(state: CentrixState, rng: random.Random) -> Play:
    """The rollout policy: mostly the best climbing move without rotation (onto the top
    first, then the biggest rise), else a random legal play. Far cheaper than listing
    every play, since rotations are where the plays multiply."""
    seat = state._seat
    mine = [sq for sq, owner in enumerate(state.cells) if owner == seat]
    has_off = len(mine) + state.top[seat] < 3
    if rng.random() < 0.85:
        groups = state._moves(state.cells, state.rows, mine, has_off)
        own = state.players[seat]
        best: Play | None = None
        best_gain = 0
        for card in set(state.hands[seat]):
            colour = card.colour
            if colour is None:
                moves = [mv for group in groups for mv in group]
            else:
                moves = groups[colour] + (groups[6] if colour == own else [])
            cells = state.cells
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


__all__ = [
    "GreedyBot",
    "IsmctsBot",
    "RandomBot",
    "TurnPlannerBot",
    "fast_play",
    "greedy_play",
    "plan_turn",
    "rewards",
]
