"""One scenario per numbered decision of docs/rules/centrix.md (D1–D18)."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.centrix import (
    DECK,
    OFF,
    TOP,
    Bottom,
    Card,
    CentrixState,
    Colour,
    IllegalPlayError,
    Layout,
    Move,
    Play,
    Rotation,
    Rules,
    square,
)
from gamenight.centrix.rules import BOUNDS as RULES_BOUNDS
from gamenight.centrix.state import shuffled
from gamenight.core.errors import NotationError, RulesError
from tests.parsing import SETTINGS, json_like, mutated_value, only_raises

from .helpers import moves, ring, state

ALL_WHITE = Rules(layout=Layout.from_strings(["W" * 12] * 6))


def pawns(s: CentrixState, seat: int) -> list[str]:
    from gamenight.centrix import square_name

    return sorted(square_name(sq) for sq in s.pawn_squares(seat))


# ---------------------------------------------------------------- board (D1–D5)


def test_d1_pawns_start_off_the_board_and_the_top_holds_any_number() -> None:
    s = CentrixState.new(3, seed=1)
    assert all(s.pawn_squares(seat) == [OFF, OFF, OFF] for seat in range(3))
    s = state({6: ring(a="r")}, ("R1", "-"), top="21")
    assert pawns(s, 0) == ["a6", "top", "top"]
    s.push("R1 a6-top")
    assert s.top == [3, 1]
    assert s.places == [1, 2]


def test_d1_a_pawn_on_the_top_never_moves() -> None:
    s = state({6: ring(a="b")}, ("A", "-"), top="10")
    assert all(p.move is None or p.move.from_square != TOP for p in s.legal_plays())
    with pytest.raises(IllegalPlayError, match="never moves"):
        s.push(Play(Card.ANY, None, Move(TOP, square(6, 0))))


def test_d1_a_pawn_on_the_top_cannot_be_bumped() -> None:
    # Red on a6 with blue on the top: "up" from ring 6 is the top, a step, never a bump.
    s = state({6: ring(a="r")}, ("A", "-"), top="01")
    s.push("A a6-top")
    assert s.top == [1, 1]


def test_d2_rotation_carries_squares_and_pawns_to_other_slots() -> None:
    s = state({2: ring(a="r", b="b")}, ("R1", "-"))
    s.push("R1 2+1")
    assert s.offsets[1] == 1
    assert pawns(s, 0) == ["b2", "off", "off"]
    assert pawns(s, 1) == ["c2", "off", "off"]
    # Square 0 of ring 2 (red) now stands at slot b.
    assert s.colour_at(square(2, 1)) is Colour.RED
    assert s.colour_at(square(1, 1)) is Colour.ORANGE


def test_d3_default_layout_is_lined_up_by_colour() -> None:
    s = CentrixState.new(2, seed=0)
    for slot in range(12):
        colours = {s.colour_at(square(r, slot)) for r in range(1, 7)}
        assert colours == {Colour(slot % 6)}
    assert [s.colour_at(square(1, k)).letter for k in range(12)] == list("ROYGBWROYGBW")


def test_d3_the_layout_is_data() -> None:
    layout = Layout.from_strings(["BBBBBBRRRRRR", *["W" * 12] * 5])
    s = CentrixState.new(2, seed=0, rules=Rules(layout=layout))
    assert s.colour_at(square(1, 0)) is Colour.BLUE
    assert s.colour_at(square(1, 6)) is Colour.RED
    assert s.colour_at(square(2, 0)) is Colour.WHITE
    with pytest.raises(RulesError):
        Layout.from_strings(["RRR"])


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        ([[1]], "each ring is a string of letters, not [1]"),
        ([None] * 6, "each ring is a string of letters, not None"),
        (5, "a list of ring strings, not 5"),
        ({"a": 1}, "a list of ring strings"),
        ("R" * 12, "a list of ring strings"),
    ],
)
def test_d3_a_layout_that_is_no_list_of_strings_is_refused_by_name(
    layout: object, message: str
) -> None:
    # Rules arrive from files and requests, so the shape is checked, not assumed.
    with pytest.raises(RulesError, match=re.escape(message)):
        Rules.from_dict({"layout": layout})


def test_d4_adjacency_is_up_down_sideways_never_diagonal() -> None:
    s = state({3: ring(c="r")}, ("A", "-"), top="21")
    assert moves(s, "A") == {"c3-c4", "c3-c2", "c3-b3", "c3-d3"}


def test_d4_sideways_wraps_around_the_ring() -> None:
    s = state({2: ring(a="r")}, ("A", "-"), top="21")
    assert moves(s, "A") == {"a2-b2", "a2-l2", "a2-a1", "a2-a3"}


def test_d4_up_from_ring_6_is_the_top_and_entry_is_any_slot_of_ring_1() -> None:
    s = state({6: ring(c="r")}, ("A", "-"), top="11")
    assert moves(s, "A") == {"c6-top", "c6-c5", "c6-b6", "c6-d6"} | {
        f"off-{x}1" for x in "abcdefghijkl"
    }


def test_d5_one_pawn_per_square() -> None:
    s = state({3: ring(c="r", d="b")}, ("A", "-"), top="21")
    s.push("A c3-d3")  # a bump, never a second pawn on d3
    assert s.cells[square(3, 3)] == 0
    assert s.cells[square(1, 3)] == 1


# ---------------------------------------------------------------- cards (D6, D7)


def test_d6_the_deck() -> None:
    assert len(DECK) == 42
    for colour in "ROYGBW":
        for n in "123":
            assert DECK.count(Card.parse(colour + n)) == 2
    assert DECK.count(Card.ANY) == 3
    assert DECK.count(Card.SPIN) == 3
    s = CentrixState.new(6, seed=3)
    assert all(len(h) == 3 for h in s.hands)
    assert len(s.draw) == 42 - 18


def test_d6_the_draw_pile_is_shuffled_from_the_seed() -> None:
    a = CentrixState.new(4, seed=11)
    b = CentrixState.new(4, seed=11)
    c = CentrixState.new(4, seed=12)
    assert a.position() == b.position()
    assert a.draw != c.draw


def test_d6_an_empty_draw_pile_is_refilled_by_shuffling_the_discards() -> None:
    s = state({6: ring(a="r")}, ("R2", "A"), top="20", draw="-", rest_to="discard")
    key = s.key
    before = [*s.discard, Card.R2]
    s.push("R2 6+2")  # red's only card: the turn ends and red refills to three
    pile, next_key = shuffled(before, key)
    assert s.hands[0] == sorted(pile[:3])
    assert s.draw == pile[3:]
    assert s.discard == []
    assert s.key == next_key


def test_d7_a_numbered_card_rotates_exactly_its_number_either_way() -> None:
    s = state({2: ring(a="r"), 4: ring(e="r")}, ("G2", "-"), top="10")
    rotations = {str(p.rotation) for p in s.legal_plays() if p.move is None}
    assert rotations == {"2+2", "2-2", "4+2", "4-2"}
    with pytest.raises(IllegalPlayError, match="exactly 2"):
        s.push("G2 2+1")


def test_d7_rotation_only_on_a_ring_where_you_have_a_pawn() -> None:
    s = state({2: ring(a="r"), 3: ring(a="b")}, ("G2", "-"), top="20")
    with pytest.raises(IllegalPlayError, match="no pawn on ring 3"):
        s.push("G2 3+2")
    before = s.position()
    with pytest.raises(IllegalPlayError):
        s.push("G2 5-2")
    assert s.position() == before


def test_d7_rotation_comes_first_and_the_move_reads_the_rotated_board() -> None:
    s = state({2: ring(a="r")}, ("O1", "-"), top="20")
    # After 2+1 red stands on b2 and b3 (ring 3 unturned) is orange.
    assert "b2-b3" in moves(s, "O1", "2+1")
    s.push("O1 2+1 b2-b3")
    assert pawns(s, 0) == ["b3", "top", "top"]
    with pytest.raises(IllegalPlayError, match="no pawn on a2 after the rotation"):
        state({2: ring(a="r")}, ("O1", "-"), top="20").push("O1 2+1 a2-a3")


def test_d7_the_any_colour_wild_cannot_rotate() -> None:
    s = state({2: ring(a="r")}, ("A", "-"), top="20")
    assert all(p.rotation is None for p in s.legal_plays())
    with pytest.raises(IllegalPlayError, match="cannot rotate"):
        s.push("A 2+1 b2-b3")


def test_d7_the_spin_wild_turns_any_amount_each_offset_once() -> None:
    s = state({2: ring(a="r")}, ("S", "-"), top="20")
    rotations = [str(p.rotation) for p in s.legal_plays() if p.move is None]
    assert sorted(rotations) == sorted(f"2{a:+d}" for a in (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6))
    # +7 is written -5: the same play.
    assert parse_play_text("S 2+7") == parse_play_text("S 2-5")
    # ... and then moves as an any-colour wild, from the rotated position.
    assert moves(s, "S", "2+3") == {"d2-d1", "d2-d3", "d2-c2", "d2-e2"}
    assert moves(s, "S") == {"a2-a1", "a2-a3", "a2-b2", "a2-l2"}


def test_d7_a_play_needs_a_rotation_or_a_move() -> None:
    s = state({2: ring(a="r")}, ("S", "-"), top="20")
    with pytest.raises(IllegalPlayError, match="rotation, a move or both"):
        s.push(Play(Card.SPIN))


def test_d7_copies_are_interchangeable_and_each_play_listed_once() -> None:
    s = state({2: ring(a="r", c="b")}, ("R1R1S", "-"), top="10")
    listed = s.legal_plays()
    assert len(listed) == len(set(listed))
    assert sum(1 for p in listed if str(p) == "R1 2+1") == 1


def test_d7_two_ways_round_the_ring_to_one_square_is_one_play() -> None:
    # Every ring-1 square but g1 is taken: a1 leapfrogs onto g1 either way round.
    s = state({1: "rbbbgg.gyyyr"}, ("A", "-", "-", "-"), seats="RBGY")
    onto_g1 = [p for p in s.legal_plays() if p.move is not None and str(p.move) == "a1-g1"]
    assert len(onto_g1) == 1


# ---------------------------------------------------------------- turns (D8, D9)


def test_d8_a_turn_is_three_plays_while_cards_are_playable() -> None:
    s = state({2: ring(a="r")}, ("G1G2G3", "B1"), top="20")
    s.push("G1 2+1")
    assert s.to_move == 0
    assert s.plays_left == 2
    s.push("G2 2+2")
    s.push("G3 2+3")
    assert s.to_move == 1
    assert len(s.hands[0]) == 3  # refilled
    assert s.turn == 1


def test_movers_say_who_made_each_play() -> None:
    game = CentrixState.new(3, seed=1, first=1)
    seats = []
    for _ in range(10):
        seats.append(game.to_move)
        game.push(game.legal_plays()[-1])
    assert game.movers == seats
    assert seats[:3] == [1, 1, 1]
    game.pop()
    assert game.movers == seats[:-1]


def test_d8_the_turn_ends_early_when_no_card_can_be_played() -> None:
    # Red's last ring pawn goes to the top; with only orange cards and an all-white
    # board red cannot enter its off-board pawn, so the turn ends after one play.
    rules = Rules(layout=Layout.from_strings(["W" * 12] * 5 + ["R" + "W" * 11]))
    s = state({6: ring(a="r")}, ("O1O2R1", "W1"), top="10", rules=rules, draw_top="Y3")
    s.push("R1 a6-top")
    assert s.to_move == 1
    assert s.hands[0] == [Card.O1, Card.O2, Card.Y3]


def test_d8_a_player_who_cannot_play_passes_without_drawing() -> None:
    s = state({1: ring(a="r")}, ("W1W2W3", "O1O2O3"), rules=ALL_WHITE, top="00")
    draw_before = len(s.draw)
    s.push("W1 1+1")
    s.push("W2 1+2")
    s.push("W3 1+3")
    # Blue holds only orange cards, has no pawn on the board and the board is all
    # white: blue passes, keeps its cards, and red moves again.
    assert s.to_move == 0
    assert s.hands[1] == [Card.O1, Card.O2, Card.O3]
    assert len(s.draw) == draw_before - 3
    assert s.turn == 2


def test_d8_nobody_able_to_play_ends_the_game_as_a_stalemate() -> None:
    # After red's last ring pawn reaches the top, red (orange cards, a pawn off the board,
    # an all-white ring 1) and blue (yellow cards, all pawns off) can never play again.
    rules = Rules(layout=Layout.from_strings(["W" * 12] * 5 + ["R" + "W" * 11]))
    s = state({6: ring(a="r")}, ("O1O2R1", "Y1Y2Y3"), top="10", rules=rules, draw_top="O3")
    s.push("R1 a6-top")
    outcome = s.outcome
    assert outcome is not None
    assert outcome.reason == "stalemate"
    assert outcome.places == (1, 2)  # red has 2 pawns on the top, blue none


def test_d9_first_player_and_player_counts() -> None:
    s = CentrixState.new(["blue", "red", "white"], seed=5, first=2)
    assert s.to_move == 2
    assert s.players == (Colour.BLUE, Colour.RED, Colour.WHITE)
    for bad in (1, 7):
        with pytest.raises(RulesError, match="2–6 players"):
            CentrixState.new(bad)
    with pytest.raises(RulesError, match="colour of their own"):
        CentrixState.new(["red", "red"])
    with pytest.raises(RulesError, match="first"):
        CentrixState.new(3, first=3)


def test_d9_dealing_starts_with_the_first_player() -> None:
    a = CentrixState.new(2, seed=9, first=0)
    b = CentrixState.new(2, seed=9, first=1)
    assert a.hands == [b.hands[1], b.hands[0]]


# ---------------------------------------------------------------- moves (D10–D13)


def test_d10_steps_up_down_and_sideways_onto_empty_squares() -> None:
    s = state({3: ring(c="r")}, ("Y1", "-"), top="20")
    assert moves(s, "Y1") == {"c3-c4", "c3-c2"}  # c is yellow on every ring
    s = state({3: ring(c="r")}, ("G1", "-"), top="20")
    assert moves(s, "G1") == {"c3-d3"}


def test_d11_leapfrog_sideways_over_one_pawn() -> None:
    s = state({3: ring(c="r", d="b")}, ("B1", "-"), top="20")
    assert "c3-e3" in moves(s, "B1")


def test_d11_leapfrog_sideways_over_several_pawns_round_the_ring() -> None:
    s = state({3: ring(k="r", l="b", a="b", b="b")}, ("Y1", "-"), top="20")
    assert "k3-c3" in moves(s, "Y1")
    s.push("Y1 k3-c3")
    assert pawns(s, 0) == ["c3", "top", "top"]


def test_d11_leapfrog_upward_onto_the_top() -> None:
    s = state({5: ring(c="r"), 6: ring(c="b")}, ("R1Y1", "-"), top="20")
    assert "c5-top" in moves(s, "R1")  # red's own colour
    assert "c5-top" not in moves(s, "Y1")
    with pytest.raises(IllegalPlayError, match="own colour"):
        s.push("Y1 c5-top")


def test_d11_leapfrog_on_entry_up_a_column() -> None:
    s = state({1: ring(c="b"), 2: ring(c="b")}, ("Y1", "-"))
    assert "off-c3" in moves(s, "Y1")
    assert "off-c1" not in moves(s, "Y1")


def test_d11_entry_over_a_full_column_lands_on_the_top() -> None:
    column = {r: ring(c="b" if r <= 3 else "g") for r in range(1, 7)}
    s = state(column, ("R1", "-", "-"), seats="RBG")
    assert moves(s, "R1") >= {"off-top"}
    s = state(column, ("Y1", "-", "-"), seats="RBG")
    assert "off-top" not in moves(s, "Y1")


def test_d11_leapfrog_downward() -> None:
    s = state({4: ring(c="r"), 3: ring(c="b"), 2: ring(c="b")}, ("Y1", "-"), top="20")
    assert "c4-c1" in moves(s, "Y1")


def test_d11_a_leapfrog_needs_an_empty_landing() -> None:
    s = state({1: ring(c="b"), 2: ring(c="r"), 3: ring(c="b")}, ("Y1", "-"), top="20")
    # Down from c2 over c1 would leave the board: no leapfrog, and c1 cannot be bumped.
    assert "c2-c1" not in moves(s, "Y1")
    assert "c2-c4" in moves(s, "Y1")


def test_d12_bump_up() -> None:
    s = state({2: ring(c="r"), 3: ring(c="b")}, ("Y1", "-"), top="20")
    s.push("Y1 c2-c3")
    assert pawns(s, 0) == ["c3", "top", "top"]
    assert pawns(s, 1) == ["c1", "off", "off"]


def test_d12_bump_sideways() -> None:
    s = state({3: ring(c="r", d="b")}, ("G1", "-"), top="20")
    s.push("G1 c3-d3")
    assert pawns(s, 1) == ["d1", "off", "off"]


def test_d12_bump_down() -> None:
    s = state({4: ring(c="r"), 3: ring(c="b")}, ("Y1", "-"), top="20")
    s.push("Y1 c4-c3")
    assert pawns(s, 0) == ["c3", "top", "top"]
    assert pawns(s, 1) == ["c1", "off", "off"]


def test_d12_a_bump_chain_drops_every_pawn_below_own_pawns_too() -> None:
    s = state({5: ring(b="r", c="b"), 3: ring(c="r")}, ("Y1", "-"), top="10")
    s.push("Y1 b5-c5")
    assert pawns(s, 0) == ["c1", "c5", "top"]
    assert pawns(s, 1) == ["c3", "off", "off"]


def test_d12_no_bump_at_the_end_of_a_leapfrog() -> None:
    s = state({1: ring(c="r"), 2: ring(c="b"), 3: ring(c="b")}, ("Y1", "-"), top="20")
    assert moves(s, "Y1") == {"c1-c4"}
    with pytest.raises(IllegalPlayError, match="cannot reach c3"):
        s.push("Y1 c1-c3")


def test_d13_the_landing_square_must_have_the_cards_colour() -> None:
    s = state({3: ring(c="r")}, ("B1", "-"), top="20")
    with pytest.raises(IllegalPlayError, match="c4 is yellow, but B1 moves only onto blue"):
        s.push("B1 c3-c4")
    s = state({3: ring(c="r")}, ("A", "-"), top="20")
    s.push("A c3-c4")


def test_d13_the_top_needs_your_own_colour_or_a_wild() -> None:
    for hand, ok in (("R1", True), ("R3", True), ("A", True), ("S", True), ("B1", False)):
        s = state({6: ring(c="r")}, (hand, "-"), top="20")
        assert ("c6-top" in moves(s, hand)) is ok, hand


# ---------------------------------------------------------------- the bottom (D14)

PROTECT = Rules(bottom=Bottom.PROTECT)
KNOCK_OFF = Rules(bottom=Bottom.KNOCK_OFF)
FLOOR = Rules(bottom=Bottom.FLOOR)


def bottom_case(rules: Rules, rings: dict[int, str]) -> CentrixState:
    """Red to move with an any-colour wild; red's other pawns wait on the top."""
    on_board = sum(r.count("r") for r in rings.values())
    return state(rings, ("A", "-"), top=f"{3 - on_board}0", rules=rules)


