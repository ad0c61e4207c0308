"""Where everything on the Centrix board is drawn: one layout for both drawings of the board.

The board is drawn in its own units, 1000 across, centred on (500, 500): the six rings from
ring 1 outermost to ring 6, twelve slots each (slot ``a`` at twelve o'clock, then clockwise,
as in :mod:`gamenight.centrix.board`), the stationary top in the middle and the room outside
the rings where pawns off the board enter from. :func:`layout` lists every shape and spot the
drawings need, rounded to a hundredth of a unit: :mod:`gamenight.centrix.svg` draws from it
(for notebooks and the command line), and so does the web page, from the same data written
as JSON (``python -m gamenight.centrix.geometry`` writes ``web/static/centrix-geometry.json``;
a test holds the shipped file to this module).

Geometry only: which colour each square has is the rules' :class:`~gamenight.centrix.board.Layout`
(the web view sends it with the board), and which pawn stands where is the state's.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import TypedDict

from gamenight.centrix.board import (
    NUM_RINGS,
    NUM_SLOTS,
    SLOT_LETTERS,
    TOP_LEVEL,
    square,
    square_name,
)
from gamenight.centrix.position import MAX_PLAYERS

WIDTH = 1000.0
CX = CY = 500.0
R_OUTER = 445.0  # outer edge of ring 1
R_TOP = 80.0  # edge of the stationary top
RING_WIDTH = (R_OUTER - R_TOP) / NUM_RINGS
R_PLATE = R_OUTER + 10  # edge of the plate under the rings
SLOT_ANGLE = 360.0 / NUM_SLOTS
# How far out in its ring a ring's number sits, in ring widths: a little beyond the middle,
# where its badge clears the pawns of the innermost ring, whose squares are the narrowest.
RING_LABEL_AT = 0.55
# Where a pawn off the board is drawn, entering or knocked off: just outside the plate.
R_OFF = R_OUTER + 55
# A square's outline (the last play's mark, a highlight) is inset to stay inside the square.
OUTLINE_INSET = 4.0
# The most pawns the top can hold: every pawn of six players of nine (a position writes a
# seat's pawns on the top as one digit).
MOST_ON_TOP = MAX_PLAYERS * 9
PLACES = 2  # decimals kept: a hundredth of a unit is far below a screen pixel

Spot = tuple[float, float]
Disc = tuple[float, float, float]


class SquareShape(TypedDict):
    """One square of a ring: its outline, and where its pawn and its colour's symbol go."""

    ring: int
    slot: int
    level: int
    path: str  # the square's outline (an annulus sector)
    outline: str  # the same, inset by OUTLINE_INSET: a mark drawn on the square
    pawn: Disc  # where a pawn stands on it (centre and radius), inward of the symbol
    symbol: Disc  # where its colour's symbol is drawn (centre and half its size)


class RingShape(TypedDict):
    """One ring: its level, its edges' radii and where its number is written."""

    ring: int
    level: int
    inner: float  # its inner edge's radius
    outer: float
    label: Spot  # its number, on the spoke between slots l and a


class Crowd(TypedDict):
    """How a number of pawns stand together on the top: circles of pawns round its centre."""

    pawn: float  # each pawn's radius
    # Circles of pawns round the top's centre, each as (how many, its radius): the first of
    # each stands at twelve o'clock, the others evenly round it clockwise (top_spots).
    orbits: list[tuple[int, float]]


class TopShape(TypedDict):
    """The stationary top: its level, its radius and how its pawns stand by their number."""

    level: int
    radius: float
    # How the pawns on the top stand by how many there are: crowds[n] for n pawns.
    crowds: list[Crowd]


class OffShape(TypedDict):
    """Off the board: where a pawn entering (or knocked off) at each slot is drawn."""

    level: int
    spots: list[Spot]  # by slot: where a pawn entering (or knocked off) at that slot is drawn


class BoardGeometry(TypedDict):
    """The whole board's layout in a 1000-unit drawing, as ``layout()`` gives it."""

    size: float
    centre: Spot
    plate: float  # the plate under the rings
    slot_angle: float
    slots: str
    slot_labels: list[Spot]
    rings: list[RingShape]
    squares: dict[str, SquareShape]
    top: TopShape
    off: OffShape


def _r(x: float) -> float:
    return round(x, PLACES) + 0.0  # (+ 0.0: never -0.0)


def n(x: float) -> str:
    """A coordinate, short: SVG is text and a board has a few hundred of them."""
    text = f"{x:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def polar(radius: float, degrees: float, centre: Spot = (CX, CY)) -> Spot:
    """The point at ``radius`` from ``centre``, ``degrees`` clockwise from twelve o'clock."""
    a = math.radians(degrees)
    return centre[0] + radius * math.sin(a), centre[1] - radius * math.cos(a)


def wedge(r_in: float, r_out: float, start: float, end: float, centre: Spot = (CX, CY)) -> str:
    """An annulus sector from ``start`` to ``end`` degrees (clockwise) around ``centre``."""
    x0, y0 = polar(r_out, start, centre)
    x1, y1 = polar(r_out, end, centre)
    x2, y2 = polar(r_in, end, centre)
    x3, y3 = polar(r_in, start, centre)
    return (
        f"M{n(x0)} {n(y0)}A{n(r_out)} {n(r_out)} 0 0 1 {n(x1)} {n(y1)}"
        f"L{n(x2)} {n(y2)}A{n(r_in)} {n(r_in)} 0 0 0 {n(x3)} {n(y3)}Z"
    )


def ring_radii(ring: int) -> tuple[float, float]:
    """The inner and outer edges of ``ring`` (1 outermost … 6)."""
    inner = R_OUTER - ring * RING_WIDTH
    return inner, inner + RING_WIDTH


