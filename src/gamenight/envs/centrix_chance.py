"""A Centrix engine whose card draws are chance outcomes chosen from outside.

The engine draws from a shuffled pile and reshuffles the discard pile with its own generator.
Drawing the top card of a uniformly shuffled pile is the same as drawing uniformly without
replacement from the pile's cards, so an adapter may treat every draw as a chance event over
the card kinds in the pile (then, once it is empty, in the discard pile) with probabilities
proportional to their counts. That keeps the game's randomness honest and lets search and
sampling see it; the order of the pile is then never information anybody has.

:class:`DealtCentrix` asks for those outcomes: pushed with ``dealt=None``, a play whose turn
ends with a refill raises :class:`NeedCards` (the state is restored untouched); pushed again
with ``dealt`` set to that many cards, it refills the hand with exactly those cards, taking
them out of the pile (or the reshuffled discard pile) as the engine would.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

from gamenight.centrix.board import NUM_RINGS, NUM_SQUARES, Colour
from gamenight.centrix.cards import Card
from gamenight.centrix.plays import Play
from gamenight.centrix.position import Position
from gamenight.centrix.rules import Rules
from gamenight.centrix.state import EMPTY, HAND_SIZE, PLAYING, CentrixState
from gamenight.envs.centrix_codec import PlayTree


class Refill(NamedTuple):
    """A hand to refill with ``cards`` chance cards, from ``draw`` then ``discard``."""

    cards: int
    draw: tuple[Card, ...]
    discard: tuple[Card, ...]


class NeedCards(Exception):  # noqa: N818 — a signal, not an error
    """The play ends a turn whose hand must be refilled with chance cards."""

    def __init__(self, refill: Refill) -> None:
        super().__init__(refill)
        self.refill = refill


class DealtCentrix(CentrixState):
    """CentrixState with refills taken from ``dealt`` (see the module's docstring)."""

    dealt: list[Card] | None = None
    tree: PlayTree | None = None  # the decision tree of the current legal plays (a cache)

    def play_tree(self) -> PlayTree:
        """The decision tree of the legal plays, kept next to the engine's own cache of them
        and rebuilt only when the engine has listed new ones."""
        plays = self.legal_play_tuple()
        tree = self.tree
        if tree is None or tree.source is not plays:
            tree = self.tree = PlayTree(plays)
        return tree

    def refill_hand(self, hand: list[Card]) -> None:
        dealt = self.dealt
        if dealt is None:
            need = min(HAND_SIZE - len(hand), len(self.draw) + len(self.discard))
            if need > 0:
                raise NeedCards(Refill(need, tuple(self.draw), tuple(self.discard)))
            return
        for card in dealt:
            if not self.draw:
                # The engine reshuffles here; under the chance model the pile is a multiset.
                self.draw, self.discard = sorted(self.discard), []
            self.draw.remove(card)
            hand.append(card)
        hand.sort()

    def play(self, play: Play, dealt: list[Card] | None = None) -> Refill | None:
        """Make a legal play; returns the Refill (changing nothing) if it needs chance
        cards and ``dealt`` is None. Keeps no undo stack, so copies stay cheap."""
        self.dealt = dealt
        try:
            self.push_unchecked(play)
        except NeedCards as need:
            self.pop()
            return need.refill
        finally:
            self.dealt = None
        self.clear_stack()
        return None

    # Cheap, faithful copies and pickles: everything that matters is the position string.
    # A copy shares the caches of legal plays and their tree, which depend only on the
    # position (both are immutable once built: the engine replaces them, never edits them).
    def __deepcopy__(self, memo: dict[int, Any]) -> DealtCentrix:
        clone = self.copy(history=False)
        clone.tree = self.tree
        return clone

    def __getstate__(self) -> dict[str, Any]:
        return {"rules": self.rules.to_dict(), "position": self.position()}

    def __setstate__(self, data: dict[str, Any]) -> None:
        rules = Rules.from_dict(data["rules"])
        position = Position.parse(data["position"], deck=rules.deck, pawns=rules.pawns)
        CentrixState.__init__(self, rules, position.players, position)


def pool_after(
    draw: tuple[Card, ...], discard: tuple[Card, ...], drawn: list[Card]
) -> Counter[Card]:
    """The cards the next chance draw comes from, after ``drawn`` of a refill."""
    if len(drawn) < len(draw):
        return Counter(draw) - Counter(drawn)
    return Counter(discard) - Counter(drawn[len(draw) :])


def dealt_start(rules: Rules, num_players: int, deal: list[Card]) -> DealtCentrix:
    """The start of a game whose hands were dealt as ``deal`` (one card at a time, seat 0
    first, as the rules deal); the rest of the deck is the draw pile."""
    hands: list[list[Card]] = [[] for _ in range(num_players)]
    for i, card in enumerate(deal):
        hands[i % num_players].append(card)
    rest = Counter(rules.deck) - Counter(deal)
    position = Position(
        players=tuple(Colour(i) for i in range(num_players)),
        offsets=(0,) * NUM_RINGS,
        cells=(EMPTY,) * NUM_SQUARES,
        top=(0,) * num_players,
        hands=tuple(tuple(sorted(h)) for h in hands),
        draw=tuple(sorted(rest.elements())),
        discard=(),
        key=0,
        to_move=0,
        plays_done=0,
        turn=0,
        places=(0,) * num_players,
        status=PLAYING,
    )
    return DealtCentrix.starting(rules, position)


def from_state(state: CentrixState) -> DealtCentrix:
    """A DealtCentrix in the same position (for sampled determinizations)."""
    return DealtCentrix(state.rules, state.players, state.to_position())