@pytest.mark.parametrize("rules", [PROTECT, KNOCK_OFF, FLOOR])
def test_d14_a_pawn_on_ring_1_is_never_bumped(rules: Rules) -> None:
    s = bottom_case(rules, {1: ring(c="r", d="b")})
    assert "c1-d1" not in moves(s, "A")
    with pytest.raises(IllegalPlayError, match="ring 1 cannot be bumped"):
        s.push("A c1-d1")


def test_d14_protect_ring_2_cannot_be_bumped() -> None:
    s = bottom_case(PROTECT, {2: ring(c="r", d="b")})
    with pytest.raises(IllegalPlayError, match="below ring 1"):
        s.push("A c2-d2")


def test_d14_protect_a_chain_that_would_go_below_ring_1_is_illegal() -> None:
    s = bottom_case(PROTECT, {3: ring(c="r", d="b"), 1: ring(d="b")})
    assert "c3-d3" not in moves(s, "A")
    s = bottom_case(PROTECT, {3: ring(c="r", d="b")})
    s.push("A c3-d3")
    assert pawns(s, 1) == ["d1", "off", "off"]


def test_d14_knock_off_sends_pawns_below_ring_1_off_the_board() -> None:
    s = bottom_case(KNOCK_OFF, {2: ring(c="r", d="b")})
    s.push("A c2-d2")
    assert pawns(s, 1) == ["off", "off", "off"]
    s = bottom_case(KNOCK_OFF, {3: ring(c="r", d="b"), 1: ring(d="b")})
    s.push("A c3-d3")
    assert pawns(s, 1) == ["d1", "off", "off"]  # the ring-1 pawn went off, d3's landed


