"""Centrix in the terminal: a plain-text board and a coloured one drawn with rich.

Both renderers (and the SVG one in :mod:`gamenight.centrix.svg`) accept a full
:class:`CentrixState` or a seat's :class:`CentrixView`; :func:`table_facts` reduces either to
the same plain values so that neither renderer can accidentally show more than a view knows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gamenight.centrix.board import NUM_RINGS, NUM_SLOTS, SLOT_LETTERS, Colour, square
from gamenight.centrix.cards import Card
from gamenight.centrix.state import EMPTY, PAWNS, PLAYING, PLAYS_PER_TURN, CentrixState, CentrixView

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text

# One palette for every renderer, so that the terminal, Jupyter and the web UI agree. Chosen
# to stay apart from each other on both light and dark backgrounds (white is an off-white so
# it still reads as a colour next to the page).
PALETTE: dict[Colour, str] = {
    Colour.RED: "#d7263d",
    Colour.ORANGE: "#f7862a",
    Colour.YELLOW: "#f6d32d",
    Colour.GREEN: "#2e9e4f",
    Colour.BLUE: "#2366c9",
    Colour.WHITE: "#f4f1ea",
}
# Text drawn on a colour: dark on the light colours, white on the dark ones.
INK: dict[Colour, str] = {
    Colour.RED: "#ffffff",
    Colour.ORANGE: "#1b1b1b",
    Colour.YELLOW: "#1b1b1b",
    Colour.GREEN: "#ffffff",
    Colour.BLUE: "#ffffff",
    Colour.WHITE: "#1b1b1b",
}

_STATUS_WORDS = {
    "finished": "finished",
    "turn_cap": "turn cap reached",
    "stalemate": "stalemate: nobody can play",
}


@dataclass(frozen=True)
class TableFacts:
    """What a renderer may show, taken from a state or a view.

    ``colours[r][slot]`` is the colour at ``slot`` of ring index ``r`` (ring ``r + 1``) now.
    ``hands[seat]`` is None when that hand is not known to whoever is looking.
    """

    players: tuple[Colour, ...]
    colours: tuple[tuple[Colour, ...], ...]
    cells: tuple[int, ...]
    offsets: tuple[int, ...]
    top: tuple[int, ...]
    hands: tuple[tuple[Card, ...] | None, ...]
    hand_sizes: tuple[int, ...]
    draw_size: int
    discard: tuple[Card, ...]
    to_move: int | None
    plays_left: int
    turn: int
    places: tuple[int, ...]
    status: str
    viewer: int | None  # the view's seat; None for a full state or a spectator
    pawns: int = PAWNS  # each player's (D18)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.status != PLAYING

    def pawns_off(self, seat: int) -> int:
        """How many of ``seat``'s pawns are off the board."""
        return self.pawns - self.top[seat] - self.cells.count(seat)

    def owner(self, ring: int, slot: int) -> int:
        """The seat whose pawn stands at ``slot`` of ``ring`` (1–6), or EMPTY (-1)."""
        return self.cells[square(ring, slot)]

    def hand_of(self, seat: int | None) -> tuple[Card, ...] | None:
        """The hand to show for ``seat``; a view defaults to its own seat."""
        if seat is None:
            seat = self.viewer
        if seat is None or not 0 <= seat < len(self.players):
            return None
        return self.hands[seat]

    def default_seat(self, seat: int | None) -> int | None:
        """``seat``, or the view's own seat when it is None."""
        return self.viewer if seat is None else seat


def table_facts(game: CentrixState | CentrixView) -> TableFacts:
    """What a renderer may show of ``game``: a view's facts hold only its own hand."""
    if isinstance(game, CentrixView):
        layout = game.rules.layout
        colours = tuple(
            tuple(layout.colour(r + 1, s, game.offsets[r]) for s in range(NUM_SLOTS))
            for r in range(NUM_RINGS)
        )
        hands: tuple[tuple[Card, ...] | None, ...] = tuple(
            game.hand if seat == game.seat else None for seat in range(len(game.players))
        )
        return TableFacts(
            players=game.players,
            colours=colours,
            cells=game.cells,
            offsets=game.offsets,
            top=game.top,
            hands=hands,
            hand_sizes=game.hand_sizes,
            draw_size=game.draw_size,
            discard=game.discard,
            to_move=game.to_move,
            plays_left=PLAYS_PER_TURN - game.plays_done if game.status == PLAYING else 0,
            turn=game.turn,
            places=game.places,
            status=game.status,
            viewer=game.seat,
            pawns=game.rules.pawns,
        )
    return TableFacts(
        players=game.players,
        colours=tuple(tuple(Colour(c) for c in row) for row in game.rows),
        cells=tuple(game.cells),
        offsets=tuple(game.offsets),
        top=tuple(game.top),
        hands=tuple(tuple(h) for h in game.hands),
        hand_sizes=tuple(len(h) for h in game.hands),
        draw_size=len(game.draw),
        discard=tuple(game.discard),
        to_move=game.to_move,
        plays_left=game.plays_left,
        turn=game.turn,
        places=tuple(game.places),
        status=game.status,
        viewer=None,
        pawns=game.rules.pawns,
    )


def player_name(facts: TableFacts, seat: int) -> str:
    """A seat as a player reads it: ``red (seat 0)``."""
    return f"{facts.players[seat].name.lower()} (seat {seat})"


