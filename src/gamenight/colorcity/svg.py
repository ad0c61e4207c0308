"""The board from above as SVG: the city and its colours, both HQs with their cubes, the
last flick's trajectory and the cube's final footprint. One SVG unit is one millimetre;
north is up."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamenight.colorcity.coverage import footprint_outline
from gamenight.colorcity.position import EMPTY
from gamenight.colorcity.table import FILES, Gang

if TYPE_CHECKING:
    from gamenight.colorcity.state import ColorCityState

FILL = {EMPTY: "#f4efe4", 0: "#2e9d4f", 1: "#7b3fa0"}
CUBE = {Gang.GREEN: "#1f7a3a", Gang.PURPLE: "#5e2b80"}
MARGIN = 10.0
LABEL_GAP = 2.5  # mm between the city's edge and its files' and ranks' labels


def _f(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def board_svg(state: ColorCityState, width: int = 420) -> str:
    """The board as an SVG document ``width`` pixels wide, north up."""
    t = state.table
    bw, bl = t.board_width_mm, t.board_length_mm
    vb_w, vb_h = bw + 2 * MARGIN, bl + 2 * MARGIN
    height = round(width * vb_h / vb_w)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
        f' viewBox="{_f(-bw / 2 - MARGIN)} {_f(-bl / 2 - MARGIN)} {_f(vb_w)} {_f(vb_h)}"'
        ' font-family="sans-serif">',
        f"<title>Color City, turn {state.turn}</title>",
        f'<rect x="{_f(-bw / 2)}" y="{_f(-bl / 2)}" width="{_f(bw)}" height="{_f(bl)}"'
        ' fill="#d9b98c" stroke="#8a6a3c" stroke-width="2"/>',
    ]
    # HQs: the strip between each launch line and its board edge.
    for gang in Gang:
        sign = 1 if gang is Gang.GREEN else -1  # SVG y grows southward
        near = sign * (t.launch_y - t.cube_mm / 2)
        far = sign * bl / 2
        y0, y1 = min(near, far), max(near, far)
        out.append(
            f'<rect class="hq-{gang.label}" x="{_f(-t.city_half)}" y="{_f(y0)}"'
            f' width="{_f(t.city_mm)}" height="{_f(y1 - y0)}" fill="{FILL[int(gang)]}"'
            ' fill-opacity="0.18"/>'
        )
        line_y = sign * t.launch_y
        out.append(
            f'<line x1="{_f(-t.city_half)}" y1="{_f(line_y)}" x2="{_f(t.city_half)}"'
            f' y2="{_f(line_y)}" stroke="{CUBE[gang]}" stroke-dasharray="4 3"/>'
        )
        alive = state.cubes[gang]
        for i in range(t.cubes_per_gang):
            cx = (i - (t.cubes_per_gang - 1) / 2) * (t.cube_mm * 1.6)
            cy = sign * (t.launch_y + t.cube_mm * 1.2)
            common = (
                f'x="{_f(cx - t.cube_mm / 2)}" y="{_f(cy - t.cube_mm / 2)}"'
                f' width="{_f(t.cube_mm)}" height="{_f(t.cube_mm)}"'
            )
            if i < alive:
                out.append(f'<rect class="cube-{gang.label}" {common} fill="{CUBE[gang]}"/>')
            else:
                out.append(
                    f'<rect class="lost-{gang.label}" {common} fill="none"'
                    f' stroke="{CUBE[gang]}" stroke-dasharray="2 2"/>'
                )
    n = t.city_size
    for sq in range(t.num_squares):
        x0, y0, x1, y1 = t.square_bounds(sq)
        out.append(
            f'<rect class="square" data-square="{t.square_name(sq)}" x="{_f(x0)}"'
            f' y="{_f(-y1)}" width="{_f(x1 - x0)}" height="{_f(y1 - y0)}"'
            f' fill="{FILL[state.cells[sq]]}" stroke="#555" stroke-width="0.6"/>'
        )
    # The labels hang off the city's edge (files below it, ranks left of it): a page may draw
    # them larger, to be read on a small screen, and they grow away from the squares.
    for c in range(n):
        x = -t.city_half + (c + 0.5) * t.square_mm
        out.append(
            f'<text class="file" x="{_f(x)}" y="{_f(t.city_half + LABEL_GAP)}" font-size="7"'
            ' text-anchor="middle" dominant-baseline="text-before-edge"'
            f' fill="#333">{FILES[c]}</text>'
        )
    for r in range(n):
        y = -(-t.city_half + (r + 0.5) * t.square_mm)
        out.append(
            f'<text class="rank" x="{_f(-t.city_half - LABEL_GAP)}" y="{_f(y)}" font-size="7"'
            f' text-anchor="end" dominant-baseline="central" fill="#333">{r + 1}</text>'
        )
    flick = state.last_flick
    if flick is not None:
        points = " ".join(f"{_f(row[1])},{_f(-row[2])}" for row in flick.trajectory)
        out.append(
            f'<polyline class="trajectory" points="{points}" fill="none" stroke="#c0392b"'
            ' stroke-width="1.2" stroke-dasharray="3 2"/>'
        )
    pose = state.pending or (state.last_pitch.pose if state.last_pitch else None)
    if pose is not None and pose.on_table:
        outline = footprint_outline(t, pose)
        points = " ".join(f"{_f(x)},{_f(-y)}" for x, y in outline)
        out.append(
            f'<polygon class="footprint" points="{points}" fill="#c0392b" fill-opacity="0.35"'
            ' stroke="#c0392b" stroke-width="1"/>'
        )
    out.append("</svg>")
    return "\n".join(out)