def test_d14_floor_stops_pawns_on_ring_1() -> None:
    s = bottom_case(FLOOR, {2: ring(c="r", d="b")})
    s.push("A c2-d2")
    assert pawns(s, 1) == ["d1", "off", "off"]
    s = bottom_case(FLOOR, {4: ring(c="r", d="b"), 2: ring(d="b")})
    s.push("A c4-d4")
    assert pawns(s, 1) == ["d1", "d2", "off"]


def test_d14_floor_a_chain_that_must_move_a_ring_1_pawn_is_illegal() -> None:
    s = bottom_case(FLOOR, {2: ring(c="r", d="b"), 1: ring(d="b")})
    with pytest.raises(IllegalPlayError, match="already on ring 1"):
        s.push("A c2-d2")
    s = bottom_case(FLOOR, {3: ring(c="r", d="b"), 1: ring(d="b")})
    assert "c3-d3" not in moves(s, "A")


def test_d14_floor_a_bump_up_from_ring_1_lands_the_pawn_in_the_vacated_square() -> None:
    s = bottom_case(FLOOR, {1: ring(c="r"), 2: ring(c="b")})
    s.push("A c1-c2")
    assert pawns(s, 0) == ["c2", "top", "top"]
    assert pawns(s, 1) == ["c1", "off", "off"]


