"""The terminal renderers: the plain board reads back as the state, the rich one prints."""

from __future__ import annotations

import pytest
from rich.console import Console

from gamenight.centrix import CentrixState, CentrixView, square
from gamenight.centrix.text import render, render_plain

from .helpers import played


def pawn_letter(state: CentrixState, sq: int) -> str:
    owner = state.cells[sq]
    return "." if owner < 0 else state.players[owner].letter.lower()


def plain_rows(text: str) -> dict[int, list[str]]:
    """Ring number -> the twelve cells of its row, in the order the rows are printed."""
    rows: dict[int, list[str]] = {}
    for line in text.splitlines()[1:7]:
        ring, *cells = line.split()
        rows[int(ring)] = cells
    return rows


@pytest.mark.parametrize(("seed", "plays"), [(1, 0), (4, 25), (7, 90)])
def test_plain_rows_show_colours_and_pawns(seed: int, plays: int) -> None:
    state = played(seed, plays)
    text = render_plain(state)
    assert text.splitlines()[0].split() == ["ring", *"abcdefghijkl"]
    rows = plain_rows(text)
    assert list(rows) == [6, 5, 4, 3, 2, 1]  # the highest ring first
    for ring, cells in rows.items():
        expected = [
            state.colour_at(square(ring, s)).letter + pawn_letter(state, square(ring, s))
            for s in range(12)
        ]
        assert cells == expected


def test_plain_shows_top_off_and_turn() -> None:
    state = CentrixState.from_position(
        CentrixState.new(3, seed=3).position().replace(" 000 ", " 201 ", 1)
    )
    lines = render_plain(state).splitlines()
    assert lines[7] == "top  r:2  o:0  y:1"
    assert lines[8] == "off  r:1  o:3  y:2"
    assert lines[9] == "turn 1: red (seat 0) to move, 3 plays left"


def test_plain_after_plays_counts_pawns() -> None:
    state = played(5, 60)
    text = render_plain(state)
    letters = [c.letter.lower() for c in state.players]
    for seat, letter in enumerate(letters):
        on_rings = sum(
            cell.endswith(letter) for cells in plain_rows(text).values() for cell in cells
        )
        assert on_rings == state.cells.count(seat)
        assert f"{letter}:{state.top[seat]}" in text.splitlines()[7]


def test_str_is_the_plain_board_without_hands() -> None:
    state = played(2, 10)
    assert str(state) == render_plain(state)
    assert "hand" not in str(state)


def test_hand_only_for_the_seat_asked() -> None:
    state = played(8, 14)
    text = render_plain(state, seat=2)
    hand_lines = [line for line in text.splitlines() if line.startswith("hand")]
    expected = " ".join(str(c) for c in state.hands[2])
    assert hand_lines == [f"hand of yellow (seat 2): {expected}"]


def test_a_view_shows_its_own_hand_and_no_other() -> None:
    state = played(8, 14)
    view = state.view(1)
    assert isinstance(view, CentrixView)
    own = " ".join(str(c) for c in state.hands[1])
    assert f"hand of orange (seat 1): {own}" in render_plain(view)
    assert render_plain(view, seat=1) == render_plain(view)
    assert "hand" not in render_plain(view, seat=0)
    assert "hand" not in render_plain(state.view(None))
    # Everything but the hand is the same as the full state's board.
    assert render_plain(state.view(None)) == render_plain(state)


def test_game_over_lists_places() -> None:
    state = played(31, 100_000, players=2)
    assert state.is_over
    last = render_plain(state).splitlines()[-1]
    assert last.startswith("game over after")
    for seat, colour in enumerate(state.players):
        assert f"{state.places[seat]}. {colour.name.lower()} (seat {seat})" in last


def rich_text(game: CentrixState | CentrixView, seat: int | None = None) -> str:
    console = Console(record=True, width=120)
    console.print(render(game, seat=seat))
    return console.export_text()


def test_rich_render_prints_the_board() -> None:
    state = played(6, 50)
    lines = rich_text(state).splitlines()
    assert lines[0].split() == ["ring", *"abcdefghijkl"]
    for i, ring in enumerate(range(6, 0, -1)):
        line = lines[1 + i]
        assert line.split()[0] == str(ring)
        for s in range(12):
            cell = line[5 + 5 * s : 10 + 5 * s]
            sq = square(ring, s)
            assert cell[1] == state.colour_at(sq).letter
            owner = state.cells[sq]
            assert cell[2:4] == ("  " if owner < 0 else "●" + state.players[owner].letter)
    assert "to move" in lines[9]


def test_rich_render_shows_a_hand_when_asked() -> None:
    state = played(6, 50)
    assert "hand" not in rich_text(state)
    text = rich_text(state, seat=0)
    hand_line = next(line for line in text.splitlines() if line.startswith("hand"))
    for card in state.hands[0]:
        assert str(card) in hand_line
    assert "hand of green (seat 3)" in rich_text(state.view(3))


def test_rich_render_of_a_finished_game() -> None:
    state = played(31, 100_000, players=2)
    assert "game over" in rich_text(state)
