"""The progress display: a bar in a wide terminal, plain lines in a narrow one or a log."""

from __future__ import annotations

import io

from rich.console import Console

from gamenight.cli.progress import Bar, Lines, display


def console(terminal: bool, width: int) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=terminal, width=width), out


def test_a_wide_terminal_gets_a_bar_and_a_narrow_one_or_a_log_plain_lines() -> None:
    assert isinstance(display(console(True, 160)[0], "Centrix: the bottom rules"), Bar)
    assert isinstance(display(console(True, 60)[0], "Centrix: the bottom rules"), Lines)
    assert isinstance(display(console(False, 160)[0], "Centrix: the bottom rules"), Lines)


def test_plain_lines_say_done_total_and_time_left_whole_in_a_narrow_terminal() -> None:
    screen, out = console(True, 40)
    with display(screen, "Centrix: a long experiment name here") as shown:
        shown.update(100, 3000)  # resumed: 100 already done
        shown.note("a note")
        for done in range(101, 3001):
            shown.update(done, 3000, "an answer needs ≈ 4,200 games in all")
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("Centrix: a long experiment name here: 100/3,000 games, 0:00:00")
    assert "a note" in lines
    assert lines[-1].startswith("Centrix: a long experiment name here: 3,000/3,000 games")
    assert lines[-1].endswith("; an answer needs ≈ 4,200 games in all")
    assert "━" not in out.getvalue()
    assert "…" not in out.getvalue()