# ---------------------------------------------------------------- the end (D15–D17)


def test_d15_finishing_takes_the_next_place_and_is_skipped() -> None:
    s = state({6: ring(a="r")}, ("R1", "-", "G1"), seats="RBG", top="200")
    s.push("R1 a6-top")
    assert s.places == [1, 0, 0]
    assert s.hands[0] == []  # a finished player's cards go back into play
    assert s.to_move == 2  # blue holds nothing: it passes
    assert not s.is_over


def test_d15_the_game_ends_when_one_player_is_left() -> None:
    s = state({6: ring(a="r", g="b")}, ("R1", "A"), top="22")
    s.push("R1 a6-top")
    outcome = s.outcome
    assert outcome is not None
    assert outcome.places == (1, 2)
    assert outcome.reason == "finished"
    assert s.to_move is None
    assert s.legal_plays() == []


def test_d16_the_turn_cap_ranks_by_top_then_levels() -> None:
    rules = Rules(max_turns=1)
    s = state(
        {1: ring(a="r"), 4: ring(g="g"), 5: ring(c="b")},
        ("R1", "-", "-"),
        seats="RBG",
        top="010",
        rules=rules,
    )
    s.push("R1 1+1")
    outcome = s.outcome
    assert outcome is not None
    assert outcome.at_cap
    # blue: one on the top; green 4 > red 1 by levels.
    assert outcome.places == (3, 1, 2)


