"""The learned Centrix bot: a small policy/value network over a seat's view, run in numpy.

The network judges *afterstates*: for each legal play it reads the position the play leaves
(from the deciding seat's side, ``features``) and gives a policy logit and a value (the
chance that seat wins). The bot alone (``learned``) plays the legal play of the highest
logit; with search (``learned:search=0.25``) it runs the ISMCTS of
gamenight.bots.centrix with the network as prior over its own turn's plans and as the
judge of every leaf.

The weights are a small ``.npz`` shipped in the package (``learned.npz``), trained by
``examples/train_learned_centrix.py`` with torch; inference needs numpy only, so the bot
loads with no network access and no torch. docs/ai.md, "The learned bot".

What ``features`` reads of a position is what the seat's view shows: the board, the
rotations, every seat's pawns on the top and off the board, the hand sizes, the discard
pile, the draw pile's size, the places, who moves and the plays made this turn; of the
hands only the seat's own, and that only while the seat is to move (after its turn's last
play the hand is the next draw, which the seat cannot know when it decides).
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from gamenight.bots.base import Budget, SeededBot
from gamenight.bots.centrix import IsmctsBot, _Node, play_round, turn_plans
from gamenight.bots.centrix_eval import Weights, opportunities, scores
from gamenight.centrix import native
from gamenight.centrix.board import NUM_RINGS, NUM_SLOTS, NUM_SQUARES, Layout
from gamenight.centrix.cards import Card
from gamenight.centrix.plays import Play
from gamenight.centrix.position import MAX_PLAYERS, MIN_PLAYERS
from gamenight.centrix.rules import Rules
from gamenight.centrix.state import EMPTY, PLAYS_PER_TURN, CentrixState, CentrixView

NUM_COLOURS = 6
NUM_CARDS = len(Card)
# The positional part of the evaluation (levels, threats): no hand is read for it.
POSITIONAL = Weights(opportunity=0.0)

# The layout of the feature vector, block by block.
BLOCKS: tuple[tuple[str, int], ...] = (
    ("own pawns by square", NUM_SQUARES),
    ("other seats' pawns by square", NUM_SQUARES),
    ("next seat's pawns by square", NUM_SQUARES),
    ("colour showing by square", NUM_SQUARES * NUM_COLOURS),
    ("own colour", NUM_COLOURS),
    ("next seat's colour", NUM_COLOURS),
    ("own top, off, hand size", 3),
    ("best other's top, off; others' hand sizes", 3),
    ("own place, any other placed", 2),
    ("own hand while to move, by kind", NUM_CARDS),
    ("discard pile by kind", NUM_CARDS),
    ("draw pile size", 1),
    ("to move: self, next, other", 3),
    ("plays made this turn", PLAYS_PER_TURN),
    ("players 2-6", MAX_PLAYERS - MIN_PLAYERS + 1),
    ("positional scores: own, best other, difference", 3),
    ("own upward cards while to move", 1),
)
FEATURES = sum(size for _, size in BLOCKS)
VERSION = 1  # of this layout: a weights file names the version it was trained on

_SQUARES = np.arange(NUM_SQUARES)
_RING_OF = _SQUARES // NUM_SLOTS
_SLOT_OF = _SQUARES % NUM_SLOTS


@functools.lru_cache(maxsize=16)
def _colour_rows(layout: Layout) -> npt.NDArray[np.intp]:
    # [ring, offset, slot] -> colour showing, so that a rotation is one fancy index.
    table = np.zeros((NUM_RINGS, NUM_SLOTS, NUM_SLOTS), np.intp)
    for r in range(NUM_RINGS):
        for o in range(NUM_SLOTS):
            for s in range(NUM_SLOTS):
                table[r, o, s] = layout.colour(r + 1, s, o)
    return table


@functools.lru_cache(maxsize=16)
def _copies(deck: tuple[Card, ...]) -> npt.NDArray[np.float32]:
    return np.array([max(1, deck.count(card)) for card in Card], np.float32)


# The two tables by the rules object itself (a search asks at every leaf, and hashing a
# layout or a deck costs more than the rest of a reading): rules, colour rows, copies.
_by_rules: dict[int, tuple[Rules, npt.NDArray[np.intp], npt.NDArray[np.float32], int]] = {}


def _tables(rules: Rules) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float32], int]:
    found = _by_rules.get(id(rules))
    if found is None or found[0] is not rules:
        if len(_by_rules) > 64:
            _by_rules.clear()
        deck = rules.deck
        found = _by_rules[id(rules)] = (
            rules,
            _colour_rows(rules.layout),
            _copies(deck),
            len(deck),
        )
    return found[1], found[2], found[3]


def features(state: CentrixState, seat: int, out: npt.NDArray[np.float32]) -> None:
    """Write the features of ``state`` from ``seat``'s side into ``out`` (length FEATURES).

    Reads only what ``state.view(seat)`` shows (the module's docstring); seats are relative
    to ``seat`` (the others merged, the next seat also apart), so one network reads every
    seat and every player count."""
    out.fill(0.0)
    n = state.num_players
    nxt = (seat + 1) % n
    rules = state.rules
    pawns = rules.pawns
    cells = np.asarray(state.cells)
    i = 0
    out[i : i + NUM_SQUARES] = cells == seat
    i += NUM_SQUARES
    out[i : i + NUM_SQUARES] = (cells != seat) & (cells != EMPTY)
    i += NUM_SQUARES
    out[i : i + NUM_SQUARES] = cells == nxt
    i += NUM_SQUARES
    offsets = np.asarray(state.offsets)
    colour_rows, copies, deck_size = _tables(rules)
    colours = colour_rows[_RING_OF, offsets[_RING_OF], _SLOT_OF]
    out[i + _SQUARES * NUM_COLOURS + colours] = 1.0
    i += NUM_SQUARES * NUM_COLOURS
    out[i + state.players[seat]] = 1.0
    out[i + NUM_COLOURS + state.players[nxt]] = 1.0
    i += 2 * NUM_COLOURS
    on_board = [0] * n
    for owner in state.cells:
        if owner != EMPTY:
            on_board[owner] += 1
    top = state.top
    hands = state.hands
    off = [pawns - top[s] - on_board[s] for s in range(n)]
    out[i] = top[seat] / pawns
    out[i + 1] = off[seat] / pawns
    out[i + 2] = len(hands[seat]) / 3
    others = [s for s in range(n) if s != seat]
    out[i + 3] = max(top[s] for s in others) / pawns
    out[i + 4] = min(off[s] for s in others) / pawns
    out[i + 5] = sum(len(hands[s]) for s in others) / (3 * len(others))
    i += 6
    places = state.places
    out[i] = places[seat] / n
    out[i + 1] = any(places[s] for s in others)
    i += 2
    to_move = state.to_move
    if to_move == seat:
        for card in hands[seat]:
            out[i + card] += 1.0
        out[i : i + NUM_CARDS] /= copies
    i += NUM_CARDS
    for card in state.discard:
        out[i + card] += 1.0
    out[i : i + NUM_CARDS] /= copies
    i += NUM_CARDS
    out[i] = len(state.draw) / deck_size
    i += 1
    if to_move is not None:
        out[i + (0 if to_move == seat else 1 if to_move == nxt else 2)] = 1.0
    i += 3
    out[i + min(state.plays_done, PLAYS_PER_TURN - 1)] = 1.0
    i += PLAYS_PER_TURN
    out[i + n - MIN_PLAYERS] = 1.0
    i += MAX_PLAYERS - MIN_PLAYERS + 1
    all_scores = scores(state, POSITIONAL)
    best_other = max(all_scores[s] for s in others)
    out[i] = all_scores[seat] / 10
    out[i + 1] = best_other / 10
    out[i + 2] = (all_scores[seat] - best_other) / 10
    i += 3
    if to_move == seat and not state.is_over:
        out[i] = opportunities(state, seat) / 3
    i += 1
    assert i == FEATURES, (i, FEATURES)


def afterstates(
    state: CentrixState, seat: int, plays: list[Play] | tuple[Play, ...]
) -> npt.NDArray[np.float32]:
    """The features, from ``seat``'s side, of the position each play leaves (one row each)."""
    rows = np.zeros((len(plays), FEATURES), np.float32)
    for k, play in enumerate(plays):
        state.push_unchecked(play)
        features(state, seat, rows[k])
        state.pop()
    return rows


class Net:
    """The network in numpy: a shared trunk of ReLU layers, then a policy logit and a value
    logit per row of features (``w0, b0, w1, b1, …`` then ``wp, bp`` and ``wv, bv``)."""

    def __init__(self, arrays: dict[str, npt.NDArray[Any]]) -> None:
        version = int(arrays["version"])
        if version != VERSION or int(arrays["features"]) != FEATURES:
            raise ValueError(
                f"these weights read feature layout {version} ({int(arrays['features'])} "
                f"features), this bot layout {VERSION} ({FEATURES})"
            )
        self.trunk: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]] = []
        k = 0
        while f"w{k}" in arrays:
            self.trunk.append(
                (arrays[f"w{k}"].astype(np.float32), arrays[f"b{k}"].astype(np.float32))
            )
            k += 1
        self.mean = arrays["mean"].astype(np.float32)
        self.scale = arrays["scale"].astype(np.float32)
        self.head = np.concatenate([arrays["wp"], arrays["wv"]], axis=1).astype(np.float32)
        self.head_bias = np.concatenate([arrays["bp"], arrays["bv"]]).astype(np.float32)

    @classmethod
    def load(cls, path: str | Path) -> Net:
        with np.load(path) as data:
            return cls({key: data[key] for key in data.files})

    def __call__(
        self, x: npt.NDArray[np.float32]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Policy logits and win probabilities, one per row of ``x``."""
        # einsum, not matmul: numpy's BLAS threads a product of this size over every core,
        # and on a loaded machine the threads' waiting cost 20-40 times the product itself
        # (the figures in docs/ai.md); einsum's own loop
        # stays on this thread, at about twice single-threaded BLAS's time.
        h = (x - self.mean) * self.scale
        for w, b in self.trunk:
            h = np.maximum(np.einsum("ij,jk->ik", h, w, optimize=False) + b, 0.0)
        out = np.einsum("ij,jk->ik", h, self.head, optimize=False) + self.head_bias
        values = (1.0 / (1.0 + np.exp(-out[:, 1]))).astype(np.float32)
        return out[:, 0].astype(np.float32), values


WEIGHTS = "learned.npz"


@functools.lru_cache(maxsize=8)
def load_net(path: str | None = None) -> Net:
    """The shipped network (``path`` None), or one from a weights file."""
    if path is None:
        with resources.as_file(resources.files("gamenight.bots").joinpath(WEIGHTS)) as p:
            return Net.load(p)
    return Net.load(path)


class LearnedBot(SeededBot):
    """The network alone: the legal play whose afterstate has the highest policy logit
    (plus ``value`` times the value's log-odds: ``learned:value=1``; 0 by default, which
    measured best, docs/ai.md)."""

    name = "learned"

    def __init__(
        self,
        seed: int | None = None,
        budget: Budget | None = None,
        weights: str | None = None,
        value: float = 0.0,
    ) -> None:
        super().__init__(seed, budget)
        self.net = load_net(weights)
        self.value = value  # the weight of the value's log-odds added to the policy's logit

    def choose(self, view: CentrixView) -> Play:
        seat = view.seat
        assert seat is not None
        # A deal of what the seat cannot see; features() reads none of it.
        state = view.sample(self.rng)
        plays = state.legal_plays()
        if len(plays) == 1:
            return plays[0]
        logits, values = self.net(afterstates(state, seat, plays))
        if self.value:
            clipped = np.clip(values, 1e-6, 1 - 1e-6)
            logits = logits + self.value * np.log(clipped / (1 - clipped))
        return plays[int(np.argmax(logits))]


class LearnedSearchBot(IsmctsBot):
    """ISMCTS (gamenight.bots.centrix.IsmctsBot) with the network: its own turn is the trie
    of the turn planner's best plans, each first play's prior the network's policy (a
    softmax over the plans' first plays) instead of the plan's rank; every leaf, at the
    start of this seat's next turn, is judged by the network's value for this seat (the
    others sharing the rest)."""

    name = "learned"

    def __init__(
        self,
        seed: int | None = None,
        budget: Budget | None = None,
        *,
        search: float | None = None,
        weights: str | None = None,
        **options: Any,
    ) -> None:
        if search is not None and not search > 0:
            raise ValueError(f"search is the seconds a play may take, not {search}")
        super().__init__(seed, budget or Budget(seconds=search or 0.25), **options)
        self.net = load_net(weights)
        self._rows = np.zeros((1, FEATURES), np.float32)

    def _root(self, state: CentrixState, me: int) -> Any:
        node_class = native.search_nodes(_Node)
        root = node_class(-1)
        plans = turn_plans(state, me, self.rng, self.beam, self.weights)[: self.plans]
        firsts = list(dict.fromkeys(sequence[0] for _, sequence in plans))
        logits, _ = self.net(afterstates(state, me, firsts))
        weights = np.exp(logits - logits.max())
        prior_of = dict(zip(firsts, (weights / weights.sum()).tolist(), strict=True))
        for rank, (_, sequence) in enumerate(plans):
            rank_prior = 1 - rank / len(plans)
            node = root
            for depth, play in enumerate(sequence):
                child = node.children.get(play)
                if child is None:
                    prior = prior_of[play] if depth == 0 else rank_prior
                    child = node.children[play] = node_class(me, prior)
                node = child
        return root

    def _rollout(self, state: CentrixState, me: int, turn: int) -> list[float]:
        play_round(state, self.rng, self.rollout_plays, me, turn)
        n = state.num_players
        outcome = state.outcome
        if outcome is not None:
            return [(n - place) / (n - 1) for place in outcome.places]
        # One reading, this seat's: the others share what it leaves (with two players
        # exactly its complement; with more, a paranoid reading, as in the ISMCTS rewards).
        row = self._rows[:1]
        features(state, me, row[0])
        _, values = self.net(row)
        mine = float(values[0])
        other = (1.0 - mine) / (n - 1) if n > 2 else 1.0 - mine
        return [mine if seat == me else other for seat in range(n)]


def learned(
    seed: int | None = None,
    budget: Budget | None = None,
    *,
    search: float | None = None,
    weights: str | None = None,
    **options: Any,
) -> SeededBot:
    """The registry's ``learned`` (the network alone: a budget changes nothing) and
    ``learned:search=SECONDS`` (with ISMCTS, SECONDS a play, or the budget given with it:
    ``learned:400it:search=1``); ``weights=PATH`` reads another weights file."""
    if search is None:
        value = options.pop("value", 0.0)
        if options:
            raise ValueError(f"{', '.join(options)}: only learned:search=SECONDS takes these")
        return LearnedBot(seed, budget, weights, value)
    return LearnedSearchBot(seed, budget, search=search, weights=weights, **options)


__all__ = [
    "FEATURES",
    "LearnedBot",
    "LearnedSearchBot",
    "Net",
    "afterstates",
    "features",
    "learned",
    "load_net",
]