def square_path(ring: int, slot: int, inset: float = 0.0) -> str:
    """The SVG path of the square at ``ring`` and ``slot``, its sides moved in by ``inset``."""
    r_in, r_out = ring_radii(ring)
    centre = slot * SLOT_ANGLE
    # Inset the sides by a distance, not an angle, so the outline is even on every ring.
    half = SLOT_ANGLE / 2 - math.degrees(inset / ((r_in + r_out) / 2))
    return wedge(r_in + inset, r_out - inset, centre - half, centre + half)


def _disc(x: float, y: float, r: float) -> Disc:
    return _r(x), _r(y), _r(r)


def _square(ring: int, slot: int) -> SquareShape:
    r_in, r_out = ring_radii(ring)
    # The pawn inward of the square's middle, clear of the colour's symbol near its outer
    # edge, so that the colour stays readable under the pawn.
    pawn = polar(r_in + RING_WIDTH * 0.35, slot * SLOT_ANGLE)
    symbol = polar(r_out - RING_WIDTH * 0.2, slot * SLOT_ANGLE)
    return {
        "ring": ring,
        "slot": slot,
        "level": ring,
        "path": square_path(ring, slot),
        "outline": square_path(ring, slot, OUTLINE_INSET),
        "pawn": _disc(*pawn, RING_WIDTH * 0.3),
        "symbol": _disc(*symbol, RING_WIDTH * 0.17),
    }


def crowd(count: int) -> Crowd:
    """How ``count`` pawns stand on the top: one circle of them, or two when crowded."""
    if count <= 1:
        return {"pawn": 22.0, "orbits": [(count, 0.0)]}
    if count <= 8:
        return {"pawn": 20.0 if count <= 5 else 16.0, "orbits": [(count, 46.0)]}
    inner = min(6, count // 3)
    return {"pawn": 12.0, "orbits": [(count - inner, 60.0), (inner, 26.0)]}


def top_spots(geometry: BoardGeometry, count: int) -> list[Disc]:
    """Where each of ``count`` pawns on the top stands (centre and radius), from the layout."""
    shape = geometry["top"]["crowds"][count]
    return [
        (*polar(radius, i * 360.0 / k, geometry["centre"]), shape["pawn"])
        for k, radius in shape["orbits"]
        for i in range(k)
    ]


def _spot(x: float, y: float) -> Spot:
    return _r(x), _r(y)


def layout() -> BoardGeometry:
    """The whole board's geometry, as both drawings read it (and the JSON file holds)."""
    rings: list[RingShape] = []
    for ring in range(1, NUM_RINGS + 1):
        r_in, r_out = ring_radii(ring)
        label = polar(r_in + RING_LABEL_AT * RING_WIDTH, -SLOT_ANGLE / 2)
        rings.append(
            {
                "ring": ring,
                "level": ring,
                "inner": _r(r_in),
                "outer": _r(r_out),
                "label": _spot(*label),
            }
        )
    squares = {
        square_name(square(ring, slot)): _square(ring, slot)
        for ring in range(1, NUM_RINGS + 1)
        for slot in range(NUM_SLOTS)
    }
    return {
        "size": WIDTH,
        "centre": (CX, CY),
        "plate": R_PLATE,
        "slot_angle": SLOT_ANGLE,
        "slots": SLOT_LETTERS,
        # The slot letters midway between the plate and the drawing's edge.
        "slot_labels": [
            _spot(*polar((R_PLATE + CX) / 2, s * SLOT_ANGLE)) for s in range(NUM_SLOTS)
        ],
        "rings": rings,
        "squares": squares,
        "top": {
            "level": TOP_LEVEL,
            "radius": R_TOP,
            "crowds": [crowd(count) for count in range(MOST_ON_TOP + 1)],
        },
        "off": {
            "level": 0,
            "spots": [_spot(*polar(R_OFF, s * SLOT_ANGLE)) for s in range(NUM_SLOTS)],
        },
    }


def to_json() -> str:
    """The layout as the page reads it: JSON, each ring, square and crowd on a line of its own
    (a reader can find a square, and a change to one shows as a change to its line)."""

    def one(value: object) -> str:
        return json.dumps(value, separators=(",", ":"))

    def each(items: list[str], indent: str) -> str:
        return "\n" + ",\n".join(indent + item for item in items) + "\n"

    g = layout()
    squares = [f"{json.dumps(name)}: {one(shape)}" for name, shape in g["squares"].items()]
    top = g["top"]
    parts = [f'"{key}": {one(g[key])}' for key in ("size", "centre", "plate", "slot_angle")]
    parts += [
        f'"slots": {one(g["slots"])}',
        f'"slot_labels": {one(g["slot_labels"])}',
        f'"rings": [{each([one(ring) for ring in g["rings"]], "  ")} ]',
        f'"squares": {{{each(squares, "  ")} }}',
        f'"top": {{"level": {top["level"]}, "radius": {one(top["radius"])}, "crowds": ['
        f"{each([one(c) for c in top['crowds']], '  ')} ]}}",
        f'"off": {one(g["off"])}',
    ]
    return "{" + each(parts, " ") + "}\n"


# The file the web page draws from (the web package ships it; nothing here imports it).
SHIPPED = Path(__file__).parent.parent / "web" / "static" / "centrix-geometry.json"


def main(argv: list[str]) -> int:
    """``python -m gamenight.centrix.geometry [PATH]``: write the layout (by default to the
    file the web page reads)."""
    target = Path(argv[0]) if argv else SHIPPED
    target.write_text(to_json(), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