def test_d16_ties_at_the_cap_share_a_place() -> None:
    s = state({2: ring(a="r", g="b")}, ("R1", "-"), rules=Rules(max_turns=1))
    s.push("R1 2+1")
    assert s.outcome is not None
    assert s.outcome.places == (1, 1)
    assert s.outcome.is_draw


def test_d17_rules_are_frozen_and_serialisable() -> None:
    rules = Rules(bottom=Bottom.FLOOR, max_turns=200)
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules() == Rules.from_dict({})
    with pytest.raises(AttributeError):
        rules.bottom = Bottom.PROTECT  # type: ignore[misc]
    with pytest.raises(RulesError, match="bottom"):
        Rules.from_dict({"bottom": "trampoline"})
    with pytest.raises(RulesError, match="unknown"):
        Rules.from_dict({"gravity": 2})
    with pytest.raises(RulesError, match="max_turns"):
        Rules(max_turns=0)


def parse_play_text(text: str) -> object:
    from gamenight.centrix import parse_play

    return parse_play(text)


def test_effects_describe_the_move_and_the_bump_chain_without_playing() -> None:
    s = state({5: ring(b="r", c="b"), 3: ring(c="r")}, ("Y1", "-"), top="10")
    before = s.position()
    assert s.effects(parse_play_text("Y1 b5-c5")) == [  # type: ignore[arg-type]
        (0, square(5, 1), square(5, 2)),
        (1, square(5, 2), square(3, 2)),
        (0, square(3, 2), square(1, 2)),
    ]
    assert s.position() == before
    s = state({2: ring(c="r", d="b")}, ("A", "-"), top="20", rules=Rules(bottom=Bottom.KNOCK_OFF))
    assert s.effects(parse_play_text("A c2-d2")) == [  # type: ignore[arg-type]
        (0, square(2, 2), square(2, 3)),
        (1, square(2, 3), OFF),
    ]
    with pytest.raises(IllegalPlayError):
        s.effects(parse_play_text("A c2-c5"))  # type: ignore[arg-type]