def status_line(facts: TableFacts) -> str:
    """One line: who is to move and how many plays are left, or why and how it ended."""
    if facts.is_over:
        ranking = sorted(range(len(facts.players)), key=lambda s: facts.places[s])
        places = ", ".join(f"{facts.places[s]}. {player_name(facts, s)}" for s in ranking)
        reason = _STATUS_WORDS.get(facts.status, facts.status)
        return f"game over after {facts.turn} turns ({reason}): {places}"
    assert facts.to_move is not None
    plays = "play" if facts.plays_left == 1 else "plays"
    return (
        f"turn {facts.turn + 1}: {player_name(facts, facts.to_move)} to move, "
        f"{facts.plays_left} {plays} left"
    )


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(str(c) for c in cards) or "(none)"


# ---------------------------------------------------------------- plain text


def render_plain(game: CentrixState | CentrixView, *, seat: int | None = None) -> str:
    """The board as plain text, readable without colour.

    Each cell is the square's colour letter (upper case) followed by the pawn on it: the
    owner's colour letter in lower case, or ``.`` when empty. ``Yr`` is a red pawn on yellow.
    Ring 6, the highest, comes first, as the board is read from its top down.

    ``seat`` picks whose hand to list: any seat for a state (which knows every hand), and
    only the view's own seat for a view, which also shows its own hand when ``seat`` is None.
    """
    facts = table_facts(game)
    lines = ["ring " + "  ".join(f"{letter} " for letter in SLOT_LETTERS).rstrip()]
    for r in reversed(range(NUM_RINGS)):
        cells = []
        for s in range(NUM_SLOTS):
            owner = facts.owner(r + 1, s)
            pawn = "." if owner == EMPTY else facts.players[owner].letter.lower()
            cells.append(facts.colours[r][s].letter + pawn)
        lines.append(f"  {r + 1}  " + "  ".join(cells))
    seats = range(len(facts.players))
    letters = [c.letter.lower() for c in facts.players]
    lines.append("top  " + "  ".join(f"{letters[s]}:{facts.top[s]}" for s in seats))
    lines.append("off  " + "  ".join(f"{letters[s]}:{facts.pawns_off(s)}" for s in seats))
    lines.append(status_line(facts))
    shown = facts.default_seat(seat)
    hand = facts.hand_of(seat)
    if shown is not None and hand is not None:
        lines.append(f"hand of {player_name(facts, shown)}: {_cards(hand)}")
    return "\n".join(lines)


# ---------------------------------------------------------------- rich


def render(game: CentrixState | CentrixView, *, seat: int | None = None) -> RenderableType:
    """The board for a colour terminal: squares as coloured blocks, pawns as ``●`` + letter.

    The square's colour letter stays visible (faintly) in every cell so that the board is
    still readable for colour-blind players and on terminals without true colour.
    """
    # rich is imported here so that importing the engine (and the SVG renderer, which shares
    # this module's helpers) stays cheap.
    from rich.console import Group
    from rich.text import Text

    facts = table_facts(game)
    board = Text()
    board.append("ring ", style="dim")
    board.append("".join(f" {letter}   " for letter in SLOT_LETTERS), style="bold")
    for r in reversed(range(NUM_RINGS)):
        board.append(f"\n  {r + 1}  ", style="bold")
        for s in range(NUM_SLOTS):
            colour = facts.colours[r][s]
            bg = PALETTE[colour]
            board.append(f" {colour.letter}", style=f"{_faint(colour)} on {bg}")
            owner = facts.owner(r + 1, s)
            if owner == EMPTY:
                board.append("   ", style=f"on {bg}")
            else:
                # A dark chip behind the pawn keeps it visible on a square of its own colour.
                pawn = facts.players[owner]
                board.append(f"●{pawn.letter}", style=f"bold {PALETTE[pawn]} on #1b1b1b")
                board.append(" ", style=f"on {bg}")

    info = Text()
    info.append("top  ", style="bold")
    for s, colour in enumerate(facts.players):
        info.append("●" * facts.top[s] or "·", style=f"bold {PALETTE[colour]}")
        info.append(f" {colour.name.lower()} {facts.top[s]}   ")
    info.append("\noff  ", style="bold")
    for s, colour in enumerate(facts.players):
        info.append("●" * facts.pawns_off(s) or "·", style=f"bold {PALETTE[colour]}")
        info.append(f" {colour.name.lower()} {facts.pawns_off(s)}   ")
    info.append("\n")
    info.append(status_line(facts), style="bold" if facts.is_over else "")
    shown = facts.default_seat(seat)
    hand = facts.hand_of(seat)
    if shown is not None and hand is not None:
        info.append(f"\nhand of {player_name(facts, shown)}: ")
        for card in hand:
            info.append_text(_card_text(card))
            info.append(" ")
        if not hand:
            info.append("(none)", style="dim")
    return Group(board, info)


def _faint(colour: Colour) -> str:
    """A letter colour that shows on the square without shouting over the pawns."""
    return "#5a5a5a" if INK[colour] != "#ffffff" else "#e8e8e8"


def _card_text(card: Card) -> Text:
    from rich.text import Text

    colour = card.colour
    if colour is None:
        # The wilds: the any-colour card striped through every colour, the spin card dark.
        if card is Card.ANY:
            text = Text()
            for ch, c in zip(" A ", (Colour.RED, Colour.YELLOW, Colour.BLUE), strict=True):
                text.append(ch, style=f"bold {INK[c]} on {PALETTE[c]}")
            return text
        return Text(" S↻ ", style="bold #ffffff on #333333")
    return Text(f" {card} ", style=f"bold {INK[colour]} on {PALETTE[colour]}")
