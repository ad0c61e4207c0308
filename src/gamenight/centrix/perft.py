"""Perft: count the sequences of legal plays of a given length, as chess engines do.

Across a turn's end the next hand is drawn from the position's own draw pile (and any
reshuffle from its own generator key), so the count is exact and pins the rules down.
"""

from __future__ import annotations

from gamenight.centrix.plays import Play
from gamenight.centrix.state import CentrixState


def perft(state: CentrixState, depth: int) -> int:
    """The number of play sequences of length ``depth`` from ``state``."""
    return perft_stats(state, depth)[0]


def perft_stats(state: CentrixState, depth: int) -> tuple[int, int]:
    """(sequences, plays generated along the way). Leaves are counted in bulk."""
    if depth <= 0:
        return 1, 0
    plays = state.legal_plays()
    if depth == 1:
        return len(plays), len(plays)
    total, generated = 0, len(plays)
    for play in plays:
        state.push_unchecked(play)
        count, gen = perft_stats(state, depth - 1)
        state.pop()
        total += count
        generated += gen
    return total, generated


def divide(state: CentrixState, depth: int) -> list[tuple[Play, int]]:
    """Perft split by first play: the tool for finding where two generators disagree."""
    out = []
    for play in state.legal_plays():
        state.push_unchecked(play)
        out.append((play, perft(state, depth - 1)))
        state.pop()
    return out