# ---------------------------------------------------------------- the state's API


@pytest.mark.parametrize(
    ("play", "legal"),
    [
        ("O3 off-b1", True),
        (Play(Card.O3, None, Move(OFF, 1)), True),
        ("O3 off-a1", False),  # a1 is red
        ("R3 off-a1", False),  # not in the hand
        ("O3 off-z9", False),  # does not read as a play: False, not an error
        ("", False),
        (Play(Card.O3, None, Move(OFF, 99)), False),
    ],
)
def test_is_legal_takes_what_push_takes(play: Play | str, legal: bool) -> None:
    s = CentrixState.new(2, seed=1)
    assert s.hands[0] == [Card.O3, Card.W2, Card.SPIN]
    assert s.is_legal(play) is legal
    if legal:
        s.push(play)
        assert s.peek() == Play(Card.O3, None, Move(OFF, 1))


@pytest.mark.parametrize(
    ("play", "message"),
    [
        (Play(Card.O3, None, Move(OFF, 99)), "99 is not a square"),
        (Play(Card.O3, None, Move(-1, 1)), "-1 is not a square"),
        (Play(Card.O3, None, Move(OFF, TOP + 1)), "74 is not a square"),
        (Play(Card.O3, None, (OFF, 1)), "not a move"),  # type: ignore[arg-type]
        (Play(Card.O3, None, Move(OFF, "b1")), "not a move"),  # type: ignore[arg-type]
        (Play(Card.O3, None, Move(OFF, True)), "not a move"),  # type: ignore[arg-type]
        (Play(Card.O3, Rotation(1, 1.5), None), "not a rotation"),  # type: ignore[arg-type]
        (Play(Card.O3, (1, 3), None), "not a rotation"),  # type: ignore[arg-type]
    ],
)
def test_a_hand_built_play_that_is_malformed_is_an_illegal_play(play: Play, message: str) -> None:
    s = CentrixState.new(2, seed=1)
    before = s.position()
    with pytest.raises(IllegalPlayError, match=message):
        s.push(play)
    assert not s.is_legal(play)
    assert s.position() == before
    assert s.plays == []


