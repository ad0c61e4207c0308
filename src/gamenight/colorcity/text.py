"""Terminal rendering: plain text (readable without colour) and a rich version.

The city is drawn north up, as Green sees it: ``G`` Green's squares, ``P`` Purple's, ``.``
empty; in the power phase the squares the stopped cube covers are marked ``*`` (or, if
already coloured, in lower case).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from gamenight.colorcity.coverage import covered_squares
from gamenight.colorcity.position import EMPTY
from gamenight.colorcity.table import FILES, Gang

if TYPE_CHECKING:
    from gamenight.colorcity.state import ColorCityState

_POWER_NAMES = ("Lucky Day", "Purple Pain")
_STYLES = {EMPTY: "dim", 0: "bold white on green4", 1: "bold white on purple4"}


def _cell_char(owner: int, pending: bool) -> str:
    if owner == EMPTY:
        return "*" if pending else "."
    letter = "GP"[owner]
    return letter.lower() if pending else letter


def status_line(state: ColorCityState) -> str:
    """One line: who is to pitch or decide, or how the game ended."""
    outcome = state.outcome
    if outcome is not None:
        if state.winner is None:
            return f"Game over after {state.turn} turns: a draw ({state.reason})."
        return f"Game over after {state.turn} turns: {state.winner.label} wins ({state.reason})."
    gang = state.to_move
    assert gang is not None
    doing = "to pitch" if state.expects() == "shot" else "to decide on its power"
    return f"Turn {state.turn + 1}: {gang.label} {doing} (seat {state.pitcher})."


def hq_line(state: ColorCityState, gang: Gang) -> str:
    """A gang's HQ in one line: cubes left (``#``) and lost (``x``), and its power."""
    alive = state.cubes[gang]
    lost = state.table.cubes_per_gang - alive
    power = _POWER_NAMES[gang] + (" ready" if state.powers[gang] else " used")
    return f"{gang.label.capitalize()} HQ: {'#' * alive}{'x' * lost} ({alive} cubes), {power}"


def _grid_rows(state: ColorCityState) -> list[tuple[str, list[tuple[str, int]]]]:
    n = state.table.city_size
    pending = set(covered_squares(state.table, state.pending)) if state.pending else set()
    rows = []
    for row in reversed(range(n)):
        cells = [
            (_cell_char(state.cells[row * n + c], row * n + c in pending), state.cells[row * n + c])
            for c in range(n)
        ]
        rows.append((f"{row + 1:>2}", cells))
    return rows


def render_plain(state: ColorCityState) -> str:
    """The game as plain text: status, both HQs and the city, north up."""
    n = state.table.city_size
    lines = [status_line(state), hq_line(state, Gang.PURPLE) + "  (north)"]
    lines.append("   " + " ".join(FILES[:n]))
    for label, cells in _grid_rows(state):
        lines.append(label + " " + " ".join(ch for ch, _ in cells))
    lines.append(hq_line(state, Gang.GREEN) + "  (south)")
    lines.append(
        f"Squares: green {state.squares(Gang.GREEN)}, purple {state.squares(Gang.PURPLE)}."
    )
    if state.pending is not None:
        sq = covered_squares(state.table, state.pending)
        names = " ".join(state.table.square_name(s) for s in sq) or "nothing (destroyed)"
        lines.append(
            f"The cube stopped at ({state.pending.x:.1f}, {state.pending.y:.1f}) mm,"
            f" covering {names}."
        )
    return "\n".join(lines)


def render_rich(state: ColorCityState) -> Text:
    """``render_plain``'s picture coloured for a terminal with rich."""
    n = state.table.city_size
    text = Text()
    text.append(status_line(state) + "\n", style="bold")
    text.append(hq_line(state, Gang.PURPLE) + "  (north)\n", style="magenta")
    text.append("   " + " ".join(FILES[:n]) + "\n", style="dim")
    for label, cells in _grid_rows(state):
        text.append(label + " ", style="dim")
        for i, (ch, owner) in enumerate(cells):
            text.append(ch, style=_STYLES[owner] + (" underline" if ch in "*gp" else ""))
            if i < n - 1:
                text.append(" ")
        text.append("\n")
    text.append(hq_line(state, Gang.GREEN) + "  (south)\n", style="green")
    text.append(f"Squares: green {state.squares(Gang.GREEN)}, purple {state.squares(Gang.PURPLE)}.")
    if state.pending is not None:
        sq = covered_squares(state.table, state.pending)
        names = " ".join(state.table.square_name(s) for s in sq) or "nothing (destroyed)"
        text.append(f"\nThe cube stopped covering {names}.")
    return text
