"""The SVG board: well-formed, complete, and showing exactly what the state or view holds."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from gamenight.centrix import OFF, Card, CentrixState, Colour, parse_square, square, square_name
from gamenight.centrix.svg import SYMBOL_NAMES, board_svg, card_svg

from .helpers import played

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def with_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [el for el in root.iter() if el.get("class") == cls]


def position_with(state: CentrixState, **fields: str) -> CentrixState:
    """``state`` with some fields of its position string replaced (by name)."""
    names = ["seats", "offsets", "rings", "top", "hands", "draw", "discard", "key"]
    names += ["to_move", "plays", "turn", "places", "status"]
    parts = state.position().split()
    for name, value in fields.items():
        parts[names.index(name)] = value
    return CentrixState.from_position(" ".join(parts))


def test_is_xml_with_namespace_viewbox_and_size() -> None:
    root = parse(board_svg(CentrixState.new(4, seed=1), size=300))
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox", "").startswith("0 0 1000 ")
    assert root.get("width") == "300"
    assert root.find(f"{NS}title") is not None


def test_uses_no_external_resources() -> None:
    svg = board_svg(played(2, 30), seat=0, show_hand=True, highlight=["c3"])
    for needle in ("href", "url(", "@import", "<image", "@font-face", "http://", "https://"):
        assert needle not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")
    families = {el.get("font-family") for el in parse(svg).iter()} - {None}
    assert families == {"sans-serif"}


def test_has_72_squares_coloured_as_the_state() -> None:
    state = played(3, 40)
    squares = with_class(parse(board_svg(state)), "square")
    assert len(squares) == 72
    by_name = {el.get("data-square"): el for el in squares}
    assert len(by_name) == 72
    for sq in range(72):
        el = by_name[square_name(sq)]
        assert el.get("data-colour") == state.colour_at(sq).name.lower()
        assert el.get("data-ring") == str(sq // 12 + 1)
        assert el.get("data-slot") == str(sq % 12)


def test_every_square_has_the_symbol_of_its_colour() -> None:
    state = played(4, 25)
    symbols = [el for el in with_class(parse(board_svg(state)), "symbol") if el.get("data-square")]
    assert len(symbols) == 72
    for el in symbols:
        colour = state.colour_at(parse_square(el.get("data-square", "")))
        assert el.get("data-colour") == colour.name.lower()
        assert el.get("data-symbol") == SYMBOL_NAMES[colour]
    assert len(set(SYMBOL_NAMES.values())) == len(Colour)


@pytest.mark.parametrize(("seed", "plays"), [(1, 0), (5, 17), (11, 60), (23, 150)])
def test_pawns_match_the_state(seed: int, plays: int) -> None:
    state = played(seed, plays)
    pawns = with_class(parse(board_svg(state)), "pawn")
    shown = Counter((el.get("data-square"), int(el.get("data-seat", "-1"))) for el in pawns)
    expected = Counter(
        (square_name(sq), seat)
        for seat in range(state.num_players)
        for sq in state.pawn_squares(seat)
        if sq != OFF
    )
    assert shown == expected
    for el in pawns:
        seat = int(el.get("data-seat", "-1"))
        assert el.get("data-colour") == state.players[seat].name.lower()


def test_a_rotated_ring_shows_its_colours_at_the_right_slots() -> None:
    state = position_with(CentrixState.new(4, seed=8), offsets="30b001")
    squares = {el.get("data-square"): el for el in with_class(parse(board_svg(state)), "square")}
    # Ring 1 turned 3 slots clockwise: its printed square 0 (red) now stands at slot d.
    assert squares["d1"].get("data-colour") == "red"
    assert squares["a1"].get("data-colour") == "green"  # printed square 9 of ROYGBW ROYGBW
    # Ring 3 turned 11 clockwise (one back): slot a shows printed square 1, orange.
    assert squares["a3"].get("data-colour") == "orange"
    for sq in range(72):
        assert squares[square_name(sq)].get("data-colour") == state.colour_at(sq).name.lower()


def test_a_rotation_played_moves_the_colours() -> None:
    state = played(6, 40)
    rotating = [p for p in state.legal_plays() if p.rotation is not None]
    assert rotating
    state.push(rotating[0])
    squares = {el.get("data-square"): el for el in with_class(parse(board_svg(state)), "square")}
    for sq in range(72):
        assert squares[square_name(sq)].get("data-colour") == state.colour_at(sq).name.lower()


def test_a_view_draws_the_same_board_as_its_state() -> None:
    state = played(9, 70)

    def board(svg: str) -> list[tuple[str | None, ...]]:
        root = parse(svg)
        keys = ("class", "data-square", "data-colour", "data-seat")
        return sorted(
            tuple(el.get(k) for k in keys)
            for el in root.iter()
            if el.get("class") in {"square", "symbol", "pawn"}
        )

    assert board(board_svg(state.view(2))) == board(board_svg(state))
    assert board(board_svg(state.view(None))) == board(board_svg(state))


def test_the_top_shows_its_pawns() -> None:
    state = position_with(CentrixState.new(4, seed=2), top="2103", places="-,-,-,1")
    root = parse(board_svg(state))
    (top,) = [el for el in root.iter() if el.get("class") == "top"]
    assert top.get("data-pawns") == "6"
    on_top = [el for el in top.iter() if el.get("class") == "pawn"]
    assert Counter(el.get("data-colour") for el in on_top) == {"red": 2, "orange": 1, "green": 3}
    assert all(el.get("data-square") == "top" for el in on_top)
    players = {el.get("data-seat"): el for el in with_class(root, "player")}
    assert players["0"].get("data-top") == "2"
    assert players["0"].get("data-off") == "1"
    assert players["3"].get("data-off") == "0"


def test_a_crowded_top_keeps_every_pawn() -> None:
    state = position_with(
        CentrixState.new(6, seed=2), top="333332", places="1,2,3,4,5,6", status="finished"
    )
    pawns = with_class(parse(board_svg(state)), "pawn")
    assert sum(el.get("data-square") == "top" for el in pawns) == 17


def test_hand_is_drawn_only_when_asked_and_known() -> None:
    state = played(12, 20)

    def cards(svg: str) -> list[str | None]:
        return [el.get("data-card") for el in with_class(parse(svg), "card")]

    assert cards(board_svg(state)) == []
    assert cards(board_svg(state, seat=1)) == []  # a seat alone does not show the hand
    assert cards(board_svg(state, seat=1, show_hand=True)) == [str(c) for c in state.hands[1]]
    assert cards(board_svg(state, show_hand=True)) == []  # whose hand? nobody's
    view = state.view(3)
    assert cards(board_svg(view, show_hand=True)) == [str(c) for c in state.hands[3]]
    assert cards(board_svg(view, seat=0, show_hand=True)) == []  # not this view's to see
    assert cards(board_svg(state.view(None), show_hand=True)) == []
    hand = with_class(parse(board_svg(view, show_hand=True)), "hand")
    assert [el.get("data-seat") for el in hand] == ["3"]


def test_every_card_kind_draws() -> None:
    for card in Card:
        body = "".join(card_svg(card, 0, 0))
        root = parse(f'<svg xmlns="http://www.w3.org/2000/svg">{body}</svg>')
        (el,) = with_class(root, "card")
        assert el.get("data-card") == str(card)


def test_highlight_outlines_the_given_squares() -> None:
    state = CentrixState.new(3, seed=4)
    root = parse(board_svg(state, highlight=[square(3, 2), "top", "l6", OFF]))
    marked = {el.get("data-square") for el in with_class(root, "highlight")}
    assert marked == {"c3", "top", "l6"}
    assert with_class(parse(board_svg(state)), "highlight") == []


def test_slot_letters_and_ring_numbers_are_labelled() -> None:
    root = parse(board_svg(CentrixState.new(2, seed=1)))
    texts = [el.text for el in root.iter(f"{NS}text")]
    for letter in "abcdefghijkl":
        assert letter in texts
    for ring in "123456":
        assert ring in texts


def test_finished_game_shows_places() -> None:
    state = played(31, 100_000, players=2)
    assert state.is_over
    svg = board_svg(state)
    parse(svg)
    assert "1st place" in svg
    assert "2nd place" in svg or state.places == [1, 1]


def test_jupyter_repr_is_the_board() -> None:
    state = played(13, 12)
    assert state._repr_svg_() == board_svg(state)
