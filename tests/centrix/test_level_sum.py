"""The level sum (D16's tie-break): one function, read by the state, the position check and
the views the web app draws."""

from __future__ import annotations

from gamenight.centrix.board import level_of, level_sum
from tests.centrix.helpers import random_positions


def test_a_view_and_its_state_sum_the_same_levels() -> None:
    for state in random_positions(60, seed=16):
        for viewer in (None, 0):
            view = state.view(viewer)
            for seat in range(state.num_players):
                by_pawn = sum(level_of(sq) for sq in state.pawn_squares(seat))
                assert view.level_sum(seat) == state.level_sum(seat) == by_pawn
                assert level_sum(view.cells, view.top, seat) == by_pawn
