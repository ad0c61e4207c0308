"""Hints: a level's play from the seat's own view, with its reason in words."""

from __future__ import annotations

import random

import pytest

from gamenight.bots.hints import hint
from gamenight.bots.registry import game_bots
from gamenight.centrix import CentrixState, Colour
from gamenight.centrix.board import NUM_SLOTS, NUM_SQUARES, OFF
from gamenight.centrix.describe import play_words
from gamenight.colorcity import ColorCityState, Decision, Shot
from gamenight.colorcity.describe import decision_words, shot_words
from gamenight.core.errors import NotationError


def centrix_positions(count: int = 12) -> list[CentrixState]:
    out = []
    for i in range(count):
        state = CentrixState.new(list(Colour)[: 2 + i % 3], seed=i, first=0)
        state.play_randomly(random.Random(i), 20 + 17 * i)
        if not state.is_over:
            out.append(state)
    return out


def test_a_level_3_hint_is_level_3s_play_in_that_view() -> None:
    for i, state in enumerate(centrix_positions()):
        view = state.view(state.actor)
        bot = game_bots("centrix").bot("level3", seed=i)
        assert hint("centrix", view, 3, seed=i).action == bot.choose(view)
    state = ColorCityState.new(seed=4)
    for i in range(3):
        view = state.view(state.actor)
        bot = game_bots("colorcity").bot("level3", seed=i)
        given = hint("colorcity", view, 3, seed=i)
        assert given.action == bot.choose(view)
        state.push(given.action)


def test_a_hint_never_depends_on_another_seats_hand() -> None:
    for i, state in enumerate(centrix_positions(6)):
        seat = state.actor
        view = state.view(seat)
        # Two deals of the hidden cards, each consistent with the seat's view: another
        # hand and the draw pile differ, the seat's view does not, and neither does a hint.
        one, two = view.sample(random.Random(1)), view.sample(random.Random(2))
        others = [s for s in range(state.num_players) if s != seat]
        assert any(one.hands[s] != two.hands[s] for s in others) or one.draw != two.draw
        assert one.view(seat) == two.view(seat) == view
        for level in (3, 5):
            a = hint("centrix", one.view(seat), level, seed=i)
            b = hint("centrix", two.view(seat), level, seed=i)
            assert a == b


def test_a_hint_says_what_the_play_does() -> None:
    found = {"bump": False, "climb": False}
    for state in centrix_positions():
        view = state.view(state.actor)
        for play in state.legal_plays():
            words = play_words(view, play)
            effects = state.effects(play)
            if len(effects) > 1:
                found["bump"] = True
                colour = state.players[effects[1][0]].name.lower()
                assert f"bumps {colour}'s pawn two levels" in words.en or "off the board" in (
                    words.en
                )
            if play.move is not None and play.move.to_square < NUM_SQUARES:
                frm, to = play.move
                to_level = to // NUM_SLOTS + 1
                if frm != OFF and to_level > frm // NUM_SLOTS + 1:
                    found["climb"] = True
                    assert words.en.endswith(f"climbs to level {to_level}")
                    assert f"{to_level}층으로 올라갑니다" in words.ko
    assert all(found.values())
    start = CentrixState.new(list(Colour)[:2], seed=1, first=0)
    entry = next(p for p in start.legal_plays() if p.move is not None and p.rotation is None)
    assert play_words(start.view(0), entry).en == "enters a pawn on level 1"


def test_a_colorcity_hint_names_the_aimed_square_and_the_squares_it_paints() -> None:
    state = ColorCityState.new(seed=2)
    given = hint("colorcity", state.view(0), 5, seed=0)
    assert given.aimed is not None
    assert given.aimed in given.paints
    assert given.en == f"aims at {given.aimed} and would paint {' '.join(given.paints)}"
    off, aim = shot_words(state.table, state.to_move, Shot(0.0, 0.0, 3.0))  # type: ignore[arg-type]
    assert aim.paints == ()
    assert "destroyed" in off.en
    assert "파괴" in off.ko
    assert "Lucky Day" in decision_words(Decision.LUCKY_DAY).en


def test_a_hint_is_for_the_seat_to_move_at_a_level_that_exists() -> None:
    state = CentrixState.new(list(Colour)[:2], seed=1, first=0)
    with pytest.raises(NotationError, match="levels 1–5"):
        hint("centrix", state.view(0), 9)
    with pytest.raises(ValueError, match="seat to move"):
        hint("centrix", state.view(None), 3)
