"""The Centrix positions the page's unit tests play through (tests/js/centrix*.test.js), made
by the engine: each with the legal plays as the server sends them (``grouped``) and as the
engine lists them, so that the page's listing of them and the engine's are held to agree.

``python -m tests.web.centrix_page_fixtures`` writes tests/js/fixtures/centrix-legal.json;
tests/web/test_centrix_page_fixtures.py holds the file to this module.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from gamenight.centrix import CentrixState, Play
from gamenight.centrix.board import OFF, TOP
from gamenight.web.views.centrix import grouped

FIXTURES = Path(__file__).resolve().parents[1] / "js" / "fixtures" / "centrix-legal.json"

Found = Callable[[CentrixState], bool]


def position(state: CentrixState, name: str, why: str) -> dict[str, Any]:
    """A position as the page gets it: the mover's hand and legal plays, compact and listed."""
    seat = state.to_move
    assert seat is not None
    plays = state.legal_play_tuple()
    view = state.view(seat)
    return {
        "name": name,
        "why": why,
        "position": state.position(),
        "seat": seat,
        "plays_left": state.plays_left,
        "hand": [str(card) for card in view.hand or ()],
        "legal": grouped(plays),
        "notations": sorted(str(play) for play in plays),
    }


def games(players: int = 3) -> Iterator[tuple[CentrixState, Play]]:
    """Every position of seeded random games, with the play made from it."""
    for seed in range(1, 400):
        state = CentrixState.new(players, seed=seed)
        rng = random.Random(seed)
        while state.to_move is not None:
            plays = state.legal_plays()
            play = rng.choice(plays)
            yield state, play
            state.push(play)


def first(found: Found) -> CentrixState:
    for state, _ in games():
        if found(state):
            return state.copy()
    raise LookupError("no position of the seeded games has it")


def holds(card: str, turning: bool = False) -> Found:
    """A legal play of ``card`` (one that turns a ring, if ``turning``)."""
    return lambda state: any(
        str(p.card) == card and (p.rotation is not None or not turning)
        for p in state.legal_play_tuple()
    )


def moves(frm: int | None = None, to: int | None = None) -> Found:
    """A legal play that moves a pawn (from ``frm``, to ``to``, each when given)."""

    def found(state: CentrixState) -> bool:
        for p in state.legal_play_tuple():
            if p.move is not None and frm in (None, p.move[0]) and to in (None, p.move[1]):
                return True
        return False

    return found


def enters_or_moves(state: CentrixState) -> bool:
    """A pawn may enter the board, or one on it may move."""
    return moves(frm=OFF)(state) and any(
        p.move is not None and p.move[0] != OFF for p in state.legal_play_tuple()
    )


def turns_alone(state: CentrixState) -> bool:
    return any(p.move is None for p in state.legal_play_tuple())


def three_plays() -> list[dict[str, Any]]:
    """A turn of three plays: each position of it, and the play its mover made."""
    turn: list[tuple[CentrixState, Play]] = []
    for state, play in games():
        if state.plays_done == 0:
            turn = []
        turn.append((state.copy(), play))
        if len(turn) == 3:
            break
    out = []
    for i, (state, play) in enumerate(turn):
        fixture = position(state, f"three-{i + 1}", f"play {i + 1} of a turn of three")
        fixture["played"] = str(play)
        out.append(fixture)
    return out


def fixtures() -> dict[str, Any]:
    named = [
        position(CentrixState.new(2, seed=1), "opening", "a new game: every pawn off the board"),
        position(first(holds("A")), "any-wild", "an any-colour wild in hand"),
        position(first(holds("S", turning=True)), "spin-wild", "a spin wild: any ring, any amount"),
        position(first(enters_or_moves), "enter-or-move", "a pawn may enter or one may move"),
        position(first(moves(to=TOP)), "to-top", "a pawn may reach the top"),
        position(first(turns_alone), "turn-alone", "a ring may be turned with no move"),
    ]
    about = " ".join((__doc__ or "").split("\n\n")[0].split())
    return {"about": about, "positions": named + three_plays()}


def to_json() -> str:
    return json.dumps(fixtures(), indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else FIXTURES
    target.write_text(to_json(), encoding="utf-8")
    print(f"wrote {target}")
