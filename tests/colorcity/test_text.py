"""Terminal rendering, readable without colour."""

from __future__ import annotations

from rich.console import Console

from gamenight.colorcity import ColorCityState, Gang
from gamenight.colorcity.text import render_plain, render_rich

from .helpers import make_state, pitch_off, pitch_to_square


def test_plain_text_shows_the_city_hqs_and_turn() -> None:
    state = make_state(powers=(True, False))
    pitch_to_square(state, 0)  # a1
    text = render_plain(state)
    lines = text.splitlines()
    assert lines[0] == "Turn 1: green to decide on its power (seat 0)."
    assert "Purple HQ: #### (4 cubes), Purple Pain used" in lines[1]
    assert lines[2] == "   a b c d e f g h i"
    assert lines[3].startswith(" 9 . . .")
    assert lines[11] == " 1 * . . . . . . . ."  # the stopped cube's square, not yet painted
    assert "covering a1" in text
    state.push("pass")
    assert render_plain(state).splitlines()[11] == " 1 G . . . . . . . ."
    assert str(state) == render_plain(state)


def test_lost_cubes_and_the_end_are_shown() -> None:
    state = make_state(powers=(False, False), cubes=(1, 4))
    pitch_off(state)
    text = render_plain(state)
    assert "Green HQ: xxxx (0 cubes)" in text
    assert text.splitlines()[0] == "Game over after 1 turns: purple wins (elimination)."


def test_rich_rendering_has_the_same_words_and_colours() -> None:
    state = ColorCityState.new(seed=1)
    console = Console(record=True, width=100, color_system="truecolor")
    console.print(render_rich(state))
    plain = console.export_text()
    assert "Turn 1: green to pitch (seat 0)." in plain
    assert "Purple HQ" in plain
    assert "Green HQ" in plain
    state.push("0 0 1.3 0")
    state.push("pass")
    colored = Console(record=True, width=100, color_system="truecolor")
    colored.print(render_rich(state))
    assert "\x1b[" in colored.export_text(styles=True)
    assert state.squares(Gang.GREEN) >= 1
