"""Perft counts for documented positions (docs/rules/centrix.md): they pin the rules down."""

from __future__ import annotations

import pytest

from gamenight.centrix import Bottom, CentrixState, Rules
from gamenight.centrix.perft import divide, perft, perft_stats

START = (
    "ROYG 000000 ............/............/............/............/............/............ "
    "0000 G1AA,O3G2G2,Y1Y2W2,R1O1O1 R3R1G3Y2O3SW3B3B2SY3O2W3R2SB3O2R3AY1G3W1G1B1W1W2Y3R2B2B1 "
    "- b83e90ec17e0aa3c 0 0 0 -,-,-,- playing"
)
MIDGAME = (
    "ROY a1a2a0 .rr....y.y.o/.....o.o..../....r......./.y........../............/............ "
    "000 O1AS,R2Y1B3,R3G3W3 G1R1W1O3B2AW1G1G3 Y3Y2Y2SO1R1B3O3Y3O2B1B1Y1B2W2W3W2G2SR3R2G2O2A "
    "79475bccf7eb0702 2 0 20 -,-,- playing"
)


def test_the_start_position_is_the_seeded_set_up() -> None:
    assert CentrixState.new(4, seed=0).position() == START


@pytest.mark.parametrize(("depth", "count"), [(1, 14), (2, 324), (3, 4492)])
def test_perft_start(depth: int, count: int) -> None:
    assert perft(CentrixState.from_position(START), depth) == count


@pytest.mark.parametrize(("depth", "count"), [(1, 40), (2, 1113), (3, 17368)])
def test_perft_midgame(depth: int, count: int) -> None:
    assert perft(CentrixState.from_position(MIDGAME), depth) == count


@pytest.mark.parametrize(
    ("bottom", "counts"),
    [(Bottom.PROTECT, (40, 1113)), (Bottom.KNOCK_OFF, (43, 1299)), (Bottom.FLOOR, (43, 1271))],
)
def test_perft_midgame_by_bottom_variant(bottom: Bottom, counts: tuple[int, int]) -> None:
    state = CentrixState.from_position(MIDGAME, Rules(bottom=bottom))
    assert (perft(state, 1), perft(state, 2)) == counts


def test_perft_leaves_the_state_untouched_and_divide_adds_up() -> None:
    state = CentrixState.from_position(MIDGAME)
    rows = divide(state, 2)
    assert sum(count for _, count in rows) == 1113
    assert state.position() == MIDGAME
    total, generated = perft_stats(state, 2)
    assert total == 1113
    assert generated == 1113 + 40