@pytest.mark.parametrize(
    ("play", "error"),
    [
        ("R2 9+2", NotationError),
        ("", NotationError),
        ("R3 off-a1", IllegalPlayError),
        (5, IllegalPlayError),
        (Play(Card.O3, None, Move(OFF, 99)), IllegalPlayError),
    ],
)
def test_push_raises_what_its_docstring_names(play: object, error: type[Exception]) -> None:
    s = CentrixState.new(2, seed=1)
    before = s.position()
    with pytest.raises(error):
        s.push(play)  # type: ignore[arg-type]
    assert s.position() == before
    assert error.__name__ in (CentrixState.push.__doc__ or "")


def test_rules_are_held_to_their_set_up_bounds_but_load_beyond_them() -> None:
    """D17: bounds are checked at set-up (``check_bounds``), never when rules are loaded,
    so a game stored under other bounds still replays."""
    assert Rules().check_bounds() == Rules()
    for cap in (None, 1, 10_000):
        assert Rules(max_turns=cap).check_bounds().max_turns == cap
    for bottom in Bottom:
        assert Rules(bottom=bottom).check_bounds().bottom is bottom
    for bad in (10_001, 20_000):
        stored = Rules.from_dict({"max_turns": bad})  # loads, as a stored game must
        with pytest.raises(RulesError, match=r"max_turns must be none, or from 1 to 10000"):
            stored.check_bounds()
    assert set(RULES_BOUNDS) | {"layout"} == {f.name for f in dataclasses.fields(Rules)}


@settings(**SETTINGS)
@given(st.one_of(json_like, mutated_value(Rules(max_turns=40).to_dict())))
def test_any_value_gives_rules_or_a_rules_error(data: Any) -> None:
    rules = only_raises(RulesError, Rules.from_dict, data)
    if rules is not None:
        assert Rules.from_dict(rules.to_dict()) == rules
    layout = data.get("layout") if isinstance(data, dict) else data
    only_raises(RulesError, Layout.from_strings, layout)
    assert Rules.from_dict(Rules(bottom=Bottom.FLOOR).to_dict()) == Rules(bottom=Bottom.FLOOR)


def test_a_deeply_nested_bottom_is_a_rules_error() -> None:
    # The enum's own error message repr's the value, which a deep one cannot survive.
    nested: list[Any] = []
    for _ in range(10_000):
        nested = [nested]
    with pytest.raises(RulesError, match="bottom must be one of"):
        Rules.from_dict({"bottom": nested})


