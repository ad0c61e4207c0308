"""Positions for scenario tests, written in the position text format."""

from __future__ import annotations

import random
from collections import Counter

from gamenight.centrix import Bottom, CentrixState, Rules
from gamenight.centrix.cards import DECK, format_cards, parse_cards

EMPTY_RING = "." * 12


def random_positions(
    count: int, seed: int, *, bottoms: tuple[Bottom, ...] = tuple(Bottom), max_plays: int = 150
) -> list[CentrixState]:
    """Unfinished positions of random games of 2–6 players, each after up to ``max_plays``
    uniformly random plays, under a bottom variant drawn from ``bottoms``."""
    rng = random.Random(seed)
    out: list[CentrixState] = []
    while len(out) < count:
        rules = Rules(bottom=rng.choice(bottoms))
        state = CentrixState.new(rng.randint(2, 6), seed=rng.getrandbits(32), rules=rules)
        for _ in range(rng.randint(0, max_plays)):
            if state.is_over:
                break
            state.push_unchecked(rng.choice(state.legal_plays()))
        if not state.is_over:
            out.append(state)
    return out


def position(
    rings: dict[int, str] | None = None,
    hands: tuple[str, ...] = ("-", "-"),
    *,
    seats: str = "RB",
    top: str | None = None,
    offsets: str = "000000",
    to_move: int = 0,
    plays: int = 0,
    turn: int = 0,
    draw_top: str = "",
    draw: str | None = None,
    discard: str = "-",
    key: str = "0123456789abcdef",
    places: str | None = None,
    status: str = "playing",
    rest_to: str = "draw",
) -> str:
    """A full position string. ``rings`` maps ring number to its 12 slots; the draw pile is
    ``draw_top`` followed by the cards not placed elsewhere, in deck order (or ``draw``)."""
    ring_text = "/".join((rings or {}).get(r, EMPTY_RING) for r in range(1, 7))
    hand_cards = [sorted(parse_cards(h)) for h in hands]
    used = Counter(parse_cards(discard)) + Counter(parse_cards(draw_top or "-"))
    for h in hand_cards:
        used += Counter(h)
    rest = sorted((Counter(DECK) - used - Counter(parse_cards(draw or "-"))).elements())
    if rest_to == "discard":
        discard = format_cards(parse_cards(discard) + rest)
        draw = draw or "-"
    elif draw is None:
        draw = format_cards(parse_cards(draw_top or "-") + rest)
    n = len(seats)
    return " ".join(
        [
            seats,
            offsets,
            ring_text,
            top or "0" * n,
            ",".join(format_cards(h) for h in hand_cards),
            draw,
            discard,
            key,
            str(to_move),
            str(plays),
            str(turn),
            places or ",".join(["-"] * n),
            status,
        ]
    )


def state(*args: object, rules: Rules | None = None, **kwargs: object) -> CentrixState:
    return CentrixState.from_position(position(*args, **kwargs), rules)  # type: ignore[arg-type]


def plays(s: CentrixState) -> set[str]:
    return {str(p) for p in s.legal_plays()}


def moves(s: CentrixState, card: str, rotation: str | None = None) -> set[str]:
    """The moves (as ``from-to``) that ``card`` allows, with the given rotation or none."""
    out = set()
    for p in s.legal_plays():
        if str(p.card) != card or p.move is None:
            continue
        if (rotation is None and p.rotation is None) or (
            rotation is not None and str(p.rotation) == rotation
        ):
            out.add(str(p.move))
    return out


def ring(**pawns: str) -> str:
    """One ring's 12 slots, e.g. ``ring(c="r", d="b")`` for pawns on slots c and d."""
    slots = ["."] * 12
    for slot, pawn in pawns.items():
        slots["abcdefghijkl".index(slot)] = pawn
    return "".join(slots)


def played(seed: int, plays: int, players: int = 4) -> CentrixState:
    """A game of ``players`` after up to ``plays`` random legal plays from ``seed``."""
    import random

    state = CentrixState.new(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(plays):
        if state.is_over:
            break
        state.push(rng.choice(state.legal_plays()))
    return state
