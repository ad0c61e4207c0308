"""The Centrix board as SVG, seen from above: for Jupyter, documentation and the web UI.

Pure string building with no dependencies and no external resources, so the same markup
works inline in a notebook, in a browser and in any converter. Every square, symbol, pawn and
card carries ``class`` and ``data-*`` attributes (``data-square="c3"``, ``data-colour``,
``data-seat`` …) so tests and the web UI can find them without knowing the geometry.

The drawing uses its own coordinate system (1000 units across) and is scaled by ``size``,
so the numbers below never depend on how large the board is shown.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from html import escape

from gamenight.centrix.board import (
    NUM_RINGS,
    NUM_SLOTS,
    SLOT_LETTERS,
    TOP,
    Colour,
    parse_square,
    square,
    square_name,
)
from gamenight.centrix.cards import Card
from gamenight.centrix.geometry import (
    R_OUTER,
    R_TOP,
    RING_WIDTH,
    BoardGeometry,
    layout,
    n,
    polar,
    top_spots,
    wedge,
)
from gamenight.centrix.state import EMPTY, CentrixState, CentrixView
from gamenight.centrix.text import INK, PALETTE, TableFacts, status_line, table_facts

# The board's shapes and spots: one layout, which the web page draws from too (as JSON).
GEOMETRY: BoardGeometry = layout()
WIDTH = GEOMETRY["size"]
CX, CY = GEOMETRY["centre"]
LEGEND_HEIGHT = 150.0
HAND_HEIGHT = 250.0
CARD_W, CARD_H = 120.0, 170.0

BACKGROUND = "#f7f4ec"
DARK = "#1b1b1b"
FONT = 'font-family="sans-serif"'

SYMBOL_NAMES: dict[Colour, str] = {
    Colour.RED: "triangle",
    Colour.ORANGE: "square",
    Colour.YELLOW: "star",
    Colour.GREEN: "cross",
    Colour.BLUE: "circle",
    Colour.WHITE: "diamond",
}


def board_svg(
    game: CentrixState | CentrixView,
    *,
    size: int = 480,
    seat: int | None = None,
    show_hand: bool = False,
    highlight: Iterable[int | str] = (),
    legend: bool = True,
) -> str:
    """The board as an SVG document ``size`` pixels wide.

    ``seat`` picks whose hand ``show_hand`` draws below the board: any seat of a state, or a
    view's own seat (a view shows its own hand by default). ``highlight`` outlines squares,
    given as square numbers or names (``"c3"``, ``"top"``); ``off`` has nothing to outline.
    ``legend=False`` leaves out the status and players below the board (the web app shows
    them in the page, in the reader's language).
    """
    facts = table_facts(game)
    hand_seat = facts.default_seat(seat)
    hand = facts.hand_of(seat) if show_hand else None
    legend_height = LEGEND_HEIGHT if legend else 0.0
    height = WIDTH + legend_height + (HAND_HEIGHT if hand is not None else 0.0)
    marked = {parse_square(h) if isinstance(h, str) else h for h in highlight}

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(WIDTH)} {_n(height)}" '
        f'width="{size}" height="{_n(size * height / WIDTH)}" {FONT} '
        'class="centrix-board" role="img">',
        f"<title>Centrix: {escape(status_line(facts))}</title>",
        f'<rect width="{_n(WIDTH)}" height="{_n(height)}" rx="24" fill="{BACKGROUND}"/>',
    ]
    parts += _board(facts, marked)
    if legend:
        parts += _legend(facts, WIDTH)
    if hand is not None and hand_seat is not None:
        parts += _hand(facts, hand_seat, hand, WIDTH + legend_height)
    parts.append("</svg>")
    return "\n".join(parts)


# ---------------------------------------------------------------- geometry

_n = n  # a coordinate, short


def _points(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


_polar = polar
_wedge = wedge


def _ring(ring: int) -> tuple[float, float]:
    """``ring``'s inner and outer edges."""
    shape = GEOMETRY["rings"][ring - 1]
    return shape["inner"], shape["outer"]


# ---------------------------------------------------------------- pieces


def symbol(colour: Colour, x: float, y: float, s: float, fill: str, extra: str = "") -> str:
    """The colour-blind symbol of ``colour`` centred on (x, y), about ``2 * s`` across.

    Drawn as shapes rather than font glyphs (▲ ■ ★ …) so that it looks the same everywhere.
    """
    name = SYMBOL_NAMES[colour]
    attrs = f'class="symbol" data-colour="{colour.name.lower()}" data-symbol="{name}"{extra}'
    if name == "circle":
        return f'<circle {attrs} cx="{_n(x)}" cy="{_n(y)}" r="{_n(s * 0.82)}" fill="{fill}"/>'
    if name == "square":
        a = s * 0.75
        return (
            f'<rect {attrs} x="{_n(x - a)}" y="{_n(y - a)}" width="{_n(2 * a)}" '
            f'height="{_n(2 * a)}" fill="{fill}"/>'
        )
    if name == "triangle":
        points = [(0.0, -1.05), (0.95, 0.7), (-0.95, 0.7)]
    elif name == "diamond":
        points = [(0.0, -1.1), (0.8, 0.0), (0.0, 1.1), (-0.8, 0.0)]
    elif name == "star":
        points = []
        for i in range(10):
            radius = 1.1 if i % 2 == 0 else 0.46
            a = math.radians(i * 36)
            points.append((radius * math.sin(a), -radius * math.cos(a) + 0.08))
    else:  # cross: a plus sign, which stays distinct from the other five at small sizes
        t, e = 0.32, 0.95
        points = [
            (-t, -e), (t, -e), (t, -t), (e, -t), (e, t), (t, t),
            (t, e), (-t, e), (-t, t), (-e, t), (-e, -t), (-t, -t),
        ]  # fmt: skip
    d = _points((x + px * s, y + py * s) for px, py in points)
    return f'<polygon {attrs} points="{d}" fill="{fill}"/>'


def _symbol_opacity(colour: Colour) -> str:
    # Softer than the ink of a card: the symbol is a hint and must not outshout the pawns.
    return 'fill-opacity="0.55"' if INK[colour] == DARK else 'fill-opacity="0.85"'


def pawn(colour: Colour, x: float, y: float, r: float, attrs: str) -> list[str]:
    """A pawn token: a disc in the owner's colour, dark rim, soft shadow and its letter.

    ``attrs`` are the group's attributes (its class and data), given by the caller because a
    pawn on the board and a pawn standing for a player in the legend are found differently.
    """
    ink = INK[colour]
    return [
        f"<g {attrs}>",
        f'<circle cx="{_n(x + r * 0.12)}" cy="{_n(y + r * 0.2)}" r="{_n(r)}" '
        'fill="#000" fill-opacity="0.35"/>',
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{PALETTE[colour]}" '
        f'stroke="{DARK}" stroke-width="{_n(max(2.0, r * 0.18))}"/>',
        f'<ellipse cx="{_n(x - r * 0.3)}" cy="{_n(y - r * 0.38)}" rx="{_n(r * 0.38)}" '
        f'ry="{_n(r * 0.22)}" fill="#fff" fill-opacity="0.35"/>',
        f'<text x="{_n(x)}" y="{_n(y + r * 0.36)}" font-size="{_n(r * 1.05)}" '
        f'font-weight="bold" text-anchor="middle" fill="{ink}">{colour.letter}</text>',
        "</g>",
    ]


# ---------------------------------------------------------------- the board


def _board(facts: TableFacts, marked: set[int]) -> list[str]:
    out: list[str] = [
        # The plate under the rings, a little wider, so the outermost ring has an edge.
        f'<circle cx="{_n(CX)}" cy="{_n(CY)}" r="{_n(GEOMETRY["plate"])}" fill="#3a3631"/>',
    ]
    for ring in range(1, NUM_RINGS + 1):
        out += _ring_group(facts, ring, marked)
    out += _labels()
    out += _top(facts)
    if TOP in marked:
        out.append(_highlight(TOP))
    return out


def _ring_group(facts: TableFacts, ring: int, marked: set[int]) -> list[str]:
    """One ring in a group of its own: everything that turns with it, so that the web UI can
    animate a rotation by rotating the group (``data-offset`` is how far it has turned)."""
    r_in, _ = _ring(ring)
    out = [
        f'<g class="ring" data-ring="{ring}" data-offset="{facts.offsets[ring - 1]}">',
        '<g stroke="#222" stroke-width="2" stroke-linejoin="round">',
    ]
    squares = range(square(ring, 0), square(ring, NUM_SLOTS))
    for sq in squares:
        colour = facts.colours[ring - 1][sq % NUM_SLOTS]
        out.append(
            f'<path class="square" data-square="{square_name(sq)}" '
            f'data-ring="{ring}" data-slot="{sq % NUM_SLOTS}" data-colour="{colour.name.lower()}" '
            f'fill="{PALETTE[colour]}" d="{GEOMETRY["squares"][square_name(sq)]["path"]}"/>'
        )
    out.append("</g>")
    if ring < NUM_RINGS:
        # The ring above (inside) casts a shadow on this one, so the board reads as a stack.
        out.append(
            f'<circle cx="{_n(CX)}" cy="{_n(CY)}" r="{_n(r_in + 3)}" fill="none" stroke="#000" '
            'stroke-opacity="0.22" stroke-width="6"/>'
        )
    for sq in squares:
        colour = facts.colours[ring - 1][sq % NUM_SLOTS]
        # Near the outer edge, clear of the pawn, so the colour stays readable under it.
        x, y, size = GEOMETRY["squares"][square_name(sq)]["symbol"]
        extra = f' data-square="{square_name(sq)}" {_symbol_opacity(colour)}'
        out.append(symbol(colour, x, y, size, INK[colour], extra))
    out += [_highlight(sq) for sq in squares if sq in marked]
    for sq in squares:
        owner = facts.cells[sq]
        if owner != EMPTY:
            out += pawn(facts.players[owner], *pawn_spot(sq), _pawn_attrs(facts, sq, owner))
    out.append("</g>")
    return out


def pawn_spot(sq: int) -> tuple[float, float, float]:
    """Where a pawn stands on ring square ``sq``: its centre and radius in the drawing's units
    (inward of the square's middle, clear of the colour's symbol near its outer edge)."""
    return GEOMETRY["squares"][square_name(sq)]["pawn"]


def _highlight(sq: int) -> str:
    """An outline in dark and white, which shows on every colour, inset to stay in its square."""
    if sq == TOP:
        tag, shape = "circle", f'cx="{_n(CX)}" cy="{_n(CY)}" r="{_n(R_TOP - 4)}"'
    else:
        tag, shape = "path", f'd="{GEOMETRY["squares"][square_name(sq)]["outline"]}"'
    return (
        f'<g class="highlight" data-square="{square_name(sq)}" fill="none" '
        'stroke-linejoin="round">'
        f'<{tag} {shape} stroke="{DARK}" stroke-width="9"/>'
        f'<{tag} {shape} stroke="#ffffff" stroke-width="4"/></g>'
    )


def _labels() -> list[str]:
    # Each word is centred where it stands (dominant-baseline="central"), so that a page that
    # draws it larger, to be read on a small screen, grows it evenly into the room around it.
    out = [f'<g class="slot-labels" font-size="30" font-weight="bold" fill="#5b554c" {FONT}>']
    for slot, (x, y) in enumerate(GEOMETRY["slot_labels"]):
        out.append(
            f'<text x="{_n(x)}" y="{_n(y)}" text-anchor="middle" dominant-baseline="central" '
            f'data-slot="{slot}">{SLOT_LETTERS[slot]}</text>'
        )
    out.append("</g>")
    # Ring numbers sit on the spoke between slots l and a, where no pawn or symbol stands.
    out.append('<g class="ring-labels" font-size="15" font-weight="bold" text-anchor="middle">')
    for shape in GEOMETRY["rings"]:
        x, y = shape["label"]
        out.append(
            f'<g data-ring="{shape["ring"]}"><circle cx="{_n(x)}" cy="{_n(y)}" r="11" '
            f'fill="{DARK}" fill-opacity="0.8" stroke="#fff" stroke-width="1.5"/>'
            f'<text x="{_n(x)}" y="{_n(y)}" dominant-baseline="central" fill="#fff">'
            f"{shape['ring']}</text></g>"
        )
    out.append("</g>")
    return out


def _pawn_attrs(facts: TableFacts, sq: int, seat: int) -> str:
    colour = facts.players[seat].name.lower()
    return f'class="pawn" data-square="{square_name(sq)}" data-seat="{seat}" data-colour="{colour}"'


def _top(facts: TableFacts) -> list[str]:
    out = [
        f'<g class="top" data-square="top" data-pawns="{sum(facts.top)}">',
        f'<circle cx="{_n(CX + 3)}" cy="{_n(CY + 5)}" r="{_n(R_TOP)}" fill="#000" '
        'fill-opacity="0.3"/>',
        f'<circle cx="{_n(CX)}" cy="{_n(CY)}" r="{_n(R_TOP - 1)}" fill="#141414" '
        'stroke="#000" stroke-width="3"/>',
        f'<circle cx="{_n(CX)}" cy="{_n(CY)}" r="{_n(R_TOP - 12)}" fill="none" '
        'stroke="#3b3b3b" stroke-width="2"/>',
    ]
    seats = [s for s, n in enumerate(facts.top) for _ in range(n)]
    if not seats:
        out.append(
            f'<text x="{_n(CX)}" y="{_n(CY)}" font-size="26" font-weight="bold" fill="#6d6d6d" '
            'text-anchor="middle" dominant-baseline="central" letter-spacing="3" '
            'data-label="board_top">'
            "TOP</text>"
        )
    for (x, y, r), s in zip(top_spots(GEOMETRY, len(seats)), seats, strict=True):
        out += pawn(facts.players[s], x, y, r, _pawn_attrs(facts, TOP, s))
    out.append("</g>")
    return out


# ---------------------------------------------------------------- below the board


def _legend(facts: TableFacts, y0: float) -> list[str]:
    out = [
        f'<g class="legend" font-size="26" fill="{DARK}">',
        f'<text class="status" x="{_n(CX)}" y="{_n(y0 + 34)}" text-anchor="middle" '
        f'font-size="28" font-weight="bold">{escape(_short_status(facts))}</text>',
    ]
    n = len(facts.players)
    cell = (WIDTH - 60) / n
    for s, colour in enumerate(facts.players):
        x = 30 + s * cell
        y = y0 + 95
        active = s == facts.to_move
        out.append(
            f'<g class="player" data-seat="{s}" data-colour="{colour.name.lower()}" '
            f'data-top="{facts.top[s]}" data-off="{facts.pawns_off(s)}">'
        )
        if active:
            out.append(
                f'<rect x="{_n(x + 4)}" y="{_n(y - 34)}" width="{_n(cell - 8)}" height="68" '
                f'rx="14" fill="#fff" stroke="{DARK}" stroke-width="3"/>'
            )
        out += pawn(colour, x + 36, y, 20.0, 'class="pawn-icon"')
        place = facts.places[s]
        lines = (
            [f"{_ordinal(place)} place"]
            if place
            else [f"top {facts.top[s]}", f"off {facts.pawns_off(s)}"]
        )
        size = 22 if n <= 4 else 20
        for i, line in enumerate(lines):
            ty = y + (size * 0.35 if len(lines) == 1 else (i - 0.5) * (size + 2) + size * 0.35)
            out.append(f'<text x="{_n(x + 66)}" y="{_n(ty)}" font-size="{size}">{line}</text>')
        out.append("</g>")
    out.append("</g>")
    return out


def _short_status(facts: TableFacts) -> str:
    if facts.is_over:
        return status_line(facts).split(":")[0].capitalize()
    assert facts.to_move is not None
    name = facts.players[facts.to_move].name.capitalize()
    plays = "play" if facts.plays_left == 1 else "plays"
    return f"Turn {facts.turn + 1} · {name} to move · {facts.plays_left} {plays} left"


def _ordinal(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n, "th")  # places never pass 6
    return f"{n}{suffix}"


def _hand(facts: TableFacts, seat: int, hand: tuple[Card, ...], y0: float) -> list[str]:
    colour = facts.players[seat]
    out = [
        f'<g class="hand" data-seat="{seat}">',
        f'<text x="{_n(CX)}" y="{_n(y0 + 30)}" font-size="24" fill="#5b554c" '
        f'text-anchor="middle">Hand of {colour.name.lower()} (seat {seat})</text>',
    ]
    gap = 24.0
    total = len(hand) * CARD_W + max(0, len(hand) - 1) * gap
    x = CX - total / 2
    for card in hand:
        out += card_svg(card, x, y0 + 52)
        x += CARD_W + gap
    if not hand:
        out.append(
            f'<text x="{_n(CX)}" y="{_n(y0 + 130)}" font-size="24" fill="#8a8378" '
            'text-anchor="middle">no cards</text>'
        )
    out.append("</g>")
    return out


def card_svg(card: Card, x: float, y: float) -> list[str]:
    """One card, ``CARD_W`` by ``CARD_H`` with its top left corner at (x, y)."""
    colour = card.colour
    out = [
        f'<g class="card" data-card="{card}">',
        f'<rect x="{_n(x + 3)}" y="{_n(y + 5)}" width="{_n(CARD_W)}" height="{_n(CARD_H)}" '
        'rx="14" fill="#000" fill-opacity="0.25"/>',
    ]
    cx, cy = x + CARD_W / 2, y + CARD_H / 2
    if colour is not None:
        ink = INK[colour]
        out += [
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(CARD_W)}" height="{_n(CARD_H)}" rx="14" '
            f'fill="{PALETTE[colour]}" stroke="{DARK}" stroke-width="3"/>',
            f'<rect x="{_n(x + 8)}" y="{_n(y + 8)}" width="{_n(CARD_W - 16)}" '
            f'height="{_n(CARD_H - 16)}" rx="9" fill="none" stroke="{ink}" '
            'stroke-opacity="0.6" stroke-width="2"/>',
            f'<text x="{_n(cx)}" y="{_n(cy + 24)}" font-size="68" font-weight="bold" '
            f'text-anchor="middle" fill="{ink}">{card.number}</text>',
            symbol(colour, x + 26, y + 28, 11, ink),
            symbol(colour, x + CARD_W - 26, y + CARD_H - 28, 11, ink),
        ]
    elif card is Card.ANY:
        out.append(
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(CARD_W)}" height="{_n(CARD_H)}" rx="14" '
            f'fill="#fffdf7" stroke="{DARK}" stroke-width="3"/>'
        )
        # A little six-colour wheel: the card stands for any square.
        for i, c in enumerate(Colour):
            start = i * 60.0 - 30.0
            out.append(
                f'<path fill="{PALETTE[c]}" stroke="{DARK}" stroke-width="1.5" '
                f'd="{_wedge(14, 40, start, start + 60, (cx, cy - 12))}"/>'
            )
        out.append(
            f'<text x="{_n(cx)}" y="{_n(y + CARD_H - 18)}" font-size="22" font-weight="bold" '
            f'text-anchor="middle" fill="{DARK}">ANY</text>'
        )
    else:
        out.append(
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(CARD_W)}" height="{_n(CARD_H)}" rx="14" '
            f'fill="#26231f" stroke="{DARK}" stroke-width="3"/>'
        )
        # A circular arrow: the card turns a ring as far as you like.
        r = 32.0
        end = 315.0
        sx, sy = _polar(r, 45, (cx, cy - 12))
        ex, ey = _polar(r, end, (cx, cy - 12))
        # The arrowhead points along the circle's clockwise tangent at the arc's end.
        tx, ty = math.cos(math.radians(end)), math.sin(math.radians(end))
        nx, ny = -ty, tx
        head = [
            (ex + 20 * tx, ey + 20 * ty),
            (ex + 13 * nx, ey + 13 * ny),
            (ex - 13 * nx, ey - 13 * ny),
        ]
        out += [
            f'<path d="M{_n(sx)} {_n(sy)}A{_n(r)} {_n(r)} 0 1 1 {_n(ex)} {_n(ey)}" fill="none" '
            'stroke="#f7f4ec" stroke-width="8" stroke-linecap="round"/>',
            f'<polygon fill="#f7f4ec" points="{_points(head)}"/>',
            f'<text x="{_n(cx)}" y="{_n(y + CARD_H - 18)}" font-size="22" font-weight="bold" '
            'text-anchor="middle" fill="#f7f4ec">SPIN</text>',
        ]
    out.append("</g>")
    return out


__all__ = [
    "CX",
    "CY",
    "RING_WIDTH",
    "R_OUTER",
    "R_TOP",
    "board_svg",
    "card_svg",
    "pawn",
    "pawn_spot",
    "symbol",
]