TINY_DECK = Rules(numbers=1, copies=1, any_wilds=0, spin_wilds=0)


def test_d18_the_set_up_counts_default_to_the_rulebooks_and_stay_out_of_its_records() -> None:
    rules = Rules()
    assert (rules.pawns, rules.numbers, rules.copies, rules.any_wilds, rules.spin_wilds) == (
        3,
        3,
        2,
        3,
        3,
    )
    assert rules.deck == DECK
    assert len(DECK) == 42
    assert rules.is_standard_set_up
    # A standard game's rules, and so its record, read exactly as before the counts existed.
    assert set(rules.to_dict()) == {"bottom", "max_turns", "layout"}
    record = CentrixState.new(2, seed=5).record()
    assert set(record.rules) == {"bottom", "max_turns", "layout"}
    short = Rules(pawns=1, copies=1)
    assert short.to_dict()["pawns"] == 1
    assert short.to_dict()["copies"] == 1
    assert "numbers" not in short.to_dict()
    assert Rules.from_dict(short.to_dict()) == short
    assert not short.is_standard_set_up


def test_d18_the_deck_holds_the_numbers_and_copies_the_rules_count() -> None:
    assert TINY_DECK.deck == (Card.R1, Card.O1, Card.Y1, Card.G1, Card.B1, Card.W1)
    rules = Rules(numbers=2, copies=1, any_wilds=1, spin_wilds=0)
    assert len(rules.deck) == 6 * 2 + 1
    assert Card.R3 not in rules.deck
    assert Card.SPIN not in rules.deck
    game = CentrixState.new(2, seed=3, rules=TINY_DECK)
    # Six cards, three to each of two players: every card is dealt, the draw pile is empty.
    assert sorted(game.hands[0] + game.hands[1]) == list(TINY_DECK.deck)
    assert game.draw == []
    with pytest.raises(RulesError, match="a deck of 6 cards cannot deal 3 to each of 3 players"):
        CentrixState.new(3, seed=3, rules=TINY_DECK)


def test_d18_a_position_counts_the_cards_and_pawns_of_its_rules() -> None:
    game = CentrixState.new(2, seed=3, rules=TINY_DECK)
    text = game.position()
    assert CentrixState.from_position(text, TINY_DECK).position() == text
    with pytest.raises(NotationError, match="must hold the 42 cards exactly; missing"):
        CentrixState.from_position(text)  # the rulebook's deck is not this one
    one = Rules(pawns=1)
    two_up = CentrixState.new(2, seed=1).position().replace(" 00 ", " 20 ", 1)
    with pytest.raises(NotationError, match="red has more than 1 pawns"):
        CentrixState.from_position(two_up, one)


def test_d18_with_one_pawn_a_player_finishes_when_it_reaches_the_top() -> None:
    one = Rules(pawns=1)
    game = CentrixState.new(2, seed=11, rules=one)
    assert game.pawn_squares(0) == [OFF]
    assert game.view(1).pawns_off(0) == 1
    import random

    rng = random.Random(0)
    while not game.is_over:
        game.push_unchecked(rng.choice(game.legal_plays()))
    assert game.outcome is not None
    assert game.outcome.reason == "finished"
    winner = game.places.index(1)
    assert game.top[winner] == 1
    assert game.pawn_squares(winner) == [TOP]
    replayed = CentrixState.replay(game.record())
    assert replayed.position() == game.position()


def test_d18_the_counts_are_held_to_their_bounds_at_set_up_and_make_sense_always() -> None:
    smallest = Rules(pawns=1, numbers=1, copies=1, any_wilds=0, spin_wilds=0)
    assert smallest.check_bounds() == smallest
    for field, beyond in (("pawns", 4), ("copies", 3), ("any_wilds", 4), ("spin_wilds", 5)):
        stored = Rules.from_dict({field: beyond})  # loads, as a stored game must
        with pytest.raises(RulesError, match=rf"{field} must be from \d to \d"):
            stored.check_bounds()
    for field, bad in (("pawns", 0), ("pawns", 10), ("numbers", 4), ("copies", 0), ("copies", "2")):
        with pytest.raises(RulesError, match=f"{field} must be a whole number from"):
            Rules.from_dict({field: bad})
    with pytest.raises(RulesError, match="any_wilds must be a whole number"):
        Rules(any_wilds=True)
