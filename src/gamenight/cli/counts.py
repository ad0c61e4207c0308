"""argparse types for counts and durations, refused by argparse with the reason."""

from __future__ import annotations

import argparse

from gamenight.core.errors import NotationError
from gamenight.core.numbers import read_decimal, read_whole_number


def count(text: str) -> int:
    """A whole number ≥ 1: games, workers, rounds, positions."""
    return _at_least(1, text)


def seconds(text: str) -> float:
    """A duration > 0, in seconds."""
    try:
        value = read_decimal(text.strip(), "seconds", NotationError)
    except NotationError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


def depth(text: str) -> int:
    """A search depth ≥ 0: depth 0 is the position itself, one sequence."""
    return _at_least(0, text)


def _at_least(least: int, text: str) -> int:
    try:
        value = read_whole_number(text.strip(), "a count", NotationError, signed=True)
    except NotationError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
    return value
