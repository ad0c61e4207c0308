"""Centrix bots: Random, Greedy and ISMCTS. Each sees only its seat's view."""

from __future__ import annotations

import math
import random

from gamenight.bots.base import Budget, SeededBot
from gamenight.bots.centrix_eval import score, value
from gamenight.centrix.board import NUM_SLOTS, NUM_SQUARES, OFF, TOP
from gamenight.centrix.cards import Card
from gamenight.centrix.plays import Play
from gamenight.centrix.state import CentrixState, CentrixView


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
        state = view.sample(self.rng)
        seat = view.seat
        assert seat is not None
        best: list[Play] = []
        best_value = -math.inf
        for play in state.legal_plays():
            state._push(play)
            v = value(state, seat)
            state.pop()
            if v > best_value + 1e-9:
                best, best_value = [play], v
            elif v > best_value - 1e-9:
                best.append(play)
        return self.rng.choice(best)


class _Node:
    __slots__ = ("avail", "children", "mover", "plays", "prior", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.children: dict[Play, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.prior = 0.0
        # Within the bot's own turn nothing hidden matters (no card is drawn until the
        # turn ends), so those nodes keep their legal plays across determinizations.
        self.plays: list[Play] | None = None


class IsmctsBot(SeededBot):
    """Single-observer Information Set MCTS (Cowling, Powley and Whitehouse, 2012).

    Each iteration deals the cards this seat cannot see at random (``view.sample``), walks the
    tree over single card plays choosing only among plays legal in that deal (UCB1 with
    availability counts), adds one node, plays on with a fast default policy for
    ``rollout_plays`` plays and backs up each seat's reward: by final place if the game ended,
    else a logistic of its evaluation against the best other seat's.

    Centrix offers ~35 plays a decision, too many to sample evenly in a quarter second, so
    the bot's own plays carry a prior: the Greedy evaluation of each play, as a rank in
    [0, 1], added to UCB as progressive bias ``bias × prior / (visits + 1)``; unvisited
    children are tried best prior first.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        budget: Budget | None = None,
        *,
        exploration: float = 0.5,
        bias: float = 1.0,
        rollout_plays: int = 6,
        temperature: float = 3.0,
        opponent_priors: bool = False,
    ) -> None:
        super().__init__(seed, budget or Budget(iterations=200))
        self.exploration = exploration
        self.bias = bias
        self.rollout_plays = rollout_plays
        self.temperature = temperature
        self.opponent_priors = opponent_priors
        self.last_iterations = 0

    def choose(self, view: CentrixView) -> Play:
        rng = self.rng
        me = view.seat
        assert me is not None
        root_state = view.sample(rng)
        legal = root_state.legal_plays()
        if len(legal) == 1:
            return legal[0]
        root = _Node(-1)
        clock = self.budget.clock()
        c, bias = self.exploration, self.bias
        while clock.tick():
            state = view.sample(rng)
            node, path = root, []
            own_turn = True
            while not state.is_over:
                mover = state._seat
                own_turn = own_turn and mover == me
                if own_turn and node.plays is not None:
                    plays = node.plays
                else:
                    plays = state.legal_plays()
                    if own_turn:
                        node.plays = plays
                children = node.children
                fresh = [p for p in plays if p not in children]
                if fresh:
                    for p in fresh:
                        children[p] = _Node(mover)
                    if bias and (mover == me or self.opponent_priors):
                        _rank_priors(state, mover, fresh, children)
                best, best_ucb = plays[0], -math.inf
                log_avail = 0.0
                for p in plays:
                    child = children[p]
                    child.avail += 1
                    if child.visits == 0:
                        ucb = 1e9 + child.prior + rng.random() * 1e-6
                    else:
                        log_avail = math.log(child.avail)
                        ucb = (
                            child.total / child.visits
                            + c * math.sqrt(log_avail / child.visits)
                            + bias * child.prior / (child.visits + 1)
                        )
                    if ucb > best_ucb:
                        best, best_ucb = p, ucb
                node = children[best]
                state._push(best)
                path.append(node)
                if node.visits == 0:
                    break
            rewards = self._rollout(state, rng)
            for n in path:
                n.visits += 1
                n.total += rewards[n.mover]
        self.last_iterations = clock.iterations - 1
        return max(legal, key=lambda p: (root.children[p].visits, root.children[p].prior))

    def _rollout(self, state: CentrixState, rng: random.Random) -> list[float]:
        for _ in range(self.rollout_plays):
            if state.is_over:
                break
            state._push(fast_play(state, rng))
        return rewards(state, self.temperature)


def _rank_priors(
    state: CentrixState, seat: int, plays: list[Play], children: dict[Play, _Node]
) -> None:
    """Greedy's evaluation of each play, as a rank in [0, 1] (best 1)."""
    scored = []
    for play in plays:
        state._push(play)
        scored.append((value(state, seat), play))
        state.pop()
    scored.sort(key=lambda item: item[0])
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
            for mv in moves:
                gain = _gain(mv.from_square, mv.to_square) * 4 + rng.randrange(4)
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


__all__ = ["Card", "GreedyBot", "IsmctsBot", "RandomBot", "fast_play", "rewards"]
