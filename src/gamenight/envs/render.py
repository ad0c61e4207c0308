"""The adapters' renders: RGB frames for ``render_mode="rgb_array"``, drawn with numpy alone
(no display and no extra dependency: the Centrix rings seen from above, the Color City grid),
the plain text for ``ansi`` and rich's colour text on the terminal for ``human``."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from rich.console import Console, RenderableType

from gamenight.centrix.board import NUM_RINGS, NUM_SLOTS, Colour
from gamenight.centrix.state import EMPTY, CentrixState, CentrixView
from gamenight.centrix.text import PALETTE
from gamenight.centrix.text import render as centrix_rich
from gamenight.centrix.text import render_plain as centrix_text
from gamenight.colorcity.coverage import covered_squares
from gamenight.colorcity.state import ColorCityState
from gamenight.colorcity.table import Table
from gamenight.colorcity.text import render_plain as colorcity_text
from gamenight.colorcity.text import render_rich as colorcity_rich

Frame = npt.NDArray[np.uint8]


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return (int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16))


_SQUARE_RGB = np.array([_rgb(PALETTE[c]) for c in Colour], dtype=np.uint8)
# Pawns: the seat's colour, darkened so that a pawn stands out on a square of its colour.
_PAWN_RGB = (_SQUARE_RGB.astype(np.float32) * 0.55).astype(np.uint8)
_TOP_RGB = np.array([30, 30, 30], dtype=np.uint8)
_BACKGROUND = np.array([235, 232, 225], dtype=np.uint8)


def centrix_frame(view: CentrixView, size: int = 320) -> Frame:
    """The board: ring 1 outermost, slot a at twelve o'clock, clockwise; pawns as discs."""
    frame = np.empty((size, size, 3), dtype=np.uint8)
    frame[:] = _BACKGROUND
    c = (size - 1) / 2
    y, x = np.mgrid[0:size, 0:size]
    dx, dy = x - c, c - y
    radius = np.hypot(dx, dy) / (size / 2)
    # Clockwise from twelve o'clock, in slots.
    angle = (np.degrees(np.arctan2(dx, dy)) % 360) / (360 / NUM_SLOTS)
    slot = np.floor(angle).astype(int) % NUM_SLOTS
    band = 0.13
    top_r = 1 - NUM_RINGS * band
    layout = view.rules.layout
    for r in range(NUM_RINGS):
        outer, inner = 1 - r * band, 1 - (r + 1) * band
        ring_mask = (radius <= outer) & (radius > inner)
        colours = np.array(
            [layout.colour(r + 1, s, view.offsets[r]) for s in range(NUM_SLOTS)], dtype=int
        )
        frame[ring_mask] = _SQUARE_RGB[colours[slot[ring_mask]]]
        # Thin lines between squares.
        edge = ring_mask & ((angle - np.floor(angle) < 0.03) | (radius > outer - 0.006))
        frame[edge] = (60, 60, 60)
    frame[radius <= top_r] = _TOP_RGB
    pawn_r = band * 0.3 * size / 2
    for sq, owner in enumerate(view.cells):
        if owner == EMPTY:
            continue
        r, s = divmod(sq, NUM_SLOTS)
        mid = (1 - (r + 0.5) * band) * size / 2
        theta = math.radians((s + 0.5) * 360 / NUM_SLOTS)
        px, py = c + mid * math.sin(theta), c - mid * math.cos(theta)
        disc = (x - px) ** 2 + (y - py) ** 2 <= pawn_r**2
        frame[disc] = _PAWN_RGB[view.players[owner]]
        ring_edge = disc & ((x - px) ** 2 + (y - py) ** 2 >= (pawn_r * 0.75) ** 2)
        frame[ring_edge] = (250, 250, 250)
    # Pawns on the top: small discs in the centre, one per pawn, by seat.
    count = 0
    for seat, pawns in enumerate(view.top):
        for _ in range(pawns):
            theta = 2 * math.pi * count / 18
            px = c + top_r * 0.55 * size / 2 * math.sin(theta)
            py = c - top_r * 0.55 * size / 2 * math.cos(theta)
            frame[(x - px) ** 2 + (y - py) ** 2 <= (pawn_r * 0.6) ** 2] = _SQUARE_RGB[
                view.players[seat]
            ]
            count += 1
    return frame


_GANG_RGB = np.array([[46, 158, 79], [128, 58, 170]], dtype=np.uint8)
_EMPTY_CELL = np.array([214, 210, 200], dtype=np.uint8)


def colorcity_frame(
    cells: tuple[int, ...] | list[int],
    city_size: int,
    pending: tuple[int, ...] = (),
    cell_px: int = 32,
) -> Frame:
    """The city seen from above, north up: squares in their gang's colour, the squares a
    cube waiting for a power decision covers outlined in black."""
    size = city_size * cell_px
    frame = np.empty((size, size, 3), dtype=np.uint8)
    for sq, owner in enumerate(cells):
        row, col = divmod(sq, city_size)
        y0 = (city_size - 1 - row) * cell_px
        x0 = col * cell_px
        colour = _EMPTY_CELL if owner < 0 else _GANG_RGB[owner]
        frame[y0 : y0 + cell_px, x0 : x0 + cell_px] = colour
        frame[y0 : y0 + cell_px, x0] = (90, 90, 90)
        frame[y0, x0 : x0 + cell_px] = (90, 90, 90)
        if sq in pending:
            frame[y0 + 2 : y0 + cell_px - 2, x0 + 2 : x0 + 5] = 0
            frame[y0 + 2 : y0 + cell_px - 2, x0 + cell_px - 5 : x0 + cell_px - 2] = 0
            frame[y0 + 2 : y0 + 5, x0 + 2 : x0 + cell_px - 2] = 0
            frame[y0 + cell_px - 5 : y0 + cell_px - 2, x0 + 2 : x0 + cell_px - 2] = 0
    return frame


def show_in_terminal(renderable: RenderableType) -> None:
    """``render_mode="human"``: the table drawn in colour on the terminal (standard output)."""
    Console(highlight=False).print(renderable)


def render_centrix(state: CentrixState, mode: str) -> str | Frame | None:
    """``render()`` of the Centrix adapters in ``mode`` (``human``, ``ansi`` or
    ``rgb_array``)."""
    spectator = state.view(None)  # a spectator sees no hand: nothing hidden leaks out
    if mode == "human":
        show_in_terminal(centrix_rich(spectator))
        return None
    if mode == "ansi":
        return centrix_text(spectator)
    return centrix_frame(spectator)


def render_colorcity(state: ColorCityState, table: Table, mode: str) -> str | Frame | None:
    """``render()`` of the Color City adapters in ``mode`` (``human``, ``ansi`` or
    ``rgb_array``)."""
    if mode == "human":
        show_in_terminal(colorcity_rich(state))
        return None
    if mode == "ansi":
        return colorcity_text(state)
    pending = () if state.pending is None else covered_squares(table, state.pending)
    return colorcity_frame(state.cells, table.city_size, pending)
